#!/usr/bin/env bash
# test_durability.sh - the durability verdict (issue 15) on real stacks: a
# loop device over an image on the root file system is durable with dsync
# and fdatasync:1 and not durable with none, end and fdatasync:N; RAM is
# not durable whatever the policy (zram, a file on tmpfs, a loop device
# over a file on tmpfs); a file on an overlay is unknown; reads get no
# verdict.  In human output, -n field $TD (common.sh), JSON and the sweep table's
# column, and the total takes the least durable workload's.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

DEV=$(make_loop 64M)
LOOP=$(basename "$DEV")
W="-o write -b 4k -d 256k --seed 3 -y"

# fd: the -n durability field of the last run's first line
fd() { terse_field $TD; }

section "a loop device over an image: the policy decides"
for case in "dsync durable" "sync durable" "rwf-dsync durable" \
	"fdatasync:1 durable" "fsync:1 durable" "none not-durable" \
	"end not-durable" "fdatasync:8 not-durable" "sfr:1 not-durable"; do
	read -r pol want <<<"$case"
rb -n $W --sync "$pol" "$DEV"
	assert_eq "$want" "$(fd)" "--sync $pol on $LOOP: $want"
done
rb -n $W -f "$DEV"
assert_eq not-durable "$(fd)" "-f (the policy none): not-durable"
rb -n $W -p --sync fdatasync:2 "$DEV"
assert_eq not-durable "$(fd)" "-p --sync fdatasync:2: not-durable"
rb -n $W -p --sync fdatasync:1 "$DEV"
assert_eq durable "$(fd)" "-p --sync fdatasync:1: durable"
rb -n -o read -d 256k "$DEV"
assert_eq - "$(fd)" "a read run has no verdict (-)"

rb $W -f "$DEV"
assert_match "^Durability: not durable: O_DIRECT writes are acknowledged from the write-back cache of $LOOP over .* on [a-z0-9]+ on [a-z0-9]+ and nothing flushes the writes \(--sync none\)$" \
	"$RB_OUT" "human: the verdict with its reason and the stack under the loop device"
rb $W --sync fdatasync:8 "$DEV"
assert_match "^Durability: not durable: .*fdatasync follows every 8 writes, so up to 7 acknowledged writes wait for it" \
	"$RB_OUT" "human: fdatasync:8 says how many writes wait"
rb $W "$DEV"
assert_match "^Durability: durable: every write is opened O_DSYNC \($LOOP over " "$RB_OUT" \
	"human: the default (dsync) is durable, and says why"
rb -o read -d 256k "$DEV"
assert_no_match "Durability" "$RB_OUT" "human: a read run prints no verdict"

rb --json $W -f "$DEV"
assert_eq "not-durable" "$(jqr '.workloads[0].durability.verdict')" "JSON: durability.verdict"
assert_match "write-back cache of $LOOP" "$(jqr '.workloads[0].durability.reason')" "JSON: durability.reason"
rb --json -o read -d 256k "$DEV"
assert_eq null "$(jqr '.workloads[0].durability')" "JSON: null for a read run"

section "several workloads: the total takes the least durable"
rb -n -y < <(printf '%s\n' "$DEV -o write -b 4k -d 128k -j 0 -e 16m" \
	"$DEV -o write -b 4k -d 128k -f -j 32m -e 16m" "$DEV -o read -d 128k")
assert_rc 0 "three workloads run together"
assert_eq "durable not-durable - not-durable" \
	"$(<<<"$RB_OUT" awk -v d=$TD 'NF && $1 != "device" { printf "%s%s", n++ ? " " : "", $d }')" \
	"-n field $TD: each workload's verdict, and the total's is the worst"
rb --json -y < <(printf '%s\n' "$DEV -o write -b 4k -d 128k -j 0 -e 16m" \
	"$DEV -o write -b 4k -d 128k -f -j 32m -e 16m")
assert_eq "not-durable 2" "$(jqr '.total.durability | "\(.verdict) \(.workload)"')" \
	"JSON total: the verdict and which workload it is from"

section "a sweep across policies: the verdict is a column"
rb $W --sync none,dsync,fdatasync:1,fdatasync:4 "$DEV"
assert_rc 0 "the sweep exits 0"
assert_eq "none:not-durable dsync:durable fdatasync:1:durable fdatasync:4:not-durable" \
	"$(<<<"$RB_OUT" awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%s%s:%s", n++ ? " " : "", $c["sync"], $c["durability"] }')" \
	"each row's durability column matches its policy"

section "RAM is not durable, whatever the policy"
TMPFS=$SCRATCH/tmpfs
mkdir -p "$TMPFS" && mount -t tmpfs -o size=40m tmpfs "$TMPFS" || fail "cannot mount tmpfs"
_register mounts "$TMPFS"
rb -n -p -e 8m --sync fsync:1 -o write -b 4k -d 256k -y "$TMPFS/f.dat"
assert_eq not-durable "$(fd)" \
	"a file on tmpfs with fsync:1: not-durable"
RAMLOOP=$(losetup -f --show "$TMPFS/f.dat") || fail "cannot attach a loop device over tmpfs"
_register loops "$RAMLOOP"
rb $W --sync fdatasync:1 "$RAMLOOP"
assert_match "^Durability: not durable: the data lands in RAM \($(basename "$RAMLOOP") over $TMPFS/f.dat on tmpfs\)" \
	"$RB_OUT" "a loop device over a file on tmpfs: RAM, with the chain"
losetup -d "$RAMLOOP"
if have_zram; then
	ZRAM=$(make_zram 32M)
	rb $W "$ZRAM"
	assert_match "^Durability: not durable: the data lands in RAM \($(basename "$ZRAM")\)" "$RB_OUT" \
		"$(basename "$ZRAM") (a zram device of this test's own) with dsync: not durable"
else
	echo "# no zram-control: the zram case is left out"
fi

section "a file system rebench cannot follow: unknown"
OV=$SCRATCH/ov
mkdir -p "$OV/lower" "$OV/upper" "$OV/work" "$OV/merged"
if mount -t overlay overlay -o "lowerdir=$OV/lower,upperdir=$OV/upper,workdir=$OV/work" "$OV/merged" 2>/dev/null; then
	_register mounts "$OV/merged"
	rb --json -p -e 4m -o write -b 4k -d 128k -y "$OV/merged/f.dat"
	assert_eq unknown "$(jqr '.workloads[0].durability.verdict')" "a file on overlay with dsync: unknown"
	assert_match "the file is on an overlay file system, whose flushes rebench cannot follow" \
		"$(jqr '.workloads[0].durability.reason')" "... and the reason names it"
else
	echo "# overlay cannot be mounted here: its case is left out"
fi


section "issue 26, 4: a file system mounted nobarrier makes nothing durable"
# An ext4 on a loop device (its write cache: write back) mounted
# nobarrier: O_DSYNC writes of a file on it reach the loop device with no
# flush (its counters say so), so "durable" would be false.
require_cmd mkfs.ext4
NBDEV=$(make_loop 64M)
NB=$(basename "$NBDEV")
# Inode tables and journal written by mkfs itself: otherwise the kernel's
# ext4lazyinit thread zeroes them after the mount, in the background, and
# its zeroing may flush the device whatever the barrier option: 1 flush
# fell inside a run's window once in CI, on a loaded machine.
mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$NBDEV" >/dev/null 2>&1 ||
	fail "mkfs.ext4 $NBDEV"
# flush requests completed (/sys/block/X/stat field 16)
flushes() { awk '{ print $16 }' "/sys/block/$NB/stat"; }
for opt in nobarrier barrier=0; do
	mount_dev "$NBDEV" "$SCRATCH/nb" "$opt"
	f0=$(flushes)
	rb --json -e 4m -o write -b 4k -d 256k --sync dsync -y "$SCRATCH/nb/f.dat"
	assert_rc 0 "-o $opt: a dsync write run on a file of the ext4"
	assert_eq 0 $(( $(flushes) - f0 )) "-o $opt: $NB saw no flush (the device's own counters)"
	assert_eq not-durable "$(jqr '.workloads[0].durability.verdict')" "-o $opt, dsync: not-durable"
	assert_match "^ext4 on $NB is mounted nobarrier: it sends no cache flush or FUA write to its device" \
		"$(jqr '.workloads[0].durability.reason')" "-o $opt: the reason names the file system and the option"
	rm -f "$SCRATCH/nb/f.dat"
	umount "$SCRATCH/nb"
done
# the same file system mounted with barriers: flushes reach the device
mount_dev "$NBDEV" "$SCRATCH/nb"
f0=$(flushes)
rb -n -e 4m -o write -b 4k -d 256k --sync dsync -y "$SCRATCH/nb/f.dat"
assert_num "with barriers: $NB saw flushes" "$(flushes) - $f0 > 0"
assert_eq durable "$(fd)" "with barriers, dsync: durable"
rm -f "$SCRATCH/nb/f.dat"
# a loop device over an image on the nobarrier ext4: the stack is read
# under it too
umount "$SCRATCH/nb"
mount_dev "$NBDEV" "$SCRATCH/nb" nobarrier
truncate -s 16M "$SCRATCH/nb/inner.img"
INNER=$(loop_from_image "$SCRATCH/nb/inner.img")
rb -n $W --sync fdatasync:1 "$INNER"
assert_eq not-durable "$(fd)" "a loop device over a file on the nobarrier ext4, fdatasync:1: not-durable"
losetup -d "$INNER"
umount "$SCRATCH/nb"
