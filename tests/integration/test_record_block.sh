#!/usr/bin/env bash
# test_record_block.sh - rebench --record LOG --record-block DEV -- COMMAND
# (issue 14): the requests that reached a loop device, from the kernel's
# block tracepoints in a private tracefs instance.
#
# O_DIRECT writes and reads of dd are one request each, at the offsets
# and sizes dd asked; conv=fsync adds one flush; page-cache writes reach
# the device after the cache as fewer, larger requests than the calls
# (the interposer's record of the same command has 64 writes); a
# partition's record holds its own requests at offsets from its start and
# the disk's flushes; the log works with --trace-stats, --trace-to fio
# (and fio replays it) and --replay; COMMAND's status, SIGTERM and a
# terminal's Ctrl-C end the record with the instance removed, and an
# instance left by a SIGKILL is removed by the next record; tracefs
# mounted by rebench (in a private mount namespace) is unmounted, at the
# end and, after a SIGKILL, by the next record, which leaves the tracefs
# another tool mounted (issue 26, item 13).  Bad
# input runs nothing and leaves no log: a missing device, a file, no
# COMMAND, a COMMAND not found, a log where none can be written, not
# root, a tracefs without block events, --record-path, overlapping
# devices.  Skips when this kernel's tracefs has no block events.
#
# Runs beside other tests: each record has a tracefs instance of its own
# (rebench-PID) with a filter on its devices, so other I/O and other
# records do not reach its log, and the instances checked are only those
# of this test's records (their PIDs, noted by a wrapper).  Two copies of
# this test (two make check at once) take turns on a lock: every record
# removes the instances SIGKILLs left, so the other copy's record could
# remove this copy's before its next record does and says so.  The
# tracefs read and named to rebench is this test's own mount: one that
# another test's rebench mounted may go while this test runs.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq awk dd sfdisk setpriv flock
S=$(realpath "$SCRATCH")

exec {turn}>/run/lock/rebench-test-record-block
flock "$turn"

ROOT=$SCRATCH/tracefs
mkdir -p "$ROOT" && mount -t tracefs nodev "$ROOT" 2>/dev/null ||
	skip "no tracefs: not mountable (the kernel needs CONFIG_FTRACE)"
_register mounts "$ROOT"
export REBENCH_TRACEFS=$ROOT
[ -d "$ROOT/events/block/block_rq_issue" ] ||
	skip "$ROOT/events/block/block_rq_issue is missing: this kernel has no block request tracepoints"
[ -d "$ROOT/instances" ] || skip "$ROOT/instances is missing: no tracefs instances"
GLOBAL_ENABLE=$(<"$ROOT/events/block/block_rq_issue/enable")

DEV=$(make_loop 64M)
DEV2=$(make_loop 16M)

# every rebench of this test runs through a wrapper that notes its PID
# (exec keeps it): the instances rebench-PID of those are this test's
RB_REAL=$REBENCH
REBENCH=$S/rebench-noted
printf '#!/bin/sh\necho $$ >>%q\nexec %q "$@"\n' "$S/pids" "$RB_REAL" >"$REBENCH"
chmod 755 "$REBENCH"
: >"$S/pids"

# our instances: none may be left after a record
instances() {
	ls "$ROOT/instances" | sed -n 's/^rebench-\([0-9]*\)$/\1/p' | grep -Fxf "$S/pids" |
		sed 's/^/rebench-/' | paste -sd' '
}
assert_no_instance() { assert_eq "" "$(instances)" "$1: no tracefs instance left"; }

# records LOG: the records, comments dropped
records() { grep -v '^#' "$1"; }

section "O_DIRECT writes: one request per write"
rb_ok "record dd oflag=direct" --record "$S/w.log" --record-block "$DEV" -- \
	dd if=/dev/zero of="$DEV" bs=4k count=16 oflag=direct status=none
want=$(for i in $(seq 0 15); do echo "pwrite 3 $DEV $((i * 4096)) 4096 4096 -"; done)
assert_eq "$want" "$(records "$S/w.log" | awk '{ print $3, $4, $5, $6, $7, $8, $10 }')" \
	"16 pwrites of 4096 bytes at 0..61440, FD 3, FILE the device, RESULT the bytes"
assert_match "^# source: block layer of $DEV \(7:[0-9]+\) via tracefs" "$(<"$S/w.log")" "the header says the record is the block layer's"
assert_eq "1" "$(grep -c '^# task [0-9]*/[0-9]*: dd$' "$S/w.log")" "dd is named once"
dd_tid=$(sed -n 's|^# task [0-9]*/\([0-9]*\): dd$|\1|p' "$S/w.log")
assert_eq "16" "$(records "$S/w.log" | awk -v t="$dd_tid" '$2 == t "/" t' | wc -l)" "every request issued by dd (PID/TID)"
assert_eq "ok" "$(records "$S/w.log" | awk 'p != "" && $1 < p { bad = 1 } $9 <= 0 { bad = 1 } { p = $1 } END { print bad ? "bad" : "ok" }')" \
	"times in order of issue, durations > 0"
assert_match "^# block: requests recorded 16: read 0, write 16 \(with FUA 0\), discard 0, flush 0; failed 0$" "$(<"$S/w.log")" "the summary line counts them"
assert_match "16 requests recorded in .*w.log \(not recorded: 0 unfinished" "$RB_ERR" "stderr says what was recorded"
assert_match "^write +16 +100.00 +65536 " "$RB_ERR" "the statistics follow on stderr"
assert_no_instance "after a record"

section "O_DIRECT reads"
rb_ok "record dd iflag=direct" --record "$S/r.log" --record-block "$DEV" -n -- \
	dd if="$DEV" of=/dev/null bs=8k count=8 skip=4 iflag=direct status=none
want=$(for i in $(seq 0 7); do echo "pread $((32768 + i * 8192)) 8192 8192"; done)
assert_eq "$want" "$(records "$S/r.log" | awk '{ print $3, $6, $7, $8 }')" "8 preads of 8192 bytes from 32768"
assert_match "^read 8 100.00 65536 " "$RB_ERR" "-n: the statistics as fields on stderr"
assert_no_match "requests recorded in" "$RB_ERR" "-n: no human line"

section "a flush: conv=fsync"
rb_ok "record dd conv=fsync" --record "$S/f.log" --record-block "$DEV" -- \
	dd if=/dev/zero of="$DEV" bs=4k count=2 oflag=direct conv=fsync status=none
assert_eq "pwrite 0 4096 4096
pwrite 4096 4096 4096
fsync - - 0" "$(records "$S/f.log" | awk '{ print $3, $6, $7, $8 }')" "two writes, then the flush (no offset, no size, result 0)"
assert_match "^# block: not recorded: .*, empty completions ending a flush sequence 1$" "$(<"$S/f.log")" "the empty write that carried the flush is counted, not recorded"

section "after the page cache: fewer, larger writes than the calls"
cmd=(sh -c "dd if=/dev/zero of=$DEV bs=4k count=64 status=none && sync")
rb_ok "record page-cache writes and sync" --record "$S/pc.log" --record-block "$DEV" -- "${cmd[@]}"
nreq=$(records "$S/pc.log" | awk '$3 == "pwrite"' | wc -l)
assert_num "the 64 written pages reached the device in fewer requests ($nreq)" "$nreq >= 1 && $nreq < 64"
assert_eq "0 262144" "$(records "$S/pc.log" | awk '$3 == "pwrite" { print $6, $7 }' | sort -n |
	awk 'BEGIN { end = 0 } $1 != end { gap = 1 } { end = $1 + $2 } END { print gap ? "gap" : 0, end }')" \
	"the requests cover bytes 0 to 262144 without a gap"
if [ -r "$TESTS_ROOT/librebench-record.so" ]; then
	REBENCH_RECORD_LIB=$TESTS_ROOT/librebench-record.so rb_ok "the same command under --record" \
		--record "$S/pc-calls.log" --record-path "$DEV" -- "${cmd[@]}"
	assert_eq 64 "$(records "$S/pc-calls.log" | awk '$3 == "write"' | wc -l)" "the interposer sees the 64 write calls dd made"
fi

section "a partition: its requests, from its start; the disk's flushes"
PDEV=$(make_loop 32M)
printf 'label: dos\nstart=2048, size=20480\nstart=22528, size=20480\n' | sfdisk -q "$PDEV" ||
	fail "sfdisk on $PDEV"
loop_partitions "$PDEV" || fail "no partition nodes for $PDEV"
[ -b "${PDEV}p2" ] || fail "no ${PDEV}p2"
rb_ok "record a partition" --record "$S/p.log" --record-block "${PDEV}p1" -- sh -c \
	"dd if=/dev/zero of=${PDEV}p1 bs=4k count=2 seek=3 oflag=direct status=none && dd if=/dev/zero of=${PDEV}p2 bs=4k count=2 oflag=direct conv=fsync status=none"
assert_eq "pwrite ${PDEV}p1 12288 4096
pwrite ${PDEV}p1 16384 4096
fsync ${PDEV}p1 - -" "$(records "$S/p.log" | awk '{ print $3, $5, $6, $7 }')" \
	"p1's two writes at 12288 and 16384 of p1, p2's writes left out, the flush of the disk kept"
assert_match "^# source: block layer of ${PDEV}p1 \([0-9]+:[0-9]+, sectors 2048 to 22527 of the disk 7:[0-9]+\)" "$(<"$S/p.log")" "the header names the partition's sectors"
rb --record "$S/x.log" --record-block "$PDEV" --record-block "${PDEV}p2" -- true
assert_rc 1 "a disk and its partition overlap: exit 1"
assert_match "overlap .*each request would be recorded twice" "$RB_ERR" "overlap: why"

section "--trace-stats, --trace-to fio and --replay take the log"
rb_ok "--trace-stats --json" --trace-stats "$S/f.log" --json
assert_eq "2 8192 2 1 $DEV" \
	"$(jqr '[.types.write.count, .types.write.bytes, .types.write.calls.pwrite, .types.fsync.count, .files[0].path] | map(tostring) | join(" ")')" \
	"JSON: 2 writes of 8192 bytes in all, 1 fsync, on the device"
rb_ok "--trace-to fio" --trace-to fio "$S/f.log" --output "$S/f.iolog"
assert_eq "$DEV add
$DEV open
$DEV write 0 4096
$DEV write 4096 4096
$DEV sync 0 0" "$(sed 1d "$S/f.iolog" | cut -d' ' -f2-)" "the iolog: the device added, opened, two writes, a sync"
if command -v fio >/dev/null; then
	fio --name=replay --read_iolog="$S/f.iolog" --replay_redirect="$DEV2" \
		--ioengine=psync --output-format=json --output="$S/fio.json" >/dev/null 2>&1
	assert_eq "2 1" "$(jq -r '.jobs[0] | "\(.write.total_ios) \(.sync.total_ios)"' "$S/fio.json" 2>/dev/null)" \
		"fio replays the iolog onto a scratch device: 2 writes, 1 sync"
fi
rb_ok "--replay" --replay "$S/w.log" -y --json "$DEV2"
assert_eq "16 65536" "$(jqr '.workloads[0].results.operations.write | "\(.ios) \(.bytes)"')" "--replay: the 16 writes of 4096 bytes"

section "COMMAND's status, signals"
rb --record "$S/st.log" --record-block "$DEV" -- sh -c \
	"dd if=/dev/zero of=$DEV bs=4k count=1 oflag=direct status=none; exit 3"
assert_rc 3 "COMMAND's exit status is rebench's"
assert_eq 1 "$(records "$S/st.log" | wc -l)" "what it did is recorded"
assert_no_instance "after a failing COMMAND"

# wait_command: COMMAND (sleep) runs under the background rebench, so a
# signal now reaches the record, not its setup
wait_command() {
	wait_until eval 'pgrep -P "$BG_PID" -x sleep >/dev/null || pid_gone "$BG_PID"' ||
		fail "COMMAND not running under rebench after 60 s"
	pid_gone "$BG_PID" && fail "rebench ended before its COMMAND ran" "$(<"$ERR")"
	return 0
}

spawn --record "$S/term.log" --record-block "$DEV" -- sleep 30
wait_command
interrupt_after 0 TERM
assert_eq 143 "$BG_RC" "SIGTERM is passed on: 128+15"
assert_match "sleep was ended by signal 15" "$RB_ERR" "SIGTERM: said"
assert_match "^# block: requests recorded 0:" "$(<"$S/term.log")" "SIGTERM: the log is complete"
assert_no_instance "after SIGTERM"

# a terminal's Ctrl-C reaches the whole process group
"${DEFSIG[@]}" setsid "$REBENCH" --record "$S/int.log" --record-block "$DEV" -- sleep 30 \
	</dev/null >"$OUT" 2>"$ERR" &
BG_PID=$!
register_pid "$BG_PID"
wait_command
kill -INT -- -"$BG_PID"
bg_wait "Ctrl-C"
assert_eq 130 "$BG_RC" "Ctrl-C: COMMAND's 128+2"
assert_no_instance "after Ctrl-C"

spawn --record "$S/kill.log" --record-block "$DEV" -- sleep 30
wait_command
child=$(pgrep -P "$BG_PID" -x sleep)
[ -n "$child" ] && register_pid "$child"
kill -9 "$BG_PID"
wait "$BG_PID" 2>/dev/null
kill "$child" 2>/dev/null
assert_eq "rebench-$BG_PID" "$(instances)" "SIGKILL leaves its instance"
rb_ok "the next record" --record "$S/next.log" --record-block "$DEV" -- true
assert_match "removed the tracefs instance .*/rebench-$BG_PID of a record that ended without removing it" "$RB_ERR" "the next record removes it and says so"
assert_no_instance "after the next record"

section "tracefs mounted by rebench, unmounted after"
if unshare -m true 2>/dev/null; then
	# in a mount namespace of its own: every tracefs unmounted there
	cat >"$S/ns.sh" <<'EOF'
for m in $(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "tracefs") print $5; break } }' /proc/self/mountinfo | sort -r); do
	umount "$m" || exit 1
done
"$@" 2>&1
echo "rc=$?"
grep -c " - tracefs " /proc/self/mountinfo
EOF
	env -u REBENCH_TRACEFS unshare -m bash "$S/ns.sh" "$REBENCH" --record "$S/mnt.log" --record-block "$DEV" -- \
		dd if=/dev/zero of="$DEV" bs=4k count=1 oflag=direct status=none >"$S/mnt.out"
	assert_match "mounted tracefs on /sys/kernel/tracing \(unmounted at the end\)" "$(<"$S/mnt.out")" "no tracefs: rebench mounts it and says so"
	assert_match "^rc=0$" "$(<"$S/mnt.out")" "the record ran"
	assert_eq 0 "$(tail -n 1 "$S/mnt.out")" "and unmounted it"
	assert_eq 1 "$(records "$S/mnt.log" | wc -l)" "the write was recorded"
else
	log "unshare -m is not available: the mount of tracefs is not tested"
fi

section "tracefs a killed record mounted: unmounted by the next, and no other"
if unshare -m true 2>/dev/null; then
	# in a mount namespace of its own: every tracefs unmounted there; a
	# record mounts one and is killed once COMMAND runs (it says so on a
	# FIFO); another tool mounts a tracefs of its own; the next record
	# must unmount the killed one's, and leave the other tool's
	mkdir -p "$S/tfs"
	mkfifo "$S/ready" "$S/hold"
	cat >"$S/ns2.sh" <<'EOF'
REBENCH=$1 DEV=$2 S=$3
tracefs() { awk '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "tracefs") print $5, $(i + 2); break } }' /proc/self/mountinfo; }
for m in $(tracefs | awk '{ print $1 }' | sort -r); do
	umount "$m" || exit 1
done
"$REBENCH" --record "$S/k1.log" --record-block "$DEV" -- \
	sh -c 'echo ready >"$1/ready"; read -r x <"$1/hold"' sh "$S" 2>"$S/k1.err" &
pid=$!
read -r _ <"$S/ready"
echo "killed $pid"
tracefs | sed 's/^/before: /'
{ kill -9 "$pid"; wait "$pid"; } 2>/dev/null
echo go >"$S/hold"
mount -t tracefs other-tool "$S/tfs" || exit 1
"$REBENCH" --record "$S/k2.log" --record-block "$DEV" -- true 2>&1
echo "rc=$?"
tracefs | sed 's/^/after: /'
EOF
	env -u REBENCH_TRACEFS unshare -m bash "$S/ns2.sh" "$REBENCH" "$DEV" "$S" >"$S/ns2.out" 2>&1
	out=$(<"$S/ns2.out")
	killed=$(sed -n 's/^killed //p' "$S/ns2.out")
	assert_match "^before: /sys/kernel/tracing " "$out" "the killed record had mounted tracefs on /sys/kernel/tracing"
	assert_match "unmounted the tracefs on /sys/kernel/tracing that a record \(pid $killed\) mounted and did not unmount \(killed\?\)" \
		"$out" "the next record unmounts it, and says so"
	assert_match "^rc=0$" "$out" "the next record ran"
	assert_eq "after: $S/tfs other-tool" "$(grep '^after: ' "$S/ns2.out")" \
		"the other tool's tracefs is the one left, untouched"
	assert_no_instance "after the killed record and the next"
else
	log "unshare -m is not available: the unmount after a SIGKILL is not tested"
fi

section "bad input: a reason, nothing run, no log"
refused() {	# WHAT RC ERE ARGS...: refused, COMMAND never ran
	local what=$1 rc=$2 re=$3
	shift 3
	rm -f "$S/ran" "$S/bad.log"
	rb "$@"
	assert_rc "$rc" "$what: exit $rc"
	assert_match "$re" "$RB_ERR" "$what: why"
	assert_eq "no" "$([ -e "$S/ran" ] || [ -e "$S/bad.log" ] && echo yes || echo no)" "$what: nothing ran, no log"
}
refused "a missing device" 1 "--record-block /dev/nonexistent: No such file or directory" \
	--record "$S/bad.log" --record-block /dev/nonexistent -- touch "$S/ran"
refused "a regular file" 1 "not a block device \(a regular file\)" \
	--record "$S/bad.log" --record-block "$S/w.log" -- touch "$S/ran"
refused "no COMMAND" 1 "needs a COMMAND to run" --record "$S/bad.log" --record-block "$DEV"
refused "no --record" 1 "needs --record LOG" --record-block "$DEV" -- touch "$S/ran"
refused "a COMMAND not found" 2 "cannot run no-such-command-here: not found in PATH" \
	--record "$S/bad.log" --record-block "$DEV" -- no-such-command-here
refused "a log in a missing directory" 1 "--record $S/nodir/bad.log: cannot write there" \
	--record "$S/nodir/bad.log" --record-block "$DEV" -- touch "$S/ran"
refused "a log on a device" 1 "refusing to write there: it is a block device" \
	--record "$DEV2" --record-block "$DEV" -- touch "$S/ran"
refused "--record-path" 1 "--record-path chooses files by their path" \
	--record "$S/bad.log" --record-block "$DEV" --record-path '/x*' -- touch "$S/ran"
mkdir -p "$S/notracefs"
REBENCH_TRACEFS=$S/notracefs refused "a tracefs without block events" 2 \
	"notracefs/events/block/block_rq_issue is missing: this kernel has no block request tracepoints" \
	--record "$S/bad.log" --record-block "$DEV" -- touch "$S/ran"
mkdir -m 1777 "$S/pub"
chmod 755 "$SCRATCH"
rm -f "$S/ran"
timeout 20 setpriv --reuid=65534 --regid=65534 --clear-groups "$RB_REAL" \
	--record "$S/pub/bad.log" --record-block "$DEV" -- touch "$S/pub/ran" 2>"$S/nonroot.err"
assert_eq 2 "$?" "not root: exit 2"
assert_match "needs root: it creates a tracefs instance" "$(<"$S/nonroot.err")" "not root: why"
assert_eq "no" "$([ -e "$S/pub/ran" ] || [ -e "$S/pub/bad.log" ] && echo yes || echo no)" "not root: nothing ran, no log"
chmod 700 "$SCRATCH"
assert_no_instance "after the refusals"

section "tracefs as it was"
assert_eq "$GLOBAL_ENABLE" "$(<"$ROOT/events/block/block_rq_issue/enable")" "the global block_rq_issue is as before"
assert_no_instance "at the end"
