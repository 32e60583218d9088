/* hdd.c - the model disk: one head over spinning tracks, zoned, with a
 * seek curve and an on-drive read-ahead buffer (rebench-modeldev(1),
 * MODELS).
 *
 * Track k holds spt(k) sectors, falling linearly from the outermost track
 * (track bytes) to the innermost (inner % of that): outer tracks are
 * faster.  The first LBA is on the outermost track.  One head serves one
 * request at a time, in arrival order: it seeks to the request's track
 * (seek_min + (seek_max - seek_min) x sqrt((d - 1) / (tracks - 2)) for a
 * distance of d >= 1 tracks), waits for the platter to bring the first
 * sector under it (the platter turns at rpm from time 0 of the daemon's
 * clock: rotational latency follows the request's time), transfers at one
 * track per revolution, and pays switch to move on to the next track.
 * After a read the drive reads on: the readahead bytes that follow are in
 * its buffer as the platter passes them, and a read wholly inside that
 * window is served from it when its last sector has passed (no seek, no
 * rotation: sequential reads run at the media rate).  A write empties the
 * buffer.
 */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct hdd_params {
	uint64_t rpm, seek_min, seek_max, track, inner, sw, readahead;
};

struct hdd_state {
	uint64_t rev_ns;	/* one revolution */
	uint64_t tracks;
	uint64_t spt_outer, spt_inner;	/* the zoning's first and last */
	uint64_t *first;	/* per track: its first sector; first[tracks] = all */
	uint64_t head_free;	/* when the head is done with what it has */
	uint64_t cur;		/* the track it is on */
	uint64_t ra_from, ra_to;	/* the read-ahead window, sectors */
	uint64_t ra_t0;		/* when sector ra_from passed the head */
	uint64_t ra_track;	/* the track of ra_from */
	uint64_t seeks, seek_tracks, seek_ns, rot_ns, xfer_ns, switches;
	uint64_t ra_hits, media_reads, media_writes;
};

#define P(f) offsetof(struct hdd_params, f)
#define MS 1000000ULL
static const struct model_key hdd_keys[] = {
	{ "rpm", KEY_COUNT, "7200", "platter speed, revolutions a minute",
	  P(rpm), 60, 60000, NULL },
	{ "seek_min", KEY_NS, "600us", "seek to the next track",
	  P(seek_min), 0, 1000 * MS, NULL },
	{ "seek_max", KEY_NS, "15ms", "seek across the whole disk (seek_min + (seek_max - seek_min) x sqrt of the distance's share)",
	  P(seek_max), 0, 1000 * MS, NULL },
	{ "track", KEY_BYTES, "512k", "bytes on the outermost track",
	  P(track), 4096, 64ULL << 20, NULL },
	{ "inner", KEY_PCT, "50", "bytes on the innermost track, % of the outermost's (zones: linear in between)",
	  P(inner), 1, 100, NULL },
	{ "switch", KEY_NS, "1ms", "head and track switch: moving on to the next track in a transfer",
	  P(sw), 0, 1000 * MS, NULL },
	{ "readahead", KEY_BYTES, "256k", "on-drive read-ahead after each read (the buffer keeps twice this: the read-ahead and what was just read from it); 0: none",
	  P(readahead), 0, 64ULL << 20, NULL },
	{ NULL }
};

static int hdd_init(struct model *m, char *err, size_t len)
{
	struct hdd_params *p = m->params;
	struct hdd_state *s;
	uint64_t total, outer, in, k, spt, kk;

	if (p->seek_max < p->seek_min) {
		snprintf(err, len, "seek_max=%lluns is shorter than seek_min=%lluns",
			 (unsigned long long)p->seek_max, (unsigned long long)p->seek_min);
		return -1;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto oom;
	m->state = s;
	s->rev_ns = 60000000000ULL / p->rpm;
	total = m->size / m->common.sector;
	outer = p->track / m->common.sector;
	in = outer * p->inner / 100;
	if (!in)
		in = 1;
	/* kk tracks whose sizes fall linearly from outer to in hold
	 * kk x (outer + in) / 2 sectors; the last one ends with the device
	 * (it may hold fewer) */
	kk = (2 * total + outer + in - 1) / (outer + in);
	if (!kk)
		kk = 1;
	s->first = malloc((kk + 1) * sizeof(*s->first));
	if (!s->first)
		goto oom;
	s->first[0] = 0;
	for (k = 0; k < kk;) {
		spt = kk > 1 ? outer - (outer - in) * k / (kk - 1) : outer;
		s->first[k + 1] = s->first[k] + spt;
		k++;
		if (s->first[k] >= total)
			break;
	}
	s->tracks = k;
	s->first[k] = total;
	s->spt_outer = outer;
	s->spt_inner = in;
	s->ra_to = s->ra_from = 0;
	return 0;
oom:
	snprintf(err, len, "out of memory for the model's tables");
	return -1;
}

/* The track that holds sector x. */
static uint64_t track_of(const struct hdd_state *s, uint64_t x)
{
	uint64_t lo = 0, hi = s->tracks - 1;

	while (lo < hi) {
		uint64_t mid = (lo + hi + 1) / 2;

		if (s->first[mid] <= x)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static uint64_t spt_of(const struct hdd_state *s, uint64_t k)
{
	return s->first[k + 1] - s->first[k];
}

static uint64_t seek_time(const struct hdd_params *p, const struct hdd_state *s, uint64_t d)
{
	double share;

	if (!d)
		return 0;
	share = s->tracks > 2 ? (double)(d - 1) / (double)(s->tracks - 2) : 0.0;
	return p->seek_min + (uint64_t)((double)(p->seek_max - p->seek_min) * sqrt(share));
}

/* Time for the sectors [x, x + n) of track k... to pass under the head,
 * moving on track by track; from t, the head already over sector x. */
static uint64_t transfer(const struct hdd_params *p, struct hdd_state *s, uint64_t x,
			 uint64_t n, uint64_t t)
{
	uint64_t k = track_of(s, x);

	while (n) {
		uint64_t spt = spt_of(s, k), in = s->first[k + 1] - x;
		uint64_t take = n < in ? n : in, dt = s->rev_ns * take / spt;

		t += dt;
		s->xfer_ns += dt;
		n -= take;
		x += take;
		if (n) {
			t += p->sw;
			s->switches++;
			k++;
		}
	}
	s->cur = k;
	return t;
}

static uint64_t hdd_serve(struct model *m, enum model_req req, uint64_t off,
			  uint64_t len, uint64_t now)
{
	const struct hdd_params *p = m->params;
	struct hdd_state *s = m->state;
	uint64_t x = off / m->common.sector, n = (len + m->common.sector - 1) / m->common.sector;
	uint64_t t = now > s->head_free ? now : s->head_free, k, d, angle, at, ra;

	if (req == MREQ_TRIM || !n)
		return now;	/* a disk has nothing to unmap */
	/* the buffer holds the read-ahead and what was just delivered from
	 * it: its last 2 x readahead sectors, not the whole stream so far */
	ra = p->readahead / m->common.sector;
	if (req == MREQ_READ && x >= s->ra_from && x + n <= s->ra_to &&
	    x + 2 * ra >= s->ra_to) {
		/* in the read-ahead buffer once its last sector has passed */
		uint64_t kk = s->ra_track, ready;

		ready = s->ra_t0 + s->rev_ns * (x + n - s->ra_from) / spt_of(s, kk);
		s->ra_hits++;
		/* the drive reads on while the stream keeps hitting */
		if (x + n + ra > s->ra_to)
			s->ra_to = x + n + ra;
		if (s->ra_to > s->first[s->tracks])
			s->ra_to = s->first[s->tracks];
		if (ready > s->head_free)
			s->head_free = ready;
		s->cur = track_of(s, x + n - 1);
		return ready > now ? ready : now;
	}
	if (req == MREQ_WRITE)
		s->ra_from = s->ra_to = 0;
	k = track_of(s, x);
	d = k > s->cur ? k - s->cur : s->cur - k;
	if (d) {
		uint64_t st = seek_time(p, s, d);

		s->seeks++;
		s->seek_tracks += d;
		s->seek_ns += st;
		t += st;
	}
	/* the platter's angle now, in ns of a revolution, and the sector's */
	angle = t % s->rev_ns;
	at = s->rev_ns * (x - s->first[k]) / spt_of(s, k);
	d = (at + s->rev_ns - angle) % s->rev_ns;
	s->rot_ns += d;
	t += d;
	t = transfer(p, s, x, n, t);
	s->head_free = t;
	if (req == MREQ_READ) {
		s->media_reads++;
		if (p->readahead) {
			s->ra_from = x + n;
			s->ra_to = x + n + p->readahead / m->common.sector;
			s->ra_t0 = t;
			s->ra_track = s->cur;
		}
	} else {
		s->media_writes++;
	}
	return t;
}

static void hdd_cut(struct model *m, uint64_t now)
{
	struct hdd_state *s = m->state;

	if (s->head_free > now)
		s->head_free = now;
	s->ra_from = s->ra_to = 0;	/* the buffer is gone with the power */
}

static void hdd_counters(const struct model *m, FILE *f)
{
	const struct hdd_state *s = m->state;

	fprintf(f, "hdd.tracks %llu\n", (unsigned long long)s->tracks);
	fprintf(f, "hdd.outer_track_sectors %llu\nhdd.inner_track_sectors %llu\n",
		(unsigned long long)s->spt_outer, (unsigned long long)s->spt_inner);
	fprintf(f, "hdd.revolution_ns %llu\n", (unsigned long long)s->rev_ns);
	fprintf(f, "hdd.media_reads %llu\nhdd.media_writes %llu\nhdd.readahead_hits %llu\n",
		(unsigned long long)s->media_reads, (unsigned long long)s->media_writes,
		(unsigned long long)s->ra_hits);
	fprintf(f, "hdd.seeks %llu\nhdd.seek_tracks %llu\nhdd.seek_ns %llu\n",
		(unsigned long long)s->seeks, (unsigned long long)s->seek_tracks,
		(unsigned long long)s->seek_ns);
	fprintf(f, "hdd.rotation_ns %llu\nhdd.transfer_ns %llu\nhdd.track_switches %llu\n",
		(unsigned long long)s->rot_ns, (unsigned long long)s->xfer_ns,
		(unsigned long long)s->switches);
}

static void hdd_fini(struct model *m)
{
	struct hdd_state *s = m->state;

	if (!s)
		return;
	free(s->first);
	free(s);
	m->state = NULL;
}

const struct model_type model_hdd = {
	.name = "hdd",
	.about = "one head over zoned, spinning tracks: seeks, rotation, read-ahead",
	.keys = hdd_keys,
	.params_size = sizeof(struct hdd_params),
	.init = hdd_init,
	.serve = hdd_serve,
	.cut = hdd_cut,
	.counters = hdd_counters,
	.fini = hdd_fini,
};
