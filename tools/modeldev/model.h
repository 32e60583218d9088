/* model.h - the device models of rebench-modeldev: what each request costs,
 * the device's data and write cache, and what the device did
 * (rebench-modeldev(1)).
 *
 * A model is a table (struct model_type): its keys with their defaults,
 * and its hooks.  The FUSE side (modeldev.c) calls model_read(),
 * model_write(), ... with the time the request arrived; they take the
 * model's lock, ask the type's serve() when the media is done with it
 * (unless the read cache, rcache.c, answers a read), pass writes through
 * the write cache (cache.c), move the data, and return the time the
 * request completes.  The caller waits until then
 * outside the lock: the model's state (which channel or head is busy until
 * when) decides the time, and requests that do not contend are served at
 * once.
 */
#ifndef MODELDEV_MODEL_H
#define MODELDEV_MODEL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum model_req { MREQ_READ, MREQ_WRITE, MREQ_FLUSH, MREQ_TRIM, MREQ_KINDS };

/* What a key's value is: bytes (4k, 1m), a time (100us, 3ms), a count, a
 * percentage, or one of a few words. */
enum key_kind { KEY_BYTES, KEY_NS, KEY_COUNT, KEY_PCT, KEY_WORD };

struct model_key {
	const char *name;
	enum key_kind kind;
	const char *def;	/* the default, as a user would write it */
	const char *help;	/* one line: what it is */
	size_t off;		/* of its uint64_t in the type's params */
	uint64_t min, max;	/* accepted range (not for KEY_WORD) */
	const char *const *words;	/* KEY_WORD: the words, NULL-ended */
	bool common;		/* one of model_common_keys: off is in
				 * struct model_common */
};

struct model;

struct model_type {
	const char *name;		/* "ssd" */
	const char *about;		/* one line for --help */
	const struct model_key *keys;	/* ended by a key with no name */
	size_t params_size;
	/* After the keys are set: check them against each other and the
	 * device's size, and build the state; 0, or -1 with err set. */
	int (*init)(struct model *m, char *err, size_t len);
	/* A request of len bytes at off, reaching the media at now
	 * (CLOCK_MONOTONIC ns): when the media is done with it.  Called
	 * under m->lock.  MREQ_FLUSH never reaches it. */
	uint64_t (*serve)(struct model *m, enum model_req req, uint64_t off,
			  uint64_t len, uint64_t now);
	/* A power cut at now: the media stops what it was doing (its
	 * queue is empty when the power is back). */
	void (*cut)(struct model *m, uint64_t now);
	/* "key value" lines of what the model did, for the counters file. */
	void (*counters)(const struct model *m, FILE *f);
	void (*fini)(struct model *m);
};

enum flush_mode { FLUSH_HONEST, FLUSH_LIE };

/* The keys every model has (model.c's common_keys). */
struct model_common {
	uint64_t sector;	/* logical sector the block device shows */
	uint64_t cache;		/* write cache, bytes; 0: none */
	uint64_t cached;	/* time to take a write into the cache */
	uint64_t flush;		/* enum flush_mode */
	uint64_t noise;		/* each time times 1 +- up to this % */
	/* the read cache (rcache.c): a read all in it skips the media */
	uint64_t rcache;	/* its bytes, a whole number of lines; 0: none */
	uint64_t rcache_hit;	/* time to answer a read from it */
	uint64_t rcache_line;	/* its unit: a power of two >= sector */
};

struct rcache;

/* A write the device acknowledged that the media has not finished: what
 * a power cut loses (cache.c). */
struct pending {
	uint64_t off, len, done;	/* done: when the media has it */
	unsigned char *old;	/* the data it overwrote, to put back */
};

struct model {
	const struct model_type *type;
	void *params;		/* type->params_size bytes: the keys' values */
	void *state;		/* the type's own */
	struct model_common common;
	uint64_t size;		/* of the device, bytes */
	unsigned char *data;	/* size bytes: what reads return */
	uint64_t rng;		/* the noise's xorshift state */
	pthread_mutex_t lock;
	/* the write cache (cache.c) */
	struct pending *pend;
	size_t npend, cap_pend;
	uint64_t pend_bytes;
	struct rcache *rc;	/* the read cache (rcache.c); NULL: none */
	/* what every model counts */
	uint64_t requests[MREQ_KINDS];
	uint64_t bytes[MREQ_KINDS];
	uint64_t in_flight;	/* requests timed and not yet answered */
	uint64_t in_flight_max;	/* the most at once: how deep the queue reached */
	uint64_t cache_writes, cache_full_waits, flushes_waited;
	uint64_t cuts, cut_writes_lost, cut_bytes_lost;
};

extern const struct model_type model_ssd, model_hdd;

/* keys.c: the keys every model has (sector, cache, cached, flush,
 * noise, rcache, rcache_hit, rcache_line), NULL-ended; where key k's value lives in m; parse v into *slot
 * (0, or -1 with err saying what and how to fix); a key by name in a list;
 * a value as a user writes it. */
extern const struct model_key model_common_keys[];
uint64_t *key_slot(const struct model *m, const struct model_key *k);
int key_set(const struct model_key *k, const char *v, uint64_t *slot, char *err,
	    size_t len);
const struct model_key *key_find(const struct model_key *keys, const char *name);
void key_print(FILE *f, const struct model_key *k, uint64_t v);

/* Is x a power of two (page, line and sector sizes must be)? */
static inline bool pow2(uint64_t x) { return x && !(x & (x - 1)); }

/* The model types, NULL-ended: the first word of MODEL names one. */
extern const struct model_type *const model_types[];

/* Parse "ssd:read=1ms,channels=2" for a device of size bytes into m, and
 * map its data: 0, or -1 with err saying what, where and how to fix. */
int model_parse(struct model *m, const char *spec, uint64_t size, char *err,
		size_t len);

/* The requests (each takes m->lock): copy the data and return the time
 * the request completes, noise included.  The caller answers then, and
 * calls model_done(). */
uint64_t model_read(struct model *m, void *buf, uint64_t off, uint64_t len,
		    uint64_t now);
uint64_t model_write(struct model *m, const void *buf, uint64_t off,
		     uint64_t len, uint64_t now);
uint64_t model_flush(struct model *m, uint64_t now);
/* A discard (zeroes, the pages unmapped), or with zero a write of zeros
 * (the loop device's write-zeroes). */
uint64_t model_trim(struct model *m, uint64_t off, uint64_t len, bool zero,
		    uint64_t now);
void model_done(struct model *m);

/* A power cut at now: every write the media has not finished is lost (its
 * old data put back); the device goes on serving. */
void model_cut(struct model *m, uint64_t now);

/* The counters file: the model's resolved keys, then what it did. */
void model_counters(struct model *m, FILE *f);

/* --help's list of models and keys with their defaults. */
void model_help(FILE *f);

/* The same as roff, for rebench-modeldev(1)'s MODELS (make man). */
void model_help_roff(FILE *f);

void model_free(struct model *m);

/* cache.c: the write cache, under m->lock.  cache_write: a write of len
 * at off whose media is done at done, arriving at now: journal the data it
 * overwrites and return when the device acknowledges it. */
uint64_t cache_write(struct model *m, uint64_t off, uint64_t len, uint64_t now,
		     uint64_t done);
uint64_t cache_flush(struct model *m, uint64_t now);
void cache_cut(struct model *m, uint64_t now);
void cache_free(struct model *m);

/* rcache.c: the read cache, under m->lock (NULL m->rc: each does
 * nothing).  rcache_init: check the keys against each other and allocate
 * every line (0, or -1 with err).  rcache_read: true when every line of
 * the read is cached (a hit: the media is skipped); either way its lines
 * are then the most recent.  rcache_write: a write's whole lines come in;
 * rcache_trim: a discard's lines go; rcache_cut: all go. */
int rcache_init(struct model *m, char *err, size_t len);
bool rcache_read(struct model *m, uint64_t off, uint64_t len);
void rcache_write(struct model *m, uint64_t off, uint64_t len);
void rcache_trim(struct model *m, uint64_t off, uint64_t len);
void rcache_cut(struct model *m);
void rcache_counters(const struct model *m, FILE *f);
void rcache_free(struct model *m);

#endif
