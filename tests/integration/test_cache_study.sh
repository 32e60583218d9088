#!/usr/bin/env bash
# test_cache_study.sh - workloads/cache-pressure.sh end to end on its own
# loop device over a small region, with short points: a row per operation
# and ratio (2, 1, 0.5, 0.2, 0.1) with its cache in bytes, ops/s above 0,
# device reads per request, a verdict only on the rows that write; at a
# tenth of the region most requests reach the device; the plot is drawn;
# the loop device and image are gone after; a region too small for a
# tenth to hold rebench and an output path that is a device are refused
# before anything runs.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq gnuplot numfmt

STUDY=$TESTS_ROOT/workloads/cache-pressure.sh
[ -x "$STUDY" ] || fail "$STUDY is missing or not executable"
export REBENCH

section "no target: its own loop device, short points"
TMPDIR=$SCRATCH bash "$STUDY" - "$SCRATCH/a" 0.3 180m 0.3 >"$SCRATCH/a.out" 2>"$SCRATCH/a.err"
assert_eq 0 "$?" "the study exits 0 ($(tail -n 2 "$SCRATCH/a.err" | tr '\n' ' '))"
T=$SCRATCH/a/cache-pressure.tsv
assert_eq "ratio operation cache_bytes ops_per_s lat_p99_us device_reads_per_request durability" \
	"$(head -n 1 "$T" | tr '\t' ' ')" "the table's header"
assert_eq 15 "$(tail -n +2 "$T" | grep -c .)" "3 operations x 5 ratios = 15 rows"
assert_eq "read:2 read:1 read:0.5 read:0.2 read:0.1 write:2 write:1 write:0.5 write:0.2 write:0.1 read+write:2 read+write:1 read+write:0.5 read+write:0.2 read+write:0.1" \
	"$(awk -F'\t' 'NR > 1 { print $2 ":" $1 }' "$T" | paste -sd' ')" \
	"each operation at ratios 2, 1, 0.5, 0.2, 0.1"
bytes=$((180 << 20))
bad=$(awk -F'\t' -v b=$bytes 'NR > 1 && ($3 != int(b * $1) || !($4 > 0) || $6 == "-") { print NR ": " $0 }' "$T")
assert_eq "" "$bad" "cache_bytes = region x ratio, ops/s above 0, device reads known on every row"
assert_eq "- not-durable not-durable" \
	"$(awk -F'\t' 'NR > 1 && !s[$2]++ { printf "%s%s", n++ ? " " : "", $7 }' "$T")" \
	"a verdict only where the operation writes (-f: not durable)"
low=$(awk -F'\t' '$1 == 0.1 && $2 == "read" { print $6 }' "$T")
assert_num "at a tenth of the region, $low device reads per read request (above 0.5)" "$low > 0.5"
assert_png "$SCRATCH/a/cache-pressure.png" 1000 800 "the plot"
keep_png "$SCRATCH/a/cache-pressure.png"
assert_eq "" "$(losetup -a | grep -F "$SCRATCH/cache-pressure.")" "its loop device is gone"
assert_eq "" "$(ls -d "$SCRATCH"/cache-pressure.* 2>/dev/null)" "its image and scratch are gone"

section "refused before anything runs"
bash "$STUDY" - "$SCRATCH/b" 0.3 64m >/dev/null 2>"$SCRATCH/b.err"
assert_eq 1 "$?" "a 64m region: exit 1"
assert_match "REGION 64m is below 170 MiB" "$(<"$SCRATCH/b.err")" "it says why and how much"
DEV=$(make_loop 8M)
sum=$(dev_sum "$DEV")
mkdir -p "$SCRATCH/c"
ln -s "$DEV" "$SCRATCH/c/cache-pressure.tsv"
bash "$STUDY" --yes "$SCRATCH/never.dat" "$SCRATCH/c" >/dev/null 2>"$SCRATCH/c.err"
assert_eq 1 "$?" "an output that is a device: exit 1"
assert_match "block device" "$(<"$SCRATCH/c.err")" "the message says it is a block device"
assert_eq "$sum" "$(dev_sum "$DEV")" "the device is unchanged"
assert_eq "" "$(ls "$SCRATCH/never.dat" 2>/dev/null)" "nothing ran"
