/* model.c - what every model shares: MODEL's grammar (the keys are in
 * keys.c), the data, the requests' bookkeeping, the counters file
 * (model.h). */
#include "model.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

const struct model_type *const model_types[] = { &model_ssd, &model_hdd, NULL };

static const struct model_type *find_type(const char *spec, size_t n)
{
	size_t i;

	for (i = 0; model_types[i]; i++)
		if (strlen(model_types[i]->name) == n &&
		    !strncmp(spec, model_types[i]->name, n))
			return model_types[i];
	return NULL;
}

/* "KEY: no such key of TYPE; the keys are ..." into err. */
static void no_such_key(const struct model_type *t, const char *key,
			char *err, size_t len)
{
	const struct model_key *k;
	size_t o = (size_t)snprintf(err, len, "%s: no such key of %s; the keys are",
				    key, t->name);

	for (k = t->keys; k->name && o < len; k++)
		o += (size_t)snprintf(err + o, len - o, " %s", k->name);
	for (k = model_common_keys; k->name && o < len; k++)
		o += (size_t)snprintf(err + o, len - o, " %s", k->name);
}

/* The defaults of the type's keys and the common ones, then the
 * KEY=VALUE,... of list (which is cut up); 0, or -1 with err. */
static int set_keys(struct model *m, char *list, char *err, size_t len)
{
	const struct model_type *t = m->type;
	const struct model_key *k;
	char *item, *save = NULL;

	for (k = t->keys; k->name; k++)
		if (key_set(k, k->def, key_slot(m, k), err, len))
			return -1;	/* a wrong default: a bug, said as one */
	for (k = model_common_keys; k->name; k++)
		if (key_set(k, k->def, key_slot(m, k), err, len))
			return -1;
	for (item = strtok_r(list, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');

		if (!eq) {
			snprintf(err, len, "%s: give KEY=VALUE", item);
			return -1;
		}
		*eq = '\0';
		k = key_find(t->keys, item);
		if (!k)
			k = key_find(model_common_keys, item);
		if (!k) {
			no_such_key(t, item, err, len);
			return -1;
		}
		if (key_set(k, eq + 1, key_slot(m, k), err, len))
			return -1;
	}
	return 0;
}

/* What holds whatever the type: the sector and the size in sectors. */
static int check_common(const struct model *m, char *err, size_t len)
{
	if (m->common.sector != 512 && m->common.sector != 4096) {
		snprintf(err, len, "sector=%llu: give 512 or 4096 (what a loop device can show)",
			 (unsigned long long)m->common.sector);
		return -1;
	}
	if (m->size % m->common.sector) {
		snprintf(err, len, "the size %llu is not a whole number of %llu-byte sectors",
			 (unsigned long long)m->size, (unsigned long long)m->common.sector);
		return -1;
	}
	return 0;
}

static int map_data(struct model *m, char *err, size_t len)
{
	m->data = mmap(NULL, m->size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m->data == MAP_FAILED) {
		m->data = NULL;
		snprintf(err, len, "cannot map %llu bytes for the data: %s",
			 (unsigned long long)m->size, strerror(errno));
		return -1;
	}
	return 0;
}

int model_parse(struct model *m, const char *spec, uint64_t size, char *err,
		size_t len)
{
	const char *colon = strchr(spec, ':');
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
	const struct model_type *t = find_type(spec, n);
	char *copy;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	m->size = size;
	m->rng = 0x9e3779b97f4a7c15ULL;
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
	if (set_keys(m, copy, err, len) || check_common(m, err, len) ||
	    t->init(m, err, len) || rcache_init(m, err, len))
		goto out;
	if (map_data(m, err, len))
		goto out;
	pthread_mutex_init(&m->lock, NULL);
	rc = 0;
out:
	free(copy);
	if (rc) {
		if (m->state)
			t->fini(m);
		rcache_free(m);
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
	/* a hit is the drive's DRAM: the media and the head are not asked */
	if (rcache_read(m, off, len))
		done = now + m->common.rcache_hit;
	else
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
	rcache_write(m, off, len);	/* the newest data: no change of time */
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
	/* write-zeroes is a write of zeros; a discard leaves no line */
	if (zero)
		rcache_write(m, off, len);
	else
		rcache_trim(m, off, len);
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
	rcache_cut(m);
	m->type->cut(m, now);
	pthread_mutex_unlock(&m->lock);
}


void model_counters(struct model *m, FILE *f)
{
	static const char *const req_names[MREQ_KINDS] = { "read", "write", "flush", "trim" };
	const struct model_key *const lists[] = { m->type->keys, model_common_keys };
	const struct model_key *k;
	size_t l;
	int r;

	pthread_mutex_lock(&m->lock);
	fprintf(f, "model %s\nsize %llu\n", m->type->name, (unsigned long long)m->size);
	for (l = 0; l < 2; l++)
		for (k = lists[l]; k->name; k++) {
			fprintf(f, "key.%s ", k->name);
			key_print(f, k, *key_slot(m, k));
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
	rcache_counters(m, f);
	m->type->counters(m, f);
	pthread_mutex_unlock(&m->lock);
}

void model_free(struct model *m)
{
	if (m->type && m->params)
		m->type->fini(m);
	cache_free(m);
	rcache_free(m);
	if (m->data)
		munmap(m->data, m->size);
	free(m->params);
	m->params = NULL;
}
