/* flush_honesty.c - the too-fast-flush heuristic (flush_honesty.h). */
#include "target/flush_honesty.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define POWER_CUT_TEST "a heuristic: only a power-cut test proves durability (write numbered records, cut the power, check which acknowledged ones survived, as diskchecker.pl does)"

enum flush_suspicion flush_honesty_judge(int rotational,
					 const char *write_cache,
					 uint64_t ops, double median_ns)
{
	bool fast = median_ns < (double)FLUSH_REVOLUTION_NS;

	if (ops < FLUSH_HONESTY_MIN_OPS || !write_cache)
		return FH_NONE;
	if (!strcmp(write_cache, "write through"))
		return rotational == 1 && !fast ? FH_NONE : FH_WRITE_THROUGH;
	if (!strcmp(write_cache, "write back") && rotational == 1 && fast)
		return FH_FAST_SPIN;
	return FH_NONE;
}

void flush_honesty_text(enum flush_suspicion s, const char *what,
			const char *dev, double median_ns, char *buf,
			size_t len)
{
	double ms = median_ns / 1e6;

	if (s == FH_FAST_SPIN)
		snprintf(buf, len, "flushes (%s) complete in a median %.3g ms, under one revolution of a %d rpm disk (%.0f ms): %s reports itself rotational with a write-back cache, and the drive may acknowledge flushes from its volatile cache; %s",
			 what, ms, FLUSH_REVOLUTION_RPM,
			 (double)FLUSH_REVOLUTION_NS / 1e6, dev, POWER_CUT_TEST);
	else if (s == FH_WRITE_THROUGH)
		snprintf(buf, len, "flushes (%s) complete in a median %.3g ms on %s, which reports a write-through cache, so the kernel sends it no cache flushes: durability rests on the device's claim that its cache is not volatile; %s",
			 what, ms, dev, POWER_CUT_TEST);
	else
		snprintf(buf, len, "%s", "");
}
