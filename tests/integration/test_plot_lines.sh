#!/usr/bin/env bash
# test_plot_lines.sh - plots/lines.gp read back from SVG as a storage
# engineer reads it (issue 35): every point's 95% interval drawn as an
# error bar, the noise in the title, the best point and those within noise
# of it in the key, sizes as "512 B", "4 KiB", "1536 B", and a title that
# names what was measured.
#   (a) by hand, from a saved 8 x 8 alignment sweep on a model SSD
#   (tests/golden/in/lines-align.tsv and the .matrix beside it): the title
#   takes the target, operation, pattern, engine, queue depth and time per
#   point from the matrix, and the noise from the table's ops_ci columns;
#   one vertical bar per point (64).
#   (b) a table without intervals (lines-bs-nonoise.tsv): "noise unknown"
#   and how to measure it, no bars, no best marked; log y over a decade.
#   (c) rebench --plot on a model SSD (500 us page reads): a block-size
#   sweep at 1 s per point in 100 ms intervals; the title names the
#   target, operation, engine, QD, time per point and the noise, from
#   what rebench passes; a PNG of 1000 x 700 too.
# No timing is asserted: only what is drawn.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/svg.sh"

require_cmd gnuplot python3
PLOTS=$TESTS_ROOT/plots
IN=$TESTS_ROOT/tests/golden/in
S=$SCRATCH

# vbars FILE: vertical segments drawn by the plot's elements (error
# bars), not by the grid or the axes' ticks.
vbars() {
	python3 - "$1" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
n = 0
for p in re.split(r'<g id="gnuplot_plot_\d+[a-z]*"', svg)[1:]:
    p = p.split('<g id="gnuplot_canvas')[0]
    for d in re.findall(r"d='([^']*)'", p):
        for x1, y1, x2, y2 in re.findall(r"M([\d.]+),([\d.]+)\s+L([\d.]+),([\d.]+)", d):
            if abs(float(x1) - float(x2)) < 0.01 and abs(float(y1) - float(y2)) > 0.5:
                n += 1
print(n)
PY
}
# the half-width median of a table's ops_ci_pct column, as lines.gp writes it
median_pct() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ops_ci_pct") c = i; next }
		$c != "-" { print $c }' "$1" | sort -g |
		awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf(m >= 9.95 ? "%.0f\n" : "%.1f\n", m) }'
}

# ------------------------------------------------- (a) a saved alignment sweep
section "(a) lines.gp on a saved 8 x 8 sweep, by hand"
cp "$IN/lines-align.tsv" "$S/align.tsv"
cp "$IN/lines-align.tsv.matrix" "$S/align.tsv.matrix"
rc=0
gnuplot -c "$PLOTS/lines.gp" "$S/align.tsv" "$S/a.svg" stride block-size >"$S/a.out" 2>&1 || rc=$?
assert_eq 0 "$rc" "(a) lines.gp draws the SVG"
assert_eq "" "$(cat "$S/a.out")" "(a) gnuplot says nothing"
has_text "$S/a.svg" "ops/s by alignment (stride), one line per block size" "(a) what is drawn"
has_text "$S/a.svg" "/dev/loop0: read, rnd uniform, stateful, QD 1, 1s per point" \
	"(a) target, operation, pattern, engine, QD and time per point, from the matrix beside the table"
med=$(median_pct "$S/align.tsv")
assert_match "^noise \+-${med//./\\.}% \(median 95% half-width of 64 points, [0-9.]+\.\.[0-9.]+%; bars: 95% intervals\)$" \
	"$(texts "$S/a.svg" | grep '^noise')" "(a) the noise: the median of the points' half-widths (+-$med%)"
nb=$(vbars "$S/a.svg")
assert_num "(a) an error bar per point: $nb vertical bars for 64 points" "$nb >= 64"
has_text "$S/a.svg" "best (highest)" "(a) the best point marked"
assert_match "^within noise of the best \([0-9]+\)$" "$(texts "$S/a.svg" | grep '^within noise')" \
	"(a) the points within noise of the best marked"
for t in "512 B" "1 KiB" "1536 B" "3584 B" "4 KiB" "block size 2 KiB" "block size 2560 B" \
	"alignment (stride)" "ops/s"; do
	has_text "$S/a.svg" "$t" "(a) IEC sizes, axis names"
done
assert_eq "" "$(texts "$S/a.svg" | grep -xE '[0-9]+k|4096|\(bytes\)|.*bytes\)')" "(a) no 4k, no 4096, no (bytes)"
gnuplot -c "$PLOTS/lines.gp" "$S/align.tsv" "$S/a.png" stride block-size
assert_png "$S/a.png" 1000 700 "(a)"
# without the matrix beside it: the table's target and seconds
rm "$S/align.tsv.matrix"
gnuplot -c "$PLOTS/lines.gp" "$S/align.tsv" "$S/a2.svg" stride block-size
has_text "$S/a2.svg" "/dev/loop0, 1 s per point (the table's seconds)" "(a) no matrix: the table's target and seconds"

# ---------------------------------------------------- (b) no intervals
section "(b) a table without intervals"
gnuplot -c "$PLOTS/lines.gp" "$IN/lines-bs-nonoise.tsv" "$S/b.svg" block-size dist log
has_text "$S/b.svg" "ops/s by block size, one line per dist (log axes)" "(b) log axes: the values span a decade"
has_text "$S/b.svg" "noise unknown: no interval per point (rebench -g with at least 10 intervals a point, or --repeat N)" \
	"(b) the noise said to be unknown, and how to measure it"
assert_eq 0 "$(texts "$S/b.svg" | grep -c '^best')" "(b) no best marked without intervals"
nb=$(vbars "$S/b.svg")
assert_num "(b) no error bars ($nb vertical segments)" "$nb < 8"
for t in "512 B" "64 KiB" "dist uniform" "block size"; do has_text "$S/b.svg" "$t" "(b)"; done

# ------------------------------------------------- (c) rebench --plot
section "(c) rebench --plot on a model SSD"
require_loop
DEV=$(make_model --size 32m ssd:read=500us,program=500us)
export REBENCH_PLOTS=$PLOTS
rb_ok "(c) a block-size sweep with --plot" -b 512,4k,16k -d 1 -g 100 --order shuffled:1 --output "$S/c.tsv" --plot "$S/c.svg" "$DEV"
assert_match '^ops/s by block size \(log (axes|x axis)\)$' "$(texts "$S/c.svg" | grep '^ops/s by')" "(c) what is drawn"
assert_match "^$DEV.*: read, rnd uniform, stateful, QD 1, 1s per point$" \
	"$(texts "$S/c.svg" | grep "^$DEV")" "(c) target, operation, pattern, engine, QD, time per point"
assert_match "^noise \+-[0-9.]+% \(median 95% half-width of 3 points" "$(texts "$S/c.svg" | grep '^noise')" \
	"(c) the noise of the 3 points"
nb=$(vbars "$S/c.svg")
assert_num "(c) an error bar per point ($nb)" "$nb >= 3"
rb_ok "(c) the same to a PNG" -b 512,4k,16k -d 1 -g 100 --plot "$S/c.png" "$DEV"
assert_png "$S/c.png" 1000 700 "(c) --plot"
