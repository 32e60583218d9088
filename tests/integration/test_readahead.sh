#!/usr/bin/env bash
# test_readahead.sh - --readahead KB sets the disk's read_ahead_kb while the
# run runs and puts the old value back after a normal end, Ctrl-C and
# SIGTERM; finds the disk of a partition and of a file; refuses a file on
# tmpfs and two values on one disk before any I/O.  --fadvise HINT: the
# posix_fadvise call strace sees, per hint, on every descriptor; refused
# without -p; fio's fadvise_hint in --fio.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq strace sfdisk partx mkfs.ext2

DEV=$(make_loop 64M)
DISK=$(basename "$DEV")
RA=/sys/block/$DISK/queue/read_ahead_kb
OLD=$(<"$RA")
# a value other than the device's, so that a change shows
KB=384
[ "$OLD" = "$KB" ] && KB=768

# A run started with spawn_ready has set read_ahead_kb before it said
# ready; the runs that end by themselves last 3 s past that, ample for one
# read of the value however loaded the machine.

section "--readahead: set during the run, restored after it"
spawn_ready -p -b 4k -d 3 --readahead "$KB" "$DEV"
assert_eq "$KB" "$(<"$RA")" "read_ahead_kb of $DISK is $KB during the run"
wait "$BG_PID"
BG_RC=$?
assert_eq 0 "$BG_RC" "the run ends with status 0"
assert_eq "$OLD" "$(<"$RA")" "read_ahead_kb is back to $OLD after the run"
assert_match "read-ahead: $KB KB on $DISK" "$(<"$OUT")" "the settings line shows the read-ahead"

rb_ok "--json" --json -p -d 200ms --readahead "$KB" "$DEV"
assert_eq "$KB" "$(jqr '.workloads[0].parameters.readahead_kb')" "JSON parameters.readahead_kb"
assert_eq "null" "$(jqr '.workloads[0].parameters.fadvise')" "JSON parameters.fadvise null without it"
rb_ok "no --readahead" --json -p -d 200ms "$DEV"
assert_eq "null" "$(jqr '.workloads[0].parameters.readahead_kb')" "JSON readahead_kb null without it"
assert_eq "$OLD" "$(<"$RA")" "read_ahead_kb still $OLD"

for sig in INT TERM; do
	section "--readahead: restored after SIG$sig"
	spawn_ready -p -b 4k -d 30 --readahead "$KB" "$DEV"
	assert_eq "$KB" "$(<"$RA")" "read_ahead_kb is $KB before SIG$sig"
	interrupt_after 0 "$sig"
	assert_ne 0 "$BG_RC" "status is not 0 after SIG$sig (got $BG_RC)"
	assert_eq "$OLD" "$(<"$RA")" "read_ahead_kb is back to $OLD after SIG$sig"
done

section "--readahead: one disk, one value"
printf -- '-p %s --readahead 128\n-p %s --readahead 256\n' "$DEV" "$DEV" >"$SCRATCH/two"
rb -d 200ms <"$SCRATCH/two"
assert_rc 1 "two values on $DISK: exit 1"
assert_match "stdin line 2: --readahead 256: stdin line 1 \($DEV\) sets 128 on the same disk $DISK" \
	"$RB_ERR" "the message names both lines and the disk"
assert_no_match "Benchmarking" "$RB_OUT" "nothing ran"
assert_eq "$OLD" "$(<"$RA")" "read_ahead_kb untouched after the refusal"
printf -- '-p %s --readahead %s\n-p %s --readahead %s -w seq\n' "$DEV" "$KB" "$DEV" "$KB" >"$SCRATCH/same"
rb -d 200ms --json <"$SCRATCH/same"
assert_rc 0 "the same value on two lines runs"
assert_eq "$KB $KB" "$(jqr '[.workloads[].parameters.readahead_kb] | join(" ")')" "both lines report $KB"
assert_eq "$OLD" "$(<"$RA")" "read_ahead_kb is back to $OLD"

section "--readahead: the disk of a partition and of a file on it"
DEV2=$(make_loop 64M)
DISK2=$(basename "$DEV2")
RA=/sys/block/$DISK2/queue/read_ahead_kb
OLD2=$(<"$RA")
printf 'start=2048\n' | sfdisk -q "$DEV2" >/dev/null 2>&1 || fail "sfdisk $DEV2"
loop_partitions "$DEV2" || fail "no ${DEV2}p1"
spawn_ready -p -d 3 --readahead "$KB" "${DEV2}p1"
assert_eq "$KB" "$(<"$RA")" "${DEV2}p1 sets the read-ahead of its disk $DISK2"
wait "$BG_PID"
assert_eq "$OLD2" "$(<"$RA")" "$DISK2 is back to $OLD2"
mkfs.ext2 -q "${DEV2}p1" || fail "mkfs.ext2 ${DEV2}p1"
mount_dev "${DEV2}p1" "$SCRATCH/m"
spawn_ready -p -d 3 -e 4m --readahead "$KB" "$SCRATCH/m/f"
assert_eq "$KB" "$(<"$RA")" "a file on ${DEV2}p1 sets the read-ahead of $DISK2"
wait "$BG_PID"
assert_eq "$OLD2" "$(<"$RA")" "$DISK2 is back to $OLD2"

section "--readahead: refused on tmpfs, before any I/O"
SHM=$(mktemp /dev/shm/rebench-ra.XXXXXX) || fail "mktemp in /dev/shm"
head -c 1048576 /dev/zero >"$SHM"
assert_refused "--readahead on tmpfs" \
	"--readahead 64: cannot find the disk under $SHM .*tmpfs.*; put the file on a filesystem on a block device, or drop --readahead" \
	-p -d 200ms --readahead 64 "$SHM"
assert_no_match "Benchmarking" "$RB_OUT" "nothing ran"
rm -f "$SHM"

section "--fadvise: the advice strace sees"
for h in normal:NORMAL sequential:SEQUENTIAL random:RANDOM noreuse:NOREUSE; do
	timeout 60 strace -f -qq -e trace=fadvise64 -o "$SCRATCH/st" \
		"$REBENCH" -p -d 100ms -c 2 -l -j 1m -e 4m --fadvise "${h%%:*}" "$DEV" >/dev/null 2>&1 ||
		fail "--fadvise ${h%%:*} under strace: exit $?"
	assert_eq 2 "$(grep -c "fadvise64([0-9]*, 1048576, 4194304, POSIX_FADV_${h#*:}) = 0" "$SCRATCH/st")" \
		"--fadvise ${h%%:*}: POSIX_FADV_${h#*:} on the region, once per thread's descriptor"
	assert_eq 2 "$(grep -c fadvise64 "$SCRATCH/st")" "--fadvise ${h%%:*}: no other fadvise64 call"
done
timeout 60 strace -f -qq -e trace=fadvise64 -o "$SCRATCH/st" "$REBENCH" -p -d 100ms "$DEV" >/dev/null 2>&1 ||
	fail "no --fadvise under strace: exit $?"
assert_eq 0 "$(grep -c fadvise64 "$SCRATCH/st")" "no --fadvise: no fadvise64 call"
rb -d 100ms --json -p --fadvise random "$DEV"
assert_eq random "$(jqr '.workloads[0].parameters.fadvise')" "JSON parameters.fadvise"
rb -d 100ms -p --fadvise sequential "$DEV"
assert_match "fadvise: sequential" "$RB_OUT" "the settings line shows the hint"

section "--fadvise: refused with O_DIRECT"
timeout 60 strace -f -qq -e trace=fadvise64 -o "$SCRATCH/st" \
	"$REBENCH" -d 100ms --fadvise random "$DEV" >/dev/null 2>"$SCRATCH/err"
assert_eq 1 "$?" "--fadvise with O_DIRECT: exit 1"
assert_match "--fadvise random: the advice is for the page cache, which O_DIRECT \(rebench's default\) bypasses, so it would change nothing; add -p" \
	"$(<"$SCRATCH/err")" "the refusal says why and how to fix it"
assert_eq 0 "$(grep -c fadvise64 "$SCRATCH/st")" "no fadvise64 call when refused"

section "--fadvise in --fio"
rb_ok "--fio" --fio -p --fadvise random "$DEV"
assert_match "fadvise_hint=random" "$RB_OUT" "random becomes fadvise_hint=random"
rb_ok "--fio" --fio -p --fadvise noreuse --readahead 64 "$DEV"
assert_match "# not expressible in fio: --fadvise noreuse" "$RB_OUT" "noreuse is a comment"
assert_match "# not expressible in fio: --readahead 64: before fio, echo 64 > /sys/block/$DISK/queue/read_ahead_kb" \
	"$RB_OUT" "--readahead is a comment with the command"
