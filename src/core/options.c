/* options.c - the option table and the setters it drives (the words'
 * parser, which also reads fio's spellings, is options_parse.c). */
#include "core/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engines/engine.h"
#include "gen/mix.h"
#include "core/fio_rw.h"
#include "target/readahead.h"
#include "core/suggest.h"
#include "core/syncpol.h"
#include "core/units.h"

#define W(field) SCOPE_WORKLOAD, offsetof(struct spec, field)
#define R(field) SCOPE_RUN, offsetof(struct run_opts, field)

static const struct opt_value units_values[] = {
	{ "iec", UNITS_IEC, "powers of 1024: KiB, MiB, GiB, MiB/s" },
	{ "si", UNITS_SI, "powers of 1000: kB, MB, GB, MB/s" },
	{ NULL, 0, NULL },
};

static const struct opt_value plot_metric_values[] = {
	{ "auto", PLOT_METRIC_AUTO, "mbs for a sequential workload, ops for a random one" },
	{ "ops", PLOT_METRIC_OPS, "operations per second (fio's IOPS)" },
	{ "mbs", PLOT_METRIC_MBS, "MiB/s, 2^20 bytes a second (fio's bw)" },
	{ "p50", PLOT_METRIC_P50, "median latency, us" },
	{ "p99", PLOT_METRIC_P99, "99th percentile latency, us" },
	{ NULL, 0, NULL }
};

static const struct opt_value arrival_values[] = {
	{ "fixed", ARRIVAL_FIXED, "every I/O one interval after the one before" },
	{ "poisson", ARRIVAL_POISSON, "exponential intervals of the same mean (a Poisson process: independent arrivals, as from many clients)" },
	{ NULL, 0, NULL }
};

static const struct opt_value advise_values[] = {
	{ "btree", ADVISE_BTREE, "the B-tree node size with the most point queries per second (needs --rows and --key-size)" },
	{ NULL, 0, NULL }
};

const struct opt_desc opt_table[] = {
	{ "operation", 'o', OPT_OPS, W(op), "OP", "read",
	  "operation: read, write, trim, rw, or a mix such as read/70:write/30", op_values, 0, 0, 0 },
	{ "workload", 'w', OPT_ENUM, W(seq), "rnd|seq", "rnd",
	  "random or sequential offsets", workload_values, 0, 0, 0 },
	{ "block-size", 'b', OPT_BSIZE, W(bs), "SIZE", "512, or the logical sector if larger",
	  "bytes per I/O (k, m, g suffixes); a split 4k/10:64k/90 (fio's bssplit) or a uniform range 100-400/1 gives each I/O its own size", NULL, 1, 1ULL << 30, 0 },
	{ "stride", 's', OPT_SIZE, W(stride), "SIZE", "block size",
	  "seq: distance between starts of consecutive I/Os; rnd: offsets are multiples of it", NULL, 1, 0, 0 },
	{ "direction", 'r', OPT_ENUM, W(direction), "DIR", "forward",
	  "seq direction: forward or backward", direction_values, 0, 0, 0 },
	{ "dist", 'u', OPT_DIST, W(dist), "NAME[:PARAM]", "uniform",
	  "distribution of random offsets", dist_values, 0, 0, 0 },
	{ "sigma", 'i', OPT_DOUBLE, W(sigma), "PCT", "5",
	  "normal: standard deviation; pow, powerlaw: mean location; % of the region", NULL, 0, 0, 0 },
	{ "center", 0, OPT_PERCENT, W(center), "PCT", "normal 50, others 0",
	  "where the hot spot is, % into the region (the rest wraps around)", NULL, 0, 0, 0 },
	{ "scatter", 0, OPT_FLAG, W(scatter), NULL, "off",
	  "spread the hot blocks over the region by a fixed permutation", NULL, 0, 0, 0 },
	{ "type", 't', OPT_ENGINE, W(engine), "ENGINE", "stateful",
	  "I/O engine: stateful, stateless, mmap, paio, naio, uring (see --engines)", NULL, 0, 0, 0 },
	{ "queue-depth", 'q', OPT_COUNT, W(qd), "N", "1",
	  "I/Os in flight per thread (async engines: paio, naio, uring)", NULL, 1, 65536, 0 },
	{ "batch", 0, OPT_COUNT, W(batch), "N", "1",
	  "async engines: submit N I/Os per call and reap at least N per wait", NULL, 1, 65536, 0 },
	{ "threads", 'c', OPT_COUNT, W(threads), "N", "1",
	  "threads for this workload", NULL, 1, 4096, 0 },
	{ "local-fd", 'l', OPT_FLAG, W(local_fd), NULL, "shared",
	  "one file descriptor per thread instead of one shared", NULL, 0, 0, 0 },
	{ "duration", 'd', OPT_DURATION, W(duration), "D", "10",
	  "seconds (10, 500ms), bytes (1g) or % of the region (50%)", NULL, 0, 0, 0 },
	{ "offset", 'j', OPT_EXTENT, W(offset), "SIZE", "0",
	  "start of the region, bytes or % of the target (phase of every aligned offset)", NULL, 0, 0, 0 },
	{ "length", 'e', OPT_EXTENT, W(length), "SIZE", "whole target",
	  "length of the region, bytes or % of the target", NULL, 0, 0, 0 },
	{ "directory", 0, OPT_STRING, W(directory), "DIR", "none",
	  "many files instead of a TARGET: DIR/rebench.W.I, I from 0 to --nrfiles - 1 (W: the workload's number, from 0), created and laid out as a new file is when missing (--filesize), removed again after a fault; each I/O goes to one of them (--file-service), its offset within the file from -w, -u, -j and -e (relative to the file)", NULL, 0, 0, 0 },
	{ "nrfiles", 0, OPT_COUNT, W(nrfiles), "N", "1",
	  "--directory: the number of files", NULL, 0, 1000000, 0 },
	{ "filesize", 0, OPT_SIZE, W(filesize), "SIZE", "the sizes of the files",
	  "--directory: each file's size, the size of the files to create (files that exist must be at least that long); without it every file must exist already", NULL, 0, 0, 0 },
	{ "file-service", 0, OPT_STRING, W(file_service), "HOW", "rr",
	  "many files (--directory, or several TARGETs): which file each I/O goes to: rr (roundrobin: in turn), random (uniformly), or zipf:THETA (file 0 the most, file k with weight 1/(k+1)^THETA); fio's file_service_type", NULL, 0, 0, 0 },
	{ "paged", 'p', OPT_FLAG, W(paged), NULL, "direct",
	  "page cache I/O instead of O_DIRECT (the default of a workload written with fio's names: fio's direct=0)", NULL, 0, 0, 0 },
	{ "buffered", 'f', OPT_FLAG, W(buffered), NULL, "flush",
	  "do not flush after writes (no O_DSYNC): --sync none", NULL, 0, 0, 0 },
	{ "sync", 0, OPT_SYNC, W(sync), "POLICY", "dsync",
	  "how writes are made durable: none, fsync:N or fdatasync:N (a flush after every N writes), sfr:N (sync_file_range of the range written, every N writes: writeback only, not durable), dsync (O_DSYNC), sync (O_SYNC), rwf-dsync (RWF_DSYNC per write), end (one fsync after the last write); fio's 0 and 1 are none and sync. Default for a workload written with fio's names: none", NULL, 0, 0, 0 },
	{ "do-atime", 'm', OPT_FLAG, W(atime), NULL, "off",
	  "allow atime updates (O_NOATIME otherwise)", NULL, 0, 0, 0 },
	{ "append", 'a', OPT_FLAG, W(append), NULL, "off",
	  "O_APPEND (sequential writes to a file only)", NULL, 0, 0, 0 },
	{ "fadvise", 0, OPT_ENUM, W(fadvise), "HINT", "no call",
	  "-p: posix_fadvise the region with HINT (normal, sequential, random, noreuse) after opening the target", fadvise_values, 0, 0, 0 },
	{ "readahead", 0, OPT_COUNT, W(readahead_kb), "KB", "left as is",
	  "set the disk's read_ahead_kb (of the target, or of the disk under a file) to KB for the run, restored after (root)", NULL, 0, READAHEAD_MAX_KB, 0 },
	{ "cache", 0, OPT_SIZE, W(cache_bytes), "SIZE", "no limit",
	  "-p or mmap: limit the page cache (and rebench's own memory) to SIZE with a memory cgroup made for the run and removed after; the target's cached pages are dropped first (root); with --advise btree, the database's cache that holds the tree's top levels (the model's: the run is not limited)", NULL, 1, 0, 0 },
	{ "sample-step", 'g', OPT_TIME, W(sample_ns), "MS", "1000",
	  "interval of the ops/s time series in ms; 0 logs every I/O to --output", NULL, 0, 0, NSEC_PER_MSEC },
	{ "pause", 'z', OPT_TIME, W(pause_ns), "USEC", "0",
	  "think time after each completion, in us", NULL, 0, 0, NSEC_PER_USEC },
	{ "delay", 0, OPT_DELAY, W(delay), "SPEC", "none",
	  "wait after each I/O of a kind before its completion is timed, e.g. read=8us,fsync=200us (units ns, us, ms, s; read, write, fsync, fdatasync): the latency includes it; calibrated once; async engines at -q 1 only", NULL, 0, 0, 0 },
	{ "rate", 0, OPT_RATE, W(rate), "RATE", "as fast as it goes",
	  "an open-loop schedule: start the I/Os at RATE, I/Os a second (1000, 2k) or bytes a second (50m/s), each thread RATE/threads, whatever the device did with the earlier ones; latency is reported from submission as usual and also from each I/O's intended start (with how late the submissions were), and a rate not met is said; swept (250..4k*2, in I/Os a second, or a list), the table gives each rate's figures and a sweep of --rate alone its knee (the highest rate below the first not met whose p99 from the intended start stays within 2x the least) and --plot its load curve; synchronous engines (-c N for concurrency)", NULL, 0, 0, 0 },
	{ "arrival", 0, OPT_ENUM, W(arrival), "fixed|poisson", "fixed",
	  "--rate: the intervals between one thread's intended starts: fixed, or poisson (exponential, seeded by --seed)", arrival_values, 0, 0, 0 },
	{ "rwmix", 0, OPT_PERCENT, W(rwmix), "PCT", "50",
	  "rw: percentage of I/Os that are reads", NULL, 0, 0, 0 },
	{ "output", 0, OPT_STRING, W(output), "FILE", "none",
	  "write the time series (or, with -g 0, every I/O) as TSV", NULL, 0, 0, 0 },
	{ "seed", 0, OPT_SEED, W(seed), "N", "random",
	  "seed for random offsets and the rw mix; reported in every output", NULL, 0, 0, 0 },
	{ "verify", 0, OPT_ENUM, W(verify), "ALGO", "off",
	  "write blocks that can be checked (a header: offset, seed, generation, size, the payload's checksum by ALGO: crc32c, xxh64 or sha256) and read them back: a mismatch is named corrupt, misdirected, lost (an older generation) or unwritten (zeroes), and the first stops the run with exit status 3; -o write, rw or a mix with writes, a sync engine, -c 1, O_DIRECT", verify_algo_values, 0, 0, 0 },
	{ "verify-mode", 0, OPT_ENUM, W(verify_mode), "MODE", "after",
	  "--verify: after (every block written read back once the writes are done, untimed) or inline (each block read back right after its write)", verify_mode_values, 0, 0, 0 },
	{ "verify-continue", 0, OPT_FLAG, W(verify_continue), NULL, "off",
	  "--verify: count every mismatch instead of stopping at the first (the exit status is still 3)", NULL, 0, 0, 0 },
	{ "verify-state", 0, OPT_STRING, W(verify_state), "FILE", "none",
	  "--verify: load each block's last generation from FILE when it exists (the same --seed, -b, -j and -e), and save them there after the run, for a later --verify-only", NULL, 0, 0, 0 },
	{ "verify-only", 0, OPT_FLAG, W(verify_only), NULL, "off",
	  "--verify --verify-state FILE (or --verify-log FILE, or both): write nothing; read the region once, sequentially (timed as reads), and check every block FILE says was written (--verify-log: was durable)", NULL, 0, 0, 0 },
	{ "verify-log", 0, OPT_STRING, W(verify_log), "FILE", "none",
	  "--verify: as each write is acknowledged and durable by --sync (dsync, sync, rwf-dsync: when it returns; fsync:N, fdatasync:N, end: when the flush after it returns), append its offset and generation to FILE, a text file whose header names the target, --seed, -b and region; with --verify-only, read every block FILE names and count each durable write that did not survive (a power cut's lost writes): exit status 3; FILE belongs on another device than the target (refused on it)", NULL, 0, 0, 0 },
	{ "drop-caches", 0, OPT_FLAG, R(drop_caches), NULL, "off",
	  "drop the page cache before running (root)", NULL, 0, 0, 0 },
	{ "silent", 'n', OPT_FLAG, R(silent), NULL, "off",
	  "no prompts (implies --yes); one machine-readable line per workload", NULL, 0, 0, 0 },
	{ "json", 0, OPT_FLAG, R(json), NULL, "off",
	  "print one JSON document with parameters, target, results and warnings", NULL, 0, 0, 0 },
	{ "yes", 'y', OPT_FLAG, R(yes), NULL, "off",
	  "confirm writes and trims without asking", NULL, 0, 0, 0 },
	{ "help", 'h', OPT_FLAG, R(help), NULL, NULL,
	  "print the usual options and exit; --help all: every option; --help TOPIC: a mode's or a group's (the topics are listed at the end of --help)", NULL, 0, 0, 0 },
	{ "version", 'V', OPT_FLAG, R(version), NULL, NULL,
	  "print the version and exit", NULL, 0, 0, 0 },
	{ "plot", 0, OPT_STRING, R(plot), "FILE", "none",
	  "render the natural plot (.png, .svg, .pdf or .jpg): heatmap for two swept numbers (one per name of a third), lines for one, time series for none (with -g 0: every I/O's latency histogram and CDF)", NULL, 0, 0, 0 },
	{ "units", 0, OPT_ENUM, R(units), "iec|si", "iec",
	  "how the human outputs name sizes and rates: iec (MiB/s, GiB: powers of 1024, the original Rebench's MB) or si (MB/s, GB: powers of 1000, as drive data sheets and KDiskMark); -n, JSON and TSV keep their documented units", units_values, 0, 0, 0 },
	{ "plot-metric", 0, OPT_ENUM, R(plot_metric), "METRIC", "auto",
	  "what --plot draws, and a sweep's matrix holds: ops (ops/s), mbs (MiB/s), p50 or p99 (latency); auto is mbs for -w seq, else ops", plot_metric_values, 0, 0, 0 },
	{ "engines", 0, OPT_FLAG, R(engines), NULL, NULL,
	  "list the I/O engines in this build and exit", NULL, 0, 0, 0 },
	{ "repeat", 0, OPT_COUNT, R(repeat), "N", "1",
	  "run the workloads N times (seeds +1 each run): median, trimmed mean, stddev and 95% CI of ops/s and latency; the figures shown are the median run by ops/s", NULL, 1, REPEAT_MAX, 0 },
	{ "precision", 0, OPT_PERCENT, R(precision_pct), "PCT", "off",
	  "measure until the 95% confidence interval of every workload's ops/s (batch means of its intervals) is within +-PCT of the mean, at most --max-duration; PCT in (0, 50]; -g defaults to 100 ms", NULL, 1, 50, 0 },	/* min 1: 0 excluded */
	{ "max-duration", 0, OPT_TIME, R(max_duration_ns), "D", "60",
	  "--precision: the longest a run (each sweep point) measures before it stops without the precision asked for (seconds, or 500ms); --characterize: the time budget of all its tests (none by default)", NULL, 0, 0, NSEC_PER_SEC },
	{ "precondition", 0, OPT_FLAG, R(precondition), NULL, "off",
	  "before measuring, write each workload's region sequentially twice in 128 KiB blocks (SNIA PTS preconditioning: an SSD measured with its spare blocks in use); workloads that write only, confirmed as their writes", NULL, 0, 0, 0 },
	{ "steady-state", 0, OPT_FLAG, R(steady_state), NULL, "off",
	  "run write workloads in rounds of --round until the SNIA PTS steady state holds over the last 5 (ops/s within a 20% range and a 10% slope of their mean), at most --max-rounds; every round reported", NULL, 0, 0, 0 },
	{ "round", 0, OPT_TIME, R(round_ns), "D", "60",
	  "--steady-state: the length of a round (seconds, or 500ms); at least 5 intervals of -g", NULL, 0, 0, NSEC_PER_SEC },
	{ "max-rounds", 0, OPT_COUNT, R(max_rounds), "N", "25",
	  "--steady-state: the most rounds before it stops without steady state (at least 5)", NULL, 0, 0, 0 },
	{ "latency-target", 0, OPT_STRING, R(latency_target), "pNN<BOUND", "none",
	  "find the highest --rate whose latency from the intended start keeps its NNth percentile within BOUND (p99<2ms, p99.9<500us): a run as fast as it goes, then rates from that one halving while the target is missed (to a 256th), then 4 halvings of the bracket; each step a run of -d (2 s when not given); every step's rate asked and achieved, its percentile from the intended start and from submission, and the result", NULL, 0, 0, 0 },
	{ "order", 0, OPT_STRING, R(order), "ORDER", "given",
	  "a sweep's order of points: given (the first swept option slowest), or shuffled[:SEED] (a seeded random order, so that drift over the sweep does not paint a pattern; the seed is reported)", NULL, 0, 0, 0 },
	{ "warmup", 0, OPT_TIME, R(warmup_ns), "D", "0",
	  "run every workload unmeasured for D first (seconds, or 500ms), then measure from a common start", NULL, 0, 0, NSEC_PER_SEC },
	{ "probe", 0, OPT_FLAG, R(probe), NULL, NULL,
	  "report TARGET's geometry, partition, file extents and alignment verdicts (no I/O) and exit", NULL, 0, 0, 0 },
	{ "fio", 0, OPT_FLAG, R(fio), NULL, NULL,
	  "print an fio job file that does the same work (no I/O) and exit", NULL, 0, 0, 0 },
	{ "suite", 0, OPT_STRING, R(suite), "NAME|FILE", "none",
	  "run a preset suite of tests one after another on TARGET and print one table (quick: seq 1 MiB at depth 8, rnd 4 KiB at depths 32 and 1, reads and writes, 5 s each); tests that write run only with --yes; --suite list shows the suites", NULL, 0, 0, 0 },
	{ "dry-run", 0, OPT_FLAG, R(dry_run), NULL, "off",
	  "check every workload (every sweep point) against its target as a run would (in use, read-only, confirmable), say what would run and whether it writes, and run nothing", NULL, 0, 0, 0 },
	{ "hosts", 0, OPT_STRING, R(hosts), "LIST", "none",
	  "run the workloads on every host of LIST ([user@]host[:port], comma-separated) through ssh, at one common start, and merge the results", NULL, 0, 0, 0 },
	{ "hosts-file", 0, OPT_STRING, R(hosts_file), "FILE", "none",
	  "the hosts, one per line: [user@]host[:port] [TARGET] ('#' comments); a TARGET replaces the command line's on that host", NULL, 0, 0, 0 },
	{ "ssh", 0, OPT_STRING, R(ssh), "CMD", "ssh",
	  "--hosts: the ssh command and its options (ssh -F cluster.conf); BatchMode=yes, and ConnectTimeout and ServerAlive from the hosts' time limit (REBENCH_HOSTS_TIMEOUT, 60 s), are always added", NULL, 0, 0, 0 },
	{ "remote-rebench", 0, OPT_STRING, R(remote_rebench), "PATH", "rebench",
	  "--hosts: the rebench each host runs (its PATH's by default)", NULL, 0, 0, 0 },
	{ "outlier", 0, OPT_PERCENT, R(outlier_pct), "PCT", "20",
	  "--hosts: name a host whose ops/s or p99 is more than PCT% from the median host's (3 hosts or more)", NULL, 0, 0, 0 },
	{ "max-offset", 0, OPT_TIME, R(max_offset_ns), "MS", "100",
	  "--hosts: name a host whose clock is further than this from this machine's (the start is corrected for it either way)", NULL, 0, 0, NSEC_PER_MSEC },
	{ "start-at", 0, OPT_STRING, R(start_at), "T", "now",
	  "start measuring at T, seconds since the epoch (CLOCK_REALTIME), after the preparation; --hosts gives it to every host", NULL, 0, 0, 0 },
	{ "ready-fd", 0, OPT_COUNT, R(ready_fd), "FD", "none",
	  "write the line \"ready\" to file descriptor FD when the first measured run starts, then close it (closed without the line: no run started); a script waits on it instead of sleeping", NULL, 0, 0, 0 },
	{ "stop-on-eof", 0, OPT_COUNT, R(stop_on_eof), "FD", "none",
	  "stop as SIGTERM would when file descriptor FD reaches its end (--hosts: the ssh connection went away)", NULL, 0, 0, 0 },
	{ "advise", 0, OPT_ENUM, R(advise), "MODEL", "none",
	  "turn IOPS per block size into a decision: btree sweeps -b (1k..64k*2 unless given) on TARGET, or reads --from TABLE, and ranks B-tree node sizes by point queries per second", advise_values, 0, 0, 0 },
	{ "characterize", 0, OPT_FLAG, R(characterize), NULL, NULL,
	  "measure what TARGET (a block device) does not say: the unit it reads in (boundary-crossing reads), how many I/Os it serves at once (ops/s against queue depth), rotation, seeks and zones, its read cache, and with --write whether flushes are honest; held against what it reports, and the layout that follows; reads only without --write; --max-duration is its time budget", NULL, 0, 0, 0 },
	{ "write", 0, OPT_FLAG, R(char_write), NULL, NULL,
	  "--characterize: add the write tests (flush honesty, the erase block): writes and a trim over TARGET, which destroy its data, after the usual checks and confirmation", NULL, 0, 0, 0 },
	{ "rows", 0, OPT_COUNT, R(rows), "N", "none",
	  "--advise btree: the rows (records) in the tree, at least 2", NULL, 0, 0, 0 },
	{ "key-size", 0, OPT_SIZE, R(key_size), "BYTES", "none",
	  "--advise btree: bytes of one entry of an inner node, key and child pointer (RethinkDB: 32)", NULL, 0, 0, 0 },
	{ "fill", 0, OPT_PERCENT, R(fill_pct), "PCT", "100",
	  "--advise btree: % of a node's entries in use, in (0, 100] (random inserts leave about 69)", NULL, 0, 0, 0 },
	{ "value-size", 0, OPT_SIZE, R(value_size), "BYTES", "none",
	  "--advise btree: the leaves hold the records, --key-size + BYTES each (otherwise leaves hold entries as inner nodes do)", NULL, 0, 0, 0 },
	{ "from", 0, OPT_STRING, R(from), "TABLE", "none",
	  "--advise btree: take the IOPS per block size from TABLE (a sweep's --output TSV, or block-size<TAB>ops_per_s rows) and do no I/O", NULL, 0, 0, 0 },
};

const size_t opt_count = sizeof(opt_table) / sizeof(opt_table[0]);

const struct opt_desc *options_find_long(const char *name)
{
	size_t i;

	for (i = 0; i < opt_count; i++)
		if (!strcmp(opt_table[i].name, name))
			return &opt_table[i];
	return NULL;
}

bool options_is_range(const char *val)
{
	return val && (strstr(val, "..") || strchr(val, ','));
}

const struct opt_desc *options_find_letter(char c)
{
	size_t i;

	for (i = 0; i < opt_count; i++)
		if (opt_table[i].letter && opt_table[i].letter == c)
			return &opt_table[i];
	return NULL;
}

/* The k-th of the engines' own options as the table would have it, a
 * workload flag whose field is in its engine's block of struct spec; NULL
 * past the last.  *first: no engine before its own takes the name. */
static const struct opt_desc *engine_desc(int k, struct opt_desc *d,
					  bool *first)
{
	const struct engine_opt *eo, *before;
	int engine, e, j;

	eo = engine_opt_get(k, &engine);
	if (!eo)
		return NULL;
	memset(d, 0, sizeof(*d));
	d->name = eo->name;
	d->type = OPT_FLAG;
	d->scope = SCOPE_WORKLOAD;
	d->off = offsetof(struct spec, eopts) +
		 (size_t)engine * sizeof(struct engine_opts) + eo->off;
	d->defval = "off";
	d->help = eo->help;
	*first = true;
	for (j = 0; j < k && (before = engine_opt_get(j, &e)); j++)
		if (!strcmp(before->name, eo->name))
			*first = false;
	return d;
}

const struct opt_desc *options_find_engine(const char *name,
					   struct opt_desc *buf)
{
	bool first;
	int k;

	for (k = 0; engine_desc(k, buf, &first); k++)
		if (!strcmp(buf->name, name))
			return buf;
	return NULL;
}

bool options_next(struct opt_iter *it)
{
	bool first;

	while (it->in_engines) {
		if (!engine_desc(it->k, &it->own, &first)) {
			it->in_engines = false;
			break;
		}
		it->bit = SPEC_ENGINE_OPT_BIT(it->k);
		it->k++;
		if (first) {
			it->o = &it->own;
			return true;
		}
	}
	if (it->next >= opt_count)
		return false;
	it->o = &opt_table[it->next];
	it->bit = it->o->scope == SCOPE_WORKLOAD ? 1ULL << it->next : 0;
	it->in_engines = !strcmp(it->o->name, OPT_ENGINE_OPTS_AFTER);
	it->next++;
	return true;
}

const char *options_first_given(const struct spec *s,
				const char *const *skip)
{
	struct opt_iter it = { 0 };
	const char *const *k;

	while (options_next(&it)) {
		if (!(s->given & it.bit))
			continue;
		for (k = skip; k && *k && strcmp(*k, it.o->name); k++)
			;
		if (!k || !*k)
			return it.o->name;
	}
	return NULL;
}

int options_index(const struct opt_desc *o)
{
	return (int)(o - opt_table);
}

bool spec_given(const struct spec *s, const char *long_name)
{
	const struct opt_desc *o = options_find_long(long_name);

	return o && (s->given & (1ULL << options_index(o)));
}

bool run_given(const struct run_opts *run, const char *long_name)
{
	const struct opt_desc *o = options_find_long(long_name);
	int i = o ? options_index(o) : -1;

	return i >= 0 && i < 128 && (run->given[i / 64] >> (i % 64) & 1);
}

const char *opt_value_name(const struct opt_desc *o, int value)
{
	return opt_values_name(o->values, value);
}

/* "stdin line 3: " on stdin ("FILE line 3: " in a suite file), nothing
 * on the command line. */
void options_where(const struct parse_ctx *ctx, char *buf, size_t len)
{
	if (ctx && ctx->line)
		snprintf(buf, len, "%s line %u: ",
			 ctx->file ? ctx->file : "stdin", ctx->line);
	else
		buf[0] = '\0';
}

void options_label(const struct opt_desc *o, const struct parse_ctx *ctx,
		   char *buf, size_t len)
{
	char own[48];

	if (o->letter)
		snprintf(own, sizeof(own), "-%c/--%s", o->letter, o->name);
	else
		snprintf(own, sizeof(own), "--%s", o->name);
	if (ctx && ctx->alias)
		snprintf(buf, len, "--%s (%s)", ctx->alias, own);
	else
		snprintf(buf, len, "%s", own);
}

#define bad_value(ctx, o, val, ...) do {				\
	char w_[64], l_[96];						\
	options_where(ctx, w_, sizeof(w_));				\
	options_label(o, ctx, l_, sizeof(l_));				\
	fprintf(stderr, "rebench: %sinvalid value '%s' for %s: ", w_,	\
		val, l_);						\
	fprintf(stderr, __VA_ARGS__);					\
	fputc('\n', stderr);						\
} while (0)

/* What a string option takes, for the message of an empty one. */
static const char *string_expected(const struct opt_desc *o)
{
	static const struct {
		const char *name, *what;
	} what[] = {
		{ "hosts", "the hosts, comma-separated: [user@]host[:port],... (--hosts db1,root@db2:2222)" },
		{ "ssh", "the ssh command and its options (--ssh 'ssh -F cluster.conf'); leave --ssh out for ssh" },
		{ "remote-rebench", "the path of rebench on the hosts (--remote-rebench /opt/rebench/bin/rebench); leave it out for rebench from their PATH" },
		{ "order", "given, or shuffled[:SEED]" },
		{ "latency-target", "a percentile and a bound, pNN<BOUND: p99<2ms" },
		{ "start-at", "an instant in seconds since the epoch, as date +%s.%N prints it" },
		{ "suite", "a suite's name or file (--suite list shows the suites)" },
		{ "directory", "a directory that exists (--directory /mnt/test)" },
		{ "file-service", "rr, random or zipf:THETA (fio's roundrobin, random, zipf:1.2)" },
	};
	size_t i;

	for (i = 0; i < sizeof(what) / sizeof(what[0]); i++)
		if (!strcmp(o->name, what[i].name))
			return what[i].what;
	return "a file name";
}

static void list_values(const struct opt_desc *o, char *buf, size_t len)
{
	const struct opt_value *v;
	size_t n = 0;

	buf[0] = '\0';
	for (v = o->values; v && v->name && n < len; v++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      v == o->values ? "" : ", ", v->name);
}

static int find_value(const struct opt_desc *o, const char *val, int *out)
{
	const struct opt_value *v;

	for (v = o->values; v && v->name; v++) {
		if (!strcasecmp(v->name, val)) {
			*out = v->value;
			return 0;
		}
	}
	return -EINVAL;
}

/* Other names for values, which no distance finds. */
static const struct {
	const char *opt, *word, *name, *why;
} value_synonyms[] = {
	{ "dist", "random", "uniform", " (fio's random_distribution=random)" },
	{ "dist", "gauss", "normal", "" },
	{ "dist", "gaussian", "normal", "" },
};

/* "; did you mean X?" when val is near some of names (NULL-terminated;
 * with o, its values too), else "". */
static void near_values(const struct opt_desc *o, const char *val,
			const char *const *names, char *buf, size_t len)
{
	const struct opt_value *v;
	struct suggest sg;
	char near[128];
	size_t i;

	for (i = 0; i < sizeof(value_synonyms) / sizeof(value_synonyms[0]); i++) {
		if (o && !strcmp(o->name, value_synonyms[i].opt) &&
		    !strcasecmp(val, value_synonyms[i].word)) {
			snprintf(buf, len, "; did you mean %s%s?",
				 value_synonyms[i].name, value_synonyms[i].why);
			return;
		}
	}
	suggest_init(&sg, val);
	for (v = o ? o->values : NULL; v && v->name; v++)
		if (v->value != OP_MIX || o->type != OPT_OPS)
			suggest_offer(&sg, v->name);
	for (; names && *names; names++)
		suggest_offer(&sg, *names);
	if (suggest_text(&sg, "", near, sizeof(near)))
		snprintf(buf, len, "; did you mean %s?", near);
	else
		buf[0] = '\0';
}

/* The parsers of set_value(), one per value kind: each takes the option,
 * its text (NULL for a flag), where the value goes, and the spec for the
 * kinds that fill more than their field. */
typedef int (*value_setter)(const struct opt_desc *o, const char *val,
			    void *field, struct spec *spec,
			    const struct parse_ctx *ctx);

static int set_flag(const struct opt_desc *o, const char *val, void *field,
		    struct spec *spec, const struct parse_ctx *ctx)
{
	(void)o, (void)val, (void)spec, (void)ctx;
	*(bool *)field = true;
	return 0;
}

static int set_enum(const struct opt_desc *o, const char *val, void *field,
		    struct spec *spec, const struct parse_ctx *ctx)
{
	char list[256], near[192];

	(void)spec;
	if (find_value(o, val, field)) {
		list_values(o, list, sizeof(list));
		near_values(o, val, NULL, near, sizeof(near));
		bad_value(ctx, o, val, "expected one of %s%s", list, near);
		return -EINVAL;
	}
	return 0;
}

/* -o: a name, or a mix of operations (mix.h). */
static int set_ops(const struct opt_desc *o, const char *val, void *field,
		   struct spec *spec, const struct parse_ctx *ctx)
{
	static const char *const flushes[] = { "fsync", "fdatasync", NULL };
	char err[256];

	(void)field;
	if (!strpbrk(val, ":/")) {
		int op;

		if (!find_value(o, val, &op) && op != OP_MIX) {
			spec->op = op;
			return 0;
		}
		/* one kind alone ("fsync") is a mix of one */
		if (!mix_parse_ops(val, &spec->op, &spec->opmix, err, sizeof(err)))
			return 0;
		if (fio_rw_hint(val, err, sizeof(err))) {
			bad_value(ctx, o, val, "%s", err);
			return -EINVAL;
		}
		near_values(o, val, flushes, err, sizeof(err));
		bad_value(ctx, o, val, "expected read, write, trim, rw, or a mix such as read/70:write/30 or write/99:fsync/1 (operations: read, write, trim, fsync, fdatasync)%s",
			  err);
		return -EINVAL;
	}
	if (mix_parse_ops(val, &spec->op, &spec->opmix, err, sizeof(err))) {
		bad_value(ctx, o, val, "%s", err);
		return -EINVAL;
	}
	return 0;
}

/* -b: one size, a size split or a range of sizes (mix.h). */
static int set_bsize(const struct opt_desc *o, const char *val, void *field,
		     struct spec *spec, const struct parse_ctx *ctx)
{
	char err[256];

	(void)field;
	if (mix_parse_sizes(val, &spec->bs, &spec->bsmix, err, sizeof(err))) {
		bad_value(ctx, o, val, "%s", err);
		return -EINVAL;
	}
	return 0;
}

static int set_dist(const struct opt_desc *o, const char *val, void *field,
		    struct spec *spec, const struct parse_ctx *ctx)
{
	char name[64], list[256], near[192];
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val);

	(void)field;
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, val, n);
	name[n] = '\0';
	if (find_value(o, name, &spec->dist)) {
		list_values(o, list, sizeof(list));
		near_values(o, name, NULL, near, sizeof(near));
		bad_value(ctx, o, val, "expected one of %s%s", list, near);
		return -EINVAL;
	}
	free(spec->dist_arg);
	spec->dist_arg = colon ? strdup(colon + 1) : NULL;
	return 0;
}

static int set_engine(const struct opt_desc *o, const char *val, void *field,
		      struct spec *spec, const struct parse_ctx *ctx)
{
	const char *names[64];
	char list[256], near[192];
	size_t n = 0, k = 0, a;
	int i, idx = engine_lookup(val);

	(void)spec;
	if (idx >= 0) {
		*(int *)field = idx;
		return 0;
	}
	for (i = 0; i < engine_count() && n < sizeof(list); i++) {
		const struct engine_ops *e = engine_get(i);

		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
				      i ? ", " : "", e->name);
		if (k + 1 < sizeof(names) / sizeof(names[0]))
			names[k++] = e->name;
		for (a = 0; a < sizeof(e->aliases) / sizeof(e->aliases[0]) &&
			    e->aliases[a] &&
			    k + 1 < sizeof(names) / sizeof(names[0]); a++)
			names[k++] = e->aliases[a];
	}
	names[k] = NULL;
	near_values(NULL, val, names, near, sizeof(near));
	bad_value(ctx, o, val, "expected one of %s (fio names psync, sync, libaio, io_uring, posixaio are accepted)%s",
		  list, near);
	return -EINVAL;
}

/* OPT_SIZE and OPT_COUNT. */
static int set_number(const struct opt_desc *o, const char *val, void *field,
		      struct spec *spec, const struct parse_ctx *ctx)
{
	const char *what = o->type == OPT_SIZE ? "a size in bytes with an optional k, m, g or t suffix (powers of 1024)" : "a whole number";
	uint64_t v;
	int ret;

	(void)spec;
	ret = o->type == OPT_SIZE ? parse_size(val, &v) : parse_uint(val, &v);
	if (ret == -ERANGE) {
		bad_value(ctx, o, val, "too large");
		return -EINVAL;
	}
	if (ret) {
		bad_value(ctx, o, val, "expected %s", what);
		return -EINVAL;
	}
	if (v < o->min) {
		bad_value(ctx, o, val, "must be at least %llu",
			  (unsigned long long)o->min);
		return -EINVAL;
	}
	if (o->max && v > o->max) {
		bad_value(ctx, o, val, "must be at most %llu",
			  (unsigned long long)o->max);
		return -EINVAL;
	}
	*(uint64_t *)field = v;
	return 0;
}

static int set_percent(const struct opt_desc *o, const char *val, void *field,
		       struct spec *spec, const struct parse_ctx *ctx)
{
	char range[64];
	double d;

	(void)spec;
	/* max, when set, bounds it below 100; min 1: 0 excluded */
	if (!(parse_percent(val, &d) || d < 0 ||
	      d > (o->max ? (double)o->max : 100) || (o->min && d == 0))) {
		*(double *)field = d;
		return 0;
	}
	if (o->min || o->max)
		snprintf(range, sizeof(range), "expected a percentage in %s0, %llu]",
			 o->min ? "(" : "[",
			 (unsigned long long)(o->max ? o->max : 100));
	else
		snprintf(range, sizeof(range), "expected a percentage from 0 to 100");
	bad_value(ctx, o, val, "%s", range);
	return -EINVAL;
}

static int set_double(const struct opt_desc *o, const char *val, void *field,
		      struct spec *spec, const struct parse_ctx *ctx)
{
	double d;

	(void)spec;
	if (parse_percent(val, &d) || d <= 0 || d > 100) {
		bad_value(ctx, o, val, "expected a percentage in (0, 100]");
		return -EINVAL;
	}
	*(double *)field = d;
	return 0;
}

static int set_duration(const struct opt_desc *o, const char *val, void *field,
			struct spec *spec, const struct parse_ctx *ctx)
{
	struct amount a;

	(void)spec;
	if (parse_duration(val, &a) || (a.kind != AMOUNT_PERCENT && !a.value) ||
	    (a.kind == AMOUNT_PERCENT && (a.pct <= 0 || a.pct > 100000))) {
		bad_value(ctx, o, val, "expected a positive time (10, 10s, 500ms), amount of data (1g) or share of the region (50%%)");
		return -EINVAL;
	}
	*(struct amount *)field = a;
	return 0;
}

static int set_extent(const struct opt_desc *o, const char *val, void *field,
		      struct spec *spec, const struct parse_ctx *ctx)
{
	struct amount a;

	if (parse_extent(val, &a) || (a.kind == AMOUNT_PERCENT && (a.pct < 0 || a.pct > 100))) {
		bad_value(ctx, o, val, "expected a size in bytes (k, m, g suffixes) or a percentage of the target from 0 to 100%%");
		return -EINVAL;
	}
	if (field == &spec->length && a.kind == AMOUNT_BYTES && !a.value) {
		bad_value(ctx, o, val, "the region cannot be empty");
		return -EINVAL;
	}
	if (field == &spec->length && a.kind == AMOUNT_PERCENT && a.pct == 0) {
		bad_value(ctx, o, val, "the region cannot be empty");
		return -EINVAL;
	}
	*(struct amount *)field = a;
	return 0;
}

static int set_time(const struct opt_desc *o, const char *val, void *field,
		    struct spec *spec, const struct parse_ctx *ctx)
{
	(void)spec;
	if (parse_time(val, o->unit_ns, (uint64_t *)field)) {
		bad_value(ctx, o, val, "expected a time: a number of %s, or with a ns, us, ms or s suffix",
			  o->unit_ns == NSEC_PER_SEC ? "seconds" :
			  o->unit_ns == NSEC_PER_MSEC ? "milliseconds" : "microseconds");
		return -EINVAL;
	}
	return 0;
}

static int set_string(const struct opt_desc *o, const char *val, void *field,
		      struct spec *spec, const struct parse_ctx *ctx)
{
	(void)spec;
	if (!*val) {
		bad_value(ctx, o, val, "expected %s", string_expected(o));
		return -EINVAL;
	}
	free(*(char **)field);
	*(char **)field = strdup(val);
	return *(char **)field ? 0 : -ENOMEM;
}

static int set_seed(const struct opt_desc *o, const char *val, void *field,
		    struct spec *spec, const struct parse_ctx *ctx)
{
	(void)spec;
	if (parse_uint(val, (uint64_t *)field)) {
		bad_value(ctx, o, val, "expected a whole number from 0 to 18446744073709551615");
		return -EINVAL;
	}
	return 0;
}

static int set_sync(const struct opt_desc *o, const char *val, void *field,
		    struct spec *spec, const struct parse_ctx *ctx)
{
	char err[256];

	(void)spec;
	if (sync_policy_parse(val, field, err, sizeof(err))) {
		bad_value(ctx, o, val, "%s", err);
		return -EINVAL;
	}
	return 0;
}

static int set_delay(const struct opt_desc *o, const char *val, void *field,
		     struct spec *spec, const struct parse_ctx *ctx)
{
	char err[512];

	(void)spec;
	if (delay_parse(val, field, err, sizeof(err))) {
		bad_value(ctx, o, val, "%s", err);
		return -EINVAL;
	}
	return 0;
}

static int set_rate(const struct opt_desc *o, const char *val, void *field,
		    struct spec *spec, const struct parse_ctx *ctx)
{
	char err[512];

	(void)spec;
	if (rate_parse(val, field, err, sizeof(err))) {
		bad_value(ctx, o, val, "%s", err);
		return -EINVAL;
	}
	return 0;
}

static const value_setter setters[] = {
	[OPT_FLAG] = set_flag,
	[OPT_SIZE] = set_number,
	[OPT_BSIZE] = set_bsize,
	[OPT_OPS] = set_ops,
	[OPT_COUNT] = set_number,
	[OPT_ENUM] = set_enum,
	[OPT_DIST] = set_dist,
	[OPT_ENGINE] = set_engine,
	[OPT_PERCENT] = set_percent,
	[OPT_DOUBLE] = set_double,
	[OPT_DURATION] = set_duration,
	[OPT_EXTENT] = set_extent,
	[OPT_TIME] = set_time,
	[OPT_STRING] = set_string,
	[OPT_SEED] = set_seed,
	[OPT_DELAY] = set_delay,
	[OPT_SYNC] = set_sync,
	[OPT_RATE] = set_rate,
};

static int set_value(const struct opt_desc *o, const char *val, void *field,
		     struct spec *spec, const struct parse_ctx *ctx)
{
	if ((size_t)o->type >= sizeof(setters) / sizeof(setters[0]) ||
	    !setters[o->type])
		return -EINVAL;
	return setters[o->type](o, val, field, spec, ctx);
}

int options_apply(const struct opt_desc *o, const char *val, struct spec *spec,
		  struct run_opts *run, const struct parse_ctx *ctx)
{
	char w[64], l[96];
	void *field;

	if (o->scope == SCOPE_RUN) {
		if (!run) {
			options_where(ctx, w, sizeof(w));
			options_label(o, ctx, l, sizeof(l));
			fprintf(stderr, "rebench: %s%s applies to the whole run; give it on the command line, not on a workload line\n", w, l);
			return -EINVAL;
		}
		field = (char *)run + o->off;
		if (options_index(o) < 128)
			run->given[options_index(o) / 64] |=
				1ULL << (options_index(o) % 64);
	} else {
		field = (char *)spec + o->off;
		spec->given |= 1ULL << options_index(o);
		/* a delay spec's commas separate its items, not values */
		if (o->type != OPT_STRING && o->type != OPT_DELAY &&
		    options_is_range(val)) {
			if (ctx && ctx->ranges_arg)
				return ctx->ranges->add(ctx->ranges_arg, o, val, ctx);
			options_where(ctx, w, sizeof(w));
			options_label(o, ctx, l, sizeof(l));
			fprintf(stderr, "rebench: %s%s %s: ranges and lists go on the command line, where they sweep every workload line\n",
				w, l, val);
			return -EINVAL;
		}
		if (ctx && ctx->ranges_arg)
			ctx->ranges->remove(ctx->ranges_arg, o);
	}
	return set_value(o, val, field, spec, ctx);
}

int options_set(struct spec *spec, const struct opt_desc *o, const char *val,
		const struct parse_ctx *ctx)
{
	struct parse_ctx plain = { ctx ? ctx->line : 0, ctx ? ctx->source : NULL, NULL, NULL };

	return options_apply(o, val, spec, NULL, &plain);
}

int spec_set(struct spec *s, const char *name, const char *val,
	     const struct parse_ctx *ctx)
{
	const struct opt_desc *o = options_find_long(name);

	if (!o || o->scope != SCOPE_WORKLOAD || (o->type == OPT_FLAG) != !val)
		return -EINVAL;		/* a bug: no such setting */
	return options_apply(o, val, s, NULL, ctx);
}

int spec_set_flag(struct spec *s, const char *name,
		  const struct parse_ctx *ctx)
{
	return spec_set(s, name, NULL, ctx);
}

int spec_set_count(struct spec *s, const char *name, uint64_t v,
		   const char *unit, const struct parse_ctx *ctx)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu%s", (unsigned long long)v, unit);
	return spec_set(s, name, text, ctx);
}

/* --NAME of the engines' own (o, the first engine's that takes it): the
 * flag in the block of every engine that does, so that it holds whichever
 * -t comes after it. */
int options_apply_engine_flag(const struct opt_desc *o, struct spec *spec,
			      const struct parse_ctx *ctx)
{
	struct opt_desc d;
	bool first;
	int k, ret;

	for (k = 0; engine_desc(k, &d, &first); k++) {
		if (strcmp(d.name, o->name))
			continue;
		ret = set_value(&d, NULL, (char *)spec + d.off, spec, ctx);
		if (ret)
			return ret;
		spec->given |= SPEC_ENGINE_OPT_BIT(k);
	}
	return 0;
}
