/* modes.c - see modes.h. */
#include "cli/modes.h"

#include <string.h>

#include "hosts/hosts_remote.h"
#include "study/compare.h"
#include "trace/emulate.h"
#include "trace/record.h"
#include "trace/record_block.h"
#include "trace/replay.h"
#include "trace/trace_fio.h"

/* clock-echo's main takes no words */
static int clock_echo(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return clock_echo_main();
}

/* In --help's order.  order: as main() asked them before the table:
 * --trace-to, --record-block, --emulate, --record (with --delay and
 * --trace-stats), --replay, --compare, --clock-echo. */
const struct mode modes[] = {
	{ "run", NULL, {
		{ "[OPTIONS] TARGET", "one workload on a block device, a partition or a file" },
		{ "[OPTIONS] < SPECS", "no TARGET: each stdin line is \"[OPTIONS] TARGET\", all lines run at once; options on the command line are defaults for every line; '#' starts a comment; with a TARGET, a stdin holding data is refused" } } },
	{ "probe", "--probe", {
		{ "--probe [--json] TARGET", "geometry and alignment verdicts, no I/O" } } },
	{ "suite", "--suite", {
		{ "--suite NAME|FILE TARGET", "a preset list of tests, one table (--suite list)" } } },
	{ "record", "--record", {
		{ "--record LOG -- COMMAND", "run COMMAND, logging its file I/O to LOG" } },
	  record_wanted, record_main, 4, true, &record_grammar },
	{ "record-block", "--record-block", {
		{ "--record LOG --record-block DEV -- COMMAND", "run COMMAND, logging the requests that reached DEV (root)" } },
	  record_block_wanted, record_block_main, 2, true, &record_block_grammar },
	{ "delay", "--delay", {
		{ "--delay SPEC -- COMMAND", "run COMMAND, waiting SPEC (read=8us,fsync=200us) after its reads, writes and flushes" } },
	  record_wanted, record_main, 4, true, &record_grammar },
	{ "trace-stats", "--trace-stats", {
		{ "--trace-stats LOG", "a log's operations, bytes and files" } },
	  record_wanted, record_main, 4, true, &record_grammar },
	{ "trace-to", "--trace-to", {
		{ "--trace-to fio LOG", "the log as fio's iolog v3, for fio --read_iolog" } },
	  trace_to_wanted, trace_to_main, 1, false, &trace_to_grammar },
	{ "replay", "--replay", {
		{ "--replay LOG TARGET|DIR", "replay a log on TARGET, or a file per recorded file in DIR: asap, grouped or timed (--replay-speed F)" } },
	  replay_wanted, replay_main, 5, false, &replay_grammar },
	{ "emulate", "--emulate", {
		{ "--emulate SLOW --baseline FAST -- COMMAND", "run COMMAND with per-operation delays that make this machine as slow as the device of SLOW (two grouped replays' JSON)" } },
	  emulate_wanted, emulate_main, 3, true, &emulate_grammar },
	{ "compare", "--compare", {
		{ "--compare A.json B.json", "is B faster than A? B/A of ops/s, MB/s, p50 and p99 per workload and point, with a 95% interval and a verdict (two --json results of the same shape; -n, --json, --plot FILE)" } },
	  compare_wanted, compare_main, 6, false, &compare_grammar },
	{ "hosts", "--hosts", {
		{ "--hosts H1,H2,... [OPTIONS] [TARGET]", "the same workloads on every host through ssh, checked first, started together; each host's figures, the merged ones (exact percentiles) and the outliers (--hosts-file: a line per host, [user@]host[:port] [TARGET])" } } },
	{ "clock-echo", "--clock-echo", {
		{ "--clock-echo", "answer each line of stdin with this machine's CLOCK_REALTIME in ns (what --hosts measures clock offsets with)" } },
	  clock_echo_wanted, clock_echo, 7, false },
	{ "characterize", "--characterize", {
		{ "--characterize [--json] [--write] [--plot FILE] TARGET", "what a drive does not say (the unit it reads in, the I/Os it serves at once, rotation and seeks, its read cache; with --write whether its flushes are honest and its erase block), against what it reports, and the layout that follows" } } },
	{ "advise", "--advise", {
		{ "--advise btree --rows N --key-size BYTES TARGET", "which B-tree node size gives the most point queries/s on TARGET: a -b sweep and RethinkDB's model with fill, cache, values and inserts (--from TABLE: no I/O)" } } },
};

const size_t mode_count = sizeof(modes) / sizeof(modes[0]);

const struct mode *mode_named(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return NULL;
	for (i = 0; i < mode_count; i++)
		if (!strcmp(argv[1], modes[i].name))
			return &modes[i];
	return NULL;
}

int mode_as_options(int argc, char **argv, char **out)
{
	const struct mode *m = mode_named(argc, argv);
	int i, n = 0;

	for (i = 0; i < argc; i++) {
		if (i == 1 && m) {
			if (!m->option)
				continue;	/* run: the workload grammar */
			out[n++] = (char *)m->option;
			continue;
		}
		out[n++] = argv[i];
	}
	out[n] = NULL;
	return n;
}

int mode_run_own(int argc, char **argv, bool *command)
{
	int order, last = 0;
	size_t i;

	for (i = 0; i < mode_count; i++)	/* the table's, not a constant */
		if (modes[i].order > last)
			last = modes[i].order;
	for (order = 1; order <= last; order++) {
		for (i = 0; i < mode_count; i++) {
			const struct mode *m = &modes[i];

			if (m->order != order || !m->wanted(argc, argv))
				continue;
			*command = m->command;
			return m->run(argc, argv);
		}
	}
	*command = false;
	return -1;
}

void modes_print_usage(FILE *f,
		       void (*line)(FILE *f, const char *cmd, const char *text))
{
	char cmd[128], what[256], text[512];
	bool first = true;
	size_t i, u;

	for (i = 0; i < mode_count; i++) {
		for (u = 0; u < MODE_MAX_USAGE && modes[i].usage[u].args; u++) {
			snprintf(cmd, sizeof(cmd), "%s rebench %s",
				 first ? "Usage:" : "      ",
				 modes[i].usage[u].args);
			line(f, cmd, modes[i].usage[u].what);
			first = false;
		}
	}
	what[0] = '\0';
	for (i = 0; i < mode_count; i++)
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 "%s%s", i ? ", " : "", modes[i].name);
	snprintf(text, sizeof(text), "a mode as the first word, the same as its option: rebench probe TARGET is rebench --probe TARGET (MODE: %s; a TARGET named as one is written ./NAME)",
		 what);
	line(f, "       rebench MODE ...", text);
}
