#!/usr/bin/env bash
# test_plot_titles.sh - every plots/*.gp script rendered to SVG and its
# title and axis labels read back for what issue 35 asks a plot to say:
# what was measured (target, operation, pattern, block size or the swept
# axis, queue depth, engine, time per point, noise), no temporary path
# (/tmp/..., /var/tmp/...) in any text, and sizes on an axis in the one
# style of the reports (512 B, 4 KiB, 3584 B: no "4k", "4096" or
# "(bytes)").  One list of every field for every script, so that a script
# that loses a field, or a new script, is caught here.
#
# Data: small real runs on a model SSD (1 ms page reads: model times far
# above the FUSE and loop floor) for what rebench --plot draws (heatmap,
# lines, time series, per-I/O latency, steady state, compare, advise) and
# what is drawn by hand from rebench's files (surface, distribution, the
# series again); saved runs in tests/golden/in/ for the studies and
# --hosts (plot-studies/, plot-titles/, which says how they were made,
# with the -e settings each study passed its plot).  A field a plot cannot
# know is listed with the reason instead of a check.  No timing is
# asserted.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/svg.sh"

require_rebench
require_cmd gnuplot python3 jq
P=${PLOTS_UNDER_TEST:-$TESTS_ROOT/plots}
export REBENCH_PLOTS=$P
IN=$TESTS_ROOT/tests/golden/in
S=$SCRATCH

# all SVG: its texts joined, one a line (the title's lines are texts)
# has_field SVG PLOT FIELD ERE: a text of the SVG matches ERE
has_field() { has_match "$1" "$4" "$2: $3"; }
# common SVG PLOT: what every plot must not show
common() {
	no_match "$1" "/tmp/|/var/tmp/|rebench-[a-z]+\.[A-Za-z0-9]{6}" "$2: no temporary path"
	no_match "$1" "\(bytes\)|, bytes\)|[0-9]-byte " "$2: no \"(bytes)\": sizes carry their unit"
	no_match "$1" "[0-9]x10\^|[0-9]e[+-]?[0-9]" "$2: no 1x10^6 or 1e+06 tick"
}
# sizes SVG PLOT TICK...: a size axis in the reports' style (each TICK
# present, no 4k / 4096 / 512 alone)
sizes() {
	local svg=$1 plot=$2 t
	shift 2
	for t in "$@"; do has_text "$svg" "$t" "$plot: a size tick as the reports write it"; done
	no_match "$svg" "^([0-9]+[kKmM]|1024|2048|4096|8192|16384|65536)$" "$plot: no size tick as 4k or 4096"
}
# gp_with E_FILE SCRIPT ARGS...: gnuplot -c SCRIPT with the -e settings
# of E_FILE (one a line, as the study passed them)
gp_with() {
	local ef=$1 a=() l
	shift
	while IFS= read -r l; do [ -n "$l" ] && a+=(-e "$l"); done <"$ef"
	gnuplot "${a[@]}" -c "$P/$1" "${@:2}" >"$S/gp.out" 2>&1 ||
		fail "gnuplot -c $1 failed: $(cat "$S/gp.out")"
}
# gp_plain SCRIPT ARGS...: gnuplot -c SCRIPT, by hand
gp_plain() { gnuplot -c "$P/$1" "${@:2}" >"$S/gp.out" 2>&1 || fail "gnuplot -c $1 failed: $(cat "$S/gp.out")"; }
declare -A DONE=()

# ================================================================ real runs
DEV=$(make_model --size 64m ssd:read=1ms)
W=(-d 200ms -g 20ms --seed 7)

section "heatmap.gp (rebench --plot of a two-axis sweep)"
rb_ok "a 2 x 2 sweep" -b 512,4k -s 512,4k "${W[@]}" --output "$S/h.tsv" --plot "$S/h.svg" "$DEV"
H=$S/h.svg
has_field "$H" heatmap "what and the swept axes" "^ops/s by block size and alignment$"
has_field "$H" heatmap "target, operation, pattern, engine, QD, time per point" \
	"^$DEV: read, rnd uniform, stateful, QD 1, 200ms per point$"
has_field "$H" heatmap noise "^noise (\+-[0-9.]+%|unknown)"
has_text "$H" "block size" "heatmap: y axis"
has_text "$H" "alignment (stride)" "heatmap: x axis"
sizes "$H" heatmap "512 B" "4 KiB"
common "$H" heatmap
DONE[heatmap.gp]=1

section "surface.gp (by hand from the sweep's matrix)"
gp_plain surface.gp "$S/h.tsv.matrix" "$S/surface.svg"
U=$S/surface.svg
has_field "$U" surface "what and the swept axes" "^ops/s by block size and alignment$"
has_field "$U" surface "target, operation, pattern, engine, QD, time per point" \
	"^$DEV: read, rnd uniform, stateful, QD 1, 200ms per point$"
has_field "$U" surface noise "^noise (\+-[0-9.]+%|unknown)"
sizes "$U" surface "512 B" "4 KiB"
common "$U" surface
DONE[surface.gp]=1

section "lines.gp (rebench --plot of a one-axis sweep)"
rb_ok "a block-size sweep" -b 512,2k,4k "${W[@]}" --plot "$S/l.svg" "$DEV"
L=$S/l.svg
has_field "$L" lines "what and the swept axis" "^ops/s by block size"
has_field "$L" lines "target, operation, pattern, engine, QD, time per point" \
	"^$DEV: read, rnd uniform, stateful, QD 1, 200ms per point$"
has_field "$L" lines noise "^noise (\+-[0-9.]+%|unknown)"
has_text "$L" "block size" "lines: x axis"
sizes "$L" lines "512 B" "2 KiB" "4 KiB"
common "$L" lines
DONE[lines.gp]=1

section "loadcurve.gp (rebench --plot of a --rate sweep)"
rb_ok "a --rate sweep" --rate 100,200 -b 4k -d 40k --seed 7 --plot "$S/lc.svg" "$DEV"
C=$S/lc.svg
has_field "$C" loadcurve "what" "^Latency against load: --rate swept, latency from each I/O's intended start$"
has_field "$C" loadcurve "target, operation, pattern, block size, engine, QD, arrivals, time per point" \
	"^$DEV: read, rnd uniform, 4 KiB I/Os, .*stateful, QD 1, fixed arrivals, .*per point$"
has_field "$C" loadcurve "noise: one run per point" "^noise: one run per point, no interval"
has_text "$C" "achieved rate (ops/s)" "loadcurve: x axis"
has_text "$C" "latency (ms), log scale" "loadcurve: y axis"
common "$C" loadcurve
DONE[loadcurve.gp]=1

section "timeseries.gp (by hand from the --output series: its comment lines)"
rb_ok "a 1 s series" -b 4k -d 1 -g 50ms --output "$S/ts.tsv" "$DEV"
(cd "$S" && gnuplot -c "$P/timeseries.gp" "$S/ts.tsv" "$S/ts.svg") >"$S/gp.out" 2>&1 ||
	fail "timeseries.gp failed: $(cat "$S/gp.out")"
T=$S/ts.svg
has_field "$T" timeseries "what" "^ops/s and latency over time$"
has_field "$T" timeseries "target, operation, pattern, block size, engine, QD, length and interval" \
	"^$DEV: read, rnd uniform, 4 KiB I/Os, stateful, QD 1, 1s run in 50ms intervals$"
has_field "$T" timeseries "noise: the mean's 95% interval" "95% interval [0-9]+\.\.[0-9]+ \(\+-[0-9.]+%"
has_field "$T" timeseries "the workload named in the legend" "^$DEV: read, rnd uniform, 4 KiB I/Os, stateful, QD 1$"
has_field "$T" timeseries "latency axis in time units" "^[0-9]+ (us|ms)$"
common "$T" timeseries
DONE[timeseries.gp]=1

section "latency.gp (rebench -g 0 --plot)"
rb_ok "every I/O logged" -b 4k -d 200ms -g 0 --output "$S/io.tsv" --plot "$S/io.svg" "$DEV"
I=$S/io.svg
has_field "$I" latency "what" "I/Os"
has_field "$I" latency "target, operation, pattern, block size, engine, QD, length" \
	"^$DEV: read, rnd uniform, 4 KiB I/Os, stateful, QD 1, 200ms run, every I/O logged$"
# noise: not applicable, the plot is the distribution of every I/O itself
common "$I" latency
DONE[latency.gp]=1

section "steadystate.gp (rebench --steady-state --plot)"
rb_ok "steady-state rounds" -o write --yes -b 4k --steady-state --round 100ms --max-rounds 6 -g 20ms \
	--output "$S/ss.tsv" --plot "$S/ss.svg" "$DEV"
Y=$S/ss.svg
has_field "$Y" steadystate "target, operation, pattern, block size, engine, QD" \
	"^$DEV: write, rnd uniform, 4 KiB I/Os, stateful, QD 1"
has_field "$Y" steadystate "time per point: the round" "round"
has_field "$Y" steadystate "noise: the steady-state window's range" "range|20%"
common "$Y" steadystate
DONE[steadystate.gp]=1

section "compare.gp (rebench --compare --plot of two sweeps)"
rb_ok "sweep A" --json -b 512,4k -s 512,4k "${W[@]}" "$DEV"
printf '%s\n' "$RB_OUT" >"$S/a.json"
rb_ok "sweep B, 512 B in" --json -b 512,4k -s 512,4k -j 512 "${W[@]}" "$DEV"
printf '%s\n' "$RB_OUT" >"$S/b.json"
rb_ok "--compare --plot" --compare "$S/a.json" "$S/b.json" --plot "$S/cmp.svg"
C=$S/cmp.svg
has_field "$C" compare "what and the swept axes" "^ops/s of B against A \(B/A\) by block size and alignment$"
has_field "$C" compare "target, operation, pattern, engine, QD, time per point" \
	"^$DEV: read, rnd uniform, stateful, QD 1, 200ms per point"
has_field "$C" compare "A and B by what is their own" "^A a\.json: offset 0 B;  B b\.json: offset 512 B$"
has_field "$C" compare "noise: the cells no test can tell apart" "no difference detectable at 95%"
sizes "$C" compare "512 B" "4 KiB"
common "$C" compare
DONE[compare.gp]=1

section "distribution.gp (by hand from a --json run)"
rb_ok "a zipf run" --json -u zipf:1.2 -b 4k -d 300ms "$DEV"
printf '%s\n' "$RB_OUT" >"$S/zipf.json"
gp_plain distribution.gp "$S/zipf.json" "$S/dist.svg"
D=$S/dist.svg
has_field "$D" distribution "what: the distribution" "zipf"
# target, operation, QD, engine, time: the run's, from its JSON
has_field "$D" distribution "target" "$DEV"
has_field "$D" distribution "operation and block size" "read.*4 KiB|4 KiB.*read"
common "$D" distribution
DONE[distribution.gp]=1

section "advise-btree.gp (rebench --advise btree --plot, a run on the model)"
rb_ok "--advise btree" --advise btree --rows 1000000000 --key-size 32 -b 4k,16k -d 200ms -g 20ms --seed 7 --plot "$S/adv.svg" "$DEV"
A=$S/adv.svg
has_field "$A" advise-btree "what" "^B-tree node size"
has_field "$A" advise-btree "the model: rows, entry size" "1000000000 rows, 32 B entries"
has_field "$A" advise-btree "target" "$DEV"
has_field "$A" advise-btree "operation, pattern, engine, QD, time per point" "read, rnd uniform, .*stateful, QD 1, 200ms per point"
has_field "$A" advise-btree "noise: 95% intervals" "95% interval"
has_text "$A" "node size (block size)" "advise-btree: x axis"
sizes "$A" advise-btree "4 KiB" "16 KiB"
common "$A" advise-btree
DONE[advise-btree.gp]=1

# ================================================================ saved runs
section "alignment-multiplot.gp (the partition study's, saved)"
printf 'raw: aligned\t%s\next2 on p63: 4 KiB +3584 B, 1 MiB +32256 B\t%s\n' \
	"$IN/plot-studies/raw.tsv.matrix" "$IN/plot-studies/ext2-63.tsv.matrix" >"$S/m.list"
gnuplot -e "rb_panel_targets=0" -c "$P/alignment-multiplot.gp" "$S/m.list" "$S/m.svg" >"$S/gp.out" 2>&1 ||
	fail "alignment-multiplot.gp failed: $(cat "$S/gp.out")"
M=$S/m.svg
has_field "$M" alignment-multiplot "what and the swept axes" "^ops/s by block size and alignment, same colour scale$"
has_field "$M" alignment-multiplot "operation, pattern, engine, QD, time per point" "^read, rnd uniform, stateful, QD 1, 500ms per point$"
has_field "$M" alignment-multiplot "each panel's noise" "^noise \+-[0-9.]+% \(median 95% half-width\)$"
has_text "$M" "block size" "alignment-multiplot: y axis"
has_text "$M" "alignment (stride)" "alignment-multiplot: x axis"
sizes "$M" alignment-multiplot "512 B" "3584 B" "4 KiB"
common "$M" alignment-multiplot
DONE[alignment-multiplot.gp]=1

section "alignment-drilldown.gp (the partition study's, saved)"
printf 'raw: aligned\t%s\next2 on p63: 4 KiB +3584 B, 1 MiB +32256 B\t%s\n' \
	"$IN/plot-studies/raw.tsv" "$IN/plot-studies/ext2-63.tsv" >"$S/d.list"
gp_plain alignment-drilldown.gp "$S/d.list" "$S/dd.svg" 4096
DD=$S/dd.svg
has_field "$DD" alignment-drilldown "what: block size, operation, the swept axis" "^4 KiB reads by alignment$"
has_field "$DD" alignment-drilldown "operation, pattern, engine, QD, time per point" "^read, rnd uniform, stateful, QD 1, 500ms per point$"
has_field "$DD" alignment-drilldown noise "^noise \+-[0-9.]+% \(median 95% half-width"
has_text "$DD" "alignment (stride)" "alignment-drilldown: x axis"
sizes "$DD" alignment-drilldown "512 B" "3584 B" "4 KiB"
common "$DD" alignment-drilldown
DONE[alignment-drilldown.gp]=1

section "cache-pressure.gp (the cache study's, saved, with its -e)"
gnuplot -e "rb_target='a model SSD'" \
	-e "rb_about='100-400 B values through the page cache, 4 threads, stateless, QD 1, writes not flushed'" \
	-e "rb_duration='region 256m, 2 s warm-up + 1 s per point'" \
	-c "$P/cache-pressure.gp" "$IN/plot-studies/cache-pressure.tsv" "$S/cp.svg" \
	"$IN/plot-studies/cache-pressure.intervals.tsv" >"$S/gp.out" 2>&1 || fail "cache-pressure.gp failed: $(cat "$S/gp.out")"
CP=$S/cp.svg
has_field "$CP" cache-pressure "what: operations and value sizes" "^Working set against cache: random reads, writes"
has_field "$CP" cache-pressure "target" "^a model SSD$"
has_field "$CP" cache-pressure "engine, QD, time per point" "stateless, QD 1, .*1 s per point"
has_field "$CP" cache-pressure noise "^noise \+-[0-9.]+% \(median 95% half-width"
common "$CP" cache-pressure
DONE[cache-pressure.gp]=1

section "characterize.gp (rebench --characterize --output, saved)"
gp_plain characterize.gp "$IN/characterize-ssd.tsv" "$S/char.svg"
CH=$S/char.svg
has_field "$CH" characterize "target" "^rebench --characterize: /dev/"
has_field "$CH" characterize "engine" "direct I/O, uring"
has_field "$CH" characterize "operation and pattern" "random reads"
has_field "$CH" characterize "the swept axes: boundary, queue depth, working set" "queue depth"
has_field "$CH" characterize "noise: 95% intervals" "95%"
sizes "$CH" characterize "1 KiB" "64 KiB"
common "$CH" characterize
DONE[characterize.gp]=1

F=$IN/plot-titles
section "hdd-study.gp (the HDD study's, saved, with its -e)"
gp_with "$F/hdd-study.e" hdd-study.gp "$F/hdd-study" "$S/hdd.svg"
HD=$S/hdd.svg
has_field "$HD" hdd-study "target: the model disk" "^model disk /dev/loopA: 7200 rpm"
has_field "$HD" hdd-study "operation, pattern, block size" "4 KiB random against sequential reads"
has_field "$HD" hdd-study "QD, engine (O_DIRECT), time per point" "^reads at QD 1, O_DIRECT, .*random reads a point"
has_field "$HD" hdd-study "noise: 95% intervals" "95% intervals"
common "$HD" hdd-study
DONE[hdd-study.gp]=1

section "sync-policies.gp (the sync study's, saved, with its -e)"
gp_with "$F/sync-policies.e" sync-policies.gp "$F/sync-policies.tsv" "$S/sync.svg"
SY=$S/sync.svg
has_field "$SY" sync-policies "operation, pattern, the swept axis" "^Random writes per --sync policy"
has_field "$SY" sync-policies "target, time per point" "^/dev/loopA: 0.2s per point$"
has_field "$SY" sync-policies "noise: said unknown (one run a point)" "^noise unknown"
sizes "$SY" sync-policies "4 KiB" "16 KiB"
# QD and engine: the study passes no rb_about (workloads/sync-policies.sh)
common "$SY" sync-policies
DONE[sync-policies.gp]=1

section "write-cliff.gp (the write-cliff study's, saved, with its -e)"
gp_with "$F/write-cliff-rounds.e" write-cliff.gp "$F/write-cliff-rounds.tsv" "$S/cliff.svg"
WC=$S/cliff.svg
has_field "$WC" write-cliff "target, operation, pattern, block size, QD, the round" \
	"^model SSD ssd:.*: random 4 KiB writes \(--sync none\), QD 1, rounds of 0.5 s$"
has_field "$WC" write-cliff "noise: the steady state's range and slope" "range [0-9.]+%, slope"
common "$WC" write-cliff
DONE[write-cliff.gp]=1

section "hosts.gp (rebench --hosts --plot, saved, with its -e)"
gp_with "$F/hosts.e" hosts.gp "$F/hosts.tsv" "$S/hosts.svg"
HO=$S/hosts.svg
has_field "$HO" hosts "what" "^ops/s per host"
has_field "$HO" hosts "target, operation, pattern, block size, engine, QD, length" \
	"^/dev/loopA \(or each host's own\): read, rnd uniform, 4 KiB I/Os, .*stateful, QD 1, 300ms run"
has_field "$HO" hosts "noise: one run per host" "one run per host, no interval"
common "$HO" hosts
DONE[hosts.gp]=1

section "every script in plots/ is read here"
for f in "$P"/*.gp; do
	b=$(basename "$f")
	[ -n "${DONE[$b]:-}" ] && pass "$b: its title and labels read" ||
		check_failed "$b: its title and labels read" "add $b to test_plot_titles.sh"
done
# PLOT_TITLES_KEEP=DIR: the SVGs copied there, to be looked at
if [ -n "${PLOT_TITLES_KEEP:-}" ]; then
	mkdir -p "$PLOT_TITLES_KEEP" && cp "$S"/*.svg "$PLOT_TITLES_KEEP/"
fi
