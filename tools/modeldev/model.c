/* model.c - what every model shares: MODEL's grammar, the common keys (the
 * write cache, flush, noise), the data, the counters file and --help
 * (model.h). */
#include "model.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/units.h"

const struct model_type *const model_types[] = { &model_ssd, &model_hdd, NULL };

static const char *const flush_words[] = { "honest", "lie", NULL };

#define C(f) offsetof(struct model_common, f)
static const struct model_key common_keys[] = {
	{ "sector", KEY_BYTES, "512", "logical sector the block device shows (512 or 4096)",
	  C(sector), 512, 4096, NULL },
	{ "cache", KEY_BYTES, "0", "write cache: writes are acknowledged once in it, and a power cut (model-device.sh cut) loses what the media has not finished; 0: none",
	  C(cache), 0, 1ULL << 30, NULL },
	{ "cached", KEY_NS, "20us", "time to take a write into the write cache",
	  C(cached), 0, 1000000000ULL, NULL },
	{ "flush", KEY_WORD, "honest", "honest: a flush waits until the media has every cached write; lie: it returns at once",
	  C(flush), 0, 0, flush_words },
	{ "noise", KEY_PCT, "0", "each request's time times 1 + a uniform draw in [-noise, +noise] %",
	  C(noise), 0, 50, NULL },
	{ NULL }
};

static uint64_t *key_slot(const struct model *m, const struct model_key *k)
{
	bool common = k >= common_keys &&
		k < common_keys + sizeof(common_keys) / sizeof(common_keys[0]);

	return (uint64_t *)((common ? (char *)&m->common : (char *)m->params) + k->off);
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
static void fmt_bound(enum key_kind kind, uint64_t x, char *buf, size_t len)
{
	static const struct { uint64_t f; const char *u; } ns[] = {
		{ 1000000000ULL, "s" }, { 1000000ULL, "ms" }, { 1000ULL, "us" }, { 1, "ns" }
	}, bytes[] = {
		{ 1ULL << 30, "g" }, { 1ULL << 20, "m" }, { 1ULL << 10, "k" }, { 1, "" }
	};
	size_t i;

	for (i = 0; i < 4; i++) {
		if (kind == KEY_NS && (x % ns[i].f == 0 || i == 3)) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(x / ns[i].f), ns[i].u);
			return;
		}
		if (kind == KEY_BYTES && (x % bytes[i].f == 0 || i == 3)) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(x / bytes[i].f), bytes[i].u);
			return;
		}
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)x, kind == KEY_PCT ? "%" : "");
}

/* One value of key k into *slot: 0, or -1 with err set. */
static int set_key(const struct model_key *k, const char *v, uint64_t *slot,
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

		fmt_bound(k->kind, k->min, lo, sizeof(lo));
		fmt_bound(k->kind, k->max, hi, sizeof(hi));
		snprintf(err, len, "%s=%s: out of range, give %s to %s", k->name, v, lo, hi);
		return -1;
	}
	*slot = x;
	return 0;
}

static const struct model_key *find_key(const struct model_key *keys, const char *name)
{
	for (; keys->name; keys++)
		if (!strcmp(keys->name, name))
			return keys;
	return NULL;
}

int model_parse(struct model *m, const char *spec, uint64_t size, char *err,
		size_t len)
{
	const struct model_type *t = NULL;
	const struct model_key *k;
	char *copy, *item, *save = NULL, *colon;
	size_t i, n;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	m->size = size;
	m->rng = 0x9e3779b97f4a7c15ULL;
	colon = strchr(spec, ':');
	n = colon ? (size_t)(colon - spec) : strlen(spec);
	for (i = 0; model_types[i]; i++)
		if (strlen(model_types[i]->name) == n &&
		    !strncmp(spec, model_types[i]->name, n))
			t = model_types[i];
	if (!t) {
		snprintf(err, len, "%.*s: no such model; give ssd:KEY=VALUE,... or hdd:KEY=VALUE,... (rebench-modeldev --help lists the keys)",
			 (int)n, spec);
		return -1;
	}
	m->type = t;
	m->params = calloc(1, t->params_size);
	copy = strdup(colon ? colon + 1 : "");
	if (!m->params || !copy) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	/* the defaults first, then what MODEL says */
	for (k = t->keys; k->name; k++)
		if (set_key(k, k->def, key_slot(m, k), err, len))
			goto out;	/* a wrong default: a bug, said as one */
	for (k = common_keys; k->name; k++)
		if (set_key(k, k->def, key_slot(m, k), err, len))
			goto out;
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');

		if (!eq) {
			snprintf(err, len, "%s: give KEY=VALUE", item);
			goto out;
		}
		*eq = '\0';
		k = find_key(t->keys, item);
		if (!k)
			k = find_key(common_keys, item);
		if (!k) {
			size_t o = (size_t)snprintf(err, len, "%s: no such key of %s; the keys are",
						    item, t->name);

			for (k = t->keys; k->name && o < len; k++)
				o += (size_t)snprintf(err + o, len - o, " %s", k->name);
			for (k = common_keys; k->name && o < len; k++)
				o += (size_t)snprintf(err + o, len - o, " %s", k->name);
			goto out;
		}
		if (set_key(k, eq + 1, key_slot(m, k), err, len))
			goto out;
	}
	if (m->common.sector != 512 && m->common.sector != 4096) {
		snprintf(err, len, "sector=%llu: give 512 or 4096 (what a loop device can show)",
			 (unsigned long long)m->common.sector);
		goto out;
	}
	if (m->size % m->common.sector) {
		snprintf(err, len, "the size %llu is not a whole number of %llu-byte sectors",
			 (unsigned long long)m->size, (unsigned long long)m->common.sector);
		goto out;
	}
	if (t->init(m, err, len))
		goto out;
	m->data = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m->data == MAP_FAILED) {
		m->data = NULL;
		snprintf(err, len, "cannot map %llu bytes for the data: %s",
			 (unsigned long long)size, strerror(errno));
		goto out;
	}
	pthread_mutex_init(&m->lock, NULL);
	rc = 0;
out:
	free(copy);
	if (rc) {
		if (m->state)
			t->fini(m);
		free(m->params);
		m->params = NULL;
	}
	return rc;
}

/* xorshift64*: the noise's draws; seeded, so a run can be repeated */
static double draw(struct model *m)
{
	m->rng ^= m->rng >> 12;
	m->rng ^= m->rng << 25;
	m->rng ^= m->rng >> 27;
	return (double)((m->rng * 0x2545f4914f6cdd1dULL) >> 11) / 9007199254740992.0;
}

/* The bookkeeping of every request: counts, noise, the queue's depth.
 * Under m->lock. */
static uint64_t finish(struct model *m, enum model_req req, uint64_t len,
		       uint64_t now, uint64_t done)
{
	m->requests[req]++;
	m->bytes[req] += len;
	if (m->common.noise && done > now) {
		double f = 1.0 + (2.0 * draw(m) - 1.0) * (double)m->common.noise / 100.0;

		done = now + (uint64_t)((double)(done - now) * f);
	}
	if (++m->in_flight > m->in_flight_max)
		m->in_flight_max = m->in_flight;
	return done;
}

uint64_t model_read(struct model *m, void *buf, uint64_t off, uint64_t len,
		    uint64_t now)
{
	uint64_t done;

	pthread_mutex_lock(&m->lock);
	done = m->type->serve(m, MREQ_READ, off, len, now);
	memcpy(buf, m->data + off, len);
	done = finish(m, MREQ_READ, len, now, done);
	pthread_mutex_unlock(&m->lock);
	return done;
}

uint64_t model_write(struct model *m, const void *buf, uint64_t off,
		     uint64_t len, uint64_t now)
{
	uint64_t done;

	pthread_mutex_lock(&m->lock);
	done = m->type->serve(m, MREQ_WRITE, off, len, now);
	/* before the data changes: the cache keeps what a cut puts back */
	if (m->common.cache)
		done = cache_write(m, off, len, now, done);
	memcpy(m->data + off, buf, len);
	done = finish(m, MREQ_WRITE, len, now, done);
	pthread_mutex_unlock(&m->lock);
	return done;
}

uint64_t model_flush(struct model *m, uint64_t now)
{
	uint64_t done;

	pthread_mutex_lock(&m->lock);
	done = cache_flush(m, now);
	done = finish(m, MREQ_FLUSH, 0, now, done);
	pthread_mutex_unlock(&m->lock);
	return done;
}

uint64_t model_trim(struct model *m, uint64_t off, uint64_t len, bool zero,
		    uint64_t now)
{
	uint64_t done;

	pthread_mutex_lock(&m->lock);
	/* not cached: a discard or write-zeroes is on the media when done */
	done = m->type->serve(m, zero ? MREQ_WRITE : MREQ_TRIM, off, len, now);
	memset(m->data + off, 0, len);
	done = finish(m, zero ? MREQ_WRITE : MREQ_TRIM, len, now, done);
	pthread_mutex_unlock(&m->lock);
	return done;
}

void model_done(struct model *m)
{
	pthread_mutex_lock(&m->lock);
	m->in_flight--;
	pthread_mutex_unlock(&m->lock);
}

void model_cut(struct model *m, uint64_t now)
{
	pthread_mutex_lock(&m->lock);
	cache_cut(m, now);
	m->type->cut(m, now);
	pthread_mutex_unlock(&m->lock);
}

static void print_value(FILE *f, const struct model_key *k, uint64_t v)
{
	if (k->kind == KEY_WORD)
		fprintf(f, "%s", k->words[v]);
	else
		fprintf(f, "%llu", (unsigned long long)v);
}

void model_counters(struct model *m, FILE *f)
{
	static const char *const req_names[MREQ_KINDS] = { "read", "write", "flush", "trim" };
	const struct model_key *const lists[] = { m->type->keys, common_keys };
	const struct model_key *k;
	size_t l;
	int r;

	pthread_mutex_lock(&m->lock);
	fprintf(f, "model %s\nsize %llu\n", m->type->name, (unsigned long long)m->size);
	for (l = 0; l < 2; l++)
		for (k = lists[l]; k->name; k++) {
			fprintf(f, "key.%s ", k->name);
			print_value(f, k, *key_slot(m, k));
			fputc('\n', f);
		}
	for (r = 0; r < MREQ_KINDS; r++)
		fprintf(f, "requests.%s %llu\nbytes.%s %llu\n", req_names[r],
			(unsigned long long)m->requests[r], req_names[r],
			(unsigned long long)m->bytes[r]);
	fprintf(f, "requests.in_flight_max %llu\n", (unsigned long long)m->in_flight_max);
	fprintf(f, "cache.writes %llu\ncache.full_waits %llu\ncache.dirty_bytes %llu\n",
		(unsigned long long)m->cache_writes, (unsigned long long)m->cache_full_waits,
		(unsigned long long)m->pend_bytes);
	fprintf(f, "cache.flushes_waited %llu\n", (unsigned long long)m->flushes_waited);
	fprintf(f, "cut.count %llu\ncut.writes_lost %llu\ncut.bytes_lost %llu\n",
		(unsigned long long)m->cuts, (unsigned long long)m->cut_writes_lost,
		(unsigned long long)m->cut_bytes_lost);
	m->type->counters(m, f);
	pthread_mutex_unlock(&m->lock);
}

void model_help(FILE *f)
{
	const struct model_key *k;
	size_t i;

	for (i = 0; model_types[i]; i++) {
		fprintf(f, "\n%s: %s\n", model_types[i]->name, model_types[i]->about);
		for (k = model_types[i]->keys; k->name; k++)
			fprintf(f, "  %-10s %-7s %s\n", k->name, k->def, k->help);
	}
	fprintf(f, "\nevery model:\n");
	for (k = common_keys; k->name; k++)
		fprintf(f, "  %-10s %-7s %s\n", k->name, k->def, k->help);
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
	roff_keys(f, common_keys);
}

void model_free(struct model *m)
{
	if (m->type && m->params)
		m->type->fini(m);
	cache_free(m);
	if (m->data)
		munmap(m->data, m->size);
	free(m->params);
	m->params = NULL;
}
