#!/usr/bin/env bash
# partition-alignment.sh - what a partition's alignment costs, measured.
#
# The study behind 4 KiB alignment: partitioning tools once started the
# first partition at sector 63 (byte 32256, not a multiple of 4096), and
# reads on SSDs were up to 15% slower there than on a partition starting at
# a 4 KiB multiple (today sector 2048, 1 MiB).  This script measures five
# configurations on one scratch device:
#
#   raw      the whole device
#   p63      a partition starting at sector 63
#   p2048    a partition starting at sector 2048
#   ext2-63  a file on ext2 on the sector-63 partition
#   ext2-2048  a file on ext2 on the sector-2048 partition
#
# Each runs rebench's block size x alignment sweep (random reads, block
# sizes and strides from 1 to N logical sectors).  rebench --probe records
# each configuration's geometry and alignment verdict.  The script writes a
# table and a JSON document per configuration, compare.tsv (each
# configuration against the aligned partition, by rebench --compare), a
# multiplot (one heatmap per configuration, one colour scale), a
# drill-down (one-sector reads by alignment, one line per configuration)
# and an offset drill-down: 8-sector reads at an 8-sector stride from
# offsets 0 to 7 sectors past the target's start (NAME.offset.tsv,
# offset.png), where a partition that moves the drive's units by a sector
# shows as its curve shifted by a sector.  Sectors are the device's logical sectors, as sfdisk
# counts them: on a 4096-byte-sector device "sector 63" is byte 258048.
#
# With DEVICE, that whole disk is repartitioned twice and erased (after a
# confirmation).  Without, a loop device over an image file stands in: it
# is filled with data first, since reading a sparse image measures nothing.
# With --model, a model device stands in (workloads/model-device.sh: a
# model SSD or disk whose page, channel or head times are known, so the
# cost of a layout is there to be found; it is not filled: a model's reads
# cost the same whether written or not), and NAME.counters holds the
# model's counters over each configuration's sweep (TSV: counter, before,
# after, delta).
#
#   sudo workloads/partition-alignment.sh [OPTIONS] [DEVICE]
#   sudo workloads/partition-alignment.sh [OPTIONS] --model MODEL
#
#   -o DIR            where tables, probes and plots go [./partition-alignment];
#                     an existing directory or a new name in one
#   -d D              duration of each sweep point, as rebench -d [5]
#   -n N              grid of N x N points (sizes 1..N sectors) [8]
#   -f SIZE           size of the ext2 file [1g, capped to fit]
#   --size SIZE       image size without DEVICE [3g]; with --model, the
#                     model device's [256m] (its data is kept in memory)
#   --sector-size S   logical sector of the image's loop device: 512 or 4096
#   --keep-image      keep the image file (in DIR) after the study
#   --model MODEL     bring up a model device (ssd:read=500us; see
#                     model-device.sh and rebench-modeldev --help) instead
#                     of the image, and remove it at the end
#   --drill-size S    block size of the drill-down [one logical sector]
#   -y, --yes         do not ask before erasing DEVICE
#   -h, --help
#
# Environment: REBENCH (the rebench binary), REBENCH_PLOTS (the plots/
# folder); with --model, model-device.sh's REBENCH_MODELDEV.  Exit status:
# 0 done, 1 bad arguments or refused (a bad MODEL too), 2 a step failed.
# Everything the script creates (mounts, loop devices, the image, the model
# device) is removed on every exit path; a DEVICE stays partitioned as the
# last configuration left it.
set -euo pipefail

prog=partition-alignment.sh
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }
fail() { printf '%s: %s\n' "$prog" "$*" >&2; exit 2; }
say() { printf '%s: %s\n' "$prog" "$*" >&2; }

usage() { sed -n '/^#   sudo/,/^#   -h/p' "$0" | sed 's/^# \{0,1\}//'; }

out=./partition-alignment dur=5 grid=8 fsize=1g isize= sector=
keep=0 yes=0 device= mspec= drill=
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=${2:?-o needs a directory}; shift ;;
	-d) dur=${2:?-d needs a duration}; shift ;;
	-n) grid=${2:?-n needs a number}; shift ;;
	-f) fsize=${2:?-f needs a size}; shift ;;
	--size) isize=${2:?--size needs a size}; shift ;;
	--sector-size) sector=${2:?--sector-size needs 512 or 4096}; shift ;;
	--keep-image) keep=1 ;;
	--model) mspec=${2:?--model needs a MODEL, such as ssd:read=500us}; shift ;;
	--drill-size) drill=${2:?--drill-size needs a block size}; shift ;;
	-y|--yes) yes=1 ;;
	-h|--help) usage; exit 0 ;;
	-*) die "unknown option $1 (see $prog --help)" ;;
	*) [ -z "$device" ] || die "one DEVICE only: $device and $1"
	   device=$1 ;;
	esac
	shift
done
case $grid in ''|*[!0-9]*) die "-n $grid: give a whole number from 2 to 16" ;; esac
[ "$grid" -ge 2 ] && [ "$grid" -le 16 ] || die "-n $grid: give a whole number from 2 to 16"
case ${sector:-512} in 512|4096) ;; *) die "--sector-size $sector: give 512 or 4096" ;; esac
[ -z "$device" ] || [ -z "$sector" ] || die "--sector-size applies to the image only; $device has its own sectors"
if [ -n "$mspec" ]; then
	[ -z "$device" ] || die "--model and $device: give one; --model brings up a model device of its own and partitions that"
	[ -z "$sector" ] || die "--sector-size applies to the image only; a model device's sector is in MODEL (ssd:sector=4096,...)"
	[ "$keep" = 0 ] || die "--keep-image applies to the image only; a model device's data is in memory and goes with it"
fi
[ -n "$isize" ] || { [ -n "$mspec" ] && isize=256m || isize=3g; }
if [ -n "$drill" ]; then
	b=$(numfmt --from=iec "${drill^^}" 2>/dev/null) && [ "$b" -gt 0 ] 2>/dev/null ||
		die "--drill-size $drill: not a size; give one of the grid's block sizes (4096, 4k)"
	drill=$b
fi
[ "$(id -u)" = 0 ] || die "needs root: it partitions, formats and mounts (run with sudo)"

# Every path the study writes is a regular file or a new name in an
# existing directory: checked now, before anything is run or created.
# shellcheck source=SCRIPTDIR/lib-outpath.sh
. "$(dirname "$0")/lib-outpath.sh"
# shellcheck source=SCRIPTDIR/lib-units.sh
. "$(dirname "$0")/lib-units.sh"
names=(raw p63 p2048 ext2-63 ext2-2048)
outs=(multiplot.list drilldown.list offset.list multiplot.png drilldown.png
	offset.png summary.tsv compare.tsv)
for n in "${names[@]}"; do
	outs+=("$n.probe.json" "$n.tsv" "$n.tsv.matrix" "$n.tsv.matrix.noise"
		"$n.json" "$n.offset.tsv")
	[ -z "$mspec" ] || outs+=("$n.counters")
done
[ -n "$device" ] || [ -n "$mspec" ] || outs+=(partition-alignment.img)
outpath_check_all "$out" "the study's output" "${outs[@]}" || exit 1

# the clone's or the installed rebench and plots/ (lib-locate.sh says how)
# shellcheck source=SCRIPTDIR/lib-locate.sh
. "$(dirname "$0")/lib-locate.sh"
rebench_locate alignment-multiplot.gp || exit 1
for c in sfdisk partx mkfs.ext2 mount umount jq gnuplot losetup blockdev; do
	command -v "$c" >/dev/null ||
		die "$c is missing: apt-get install fdisk util-linux e2fsprogs jq gnuplot-nox"
done

# Validate the sizes and the duration with rebench's own parser, before
# anything is created: a probe of nothing is cheap, a typo at step 4 is not.
"$rebench" -d "$dur" --help >/dev/null ||
	die "-d $dur: not a duration rebench accepts"

mkdir -p -- "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
mnt= loop= image= mdev=
# model-device.sh beside this script (a clone's workloads/ or the
# installed copy)
md=$(cd "$(dirname "$0")" && pwd)/model-device.sh
cleanup() {
	local st=$?
	if [ -n "$mnt" ]; then
		# a rebench stopped by the same signal may still hold a file
		if mountpoint -q "$mnt"; then
			umount "$mnt" 2>/dev/null || { sleep 1; umount "$mnt"; } ||
				say "could not unmount $mnt"
		fi
		rmdir "$mnt" 2>/dev/null || true
	fi
	if [ -n "$loop" ]; then
		partx -d "$loop" 2>/dev/null || true
		losetup -d "$loop" 2>/dev/null || say "could not detach $loop"
	fi
	if [ -n "$image" ] && [ "$keep" = 0 ]; then
		rm -f "$image"
	fi
	# after the unmount: down removes its partitions, loop device and daemon
	if [ -n "$mdev" ]; then
		"$md" down "$mdev" ||
			say "could not remove the model device $mdev (workloads/model-device.sh list shows it)"
	fi
	exit $st
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

probe() { "$rebench" --probe --json "$1"; }

if [ -n "$device" ]; then
	[ -b "$device" ] || die "$device is not a block device"
	info=$(probe "$device") || die "cannot probe $device"
	type=$(jq -r .target.type <<<"$info")
	[ "$type" = "block device" ] ||
		die "$device is a $type: give a whole disk, which the study repartitions"
	busy=$(jq -r '.target.in_use // empty' <<<"$info")
	[ -z "$busy" ] || die "refusing $device: $busy; nothing was written"
	size=$(jq -r .target.size <<<"$info")
	model=$(jq -r '.target.model // "unknown model"' <<<"$info")
	if [ "$yes" = 0 ]; then
		{ : </dev/tty >/dev/tty; } 2>/dev/null ||
			die "no terminal to confirm erasing $device: pass --yes to confirm"
		printf '%s will be repartitioned twice, formatted with ext2 and ERASED: %s bytes, %s.\nType yes to go on: ' \
			"$device" "$size" "$model" >/dev/tty
		read -r answer </dev/tty || answer=
		[ "$answer" = yes ] || die "not confirmed; nothing was written to $device"
	fi
	disk=$device
elif [ -n "$mspec" ]; then
	# the script's own device, like the image: nothing to confirm
	[ -x "$md" ] || fail "cannot find $md, which brings up model devices"
	set +e
	mdev=$("$md" up --size "$isize" "$mspec")
	st=$?
	set -e
	case $st in
	0) ;;
	# model-device.sh refused MODEL or SIZE, and its message says why
	1) die "--model $mspec, --size $isize: refused for the reason above; nothing was created" ;;
	*) fail "could not bring up a model device ($mspec): model-device.sh exited $st" ;;
	esac
	disk=$mdev
	say "model device $disk: $mspec, $isize (a model reads a page it never wrote at the same cost: not filled)"
else
	image=$out/partition-alignment.img
	[ ! -e "$image" ] || die "$image exists: remove it or choose another -o"
	truncate -s "$isize" "$image" 2>/dev/null || die "--size $isize: cannot create $image of that size"
	# direct I/O on the image: reads reach the disk under it, not the
	# host's page cache
	loop=$(losetup -f --show -P --direct-io=on ${sector:+--sector-size "$sector"} "$image") ||
		fail "cannot attach $image to a loop device"
	disk=$loop
	say "filling $disk ($isize) with data: reads of a sparse image would not touch the disk"
	"$rebench" -o write -w seq -b 1m -d 100% --yes -n "$disk" >/dev/null ||
		fail "cannot fill $disk"
fi

info=$(probe "$disk") || fail "cannot probe $disk"
L=$(jq -r .target.logical_sector <<<"$info")
size=$(jq -r .target.size <<<"$info")
case $L in ''|null|*[!0-9]*) fail "$disk: logical sector size unknown" ;; esac
# the file gets what fits in a partition of the disk, less ext2's overhead
room=$(( (size - 2048 * L) * 3 / 4 / 1048576 ))
want=$(numfmt --from=iec "${fsize^^}" 2>/dev/null) || die "-f $fsize: not a size"
[ "$room" -ge 1 ] || die "$disk is too small: the study needs at least 8 MiB"
if [ "$want" -gt $((room * 1048576)) ]; then
	say "the ext2 file is ${room} MiB (not $fsize) to fit in the partition"
	want=$((room * 1048576))
fi

range="$L..$((grid * L))/$L"
drill=${drill:-$L}
[ $((drill % L)) = 0 ] && [ "$drill" -le $((grid * L)) ] ||
	die "--drill-size $drill: not a block size of the grid ($L to $((grid * L)) bytes in steps of $L)"
points=$((grid * grid))
# the offset drill-down: 8-sector reads at an 8-sector stride, from 0 to 7
# sectors past the start
oblock=$((8 * L))
offsets=$(seq -s, 0 "$L" $((oblock - L)))
say "grid: block size and alignment $range ($points points), $dur per point, 5 configurations; then $oblock-byte reads at offsets $offsets"

# part DEV N: the path of partition N of DEV (sdb1, but loop0p1, nvme0n1p1)
part() { case $1 in *[0-9]) printf '%sp%s' "$1" "$2" ;; *) printf '%s%s' "$1" "$2" ;; esac; }

# partition START: one partition from sector START to the end of the disk
partition() {
	local n=0 p
	p=$(part "$disk" 1)
	printf 'label: dos\nstart=%s, type=83\n' "$1" |
		sfdisk -q --wipe always --wipe-partitions always "$disk" >/dev/null 2>&1 ||
		fail "sfdisk could not partition $disk at sector $1"
	# sfdisk asks the kernel to re-read; without udev, partx makes sure
	partx -u "$disk" 2>/dev/null || partx -a "$disk" 2>/dev/null || true
	while [ ! -b "$p" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
	[ -b "$p" ] || fail "the partition $p did not appear (partx -a $disk)"
	printf '%s' "$p"
}

# Each point's run in 20 intervals, so that it has a 95% interval of its
# ops/s (batch means need 10) and the configurations can be compared with
# rebench --compare: -g is a twentieth of a -d in time, in ms (at least 1;
# rebench's default 1000 for a -d in bytes or %).
step=$(awk -v d="$dur" 'BEGIN {
	if (d ~ /^[0-9.]+ms$/) ms = d + 0
	else if (d ~ /^[0-9.]+s?$/) ms = (d + 0) * 1000
	else { print 1000; exit }
	s = int(ms / 20); print (s < 1 ? 1 : s) }')

# counters_of: the model device's counters ("key value" lines)
counters_of() {
	"$md" counters "$mdev" || fail "cannot read the counters of the model device $mdev"
}

# sweep NAME TARGET [extra rebench options]: probe, then the whole grid,
# its table (--output) and its JSON (for --compare); on a model device,
# NAME.counters: the model's counters over the grid; then the offset
# drill-down, NAME.offset.tsv
sweep() {
	local name=$1 target=$2 before= ext=${ext:-}
	shift 2
	[ -e "$target" ] && { probe "$target" >"$out/$name.probe.json" ||
		fail "cannot probe $target"; }
	[ -z "$mdev" ] || before=$(counters_of)
	say "$name: sweeping $target"
	"$rebench" -b "$range" -s "$range" -d "$dur" -g "$step" --yes "$@" \
		--output "$out/$name.tsv" --json "$target" >"$out/$name.json" ||
		fail "the sweep of $target failed (its table so far: $out/$name.tsv)"
	[ -s "$out/$name.probe.json" ] || probe "$target" >"$out/$name.probe.json"
	[ -z "$mdev" ] || model_counters "$name" "$before"
	# the offset drill-down (a file's region less the largest offset:
	# the reads stay in it)
	"$rebench" -b "$oblock" -s "$oblock" -j "$offsets" -d "$dur" -g "$step" \
		--yes ${ext:+-e $((ext - oblock))} --output "$out/$name.offset.tsv" \
		"$target" >/dev/null ||
		fail "the offset sweep of $target failed (its table so far: $out/$name.offset.tsv)"
}

# model_counters NAME BEFORE: NAME.counters, the model's counters over
# NAME's grid (counter, before, after, and after - before where both are
# numbers), and the pages it read a read
model_counters() {
	local name=$1 before=$2
	counters_of | awk -v OFS='\t' 'FNR == NR { b[$1] = $2; next }
		FNR == 1 { print "counter", "before", "after", "delta" }
		{ d = ($2 ~ /^[0-9]+$/ && b[$1] ~ /^[0-9]+$/) ? $2 - b[$1] : "-"
		  print $1, ($1 in b ? b[$1] : "-"), $2, d }' \
		<(printf '%s\n' "$before") - >"$out/$name.counters" ||
		fail "cannot write $out/$name.counters"
	awk -F'\t' -v n="$name" '$1 == "requests.read" { r = $4 } $1 == "ssd.pages_read" { p = $4 }
		END { if (r > 0 && p != "") printf "%s: the model read %d pages for %d reads, %.3f a read\n", n, p, r, p / r }' \
		"$out/$name.counters" >&2
}

# fs_file NAME PARTITION: ext2 on the partition, then a file on it
fs_file() {
	local name=$1 p=$2
	# nodiscard: a discard would punch holes that later reads skip
	mkfs.ext2 -q -F -b 4096 -E nodiscard "$p" >/dev/null ||
		fail "mkfs.ext2 failed on $p"
	mnt=$(mktemp -d "$out/mnt.XXXXXX")
	mount -t ext2 "$p" "$mnt" || fail "cannot mount $p"
	ext=$want sweep "$name" "$mnt/data" -e "$want"
	umount "$mnt" && rmdir "$mnt" && mnt=
}

sweep raw "$disk"
p=$(partition 63)
sweep p63 "$p"
fs_file ext2-63 "$p"
p=$(partition 2048)
sweep p2048 "$p"
fs_file ext2-2048 "$p"

# Labels name the layout ("raw", "p63", "ext2 on p63": never a path, as
# the file systems' mount points are gone once the plots are read) and
# carry its measured alignment, from the probes: how far the start (a
# file: its data) is past a 4 KiB and a 1 MiB boundary.  Short, to fit a
# panel title.
label() {
	jq -r --arg what "$2" '.target.alignment as $a |
		[$a.boundaries["4KiB"].misaligned_by, $a.boundaries["1MiB"].misaligned_by] as $m |
		"\($what): " + (if $m[0] == null then "alignment unknown"
		elif $m == [0, 0] then "aligned"
		else "4 KiB +\($m[0]) B, 1 MiB +\($m[1]) B" end)' "$out/$1.probe.json"
}
whats=("raw" "p63" "p2048" "ext2 on p63" "ext2 on p2048")
: >"$out/multiplot.list"
: >"$out/drilldown.list"
: >"$out/offset.list"
for i in "${!names[@]}"; do
	l=$(label "${names[$i]}" "${whats[$i]}")
	printf '%s\t%s\n' "$l" "${names[$i]}.tsv.matrix" >>"$out/multiplot.list"
	printf '%s\t%s\n' "$l" "${names[$i]}.tsv" >>"$out/drilldown.list"
	printf '%s\t%s\n' "$l" "${names[$i]}.offset.tsv" >>"$out/offset.list"
done
# the plots' default titles; on a model device, which model (the
# matrices name only its loop device)
# sizes in titles as IEC units: 512 B, 4 KiB, 1.5 KiB
# what the disk is: the model, or the device's own model from its probe
if [ -n "$mspec" ]; then
	case ${mspec%%:*} in ssd) on=SSD ;; hdd) on=disk ;; *) on=${mspec%%:*} ;; esac
	on="on a model $on ($mspec, $(iec_size "$isize"))"
elif [ -n "$device" ]; then
	on="on $device ($model)"
else
	on="on a loop device over an image file ($(iec_size "$isize"), $L B sectors)"
fi
mtitle="ops/s by block size and alignment $on, same colour scale"
dtitle="$(iec_size "$drill") reads by alignment
$on"
otitle="$(iec_size "$oblock") reads at a $(iec_size "$oblock") stride by offset from each layout's start
$on"
# the offset sweeps have no matrix (one swept axis) to carry their
# settings: the grid's, which they share but for the block size and
# stride (in the title), and the time per point
about=$(sed -n 's/^# about: //p' "$out/raw.tsv.matrix" | head -n 1 | tr -d "'")
gnuplot -e "rb_panel_targets=0" -c "$plots/alignment-multiplot.gp" "$out/multiplot.list" "$out/multiplot.png" "$mtitle" >/dev/null ||
	fail "the multiplot failed; the tables are in $out"
gnuplot -c "$plots/alignment-drilldown.gp" "$out/drilldown.list" "$out/drilldown.png" "$drill" "$dtitle" ||
	fail "the drill-down failed; the tables are in $out"
gnuplot -e "rb_about='$about'" -e "rb_duration='$dur per point'" \
	-c "$plots/alignment-drilldown.gp" "$out/offset.list" "$out/offset.png" "$oblock" "$otitle" ||
	fail "the offset drill-down failed; the tables are in $out"

# summary.tsv: one line per configuration, from the probes and tables
{
	printf 'config\ttarget\tdrive_offset\tverdict\tmisaligned_4k\tmisaligned_1m\tops_min\tops_mean\tops_max\tops_1sector\n'
	for n in "${names[@]}"; do
		jq -r --arg n "$n" '.target as $t | [$n, $t.path,
			($t.alignment.drive_offset // "unknown"), $t.alignment.verdict,
			($t.alignment.boundaries["4KiB"].misaligned_by // "unknown"),
			($t.alignment.boundaries["1MiB"].misaligned_by // "unknown")] | @tsv' \
			"$out/$n.probe.json" | tr -d '\n'
		awk -F'\t' -v L="$L" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ v = $c["ops_per_s"]; s += v; n++
			  if (n == 1 || v < lo) lo = v; if (v > hi) hi = v
			  if ($c["block-size"] == L && $c["stride"] == L) one = v }
			END { printf "\t%.0f\t%.0f\t%.0f\t%.0f\n", lo, s / n, hi, one }' "$out/$n.tsv"
	done
} >"$out/summary.tsv"
column -t -s "$(printf '\t')" "$out/summary.tsv"

# compare.tsv: each configuration against the aligned partition (p2048),
# by rebench --compare: over the grid, how many points were faster, slower
# or not distinguishable (ops/s), and the one-sector point's ratio with
# its 95% interval
{
	printf 'config\tagainst\tfaster\tslower\tsame\tno_interval\tratio_1sector\tlow_1sector\thigh_1sector\tverdict_1sector\n'
	for n in raw p63 ext2-63 ext2-2048; do
		"$rebench" --compare "$out/p2048.json" "$out/$n.json" -n >"$out/.compare.$n" ||
			fail "rebench --compare of $n against p2048 failed"
		awk -v n="$n" -v L="$L" '$5 == "ops_per_s" && $4 == 1 {
				c[$11]++
				if ($(NF - 1) == L && $NF == L) { r = $8; lo = $9; hi = $10; v = $11 }
			}
			END { printf "%s\tp2048\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", n,
				c["faster"], c["slower"], c["same"], c["no-interval"], r, lo, hi, v }' \
			"$out/.compare.$n"
		rm -f "$out/.compare.$n"
	done
} >"$out/compare.tsv"
say "each configuration against the aligned partition (ops/s, rebench --compare):"
column -t -s "$(printf '\t')" "$out/compare.tsv"
say "tables, probes and plots in $out: summary.tsv, compare.tsv, multiplot.png, drilldown.png, offset.png"
