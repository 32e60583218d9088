#!/usr/bin/env bash
# test_plot_compare.sh - the compare heatmap and the time series read back
# from SVG as a storage engineer reads them (issue 35), from small runs on
# a model SSD (500 us page reads: ten times the FUSE and loop floor).
#   compare: the title names the target, the settings and the time per
#   point, A and B by their files' base names and what is their own (the
#   offset), never the temporary directory the files were in; the key line
#   whole; every title line within the picture's width (a long name is
#   wrapped, not cut); sizes on the axes as "2 KiB", "4 KiB"; colour-bar
#   ticks at round ratios; and the model's effect: 4 KiB reads 512 B off
#   the pages cost two page reads, B/A 0.4..0.7 (model: 540/1040 = 0.52).
#   time series: the title and what ran; each workload's legend as rebench
#   names it; the 95% interval of the mean in the legend, equal to the one
#   rebench printed; "no 95% interval" under 10 intervals; "no p99 per
#   interval" for rebench's series, a "p99" line for one with lat_p99_us;
#   the legends under the upper panel's time axis (not on the title or
#   the data); the series' comment lines (target, settings, length, each
#   workload's name) and, by hand, the title and legend drawn from them;
#   without them (an older file), the file's name, not a path.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/svg.sh"

require_loop
require_cmd gnuplot python3 jq

export REBENCH_PLOTS=$TESTS_ROOT/plots
PLOTS=$TESTS_ROOT/plots
DEV=$(make_model --size 32m ssd:read=500us,program=500us)
S=$SCRATCH

# text_y FILE TEXT: the y of the first text that is exactly TEXT.
text_y() {
	python3 - "$1" "$2" <<'PY'
import html, re, sys
svg = open(sys.argv[1]).read()
for y, t in re.findall(r'<g transform="translate\([\d.]+,([\d.]+)\)[^"]*"[^>]*>\s*<text[^>]*>(.*?)</text>', svg, re.S):
    if html.unescape(re.sub(r"<[^>]+>", "", t)).strip() == sys.argv[2]:
        print(y); break
PY
}

# ================================================================ compare
section "compare: what was compared, in words, no temporary path"
rb_ok "sweep A: offset 0" -b 2k,4k -s 2k,4k -d 300ms -g 30 --json "$DEV"
printf '%s\n' "$RB_OUT" >"$S/a.json"
rb_ok "sweep B: offset 512" -b 2k,4k -s 2k,4k -d 300ms -g 30 -j 512 --json "$DEV"
printf '%s\n' "$RB_OUT" >"$S/b.json"
# the demo's files are in a temporary directory: its name must not show
tmpd=$(mktemp -d "$S/rebench-demo.XXXXXX")
cp "$S/a.json" "$tmpd/align.json"
cp "$S/b.json" "$tmpd/align-512.json"
rb --compare "$tmpd/align.json" "$tmpd/align-512.json" --plot "$S/cmp.svg"
assert_rc 0 "--compare --plot FILE.svg: exit 0"
has_text "$S/cmp.svg" "ops/s of B against A (B/A) by block size and alignment" "title: what is drawn"
has_text "$S/cmp.svg" "$DEV: read, rnd uniform, stateful, QD 1, 300ms per point" "title: target, settings, time per point"
has_text "$S/cmp.svg" "A align.json: offset 0 B;  B align-512.json: offset 512 B" "title: A and B by name and what differs"
has_text "$S/cmp.svg" "grey dot: no difference detectable at 95%; ?: no interval to judge by" "title: the key line whole"
no_match "$S/cmp.svg" "rebench-demo|$S" "no temporary directory in any text"
has_text "$S/cmp.svg" "2 KiB" "axis: 2 KiB"
has_text "$S/cmp.svg" "4 KiB" "axis: 4 KiB"
no_match "$S/cmp.svg" '^[0-9]+k$' "no 2k/4k tick labels"
has_text "$S/cmp.svg" "block size" "y axis: block size"
has_text "$S/cmp.svg" "alignment (stride)" "x axis: alignment"
# the colour bar: every tick a round ratio
# cell labels are "0.52"-style; the colour bar's ticks are right of the
# cells: a tick such as 0.06 or 4.13 is not in the round set
cb=$(python3 - "$S/cmp.svg" <<'PY'
import html, re, sys
svg = open(sys.argv[1]).read()
# the colour bar's tick labels are drawn right of x 850 at 1000 px
for x, t in re.findall(r'<g transform="translate\(([\d.]+),[\d.]+\)[^"]*"[^>]*>\s*<text[^>]*>(.*?)</text>', svg, re.S):
    s = html.unescape(re.sub(r"<[^>]+>", "", t)).strip()
    if float(x) > 780 and re.fullmatch(r"[0-9./]+", s):
        print(s)
PY
)
assert_ne "" "$cb" "the colour bar has tick labels"
odd=$(grep -vxE '1/(16|32|64|128)|0\.(125|25|5|67|8|9)|1|1\.(1|25|5)|2|4|8|16|32|64|128' <<<"$cb" || true)
assert_eq "" "$odd" "colour-bar ticks are round ratios ($(tr '\n' ' ' <<<"$cb"))"
# every title line fits: a long name is wrapped, not cut (SVG: about 7 px a character)
cp "$S/b.json" "$S/after-moving-the-partition-to-sector-2048-and-running-the-whole-block-size-by-alignment-sweep-again-on-the-same-device-$(printf 'x%.0s' {1..40}).json"
rb --compare "$tmpd/align.json" "$S"/after-moving-*.json --plot "$S/cmp-long.svg"
assert_rc 0 "--compare --plot with a long name: exit 0"
long=$(texts "$S/cmp-long.svg" | awk 'length > 132' | head -n 2)
assert_eq "" "$long" "no title line wider than the picture"
has_text "$S/cmp-long.svg" "grey dot: no difference detectable at 95%; ?: no interval to judge by" "long name: the key line whole"
# the effect the model makes: 4 KiB at a 4 KiB alignment, 512 B off the
# pages, reads two pages for one
rb --compare "$S/a.json" "$S/b.json" --json
r=$(jq -r '.compare.rows[] | select(.values["block-size"] == 4096 and .values.stride == 4096 and .metric == "ops_per_s") | .ratio' <<<"$RB_OUT")
assert_num "model: 4 KiB reads 512 B off the pages, B/A $r in 0.4..0.7 (model 540/1040 = 0.52)" "${r:-0} >= 0.4 && ${r:-0} <= 0.7"

# ================================================================ series
section "time series: what ran, its noise, no p99 invented"
rb -d 2 -g 100 -b 4k --output "$S/ts.tsv" --plot "$S/ts.svg" "$DEV"
assert_rc 0 "-d 2 -g 100 --output --plot FILE.svg: exit 0"
ci=$(sed -n 's/^Ops\/sec 95% interval: \([0-9]*\.\.[0-9]*\) (+-\([0-9.]*%\).*/\1 \2/p' <<<"$RB_OUT")
assert_ne "" "$ci" "rebench printed the 95% interval"
has_text "$S/ts.svg" "ops/s and latency over time" "title"
has_text "$S/ts.svg" "$DEV: read, rnd uniform, 4 KiB I/Os, stateful, QD 1, 2s run in 100ms intervals" "what ran: target, settings, length, interval"
has_text "$S/ts.svg" "$DEV: read, rnd uniform, 4 KiB I/Os, stateful, QD 1" "legend: the workload by target and settings"
band=$(texts "$S/ts.svg" | grep '^mean .* ops/s, 95% interval ' | head -n 1)
assert_match "^mean [0-9]+ ops/s, 95% interval ${ci% *} \\(\\+-${ci#* }; batch means, 5 batches of 4 intervals\\)$" \
	"$band" "legend: the 95% interval rebench printed (${ci})"
has_text "$S/ts.svg" "no p99 per interval in the series" "p99: rebench's series has none, and says so"
has_text "$S/ts.svg" "mean" "legend: mean latency"
has_text "$S/ts.svg" "maximum" "legend: maximum latency"
has_text "$S/ts.svg" "latency (log scale)" "latency axis, logarithmic"
has_match "$S/ts.svg" "^[0-9]+ (us|ms)$" "latency ticks as times (100 us, 1 ms)"
# the legends are under the upper panel's time axis: below its 0.0 tick
# label, below the subtitle, above the lower panel's time label
y0=$(text_y "$S/ts.svg" "0.0")
ysub=$(text_y "$S/ts.svg" "$DEV: read, rnd uniform, 4 KiB I/Os, stateful, QD 1, 2s run in 100ms intervals")
ywl=$(text_y "$S/ts.svg" "$DEV: read, rnd uniform, 4 KiB I/Os, stateful, QD 1")
ytime=$(text_y "$S/ts.svg" "time (s), at the end of each interval")
num_true "${ywl:-0} > ${y0:-1e9} && ${ywl:-0} > ${ysub:-1e9} && ${ywl:-0} < ${ytime:-0}" &&
	pass "the legend is under the upper panel (y $ywl; its 0.0 at $y0, subtitle at $ysub)" ||
	check_failed "the legend is under the upper panel" "legend y $ywl, 0.0 at $y0, subtitle at $ysub, time label at $ytime"

rb -d 500ms -g 100 -b 4k --output "$S/short.tsv" --plot "$S/short.svg" "$DEV"
assert_rc 0 "-d 500ms -g 100: exit 0"
has_text "$S/short.svg" "no 95% interval of the mean: 5 complete intervals, batch means needs 10 (a longer run or a shorter -g gives one)" \
	"5 intervals: no interval, said"

# the series names what ran in its comment lines, before the header row
assert_eq "# target: $DEV
# about: read, rnd uniform, 4 KiB I/Os, stateful, QD 1
# duration: 2s run in 100ms intervals" "$(head -n 3 "$S/ts.tsv")" "the series' comment lines: target, settings, length"
assert_match "^# made: rebench [^ ]+, [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}$" "$(sed -n 4p "$S/ts.tsv")" "the series' comment lines: made"
assert_eq "# workload: rnd
# workload 1: $DEV: read, rnd uniform, 4 KiB I/Os, stateful, QD 1" "$(sed -n 5,6p "$S/ts.tsv")" "the series' comment lines: workload kind and name"
assert_eq $'workload\ttime_s\tios\tops_per_s\tmib_per_s\tlat_avg_us\tlat_max_us' "$(sed -n 7p "$S/ts.tsv")" "then the header row"
# by hand, as the demo does: the title and legend from those lines
if (cd "$S" && gnuplot -c "$PLOTS/timeseries.gp" "$S/ts.tsv" "$S/ts-hand.svg") >"$S/gp.out" 2>&1; then
	pass "gnuplot -c timeseries.gp by hand: exit 0"
else
	check_failed "gnuplot -c timeseries.gp by hand: exit 0" "$(cat "$S/gp.out")"
fi
has_text "$S/ts-hand.svg" "$DEV: read, rnd uniform, 4 KiB I/Os, stateful, QD 1, 2s run in 100ms intervals" "by hand: what ran, from the file"
has_text "$S/ts-hand.svg" "$DEV: read, rnd uniform, 4 KiB I/Os, stateful, QD 1" "by hand: the legend names the workload, from the file"
no_match "$S/ts-hand.svg" "$S" "by hand: no directory in any text"
# a file without the comment lines (an older rebench's): the file's name,
# never its directory, and what is missing
grep -v '^#' "$S/ts.tsv" >"$S/bare.tsv"
(cd "$S" && gnuplot -c "$PLOTS/timeseries.gp" "$S/bare.tsv" "$S/bare.svg") >"$S/gp.out" 2>&1
has_text "$S/bare.svg" "bare.tsv: 2s run in 100ms intervals (the file has no \"# target:\" lines: the target and the settings are unknown)" \
	"without comment lines: the file's name, length, interval, and what is missing"
has_text "$S/bare.svg" "workload 1" "without comment lines: the workload as rebench's report names it"
no_match "$S/bare.svg" "$S" "without comment lines: no directory in any text"
# comment lines before the header name what ran; a lat_p99_us column is drawn
{ printf '# target: %s (model SSD)\n# about: read, rnd uniform, 4 KiB I/Os, stateful, QD 1\n# duration: 2s run in 100ms intervals\n' "$DEV"
  awk -F'\t' 'BEGIN { OFS = "\t" } NR == 1 { print $0, "lat_p99_us"; next } { print $0, $7 * 0.9 }' "$S/bare.tsv"; } >"$S/p99.tsv"
gnuplot -c "$PLOTS/timeseries.gp" "$S/p99.tsv" "$S/p99.svg" >"$S/gp.out" 2>&1
has_text "$S/p99.svg" "$DEV (model SSD): read, rnd uniform, 4 KiB I/Os, stateful, QD 1, 2s run in 100ms intervals" "comment lines: what ran"
has_text "$S/p99.svg" "p99" "lat_p99_us: a p99 line in the legend"
no_match "$S/p99.svg" "^no p99" "lat_p99_us: no \"no p99\""
rb -d 1 -g 100 -b 4k --plot "$S/ts.png" "$DEV"
assert_png "$S/ts.png" 1000 700 "time series PNG"
rb --compare "$S/a.json" "$S/b.json" --plot "$S/cmp.png"
assert_png "$S/cmp.png" 1000 700 "compare PNG"
