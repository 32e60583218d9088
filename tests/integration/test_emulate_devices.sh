#!/usr/bin/env bash
# test_emulate_devices.sh - record, grouped replay on two devices of
# different speeds, and --emulate, end to end on devices this test makes:
# a zram device of its own (memory: fast) and a loop device with direct
# I/O over an image file (its writes and flushes reach the disk: slow),
# each with ext4.
#
# The application is bench/db-writer.sh (fio as a program: 4 KiB O_DIRECT
# writes at random pages of a laid-out file, each followed by fdatasync),
# whose every call reaches the device as it is, so a grouped replay with
# O_DIRECT times what it pays.  Checked:
#  - both replays describe the same log (digest, operations per type);
#  - the per-operation times are in the right order: the slow device's
#    writes and fdatasyncs take more than twice the fast one's (measured
#    here: ~15 and ~100 times);
#  - --emulate's delays are slow minus fast, less the zero wait, per type;
#  - under --emulate (with --record) every thread's delayed calls took at
#    least the sum of their delays, the whole run at least all of them;
#  - the emulated run made the same calls as the recorded one.
# How close the emulated run's time comes to the slow one's is timing, and
# is measured by make crosscheck (bench/emulate.sh), not here.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_rebench
require_cmd fio jq
export REBENCH_RECORD_LIB=$TESTS_ROOT/librebench-record.so
[ -r "$REBENCH_RECORD_LIB" ] || fail "$REBENCH_RECORD_LIB not built: run make"

fast_and_slow 128M
S=$(realpath "$SCRATCH")	# fast and slow are $S/fast and $S/slow
APP=$TESTS_ROOT/bench/db-writer.sh
N=200
S_N=$((N - 1))	# fio's fdatasync=1 syncs after every write but the last

section "record on the fast device"
rb --record "$S/app.log" --record-path "$S/fast/*" -n -- "$APP" "$S/fast/pages" $N
assert_rc 0 "db-writer recorded"
assert_eq "$N $S_N" "$(awk '$3 == "pwrite64" { w++ } $3 == "fdatasync" { s++ } END { print w + 0, s + 0 }' "$S/app.log")" \
	"$N pwrite64 and $S_N fdatasync calls in the log"

section "grouped replays on both devices"
for d in fast slow; do
	rm -f "$S/$d/replay.bin"
	rb --replay "$S/app.log" --replay-mode grouped -y --json "$S/$d/replay.bin"
	assert_rc 0 "grouped replay on $d"
	printf '%s\n' "$RB_OUT" >"$S/$d.json"
done
ns() { jq -r --arg op "$2" '.replay.per_op[] | select(.op == $op) | .ns_per_op' "$S/$1.json"; }
assert_eq "$(jq -r .replay.digest "$S/fast.json")" "$(jq -r .replay.digest "$S/slow.json")" \
	"the same log: the same digest"
assert_eq "write $N fdatasync $S_N" "$(jq -r '[.replay.per_op[] | "\(.op) \(.operations)"] | join(" ")' "$S/slow.json")" \
	"every write and fdatasync replayed on the slow device"
log "ns per write: fast $(ns fast write), slow $(ns slow write); per fdatasync: fast $(ns fast fdatasync), slow $(ns slow fdatasync)"
assert_num "a write takes over twice as long on the slow device" "$(ns slow write) > 2 * $(ns fast write)"
assert_num "an fdatasync takes over twice as long on the slow device" "$(ns slow fdatasync) > 2 * $(ns fast fdatasync)"

section "emulate the slow device on the fast one"
rm -f "$S/emu.log"
rb --emulate "$S/slow.json" --baseline "$S/fast.json" --record "$S/emu.log" \
	--record-path "$S/fast/*" -- "$APP" "$S/fast/pages" $N
assert_rc 0 "--emulate ran db-writer: its exit status"
delays=$(<<<"$RB_ERR" sed -n 's/^rebench: --emulate: \([a-z=0-9,]*\) after each call.*/\1/p')
zero=$(<<<"$RB_ERR" sed -n 's/.*adjusted = required - \([0-9]*\) ns, the zero wait.*/\1/p')
dw=$(<<<"$delays" sed -n 's/.*write=\([0-9]*\)ns.*/\1/p')
ds=$(<<<"$delays" sed -n 's/.*fdatasync=\([0-9]*\)ns.*/\1/p')
log "delays: $delays (zero wait $zero ns)"
for op in write fdatasync; do
	want=$(calc "$(ns slow $op) - $(ns fast $op)")
	got=$([ $op = write ] && echo "$dw" || echo "$ds")
	assert_num "$op: the delay is slow minus fast less the zero wait ($got ns against $want - $zero)" \
		"$got - ($want - $zero) <= 1 && $got - ($want - $zero) >= -1"
done
assert_eq "$N $S_N" "$(awk '$3 == "pwrite64" { w++ } $3 == "fdatasync" { s++ } END { print w + 0, s + 0 }' "$S/emu.log")" \
	"the emulated run made the same $N writes and $S_N fdatasyncs"
# the carry rule: a thread's waits add up to at least its delays, so every
# prefix of its delayed calls lasted at least the sum of their delays
assert_eq ok "$(awk -v dw="$dw" -v ds="$ds" '
	/^#/ { next }
	$3 == "pwrite64" { got[$2] += $9; want[$2] += dw }
	$3 == "fdatasync" { got[$2] += $9; want[$2] += ds }
	($3 == "pwrite64" || $3 == "fdatasync") && got[$2] < want[$2] {
		printf "line %d: %d ns for %d ns of delays\n", NR, got[$2], want[$2]; bad = 1; exit
	}
	END { if (!bad) print "ok" }' "$S/emu.log")" \
	"every prefix of the emulated calls lasted at least its delays"
first=$(awk '!/^#/ { print $1; exit }' "$S/emu.log")
last=$(awk '!/^#/ { t = $1 + $9 } END { print t }' "$S/emu.log")
assert_num "the emulated run lasted at least all its delays ($N x $dw + $S_N x $ds ns)" \
	"$last - $first >= $N * $dw + $S_N * $ds"
