/* memory.c - see memory.h. */
#include "core/memory.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"

static uint64_t budget;
static char budget_text[96];
static _Atomic uint64_t used;

static uint64_t mem_available(void)
{
	char line[256];
	unsigned long long kib = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

uint64_t memory_budget(void)
{
	const char *env = getenv("REBENCH_MEMORY_BUDGET");
	char a[32], b[32];
	uint64_t avail;

	if (budget)
		return budget;
	if (env && *env && !parse_size(env, &budget) && budget) {
		snprintf(budget_text, sizeof(budget_text), "%s (REBENCH_MEMORY_BUDGET)",
			 fmt_size_human(a, sizeof(a), budget));
		return budget;
	}
	avail = mem_available();
	budget = avail ? avail / 2 : (uint64_t)1 << 30;
	snprintf(budget_text, sizeof(budget_text), "%s (half of the %s available)",
		 fmt_size_human(a, sizeof(a), budget),
		 fmt_size_human(b, sizeof(b), avail));
	return budget;
}

const char *memory_budget_text(void)
{
	memory_budget();
	return budget_text;
}

bool memory_take(uint64_t bytes)
{
	uint64_t before = atomic_fetch_add(&used, bytes);

	if (before + bytes > memory_budget()) {
		atomic_fetch_sub(&used, bytes);
		return false;
	}
	return true;
}

void memory_give(uint64_t bytes)
{
	atomic_fetch_sub(&used, bytes);
}

bool memory_take_held(uint64_t *held, uint64_t bytes)
{
	if (!memory_take(bytes))
		return false;
	*held += bytes;
	return true;
}

void memory_give_held(uint64_t *held, uint64_t bytes)
{
	memory_give(bytes);
	*held -= bytes;
}

void *memory_realloc(void *p, size_t old_bytes, size_t new_bytes,
		     uint64_t *held, int *err)
{
	void *q;

	if (!memory_take_held(held, new_bytes - old_bytes)) {
		*err = -E2BIG;
		return NULL;
	}
	q = realloc(p, new_bytes);
	if (!q) {
		memory_give_held(held, new_bytes - old_bytes);
		*err = -ENOMEM;
	}
	return q;
}

uint64_t memory_held(void)
{
	return atomic_load(&used);
}

int memory_refuse_log(char *buf, size_t len, const char *log,
		      unsigned long line, const char *what)
{
	char a[32];

	/* twice the budget, in MiB: a value REBENCH_MEMORY_BUDGET takes */
	snprintf(buf, len, "%s: at line %lu the log needs more than rebench's memory budget of %s: %s hold %s so far (see MEMORY in rebench(1)); raise the budget (REBENCH_MEMORY_BUDGET=%llum, for example), or give a shorter log",
		 log, line, memory_budget_text(), what,
		 fmt_size_human(a, sizeof(a), memory_held()),
		 (unsigned long long)((2 * memory_budget() + (1 << 20) - 1) >> 20));
	return -E2BIG;
}
