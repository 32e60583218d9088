#!/usr/bin/env bash
# test_plots.sh - what --plot draws, read back as a reader would: the
# format chosen by the picture's extension in any case (the magic of PNG,
# SVG, PDF and JPEG), other extensions and a gnuplot without the jpeg
# terminal refused before any I/O (a write workload leaves the device
# unchanged); titles, axis labels and legends read from the SVG (what is
# drawn, the target, the settings, the time per point, the version and
# date; "alignment" for a random workload's stride, "stride" for a
# sequential one), the same in the sweep matrix's comment lines; lines of
# two workloads named by target and settings, under the plot; one
# heatmap per name for two swept numbers and a list of names, with both
# axes labelled on every panel and nothing of gnuplot's on stdout;
# --plot-metric (MB/s by default for -w seq, p99, mbs) in the matrix, the
# titles and labels, and its refusals; the time series (a legend that
# names each workload by target and settings, each workload's mean and
# maximum latency in its one colour, ops/s from 0, one interval drawn as a
# point with a note); -g 0's per-I/O log drawn as a latency histogram and
# CDF, and its refusals; the picture's permissions.  No timing is asserted.
# The PNGs stay in $SWEEP_PNG_DIR when it is set, to look at.
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/svg.sh"

require_loop
require_cmd gnuplot python3 dd cksum

export REBENCH_PLOTS=$TESTS_ROOT/plots
DEV=$(make_loop 64M)
S=$SCRATCH
VERSION=$("$REBENCH" --version | awk '{ print $2 }')
W="-d 100ms"

# ---------------------------------------------------------------- helpers

# magic FILE: png, svg, pdf, jpeg, missing or other, from the first bytes.
magic() {
	python3 - "$1" <<'EOF'
import sys
try:
    d = open(sys.argv[1], "rb").read(512)
except OSError:
    print("missing"); sys.exit(0)
if d.startswith(b"\x89PNG\r\n\x1a\n"): print("png")
elif d.startswith(b"%PDF-"): print("pdf")
elif d.startswith(b"\xff\xd8\xff"): print("jpeg")
elif b"<svg" in d: print("svg")
else: print("other")
EOF
}





# colours FILE: "TITLE<TAB>COLOUR" for each plot of an SVG (the stroke of
# its first path), in order.
colours() {
	python3 - "$1" <<'EOF'
import re, sys
svg = open(sys.argv[1]).read()
parts = re.split(r'<g id="gnuplot_plot_\w+" ><title>([^<]*)</title>', svg)
for title, body in zip(parts[1::2], parts[2::2]):
    m = re.search(r"<path stroke='(rgb\([^)]*\))'", body)
    print("%s\t%s" % (title, re.sub(r"\s+", "", m.group(1)) if m else "-"))
EOF
}

printf '%s\n' "-b 4k $DEV" "-w seq -b 64k $DEV" >"$S/two-lines"
made_re="^rebench $VERSION, [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}$"

# ================================================================ formats
section "the format is the extension's"
rb -b 512,1k -s 512,1k $W --plot "$S/h.png" "$DEV"
assert_rc 0 "heatmap .png: exit 0"
assert_eq png "$(magic "$S/h.png")" "h.png is a PNG"
assert_png "$S/h.png" 1000 700 "heatmap .png"
keep_png "$S/h.png"
rb -b 512,1k -s 512,1k $W --plot "$S/h.svg" "$DEV"
assert_rc 0 "heatmap .svg: exit 0"
assert_eq svg "$(magic "$S/h.svg")" "h.svg is an SVG"
rb -b 512,1k -s 512,1k $W --plot "$S/h.pdf" "$DEV"
assert_rc 0 "heatmap .pdf: exit 0"
assert_eq pdf "$(magic "$S/h.pdf")" "h.pdf is a PDF"
rb -b 512..4k*2 $W --plot "$S/l.PDF" "$DEV"
assert_rc 0 "lines .PDF (upper case): exit 0"
assert_eq pdf "$(magic "$S/l.PDF")" "l.PDF is a PDF"
rb -d 300ms -g 100 --plot "$S/t.Png" "$DEV"
assert_rc 0 "time series .Png: exit 0"
assert_eq png "$(magic "$S/t.Png")" "t.Png is a PNG"
if gnuplot -e 'set terminal jpeg' </dev/null >/dev/null 2>&1; then
	rb -b 512,1k -s 512,1k $W --plot "$S/h.jpg" "$DEV"
	assert_rc 0 "heatmap .jpg: exit 0"
	assert_eq jpeg "$(magic "$S/h.jpg")" "h.jpg is a JPEG, not a PNG in disguise"
	rb -d 300ms -g 100 --plot "$S/t.JPEG" "$DEV"
	assert_rc 0 "time series .JPEG: exit 0"
	assert_eq jpeg "$(magic "$S/t.JPEG")" "t.JPEG is a JPEG"
else
	log "this gnuplot has no jpeg terminal: .jpg is checked only as refused"
fi
assert_eq 644 "$(umask 022; rb -d 200ms --plot "$S/mode.png" "$DEV"; stat -c %a "$S/mode.png")" \
	"the picture is 0644 under umask 022, not mkstemp's 0600"

section "other extensions: refused before any I/O"
SUM=$(dev_sum "$DEV")
# refused_plot WHAT ERE ARGS...: exit 1, the message, no picture, no
# output, the device unchanged (the workloads write)
refused_plot() {
	local what=$1 re=$2 pic
	shift 2
	pic=$(printf '%s\n' "$@" | grep -- "^$S/w" | head -n 1)
	rb "$@"
	assert_rc 1 "$what: exit 1"
	assert_match "$re" "$RB_ERR" "$what: says what, why and how to fix it"
	assert_eq "" "$RB_OUT" "$what: nothing measured"
	assert_eq no "$([ -e "$pic" ] && echo yes || echo no)" "$what: no picture"
	assert_eq "$SUM" "$(dev_sum "$DEV")" "$what: the device is unchanged"
}
refused_plot ".gif" "^rebench: --plot $S/w.gif: rebench draws .png, .svg, .pdf and .jpg pictures, not .gif; give the picture one of those extensions$" \
	-o write --yes $W --plot "$S/w.gif" "$DEV"
refused_plot "no extension" "^rebench: --plot $S/w: the name has no extension, and gnuplot's format is chosen by it; name the picture .png, .svg, .pdf or .jpg$" \
	-o write --yes $W --plot "$S/w" "$DEV"
refused_plot "a sweep's .bmp" "not .bmp" -o write --yes -b 4k,8k $W --plot "$S/w.bmp" "$DEV"
# a gnuplot built without libgd: no jpeg terminal
mkdir -p "$S/nojpeg"
cat >"$S/nojpeg/gnuplot" <<EOF
#!/bin/sh
case "\$*" in *"terminal jpeg"*) echo 'unknown or ambiguous terminal type' >&2; exit 1 ;; esac
exec $(command -v gnuplot) "\$@"
EOF
chmod +x "$S/nojpeg/gnuplot"
PATH=$S/nojpeg:$PATH refused_plot ".jpg, gnuplot without jpeg" \
	"^rebench: --plot $S/w.jpg: this gnuplot has no jpeg terminal .*; name the picture .png, .svg or .pdf$" \
	-o write --yes $W --plot "$S/w.jpg" "$DEV"
PATH=$S/nojpeg:$PATH rb -b 512,1k -s 512,1k $W --plot "$S/ok.png" "$DEV"
assert_rc 0 "the same gnuplot draws a .png"
assert_eq png "$(magic "$S/ok.png")" "... a PNG"

# ================================================================ titles
section "a heatmap says what it shows and what produced it"
rb -b 512,1k -s 512,1k $W --output "$S/a.tsv" --plot "$S/a.svg" "$DEV"
assert_rc 0 "rnd heatmap: exit 0"
has_text "$S/a.svg" "ops/s by block size and alignment" "title"
has_text "$S/a.svg" "$DEV: read, rnd uniform, stateful, QD 1, 100ms per point" "what produced it"
has_text "$S/a.svg" "alignment (stride)" "x axis: a random workload's stride is its alignment"
has_text "$S/a.svg" "block size" "y axis"
for t in "512 B" "1 KiB"; do has_text "$S/a.svg" "$t" "sizes on the ticks as the reports write them"; done
no_match "$S/a.svg" "^(1k|512|1024)$|bytes" "no 1k, 512 or (bytes) on a size axis"
has_text "$S/a.svg" "ops/s" "colour bar"
assert_match "$made_re" "$(texts "$S/a.svg" | grep '^rebench ')" "the corner: version, date and time"
M=$S/a.tsv.matrix
assert_eq "# rebench sweep matrix
# rows: block-size
# columns: stride
# values: ops_per_s
# target: $DEV
# about: read, rnd uniform, stateful, QD 1
# duration: 100ms per point" "$(head -n 7 "$M")" "the matrix says what produced it"
assert_match "^# made: rebench $VERSION, " "$(sed -n 8p "$M")" "the matrix: made"
assert_eq "# workload: rnd" "$(sed -n 9p "$M")" "the matrix: workload"
# the same matrix, drawn by hand: the same title
gnuplot -c "$REBENCH_PLOTS/heatmap.gp" "$M" "$S/hand.svg" 2>"$S/gp.err"
assert_eq 0 "$?" "heatmap.gp by hand: exit 0"
has_text "$S/hand.svg" "$DEV: read, rnd uniform, stateful, QD 1, 100ms per point" "by hand: from the matrix's lines"
gnuplot -c "$REBENCH_PLOTS/heatmap.gp" "$M" "$S/hand.gif" 2>"$S/gp.err"
assert_eq 1 "$?" "heatmap.gp to .gif: exit 1"
assert_match '^heatmap.gp: .*hand.gif: gnuplot cannot write ".gif" pictures here; name the picture .png, .svg, .pdf or .jpg$' \
	"$(<"$S/gp.err")" "heatmap.gp to .gif: says so"

section "a sequential workload: MB/s and stride"
rb -w seq -b 512,1k -s 1k,2k $W --output "$S/q.tsv" --plot "$S/q.svg" "$DEV"
assert_rc 0 "seq heatmap: exit 0"
has_text "$S/q.svg" "MiB/s by block size and stride" "title: MB/s, the default for -w seq"
has_text "$S/q.svg" "$DEV: read, seq, stateful, QD 1, 100ms per point" "what produced it"
has_text "$S/q.svg" "stride" "x axis: a sequential stride is a stride"
has_text "$S/q.svg" "MiB/s" "colour bar"
assert_eq "# values: mib_per_s" "$(sed -n 4p "$S/q.tsv.matrix")" "the matrix holds MB/s"
bad=$(python3 - "$S/q.tsv" "$S/q.tsv.matrix" mib_per_s <<'EOF'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
h = rows[0]
want = {(r[0], r[1]): float(r[h.index(sys.argv[3])]) for r in rows[1:] if r[h.index("workload")] == "1"}
data = [l.split() for l in open(sys.argv[2]) if not l.startswith("#") and l.strip()]
cols = data[0][1:]
for r in data[1:]:
    for c, v in zip(cols, r[1:]):
        if abs(float(v) - want[(r[0], c)]) > 0.011:
            print("block-size %s stride %s: matrix %s, table %s" % (r[0], c, v, want[(r[0], c)]))
EOF
)
assert_eq "" "$bad" "the matrix's MB/s are the table's"

# ================================================================ metric
section "--plot-metric"
rb -b 512,1k -s 512,1k $W --plot-metric p99 --output "$S/p.tsv" --plot "$S/p.svg" "$DEV"
assert_rc 0 "--plot-metric p99: exit 0"
has_text "$S/p.svg" "p99 latency by block size and alignment" "p99: title"
has_text "$S/p.svg" "p99 latency (us)" "p99: colour bar"
assert_eq "# values: lat_p99_us" "$(sed -n 4p "$S/p.tsv.matrix")" "p99: the matrix holds p99"
bad=$(python3 - "$S/p.tsv" "$S/p.tsv.matrix" lat_p99_us <<'EOF'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
h = rows[0]
want = {(r[0], r[1]): float(r[h.index(sys.argv[3])]) for r in rows[1:] if r[h.index("workload")] == "1"}
data = [l.split() for l in open(sys.argv[2]) if not l.startswith("#") and l.strip()]
cols = data[0][1:]
for r in data[1:]:
    for c, v in zip(cols, r[1:]):
        if abs(float(v) - want[(r[0], c)]) > 0.011:
            print("block-size %s stride %s: matrix %s, table %s" % (r[0], c, v, want[(r[0], c)]))
EOF
)
assert_eq "" "$bad" "p99: the matrix's values are the table's lat_p99_us"
rb -b 512..4k*2 $W --plot-metric mbs --plot "$S/m.svg" "$DEV"
assert_rc 0 "a block-size sweep in MB/s: exit 0"
# log x always; y logarithmic only when the values span a decade (data)
assert_match '^MiB/s by block size \(log (axes|x axis)\)$' "$(texts "$S/m.svg")" "mbs lines: title"
has_text "$S/m.svg" "MiB/s" "mbs lines: y axis"
has_text "$S/m.svg" "$DEV: read, rnd uniform, stateful, QD 1, 100ms per point" "mbs lines: what produced it"
rb -b 512..4k*2 $W --plot "$S/o.svg" "$DEV"
assert_match '^ops/s by block size \(log (axes|x axis)\)$' "$(texts "$S/o.svg")" "random lines: ops/s by default"
refused_plot "--plot-metric p99 on a time series" \
	"^rebench: --plot-metric p99: a time series has each interval's mean and maximum latency, not its percentiles; " \
	-o write --yes --plot-metric p99 $W --plot "$S/w.png" "$DEV"
rb -o write --yes --plot-metric mbs $W "$DEV"
assert_rc 1 "--plot-metric without --plot: exit 1"
assert_match "^rebench: --plot-metric chooses what --plot draws; add --plot FILE.png, or drop --plot-metric$" \
	"$RB_ERR" "--plot-metric without --plot: says so"
assert_eq "$SUM" "$(dev_sum "$DEV")" "--plot-metric without --plot: the device is unchanged"
rb --plot-metric iops $W --plot "$S/x.png" "$DEV"
assert_rc 1 "--plot-metric iops: exit 1"
assert_match "invalid value 'iops' for --plot-metric: expected one of auto, ops, mbs, p50, p99" \
	"$RB_ERR" "--plot-metric iops: lists the metrics"

section "lines of two workloads: named, under the plot"
rb -t stateless -c 1,2 $W --plot "$S/lw.svg" <"$S/two-lines"
assert_rc 0 "two workloads swept together: exit 0"
has_text "$S/lw.svg" "ops/s by threads, one line per workload" "title"
has_text "$S/lw.svg" "$DEV: 100ms per point" "what they share"
has_text "$S/lw.svg" "$DEV: read, rnd uniform, 4 KiB I/Os, stateless, QD 1" "legend: workload 1"
has_text "$S/lw.svg" "$DEV: read, seq, 64 KiB I/Os, stateless, QD 1" "legend: workload 2"
ky=$(text_pos "$S/lw.svg" | awk -F '\t' -v t="$DEV: read, seq, 64 KiB I/Os, stateless, QD 1" '$3 == t { print $2 }')
xy=$(text_pos "$S/lw.svg" | awk -F '\t' '$3 == "threads" { print $2 }')
assert_num "the long names (y $ky) are under the x axis label (y $xy), not beside a squeezed plot" "$ky > $xy"

# ================================================================ panels
section "two numbers and a list of names: a heatmap per name"
rb -b 512,4k -s 512,4k -u uniform,pow $W --plot "$S/n.svg" "$DEV"
assert_rc 0 "-b 512,4k -s 512,4k -u uniform,pow --plot: exit 0"
assert_eq 9 "$(<<<"$RB_OUT" grep -c .)" "stdout: the table alone (nothing of gnuplot's)"
has_text "$S/n.svg" "ops/s by block size and alignment, same colour scale" "panels: title"
has_text "$S/n.svg" "$DEV: read, rnd, stateful, QD 1, 100ms per point" "panels: what produced them"
has_text "$S/n.svg" "dist uniform" "panel 1 is named"
has_text "$S/n.svg" "dist pow" "panel 2 is named"
assert_eq 2 "$(count_text "$S/n.svg" "alignment (stride)")" "both panels label x"
assert_eq 2 "$(count_text "$S/n.svg" "block size")" "both panels label y"
assert_eq 1 "$(count_text "$S/n.svg" "ops/s")" "one colour bar"
assert_eq 1 "$(texts "$S/n.svg" | grep -c "^rebench $VERSION, ")" "the corner's line once"
rb -b 512,4k -s 512,4k -u uniform,pow $W --plot-metric p50 --output "$S/n.tsv" --plot "$S/n.png" "$DEV"
assert_rc 0 "panels in p50 to PNG: exit 0"
assert_png "$S/n.png" 1200 600 "two panels"
keep_png "$S/n.png"
assert_eq no "$([ -e "$S/n.tsv.matrix" ] && echo yes || echo no)" \
	"no TABLE.matrix for three axes (the panels' matrices are temporary)"
rb -b 512,4k -s 512,4k -u uniform,normal,pow,zipf,pareto,const,zipf:1.1,zipf:1.3,zipf:1.5,zipf:2 \
	$W --plot "$S/ten.png" "$DEV"
assert_rc 1 "10 names: exit 1"
assert_match "^rebench: --plot: --dist has 10 names, a heatmap each, but at most 9 fit on one picture; " \
	"$RB_ERR" "10 names: says so"
assert_eq "" "$RB_OUT" "10 names: nothing measured"
rb -b 512,4k -s 512,4k -u uniform,pow -t stateful,stateless $W --plot "$S/two.png" "$DEV"
assert_rc 1 "two numbers and two lists: exit 1"
assert_match "none that fits" "$RB_ERR" "two numbers and two lists: refused"

# ================================================================ series
section "a time series names its workloads"
rb -d 1 -g 200 --plot "$S/ts.svg" <"$S/two-lines"
assert_rc 0 "two workloads: exit 0"
has_text "$S/ts.svg" "ops/s and latency over time" "title"
has_text "$S/ts.svg" "$DEV: 1s run in 200ms intervals" "what produced it"
has_text "$S/ts.svg" "$DEV: read, rnd uniform, 4 KiB I/Os, stateful, QD 1" "legend: workload 1 by target and settings"
has_text "$S/ts.svg" "$DEV: read, seq, 64 KiB I/Os, stateful, QD 1" "legend: workload 2"
assert_eq 0 "$(texts "$S/ts.svg" | grep -c 'workload [0-9]')" "no \"workload N\" in the legend"
has_text "$S/ts.svg" "latency (log scale)" "the latency axis says it is logarithmic"
has_text "$S/ts.svg" "mean" "legend: mean"
has_text "$S/ts.svg" "maximum" "legend: maximum"
has_text "$S/ts.svg" "0.0" "ops/s from 0"
# plots in order: ops/s of 1 and 2, mean of 1 and 2, max of 1 and 2, keys
c=$(colours "$S/ts.svg" | cut -f2)
assert_eq "$(sed -n 1p <<<"$c")" "$(sed -n 3p <<<"$c")" "workload 1: mean latency in its colour"
assert_eq "$(sed -n 1p <<<"$c")" "$(sed -n 5p <<<"$c")" "workload 1: maximum latency in its colour"
assert_eq "$(sed -n 2p <<<"$c")" "$(sed -n 4p <<<"$c")" "workload 2: mean latency in its colour"
assert_eq "$(sed -n 2p <<<"$c")" "$(sed -n 6p <<<"$c")" "workload 2: maximum latency in its colour"
assert_ne "$(sed -n 1p <<<"$c")" "$(sed -n 2p <<<"$c")" "the two workloads differ in colour"
rb -d 1 -g 200 --plot "$S/ts.png" <"$S/two-lines"
keep_png "$S/ts.png"
rb -d 1 -g 200 --plot-metric mbs --plot "$S/tsm.svg" "$DEV"
assert_rc 0 "time series in MB/s: exit 0"
has_text "$S/tsm.svg" "MiB/s and latency over time" "MB/s series: title"
has_text "$S/tsm.svg" "MiB/s" "MB/s series: y axis"

section "-g 0: every I/O's latency, histogram and CDF"
rb -d 100k -g 0 --output "$S/ios.tsv" --plot "$S/ios.svg" "$DEV"
assert_rc 0 "-g 0 --output --plot: exit 0"
has_text "$S/ios.svg" "latency of 200 I/Os (200 reads): ios.tsv" "title: the I/Os of the log, by its name (no directory)"
has_text "$S/ios.svg" "$DEV: read, rnd uniform, 512 B I/Os, stateful, QD 1, 100 KiB run, every I/O logged" "what produced it"
has_text "$S/ios.svg" "cumulative distribution" "the CDF"
rb -d 100k -g 0 --output "$S/ios2.tsv" --plot-metric ops --plot "$S/ios2.svg" "$DEV"
assert_rc 1 "-g 0 with --plot-metric: refused"
assert_match "has no metric to choose" "$RB_ERR" "-g 0 with --plot-metric: why"
assert_eq missing "$(magic "$S/ios2.svg")" "-g 0 with --plot-metric: nothing drawn"
rb -d 100k -g 0 --plot "$S/ios4.svg" "$DEV"
assert_rc 1 "-g 0 --plot without --output: refused"
assert_match "add --output FILE" "$RB_ERR" "-g 0 --plot without --output: what to add"
assert_no_match "null" "$RB_ERR" "-g 0 --plot without --output: no (null) in the message"
printf '%s\n' "-g 0 --output $S/ios3.tsv $DEV" "-g 100 $DEV" >"$S/g0-and-g100"
rb -d 100k --plot "$S/ios3.svg" <"$S/g0-and-g100"
assert_rc 1 "one workload -g 0, another -g 100: refused"
assert_match "workload 2 samples intervals" "$RB_ERR" "which workload, and why"
rb -d 100k -g 0 --output "$S/ios.tsv" --plot "$S/ios.png" "$DEV"
keep_png "$S/ios.png"

section "one interval: a point and a note"
rb -d 100ms -g 1000 --plot "$S/one.svg" "$DEV"
assert_rc 0 "-d 100ms -g 1000: exit 0"
has_text "$S/one.svg" "one interval per workload (the run lasted one -g step or less): each is a point, not a line" "the note"
has_text "$S/one.svg" "$DEV: read, rnd uniform, 512 B I/Os, stateful, QD 1, 100ms run in 1s intervals" "what produced it"
rb -d 100ms -g 1000 --plot "$S/one.png" "$DEV"
keep_png "$S/one.png"

# ================================================================ characterize
section "--characterize's page: two saved runs drawn by characterize.gp"
# The data files of two runs kept with --output (tests/golden/in/): a model
# SSD (an 8 KiB page, 4 channels, no read cache, no rotation) and a model
# 7200 rpm disk (rotation, seeks, zones, a small read buffer).  rebench
# writes its data file into a temporary folder, as here: its path must not
# be drawn.
IN=$TESTS_ROOT/tests/golden/in
CP=$REBENCH_PLOTS/characterize.gp
mkdir -p "$S/rebench-plot.tmp"
for m in ssd hdd; do
	cp "$IN/characterize-$m.tsv" "$S/rebench-plot.tmp/characterize.tsv"
	gnuplot -c "$CP" "$S/rebench-plot.tmp/characterize.tsv" "$S/char-$m.png" 2>"$S/gp.err"
	assert_eq 0 "$?" "$m: characterize.gp to .png: exit 0"
	assert_eq "" "$(<"$S/gp.err")" "$m: nothing on stderr (no block without points plotted)"
	assert_png "$S/char-$m.png" 1200 900 "$m: the page"
	assert_num "$m: the PNG is drawn, not blank ($(stat -c %s "$S/char-$m.png") bytes)" "$(stat -c %s "$S/char-$m.png") > 40000"
	keep_png "$S/char-$m.png"
	gnuplot -c "$CP" "$S/rebench-plot.tmp/characterize.tsv" "$S/char-$m.svg" 2>"$S/gp.err"
	assert_eq 0 "$?" "$m: characterize.gp to .svg: exit 0"
	assert_eq svg "$(magic "$S/char-$m.svg")" "$m: an SVG"
	assert_eq 0 "$(texts "$S/char-$m.svg" | grep -cF -e "$S" -e .tsv)" "$m: the data file's path is not drawn"
	assert_eq 1 "$(texts "$S/char-$m.svg" | grep -c '^rebench 0.1.0, 2026-11-28 ')" "$m: the corner's line once, from the file"
	for t in "p50 latency, crossing / inside (ratio)" "1.10: crossing costs more above" "1 KiB" "64 KiB" \
		"ops/s (95% interval)" "p50 latency (log)" "queue depth (I/Os in flight, log2)" \
		"reads answered as fast as a cache (95% interval)" "256 KiB" "working set (log2)"; do
		has_text "$S/char-$m.svg" "$t" "$m: a label"
	done
done
C=$S/char-ssd.svg
has_text "$C" "rebench --characterize: /dev/loop1" "ssd: the title names the target, from the file"
has_text "$C" "direct I/O, uring for queue depths" "ssd: what produced it"
has_text "$C" "Boundaries: unit 8 KiB (8-8 KiB)" "ssd: the unit concluded"
has_text "$C" "8 KiB: 1.92x (1.90-1.95)" "ssd: the unit's ratio"
has_text "$C" "costs more (4)" "ssd: verdicts in the key"
has_text "$C" "the same (3)" "ssd: verdicts in the key"
has_text "$C" "Queue depth: parallelism 4.3 (95%: 4.2-4.4), knee at QD 16" "ssd: parallelism and knee"
has_text "$C" "knee: QD 16" "ssd: the knee marked"
has_text "$C" "5 ms" "ssd: latency tics in ms"
has_text "$C" "500 us" "ssd: latency tics in us"
has_text "$C" "Read cache: none seen (0-25.6 KiB)" "ssd: no read cache"
has_text "$C" "no cache seen (no read was fast enough to be a hit)" "ssd: said in the panel"
has_text "$C" "Rotation: none found" "ssd: no rotation"
has_text "$C" "no rotation found: seeks and zones not measured" "ssd: said in the panel"
C=$S/char-hdd.svg
has_text "$C" "Boundaries: no unit concluded" "hdd: no unit"
has_text "$C" "within noise (7)" "hdd: verdicts in the key"
has_text "$C" "Queue depth: parallelism 1.0 (95%: 1.0-1.1), knee at QD 1" "hdd: parallelism and knee"
has_text "$C" "Read cache: 71.7 KiB (50-102 KiB)" "hdd: the read buffer"
has_text "$C" "cache 71.7 KiB" "hdd: its size marked"
has_text "$C" "a hit: under 434 us" "hdd: what a hit is"
has_text "$C" "Seeks: 7237 rpm (95%: 7068-7266)" "hdd: rpm"
has_text "$C" "shortest 2.09 ms (0-3.84), longest 12.7 ms (11.2-13.6)" "hdd: seek times"
has_text "$C" "seek: p50 less half a revolution (ms)" "hdd: seek axis"
has_text "$C" "distance between consecutive reads (log2)" "hdd: distance axis"
has_text "$C" "2 MiB" "hdd: distances in MiB"
has_text "$C" "Zones: sequential reads by position" "hdd: zones"
has_text "$C" "29.9 MiB/s at the start, 22.1 at 896 MiB (74%)" "hdd: zones' figures"
has_text "$C" "MiB/s" "hdd: zones' axis"
# what rebench passes with -e comes before the file's lines
gnuplot -e "rb_target='/dev/sdq (Model X)'; rb_made='rebench 9.9.9, 2030-01-01 00:00'" \
	-c "$CP" "$IN/characterize-hdd.tsv" "$S/char-e.svg" 2>"$S/gp.err"
assert_eq 0 "$?" "-e: exit 0"
has_text "$S/char-e.svg" "rebench --characterize: /dev/sdq (Model X)" "-e: rb_target in the title"
has_text "$S/char-e.svg" "rebench 9.9.9, 2030-01-01 00:00" "-e: rb_made in the corner"

section "characterize.gp: blocks without rows, and bad input"
# a block without rows is no data set to gnuplot's index: the zones after
# an empty seeks block are still the zones
sed '/^# seeks/,/^# zones/{/^[0-9]/d}' "$IN/characterize-hdd.tsv" >"$S/zones-only.tsv"
gnuplot -c "$CP" "$S/zones-only.tsv" "$S/zones-only.svg" 2>"$S/gp.err"
assert_eq 0 "$?" "no seeks, zones: exit 0"
assert_eq "" "$(<"$S/gp.err")" "no seeks, zones: nothing on stderr"
has_text "$S/zones-only.svg" "29.9 MiB/s at the start, 22.1 at 896 MiB (74%)" "no seeks, zones: the zones drawn"
assert_eq 0 "$(count_text "$S/zones-only.svg" "distance between consecutive reads (log2)")" "no seeks, zones: no seeks panel"
# a cache size whose interval starts at 0 (a log axis has no 0)
sed 's/^# read_cache_bytes: .*/# read_cache_bytes: 19315.9 0 51244.8/' "$IN/characterize-hdd.tsv" >"$S/cache-from-0.tsv"
gnuplot -c "$CP" "$S/cache-from-0.tsv" "$S/cache-from-0.svg" 2>"$S/gp.err"
assert_eq 0 "$?" "a cache between 0 and 50 KiB: exit 0"
assert_eq "" "$(<"$S/gp.err")" "a cache between 0 and 50 KiB: nothing on stderr"
has_text "$S/cache-from-0.svg" "Read cache: 18.9 KiB (0-50 KiB)" "a cache between 0 and 50 KiB: the title"
has_text "$S/cache-from-0.svg" "cache 18.9 KiB" "a cache between 0 and 50 KiB: marked"
# every block without rows, nothing concluded
awk '/^# (page_bytes|parallelism|read_cache_bytes|rpm|seek_m.._ms):/ { sub(/:.*/, ": none") } !/^[0-9]/' \
	"$IN/characterize-ssd.tsv" >"$S/no-rows.tsv"
gnuplot -c "$CP" "$S/no-rows.tsv" "$S/no-rows.svg" 2>"$S/gp.err"
assert_eq 0 "$?" "no rows: exit 0"
assert_eq "" "$(<"$S/gp.err")" "no rows: nothing on stderr"
has_text "$S/no-rows.svg" "the boundary test has no points: not measured" "no rows: said in the boundary panel"
has_text "$S/no-rows.svg" "the queue-depth test has no points: not measured" "no rows: said in the queue-depth panel"
has_text "$S/no-rows.svg" "Read cache: not measured" "no rows: the read cache"
# refusals: exit 1, what and how to fix it, no picture
refused_gp() {
	local what=$1 re=$2
	shift 2
	gnuplot -c "$CP" "$@" 2>"$S/gp.err"
	assert_eq 1 "$?" "$what: exit 1"
	assert_match "$re" "$(<"$S/gp.err")" "$what: says what and how to fix it"
}
refused_gp "a missing data file" \
	"^characterize.gp: cannot read $S/nothere.tsv: there is no such file, or it is not a readable file; give the data file rebench --characterize --output FILE wrote$" \
	"$S/nothere.tsv" "$S/nothere.png"
assert_eq missing "$(magic "$S/nothere.png")" "a missing data file: no picture"
refused_gp "a folder" "^characterize.gp: cannot read $S: " "$S" "$S/dir.png"
sed '/^# read cache/,$d' "$IN/characterize-ssd.tsv" >"$S/cut.tsv"
refused_gp "a cut file" "^characterize.gp: $S/cut.tsv has no \"# read cache:\" block: it is not a data file of rebench --characterize, or a cut one; write it again with rebench --characterize --output FILE$" \
	"$S/cut.tsv" "$S/cut.png"
refused_gp "a sweep matrix" "^characterize.gp: $S/a.tsv.matrix has no \"# boundaries:\" block: it is not a data file of rebench --characterize" \
	"$S/a.tsv.matrix" "$S/m.png"
sed 's/^2048\t1.0000/2048\tx/' "$IN/characterize-ssd.tsv" >"$S/bad-row.tsv"
refused_gp "a row that is not numbers" "^characterize.gp: $S/bad-row.tsv, line 14: \"x\" is not a number \(boundaries: bytes ratio low high verdict\)$" \
	"$S/bad-row.tsv" "$S/bad-row.png"
sed 's/^2048\t1.0000/0\t1.0000/' "$IN/characterize-ssd.tsv" >"$S/zero-bytes.tsv"
refused_gp "a boundary of 0 bytes" "^characterize.gp: $S/zero-bytes.tsv, line 14: boundaries: bytes is 0, not above 0$" \
	"$S/zero-bytes.tsv" "$S/zero-bytes.png"
refused_gp "no arguments" "^usage: gnuplot -c characterize.gp DATA OUT.png\|.svg\|.pdf\|.jpg"
refused_gp "a .gif" '^characterize.gp: .*char.gif: gnuplot cannot write ".gif" pictures here' "$IN/characterize-ssd.tsv" "$S/char.gif"
gnuplot -c "$CP" -h 2>"$S/gp.err"
assert_eq 0 "$?" "-h: exit 0"
assert_match "^usage: gnuplot -c characterize.gp DATA OUT" "$(<"$S/gp.err")" "-h: the usage"
