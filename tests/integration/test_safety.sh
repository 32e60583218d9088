#!/usr/bin/env bash
# test_safety.sh - destructive runs need confirmation: refused without a
# terminal and without --yes; y/N asked on the terminal (also when stdin
# carries the workloads); -n implies yes.  A device in use (a mounted
# partition, the disk under it, a device another program holds with O_EXCL)
# is never written, and its data is checked unchanged.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd script setsid sfdisk partx mkfs.ext2 python3

M=1048576
DEV=$(make_loop 32M)

section "(a) no terminal, no --yes: refused before any I/O"
sum0=$(dev_sum "$DEV")
for op in write trim rw; do
	rb -o "$op" -d 300ms "$DEV" </dev/null
	assert_rc 1 "-o $op without --yes and without a terminal: exit 1"
	assert_match 'no terminal' "$RB_ERR" "-o $op: message says there is no terminal to ask on"
	assert_match -- '--yes' "$RB_ERR" "-o $op: message suggests --yes"
	assert_eq "" "$RB_OUT" "-o $op: nothing printed on stdout"
done
assert_eq "$sum0" "$(dev_sum "$DEV")" "device checksum unchanged after the refusals"

F=$SCRATCH/user.dat
dd if=/dev/urandom of="$F" bs=1M count=2 status=none
fsum=$(file_sum "$F")
rb -o write -d 300ms "$F" </dev/null
assert_rc 1 "write to an existing file without --yes and without a terminal: exit 1"
assert_eq "$fsum" "$(file_sum "$F")" "the file is unchanged"

section "(b) y/N on a terminal"
rb_pty n -o write -d 300ms "$DEV"
assert_rc 1 "answer n: exit 1"
assert_match 'Continue\? \[y/N\]' "$RB_OUT" "the question is asked on the terminal"
assert_match "$DEV" "$RB_OUT" "the question names the device"
assert_match "WRITE to $DEV \(block device, [0-9]+ MiB\): the data will be lost from 0 B to [0-9]+ MiB" \
	"$RB_OUT" "the question gives sizes with their units (0 B to N MiB)"
assert_match 'not confirmed' "$RB_ERR" "stderr says it was not confirmed"
assert_eq "$sum0" "$(dev_sum "$DEV")" "answer n: device checksum unchanged"
rb_pty "" -o write -d 300ms "$DEV"
assert_rc 1 "no answer (end of input on the terminal): exit 1"
assert_eq "$sum0" "$(dev_sum "$DEV")" "no answer: device checksum unchanged"
rb_pty y -o write -d 300ms "$DEV"
assert_rc 0 "answer y: exit 0"
assert_match '^Operations/sec: ' "$RB_OUT" "answer y: the run prints its results"
sum1=$(dev_sum "$DEV")
assert_ne "$sum0" "$sum1" "answer y: device checksum changed"

section "(c) stdin mode: the answer comes from the terminal, not from stdin"
SPEC=$SCRATCH/spec
printf '%s\n' "-o write -d 300ms -j 1m -e 1m $DEV" "-d 300ms $DEV" >"$SPEC"
RB_PTY_STDIN=$SPEC rb_pty n
assert_rc 1 "specs on stdin, answer n on the terminal: exit 1"
assert_match 'Continue\? \[y/N\]' "$RB_OUT" "the question is asked on the terminal"
assert_eq "$sum1" "$(dev_sum "$DEV")" "answer n: device checksum unchanged"
RB_PTY_STDIN=$SPEC rb_pty y
assert_rc 0 "specs on stdin, answer y on the terminal: exit 0"
assert_eq 2 "$(<<<"$RB_OUT" grep -c '^Benchmarking results for ')" "both workloads ran"
sum2=$(dev_sum "$DEV")
assert_ne "$sum1" "$sum2" "answer y: device checksum changed"
rb <"$SPEC"
assert_rc 1 "specs on stdin and no terminal: exit 1 (stdin is not asked)"
assert_match 'stdin line 1: .*no terminal' "$RB_ERR" "message names stdin line 1 and the missing terminal"
assert_eq "$sum2" "$(dev_sum "$DEV")" "no terminal: device checksum unchanged"
# a 'y' line in the specs must not count as an answer: it is a target name
printf '%s\n' "-o write -d 300ms $DEV" "y" >"$SPEC.y"
rb <"$SPEC.y"
assert_rc 1 "a 'y' line on stdin is not taken as confirmation: exit 1"
assert_eq "$sum2" "$(dev_sum "$DEV")" "device checksum unchanged"

section "missing target on a terminal"
rb_pty "" -d 300ms
assert_rc 1 "no target and stdin is a terminal: exit 1"
assert_match 'missing target' "$RB_ERR" "message says missing target"

section "(e) -n implies yes"
rb -n -o write -d 300ms "$DEV" </dev/null
assert_rc 0 "-n -o write without a terminal: exit 0"
assert_eq 1 "$(<<<"$RB_OUT" grep -vc '^device \|^$')" "-n prints its one line"
sum3=$(dev_sum "$DEV")
assert_ne "$sum2" "$sum3" "-n: device checksum changed"
rb -y -o write -d 300ms "$DEV" </dev/null
assert_rc 0 "-y (short for --yes) without a terminal: exit 0"

section "(d) a mounted partition and its disk are never written"
DISK=$(make_loop 64M)
# partition 1: 1 MiB .. 33 MiB; the rest of the disk is unpartitioned
printf 'label: dos\nstart=2048, size=65536, type=83\n' | sfdisk -q "$DISK" || fail "sfdisk $DISK failed"
loop_partitions "$DISK" || fail "partition node ${DISK}p1 did not appear"
P1=${DISK}p1
pass "partition node $P1 exists"
mkfs.ext2 -q -F "$P1" >/dev/null 2>&1 || fail "mkfs.ext2 $P1 failed"
MNT=$SCRATCH/mnt
# noinit_itable: the ext4 driver (which also mounts ext2) would otherwise
# zero inode tables in the background and flag them in the group
# descriptors a few seconds after mounting, changing the checksums below.
# A plain ext2 driver has no such thread and no such option.
try_mount "$P1" "$MNT" noinit_itable || mount_dev "$P1" "$MNT"
sync
# checksums taken while mounted, before and after, with no fs activity between
disk0=$(dev_sum "$DISK")
part0=$(dev_sum "$P1")
rb -o write --yes -d 300ms "$P1"
assert_rc 2 "write --yes to the mounted partition: exit 2"
assert_match 'mounted|in use' "$RB_ERR" "message says the partition is mounted / in use"
assert_match "$MNT" "$RB_ERR" "message names the mount point"
rb -o write --yes -d 300ms "$DISK"
assert_rc 2 "write --yes to the whole disk under a mounted partition: exit 2"
assert_match 'mounted|in use' "$RB_ERR" "message says a partition of the disk is mounted / in use"
rb -o write --yes -j 48m -e 8m -d 300ms "$DISK"
assert_rc 2 "write --yes to the disk outside the mounted partition: still exit 2"
rb -o trim --yes -d 300ms "$DISK"
assert_rc 2 "trim --yes of the disk: exit 2"
rb -o rw --yes -d 300ms "$P1"
assert_rc 2 "rw --yes on the mounted partition: exit 2"
rb -n -o write -d 300ms "$DISK"
assert_rc 2 "-n write to the disk: exit 2"
rb --yes <<<"-o write -d 300ms $P1"
assert_rc 2 "stdin line writing the mounted partition: exit 2"
assert_match 'stdin line 1: ' "$RB_ERR" "message names stdin line 1"
rb -d 1024k "$P1"
assert_rc 0 "reading the mounted partition is allowed"
rb -d 1024k "$DISK"
assert_rc 0 "reading the disk is allowed"
assert_eq "$part0" "$(dev_sum "$P1")" "partition checksum unchanged"
assert_eq "$disk0" "$(dev_sum "$DISK")" "whole-disk checksum unchanged"
mountpoint -q "$MNT" && pass "filesystem still mounted" || check_failed "filesystem still mounted"

section "unmounted: the partition is written, within its bounds only"
umount "$MNT" || fail "umount $MNT"
mbr0=$(dev_sum "$DISK" 0 $M)
tail0=$(dev_sum "$DISK" $((33 * M)) $((31 * M)))
rb -o write --yes -w seq -b 64k -d 100% "$P1"
assert_rc 0 "write --yes to the unmounted partition: exit 0"
assert_ne "$part0" "$(dev_sum "$P1")" "partition contents changed"
assert_eq "$mbr0" "$(dev_sum "$DISK" 0 $M)" "first MiB of the disk (partition table) unchanged"
assert_eq "$tail0" "$(dev_sum "$DISK" $((33 * M)) $((31 * M)))" "disk space after the partition unchanged"

section "a device held open with O_EXCL by another program"
HELD=$(make_loop 16M)
held0=$(dev_sum "$HELD")
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(3600)' "$HELD" >"$SCRATCH/held.out" 2>&1 &
register_pid $!
disown $!	# killed by the cleanup trap; no job report
wait_until grep -q held "$SCRATCH/held.out" || fail "could not hold $HELD with O_EXCL"
rb -o write --yes -d 300ms "$HELD"
assert_rc 2 "write --yes to a device another program holds exclusively: exit 2"
assert_match 'in use' "$RB_ERR" "message says the device is in use"
assert_eq "$held0" "$(dev_sum "$HELD")" "held device checksum unchanged"

section "a disk whose partition another program holds with O_EXCL"
PDISK=$(make_loop 32M)
printf 'label: dos\nstart=2048, size=32768, type=83\n' | sfdisk -q "$PDISK" || fail "sfdisk $PDISK failed"
loop_partitions "$PDISK" || fail "partition node ${PDISK}p1 did not appear"
pdisk0=$(dev_sum "$PDISK")
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(3600)' "${PDISK}p1" >"$SCRATCH/held2.out" 2>&1 &
register_pid $!
disown $!
wait_until grep -q held "$SCRATCH/held2.out" || fail "could not hold ${PDISK}p1 with O_EXCL"
rb -o write --yes -d 300ms "$PDISK"
assert_rc 2 "write --yes to the disk of a held partition: exit 2"
assert_match 'in use' "$RB_ERR" "message says the device is in use"
rb -o write --yes -d 300ms "${PDISK}p1"
assert_rc 2 "write --yes to the held partition: exit 2"
assert_eq "$pdisk0" "$(dev_sum "$PDISK")" "disk checksum unchanged"

section "a device being written cannot be mounted meanwhile (O_EXCL claim)"
FSD=$(make_loop 64M)
mkfs.ext2 -q -F "$FSD" >/dev/null 2>&1 || fail "mkfs.ext2 $FSD failed"
# write far from the superblock, so a mount could only fail for being busy;
# the mount is tried once rebench's run has started (--ready-fd: the device
# is open, with O_EXCL, from before that), and the run lasts until the
# tries are over (SIGINT), however slow the machine
ready_listen
"${DEFSIG[@]}" "$REBENCH" --ready-fd 3 -o write --yes -j 32m -e 16m -d 60 "$FSD" </dev/null >"$SCRATCH/claim.out" 2>&1 3>"$READY" &
claim_pid=$!
register_pid "$claim_pid"
ready_heard
[ "$HEARD" = ready ] || fail "the writer ended before its run started" "$(<"$SCRATCH/claim.out")"
if try_mount "$FSD" "$SCRATCH/mnt2"; then
	check_failed "mount of a device rebench is writing fails"
	umount "$SCRATCH/mnt2"
else
	pass "mount of a device rebench is writing fails"
fi
mount "$FSD" "$SCRATCH/mnt2" 2>&1 | grep -qi busy &&
	pass "mount says the device is busy" || check_failed "mount says the device is busy"
mountpoint -q "$SCRATCH/mnt2" && umount "$SCRATCH/mnt2"
kill -INT "$claim_pid"
wait "$claim_pid"
assert_eq 130 "$?" "the write run itself ends at the interrupt (exit 130)"

section "(f) a read on a sparse file fills its holes only when confirmed"
S=$SCRATCH/sparse.dat
truncate -s 4M "$S"
ssum=$(file_sum "$S")
rb -d 300ms "$S" </dev/null
assert_rc 1 "read of a sparse existing file without --yes or a terminal: exit 1"
assert_eq "$ssum" "$(file_sum "$S")" "sparse file unchanged"
rb --yes -d 300ms "$S"
assert_rc 0 "read of a sparse file with --yes: exit 0"
assert_match '^Warning: .*hole' "$RB_OUT" "a warning says the holes were filled"
if cmp -s "$S" <(head -c $((4 * M)) /dev/zero); then
	check_failed "the file now holds non-zero data"
else
	pass "the file now holds non-zero data"
fi
assert_eq $((4 * M)) "$(stat -c %s "$S")" "file size unchanged"
