#!/usr/bin/env bash
# test_delay.sh - --delay (issue 14): set delays for rebench's own
# workloads, for a COMMAND under the interposer, and for replays.
#
# Timing checks rest on the carry rule of delay.h, which makes them lower
# bounds that hold on any machine: a thread's waits add up to at least the
# delays asked (the sum of the first k waits is at least the sum of their
# delays, for every k), so a mean latency with a delay of D is at least D,
# and a log's prefix sums of delayed durations are at least k x D.  A
# median is not checked: one wait may be shortened by up to its delay when
# the one before overshot.  No check is an upper bound on a time: load
# stretches any wait.  --delay's overhead (how much more than the delay a
# wait takes), the medians, and that a kind without a delay, or a failing
# call, is not slowed are figures bench/crosscheck.sh prints (make
# crosscheck); here the kinds delayed are the parameters'.
#
# Workloads: reads on a loop device with O_DIRECT, with and without
# read=200us; a write/fsync mix with fsync=5ms (the fsyncs raised); an
# async engine at -q 1, and refused at -q 8.  COMMAND: dd's 50 reads with
# read=2ms take at least 100 ms; with --record, the log says
# the delay and its durations hold the waits; writes and fdatasync delayed
# through dd conv=fdatasync, reads left alone; record_calls (threads,
# fork, exec, a failing read) still runs correctly under every delay.
# Replay: a grouped replay's reads raised by their delay.  Bad input runs
# nothing, each with its message.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq awk dd
PROG=$TESTS_ROOT/tests/progs/record_calls
LIB=$TESTS_ROOT/librebench-record.so
[ -x "$PROG" ] || fail "$PROG not built: run make check (or make tests/progs/record_calls)"
[ -r "$LIB" ] || fail "$LIB not built: run make"
export REBENCH_RECORD_LIB=$LIB
S=$(realpath "$SCRATCH")

# lat KIND FIELD: the last JSON's latency_us.FIELD of operation KIND
lat() { jqr ".workloads[0].results.operations.$1.latency_us.$2"; }

# prefix_ok LOG SPEC: for every thread of LOG, in the order its calls
# ended, the sum of the durations of its first k delayed calls is at
# least the sum of their delays (ns), for every k; prints "ok N" (N
# delayed calls) or the first call where it fails.  SPEC: "read=NS
# write=NS fsync=NS fdatasync=NS".
prefix_ok() {
	awk -v spec="$2" '
	BEGIN {
		n = split(spec, kv, " ")
		for (i = 1; i <= n; i++) { split(kv[i], p, "="); d[p[1]] = p[2] }
		split("read __read_chk pread pread64 __pread_chk __pread64_chk readv preadv preadv64 preadv2 preadv64v2", r, " ")
		for (i in r) fam[r[i]] = "read"
		split("write pwrite pwrite64 writev pwritev pwritev64 pwritev2 pwritev64v2", w, " ")
		for (i in w) fam[w[i]] = "write"
		fam["fsync"] = "fsync"; fam["fdatasync"] = "fdatasync"
		fam["sync_file_range"] = "fdatasync"
	}
	/^#/ { next }
	{
		f = fam[$3]
		if (f == "" || !(f in d) || $8 ~ /^-/) next
		if ((f == "read" || f == "write") && $8 == 0) next
		got[$2] += $9; want[$2] += d[f]; count++
		if (got[$2] < want[$2]) {
			printf "thread %s: after %s (line %d) the delayed calls took %d ns, less than the %d ns of their delays\n", $2, $3, NR, got[$2], want[$2]
			bad = 1; exit
		}
	}
	END { if (!bad) print "ok " count }' "$1"
}

DEV=$(make_loop 64M)

section "workloads: reads with and without read=200us"
rb_ok "reads, no delay" -o read -b 4k -d 1 --json "$DEV"
p50_0=$(lat read p50)
avg_0=$(lat read avg)
assert_eq "" "$(jqr '.workloads[0].parameters.delay')" "JSON: no delay is \"\""
assert_eq null "$(jqr '.workloads[0].parameters.delay_calibration')" "JSON: and no calibration"
rb_ok "reads, read=200us" -o read -b 4k -d 1 --delay read=200us --json "$DEV"
p50_1=$(lat read p50)
avg_1=$(lat read avg)
log "read latency: mean $avg_0 -> $avg_1 us, median $p50_0 -> $p50_1 us"
assert_eq "read=200000ns" "$(jqr '.workloads[0].parameters.delay')" "JSON: the delay in ns"
c='.workloads[0].parameters.delay_calibration'
assert_num "JSON: the calibration is positive and ordered" \
	"$(jqr "$c.clock_ns") > 0 && $(jqr "$c.spin_min_ns") >= $(jqr "$c.clock_ns") && $(jqr "$c.sleep_min_ns") > $(jqr "$c.spin_min_ns") && $(jqr "$c.spin_below_ns") == $(jqr "$c.sleep_min_ns") + 2 * $(jqr "$c.sleep_over_ns")"
assert_num "the mean read latency is at least the delay (the waits add up to it)" "$avg_1 >= 200"
# (one run against another is not compared from below: the first may
# read a cold device and the second the page cache; nor is the median
# checked: a wait may be shortened by up to its whole delay when the one
# before overshot, as on a loaded machine, so only the sum holds, and
# make crosscheck prints the medians)
rb_ok "human" -o read -b 4k -d 200ms --delay read=200us "$DEV"
assert_match '^Delay: read=200us after each I/O of that kind, in its latency \(calibration: clock read [0-9.]+ns, zero wait [0-9.]+ns, shortest sleep [0-9.]+[nu]s, sleep overshoot [0-9.]+[nu]s, spin below [0-9.]+[num]s\)$' \
	"$RB_OUT" "human: the Delay: line"
rb_ok "human, no delay" -o read -b 4k -d 200ms "$DEV"
assert_no_match '^Delay:' "$RB_OUT" "human: no Delay: line without a delay"

section "workloads: a write/fsync mix with fsync=1ms"
rb_ok "the mix, no delay" -o write/90:fsync/10 -b 4k -f -d 1 -y --json "$DEV"
w50_0=$(lat write p50)
f50_0=$(lat fsync p50)
rb_ok "the mix, fsync=5ms" -o write/90:fsync/10 -b 4k -f -d 1 -y --delay fsync=5ms --json "$DEV"
w50_1=$(lat write p50)
f50_1=$(lat fsync p50)
log "write median $w50_0 -> $w50_1 us, fsync median $f50_0 -> $f50_1 us (mean $(lat fsync avg))"
assert_num "the mean fsync is at least 5 ms" "$(lat fsync avg) >= 5000"
# (a loop device's fsync reaches the backing file's: its own median moves
# by milliseconds between runs, so it is not compared across them; the
# median against the delay is make crosscheck's, as for the reads)
# that the writes are not delayed is the parameters' (below): a time bound
# on them would fail on a loaded machine; make crosscheck times it
assert_eq "fsync=5000000ns" "$(jqr '.workloads[0].parameters.delay')" "JSON: only fsync's delay"

section "workloads: async engines"
ASYNC=
for e in uring naio paio; do
	"$REBENCH" --engines | grep -Eq "^$e +async" &&
		! "$REBENCH" --engines | grep -A1 -E "^$e " | grep -q 'not available' && { ASYNC=$e; break; }
done
if [ -n "$ASYNC" ]; then
	rb_ok "-t $ASYNC -q 1 with read=300us" -t "$ASYNC" -q 1 -o read -b 4k -d 1 --delay read=300us --json "$DEV"
	assert_num "-t $ASYNC -q 1: the mean read is at least the delay" "$(lat read avg) >= 300"
	rb -t "$ASYNC" -q 8 -o read -b 4k -d 1 --delay read=300us "$DEV"
	assert_rc 1 "-t $ASYNC -q 8 with a delay: refused"
	assert_eq "rebench: --delay: the delay is waited after each completion, before the next is reaped; with -q 8 the $ASYNC engine has up to 8 I/Os in flight, whose completions the wait would hold up too, so their latencies would not be the device's plus the delay; use -q 1 (with -c N threads for concurrency) or a synchronous engine" \
		"$RB_ERR" "-q 8: the reason"
	assert_eq "" "$RB_OUT" "-q 8: nothing run"
else
	log "no asynchronous engine in this build: the async checks are left out"
fi

section "workloads: bad input runs nothing"
assert_refused() {
	rb "${@:3}"
	assert_rc 1 "$1: exit 1"
	assert_eq "$2" "$RB_ERR" "$1: the message"
	assert_eq "" "$RB_OUT" "$1: nothing run"
}
assert_refused "an unknown unit" \
	"rebench: invalid value 'read=8 parsecs' for --delay: item 1 'read=8 parsecs': unknown unit 'parsecs': the units are ns, us, ms and s, e.g. 8us" \
	--delay 'read=8 parsecs' -d 1 "$DEV"
assert_refused "an unknown operation" \
	"rebench: invalid value 'reads=8us' for --delay: item 1 'reads=8us': unknown operation 'reads': the operations are read, write, fsync and fdatasync" \
	--delay reads=8us -d 1 "$DEV"
assert_refused "trim" \
	"rebench: invalid value 'trim=8us' for --delay: item 1 'trim=8us': trim cannot be delayed: no interposed call is a trim, so a delay would apply to rebench's own trims only; delay read, write, fsync or fdatasync" \
	--delay trim=8us -d 1 "$DEV"
assert_refused "no unit" \
	"rebench: invalid value 'read=8' for --delay: item 1 'read=8': the delay has no unit: write one of ns, us, ms, s after the number, e.g. 8us" \
	--delay read=8 -d 1 "$DEV"
assert_refused "--fio" \
	"rebench: --fio: --delay read=1ms: fio has no wait after an I/O that counts in its latency (its thinktime waits between I/Os, outside them); drop --delay to write the fio job" \
	--delay read=1ms --fio "$DEV"

rb_ok "a workload with -- before its target" --delay read=100us -o read -d 200ms --json -- "$DEV"
assert_eq "read=100000ns" "$(jqr '.workloads[0].parameters.delay')" "-- ends a workload's options: not the COMMAND mode"

section "stdin lines: each its own delay, none drops the inherited one"
printf -- '-d 300ms %s\n--delay none -d 300ms %s\n--delay fsync=2ms -o write/50:fsync/50 -f -d 300ms %s\n' "$DEV" "$DEV" "$DEV" >"$S/lines"
rb --delay read=100us -y --json <"$S/lines"
assert_rc 0 "three lines"
assert_eq "read=100000ns||fsync=2000000ns" "$(jqr '[.workloads[].parameters.delay] | join("|")')" \
	"line 1 inherits read=100us, line 2 has none, line 3 its own"

section "COMMAND: dd's 50 reads with read=2ms"
dd if=/dev/urandom of="$S/data" bs=4k count=64 status=none
t0=$(date +%s%N)
rb --delay read=2ms -- dd if="$S/data" of=/dev/null bs=4k count=50
t1=$(date +%s%N)
assert_rc 0 "dd under --delay: exit 0"
ms=$(( (t1 - t0) / 1000000 ))
log "dd with 50 reads of 2 ms: $ms ms"
assert_num "50 reads of 2 ms take at least 100 ms" "$ms >= 100"
assert_match '^rebench: --delay: read=2ms after each call that succeeds on a followed file \(rebench\(1\), APPLICATION I/O\)$' \
	"$RB_ERR" "the delays on stderr"
assert_match '^rebench: --delay: calibration: clock read [0-9.]+ns, zero wait [0-9.]+ns, shortest sleep ' \
	"$RB_ERR" "and the calibration"
assert_match '^50\+0 records in$' "$RB_ERR" "dd's own output follows"
rb --delay read=2ms -- sh -c 'exit 7'
assert_rc 7 "COMMAND's exit status is rebench's"

rb --record "$S/dd.log" --delay read=2ms -- dd if="$S/data" of=/dev/null bs=4k count=50
assert_rc 0 "dd under --record --delay: exit 0"
assert_match '^# delay: read=2000000ns \(waited after each call and part of its DURATION; calibration clock,spin_min,sleep_min,sleep_over,spin_below ns: [0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9]+\)$' \
	"$(<"$S/dd.log")" "the log's header says the delay"
assert_eq 50 "$(awk '$3 == "read" && $8 == 4096' "$S/dd.log" | wc -l)" "the log has the 50 reads"
assert_num "the first read lasted at least 2 ms" \
	"$(awk '$3 == "read" { print $9; exit }' "$S/dd.log") >= 2000000"
assert_eq "ok 50" "$(prefix_ok "$S/dd.log" read=2000000)" \
	"every k first reads lasted at least k x 2 ms"
rb --trace-stats "$S/dd.log" --json
assert_rc 0 "--trace-stats reads the log with its # delay: line"
assert_num "its mean read time is at least 2 ms" "$(jqr '.types.read.avg_ns') >= 2000000"

section "COMMAND: writes and fdatasync delayed, reads not"
rb --record "$S/w.log" --delay write=3ms,fdatasync=20ms -- \
	dd if="$S/data" of="$S/out" bs=4k count=20 conv=fdatasync
assert_rc 0 "dd conv=fdatasync: exit 0"
assert_eq "ok 21" "$(prefix_ok "$S/w.log" "write=3000000 fdatasync=20000000")" \
	"20 writes and an fdatasync, every prefix at least its delays"
assert_num "the fdatasync lasted at least 20 ms less a write's overshoot" \
	"$(awk '$3 == "fdatasync" { print $9 }' "$S/w.log") >= 17000000"
assert_eq 20 "$(awk '$3 == "read" && $8 == 4096' "$S/w.log" | wc -l)" "the log has dd's 20 reads (left undelayed: write=3ms,fdatasync=20ms names no read)"

section "COMMAND: threads, fork, exec and a failing read under every delay"
rm -rf "$S/calls" && mkdir -p "$S/calls"
rb --record "$S/calls.log" --delay read=1ms,write=1ms,fsync=1ms,fdatasync=1ms -- "$PROG" "$S/calls"
assert_rc 0 "record_calls checks every call's result: all as without delays"
assert_match "^ok [1-9][0-9]*$" "$(prefix_ok "$S/calls.log" "read=1000000 write=1000000 fsync=1000000 fdatasync=1000000")" \
	"each thread and process: every prefix at least its delays"
assert_match ' read 3 [^ ]+/created 0 10 -EBADF ' "$(<"$S/calls.log")" "the failing read keeps its errno"
rm -rf "$S/calls" && mkdir -p "$S/calls"
rb --record "$S/calls2.log" --delay read=300ms -- "$PROG" "$S/calls"
assert_rc 0 "record_calls with read=300ms"
assert_match ' read 3 [^ ]+/created 0 10 -EBADF ' "$(<"$S/calls2.log")" "the failing read is logged with its errno"
rb --delay read=1ms -- "$PROG" "$S/calls"
assert_rc 0 "and with delays alone (no log)"

section "COMMAND: bad input runs nothing"
rb --delay read=8us -- no-such-command-rebench
assert_rc 2 "a missing COMMAND: exit 2"
assert_match "^rebench: --delay: cannot run no-such-command-rebench: not found in PATH" "$RB_ERR" \
	"a missing COMMAND: the reason"
assert_eq 1 "$(<<<"$RB_ERR" grep -c .)" \
	"a missing COMMAND: refused before the delays and the calibration are printed"
rb --delay 'read=8 parsecs' -- true
assert_rc 1 "a bad spec: exit 1"
assert_eq "rebench: --delay read=8 parsecs: item 1 'read=8 parsecs': unknown unit 'parsecs': the units are ns, us, ms and s, e.g. 8us" \
	"$RB_ERR" "a bad spec: the message, nothing run"
rb --delay read=1ms -b 4k -- true
assert_rc 1 "a workload option before -- makes it a workload: true is its target"
assert_match "^rebench: cannot open true: " "$RB_ERR" "and the target is refused"
printf '#include <stdio.h>\nint main(void) { return 0; }\n' >"$S/static.c"
if cc -static -o "$S/static" "$S/static.c" 2>"$S/cc.err"; then
	rb --delay read=1ms -- "$S/static"
	assert_rc 2 "a static COMMAND: exit 2"
	assert_match "^rebench: --delay: $S/static is statically linked \\(its ELF header has no PT_INTERP: no dynamic loader\\), so an LD_PRELOAD interposer cannot see its calls" \
		"$RB_ERR" "a static COMMAND: the reason"
else
	log "cc -static failed, the static COMMAND check is left out: $(head -n 1 "$S/cc.err")"
fi

section "replay: grouped, reads raised by their delay"
rb --record "$S/r.log" -- dd if="$S/data" of=/dev/null bs=4k count=64
assert_rc 0 "dd's reads recorded"
rb --replay "$S/r.log" --replay-mode grouped -y --json "$DEV"
assert_rc 0 "grouped replay, no delay"
r50_0=$(lat read p50)
g0=$(jqr '.replay.per_op[] | select(.op == "read") | .ns_per_op')
assert_eq null "$(jqr '.replay.delay')" "JSON: no replay.delay without --delay"
rb --replay "$S/r.log" --replay-mode grouped --delay read=500us -y --json "$DEV"
assert_rc 0 "grouped replay, read=500us"
log "replayed read median $r50_0 -> $(lat read p50) us, mean $(lat read avg) us"
assert_eq 64 "$(jqr '.workloads[0].results.operations.read.ios')" "the 64 reads replayed"
assert_eq "read=500000ns" "$(jqr '.workloads[0].parameters.delay')" "JSON: the replay's delay"
assert_num "the mean replayed read is at least the delay" "$(lat read avg) >= 500"
# db4o's figure: the group's wall time holds every wait, and the waits of
# one thread add up to at least the delays (the carry rule), so ns per
# read is raised by at least 500 us
g1=$(jqr '.replay.per_op[] | select(.op == "read") | .ns_per_op')
log "grouped ns per read: $g0 -> $g1"
assert_eq "read=500000ns" "$(jqr '.replay.delay')" "JSON: replay.delay says the replay's delays"
assert_num "grouped ns per read is at least the delay" "$g1 >= 500000"

