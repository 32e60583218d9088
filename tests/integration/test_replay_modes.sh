#!/usr/bin/env bash
# test_replay_modes.sh - rebench --replay's workers, timed mode and
# results (issue 14, Replay), from logs written by hand so that every
# expected figure is known:
#  - one worker per recorded thread: three threads write their own blocks;
#    with a fixed --seed each worker writes its own pattern, so every block
#    of one thread holds the same bytes and the threads' differ (one worker
#    for all would make them all equal);
#  - timed: 20 writes 50 ms apart take at least 0.95 s (never less: the
#    times are honoured), and at --replay-speed 4 at least 0.2375 s;
#    lateness is never negative; a burst of 1 MiB writes all recorded at 0
#    cannot be kept up with, and the replay says so;
#  - a failed operation is named by its line of the log;
#  - the replay object (JSON), the replay lines (-n) and the Replay section
#    (human) agree, and the digest is the same for every target, mode and
#    alignment;
#  - bad input runs nothing: a bad --replay-speed, a speed without timed
#    mode, an unknown mode, timed mode on a log without times, more
#    threads than workers may be.
# Timing checks are lower bounds (a replay waits at least the recorded
# gaps); how close it comes to them, bench/crosscheck.sh prints.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq awk dd cksum
S=$(realpath "$SCRATCH")

# 20 writes of 4 KiB, 50 ms apart, one thread
{
	echo "# rebench-trace 1"
	for i in $(seq 0 19); do
		echo "$((i * 50000000)) 100/100 pwrite 3 /data/f $((i * 4096)) 4096 4096 1000 -"
	done
} >"$S/timed.log"

# Three threads, interleaved, 8 writes of 4 KiB each: 100/100 at blocks
# 0-7 of /data/a, 100/101 at blocks 16-23 of /data/a, 200/200 at blocks
# 0-7 of /data/b; /data/a's slot is the map's first MiB, /data/b's the
# second.
{
	echo "# rebench-trace 1"
	for i in $(seq 0 7); do
		echo "$((i * 3000)) 100/100 pwrite 3 /data/a $((i * 4096)) 4096 4096 1000 -"
		echo "$((i * 3000 + 1000)) 100/101 pwrite 3 /data/a $(((16 + i) * 4096)) 4096 4096 1000 -"
		echo "$((i * 3000 + 2000)) 200/200 pwrite 4 /data/b $((i * 4096)) 4096 4096 1000 -"
	done
} >"$S/threads.log"

# block_sum DEV BLOCK: sha256 of 4 KiB block BLOCK of DEV, read with O_DIRECT
block_sum() { dd if="$1" bs=4096 skip="$2" count=1 iflag=direct status=none | data_sum; }

# distinct DEV FIRST COUNT: how many different blocks FIRST..FIRST+COUNT-1 hold
distinct() {
	local i
	for i in $(seq "$2" $(($2 + $3 - 1))); do block_sum "$1" "$i"; done | sort -u | wc -l
}

section "one worker per recorded thread"
DEV=$(make_loop 4M)
rb --replay "$S/threads.log" --seed 7 -y --json "$DEV"
assert_rc 0 "asap replay of three threads"
assert_eq "3 3 3" "$(jqr '"\(.replay.recorded_threads) \(.replay.workers) \(.workloads[0].parameters.threads)"')" "three threads, three workers"
assert_eq 24 "$(jqr '.workloads[0].results.operations.write.ios')" "every write replayed"
assert_eq 1 "$(distinct "$DEV" 0 8)" "thread 100/100's blocks hold one worker's bytes"
assert_eq 1 "$(distinct "$DEV" 16 8)" "thread 100/101's blocks hold one worker's bytes"
assert_eq 1 "$(distinct "$DEV" 256 8)" "thread 200/200's blocks (in /data/b's slot) hold one worker's bytes"
a=$(block_sum "$DEV" 0) b=$(block_sum "$DEV" 16) c=$(block_sum "$DEV" 256)
assert_eq 3 "$(printf '%s\n' "$a" "$b" "$c" | sort -u | wc -l)" "each thread's writes came from its own worker"
digest=$(jqr .replay.digest)
assert_match '^[0-9a-f]{16}$' "$digest" "the digest is 16 hex digits"

rb --replay "$S/threads.log" --replay-mode grouped -n "$DEV"
assert_rc 0 "grouped -n"
line=$(<<<"$RB_OUT" awk '$1 == "replay"')
assert_eq "grouped 1 $digest 24 2 3 1 0 0 0 - - - -" "$(echo "$line" | cut -d' ' -f2-)" "-n replay line: mode, speed, digest, operations, files, threads, one worker, counts, no lateness"
op=$(<<<"$RB_OUT" awk '$1 == "replay-op"')
assert_eq 1 "$(<<<"$op" wc -l)" "-n: one replay-op line, for the one type"
assert_eq "write 24 98304" "$(echo "$op" | cut -d' ' -f2-4)" "-n replay-op: type, operations, bytes"
assert_num "-n replay-op: ns per operation is ns / operations" \
	"$(echo "$op" | awk '{ d = $6 - $5 / $3; print (d < 0 ? -d : d) }') < 0.06"
assert_eq $TV "$(terse_field 13)" "-n: the workload line comes first, format $TV"

rb_ok "grouped on a new file, page cache, human" --replay "$S/threads.log" --replay-mode grouped -p "$S/new.img"
assert_match "^Replay: grouped of $S/threads.log \(rebench-trace, digest $digest\)" "$RB_OUT" "human: mode, log, format, digest"
assert_match '^  24 operations of 2 files onto .*new.img, each file in its own 1 MiB-aligned slot \(2097152 bytes\); 3 recorded threads, 1 workers' "$RB_OUT" "human: the map, threads and workers"
assert_match "^  per type \(ns: the group's wall time" "$RB_OUT" "human: what ns means when grouped"
assert_match '^    write +24 operations, 98304 bytes, [0-9]+ ns: [0-9.]+ ns per operation$' "$RB_OUT" "human: the write group"

section "timed: the recorded times, at speed 1 and 4"
rb --replay "$S/timed.log" --replay-mode timed -y --json "$DEV"
assert_rc 0 "timed replay"
el=$(jqr .workloads[0].results.elapsed_s)
assert_num "timed: 19 gaps of 50 ms honoured (${el} s >= 0.95 s)" "$el >= 0.95"
assert_eq "timed 1 20 1 1" "$(jqr '"\(.replay.mode) \(.replay.speed) \(.replay.operations) \(.replay.workers) \(.replay.files)"')" "timed: mode, speed, operations, one worker, one file"
late=$(jqr .replay.timed.late_operations)
mean=$(jqr .replay.timed.lateness_mean_us)
max=$(jqr .replay.timed.lateness_max_us)
assert_num "timed: lateness never negative, max >= mean ($mean, $max us)" "$mean >= 0 && $max >= $mean"
assert_num "timed: late operations counted among the 20 ($late)" "$late >= 0 && $late <= 20"
want=$([ "$late" = 0 ] && echo true || echo false)
assert_eq "$want" "$(jqr .replay.timed.kept_up)" "timed: kept_up says whether any was late"
assert_eq "write 20 81920" "$(jqr '.replay.per_op[0] | "\(.op) \(.operations) \(.bytes)"')" "timed: the per_op entry"
ns=$(jqr '.replay.per_op[0].ns')
sum=$(jqr '.workloads[0].results.operations.write.latency_us.avg * 20 * 1000')
assert_num "timed: ns is the sum of the latencies ($ns ~ $sum)" "$ns - $sum < 1000 && $sum - $ns < 1000"

rb --replay "$S/timed.log" --replay-mode timed --replay-speed 4 -y "$DEV"
assert_rc 0 "timed at speed 4, human"
assert_match '^  timed at speed 4: 20 operations waited for their time, [0-9]+ of them more than 1 ms late; lateness mean [0-9.]+ us, max [0-9.]+ us: (kept up|could not keep up)$' "$RB_OUT" "human: the timed line"
el=$(<<<"$RB_OUT" awk '/^Total:/ { for (i = 1; i < NF; i++) if ($(i + 1) == "s,") print $i }')
assert_num "speed 4: at least a quarter of the gaps (${el} s >= 0.2375 s)" "$el >= 0.2375"

rb --replay "$S/timed.log" --replay-mode timed --replay-speed 4 -n "$DEV"
assert_rc 0 "timed -n"
line=$(<<<"$RB_OUT" awk '$1 == "replay"')
assert_eq "timed 4" "$(echo "$line" | cut -d' ' -f2-3)" "-n: mode and speed"
assert_match '^[0-9]+ [0-9.]+ [0-9.]+ [01]$' "$(echo "$line" | cut -d' ' -f12-)" "-n: lateness fields"

# 64 writes of 1 MiB, all recorded at 0, then one at 1 ms: the burst is
# issued one after another, so its later writes start milliseconds late
{
	echo "# rebench-trace 1"
	for i in $(seq 1 64); do echo "0 1/1 pwrite 3 /f 0 1048576 1048576 1000 -"; done
	echo "1000000 1/1 pwrite 3 /f 0 1048576 1048576 1000 -"
} >"$S/burst.log"
rb --replay "$S/burst.log" --replay-mode timed -y --json "$DEV"
assert_rc 0 "a burst, timed"
assert_eq false "$(jqr .replay.timed.kept_up)" "burst: kept_up false"
late=$(jqr .replay.timed.late_operations)
assert_num "burst: late operations counted ($late)" "$late >= 1 && $late <= 65"
assert_match "^the replay could not keep up: $late operations more than 1 ms late \(of 65;" "$(jqr '.workloads[0].warnings[]')" "burst: the warning says so"

section "a failed operation is named by its line of the log"
# the target fills its file system: a tmpfs of one page holds a sparse
# file of the map's 1 MiB, so the first write takes the page and the
# second finds no space (no race with the replay: the space is gone before
# it starts)
printf '# rebench-trace 1\n0 1/1 pwrite 3 /f 0 4096 4096 10 -\n10 1/1 pwrite 3 /f 8192 4096 4096 10 -\n' >"$S/gap.log"
mkdir -p "$S/full"
mount -t tmpfs -o size=4k tmpfs "$S/full" || fail "cannot mount a tmpfs"
_register mounts "$S/full"
truncate -s 1M "$S/full/gap.img"
rb --replay "$S/gap.log" -p -y --json "$S/full/gap.img"
assert_rc 3 "a write beyond the file system's space fails"
assert_match "^the failed operation is line 3 of $S/gap.log: a write of /f$" "$(jqr '.workloads[0].warnings[]')" "the warning names the line and the recorded file"
assert_eq "1 1" "$(jqr '"\(.replay.per_op[0].operations) \(.replay.operations - 1)"')" "one write done of the two"

section "the digest: the same for every target, mode and alignment"
{
	echo "# rebench-trace 1"
	echo "0 1/1 pwrite 3 /f 10 100 100 1000 -"
	echo "10 1/1 pread 3 /f 4096 4096 4096 1000 -"
	echo "20 1/1 fsync 3 /f - - 0 1000 -"
} >"$S/odd.log"
rb_ok "odd log, asap, page cache" --replay "$S/odd.log" -p --json "$S/odd.img"
d1=$(jqr .replay.digest)
assert_eq 0 "$(jqr .replay.aligned)" "page cache: nothing aligned"
rb_ok "odd log, grouped, O_DIRECT, aligned" --replay "$S/odd.log" --replay-mode grouped --replay-align -y --json "$DEV"
assert_eq 1 "$(jqr .replay.aligned)" "O_DIRECT: the 100-byte write widened"
assert_eq "$d1" "$(jqr .replay.digest)" "the same digest on another target, mode and alignment"
assert_eq 512 "$(jqr '.replay.per_op[] | select(.op == "write") | .bytes')" "the write's bytes as replayed: one sector"

section "bad input runs nothing"
rm -f "$S/none.img"
for v in 0 -1 fast 1x nan inf 2000000 ''; do
	assert_refused "--replay-speed '$v'" "--replay-speed '$v': give a factor from 0.001 to 1e\\+06" \
		--replay "$S/timed.log" --replay-mode timed --replay-speed "$v" -y "$S/none.img"
done
assert_refused "--replay-speed without timed" 'applies to --replay-mode timed' --replay "$S/timed.log" --replay-speed 2 -y "$S/none.img"
assert_refused "an unknown mode" 'replay-mode fastest: give asap .*grouped .*timed' --replay "$S/timed.log" --replay-mode fastest -y "$S/none.img"
printf 'fio version 2 iolog\n/f add\n/f open\n/f write 0 4096\n/f write 4096 4096\n/f close\n' >"$S/v2.iolog"
assert_refused "timed on a log without times" 'v2.iolog \(fio iolog\): its 2 operations all have the same recorded time.*asap or grouped' \
	--replay "$S/v2.iolog" --replay-mode timed -y "$S/none.img"
{
	echo "# rebench-trace 1"
	for i in $(seq 1 257); do echo "$i 1/$i pwrite 3 /f 0 4096 4096 1000 -"; done
} >"$S/many.log"
assert_refused "more threads than workers" 'has 257 recorded threads, but in asap mode a replay runs one worker per thread, at most 256; use --replay-mode grouped' \
	--replay "$S/many.log" -y "$S/none.img"
[ ! -e "$S/none.img" ] || fail "a refused replay created its target"
sed 's/^\/f write 4096 4096$/\/f wait 20000 0\n&/' "$S/v2.iolog" >"$S/v2wait.iolog"
rb_ok "timed on a fio v2 iolog with a wait" --replay "$S/v2wait.iolog" --replay-mode timed -p --json "$S/v2.img"
assert_eq "fio iolog" "$(jqr .replay.format)" "the format is named"
el=$(jqr .workloads[0].results.elapsed_s)
assert_num "the 20 ms wait is honoured ($el s)" "$el >= 0.02"
rb_ok "257 threads replayed grouped" --replay "$S/many.log" --replay-mode grouped -p --json "$S/many.img"
assert_eq "257 1" "$(jqr '"\(.replay.recorded_threads) \(.replay.workers)"')" "grouped: 257 threads, one worker"

pass
