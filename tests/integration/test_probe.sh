#!/usr/bin/env bash
# test_probe.sh - rebench --probe [--json] TARGET, and the alignment report
# of every run ("Layout:" line, .workloads[].target.alignment).
#
# On loop devices with 512- and 4096-byte logical sectors, partitioned at
# sector 63 and at sector 2048 (sfdisk counts logical sectors): the
# partition's type, disk, start and the exact misalignment to the physical
# sector, minimum I/O, 4 KiB and 1 MiB, in JSON and in the human report; the
# whole disk; files on ext2 (4 KiB, 1 KiB and default blocks) whose first
# extent is located independently with debugfs (and filefrag), each
# boundary judged by where the file's data sits (its extents, or its first
# extent for boundaries above the block size), never by where the
# filesystem starts, which is said apart; in_use of a mounted
# partition and of its disk; unreadable sysfs (an empty directory bound over
# queue/, /dev/null over queue/scheduler) degrading to null values with
# reasons; the write cache, FUA and rotational flag as sysfs has them (a disk,
# the disk under a file); a file on tmpfs (verdict unknown, with a reason); bad input; the
# same alignment in a real run's --json, in a sweep's --json per point and
# in the "Layout:" line; human --probe lines of at most 80 columns.
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq sfdisk partx mkfs.ext2 debugfs filefrag dumpe2fs mountpoint

M=1048576
J=

# ---------------------------------------------------------------- helpers

# part_disk SECTOR_SIZE START: a 64 MiB loop device with one DOS partition
# from logical sector START to the end.  Prints the disk.
part_disk() {
	local disk
	disk=$(make_loop 64M "$1") || exit 1
	printf 'label: dos\nstart=%s, type=83\n' "$2" |
		sfdisk -q "$disk" >"$SCRATCH/sfdisk.out" 2>&1 ||
		fail "sfdisk start=$2 on $disk failed" "$(<"$SCRATCH/sfdisk.out")"
	loop_partitions "$disk" || fail "partition node ${disk}p1 did not appear"
	printf '%s\n' "$disk"
}

# probe_json WHAT TARGET: rebench --probe --json TARGET; exit 0, valid
# JSON; the document is kept in J.  The last document's checks (jeq) are
# run first, while its rebench command is still the last one.
probe_json() {
	jq_flush
	rb --probe --json "$2"
	assert_rc 0 "$1: --probe --json exits 0"
	if <<<"$RB_OUT" jq -e . >/dev/null 2>&1; then
		pass "$1: --probe --json prints valid JSON"
	else
		check_failed "$1: --probe --json prints valid JSON" "$(<<<"$RB_OUT" head -n 5)"
	fi
	J=$RB_OUT
}

# jj FILTER: jq -r on the last probe_json document.
jj() { <<<"$J" jq -r "$1" 2>/dev/null; }

# jeq EXPECTED FILTER WHAT
jeq() { jq_later "$J" "$1" "$2" "$3"; }

# width_ok WHAT: no line of the last rebench stdout is wider than 80.
width_ok() {
	local -a wide
	mapfile -t wide < <(<<<"$RB_OUT" awk 'length > 80 { printf "%d cols: %s\n", length, $0 }')
	if [ ${#wide[@]} -eq 0 ]; then
		pass "$1: human --probe lines are at most 80 columns"
	else
		check_failed "$1: human --probe lines are at most 80 columns" "${wide[@]}"
	fi
}

# probe_human WHAT TARGET: rebench --probe TARGET exits 0, fits in 80
# columns; RB_OUT holds the report.
probe_human() {
	rb --probe "$2"
	assert_rc 0 "$1: --probe exits 0"
	assert_eq "" "$RB_ERR" "$1: --probe prints nothing on stderr"
	width_ok "$1"
}

# first_block DEV PATH: the filesystem block of file block 0, from the
# on-disk inode (debugfs), not from FIEMAP.
first_block() {
	sync
	debugfs -R "bmap $2 0" "$1" 2>/dev/null | tail -n 1
}

# fs_bsize DEV: the filesystem's block size, from its superblock.
fs_bsize() { dumpe2fs -h "$1" 2>/dev/null | awk -F': *' '/^Block size:/ { print $2 }'; }

# filefrag_first FILE: physical block of the extent at logical block 0.
filefrag_first() {
	filefrag -e -v "$1" 2>/dev/null |
		awk '$1 == "0:" && $2 == "0.." { sub(/\.\..*/, "", $4); print $4; exit }'
}

# ext2_on PART MNT [MKFS_OPTS...]: a fresh ext2 mounted on MNT.
ext2_on() {
	local part=$1 mnt=$2
	shift 2
	mkfs.ext2 -q -F "$@" "$part" >/dev/null 2>&1 || fail "mkfs.ext2 $* $part failed"
	try_mount "$part" "$mnt" noinit_itable || mount_dev "$part" "$mnt"
}

# ---------------------------------------------------------------- disks

D512_63=$(part_disk 512 63)
D512_2048=$(part_disk 512 2048)
D4K_63=$(part_disk 4096 63)
D4K_2048=$(part_disk 4096 2048)

section "partitions: start sector 63 and 2048 on 512- and 4096-byte sectors"
# disk sector start bytes sector512 phys min_io 4k 1m verdict
while read -r disk ss start bytes s512 mphys mmin m4k m1m verdict; do
	P=${disk}p1
	name=$(basename "$disk")
	what="$ss-byte sectors, start $start ($P)"
	probe_json "$what" "$P"
	jeq "partition" '.target.type' "$what: type"
	jeq "$P" '.target.path' "$what: path"
	jeq "$name" '.target.disk' "$what: disk"
	jeq "$bytes" '.target.partition_start' "$what: partition_start (bytes)"
	jeq "$s512" '.target.partition_start_sector' "$what: partition_start_sector (512-byte units)"
	jeq "$ss" '.target.logical_sector' "$what: logical_sector"
	jeq "$ss" '.target.physical_sector' "$what: physical_sector"
	jeq "$ss" '.target.min_io' "$what: min_io"
	jeq "0" '.target.opt_io' "$what: opt_io 0 (none reported)"
	jeq "0" '.target.alignment_offset' "$what: the partition's alignment_offset"
	jeq "0" '.target.drive_alignment_offset' "$what: drive_alignment_offset"
	jeq "$((64 * M - bytes))" '.target.size' "$what: size = disk size - start"
	jeq "null" '.target.in_use' "$what: in_use null (nothing mounted)"
	jeq "$verdict" '.target.alignment.verdict' "$what: verdict"
	jeq "partition start" '.target.alignment.basis' "$what: basis"
	jeq "$name" '.target.alignment.drive' "$what: alignment.drive"
	jeq "$bytes" '.target.alignment.drive_offset' "$what: alignment.drive_offset"
	jeq "0" '.target.alignment.drive_alignment_offset' "$what: alignment.drive_alignment_offset"
	jeq "null" '.target.alignment.why_unknown' "$what: alignment.why_unknown null"
	jeq "$ss $mphys" '.target.alignment.boundaries.physical_sector | "\(.bytes) \(.misaligned_by)"' \
		"$what: physical_sector misaligned_by $mphys"
	jeq "$ss $mmin" '.target.alignment.boundaries.min_io | "\(.bytes) \(.misaligned_by)"' \
		"$what: min_io misaligned_by $mmin"
	jeq "4096 $m4k" '.target.alignment.boundaries["4KiB"] | "\(.bytes) \(.misaligned_by)"' \
		"$what: 4KiB misaligned_by $m4k"
	jeq "1048576 $m1m" '.target.alignment.boundaries["1MiB"] | "\(.bytes) \(.misaligned_by)"' \
		"$what: 1MiB misaligned_by $m1m"
	jeq "$([ "$m4k" = 0 ] && echo true || echo false) $([ "$m1m" = 0 ] && echo true || echo false)" \
		'.target.alignment.boundaries | "\(.["4KiB"].aligned) \(.["1MiB"].aligned)"' \
		"$what: aligned flags of 4KiB and 1MiB"
	jeq "null null the device reports no optimal I/O size" \
		'.target.alignment.boundaries.opt_io | "\(.bytes) \(.misaligned_by) \(.why_unknown)"' \
		"$what: opt_io not checked: no optimal I/O size"
	jeq "false" '.target.alignment.boundaries.physical_sector | has("extents_misaligned")' \
		"$what: no extents_misaligned for a partition"
	jeq "null" '.target.model' "$what: model null (loop devices have none)"
	assert_match 'no device/ directory' "$(jj '.target.unknown.model')" "$what: unknown.model gives the reason"
	jeq "model" '.target.unknown | keys | join(",")' "$what: model is the only unknown field"

	probe_human "$what" "$P"
	assert_match "^$P: partition of $name, " "$RB_OUT" "$what: human header"
	assert_match "^  disk +/dev/$name\$" "$RB_OUT" "$what: human disk row"
	assert_match "^  start +byte $bytes: sector $s512 of 512 B\$" "$RB_OUT" "$what: human start row"
	if [ "$ss" = 4096 ]; then
		assert_match "^ += sector $start of 4096 B \(the disk's logical sector\)\$" "$RB_OUT" \
			"$what: human start in 4096-byte sectors"
	fi
	assert_match "^Alignment of the partition start, byte $bytes of $name\$" "$RB_OUT" \
		"$what: human alignment heading"
	if [ "$m4k" = 0 ]; then
		assert_match '^  4 KiB +4 KiB +aligned$' "$RB_OUT" "$what: human 4 KiB aligned"
	else
		assert_match "^  4 KiB +4 KiB +misaligned by $m4k B\$" "$RB_OUT" "$what: human 4 KiB misaligned by $m4k B"
	fi
	case $m1m in
	0) re='aligned' ;;
	258048) re='misaligned by 252 KiB' ;;	# exact IEC form of 258048
	*) re="misaligned by $m1m B" ;;
	esac
	assert_match "^  1 MiB +1 MiB +$re\$" "$RB_OUT" "$what: human 1 MiB $re"
	assert_match "^  physical sector +$([ "$ss" = 512 ] && echo '512 B' || echo '4 KiB') +aligned\$" "$RB_OUT" \
		"$what: human physical sector aligned"
	assert_match '^  optimal I/O +- +not checked: the device reports no optimal I/O' "$RB_OUT" \
		"$what: human optimal I/O not checked"
	assert_match "^Verdict: $verdict\. " "$RB_OUT" "$what: human verdict line"
	if [ "$verdict" = misaligned ]; then
		assert_match 'Start the partition at a multiple of 1 MiB' "$RB_OUT" "$what: human advice to re-create"
	fi
done <<EOF
$D512_63 512 63 32256 63 0 0 3584 32256 misaligned
$D512_2048 512 2048 1048576 2048 0 0 0 0 aligned
$D4K_63 4096 63 258048 504 0 0 0 258048 misaligned
$D4K_2048 4096 2048 8388608 16384 0 0 0 0 aligned
EOF

section "whole disks"
for disk in "$D512_63" "$D4K_63"; do
	name=$(basename "$disk")
	ss=$(blockdev --getss "$disk")
	what="whole disk $disk ($ss-byte sectors)"
	probe_json "$what" "$disk"
	jeq "block device" '.target.type' "$what: type"
	jeq "$name" '.target.disk' "$what: disk is itself"
	jeq "$((64 * M))" '.target.size' "$what: size"
	jeq "false false" '.target | "\(has("partition_start")) \(has("partition_start_sector"))"' \
		"$what: no partition_start keys"
	jeq "false" '.target.unknown | has("partition_start")' "$what: partition_start not listed as unknown"
	jeq "null" '.target.in_use' "$what: in_use null"
	jeq "aligned" '.target.alignment.verdict' "$what: verdict aligned"
	jeq "device start" '.target.alignment.basis' "$what: basis"
	jeq "0" '.target.alignment.drive_offset' "$what: drive_offset 0"
	jeq "0 0 0 0" '.target.alignment.boundaries | [.physical_sector, .min_io, .["4KiB"], .["1MiB"]] | map(.misaligned_by) | join(" ")' \
		"$what: misaligned_by 0 everywhere"
	# the flush-related queue attributes, as sysfs has them
	q=/sys/block/$name/queue
	want_rot=$([ "$(<"$q/rotational")" = 1 ] && echo true || echo false)
	want_fua=$([ "$(<"$q/fua")" = 1 ] && echo true || echo false)
	jeq "$want_rot|$(<"$q/write_cache")|$want_fua" '.target | "\(.rotational)|\(.write_cache)|\(.fua)"' \
		"$what: rotational, write_cache, fua as in $q"
	probe_human "$what" "$disk"
	assert_match "^  rotational +$([ "$want_rot" = true ] && echo yes || echo no)\$" "$RB_OUT" "$what: human rotational row"
	assert_match "^  write cache +$(<"$q/write_cache")\$" "$RB_OUT" "$what: human write cache row"
	assert_match "^  FUA +$([ "$want_fua" = true ] && echo 'yes \(' || echo 'no$')" "$RB_OUT" "$what: human FUA row"
	assert_match "^$disk: block device $name, 64 MiB \(67108864 bytes\)\$" "$RB_OUT" "$what: human header"
	assert_no_match '^Partition$' "$RB_OUT" "$what: no Partition section"
	assert_match "^Alignment of the device start, byte 0 of $name\$" "$RB_OUT" "$what: human alignment heading"
	assert_match '^  in use +no$' "$RB_OUT" "$what: human in use: no"
	assert_match '^Verdict: aligned\. ' "$RB_OUT" "$what: human verdict aligned"
done

section "files on ext2 on the start-63 partition (512-byte sectors)"
P=${D512_63}p1
PN=$(basename "$P")
DN=$(basename "$D512_63")
MNT=$SCRATCH/mnt63
ext2_on "$P" "$MNT" -b 4096
F=$MNT/data
rb -e 8m -d 100ms --yes "$F"
assert_rc 0 "rebench -e 8m creates $F on ext2 (4 KiB blocks)"
bs=$(fs_bsize "$P")
assert_eq 4096 "$bs" "ext2 block size 4096 (dumpe2fs)"
blk=$(first_block "$P" /data)
ff=$(filefrag_first "$F")
assert_eq "$blk" "$ff" "debugfs and filefrag agree on the first block ($blk)"
exp=$((32256 + blk * bs))
what="ext2 4 KiB blocks, start 63"
probe_json "$what" "$F"
jeq "file" '.target.type' "$what: type"
jeq "ext2" '.target.file.filesystem' "$what: filesystem"
jeq "4096" '.target.file.fs_block_size' "$what: file.fs_block_size"
jeq "$PN" '.target.file.device' "$what: device is the partition"
jeq "32256" '.target.file.device_start' "$what: device_start"
jeq "$DN" '.target.disk' "$what: disk"
jeq "false" '.target | has("in_use")' "$what: no in_use for a file"
jeq "$(<"/sys/block/$DN/queue/write_cache") $(<"/sys/block/$DN/queue/fua")" \
	'.target | "\(.write_cache) \(if .fua then 1 else 0 end)"' \
	"$what: write_cache and fua of the disk under the file"
jeq "$((blk * bs))" '.target.file.extents[0].device_offset' "$what: first extent device_offset = block $blk x $bs"
jeq "$exp" '.target.file.extents[0].drive_offset' "$what: first extent drive_offset"
jeq "0" '.target.file.extents[0].file_offset' "$what: first extent at file offset 0"
jeq "true" '.target.file.extents | all(.drive_offset == .device_offset + 32256)' \
	"$what: every extent's drive_offset = device_offset + 32256"
jeq "$((8 * M))" '.target.file.extents | map(.length) | add' "$what: extents cover the 8 MiB"
jeq "null" '.target.file.why_unknown' "$what: file.why_unknown null"
jeq "first extent" '.target.alignment.basis' "$what: basis"
jeq "$exp" '.target.alignment.drive_offset' "$what: alignment.drive_offset = device_start + first extent"
jeq "0" '.target.alignment.file_offset' "$what: alignment.file_offset"
jeq "$(jj '.target.file.extents | length')" '.target.alignment.extents_judged' "$what: extents_judged = extents listed"
jeq "$((exp % 4096))" '.target.alignment.boundaries["4KiB"].misaligned_by' "$what: 4KiB misaligned_by = offset mod 4096"
jeq "3584" '.target.alignment.boundaries["4KiB"].misaligned_by' "$what: 4KiB misaligned_by 3584"
# boundaries above the fs block (and 4 KiB) are judged by the first
# extent, where the data starts; the filesystem's start is said beside it
jeq "$((exp % M)) first extent 32256" '.target.alignment.boundaries["1MiB"] | "\(.misaligned_by) \(.judged_by) \(.filesystem_start_misaligned_by)"' \
	"$what: 1MiB judged by the first extent: $exp mod 1 MiB; the filesystem's start 32256 off"
jeq "32256" '.target.alignment.filesystem_start' "$what: alignment.filesystem_start"
jeq "extents" '.target.alignment.boundaries["4KiB"].judged_by' "$what: 4KiB judged by the extents"
jeq "$(jj '.target.alignment.extents_judged')" '.target.alignment.boundaries["4KiB"].extents_misaligned' \
	"$what: every extent misaligned to 4 KiB"
jeq "0 0" '.target.alignment.boundaries | "\(.physical_sector.misaligned_by) \(.physical_sector.extents_misaligned)"' \
	"$what: physical sector aligned"
jeq "misaligned" '.target.alignment.verdict' "$what: verdict"
probe_human "$what" "$F"
assert_match "^Drive under the filesystem: $DN\$" "$RB_OUT" "$what: human drive line"
assert_match '^  filesystem +ext2, 4 KiB blocks$' "$RB_OUT" "$what: human filesystem row"
assert_match "^  device +/dev/$PN, from byte 32256 of $DN\$" "$RB_OUT" "$what: human device row"
assert_match "^Alignment of the first extent, byte $exp of $DN\$" "$RB_OUT" "$what: human alignment heading"
assert_match '^  4 KiB +4 KiB +misaligned by 3584 B \([0-9]+ of [0-9]+ extents\)$' "$RB_OUT" "$what: human 4 KiB misaligned by 3584 B"
assert_match '^Verdict: misaligned\. The partition under this filesystem starts at byte 32256' "$RB_OUT" \
	"$what: human verdict blames the partition"

section "a file whose first extent is not at file offset 0"
S=$MNT/sparse
truncate -s 1M "$S"
dd if=/dev/urandom of="$S" bs=4k count=1 seek=16 conv=notrunc status=none
sync
sblk=$(debugfs -R "bmap /sparse 16" "$P" 2>/dev/null | tail -n 1)
sexp=$((32256 + sblk * 4096))
what="sparse file, data at 64 KiB"
probe_json "$what" "$S"
jeq "65536" '.target.file.extents[0].file_offset' "$what: first extent file_offset 65536"
jeq "$sexp" '.target.alignment.drive_offset' "$what: drive_offset of file block 16 (debugfs block $sblk)"
jeq "65536" '.target.alignment.file_offset' "$what: alignment.file_offset"
jeq "$(( (sexp - 65536) % 4096 ))" '.target.alignment.boundaries["4KiB"].misaligned_by' \
	"$what: 4KiB misaligned_by = (drive offset - file offset) mod 4096"
jeq "$(( (sexp - 65536) % M ))" '.target.alignment.boundaries["1MiB"].misaligned_by' \
	"$what: 1MiB misaligned_by = (drive offset - file offset) mod 1 MiB, not the filesystem's start"
probe_human "$what" "$S"
assert_match "^Alignment of the first extent, byte $sexp of $DN \(file offset 65536\)\$" "$RB_OUT" \
	"$what: human heading names the file offset"

section "in use: the mounted partition and its disk"
probe_json "mounted $P" "$P"
assert_match "mounted on $MNT" "$(jj '.target.in_use')" "mounted partition: in_use names the mount point"
jeq "misaligned" '.target.alignment.verdict' "mounted partition: still probed (verdict)"
probe_human "mounted $P" "$P"
assert_match '^  in use +.*mounted' "$RB_OUT" "mounted partition: human in use row"
probe_json "disk of mounted $P" "$D512_63"
assert_ne "null" "$(jj '.target.in_use')" "disk of a mounted partition: in_use not null"
assert_match "$PN.*mounted on $MNT" "$(jj '.target.in_use')" "disk: in_use names the partition and mount point"
probe_human "disk of mounted $P" "$D512_63"
assert_match '^  in use +.*mounted' "$RB_OUT" "disk: human in use row"
probe_json "file on mounted $P" "$F"
jeq "false" '.target | has("in_use")' "file probe: no in_use key"

section "a real run and a sweep carry the same alignment"
probe_json "probe of $P for comparison" "$P"
palign=$(jj '.target.alignment' | jq -S -c .)
rb -d 200ms --json "$P"
assert_rc 0 "rebench -d 200ms --json $P: exit 0"
assert_eq "$palign" "$(jqr '.workloads[0].target.alignment' | jq -S -c .)" \
	"run --json .workloads[0].target.alignment equals the probe's"
assert_eq "partition 32256" "$(jqr '.workloads[0].target | "\(.type) \(.partition_start)"')" \
	"run --json target: type and partition_start"
rb -d 200ms "$P"
assert_rc 0 "rebench -d 200ms $P: exit 0"
assert_eq 1 "$(<<<"$RB_OUT" grep -c '^Layout: ')" "human run: exactly one Layout line"
assert_eq "Layout: partition $PN of $DN at byte 32256: misaligned to 4 KiB by 3584 B, 1 MiB by 32256 B; aligned to physical sector (512 B), minimum I/O (512 B); no optimal I/O size" \
	"$(<<<"$RB_OUT" grep '^Layout: ')" "human run: Layout line"
assert_match '^\[duration' "$(<<<"$RB_OUT" grep -B1 '^Layout: ' | head -n 1)" \
	"human run: Layout follows the parameter line"
rb -d 200ms "${D512_2048}p1"
assert_eq "Layout: partition $(basename "$D512_2048")p1 of $(basename "$D512_2048") at byte 1048576: aligned to physical sector (512 B), minimum I/O (512 B), 4 KiB, 1 MiB; no optimal I/O size" \
	"$(<<<"$RB_OUT" grep '^Layout: ')" "human run on the aligned partition: Layout line"
rb -d 200ms "$D512_2048"
assert_match "^Layout: whole device $(basename "$D512_2048") at byte 0: aligned to " "$RB_OUT" \
	"human run on a whole disk: Layout line"
rb -d 200ms "$F"
assert_rc 0 "rebench -d 200ms on the ext2 file: exit 0"
assert_match "^Layout: file on ext2 \(4 KiB blocks\) on $PN, first extent at byte $exp of $DN; judged by its [0-9]+ extents?: misaligned to 4 KiB by 3584 B; aligned to physical sector \(512 B\), minimum I/O \(512 B\); judged by its first extent: (misaligned to 1 MiB by [0-9]+ (B|KiB)|aligned to 1 MiB); the filesystem starts at byte 32256 of $DN: misaligned to 1 MiB by 32256 B; no optimal I/O size\$" \
	"$RB_OUT" "human run on the file: Layout line, each verdict with what it is judged by"
rb -d 200ms --json "$F"
assert_eq "$exp 3584" "$(jqr '.workloads[0].target.alignment | "\(.drive_offset) \(.boundaries["4KiB"].misaligned_by)"')" \
	"run --json on the file: drive_offset and 4KiB misaligned_by"
rb -b 4k,8k -d 100ms --json "${D4K_63}p1"
assert_rc 0 "sweep -b 4k,8k --json on the 4096-sector start-63 partition: exit 0"
assert_eq 2 "$(jqr '.sweep.runs | length')" "sweep: two points"
assert_eq "misaligned 258048|misaligned 258048" \
	"$(jqr '[.sweep.runs[].workloads[0].target.alignment | "\(.verdict) \(.boundaries["1MiB"].misaligned_by)"] | join("|")')" \
	"sweep: every point carries target.alignment (1MiB misaligned_by 258048)"
rb -b 4k -d 200ms "${D4K_63}p1"
assert_match "^Layout: partition $(basename "$D4K_63")p1 of $(basename "$D4K_63") at byte 258048: misaligned to 1 MiB by 252 KiB; aligned to physical sector \(4 KiB\), minimum I/O \(4 KiB\), 4 KiB; no optimal I/O size\$" \
	"$RB_OUT" "human run on the 4096-sector start-63 partition: Layout line"

section "ext2 with its default block size on the start-63 partition"
umount "$MNT" || fail "umount $MNT"
ext2_on "$P" "$MNT"
F1=$MNT/data
rb -e 8m -d 100ms --yes "$F1"
assert_rc 0 "rebench -e 8m creates a file on ext2 (default block size)"
bs=$(fs_bsize "$P")
blk=$(first_block "$P" /data)
assert_eq "$blk" "$(filefrag_first "$F1")" "debugfs and filefrag agree on the first block ($blk)"
exp=$((32256 + blk * bs))
what="ext2 $bs-byte blocks, start 63"
probe_json "$what" "$F1"
jeq "ext2" '.target.file.filesystem' "$what: filesystem"
jeq "$bs" '.target.file.fs_block_size' "$what: fs_block_size from statfs = dumpe2fs"
jeq "$PN 32256" '.target.file | "\(.device) \(.device_start)"' "$what: device and device_start"
jeq "$exp" '.target.alignment.drive_offset' "$what: drive_offset = 32256 + $blk x $bs"
jeq "$((exp % 4096))" '.target.alignment.boundaries["4KiB"].misaligned_by' "$what: 4KiB misaligned_by = $((exp % 4096))"
jeq "$((exp % M))" '.target.alignment.boundaries["1MiB"].misaligned_by' "$what: 1MiB misaligned_by (first extent)"
jeq "$(jj '[.target.file.extents[] | select((.drive_offset - .file_offset) % 4096 != 0)] | length')" \
	'.target.alignment.boundaries["4KiB"].extents_misaligned' "$what: 4KiB extents_misaligned counts the listed extents"
jeq "misaligned" '.target.alignment.verdict' "$what: verdict"
probe_human "$what" "$F1"
assert_match "^  filesystem +ext2, $( [ "$bs" = 1024 ] && echo '1 KiB' || echo "$bs B") blocks\$" "$RB_OUT" "$what: human filesystem row"
umount "$MNT" || fail "umount $MNT"

section "ext2 with 4 KiB blocks on the start-2048 partition"
P2=${D512_2048}p1
MNT2=$SCRATCH/mnt2048
ext2_on "$P2" "$MNT2" -b 4096
F2=$MNT2/data
rb -e 8m -d 100ms --yes "$F2"
assert_rc 0 "rebench -e 8m creates a file on the aligned partition"
blk=$(first_block "$P2" /data)
exp=$((M + blk * 4096))
what="ext2 4 KiB blocks, start 2048"
probe_json "$what" "$F2"
jeq "1048576" '.target.file.device_start' "$what: device_start"
jeq "$exp" '.target.alignment.drive_offset' "$what: drive_offset = 1 MiB + $blk x 4096"
jeq "0 0 0" '.target.alignment.boundaries | [.physical_sector, .min_io, .["4KiB"]] | map(.misaligned_by) | join(" ")' \
	"$what: aligned to physical sector, minimum I/O, 4 KiB"
jeq "0 0 0" '.target.alignment.boundaries | [.physical_sector, .min_io, .["4KiB"]] | map(.extents_misaligned) | join(" ")' \
	"$what: no extent misaligned to physical sector, minimum I/O, 4 KiB"
jeq "$((exp % M)) first extent 0" '.target.alignment.boundaries["1MiB"] | "\(.misaligned_by) \(.judged_by) \(.filesystem_start_misaligned_by)"' \
	"$what: 1MiB judged by the first extent ($exp mod 1 MiB); the filesystem's start aligned"
# the partition is aligned, but whether the file is depends on where its
# data went: 1 MiB is judged by the first extent
if [ $((exp % M)) = 0 ]; then v=aligned; else v=misaligned; fi
jeq "$v" '.target.alignment.verdict' "$what: verdict $v (first extent $exp)"
probe_human "$what" "$F2"
assert_match '^  4 KiB +4 KiB +aligned \(every extent\)$' "$RB_OUT" "$what: human 4 KiB aligned (every extent)"

section "ext2 with 1 KiB blocks from byte 0 of a whole device"
# The case that misled: the filesystem starts at byte 0, aligned to 1 MiB,
# but the file's data sits a few KiB past a 1 MiB boundary; the Layout line
# said "aligned to ... 1 MiB".  Each verdict now says what it is judged by.
D1K=$(make_loop 64M)
N1K=$(basename "$D1K")
MNT1K=$SCRATCH/mnt1k
ext2_on "$D1K" "$MNT1K" -b 1024
F3=$MNT1K/data
dd if=/dev/urandom of="$F3" bs=1M count=4 status=none
sync
assert_eq 1024 "$(fs_bsize "$D1K")" "ext2 block size 1024 (dumpe2fs)"
blk=$(first_block "$D1K" /data)
assert_eq "$blk" "$(filefrag_first "$F3")" "debugfs and filefrag agree on the first block ($blk)"
exp=$((blk * 1024))
off=$((exp % M))
if [ $((off % 1024)) = 0 ] && [ "$off" -ge 1024 ]; then offtxt="$((off / 1024)) KiB"; else offtxt="$off B"; fi
what="ext2 1 KiB blocks at byte 0, data at byte $exp"
probe_json "$what" "$F3"
jeq "$N1K 0 0" '.target.file | "\(.device) \(.device_start) \(.extents[0].file_offset)"' "$what: device $N1K from byte 0; first extent at file offset 0"
jeq "$exp" '.target.alignment.drive_offset' "$what: drive_offset = block $blk x 1024"
jeq "$off first extent 0" '.target.alignment.boundaries["1MiB"] | "\(.misaligned_by) \(.judged_by) \(.filesystem_start_misaligned_by)"' \
	"$what: 1MiB misaligned by $off (the first extent); the filesystem's start aligned"
jeq "$((exp % 4096)) extents" '.target.alignment.boundaries["4KiB"] | "\(.misaligned_by) \(.judged_by)"' \
	"$what: 4KiB judged by the extents"
rb -d 100ms "$F3"
assert_rc 0 "a run on the 1 KiB-block file exits 0"
layout=$(<<<"$RB_OUT" grep '^Layout: ')
assert_match "^Layout: file on ext2 \(1 KiB blocks\) on $N1K, first extent at byte $exp of $N1K; judged by its [0-9]+ extents?: " \
	"$layout" "Layout: the first extent's drive byte, then the verdicts judged by the extents"
if [ "$off" = 0 ]; then
	assert_match "; judged by its first extent: aligned to 1 MiB; " "$layout" \
		"Layout: 1 MiB judged by the first extent (aligned: block $blk)"
else
	assert_match "; judged by its first extent: misaligned to 1 MiB by $offtxt; " "$layout" \
		"Layout: 1 MiB judged by the first extent: misaligned by $offtxt"
	assert_no_match "aligned to [^;]*1 MiB; the filesystem" "$layout" \
		"Layout: no 'aligned to 1 MiB' for the file's data"
fi
assert_match "; the filesystem starts at byte 0 of $N1K: aligned to 1 MiB; no optimal I/O size\$" "$layout" \
	"Layout: the filesystem's start, said apart as what it is"
probe_human "$what" "$F3"
if [ "$off" != 0 ]; then
	assert_match "^  1 MiB +1 MiB +misaligned by $offtxt \(the first extent; the\$" "$RB_OUT" \
		"$what: --probe's 1 MiB row judges the first extent"
fi
umount "$MNT1K" || fail "umount $MNT1K"

section "unreadable sysfs: empty directory over queue/, /dev/null over one file"
EMPTY=$SCRATCH/empty
mkdir -p "$EMPTY"
_register mounts "$EMPTY"
mount -t tmpfs -o size=1m,mode=755 rebench-empty "$EMPTY" || fail "cannot mount a tmpfs on $EMPTY"
N=$(basename "$D4K_63")
Q=/sys/block/$N/queue
# registered first: the cleanup trap unmounts it (before the loop device
# is detached) whatever happens next
_register mounts "$Q"
mount --bind "$EMPTY" "$Q" || fail "cannot bind $EMPTY over $Q"
[ -z "$(ls -A "$Q")" ] || fail "$Q still lists files"
for tgt in "$D4K_63" "${D4K_63}p1"; do
	what="$tgt with queue/ empty"
	probe_json "$what" "$tgt"
	jeq "null null null null null" '.target | "\(.rotational) \(.scheduler) \(.write_cache) \(.fua) \(.discard_granularity)"' \
		"$what: rotational, scheduler, write_cache, fua, discard_granularity null"
	for k in rotational scheduler write_cache fua discard_granularity; do
		assert_match "^cannot read /sys/.*/$N/queue/$k: " "$(jj ".target.unknown.$k")" "$what: unknown.$k names the path"
	done
	jeq "4096 4096" '.target | "\(.logical_sector) \(.physical_sector)"' "$what: sector sizes still known (ioctls)"
	probe_human "$what" "$tgt"
	assert_match '^  rotational +unknown: cannot read' "$RB_OUT" "$what: human rotational unknown with the reason"
	assert_match '^  scheduler +unknown: cannot read' "$RB_OUT" "$what: human scheduler unknown with the reason"
	assert_match '^  FUA +unknown: cannot read' "$RB_OUT" "$what: human FUA unknown with the reason"
done
probe_json "${D4K_63}p1 with queue/ empty" "${D4K_63}p1"
jeq "misaligned 258048" '.target.alignment | "\(.verdict) \(.boundaries["1MiB"].misaligned_by)"' \
	"partition with queue/ empty: the verdict does not need queue/"
umount "$Q" || fail "umount $Q"

# A file's sector sizes come from sysfs only: hide the queue of the disk
# under the mounted ext2 (4 KiB blocks, start 2048).
N2=$(basename "$D512_2048")
Q2=/sys/block/$N2/queue
_register mounts "$Q2"
mount --bind "$EMPTY" "$Q2" || fail "cannot bind $EMPTY over $Q2"
what="file on $N2 with queue/ empty"
probe_json "$what" "$F2"
jeq "null null null" '.target | "\(.logical_sector) \(.physical_sector) \(.min_io)"' "$what: sector sizes null"
assert_match "^cannot read /sys/.*/$N2/queue/physical_block_size" "$(jj '.target.unknown.physical_sector')" \
	"$what: unknown.physical_sector names the path"
jeq "null null" '.target.alignment.boundaries.physical_sector | "\(.bytes) \(.aligned)"' "$what: physical boundary not checked"
assert_match '^physical sector size unknown: cannot read' \
	"$(jj '.target.alignment.boundaries.physical_sector.why_unknown')" "$what: physical boundary gives the reason"
jeq "4096 0" '.target.alignment.boundaries["4KiB"] | "\(.bytes) \(.misaligned_by)"' "$what: 4 KiB still judged"
probe_human "$what" "$F2"
assert_match '^  physical sector +- +not checked: physical sector size unknown' "$RB_OUT" \
	"$what: human physical sector not checked"
umount "$Q2" || fail "umount $Q2"

SCHED=/sys/block/$N/queue/scheduler
_register mounts "$SCHED"
mount --bind /dev/null "$SCHED" || fail "cannot bind /dev/null over $SCHED"
what="$D4K_63 with an empty queue/scheduler"
probe_json "$what" "$D4K_63"
jeq "null" '.target.scheduler' "$what: scheduler null"
assert_match "^/sys/.*/$N/queue/scheduler is empty\$" "$(jj '.target.unknown.scheduler')" "$what: unknown.scheduler says it is empty"
jeq "boolean" '.target.rotational | type' "$what: rotational still read"
probe_human "$what" "$D4K_63"
# the row wraps where the device's name makes it (loop11: 'is' and 'empty'
# on two lines), so read it as one line
assert_match 'scheduler +unknown: /sys/[^ ]*/queue/scheduler is empty' "$(<<<"$RB_OUT" tr -s ' \n' '  ')" \
	"$what: human scheduler row says empty"
umount "$SCHED" || fail "umount $SCHED"
probe_json "$D4K_63 after the unmounts" "$D4K_63"
jeq "false" '.target.unknown | has("scheduler")' "queue/ readable again: scheduler known"

section "a file on tmpfs"
TMPD=$SCRATCH/tmpfs
mkdir -p "$TMPD"
_register mounts "$TMPD"
mount -t tmpfs -o size=8m rebench-tmpfs "$TMPD" || fail "cannot mount a tmpfs on $TMPD"
TF=$TMPD/data
head -c $M /dev/urandom >"$TF"
what="file on tmpfs"
probe_json "$what" "$TF"
jeq "file" '.target.type' "$what: type"
jeq "tmpfs" '.target.file.filesystem' "$what: filesystem tmpfs"
jeq "null" '.target.file.extents' "$what: extents null"
assert_match 'FIEMAP' "$(jj '.target.file.why_unknown')" "$what: file.why_unknown says FIEMAP failed"
jeq "unknown" '.target.alignment.verdict' "$what: verdict unknown"
jeq "null" '.target.alignment.drive_offset' "$what: drive_offset null"
assert_ne "null" "$(jj '.target.alignment.why_unknown')" "$what: alignment.why_unknown gives a reason"
jeq "null null" '.target.alignment.boundaries["4KiB"] | "\(.aligned) \(.misaligned_by)"' "$what: 4KiB not judged"
jeq "null null" '.target | "\(.logical_sector) \(.physical_sector)"' "$what: sector sizes null"
# The reason must be the real one (no block device under tmpfs), not the
# placeholder every field starts with.
assert_match 'not on a block device|tmpfs' "$(jj '.target.unknown.logical_sector')" \
	"$what: unknown.logical_sector says the filesystem has no block device"
assert_no_match 'not probed' "$(jj '.target.alignment.why_unknown')" "$what: alignment.why_unknown is not 'not probed'"
probe_human "$what" "$TF"
assert_match '^Verdict: unknown: ' "$RB_OUT" "$what: human verdict unknown"

section "bad input"
rb --probe </dev/null
assert_rc 1 "--probe without a target: exit 1"
assert_match -- '--probe needs a TARGET' "$RB_ERR" "--probe without a target: message"
assert_refused "--probe -b 4k" '--probe measures nothing, so --block-size has no meaning' --probe -b 4k "$D512_2048"
assert_eq "" "$RB_OUT" "--probe -b 4k: nothing on stdout"
assert_refused "--probe -d 1" '--duration has no meaning' --probe -d 1 "$D512_2048"
assert_refused "--probe --json -o write" '--operation has no meaning' --probe --json -o write "$D512_2048"
assert_eq "" "$RB_OUT" "--probe --json -o write: nothing on stdout"
assert_refused "--probe with a range" '--block-size has no meaning' --probe -b 4k,8k "$D512_2048"
assert_refused "--probe --plot" '--probe takes only a TARGET' --probe --plot "$SCRATCH/p.png" "$D512_2048"
assert_refused "--probe -n" '--probe takes only a TARGET' --probe -n "$D512_2048"
assert_refused "--probe on a missing file" "cannot probe $SCRATCH/nothing: No such file or directory" --probe "$SCRATCH/nothing"
[ -e "$SCRATCH/nothing" ] && check_failed "--probe does not create a missing file" || pass "--probe does not create a missing file"
assert_refused "--probe in a missing directory" "$SCRATCH/nodir/x" --probe "$SCRATCH/nodir/x"
assert_refused "--probe /dev/null (character device)" 'neither a block device nor a regular file' --probe /dev/null
assert_refused "--probe --json /dev/null" 'neither a block device nor a regular file' --probe --json /dev/null
assert_eq "" "$RB_OUT" "--probe --json /dev/null: nothing on stdout"
assert_refused "--probe of a directory" 'neither a block device nor a regular file' --probe "$SCRATCH"
