#!/usr/bin/env bash
# test_partition_model.sh - workloads/partition-alignment.sh --model: the
# alignment study on a model SSD of its own (4 KiB pages, 1 ms page reads),
# whose cost of a layout is known: a 4 KiB read that is 512 B off the
# device's pages reads two pages.  From the script's own output:
#
# - the counters (NAME.counters): the model served exactly the reads the
#   table counts (ios), and read as many pages as the model's arithmetic
#   says those reads cost at their block sizes, strides and partition start
#   (the crossings within 30 %: offsets are random, and every point of a
#   sweep draws them from one seed, so the points' crossings go up and down
#   together: 8 runs were 15 % off at most, 7 % in the mean square; load
#   does not enter);
# - the tables, 4 KiB reads: on the raw device and the partition at 2048
#   the 4 KiB stride (every read on one page) has the smallest median, 1.33
#   times below every stride where 3 in 4 or more of the reads cross a page
#   (2048, half of them, is left out: its median is either); on the
#   partition at 63 (3584 B past a page) every read at a stride of 1, 2, 3
#   or 4 KiB crosses a page, so none is faster than two page reads, and the
#   4 KiB stride's median is 1.5 times the aligned partition's; the ext2
#   files inherit their partitions' layouts.  Medians and minimums, not
#   means: a loaded machine adds its delays to both sides of a ratio and
#   cannot make a read faster than the model.
#
# (In this block size x stride grid the sector-63 heatmap is not the
# aligned one shifted by a sector: random offsets are multiples of the
# stride from the partition's start, and at sector 63 no stride but the odd
# multiples of 512 B ever lands on a page - 1 read in 8 there.)
#
# Also: the model device goes on every exit path (done, refused,
# terminated), --model is refused beside a DEVICE and for a bad MODEL.
# About 20 s.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq sfdisk partx mkfs.ext2 gnuplot setsid numfmt
[ -c /dev/fuse ] || skip "needs /dev/fuse (modprobe fuse)"
[ -x "$TESTS_ROOT/rebench-modeldev" ] ||
	skip "needs rebench-modeldev (make builds it when libfuse3-dev is installed: make deps)"

STUDY=$TESTS_ROOT/workloads/partition-alignment.sh
MD=$TESTS_ROOT/workloads/model-device.sh
S=$SCRATCH
# a MODEL no other test uses, so that list finds this test's devices only;
# 1 ms page reads (25 times the FUSE floor), fast programs for mkfs and the
# ext2 file's layout
READ_US=1000
MODEL="ssd:read=1ms,program=20us,erase=200us,noise=0"

# study ARGS...: run the script without a terminal; sets RB_OUT/ERR/RC.
study() { script_run "$STUDY" "$@"; }

# ours_up: how many model devices of this test's MODEL are up
ours_up() { "$MD" list | grep -cF "	$MODEL	" || true; }

# col TABLE BS STRIDE COLUMN: a column of a table's point
col() {
	awk -F'\t' -v b="$2" -v s="$3" -v k="$4" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["block-size"] == b && $c["stride"] == s { print $c[k] }' "$1"
}

# ctr CONFIG KEY: how much KEY grew over CONFIG's sweep (its .counters)
ctr() { awk -F'\t' -v k="$2" '$1 == k { print $4 }' "$S/m/$1.counters"; }

# expected CONFIG START: "IOS PAGES": the reads of CONFIG's table, and
# the pages a model SSD with 4 KiB pages reads for them when they start
# START bytes past a page: offsets START + k x stride, whose remainders
# by 4096 are spread evenly over START + multiples of gcd(stride, 4096)
expected() {
	awk -F'\t' -v P="$2" '
		function gcd(a, b,  t) { while (b) { t = b; b = a % b; a = t } return a }
		function pages(b, s,  g, n, j, r, c) {
			g = gcd(s, 4096); n = 4096 / g
			for (j = 0; j < n; j++) { r = (P + j * g) % 4096; c += int((r + b - 1) / 4096) + 1 }
			return c / n
		}
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ ios += $c["ios"]; e += $c["ios"] * pages($c["block-size"], $c["stride"]) }
		END { printf "%d %.0f\n", ios, e }' "$S/m/$1.tsv"
}

# ------------------------------------------------------------- refusals
section "refusals: nothing brought up"
before=$(ours_up)
study -o "$S/r" --model "$MODEL" /dev/loop0
assert_rc 1 "--model with a DEVICE: exit 1"
assert_match "^partition-alignment.sh: --model and /dev/loop0: give one" "$RB_ERR" "--model with a DEVICE: says to give one"
study -o "$S/r" --model "ssd:read=100"
assert_rc 1 "a bad MODEL: exit 1"
assert_match "^rebench-modeldev: ssd:read=100: read=100: not a time with its unit" "$RB_ERR" \
	"a bad MODEL: model-device.sh's reason"
assert_match "refused for the reason above; nothing was created" "$RB_ERR" "a bad MODEL: nothing was created"
study -o "$S/r" --model "$MODEL" --sector-size 4096
assert_rc 1 "--model with --sector-size: exit 1"
assert_match "the image only; a model device's sector is in MODEL" "$RB_ERR" "--sector-size: where the sector goes"
assert_eq "$before" "$(ours_up)" "no model device left up"
assert_eq 0 "$(find "$S/r" -type f 2>/dev/null | wc -l)" "refusals wrote no files"

# ------------------------------------------------------------ the study
section "the study on a model SSD, 8 x 8 grid"
study -o "$S/m" --model "$MODEL" --size 32m -f 4m -n 8 -d 40ms --drill-size 4k
assert_rc 0 "study --model: exit 0"
dev=$(sed -n 's/^partition-alignment.sh: model device \(\/dev\/loop[0-9]*\): .*/\1/p' <<<"$RB_ERR")
assert_match '^/dev/loop[0-9]+$' "$dev" "it says which model device it brought up"
assert_eq "$before" "$(ours_up)" "the model device is down after the study"
for n in raw p63 p2048 ext2-63 ext2-2048; do
	assert_eq 65 "$(wc -l <"$S/m/$n.tsv")" "$n: table has a header and 64 points"
	assert_eq "model	ssd	ssd	-" "$(grep '^model	' "$S/m/$n.counters")" "$n: the model's counters over its sweep"
done
assert_eq "32256 3584" "$(jq -r '.target | "\(.partition_start) \(.alignment.boundaries["4KiB"].misaligned_by)"' "$S/m/p63.probe.json")" \
	"p63: starts 3584 B past a 4 KiB page of the model"
assert_eq 3584 "$(jq -r '.target.alignment.boundaries["4KiB"].misaligned_by' "$S/m/ext2-63.probe.json")" \
	"ext2-63: the file's data 3584 B past the pages"
assert_png "$S/m/multiplot.png" 1500 1000 "multiplot"
assert_png "$S/m/drilldown.png" 1000 700 "drill-down"
assert_png "$S/m/offset.png" 1000 700 "offset drill-down"
keep_png "$S/m/multiplot.png"
keep_png "$S/m/offset.png"

section "the model's counters against the tables"
for n in raw p63 p2048; do
	read -r ios pages <<<"$(expected "$n" "$([ "$n" = p63 ] && echo 3584 || echo 0)")"
	assert_eq "$ios 0" "$(ctr "$n" requests.read) $(ctr "$n" requests.write)" \
		"$n: the model served the table's $ios reads, and no write"
	got=$(ctr "$n" ssd.pages_read)
	assert_num "$n: $((got - ios)) reads crossed a page, the model's arithmetic says $((pages - ios)) (within 30 %)" \
		"$got - $ios >= 0.7 * ($pages - $ios) && $got - $ios <= 1.3 * ($pages - $ios)"
done

section "4 KiB reads by stride: medians and minimums of the tables"
for n in raw p2048 ext2-2048; do
	a=$(col "$S/m/$n.tsv" 4096 4096 lat_p50_us)
	for s in 512 1024 1536 2560 3072 3584; do
		o=$(col "$S/m/$n.tsv" 4096 "$s" lat_p50_us)
		assert_num "$n: 4 KiB reads at a 4 KiB stride (p50 $a us) faster than at $s (p50 $o us) by 1.33 or more" \
			"$a * 1.33 < $o"
	done
done
for n in p63 ext2-63; do
	for s in 1024 2048 3072 4096; do
		m=$(col "$S/m/$n.tsv" 4096 "$s" lat_min_us)
		assert_num "$n: every 4 KiB read at a stride of $s crossed a page (the fastest took $m us, two reads $((2 * READ_US)))" \
			"$m >= 2 * $READ_US"
	done
done
a=$(col "$S/m/p2048.tsv" 4096 4096 lat_p50_us)
m=$(col "$S/m/p2048.tsv" 4096 4096 lat_min_us)
o=$(col "$S/m/p63.tsv" 4096 4096 lat_p50_us)
assert_num "p2048: the fastest 4 KiB read at a 4 KiB stride took $m us, one page read" "$m < 1.5 * $READ_US"
assert_num "4 KiB reads at a 4 KiB stride: p63's p50 $o us, 1.5 times p2048's $a us or more (the model: 2)" \
	"$o >= 1.5 * $a"

section "4 KiB reads by offset: the sector-63 partition's curve is the aligned one moved by 512 B"
# ocol TABLE OFFSET: the p50 of 4 KiB reads at OFFSET from the start
ocol() {
	awk -F'\t' -v o="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["offset"] == o { print $c["lat_p50_us"] }' "$1"
}
for n in raw p2048 ext2-2048 p63 ext2-63; do
	case $n in *63) best=512 ;; *) best=0 ;; esac
	assert_eq 9 "$(wc -l <"$S/m/$n.offset.tsv")" "$n: offset table has a header and 8 offsets"
	a=$(ocol "$S/m/$n.offset.tsv" "$best")
	for o in 0 512 1024 1536 2048 2560 3072 3584; do
		[ "$o" = "$best" ] && continue
		b=$(ocol "$S/m/$n.offset.tsv" "$o")
		assert_num "$n: 4 KiB reads at offset $best (p50 $a us) faster than at $o (p50 $b us) by 1.33 or more" \
			"$a * 1.33 < $b"
	done
done

# ------------------------------------------------------------ terminated
# SIGTERM, not SIGINT: a background job of a script starts with SIGINT
# ignored, and bash cannot trap a signal ignored on entry.
section "terminated during a sweep: the model device goes"
REBENCH=$REBENCH REBENCH_PLOTS=$TESTS_ROOT/plots \
	setsid bash "$STUDY" -o "$S/t" --model "$MODEL" --size 16m -f 2m -n 2 -d 2s \
	>"$S/t.out" 2>"$S/t.err" </dev/null &
pid=$!
register_pid "$pid"
sweeping() { grep -q 'raw: sweeping' "$S/t.err" || ! kill -0 "$pid" 2>/dev/null; }
wait_until sweeping
assert_eq $((before + 1)) "$(ours_up)" "the study brought its model device up"
kill -TERM -- -"$pid" 2>/dev/null
wait "$pid"
assert_eq 143 "$?" "terminated: exit 143"
assert_eq "$before" "$(ours_up)" "terminated: the model device is down"
