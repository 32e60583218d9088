/* replay_result.h - what a replay did, as every format reports it: the
 * human "Replay" section, the -n replay lines and the JSON "replay"
 * object (report_replay.c; every field in docs/app-io.md, Replay).
 *
 * The ordinary per-operation statistics of the run stay in the workload's
 * results; this adds what only a replay has: the log and its digest, the
 * mode, the map, the threads and workers, the skipped and aligned
 * operations, each type's count, bytes and time, and a timed replay's
 * lateness.  replay_collect.c fills it, report_replay.c writes it.
 */
#ifndef REBENCH_REPLAY_RESULT_H
#define REBENCH_REPLAY_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/delay.h"
#include "engines/iokind.h"

struct json;
struct replay_dir;
struct stream_trace;
struct workload;

struct replay_op_result {
	bool in_log;		/* the log has this type: it is reported */
	uint64_t operations;	/* completed */
	uint64_t bytes;		/* as replayed (--replay-align widens) */
	uint64_t ns;		/* grouped: the group's wall time, first
				 * start to last end; else the sum of the
				 * operations' latencies */
};

struct replay_result {
	const char *log;	/* absolute path */
	const char *format;	/* "rebench-trace", "fio iolog", "blkparse" */
	uint64_t digest;
	const char *mode;	/* "asap", "grouped", "timed" */
	bool grouped;
	double speed;		/* timed: --replay-speed; else 1 */
	const char *target;
	uint32_t files;
	uint64_t map_bytes;	/* one target: the map's length; a
				 * directory: its files' lengths */
	/* a directory: each recorded file (path, extent) and its file */
	bool directory;
	const struct trace_map_file *recorded;
	char *const *placed;
	uint64_t operations;	/* kept operations of the log */
	uint32_t recorded_threads, workers;
	uint64_t aligned, skipped_failed, skipped_empty;
	/* --delay: delay_format()'s form, "" without; a result measured
	 * under delays is not the device's own (--emulate refuses it) */
	char delay[DELAY_TEXT_MAX];
	struct replay_op_result per_op[IO_KINDS];
	/* timed */
	bool timed;
	uint64_t issued;	/* operations that waited for their time */
	uint64_t late_operations;	/* more than TRACE_LATE_NS late */
	double lateness_mean_us, lateness_max_us;
	bool kept_up;
};

/* replay_collect.c: the figures from the log t and its workload's run
 * (wl->workers' trace cursors, wl->res); d: a directory's files, or
 * NULL.  The caller has set log, mode, grouped, timed, speed and target. */
void replay_collect(struct replay_result *rr, const struct stream_trace *t,
		    const struct workload *wl, const struct replay_dir *d);

/* The workload's "seq" pattern is a fiction of the replay (its offsets
 * are the log's): no passes over its region, nor a warning about them. */
void replay_forget_passes(struct workload *wl);

/* After a failed run: a warning with the failed operation's line of the
 * log and its file (the run's error names the workload's target, even
 * when a directory's other file failed): the first failed worker's last
 * operation taken. */
void replay_say_failed_line(struct workload *wl, const struct stream_trace *t,
			    const struct replay_dir *d, const char *log);

/* ns / operations of a type, 0 without operations. */
double replay_ns_per_op(const struct replay_op_result *o);

void report_replay_human(FILE *f, const struct replay_result *r);
/* -n: a "replay" line, then a "replay-op" line per type present. */
void report_replay_terse(FILE *f, const struct replay_result *r);
/* The "replay" object, at the document's top level. */
void report_replay_json(struct json *j, const struct replay_result *r);
/* The same as the writers' hooks, the result their argument. */
extern const struct report_extra replay_report_extra;

#endif
