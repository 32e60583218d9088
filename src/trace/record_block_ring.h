/* record_block_ring.h - the kernel's trace ring buffer as read from
 * tracefs's per_cpu/cpuN/trace_pipe_raw: sub-buffers of binary events,
 * decoded into the three block events --record-block uses.
 *
 * Binary, not trace_pipe's text, for the time: the text prints
 * microseconds, the ring holds the clock's nanoseconds.  Every offset
 * comes from tracefs's own description (events/header_page and each
 * event's format file), never from a kernel version.
 *
 * A sub-buffer (events/header_page): a u64 time stamp, a commit word (the
 * bytes of events in its low 27 bits; bit 31: events were lost before
 * this sub-buffer, bit 30: their count is stored as a long right after
 * the events), then the events.  An event starts with a 32-bit word:
 * type_len (5 low bits) and a time delta (27 bits) from the event before.
 * type_len 1..28: a payload of type_len * 4 bytes follows; 0: a 32-bit
 * length (itself included) then the payload; 29: padding (delta 0: the
 * rest of the sub-buffer); 30: a time extend (the next 32-bit word holds
 * the delta's bits 27 and up); 31: an absolute time stamp, encoded alike
 * (its 5 top bits are those of the time before).  A payload starts with
 * the event's type id (common_type) and the task's pid (common_pid).
 */
#ifndef REBENCH_RECORD_BLOCK_RING_H
#define REBENCH_RECORD_BLOCK_RING_H

#include <stddef.h>
#include <stdint.h>

enum blk_ev_kind {
	BLK_EV_ISSUE,		/* block_rq_issue: sent to the driver */
	BLK_EV_COMPLETE,	/* block_rq_complete: bytes done, or failed */
	BLK_EV_REQUEUE,		/* block_rq_requeue: handed back, to issue again */
	BLK_EV_KINDS
};

/* tracefs names, in the order of enum blk_ev_kind */
extern const char *const blk_ev_names[BLK_EV_KINDS];

/* One event, decoded. */
struct blk_event {
	uint64_t ts;		/* ns of the instance's trace clock */
	uint64_t sector;	/* 512-byte units, of the whole disk */
	uint32_t nr_sector;	/* issue: asked; complete: done in this step */
	uint32_t dev;		/* the kernel's dev_t: major << 20 | minor */
	int32_t pid;		/* the task the tracepoint fired in */
	int32_t error;		/* complete: 0 or -errno */
	uint8_t kind;		/* enum blk_ev_kind */
	char rwbs[12];		/* R, W, D, F, N and their flags */
	char comm[17];		/* issue: the task's name, else "" */
};

/* Where a field is in a payload; size 0: the event has no such field. */
struct blk_field {
	uint16_t off, size;
};

/* One event's format file, the fields used. */
struct blk_layout {
	int id;			/* common_type */
	struct blk_field type, pid, dev, sector, nr_sector, error, rwbs, comm;
};

/* events/header_page, and the three layouts. */
struct blk_ring_format {
	struct blk_field ts, commit, data;
	struct blk_layout ev[BLK_EV_KINDS];
};

/* Events lost by the ring, as its sub-buffers tell. */
struct blk_ring_loss {
	uint64_t events;	/* counts stored in sub-buffers */
	uint64_t uncounted;	/* sub-buffers that lost events of no count */
};

struct blk_events {
	struct blk_event *v;
	size_t n, cap;
};

/*
 * Parse an event's format file (kind's fields: dev, sector, nr_sector and
 * rwbs always, error for a completion, comm when present), or
 * events/header_page (kind -1: its timestamp, commit and data): 0, or
 * -EINVAL with err naming the missing or odd field.
 */
int blk_ring_parse_format(const char *text, int kind,
			  struct blk_ring_format *f, char *err, size_t len);

/*
 * Decode one sub-buffer of len bytes: its events of the three kinds are
 * appended to out (others are skipped), and loss grows by what it says
 * was lost before it.  0, -ENOMEM, or -EINVAL when an event runs past the
 * commit (the sub-buffer is then not used further).
 */
int blk_ring_decode(const struct blk_ring_format *f, const unsigned char *buf,
		    size_t len, struct blk_events *out,
		    struct blk_ring_loss *loss);

void blk_events_free(struct blk_events *e);

#endif
