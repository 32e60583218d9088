#!/usr/bin/env bash
# test_in_use.sh - a device (or file) in use is never written, trimmed or
# read-and-written, even with --yes or -n: exit 2, a message that says what
# uses it, nothing run, and its data unchanged (a filesystem above it still
# checks clean).  "In use" is decided on the whole stack: mounts in any mount
# namespace, partitions, swap, exclusive openers, loop devices stacked on the
# target; a read-only device is refused for writes before the prompt; two
# workloads of one run that overlap are bad input.  Reads stay allowed.
#
# The cases, all in the CASES list below (run a subset by naming them:
# bash tests/integration/test_in_use.sh swap stacked):
#   mounted          a mounted loop device (also as a stdin line)
#   mounted_part     the whole disk under a mounted partition, and the partition
#   other_ns         mounted only in another mount namespace
#   swap             a loop device used as swap
#   excl             a loop device another process opened with O_EXCL
#   stacked          B over A, B mounted: A and B refused
#   stacked_part     B over A's partition 1, B mounted: A and A p1 refused
#   stacked_2        C over B over A, C mounted: A and B refused
#   stacked_unused   B over A, nothing uses B: writing A is allowed (exit 0)
#   readonly         losetup -r, and blockdev --setro: refused before the prompt
#   files            a file backing a mounted loop device, and a swap file
#   overlap          two workloads of one run on A and A p1: bad input (exit 1)
# Every in-use target is also read (-o read, no --yes) as a control: exit 0.
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd setsid script sfdisk partx mkfs.ext4 e2fsck mkswap swapon swapoff \
	unshare nsenter python3 blockdev mountpoint

CASES=(mounted mounted_part other_ns swap excl stacked stacked_part stacked_2
	stacked_unused readonly files overlap)

# ---------------------------------------------------------------- cleanup

# common.sh's cleanup unmounts, kills and detaches what it registered; swap
# areas, namespace holders and read-only flags are undone here first (swap
# and a namespace mount keep a loop device busy; a BLKROSET flag outlives
# the loop device's attachment).
in_use_cleanup() {
	local rc=$? x pid dir n
	if [ -n "$SCRATCH" ] && [ -d "$SCRATCH" ]; then
		if [ -f "$SCRATCH/.swaps" ]; then
			tac "$SCRATCH/.swaps" | while read -r x; do
				swapoff "$x" 2>/dev/null
			done
		fi
		if [ -f "$SCRATCH/.nsholders" ]; then
			while read -r pid dir; do
				kill -0 "$pid" 2>/dev/null || continue
				nsenter -t "$pid" -m umount "$dir" 2>/dev/null
				kill -9 "$pid" 2>/dev/null
				n=0
				while kill -0 "$pid" 2>/dev/null && [ $n -lt 50 ]; do
					sleep 0.1
					n=$((n + 1))
				done
			done <"$SCRATCH/.nsholders"
		fi
		if [ -f "$SCRATCH/.setro" ]; then
			while read -r x; do
				blockdev --setrw "$x" 2>/dev/null
			done <"$SCRATCH/.setro"
		fi
	fi
	(exit "$rc")
	cleanup
}
trap in_use_cleanup EXIT

# ---------------------------------------------------------------- helpers

# re_quote NAME: a device or path NAME as a literal inside an ERE, ending at
# a word boundary (so /dev/loop1 does not match /dev/loop10 or /dev/loop1p1).
re_quote() { printf '%s\\b' "$(printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g')"; }

# tsum TARGET: checksum of a device or a regular file.
tsum() {
	if [ -b "$1" ]; then dev_sum "$1"; else file_sum "$1"; fi
}

# swap_used TARGET: KiB of TARGET the kernel has swapped out to (0 when it
# is not active swap), from /proc/swaps.
swap_used() {
	awk -v t="$(readlink -f "$1")" '$1 == t { print $4; found = 1 } END { if (!found) print 0 }' /proc/swaps
}

# assert_unchanged WHAT SUM0 TARGET: TARGET's checksum is still SUM0.  An
# active swap area is the kernel's to write: a change there while the
# kernel holds pages in it (/proc/swaps Used) is its swap-outs, and the
# refusal above (exit 2, nothing ran) is what shows rebench wrote nothing.
assert_unchanged() {
	local what=$1 sum0=$2 t=$3 sum used
	sum=$(tsum "$t")
	used=$(swap_used "$t")
	if [ "$sum" != "$sum0" ] && [ "$used" -gt 0 ]; then
		pass "$what: checksum of $t changed by the kernel's swap-outs ($used KiB in use as swap), not by rebench"
		return
	fi
	assert_eq "$sum0" "$sum" "$what: checksum of $t unchanged"
}

# stack_loop LOWER: a loop device over LOWER (a loop device or partition of
# this test); registered after LOWER, so it is detached before it.
stack_loop() {
	local dev
	dev=$(losetup -f --show "$1") || fail "losetup over $1 failed"
	_register loops "$dev"
	printf '%s\n' "$dev"
}

# mkfs_ext4 DEV: no discard (it would punch holes in the image files), inode
# tables and journal initialised now (no lazy-init thread writing to a
# mounted filesystem while its checksum is compared).
mkfs_ext4() {
	mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$1" >/dev/null 2>&1 ||
		fail "mkfs.ext4 $1 failed"
}

# mount_fs DEV DIR: mount, register, and flush so the checksum is stable.
mount_fs() {
	try_mount "$1" "$2" noinit_itable || mount_dev "$1" "$2"
	sync
}

# fsck_clean DEV WHAT: e2fsck -fn of the (unmounted) DEV exits 0.
fsck_clean() {
	local out
	out=$(e2fsck -fn "$1" 2>&1)
	local rc=$?
	if [ "$rc" = 0 ]; then
		pass "$2: e2fsck -fn $1 reports it clean"
	else
		check_failed "$2: e2fsck -fn $1 reports it clean" "e2fsck exit $rc" \
			"$(<<<"$out" head -n 8)"
	fi
}

# partition_disk DEV LABEL: partition 1 of 32 MiB at 1 MiB; its node exists.
partition_disk() {
	if [ "$2" = gpt ]; then
		printf 'label: gpt\nstart=2048, size=65536, type=linux\n' | sfdisk -q "$1" >/dev/null 2>&1
	else
		printf 'label: dos\nstart=2048, size=65536, type=83\n' | sfdisk -q "$1" >/dev/null 2>&1
	fi || fail "sfdisk ($2) $1 failed"
	loop_partitions "$1" || fail "partition node ${1}p1 did not appear"
}

# hold_excl DEV: a background python3 that holds DEV open with O_EXCL;
# sets HOLD_PID.
hold_excl() {
	local ready=$SCRATCH/held.$RANDOM
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(600)' "$1" >"$ready" 2>&1 &
	HOLD_PID=$!
	register_pid "$HOLD_PID"
	disown "$HOLD_PID"
	wait_until grep -q held "$ready" || fail "could not hold $1 with O_EXCL" "$(<"$ready")"
}

# stop_pid PID: kill a disowned background process and wait for it to go.
stop_pid() {
	kill -9 "$1" 2>/dev/null
	wait_until pid_gone "$1" || fail "process $1 still there after SIGKILL"
}

# refusal_re TARGET WHY: the message of a refused destructive run,
# "refusing to write to TARGET: ... WHY" (or "refusing to trim TARGET").
refusal_re() { printf 'refusing to [a-z ]+ %s: .*%s' "$(re_quote "$1")" "$2"; }

# refused WHAT TARGET ERE: -o write, -o trim and -o rw with --yes, and -o
# write with -n, are each refused: exit 2, stderr matches ERE, nothing ran
# (no results on stdout), and TARGET's checksum is unchanged.
refused() {
	local what=$1 t=$2 re=$3 sum0 op
	sum0=$(tsum "$t")
	for op in write trim rw; do
		rb -o "$op" --yes -d 300ms "$t" </dev/null
		assert_rc 2 "$what: -o $op --yes $t: exit 2"
		assert_match "$re" "$RB_ERR" "$what: -o $op --yes: message matches /$re/"
		assert_no_match '^Operations/sec' "$RB_OUT" "$what: -o $op --yes: nothing ran"
		assert_unchanged "$what: -o $op --yes" "$sum0" "$t"
	done
	rb -n -o write -d 300ms "$t" </dev/null
	assert_rc 2 "$what: -n -o write $t: exit 2"
	assert_match "$re" "$RB_ERR" "$what: -n -o write: message matches /$re/"
	assert_eq "" "$RB_OUT" "$what: -n -o write: nothing on stdout"
	assert_unchanged "$what: -n -o write" "$sum0" "$t"
}

# read_ok WHAT TARGET: the control - reading an in-use target is allowed.
read_ok() {
	rb -o read -d 1024k "$2" </dev/null
	assert_rc 0 "$1: control: -o read of $2 (no --yes) is allowed: exit 0"
	assert_match '^Operations/sec' "$RB_OUT" "$1: control: the read ran"
}

# ---------------------------------------------------------------- cases

case_mounted() {
	section "1. a mounted device"
	local A MNT
	A=$(make_loop 32M)
	mkfs_ext4 "$A"
	MNT=$SCRATCH/m1
	mount_fs "$A" "$MNT"
	refused "mounted" "$A" "$(refusal_re "$A" "$(re_quote "$A") is mounted on $(re_quote "$MNT")")"
	local sum0
	sum0=$(dev_sum "$A")
	rb --yes <<<"-o write -d 300ms $A"
	assert_rc 2 "mounted, as a stdin line: exit 2"
	assert_match "stdin line 1: .*$(re_quote "$A") is mounted on" "$RB_ERR" "mounted, stdin: message names stdin line 1 and the mount"
	assert_no_match '^Operations/sec' "$RB_OUT" "mounted, stdin: nothing ran"
	assert_eq "$sum0" "$(dev_sum "$A")" "mounted, stdin: checksum unchanged"
	read_ok "mounted" "$A"
	umount "$MNT" || fail "umount $MNT"
	fsck_clean "$A" "mounted"
}

case_mounted_part() {
	section "2. the disk under a mounted partition (GPT)"
	local D MNT
	D=$(make_loop 64M)
	partition_disk "$D" gpt
	mkfs_ext4 "${D}p1"
	MNT=$SCRATCH/m2
	mount_fs "${D}p1" "$MNT"
	refused "mounted partition, whole disk" "$D" \
		"$(refusal_re "$D" "$(re_quote "${D}p1") is mounted on $(re_quote "$MNT")")"
	refused "mounted partition itself" "${D}p1" \
		"$(refusal_re "${D}p1" "$(re_quote "${D}p1") is mounted on $(re_quote "$MNT")")"
	read_ok "mounted partition" "$D"
	umount "$MNT" || fail "umount $MNT"
	fsck_clean "${D}p1" "mounted partition"
}

case_other_ns() {
	section "3. mounted only in another mount namespace"
	local A DIR READY PID
	A=$(make_loop 32M)
	mkfs_ext4 "$A"
	DIR=$SCRATCH/m3
	READY=$SCRATCH/ns.ready
	mkdir -p "$DIR"
	# shellcheck disable=SC2016 # $1..$3 are the inner sh's arguments
	unshare -m --propagation private sh -c \
		'mount -o noinit_itable "$1" "$2" && sync && echo ready >"$3" && exec sleep 600' \
		sh "$A" "$DIR" "$READY" </dev/null >/dev/null 2>"$SCRATCH/ns.err" &
	PID=$!
	register_pid "$PID"
	printf '%s %s\n' "$PID" "$DIR" >>"$SCRATCH/.nsholders"
	disown "$PID"
	wait_until eval '[ -s "$READY" ] || pid_gone "$PID"'
	[ -s "$READY" ] || fail "could not mount $A in a new mount namespace" "$(<"$SCRATCH/ns.err")"
	if grep -qF " $DIR " /proc/self/mountinfo; then
		check_failed "the namespace's mount is not visible in the test's own mount namespace"
	else
		pass "the namespace's mount is not visible in the test's own mount namespace"
	fi
	refused "other mount namespace" "$A" \
		"$(refusal_re "$A" "$(re_quote "$A") is mounted on .* in another mount namespace")"
	read_ok "other mount namespace" "$A"
	nsenter -t "$PID" -m umount "$DIR" || fail "umount $DIR in the namespace of $PID"
	stop_pid "$PID"
	fsck_clean "$A" "other mount namespace"
}

case_swap() {
	section "4. swap on a loop device"
	local A
	A=$(make_loop 32M)
	mkswap "$A" >/dev/null 2>&1 || fail "mkswap $A failed"
	printf '%s\n' "$A" >>"$SCRATCH/.swaps"
	swapon "$A" || fail "swapon $A failed"
	refused "swap" "$A" "$(refusal_re "$A" "$(re_quote "$A") is in use as swap")"
	read_ok "swap" "$A"
	swapoff "$A" || check_failed "swapoff $A"
}

case_excl() {
	section "5. a device another process holds with O_EXCL"
	local A
	A=$(make_loop 32M)
	hold_excl "$A"
	refused "O_EXCL holder" "$A" "$(refusal_re "$A" "exclusive")"
	read_ok "O_EXCL holder" "$A"
	stop_pid "$HOLD_PID"
}

case_stacked() {
	section "6a. B stacked over A, B mounted"
	local A B MNT
	A=$(make_loop 32M)
	B=$(stack_loop "$A")
	mkfs_ext4 "$B"
	MNT=$SCRATCH/m6a
	mount_fs "$B" "$MNT"
	refused "stacked (lower)" "$A" \
		"$(refusal_re "$A" "$(re_quote "$A") backs $(re_quote "$B").*mounted on")"
	refused "stacked (upper)" "$B" "$(refusal_re "$B" "$(re_quote "$B") is mounted on $(re_quote "$MNT")")"
	read_ok "stacked" "$A"
	umount "$MNT" || fail "umount $MNT"
	fsck_clean "$B" "stacked"
}

case_stacked_part() {
	section "6b. B stacked over partition 1 of A (dos), B mounted"
	local A B MNT
	A=$(make_loop 64M)
	partition_disk "$A" dos
	B=$(stack_loop "${A}p1")
	mkfs_ext4 "$B"
	MNT=$SCRATCH/m6b
	mount_fs "$B" "$MNT"
	refused "stacked on a partition, whole disk" "$A" \
		"$(refusal_re "$A" "$(re_quote "${A}p1").*$(re_quote "$B").*mounted on")"
	refused "stacked on a partition, the partition" "${A}p1" \
		"$(refusal_re "${A}p1" "$(re_quote "${A}p1") backs $(re_quote "$B").*mounted on")"
	read_ok "stacked on a partition" "$A"
	umount "$MNT" || fail "umount $MNT"
	fsck_clean "$B" "stacked on a partition"
}

case_stacked_2() {
	section "6c. C over B over A, C mounted"
	local A B C MNT
	A=$(make_loop 32M)
	B=$(stack_loop "$A")
	C=$(stack_loop "$B")
	mkfs_ext4 "$C"
	MNT=$SCRATCH/m6c
	mount_fs "$C" "$MNT"
	refused "two-level stack (bottom)" "$A" \
		"$(refusal_re "$A" "$(re_quote "$C").*mounted on")"
	refused "two-level stack (middle)" "$B" \
		"$(refusal_re "$B" "$(re_quote "$B") backs $(re_quote "$C").*mounted on")"
	read_ok "two-level stack" "$A"
	umount "$MNT" || fail "umount $MNT"
	fsck_clean "$C" "two-level stack"
}

case_stacked_unused() {
	section "7. B stacked over A, nothing uses B: writing A is allowed"
	local A B sum0
	A=$(make_loop 32M)
	B=$(stack_loop "$A")
	sum0=$(dev_sum "$A")
	rb -o write --yes -d 300ms "$A" </dev/null
	assert_rc 0 "stacked, unused: -o write --yes $A (under idle $B): exit 0"
	assert_match '^Operations/sec' "$RB_OUT" "stacked, unused: the write ran"
	assert_ne "$sum0" "$(dev_sum "$A")" "stacked, unused: $A was written"
}

case_readonly() {
	section "8a. a read-only loop device (losetup -r)"
	local img R W
	img=$(make_image 32M)
	R=$(losetup -r -f --show "$img") || fail "losetup -r failed"
	_register loops "$R"
	[ "$(blockdev --getro "$R")" = 1 ] || fail "$R is not read-only"
	refused "read-only (losetup -r)" "$R" "read-only"
	local sum0
	sum0=$(dev_sum "$R")
	rb_pty y -o write -d 300ms "$R"
	assert_rc 2 "read-only, on a terminal: exit 2"
	assert_no_match 'Continue\? \[y/N\]' "$RB_OUT" "read-only, on a terminal: refused before the prompt"
	assert_match 'read-only' "$RB_ERR" "read-only, on a terminal: message says read-only"
	assert_no_match '^Operations/sec' "$RB_OUT" "read-only, on a terminal: nothing ran"
	assert_eq "$sum0" "$(dev_sum "$R")" "read-only, on a terminal: checksum unchanged"
	read_ok "read-only (losetup -r)" "$R"

	section "8b. a loop device set read-only with blockdev --setro"
	W=$(make_loop 32M)
	printf '%s\n' "$W" >>"$SCRATCH/.setro"
	blockdev --setro "$W" || fail "blockdev --setro $W failed"
	refused "read-only (blockdev --setro)" "$W" "read-only"
	read_ok "read-only (blockdev --setro)" "$W"
	blockdev --setrw "$W" || check_failed "blockdev --setrw $W"
}

case_files() {
	section "9a. a file backing a mounted loop device"
	local F L MNT F2
	F=$(make_image 32M)
	L=$(loop_from_image "$F")
	mkfs_ext4 "$L"
	MNT=$SCRATCH/m9
	mount_fs "$L" "$MNT"
	refused "file backing a loop" "$F" "$(refusal_re "$F" "backs $(re_quote "$L").*mounted on")"
	read_ok "file backing a loop" "$F"
	umount "$MNT" || fail "umount $MNT"
	fsck_clean "$L" "file backing a loop"

	section "9b. a swap file"
	F2=$SCRATCH/swapfile
	dd if=/dev/urandom of="$F2" bs=1M count=16 status=none || fail "cannot create $F2"
	chmod 600 "$F2"
	mkswap "$F2" >/dev/null 2>&1 || fail "mkswap $F2 failed"
	printf '%s\n' "$F2" >>"$SCRATCH/.swaps"
	if ! swapon "$F2" 2>"$SCRATCH/swapon.err"; then
		log "note: swapon $F2 failed, swap file sub-case skipped: $(<"$SCRATCH/swapon.err")"
		return
	fi
	refused "swap file" "$F2" "$(refusal_re "$F2" "in use as swap")"
	read_ok "swap file" "$F2"
	swapoff "$F2" || check_failed "swapoff $F2"
}

case_overlap() {
	section "10. two workloads of one run that overlap (A and A p1)"
	local A SPEC sum0 flag
	A=$(make_loop 64M)
	partition_disk "$A" dos
	SPEC=$SCRATCH/overlap.spec
	printf '%s\n' "-o write -d 300ms $A" "-o write -d 300ms ${A}p1" >"$SPEC"
	sum0=$(dev_sum "$A")
	for flag in --yes -n; do
		rb "$flag" <"$SPEC"
		assert_rc 1 "overlap, $flag: exit 1 (bad input, nothing ran)"
		assert_match 'overlap' "$RB_ERR" "overlap, $flag: message says the workloads overlap"
		assert_match 'line 1' "$RB_ERR" "overlap, $flag: message names line 1"
		assert_match 'line 2' "$RB_ERR" "overlap, $flag: message names line 2"
		assert_no_match '^Operations/sec' "$RB_OUT" "overlap, $flag: nothing ran"
		assert_eq "$sum0" "$(dev_sum "$A")" "overlap, $flag: checksum unchanged"
	done
}

# ---------------------------------------------------------------- run

RUN=("${CASES[@]}")
[ $# -gt 0 ] && RUN=("$@")
for c in "${RUN[@]}"; do
	declare -F "case_$c" >/dev/null || fail "no such case: $c (cases: ${CASES[*]})"
	"case_$c"
done
