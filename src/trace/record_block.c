/* record_block.c - see record_block.h.
 *
 * Order: the arguments, the log's path and the devices are checked (exit
 * 1; a device without a request queue, 2), then root and COMMAND (exit
 * 2), then the instance is set up (exit 2 when tracefs lacks something);
 * only then is the log written and COMMAND run.  From the instance's creation on,
 * every path - COMMAND failing to start, a signal, a read error - goes
 * through blk_tracefs_close(), which leaves tracefs as it was.
 *
 * The time line: TIME 0 is when the events are enabled, just before
 * COMMAND starts.  When COMMAND has ended, issues are no longer recorded;
 * the completions of requests still in flight are awaited up to
 * GRACE_NS, then the buffers are drained a last time.
 */
#include "trace/record_block.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace/interpose.h"
#include "core/mode_args.h"
#include "core/outpath.h"
#include "core/plan.h"
#include "trace/record_block_dev.h"
#include "trace/record_block_match.h"
#include "trace/record_block_tracefs.h"
#include "core/signals.h"
#include "trace/trace_log.h"
#include "trace/trace_stats.h"

#define MAX_DEVS 8
#define GRACE_NS 1000000000ull	/* to wait for requests in flight */
#define POLL_MS 100		/* the longest wait between two reads */

struct rb_args {
	const char *log;
	const char *devs[MAX_DEVS];
	int ndevs;
	enum out_format fmt;
	bool fmt_given;
	char **cmd;
};

static const char usage[] =
	"rebench --record LOG --record-block DEV [--record-block DEV]... [-n | --json] -- COMMAND [ARGS...]\n";

static const char help[] =
	"\n"
	"  --record LOG         the log to write\n"
	"  --record-block DEV   record the requests that reached DEV, a disk or a\n"
	"                       partition (up to 8; root: the kernel's block\n"
	"                       tracepoints through a tracefs instance)\n"
	"  -n, --json           the statistics (on stderr) as fields, or as JSON\n"
	"See rebench(1), APPLICATION I/O, Recording the block layer.\n";

bool record_block_wanted(int argc, char **argv)
{
	return mode_given(argc, argv, "--record-block");
}

/* An empty name is refused after the count, as it always was. */
static int dev_named(const struct mode_grammar *g, void *args,
		     const char *opt, const char *val)
{
	(void)args;
	return *val ? 0 : mode_args_bad(g, "%s: the device name is empty", opt);
}

static const struct mode_opt opts[] = {
	{ "--record-block", MODE_LIST, offsetof(struct rb_args, devs),
	  offsetof(struct rb_args, ndevs), MAX_DEVS,
	  .missing = "%s needs a value", .many = "%s: at most 8 devices",
	  .check = dev_named },
	{ "--record", MODE_VALUE, offsetof(struct rb_args, log),
	  .missing = "%s needs a value", .twice = "%s is given twice",
	  .empty = "%s: the file name is empty" },
	{ NULL, MODE_FORMAT, offsetof(struct rb_args, fmt),
	  offsetof(struct rb_args, fmt_given),
	  .twice = "-n and --json are two formats: give one (%s)" },
	{ "--record-path", MODE_REFUSE, .prefix = true,
	  .refuse = "%s chooses files by their path, which the block layer does not know: give the partition as --record-block instead" },
};

const struct mode_grammar record_block_grammar = {
	.usage = usage,
	.sep = " ",
	.help = help,
	.unknown = "%s has no meaning with --record-block, which takes --record LOG, more --record-block DEV, -n and --json before the command",
	.opts = opts,
	.nopts = sizeof(opts) / sizeof(opts[0]),
	.cmd = offsetof(struct rb_args, cmd),
};

/* How the options go together. */
static int check_args(const struct rb_args *a)
{
	const struct mode_grammar *g = &record_block_grammar;

	if (!a->ndevs)	/* --record-block came after COMMAND's first word */
		return mode_args_bad(g, "'%s' is taken as COMMAND, so --record-block after it is COMMAND's: put rebench's options first (rebench --record LOG --record-block DEV -- COMMAND)",
				     a->cmd && a->cmd[0] ? a->cmd[0] : "");
	if (!a->log)
		return mode_args_bad(g, "--record-block %s needs --record LOG: the log to write (rebench --record LOG --record-block DEV -- COMMAND)",
				     a->devs[0]);
	if (!a->cmd || !a->cmd[0])
		return mode_args_bad(g, "--record-block %s needs a COMMAND to run: rebench --record LOG --record-block DEV -- COMMAND [ARGS...]",
				     a->devs[0]);
	return 0;
}

/* 0, 1 after --help, or -EINVAL after a message. */
static int parse_args(int argc, char **argv, struct rb_args *a)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ret = mode_args_parse(argc, argv, &record_block_grammar, a);
	return ret ? ret : check_args(a);
}

/* ------------------------------------------------------------ the log */


static void write_header(FILE *f, const struct rb_args *a,
			 const struct blk_dev_info *d, const struct timespec *real)
{
	int i;

	trace_write_head(f, a->cmd, real);
	for (i = 0; i < a->ndevs; i++) {
		fprintf(f, "# source: block layer of %s (%u:%u", d[i].path,
			d[i].maj, d[i].min);
		if (d[i].b.count)
			fprintf(f, ", sectors %llu to %llu of the disk %u:%u",
				(unsigned long long)d[i].b.first,
				(unsigned long long)(d[i].b.first + d[i].b.count - 1),
				d[i].dmaj, d[i].dmin);
		fprintf(f, ") via tracefs: block_rq_issue, block_rq_complete, block_rq_requeue\n");
	}
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The process of a thread, while /proc still has it; else the thread. */
static uint32_t tgid_of(uint32_t tid)
{
	char path[64], line[256];
	unsigned long v;
	uint32_t tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/status", tid);
	f = fopen(path, "re");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %lu", &v) == 1) {
			tgid = v ? (uint32_t)v : tid;
			break;
		}
	fclose(f);
	return tgid;
}

/* ------------------------------------------------------------ recording */

struct rb_run {
	struct blk_tracefs t;
	struct blk_match m;
	struct blk_events ev;
	bool failed;		/* reading stopped: the record is cut */
	char why[PATH_MAX + 512];
};

/* Drain the buffers into the matcher; after an error, nothing more. */
static void pump(struct rb_run *r)
{
	int ret;

	if (r->failed)
		return;
	r->ev.n = 0;
	ret = blk_tracefs_drain(&r->t, &r->ev, r->why, sizeof(r->why));
	if (!ret && blk_match_feed(&r->m, r->ev.v, r->ev.n)) {
		snprintf(r->why, sizeof(r->why), "out of memory pairing the events");
		ret = -ENOMEM;
	}
	if (ret) {
		r->failed = true;
		fprintf(stderr, "rebench: --record-block: the record stops here: %s\n",
			r->why);
	}
}

/* Read while COMMAND runs; its status as the shell gives it.  SIGTERM and
 * SIGHUP sent to rebench are passed on; SIGINT from a terminal reaches
 * COMMAND itself, and rebench waits for it. */
static int follow(struct rb_run *r, pid_t pid, const char *name)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), status, sig;
	int forwarded = 0;
	pid_t w;

	for (;;) {
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			status = 0;
			break;
		}
		sig = signals_stop_requested();
		if ((sig == SIGTERM || sig == SIGHUP) &&
		    !(forwarded & (1 << sig))) {
			kill(pid, sig);
			forwarded |= 1 << sig;
		}
		blk_tracefs_wait(&r->t, pidfd, POLL_MS);
		pump(r);
	}
	if (pidfd >= 0)
		close(pidfd);
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "rebench: --record-block: %s was ended by signal %d (%s)\n",
			name, WTERMSIG(status), strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}

/* After COMMAND: no more issues; the requests in flight complete. */
static void finish(struct rb_run *r)
{
	uint64_t t0 = mono_ns();

	blk_tracefs_enable(&r->t, BLK_EV_ISSUE, false, NULL, 0);
	pump(r);
	while (!r->failed && blk_match_pending(&r->m) &&
	       mono_ns() - t0 < GRACE_NS) {
		blk_tracefs_wait(&r->t, -1, 10);
		pump(r);
	}
	blk_tracefs_stop(&r->t);
	pump(r);
	blk_match_finish(&r->m);
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* What the pairing left, at the end of the log. */
static void write_summary(FILE *f, const struct blk_counts *c, uint64_t lost,
			  const struct rb_run *r)
{
	fprintf(f, "# block: requests recorded %llu: read %llu, write %llu (with FUA %llu), discard %llu, flush %llu; failed %llu\n",
		(unsigned long long)c->records,
		(unsigned long long)c->calls[TC_pread],
		(unsigned long long)(c->calls[TC_pwrite] + c->calls[TC_pwritev2]),
		(unsigned long long)c->calls[TC_pwritev2],
		(unsigned long long)c->calls[TC_fallocate],
		(unsigned long long)c->calls[TC_fsync],
		(unsigned long long)c->failed);
	fprintf(f, "# block: not recorded: unfinished %llu (issued, not complete at the end), issued before the start %llu, other operations (N) %llu, requeued %llu (issued again), empty completions ending a flush sequence %llu\n",
		(unsigned long long)c->unfinished,
		(unsigned long long)c->orphans,
		(unsigned long long)c->other,
		(unsigned long long)c->requeued,
		(unsigned long long)c->seq_ends);
	if (c->unfinished)
		fprintf(f, "# warning block: %llu request%s issued but not complete 1 s after COMMAND ended: not recorded\n",
			(unsigned long long)c->unfinished, plural(c->unfinished));
	if (c->orphans)
		fprintf(f, "# warning block: %llu completion%s without an issue (issued before the record began): not recorded\n",
			(unsigned long long)c->orphans, plural(c->orphans));
	if (c->unmatched_requeues)
		fprintf(f, "# warning block: %llu requeue%s of no issue seen\n",
			(unsigned long long)c->unmatched_requeues,
			plural(c->unmatched_requeues));
	if (lost)
		fprintf(f, "# warning block: the ring buffer lost %llu event%s (it overran): the record misses requests\n",
			(unsigned long long)lost, plural(lost));
	else if (r->t.loss.uncounted)
		fprintf(f, "# warning block: the ring buffer lost events (it overran; %llu sub-buffer%s say so, without a count): the record misses requests\n",
			(unsigned long long)r->t.loss.uncounted,
			plural(r->t.loss.uncounted));
	if (r->failed)
		fprintf(f, "# warning block: the record stopped early: %s\n",
			r->why);
}

/* record() with its run's state (r), which is too large for a stack. */
static int record_run(const struct rb_args *a, struct blk_dev_info *d,
		      const char *path, struct rb_run *r)
{
	char err[PATH_MAX + 1024], filter[MAX_DEVS * 128];
	struct blk_dev bdev[MAX_DEVS];
	struct timespec real;
	uint64_t start, lost;
	int i, k, status, rfd;
	pid_t pid;
	FILE *f;

	for (i = 0; i < a->ndevs; i++)
		bdev[i] = d[i].b;
	blk_dev_filter(d, a->ndevs, filter, sizeof(filter));
	if (blk_tracefs_open(&r->t, filter, err, sizeof(err))) {
		fprintf(stderr, "rebench: --record-block: %s; nothing was run\n",
			err);
		return EXIT_PREP_FAILED;
	}
	f = outpath_open("--record", a->log);
	if (!f) {
		blk_tracefs_close(&r->t);
		return EXIT_PREP_FAILED;
	}
	start = mono_ns();
	clock_gettime(CLOCK_REALTIME, &real);
	if (blk_match_init(&r->m, f, start, bdev, (unsigned)a->ndevs, tgid_of)) {
		snprintf(err, sizeof(err), "out of memory");
		goto fail;
	}
	write_header(f, a, d, &real);
	for (k = 0; k < BLK_EV_KINDS; k++)
		if (blk_tracefs_enable(&r->t, k, true, err, sizeof(err)))
			goto fail;
	if (signals_stop_requested()) {
		snprintf(err, sizeof(err), "interrupted");
		goto fail;
	}
	pid = interpose_start("--record-block", path, a->cmd, NULL, NULL);
	if (pid < 0) {
		err[0] = '\0';
		goto fail;
	}
	status = follow(r, pid, a->cmd[0]);
	finish(r);
	/* the stats count what the sub-buffers may not */
	lost = blk_tracefs_lost(&r->t);
	if (r->t.loss.events > lost)
		lost = r->t.loss.events;
	blk_tracefs_close(&r->t);
	write_summary(f, &r->m.c, lost, r);
	/* -n and JSON have the warnings; a person gets the counts too */
	if (a->fmt == TSF_HUMAN)
		fprintf(stderr, "rebench: --record-block: %llu request%s recorded in %s (not recorded: %llu unfinished, %llu issued before the start, %llu of other operations; %llu event%s lost)\n",
			(unsigned long long)r->m.c.records,
			plural(r->m.c.records), a->log,
			(unsigned long long)r->m.c.unfinished,
			(unsigned long long)r->m.c.orphans,
			(unsigned long long)r->m.c.other,
			(unsigned long long)lost, plural(lost));
	blk_match_free(&r->m);
	blk_events_free(&r->ev);
	rfd = outpath_reopen(fileno(f), O_RDONLY);
	if (outpath_close("--record", a->log, f)) {
		if (rfd >= 0)
			close(rfd);
		return status ? status : EXIT_OUTPUT_FAILED;
	}
	trace_stats_report_fd("--record-block", a->log, rfd, a->fmt);
	return status;
fail:
	if (err[0])
		fprintf(stderr, "rebench: --record-block: %s; nothing was run\n",
			err);
	blk_tracefs_close(&r->t);
	blk_match_free(&r->m);
	fclose(f);
	unlink(a->log);		/* nothing ran: no log */
	return signals_stop_requested() ? EXIT_INTERRUPTED : EXIT_PREP_FAILED;
}

static int record(const struct rb_args *a, struct blk_dev_info *d,
		  const char *path)
{
	struct rb_run *r = calloc(1, sizeof(*r));
	int status;

	if (!r) {
		fprintf(stderr, "rebench: --record-block: no memory for the record; nothing was run\n");
		return EXIT_PREP_FAILED;
	}
	status = record_run(a, d, path, r);
	free(r);
	return status;
}

/* The devices of a (each resolved into d), then the record. */
static int record_devices(const struct rb_args *a, struct blk_dev_info *d)
{
	char path[PATH_MAX];
	int ret, i, j;

	for (i = 0; i < a->ndevs; i++) {
		ret = blk_dev_resolve(a->devs[i], &d[i]);
		if (ret)
			return ret == -EINVAL ? EXIT_BAD_ARGS : EXIT_PREP_FAILED;
		for (j = 0; j < i; j++)
			if (blk_dev_overlap(&d[i], &d[j])) {
				fprintf(stderr, "rebench: --record-block %s and %s overlap (the same disk's sectors): each request would be recorded twice; give one\n",
					a->devs[j], a->devs[i]);
				return EXIT_BAD_ARGS;
			}
	}
	if (geteuid()) {
		fprintf(stderr, "rebench: --record-block needs root: it creates a tracefs instance and enables the kernel's block tracepoints; run it with sudo; nothing was run\n");
		return EXIT_PREP_FAILED;
	}
	if (interpose_find_command("--record-block", a->cmd[0], path,
				   sizeof(path)))
		return EXIT_PREP_FAILED;	/* the command as execvp finds it */
	return record(a, d, path);
}

int record_block_main(int argc, char **argv)
{
	char err[PATH_MAX + 1200];
	struct blk_dev_info *d;
	struct rb_args a;
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD_ARGS;
	if (outpath_check("--record", a.log, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s\n", err);
		return EXIT_BAD_ARGS;
	}
	d = calloc(MAX_DEVS, sizeof(*d));
	if (!d) {
		fprintf(stderr, "rebench: --record-block: no memory for its devices; nothing was run\n");
		return EXIT_PREP_FAILED;
	}
	ret = record_devices(&a, d);
	free(d);
	return ret;
}
