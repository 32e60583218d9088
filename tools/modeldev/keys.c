/* keys.c - a model's keys: the ones every model has, parsing one value,
 * and --help's and the man page's lists of them (model.h). */
#include "model.h"

#include <ctype.h>
#include <string.h>

#include "core/units.h"

static const char *const flush_words[] = { "honest", "lie", NULL };

#define C(f) offsetof(struct model_common, f)
const struct model_key model_common_keys[] = {
	{ "sector", KEY_BYTES, "512", "logical sector the block device shows (512 or 4096)",
	  C(sector), 512, 4096, NULL, true },
	{ "cache", KEY_BYTES, "0", "write cache: writes are acknowledged once in it, and a power cut (model-device.sh cut) loses what the media has not finished; 0: none",
	  C(cache), 0, 1ULL << 30, NULL, true },
	{ "cached", KEY_NS, "20us", "time to take a write into the write cache",
	  C(cached), 0, 1000000000ULL, NULL, true },
	{ "flush", KEY_WORD, "honest", "honest: a flush waits until the media has every cached write; lie: it returns at once",
	  C(flush), 0, 0, flush_words, true },
	{ "noise", KEY_PCT, "0", "each request's time times 1 + a uniform draw in [-noise, +noise] %",
	  C(noise), 0, 50, NULL, true },
	{ "rcache", KEY_BYTES, "0", "read cache: a read whose every line is in it is answered in rcache_hit without the media; reads and writes bring lines in, the least recently used go first, discards and a power cut throw them out; 0: none",
	  C(rcache), 0, 1ULL << 30, NULL, true },
	{ "rcache_hit", KEY_NS, "20us", "time to answer a read from the read cache",
	  C(rcache_hit), 0, 1000000000ULL, NULL, true },
	{ "rcache_line", KEY_BYTES, "4k", "the read cache's unit: a power of two of at least the sector; rcache is a whole number of lines",
	  C(rcache_line), 512, 1 << 20, NULL, true },
	{ NULL }
};

uint64_t *key_slot(const struct model *m, const struct model_key *k)
{
	return (uint64_t *)((k->common ? (char *)&m->common : (char *)m->params) + k->off);
}

static const char *kind_name(enum key_kind kind)
{
	switch (kind) {
	case KEY_BYTES: return "a size such as 4k or 1m";
	case KEY_NS: return "a time with its unit, such as 100us or 3ms";
	case KEY_COUNT: return "a whole number";
	case KEY_PCT: return "a whole percentage such as 7 or 7%";
	case KEY_WORD: return "one of the words";
	}
	return "?";
}

/* A key's bound as its user writes it: 10s, 1g, 50%. */
static void bound(enum key_kind kind, uint64_t x, char *buf, size_t len)
{
	if (kind == KEY_NS)
		fmt_time(buf, len, x);
	else if (kind == KEY_BYTES)
		fmt_size_short(buf, len, x);
	else
		snprintf(buf, len, "%llu%s", (unsigned long long)x, kind == KEY_PCT ? "%" : "");
}

/* One value of key k into *slot: 0, or -1 with err set. */
int key_set(const struct model_key *k, const char *v, uint64_t *slot,
		   char *err, size_t len)
{
	uint64_t x = 0;
	double pct;
	int rc = -1, i;

	switch (k->kind) {
	case KEY_BYTES:
		rc = parse_size(v, &x);
		break;
	case KEY_NS:
		/* a unit is required: "100" is 100 what? */
		rc = !*v || isdigit((unsigned char)v[strlen(v) - 1]) ? -1 :
			parse_time(v, 1, &x);
		break;
	case KEY_COUNT:
		rc = parse_uint(v, &x);
		break;
	case KEY_PCT:
		rc = parse_percent(v, &pct);
		if (!rc && (pct < 0 || pct != (double)(uint64_t)pct))
			rc = -1;
		x = rc ? 0 : (uint64_t)pct;
		break;
	case KEY_WORD:
		for (i = 0; k->words[i]; i++)
			if (!strcmp(v, k->words[i])) {
				x = (uint64_t)i;
				rc = 0;
			}
		if (rc) {
			size_t o = (size_t)snprintf(err, len, "%s=%s: give ", k->name, v);

			for (i = 0; k->words[i] && o < len; i++)
				o += (size_t)snprintf(err + o, len - o, "%s%s",
						      i ? " or " : "", k->words[i]);
			return -1;
		}
		break;
	}
	if (rc) {
		snprintf(err, len, "%s=%s: not %s", k->name, v, kind_name(k->kind));
		return -1;
	}
	if (k->kind != KEY_WORD && (x < k->min || x > k->max)) {
		char lo[32], hi[32];

		bound(k->kind, k->min, lo, sizeof(lo));
		bound(k->kind, k->max, hi, sizeof(hi));
		snprintf(err, len, "%s=%s: out of range, give %s to %s", k->name, v, lo, hi);
		return -1;
	}
	*slot = x;
	return 0;
}

const struct model_key *key_find(const struct model_key *keys, const char *name)
{
	for (; keys->name; keys++)
		if (!strcmp(keys->name, name))
			return keys;
	return NULL;
}

void key_print(FILE *f, const struct model_key *k, uint64_t v)
{
	if (k->kind == KEY_WORD)
		fprintf(f, "%s", k->words[v]);
	else
		fprintf(f, "%llu", (unsigned long long)v);
}

void model_help(FILE *f)
{
	const struct model_key *k;
	size_t i;

	for (i = 0; model_types[i]; i++) {
		fprintf(f, "\n%s: %s\n", model_types[i]->name, model_types[i]->about);
		for (k = model_types[i]->keys; k->name; k++)
			fprintf(f, "  %-11s %-7s %s\n", k->name, k->def, k->help);
	}
	fprintf(f, "\nevery model:\n");
	for (k = model_common_keys; k->name; k++)
		fprintf(f, "  %-11s %-7s %s\n", k->name, k->def, k->help);
}

/* roff's special characters in a help string: '-' and '\'. */
static void roff_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

static void roff_keys(FILE *f, const struct model_key *k)
{
	static const char *const what[] = { "SIZE", "TIME", "N", "PCT", "WORD" };

	for (; k->name; k++) {
		if (k->kind == KEY_WORD) {
			size_t i;

			fprintf(f, ".TP\n.BR %s= ", k->name);
			for (i = 0; k->words[i]; i++)
				fprintf(f, "%s%s", i ? "|" : "", k->words[i]);
			fputc('\n', f);
		} else {
			fprintf(f, ".TP\n.BI %s= %s\n", k->name, what[k->kind]);
		}
		roff_text(f, k->help);
		fprintf(f, "; default ");
		roff_text(f, k->def);
		fputs(".\n", f);
	}
}

void model_help_roff(FILE *f)
{
	size_t i;

	for (i = 0; model_types[i]; i++) {
		fprintf(f, ".SS %s\n", model_types[i]->name);
		roff_text(f, model_types[i]->about);
		fputs(".\n", f);
		roff_keys(f, model_types[i]->keys);
	}
	fputs(".SS every model\n", f);
	roff_keys(f, model_common_keys);
}
