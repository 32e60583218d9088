#!/usr/bin/env bash
# test_alignment_study.sh - workloads/partition-alignment.sh end to end on
# small images (short durations, a 2 x 2 grid): every table, probe and plot
# it promises, the measured layouts in its probes (start 63 is 3584 bytes
# past 4 KiB on 512-byte sectors, 258048 bytes past 1 MiB on 4096-byte
# sectors; the ext2 file on it inherits the offset), its summary, a named
# scratch device, and the refusals that must leave the device untouched: a
# mounted partition, a partition instead of a disk, no terminal to confirm.
# Nothing it creates (loop devices, mounts, the image) may be left behind,
# also when terminated.
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq sfdisk partx mkfs.ext2 gnuplot setsid cksum numfmt
STUDY=$TESTS_ROOT/workloads/partition-alignment.sh
S=$SCRATCH

# study ARGS...: run the script without a terminal; sets RB_OUT/ERR/RC.
study() { script_run "$STUDY" "$@"; }

# only this test's: another study may run at the same time
loops_now() { losetup -a | grep -c "($S/.*partition-alignment" || true; }
study_mounts() { grep -c " $S/[a-z]*/mnt\." /proc/mounts || true; }

# probe_num DIR CONFIG FILTER: one value from a configuration's probe
probe_num() { jq -r ".target$3" "$1/$2.probe.json"; }

# ------------------------------------------------ image, 512-byte sectors
section "image with 512-byte sectors"
before=$(loops_now)
study -o "$S/a" --size 72m -f 8m -n 2 -d 50ms
assert_rc 0 "study on an image: exit 0"
for n in raw p63 p2048 ext2-63 ext2-2048; do
	assert_eq 5 "$(wc -l <"$S/a/$n.tsv")" "$n: table has a header and 4 points"
	assert_eq 3 "$(grep -vc '^#' "$S/a/$n.tsv.matrix")" "$n: 2 x 2 matrix"
	assert_eq "complete" "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") c = i; next } { print $c }' "$S/a/$n.tsv" | sort -u)" \
		"$n: every point complete"
	assert_match '^(aligned|misaligned)$' "$(jq -r .target.alignment.verdict "$S/a/$n.probe.json")" \
		"$n: probe JSON has an alignment verdict"
done
assert_eq "512 512 1024 1024" "$(awk -F'\t' 'NR > 1 { printf "%s ", $1 }' "$S/a/raw.tsv" | sed 's/ $//')" \
	"grid: block sizes of one and two logical sectors"
assert_eq "block device" "$(probe_num "$S/a" raw .type)" "raw: the whole device"
assert_eq aligned "$(probe_num "$S/a" raw .alignment.verdict)" "raw: aligned"
assert_eq 32256 "$(probe_num "$S/a" p63 .partition_start)" "p63: starts at byte 32256"
assert_eq 3584 "$(probe_num "$S/a" p63 '.alignment.boundaries["4KiB"].misaligned_by')" \
	"p63: 3584 bytes past 4 KiB"
assert_eq 32256 "$(probe_num "$S/a" p63 '.alignment.boundaries["1MiB"].misaligned_by')" \
	"p63: 32256 bytes past 1 MiB"
assert_eq 1048576 "$(probe_num "$S/a" p2048 .partition_start)" "p2048: starts at 1 MiB"
assert_eq aligned "$(probe_num "$S/a" p2048 .alignment.verdict)" "p2048: aligned"
assert_eq ext2 "$(probe_num "$S/a" ext2-63 .file.filesystem)" "ext2-63: a file on ext2"
assert_eq 32256 "$(probe_num "$S/a" ext2-63 .file.device_start)" "ext2-63: on the sector-63 partition"
assert_eq 4096 "$(probe_num "$S/a" ext2-63 .file.fs_block_size)" "ext2-63: 4 KiB blocks"
assert_eq 3584 "$(probe_num "$S/a" ext2-63 '.alignment.boundaries["4KiB"].misaligned_by')" \
	"ext2-63: the file's data is 3584 bytes past 4 KiB"
assert_eq 0 "$(jq '.target.alignment | .boundaries["4KiB"].extents_misaligned - .extents_judged' "$S/a/ext2-63.probe.json")" \
	"ext2-63: every extent is off"
assert_eq 0 "$(probe_num "$S/a" ext2-2048 '.alignment.boundaries["4KiB"].misaligned_by')" \
	"ext2-2048: the file's data is on 4 KiB boundaries"
assert_eq $((8 * 1048576)) "$(probe_num "$S/a" ext2-2048 .size)" "ext2 file of -f 8m"
png=$(head -c 8 "$S/a/multiplot.png" | od -An -c | tr -d ' ')
assert_eq '211PNG\r\n032\n' "$png" "multiplot.png is a PNG"
png=$(head -c 8 "$S/a/drilldown.png" | od -An -c | tr -d ' ')
assert_eq '211PNG\r\n032\n' "$png" "drilldown.png is a PNG"
assert_eq 5 "$(grep -vc '^#' "$S/a/multiplot.list")" "multiplot: five panels"
assert_match "^p63: 4 KiB \\+3584 B, 1 MiB \\+32256 B	" \
	"$(<"$S/a/multiplot.list")" "multiplot: the label names the layout and carries the measured offset"
assert_eq 6 "$(wc -l <"$S/a/summary.tsv")" "summary: a header and five configurations"
assert_eq "p63	3584	32256" "$(awk -F'\t' '$1 == "p63" { print $1 "\t" $5 "\t" $6 }' "$S/a/summary.tsv")" \
	"summary: p63's offsets"
# rounded as the summary rounds it (printf %.0f: a .5 to even)
ops=$(awk -F'\t' 'NR > 1 && $2 == 512 && $1 == 512 { printf "%.0f\n", $5 }' "$S/a/p63.tsv")
assert_eq "$ops" "$(awk -F'\t' '$1 == "p63" { print $10 }' "$S/a/summary.tsv")" \
	"summary: one-sector ops/s is the table's"
assert_match "p63 .*3584" "$RB_OUT" "the summary is printed"
# compare.tsv: each configuration against p2048 by rebench --compare; 4
# points each, every one judged (20 intervals per point)
assert_eq "raw p63 ext2-63 ext2-2048" "$(awk -F'\t' 'NR > 1 { printf "%s%s", n++ ? " " : "", $1 }' "$S/a/compare.tsv")" \
	"compare.tsv: four configurations against the aligned partition"
assert_eq "4 4 4 4" "$(awk -F'\t' 'NR > 1 { printf "%s%s", n++ ? " " : "", $3 + $4 + $5 }' "$S/a/compare.tsv")" \
	"compare.tsv: every point judged faster, slower or the same"
one=$(REBENCH_PLOTS=$TESTS_ROOT/plots "$REBENCH" --compare "$S/a/p2048.json" "$S/a/p63.json" -n |
	awk '$5 == "ops_per_s" && $(NF - 1) == 512 && $NF == 512 { print $8 "\t" $9 "\t" $10 "\t" $11 }')
assert_eq "$one" "$(awk -F'\t' '$1 == "p63" { print $7 "\t" $8 "\t" $9 "\t" $10 }' "$S/a/compare.tsv")" \
	"compare.tsv: p63's one-sector ratio, interval and verdict are --compare's"
assert_match "ext2-2048 +p2048 +[0-9]" "$RB_OUT" "the comparison is printed"
assert_eq "$before" "$(loops_now)" "no loop device left attached"
assert_eq 0 "$(study_mounts)" "nothing left mounted"
assert_eq "" "$(ls "$S/a"/*.img 2>/dev/null)" "the image is removed"

# ----------------------------------------------- image, 4096-byte sectors
section "image with 4096-byte sectors"
study -o "$S/b" --size 72m -f 8m -n 2 -d 50ms --sector-size 4096 --keep-image
assert_rc 0 "study on a 4096-byte-sector image: exit 0"
assert_eq "4096 4096 8192 8192" "$(awk -F'\t' 'NR > 1 { printf "%s ", $1 }' "$S/b/raw.tsv" | sed 's/ $//')" \
	"grid in units of 4096-byte sectors"
assert_eq 258048 "$(probe_num "$S/b" p63 .partition_start)" "p63: sector 63 of 4096 bytes"
assert_eq 0 "$(probe_num "$S/b" p63 '.alignment.boundaries["4KiB"].misaligned_by')" \
	"p63: aligned to 4 KiB on a 4Kn disk"
assert_eq 258048 "$(probe_num "$S/b" p63 '.alignment.boundaries["1MiB"].misaligned_by')" \
	"p63: 258048 bytes past 1 MiB"
assert_eq 8388608 "$(probe_num "$S/b" p2048 .partition_start)" "p2048: sector 2048 of 4096 bytes"
assert_eq 1 "$(ls "$S/b"/*.img | wc -l)" "--keep-image keeps the image"

# ------------------------------------------------------ a named device
section "a scratch device named by the user"
DEV=$(make_loop 72M)
study -o "$S/c" -f 8m -n 2 -d 50ms --yes "$DEV"
assert_rc 0 "study on $DEV with --yes: exit 0"
assert_eq "$DEV" "$(probe_num "$S/c" raw .path)" "raw: the device given"
assert_eq 32256 "$(probe_num "$S/c" p63 .partition_start)" "p63 on the device"
assert_eq "2048" "$(sfdisk -d "$DEV" | sed -n 's/.*start= *\([0-9]*\),.*/\1/p')" \
	"the device is left with the last configuration's partition"
assert_eq 0 "$(study_mounts)" "nothing left mounted"

# ------------------------------------------------------------ refusals
section "refusals leave the device untouched"
DEV2=$(make_loop 40M)
printf 'start=2048\n' | sfdisk -q "$DEV2" >/dev/null 2>&1
loop_partitions "$DEV2" || fail "no partition node on $DEV2"
mkfs.ext2 -q "${DEV2}p1" || fail "mkfs.ext2 ${DEV2}p1"
mount_dev "${DEV2}p1" "$S/m"
sum=$(dev_sum "$DEV2")
study -o "$S/d" --yes "$DEV2"
assert_rc 1 "a disk with a mounted partition: exit 1"
assert_match "refusing $DEV2: ${DEV2}p1 is mounted on $S/m; nothing was written" "$RB_ERR" \
	"the message names the mount"
study -o "$S/d" --yes "${DEV2}p1"
assert_rc 1 "a partition instead of a disk: exit 1"
assert_match "is a partition: give a whole disk" "$RB_ERR" "the message says to give a whole disk"
umount "$S/m"
sum=$(dev_sum "$DEV2")
study -o "$S/d" "$DEV2"
assert_rc 1 "no terminal and no --yes: exit 1"
assert_match "no terminal to confirm erasing $DEV2: pass --yes" "$RB_ERR" "the message says how to confirm"
assert_eq "$sum" "$(dev_sum "$DEV2")" "the device is unchanged after every refusal"
study -n 1
assert_rc 1 "-n 1: exit 1"
assert_match "give a whole number from 2 to 16" "$RB_ERR" "-n 1: says what is valid"
study -d 3q
assert_rc 1 "-d 3q: exit 1"
assert_match "not a duration rebench accepts" "$RB_ERR" "-d 3q: refused by rebench's own parser"
study --sector-size 1024
assert_rc 1 "--sector-size 1024: exit 1"
study --bogus
assert_rc 1 "an unknown option: exit 1"
assert_eq 0 "$(find "$S/d" -type f 2>/dev/null | wc -l)" "refusals wrote no files"

# --------------------------------------------------------- interrupted
# SIGTERM, not SIGINT: a background job of a script starts with SIGINT
# ignored, and bash cannot trap a signal ignored on entry.
section "terminated while the ext2 file is mounted"
before=$(loops_now)
REBENCH=$REBENCH REBENCH_PLOTS=$TESTS_ROOT/plots \
	setsid bash "$STUDY" -o "$S/e" --size 72m -f 8m -n 2 -d 2s \
	>"$S/e.out" 2>"$S/e.err" </dev/null &
pid=$!
register_pid "$pid"
n=0
while [ "$(study_mounts)" = 0 ] && [ $n -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
	sleep 0.1
	n=$((n + 1))
done
assert_eq 1 "$(study_mounts)" "the study mounted its ext2 file system"
kill -TERM -- -"$pid" 2>/dev/null
wait "$pid"
rc=$?
assert_eq 143 "$rc" "terminated: exit 143"
assert_eq 0 "$(study_mounts)" "terminated: the mount is gone"
assert_eq "$before" "$(loops_now)" "terminated: the loop device is detached"
assert_eq "" "$(ls "$S/e"/*.img 2>/dev/null)" "terminated: the image is removed"

