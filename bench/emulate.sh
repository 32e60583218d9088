#!/usr/bin/env bash
# emulate.sh (make crosscheck) - how well --emulate makes an application on
# a fast device take the time it takes on a slow one.
#
# Two applications, each on ext4: bench/db-writer.sh, a database's commits
# as O_DIRECT page writes and fdatasync (fio runs them), and sqlite3
# inserting rows one transaction each with PRAGMA synchronous=FULL
# (bench/sqlite-insert.sh), which writes through the page cache.  The
# first is replayed grouped with O_DIRECT, as it ran; the second with -p.
# The fast device is /dev/zram0 (memory); the slow one a loop device with
# direct I/O over an image file on the root filesystem's disk, so that its
# writes and flushes reach that disk.  Steps:
#
#   1. time the application on each device (median of EMU_RUNS runs);
#   2. record it once on the fast device (--record, its files and their
#      directory: sqlite3 syncs the directory too);
#   3. replay the log grouped onto a new file on each filesystem
#      (--replay-mode grouped, with the application's own kind of I/O)
#      and keep each JSON result;
#   4. run the application on the fast device under --emulate SLOW.json
#      --baseline FAST.json (median of EMU_RUNS runs);
#   5. print the three medians and the emulation's error against the slow
#      device, flagged when it is over EMU_TOL percent (15).
#
# What to expect: the delays are per operation, measured by a replay onto
# a laid-out file.  An application whose every call reaches the device as
# it is (db-writer) gets its slow time within a few percent.  sqlite3's
# cost on the slow device is mostly ext4's: each fdatasync after its
# rollback journal was created, grown and deleted commits ext4's journal,
# and a replay, which creates and deletes nothing, does not pay that; its
# grouped page-cache replay also flushes all writes at the first fdatasync.
# Its error is shown to say where the method stops, not hidden.
#
# Timing depends on the machine, so nothing here fails on a disagreement:
# it is flagged (DISAGREE) and counted, as bench/crosscheck.sh does.  Only a
# tool that fails to run makes the script exit non-zero.
#
# EMU_ROWS=N rows (300), EMU_RUNS=N runs of each timing (3).  Needs root,
# /dev/zram0 unused (disksize 0), sqlite3, jq and /usr/bin/time.
. "$(dirname "$0")/../tests/lib/common.sh"

require_loop
require_cmd sqlite3 fio jq
[ -x /usr/bin/time ] || skip "needs /usr/bin/time (Debian package time)"

ROWS=${EMU_ROWS:-300}
IOS=${EMU_IOS:-500}
export TESTS_ROOT ROWS IOS	# the applications run in child shells
RUNS=${EMU_RUNS:-3}
TOL=${EMU_TOL:-15}
# rebench runs as a copy (common.sh): it finds the interposer this way
export REBENCH_RECORD_LIB=$TESTS_ROOT/librebench-record.so
[ -r "$REBENCH_RECORD_LIB" ] || die "$REBENCH_RECORD_LIB not built: run make"

fast_and_slow 256M
S=$(realpath "$SCRATCH")	# fast and slow are $S/fast and $S/slow
ZRAM=/dev/zram0
SLOW=$SLOW_DEV

# The applications: APP DIR runs it once on the filesystem at DIR (each is
# handed to a child bash with declare -f, for /usr/bin/time and rebench).
db_writer() { "$TESTS_ROOT/bench/db-writer.sh" "$1/pages" "$IOS"; }
sqlite() {
	rm -f "$1/t.db" "$1/t.db-journal"
	"$TESTS_ROOT/bench/sqlite-insert.sh" "$1/t.db" "$ROWS"
}

# seconds CMD...: the elapsed seconds of one run of CMD.
seconds() {
	/usr/bin/time -f %e -o "$S/time" "$@" >/dev/null 2>&1 ||
		die "$* failed"
	tail -1 "$S/time"
}

# median_of WHAT CMD...: median elapsed seconds of RUNS runs.
median_of() {
	local what=$1 i ts=()
	shift
	for ((i = 0; i < RUNS; i++)); do
		ts+=("$(seconds "$@")")
	done
	log "$what: ${ts[*]} s" >&2
	printf '%s\n' "${ts[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}

ROWS_OUT=()
DISAGREE=0

# study APP REPLAY_OPTS...: steps 1 to 5 for one application.
study() {
	local app=$1 d t_fast t_slow t_emu err verdict
	shift
	t_fast=$(median_of "$app on fast" bash -c "$(declare -f "$app"); $app $S/fast")
	t_slow=$(median_of "$app on slow" bash -c "$(declare -f "$app"); $app $S/slow")
	"$REBENCH" --record "$S/$app.log" --record-path "$S/fast" \
		--record-path "$S/fast/*" -n -- \
		bash -c "$(declare -f "$app"); $app $S/fast" >/dev/null 2>"$S/err" ||
		die "rebench --record $app failed: $(cat "$S/err")"
	for d in fast slow; do
		rm -f "$S/$d/replay.bin"
		"$REBENCH" --replay "$S/$app.log" --replay-mode grouped "$@" \
			-y --json "$S/$d/replay.bin" >"$S/$app-$d.json" 2>"$S/err" ||
			die "grouped replay of $app on $d failed: $(cat "$S/err")"
		log "$app, grouped replay on $d: $(jq -r '[.replay.per_op[] | "\(.op) \(.ns_per_op | floor) ns"] | join(", ")' "$S/$app-$d.json")"
	done
	"$REBENCH" --emulate "$S/$app-slow.json" --baseline "$S/$app-fast.json" \
		--allow-partial -- true 2>&1 | sed -n '/^  op/,/^rebench/p' | sed '$d;s/^/    /'
	t_emu=$(median_of "$app on fast under --emulate" "$REBENCH" --emulate \
		"$S/$app-slow.json" --baseline "$S/$app-fast.json" --allow-partial \
		--record-path "$S/fast" --record-path "$S/fast/*" -- bash -c "$(declare -f "$app"); $app $S/fast")
	err=$(calc "100 * ($t_emu / $t_slow - 1)")
	verdict=agree
	num_true "$err > $TOL || $err < -$TOL" && { verdict=DISAGREE; DISAGREE=$((DISAGREE + 1)); }
	ROWS_OUT+=("$(printf '%-10s %8s %8s %8s %+8.1f%%  %s' "$app" "$t_fast" "$t_slow" "$t_emu" "$err" "$verdict")")
}

log "fast $ZRAM, slow $SLOW (direct I/O over an image in $S); medians of $RUNS runs"
study db_writer
study sqlite -p
printf '%-10s %8s %8s %8s %9s\n' application fast slow emulated error
printf '%s\n' "${ROWS_OUT[@]}"
printf '(seconds; error: emulated against slow, tolerance %s%%; db_writer: %s commits, sqlite: %s transactions)\n' "$TOL" "$IOS" "$ROWS"
log "$DISAGREE of 2 applications beyond the tolerance"
exit 0
