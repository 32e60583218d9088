#!/usr/bin/env bash
# test_golden.sh - the "must not change" guard of issue 28: a set of
# representative commands (every mode and engine, sweeps, repeats, mixes,
# replays, advise --from, compare of saved documents), each run with a
# fixed seed and, where it does I/O, a byte limit, its output reduced to
# the part that is the same on every run, and compared with the file kept
# for it in tests/golden/ (CASE.out, named after what it covers).
#
# The reduction keeps what a run decides (parameters, seeds, counts of
# byte-limited runs, -g 0 offsets, verdicts, layouts, field names and
# order) and puts "*" where a value is a time, a rate, a latency, a CPU
# figure, a date, a host, a kernel or a device counter; a scratch path
# reads SCRATCH, a loop device /dev/loopN.  -n lines by field position
# (rebench-output(5), RAW STATISTICS, version 6), JSON by key with jq (key order
# kept), TSV by column name, other text by sed.  The exit status is kept.
#
#	bash tests/integration/test_golden.sh            compare
#	bash tests/integration/test_golden.sh --update   rewrite tests/golden/
#
# --update is for a deliberate output change only: rewrite, then read the
# diff of tests/golden/ in the commit, which is the change users see.
# The inputs of --compare and --advise --from are kept in tests/golden/in/
# (saved documents, so the verdicts do not depend on this machine).
. "$(dirname "$0")/../lib/common.sh"

UPDATE=
[ "${1:-}" = --update ] && UPDATE=1
require_loop
require_cmd jq awk sed diff dd mkfs.ext4
LIB=$TESTS_ROOT/librebench-record.so
[ -r "$LIB" ] || fail "$LIB not built: run make"
export REBENCH_RECORD_LIB=$LIB
export LC_ALL=C
GOLDEN=$TESTS_ROOT/tests/golden
S=$(realpath "$SCRATCH")

DEV=$(make_loop 16M)
# The file target lives on a new ext4 of its own, so that its extents
# (their offsets and alignment verdicts in the JSON) are the same on every
# run, whatever the scratch directory's filesystem does.
FSDEV=$(make_loop 32M)
mkfs.ext4 -q -F "$FSDEV" || fail "mkfs.ext4 $FSDEV failed"
mount_dev "$FSDEV" "$S/fs"
FILE=$S/fs/file.img
# one direct write of 8 MiB: ext4 places it in one request, whenever the
# machine's writeback runs (buffered 1 MiB writes were placed wherever a
# sync() from elsewhere cut them: another extent offset under load)
dd if=/dev/zero of="$FILE" bs=8M count=1 oflag=direct status=none || fail "cannot write $FILE"
# inputs are copied so that their paths in the outputs are the scratch's
# (its files: a folder there holds another test's saved data)
find "$GOLDEN/in" -maxdepth 1 -type f -exec cp -t "$S/" {} + || fail "cannot copy $GOLDEN/in"

# ---------------------------------------------------------------- reducers

# -n lines.  A workload (or total) line: K keeps a field, M masks it, N
# masks it unless it is "-" (a latency of a kind that did not occur is
# "-" on every run).  With --repeat (REPEAT=1) the fixed fields are the
# median run's, so its seed (17) and achieved distribution depend on
# timing too.  A device line keeps its layout and shared/alone; a replay
# line its counts; lines of other modes (advise, compare, trace
# statistics) are kept whole.
reduce_terse() {
	awk -v repeat="${REPEAT:-0}" '
	function cls(i,   f) {
		if (i == 13 || i == 14 || i == 15 || i == 18 || i == 21 || i == 82 || i == 95 ||
		    i == 102 || i == 112 || i == 118 || i == 119 || i == 120 || i == 129)
			return "K"
		if (i == 17 || i == 19 || i == 20)
			return repeat ? "M" : "K"
		if (i >= 22 && i <= 94 && i != 82) {
			f = i < 82 ? (i - 22) % 12 : (i - 83) % 12
			return f < 2 ? "K" : "N"
		}
		if ((i >= 1 && i <= 5) || i == 16 || (i >= 98 && i <= 101) || i == 104 ||
		    (i >= 113 && i <= 117 && i != 115))
			return "M"
		if (i <= 129)
			return "N"
		if (!repeat)
			return "K"
		if (i == 130)
			return "K"
		return i == 156 ? "M" : (i < 156 ? "N" : "K")
	}
	function put(i, c) {
		if (c == "M" || (c == "N" && $i != "-"))
			$i = "*"
	}
	$1 ~ /^[0-9.]+$/ && NF >= 129 {
		for (i = 1; i <= NF; i++)
			put(i, cls(i))
		print; next
	}
	$1 == "device" {
		put(2, "M")
		for (i = 3; i <= 15; i++)
			put(i, i <= 12 ? "N" : "M")
		print; next
	}
	$1 == "replay" {
		for (i = 12; i <= 15; i++)
			put(i, "N")
		print; next
	}
	$1 == "replay-op" { put(5, "M"); put(6, "M"); print; next }
	{ print }'
}

# JSON: each value under a key that names a time, a rate, a latency, CPU,
# a date, a host, a kernel or device counters (and every lat_* key of
# --repeat, and with --repeat the seed of the run shown) becomes "*", objects and arrays under such a key too; strings
# lose the scratch path, image names and loop device numbers.  Warnings
# whose presence depends on a measured figure (flushes faster than a
# revolution, ops/s that varied over --repeat runs) are dropped.
JSON_MASKED='["ops_per_s", "mib_per_s", "elapsed_s", "seconds", "latency_us",
 "latency_hist", "write_flush_latency_us", "cpu", "date", "host", "timezone",
 "kernel", "intervals", "ops_ci", "device", "devices", "ns", "ns_per_op",
 "shown_run", "shown_seed"]'
JSON_TIMED_WARNINGS='complete in a median|ops/s varied by'
reduce_json() {
	jq --arg s "$S" --argjson m "$JSON_MASKED" --arg w "$JSON_TIMED_WARNINGS" \
		--argjson repeat "${REPEAT:-0}" '
	def clean: gsub($s; "SCRATCH") | gsub("/dev/loop[0-9]+"; "/dev/loopN") |
		gsub("\\bloop[0-9]+\\b"; "loopN") | gsub("img\\.[A-Za-z0-9]{6}"; "img.X");
	def masked: IN($m[]) or test("^lat_") or ($repeat == 1 and . == "seed");
	def red: if type == "object" then
			with_entries(if (.key | masked) then .value = "*" else .value |= red end)
		elif type == "array" then
			map(select(type != "string" or (test($w) | not)) | red)
		elif type == "string" then clean
		else . end;
	red'
}

# TSV with a header line: the columns named as times, rates, latencies,
# intervals and device reads are masked ("-" kept, except for the
# interval, which is "-" only when the run was short).
reduce_tsv() {
	awk -F '\t' -v OFS='\t' '
	!hdr && /^[a-z]/ {
		hdr = 1
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^(ops_ci_.*|seconds|time_s)$/)
				c[i] = "M"
			else if ($i ~ /^(ops_per_s|mib_per_s|lat_.*|latency_us|cpu_.*|device_reads.*|precision)$/)
				c[i] = "N"
		}
		print; next
	}
	{
		for (i = 1; i <= NF; i++)
			if (c[i] == "M" || (c[i] == "N" && $i != "-"))
				$i = "*"
		print
	}'
}

# Text: paths, images and devices, then the case's own sed (SED); every
# kind goes through it last.
reduce_text() {
	# JOIN: a line wrapped at a width (the value column of --probe, 22
	# spaces in) joined back first, so the wrap, which moves with the
	# length of the device's name (loop1, loop10), is not compared
	if [ -n "${JOIN:-}" ]; then
		awk '/^                      [^ ]/ && NR > 1 { sub(/^ +/, ""); prev = prev " " $0; next }
		     NR > 1 { print prev } { prev = $0 } END { if (NR) print prev }'
	else
		cat
	fi | sed -E "s|$S|SCRATCH|g; s|/dev/loop[0-9]+|/dev/loopN|g; s|\bloop[0-9]+\b|loopN|g; s|img\.[A-Za-z0-9]{6}|img.X|g${SED:+; $SED}"
}

# ---------------------------------------------------------------- cases

# golden CASE KIND ARGS...: run rebench ARGS (stdin from IN, if set),
# reduce its stdout as KIND (terse, json, text), and compare with
# tests/golden/CASE.out (or write it, --update).  SED as above; REPEAT is
# set when ARGS hold --repeat.  A failed command's stderr is kept too
# (its message), and any command's when STDERR is set.
golden() {
	local name=$1 kind=$2 got=$S/golden.$1.out REPEAT=0
	shift 2
	case " $* " in *" --repeat "*) REPEAT=1 ;; esac
	rb "$@" <"${IN:-/dev/null}"
	{
		printf '# rebench %s\n' "$*" | reduce_text
		[ -n "${IN:-}" ] && sed 's/^/# stdin: /' "$IN" | reduce_text
		printf '# exit %s\n' "$RB_RC"
		<<<"$RB_OUT" "reduce_$kind" | reduce_text
		[ -n "${STDERR:-}" ] || [ "$RB_RC" != 0 ] && <<<"$RB_ERR" sed 's/^/# stderr: /' | reduce_text
	} >"$got"
	compare_golden "$name" "$got"
}

# golden_file CASE KIND FILE: a file a command wrote, as golden does.
golden_file() {
	local got=$S/golden.$1.out
	if [ -r "$3" ]; then
		"reduce_$2" <"$3" | reduce_text >"$got"
	else
		echo "(missing: $3)" | reduce_text >"$got"
	fi
	compare_golden "$1" "$got"
}

compare_golden() {
	local name=$1 got=$2 want=$GOLDEN/$1.out
	if [ -n "$UPDATE" ]; then
		mkdir -p "$GOLDEN" && cp "$got" "$want"
		pass "$name: written"
	elif [ ! -r "$want" ]; then
		check_failed "$name: no $want (bash $0 --update writes it)"
	elif diff -q "$want" "$got" >/dev/null; then
		pass "$name"
	else
		check_failed "$name: output differs from tests/golden/$name.out" \
			"$(head -n 1 "$got")" \
			"$(diff -u "$want" "$got" | head -n 60)"
	fi
}

# A --record log: its time, process/thread and latency columns (1, 2, 9)
# and its start time.
reduce_log() {
	awk '/^# start:/ { print "# start: *"; next }
	/^#/ { print; next }
	{ $1 = "*"; $2 = "*"; $9 = "*"; print }'
}

# ---------------------------------------------------------------- the set

section "default run shape"
golden default_terse terse -n --seed 1 -d 256k "$DEV"
golden default_json json --json --seed 1 -d 256k "$DEV"

section "engines, sync and async"
golden engine_stateless terse -n -t stateless -b 4k -d 256k --seed 2 "$DEV"
golden engine_mmap_file terse -n -t mmap -p -b 4k -d 256k --seed 2 "$FILE"
golden engine_paio_q4 terse -n -t paio -q 4 -b 4k -d 256k --seed 3 "$DEV"
golden engine_naio_q8_batch terse -n -t naio -q 8 --batch 2 -b 4k -d 256k --seed 3 "$DEV"
golden engine_uring_q8_json json --json -t uring -q 8 -b 4k -d 512k --seed 4 "$DEV"

section "operations and mixes"
golden write_seq_terse terse -n -o write -w seq -b 64k -d 1m --seed 5 "$DEV"
golden write_seq_backward terse -n -o write -w seq -r backward -b 8k -d 512k -f --seed 5 "$DEV"
golden rw_rwmix_json json --json -y -o rw --rwmix 70 -b 4k -d 512k --seed 5 "$DEV"
golden opmix_terse terse -n -o read/70:write/30 -b 4k -d 512k --seed 6 "$DEV"
golden bs_split_terse terse -n -b 4k/25:16k/75 -d 1m --seed 7 "$DEV"
golden bs_range_json json --json -b 4k-16k/4k -d 1m --seed 8 "$DEV"
golden region_stride terse -n -w seq -j 1m -e 2m -s 16k -b 4k -d 1m --seed 6 "$DEV"

section "distributions"
golden dist_zipf terse -n -u zipf:1.2 -b 4k -d 512k --seed 9 "$DEV"
golden dist_normal_json json --json -u normal -i 10 --center 30 -b 4k -d 512k --seed 9 "$DEV"
golden dist_pareto_scatter terse -n -u pareto --scatter -b 4k -d 512k --seed 9 "$DEV"
golden dist_const terse -n -u const --center 50 -b 4k -d 64k --seed 9 "$DEV"

section "--sync policies"
golden sync_fdatasync4 terse -n -o write -b 4k -d 128k --sync fdatasync:4 --seed 10 "$FILE"
golden sync_end_paged terse -n -p -o write -w seq -b 4k -d 128k --sync end --seed 10 "$FILE"
golden sync_sfr_json json --json -y -o write -b 4k -d 128k --sync sfr:2 --seed 10 "$FILE"
golden fio_spellings terse -n --rw=randwrite --bs=4k --ioengine=psync -d 256k --seed 11 "$FILE"

section "stdin lines: several workloads and their total"
printf '%s\n' "-b 4k $DEV" "-w seq -b 64k $DEV" "-o write -u zipf:1.1 -b 4k -t uring -q 4 $FILE" \
	"# a comment" >"$S/lines"
IN=$S/lines golden stdin_terse terse -n -d 256k --seed 12
IN=$S/lines golden stdin_json json --json -y -d 256k --seed 12

section "a sweep of two axes and its TSV"
golden sweep_terse terse -n -b 4k,16k -q 1,4 -t uring -d 256k --seed 13 --output "$S/sweep.tsv" "$DEV"
golden_file sweep_tsv tsv "$S/sweep.tsv"
golden sweep_json json --json -b 4k..8k/4k -w seq,rnd -d 128k --seed 13 "$DEV"

section "--repeat with a byte limit"
golden repeat_terse terse -n -w seq -b 4k -d 256k --repeat 3 --seed 14 "$DEV"
golden repeat_json json --json -w seq -b 4k -d 256k --repeat 3 --seed 14 "$DEV"

section "-g 0: every I/O's offset"
golden g0_terse terse -n -g 0 --output "$S/g0.tsv" -b 4k -d 64k --seed 15 "$DEV"
golden_file g0_log tsv "$S/g0.tsv"

section "modes without I/O"
golden dry_run_refused text --dry-run -o write -b 4k -d 1m "$DEV"
golden dry_run text --dry-run --yes -o write -b 4k,8k -d 1m "$DEV"
golden fio_export text --fio -t uring -q 16 -b 4k -u zipf:1.1 --seed 16 -d 1m "$DEV"
JOIN=1 golden probe_text text --probe "$DEV"
golden probe_json json --probe --json "$DEV"

section "suite, byte-limited"
# The folder named is the build's DATADIR (PREFIX=/usr make check: /usr/share/...).
SED='s#no /[^ ]*/share/rebench/workloads#no DATADIR/workloads#' \
	golden suite_quick terse --suite quick -d 1m --seed 17 -n --yes "$DEV"

section "record and replay"
SED='s/ over [0-9.]+ s$/ over * s/; s/ +[0-9]+\.[0-9] us( +[0-9]+)$/ * us\1/' \
	golden record_dd text --record "$S/dd.log" -- dd if=/dev/zero of="$S/ddout" bs=4k count=16 conv=fsync status=none
golden_file record_log log "$S/dd.log"
SED='s/^(trace-stats( [^ ]+){5}) [0-9]+/\1 */; s/^([a-z]+ [0-9]+ [0-9.]+ [0-9]+ [0-9.]+ [^ ]+) [0-9]+ /\1 * /' \
	golden trace_stats_terse terse --trace-stats "$S/dd.log" -n
SED='s/^[0-9]+ /* /' golden trace_to_fio text --trace-to fio "$S/dd.log"
golden replay_asap_terse terse --replay "$S/dd.log" --seed 18 -n "$DEV"
golden replay_grouped_json json --replay "$S/dd.log" --replay-mode grouped --seed 18 -y --json "$DEV"

section "advise --from (no I/O)"
ADV=(--advise btree --rows 1000000000 --key-size 32 --from "$S/rethinkdb.tsv")
golden advise_from_text text "${ADV[@]}"
golden advise_from_terse terse "${ADV[@]}" -n
golden advise_from_json json "${ADV[@]}" --fill 69 --value-size 100 --json

section "compare of two saved documents"
CMP=(--compare "$S/b4k.json" "$S/b64k.json")
golden compare_text text "${CMP[@]}"
golden compare_terse terse "${CMP[@]}" -n
golden compare_json json "${CMP[@]}" --json

section "emulate: the delays from two saved replay results"
EMU=(--emulate "$S/emulate_slow.json" --baseline "$S/emulate_fast.json")
STDERR=1 golden emulate_refused text "${EMU[@]}" -- true
STDERR=1 SED='s/calibration: .*/calibration: */; s/(  read +[0-9]+ +[0-9]+ +[0-9]+ +)[0-9]+ +/\1* /; s/ - [0-9]+ ns, the zero wait/ - * ns, the zero wait/; s/=[0-9]+ns after/=*ns after/' \
	golden emulate_partial text "${EMU[@]}" --allow-partial -- true
