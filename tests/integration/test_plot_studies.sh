#!/usr/bin/env bash
# test_plot_studies.sh - the studies' plots read back from SVG as a reader
# would (issue 35): the partition study's multiplot and drill-downs
# (plots/alignment-multiplot.gp, alignment-drilldown.gp) and the cache
# study's (plots/cache-pressure.gp), rendered from saved data
# (tests/golden/in/plot-studies/: a raw device and an ext2 file on a
# partition at sector 63 of a model SSD, and a cache-pressure table with
# its intervals).  Asserted: the titles name what was measured (operation,
# pattern, engine, queue depth, time per point, the swept axes, the block
# size in IEC units) and the noise; each panel names its layout and its
# noise, never a path (no /tmp, /var/tmp, mount point or loop device);
# the best cell and those within noise of it are marked (the key and
# their count); the drill-down's 95% intervals as error bars; the cache
# study's two panels on the same left and right edges, one tick style on
# the ops/s axis (1k, 10k, 100k: no 1x10^6 beside 100000).  No device, no
# timing.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/svg.sh"

require_cmd gnuplot python3
P=$TESTS_ROOT/plots
IN=$TESTS_ROOT/tests/golden/in/plot-studies
S=$SCRATCH

# points FILE: how many point glyphs of each kind an SVG draws, by its
# gnuplot ids ("gpPt2", "gpPt5" ..): "ID COUNT" lines
# (its definition less: the uses)
points() { grep -o "gpPt[0-9]*" "$1" | sort | uniq -c | awk '{ print "#" $2, $1 - 1 }'; }

section "the partition study's multiplot"
printf 'raw: aligned\t%s\next2 on p63: 4 KiB +3584 B, 1 MiB +32256 B\t%s\n' \
	"$IN/raw.tsv.matrix" "$IN/ext2-63.tsv.matrix" >"$S/m.list"
gnuplot -e "rb_panel_targets=0" -c "$P/alignment-multiplot.gp" "$S/m.list" "$S/m.svg" \
	"ops/s by block size and alignment on a model SSD (ssd:read=500us), same colour scale" >"$S/m.out" 2>&1 ||
	fail "alignment-multiplot.gp failed: $(cat "$S/m.out")"
M=$S/m.svg
has_text "$M" "ops/s by block size and alignment on a model SSD (ssd:read=500us), same colour scale" "the title names what and where"
has_text "$M" "read, rnd uniform, stateful, QD 1, 500ms per point" "operation, pattern, engine, QD and time per point"
has_text "$M" "raw: aligned" "a panel names its layout"
has_text "$M" "ext2 on p63: 4 KiB +3584 B, 1 MiB +32256 B" "a panel names its layout and alignment in IEC units"
has_text "$M" "noise +-3.2% (median 95% half-width)" "the raw panel's noise, from its noise file"
has_text "$M" "noise +-2.4% (median 95% half-width)" "the ext2 panel's noise, from its noise file"
has_text "$M" "best of its panel (highest)" "the best cells' key"
has_text "$M" "within noise of its panel's best (95%)" "the tied cells' key"
no_match "$M" "/tmp|/var/|mnt\.|/dev/" "no temporary path, mount point or device in the multiplot"
has_text "$M" "alignment (stride)" "x axis"
has_text "$M" "block size" "y axis"
has_text "$M" "3584 B" "sizes on the ticks as the reports write them"
no_match "$M" "^[0-9]+k$|bytes" "no 4k or (bytes) on a size axis"
# 2 best cells (pt 3) and the tied ones (pt 6), as the noise files list
tied=$(cat "$IN/raw.tsv.matrix.noise" "$IN/ext2-63.tsv.matrix.noise" | grep -c '^[0-9]* [0-9]* tied$')
nbest=$(points "$M" | awk '$1 == "#gpPt2" { print $2 }')
assert_num "a best mark per panel, and the key's (pt 3: $nbest)" "${nbest:-0} >= 3"
ntied=$(points "$M" | awk '$1 == "#gpPt5" { print $2 }')
assert_num "a ring per tied cell ($tied), and the key's (pt 6: $ntied)" "${ntied:-0} >= $tied + 1"

section "its drill-down: one block size by alignment"
printf 'raw: aligned\t%s\next2 on p63: 4 KiB +3584 B, 1 MiB +32256 B\t%s\n' \
	"$IN/raw.tsv" "$IN/ext2-63.tsv" >"$S/d.list"
gnuplot -c "$P/alignment-drilldown.gp" "$S/d.list" "$S/d.svg" 4096 >"$S/d.out" 2>&1 ||
	fail "alignment-drilldown.gp failed: $(cat "$S/d.out")"
D=$S/d.svg
has_text "$D" "4 KiB reads by alignment" "the block size in IEC units"
has_text "$D" "read, rnd uniform, stateful, QD 1, 500ms per point" "operation, pattern, engine, QD and time per point"
has_match "$D" "^noise \+-[0-9.]+% \(median 95% half-width, 16 points; bars: 95% intervals\); [0-9]+ within noise of the best$" "the noise and the tied count"
has_text "$D" "best (highest ops/s)" "the best point's key"
has_text "$D" "raw: aligned" "a line names its layout"
no_match "$D" "/tmp|/var/|mnt\.|/dev/" "no temporary path, mount point or device in the drill-down"
# the error bars: one per point (16), as short vertical paths
nbars=$(python3 - "$D" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
# gnuplot's yerrorbars: a path "M x,y1 L x,y2" (vertical) with caps
print(len(re.findall(r"M([\d.]+),([\d.]+) L\1,([\d.]+) M", svg)))
PY
)
assert_num "error bars drawn ($nbars vertical strokes, 16 points)" "$nbars >= 8"

section "the offset drill-down: settings from -e, as the study passes them"
gnuplot -e "rb_about='read, rnd uniform, stateful, QD 1'" -e "rb_duration='500ms per point'" \
	-c "$P/alignment-drilldown.gp" "$S/d.list" "$S/o.svg" 4096 "4 KiB reads at a 4 KiB stride by offset" >/dev/null 2>&1 ||
	fail "alignment-drilldown.gp with -e failed"
has_text "$S/o.svg" "read, rnd uniform, stateful, QD 1, 500ms per point" "the settings line"

section "the cache study"
gnuplot -e "rb_target='a model SSD'" -e "rb_about='100-400 B values through the page cache, 4 threads, stateless, QD 1, writes not flushed'" \
	-e "rb_duration='region 256 MiB, 2 s warm-up + 1 s per point'" \
	-c "$P/cache-pressure.gp" "$IN/cache-pressure.tsv" "$S/c.svg" "$IN/cache-pressure.intervals.tsv" >"$S/c.out" 2>&1 ||
	fail "cache-pressure.gp failed: $(cat "$S/c.out")"
C=$S/c.svg
has_match "$C" "^Working set against cache: random reads, writes and a 50/50 mix of 100-400 B values" "what was measured"
has_text "$C" "a model SSD" "the target"
has_text "$C" "100-400 B values through the page cache, 4 threads, stateless, QD 1, writes not flushed, region 256 MiB, 2 s warm-up + 1 s per point" "settings and time per point"
has_match "$C" "^noise \+-[0-9.]+% \(median 95% half-width of 15 points; bars: 95% intervals; rings: within noise of the operation's best\)$" "the noise"
no_match "$C" "10\^|x10|e\+0" "one tick style (no 1x10^6)"
has_match "$C" "^[0-9]+k$" "ops/s ticks as 1k, 10k .."
# the two panels' edges: every y tick is a stroke in from the left
# border and one in from the right; one pair of x for both panels
edges=$(python3 - "$C" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
xs = set()
for m in re.finditer(r"d='M([\d.]+),([\d.]+) L[\d.]+,\2 M([\d.]+),\2 L", svg):
    if float(m.group(3)) - float(m.group(1)) > 500:  # not the key box
        xs.add("%s-%s" % (m.group(1), m.group(3)))
print(len(xs), " ".join(sorted(xs)))
PY
)
assert_eq 1 "${edges%% *}" "both panels span the same x ($edges)"

section "refusals"
gnuplot -c "$P/cache-pressure.gp" "$IN/cache-pressure.tsv" "$S/x.svg" "$IN/raw.tsv" >"$S/r.out" 2>&1
assert_eq 1 "$?" "an intervals file that is not one is refused"
assert_match "is not a cache-pressure.sh intervals table" "$(cat "$S/r.out")" "and says why"


section "sizes in the studies' titles (workloads/lib-units.sh)"
# the study scripts put sizes typed on their command lines (--size 256m,
# REGION 1g, --drill 1536) into their plot titles through iec_size, in
# the axes' style
. "$TESTS_ROOT/workloads/lib-units.sh"
for pair in "256m=256 MiB" "1g=1 GiB" "16M=16 MiB" "4k=4 KiB" "4096=4 KiB" \
	"1536=1536 B" "512=512 B" "0.5m=512 KiB" "3g=3 GiB"; do
	assert_eq "${pair#*=}" "$(iec_size "${pair%%=*}")" "iec_size ${pair%%=*}"
done
assert_eq "a-word" "$(iec_size a-word)" "iec_size: not a size, unchanged"
