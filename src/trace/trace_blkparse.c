/* trace_blkparse.c - blkparse's default output read as records: what
 * reached a block device, known by the block layer (blktrace(8)).
 *
 * A line of blkparse's default format (blkparse(1), DEFAULT OUTPUT):
 *
 *	MAJ,MIN CPU SEQ SEC.NSEC PID ACTION RWBS [SECTOR + COUNT] ...
 *	  8,0    3        1     0.000000000   697  D   W 223490 + 8 [kjournald]
 *
 * Only D (issued to the driver) lines become records: one per request
 * that reached the device, on the file /dev/block/MAJ:MIN, at
 * SECTOR * 512 for COUNT * 512 bytes, at SEC.NSEC, by PID (0, the kernel,
 * counts as 1), duration 0.  RWBS gives the call (trace_blk_call: R a
 * pread, W a pwrite or with FUA a pwritev2 with RWF_DSYNC, D a fallocate
 * that punches a hole, as a fio trim, a flush without data an fsync);
 * other D lines (N) and every other action (Q, G, I, M, C, P, U, ...) are
 * no records.  The summary blkparse prints at the end (from a line
 * "CPU..." or "Total...") ends the records.
 */
#include "trace/trace_blkparse.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECTOR 512

/* "8,0 3 1 0.000000000 697 D W": the fields every event line has. */
struct blk_head {
	unsigned maj, min;
	uint64_t t_ns;
	uint64_t pid;
	char action[8], rwbs[16];
	int rest;		/* offset of what follows RWBS */
};

static bool parse_head(const char *line, struct blk_head *h)
{
	unsigned long cpu, seq, sec, nsec;
	char frac[16];
	int n = 0;

	if (sscanf(line, " %u,%u %lu %lu %lu.%15[0-9] %lu %7s %15s %n",
		   &h->maj, &h->min, &cpu, &seq, &sec, frac, &h->pid,
		   h->action, h->rwbs, &n) < 9 || !n)
		return false;
	if (strlen(frac) != 9)
		return false;
	nsec = strtoul(frac, NULL, 10);
	h->t_ns = (uint64_t)sec * 1000000000u + nsec;
	h->rest = n;
	return true;
}

bool trace_blk_header(struct trace_reader *r, const char *line)
{
	struct blk_head h;

	if (!parse_head(line, &h))
		return false;
	r->blk = true;
	r->blk_pending = true;	/* the line is the first event */
	r->version = 1;
	return true;
}

int trace_blk_call(const char *rwbs, struct trace_rec *rec)
{
	const char *op = rwbs;
	bool preflush = false;

	/* F first is a preflush when an operation follows it */
	if (op[0] == 'F' && op[1] && strchr("RWDN", op[1])) {
		preflush = true;
		op++;
	}
	rec->flags = 0;
	rec->iovcnt = 0;
	switch (op[0]) {
	case 'R':
		rec->call = TC_pread;
		break;
	case 'W':
		/* FUA: the one flag written right after the operation */
		if (op[1] == 'F') {
			rec->call = TC_pwritev2;
			rec->iovcnt = 1;
			rec->flags = RWF_DSYNC;
		} else {
			rec->call = TC_pwrite;
		}
		break;
	case 'D':
		rec->call = TC_fallocate;
		rec->flags = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
		break;
	case 'F':
		rec->call = TC_fsync;
		break;
	case 'N':
		if (!preflush)
			return 0;
		rec->call = TC_fsync;
		break;
	default:
		return 0;
	}
	rec->type = trace_call_types[rec->call];
	return 1;
}

static int bad_line(struct trace_reader *r, const char *why)
{
	snprintf(r->err, sizeof(r->err), "%s: line %lu: corrupt: %s",
		 r->path, r->line, why);
	return -EINVAL;
}

int trace_blk_parse(struct trace_reader *r, char *line,
		    struct trace_rec *rec)
{
	unsigned long long sector, count;
	char name[64], *p;
	struct blk_head h;
	int n = 0;

	if (r->blk_done)
		return 0;
	for (p = line; *p == ' ' || *p == '\t'; p++)
		;
	if (!*p)
		return 0;
	if (!strncmp(p, "CPU", 3) || !strncmp(p, "Total", 5)) {
		r->blk_done = true;	/* blkparse's summary */
		return 0;
	}
	if (!parse_head(line, &h))
		return bad_line(r, "not a blkparse event (MAJ,MIN CPU SEQ SEC.NSEC PID ACTION RWBS ..., blkparse's default format)");
	if (strcmp(h.action, "D"))
		return 0;
	memset(rec, 0, sizeof(*rec));
	if (!trace_blk_call(h.rwbs, rec))
		return 0;
	if (rec->call == TC_fsync) {
		rec->off = rec->len = TRACE_NONE;
	} else {
		if (sscanf(line + h.rest, "%llu + %llu%n", &sector, &count, &n) < 2 ||
		    sector > INT64_MAX / SECTOR || count > INT64_MAX / SECTOR)
			return bad_line(r, "an issued read, write or discard without 'SECTOR + COUNT'");
		rec->off = (int64_t)(sector * SECTOR);
		rec->len = (int64_t)(count * SECTOR);
		rec->result = rec->call == TC_fallocate ? 0 : rec->len;
	}
	snprintf(name, sizeof(name), "/dev/block/%u:%u", h.maj, h.min);
	n = trace_intern(r, name, &rec->file);
	if (n)
		return n;	/* r->err says why */
	rec->t_ns = h.t_ns;
	rec->pid = rec->tid = h.pid && h.pid <= INT32_MAX ? (uint32_t)h.pid : 1;
	rec->fd = (int)(3 + rec->file % (INT32_MAX - 3));
	return 1;
}
