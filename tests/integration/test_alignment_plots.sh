#!/usr/bin/env bash
# test_alignment_plots.sh - the partition-alignment plots, from synthetic
# sweep matrices and tables (no device needed): alignment-multiplot.gp
# renders 1 to 9 panels to PNG (canvas size per grid) and SVG, prints the
# shared colour range "cbrange MIN MAX" (min and max over every matrix),
# and colours every panel on that one scale (checked in the SVG: only the
# panel holding the global min has the palette's bottom colour, only the
# one holding the global max its top colour; one colour bar); relative
# matrix paths are relative to the list.  alignment-drilldown.gp renders
# PNG and SVG, draws only the rows of the chosen block size and of
# workload 1 (checked point by point in the SVG), finds columns by name,
# and titles "N-byte reads by alignment".  What produced the data (the
# matrices' comment lines) is read back from the SVG: what every matrix
# shares (the time per point) under the title, what differs under each
# panel's label; every panel labels both axes; the drill-down's legend
# sits right of the plot, clear of its title.  Every bad input of either
# script gives exit status 1 and a one-line message naming the file, and
# no image.
# The PNGs stay in $SWEEP_PNG_DIR when it is set, to look at.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd gnuplot python3

PLOTS=$TESTS_ROOT/plots
S=$SCRATCH
MP=alignment-multiplot.gp
DD=alignment-drilldown.gp
for f in "$MP" "$DD"; do
	[ -f "$PLOTS/$f" ] || fail "plots/$f does not exist"
done

# ---------------------------------------------------------------- helpers


# gp SCRIPT ARGS...: run a plot script from the scratch dir; stdout in
# GP_OUT, stderr in GP_ERR, exit status in GP_RC.
gp() {
	local script=$1
	shift
	(cd "$S" && timeout -k 5 60 gnuplot -c "$PLOTS/$script" "$@" >"$S/gp.out" 2>"$S/gp.err" </dev/null)
	GP_RC=$?
	GP_OUT=$(<"$S/gp.out")
	GP_ERR=$(<"$S/gp.err")
}

# render SCRIPT WHAT W H ARGS... (ARGS hold OUT.png): exit 0, nothing on
# stderr, a W x H PNG.
render() {
	local script=$1 what=$2 w=$3 h=$4 out
	shift 4
	out=$2
	rm -f "$out"
	gp "$script" "$@"
	if [ "$GP_RC" = 0 ]; then
		pass "$what: exits 0"
	else
		check_failed "$what: exits 0" "exit $GP_RC" "$GP_ERR"
	fi
	assert_eq "" "$GP_ERR" "$what: nothing on stderr"
	assert_png "$out" "$w" "$h" "$what"
	keep_png "$out"
}

# render_svg SCRIPT WHAT ARGS... (ARGS hold OUT.svg): exit 0, well-formed SVG.
render_svg() {
	local script=$1 what=$2 out
	shift 2
	out=$2
	rm -f "$out"
	gp "$script" "$@"
	assert_eq 0 "$GP_RC" "$what: exits 0"
	if python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1]).getElementsByTagName("svg")[0]' "$out" 2>/dev/null; then
		pass "$what: $(basename "$out") is a well-formed SVG"
	else
		check_failed "$what: $(basename "$out") is a well-formed SVG" "$(head -c 300 "$out" 2>/dev/null)"
	fi
}

# refused SCRIPT WHAT ERE ARGS... (ARGS hold OUT): exit 1, one line on
# stderr matching ERE (the file and why), nothing on stdout, no image.
refused() {
	local script=$1 what=$2 re=$3 out
	shift 3
	out=${2:-}
	[ -n "$out" ] && rm -f "$out"
	gp "$script" "$@"
	assert_eq 1 "$GP_RC" "$script, $what: exit status 1"
	assert_match "^$script: $re" "$GP_ERR" "$script, $what: message matches /$re/"
	assert_eq 1 "$(<<<"$GP_ERR" grep -c .)" "$script, $what: one line"
	assert_eq "" "$GP_OUT" "$script, $what: nothing on stdout"
	if [ -n "$out" ]; then
		assert_eq no "$([ -e "$out" ] && echo yes || echo no)" "$script, $what: no image written"
	fi
}

# matrix FILE NROWS NCOLS LO HI SEED: a sweep matrix over block-size x
# stride (512, 1024 ..), values in [LO, HI] with both ends taken.
matrix() {
	awk -v nr="$2" -v nc="$3" -v lo="$4" -v hi="$5" -v seed="$6" 'BEGIN {
		srand(seed)
		print "# rebench sweep matrix\n# rows: block-size\n# columns: stride\n# values: ops_per_s"
		printf "%d", nc; for (j = 1; j <= nc; j++) printf " %d", 512 * j; print ""
		for (i = 1; i <= nr; i++) {
			printf "%d", 512 * i
			for (j = 1; j <= nc; j++) {
				v = (i == 1 && j == 1) ? lo : (i == nr && j == nc) ? hi : lo + (hi - lo) * rand()
				printf " %.2f", v
			}
			print ""
		}
	}' >"$1"
}

# svg_cells FILE: for each panel (plot group with filled cells), one line
# "PANEL FILL FILL .." with the distinct fill colours of its cells.
svg_cells() {
	python3 - "$1" <<'EOF'
import re, sys
svg = open(sys.argv[1]).read()
parts = re.split(r'<g id="gnuplot_plot_(\w+)" >', svg)
for pid, body in zip(parts[1::2], parts[2::2]):
    body = body.split('<g id="gnuplot_plot_')[0]
    fills = sorted(set(re.sub(r"\s+", "", f) for f in re.findall(r"<polygon fill = '([^']+)'", body.split("</g>\n\t</g>")[0])))
    if fills:
        print(pid, " ".join(fills))
EOF
}

# svg_points FILE: for each line of a line plot, "TITLE<TAB>N<TAB>X,Y X,Y .."
# with the points drawn (the key's sample point left out).
svg_points() {
	python3 - "$1" <<'EOF'
import re, sys
svg = open(sys.argv[1]).read()
parts = re.split(r'<g id="gnuplot_plot_\w+" ><title>([^<]*)</title>', svg)
for title, body in zip(parts[1::2], parts[2::2]):
    body = body.split('<g id="gnuplot_plot_')[0]
    pts = re.findall(r"<use xlink:href='#gpPt\d+' transform='translate\(([\d.]+),([\d.]+)\)", body)
    # the last point is the key's sample (drawn beside the title)
    pts = pts[:-1]
    print("%s\t%d\t%s" % (title, len(pts), " ".join("%s,%s" % p for p in pts)))
EOF
}

# text_pos FILE: "X<TAB>Y<TAB>TEXT" for every text of an SVG.
text_pos() {
	python3 - "$1" <<'EOF'
import html, re, sys
svg = open(sys.argv[1]).read()
for x, y, t in re.findall(r'<g transform="translate\(([\d.]+),([\d.]+)\)[^"]*"[^>]*>\s*<text[^>]*>(.*?)</text>', svg, re.S):
    print("%s\t%s\t%s" % (x, y, html.unescape(re.sub(r"<[^>]+>", "", t)).strip()))
EOF
}

# has SVG TEXT WHAT: the SVG has exactly one text that is TEXT.
has() { assert_eq 1 "$(text_pos "$1" | cut -f 3 | grep -cxF -- "$2")" "$3: \"$2\""; }

# about MATRIX TARGET DURATION: what produced it, as rebench writes it.
about() {
	sed -i "4a # target: $2\\n# about: read, rnd uniform, stateful, QD 1\\n# duration: $3 per point\\n# made: rebench 0.1.0, 2024-05-01 12:00\\n# workload: rnd" "$1"
}

# ================================================================ multiplot
section "$MP: five panels, one colour scale"
STUDY=$S/study
mkdir -p "$STUDY/m"
matrix "$STUDY/m/raw.matrix" 8 8 30000 70000 1
matrix "$STUDY/m/p512.matrix" 8 8 20000 50000 2
matrix "$STUDY/m/p1m.matrix" 8 8 40000 90000 3
matrix "$STUDY/m/ext4.matrix" 8 8 25000 60000 4
matrix "$S/xfs.matrix" 8 8 35000 65000 5
{
	printf '# partition alignment study: LABEL<TAB>MATRIX\n\n'
	printf 'raw device\tm/raw.matrix\n'
	printf 'partition at 512\tm/p512.matrix\n'
	printf '  \n'
	printf 'partition at 1M\t./m/p1m.matrix\n'
	printf 'file on ext4\tm/ext4.matrix\r\n'
	printf 'file on xfs\t%s\n' "$S/xfs.matrix"
} >"$STUDY/five.list"
# (run from the scratch dir: the relative paths resolve against study/)
render "$MP" "$MP 5 panels" 1500 1000 study/five.list "$S/multi5.png"
assert_eq "cbrange 20000.00 90000.00" "$GP_OUT" \
	"stdout: cbrange MIN MAX, the min and max over all five matrices"
render_svg "$MP" "$MP 5 panels to SVG" study/five.list "$S/multi5.svg"
assert_eq "cbrange 20000.00 90000.00" "$GP_OUT" "SVG: the same cbrange line"
svg=$(cat "$S/multi5.svg" 2>/dev/null)
for l in "raw device" "partition at 512" "partition at 1M" "file on ext4" "file on xfs"; do
	assert_match "<text>$l</text>" "$svg" "SVG: a panel titled '$l'"
done
assert_match "<text>ops/s by block size and alignment, same colour scale</text>" "$svg" "SVG: the default title"
assert_match "<text>alignment \(stride\)</text>" "$svg" "SVG: x axis label"
assert_match "<text>block size</text>" "$svg" "SVG: y axis label"
assert_eq 1 "$(grep -c '<text>ops/s</text>' "$S/multi5.svg")" "SVG: one colour bar (one 'ops/s' label)"
assert_eq 5 "$(svg_cells "$S/multi5.svg" | grep -c .)" "SVG: 5 panels of cells"
assert_match ">20k<" "$svg" "SVG: a colour bar tick at the global min (20k)"
assert_match ">90k<" "$svg" "SVG: a colour bar tick at the global max (90k)"

section "$MP: what produced the matrices; every panel's axes"
mkdir -p "$S/about"
for m in raw p63 p2048; do
	matrix "$S/about/$m.matrix" 4 4 1000 5000 3
	about "$S/about/$m.matrix" "/dev/sdz$m (Disk Z)" 5s
done
printf 'raw\traw.matrix\nstart 63\tp63.matrix\nstart 2048\tp2048.matrix\n' >"$S/about/three.list"
render_svg "$MP" "$MP with the matrices' lines" about/three.list "$S/about3.svg"
has "$S/about3.svg" "ops/s by block size and alignment, same colour scale" "title"
has "$S/about3.svg" "read, rnd uniform, stateful, QD 1, 5s per point" "what they share, the time per point with it"
has "$S/about3.svg" "/dev/sdzp63 (Disk Z)" "a panel's own target under its label"
has "$S/about3.svg" "rebench 0.1.0, 2024-05-01 12:00" "the corner: version and date, once"
assert_eq 3 "$(text_pos "$S/about3.svg" | cut -f 3 | grep -cxF "alignment (stride)")" "every panel labels x"
assert_eq 3 "$(text_pos "$S/about3.svg" | cut -f 3 | grep -cxF "block size")" "every panel labels y"
sed -i 's/^# duration: 5s per point/# duration: 1s per point/' "$S/about/p2048.matrix"
render_svg "$MP" "$MP, one panel's time per point differs" about/three.list "$S/about3d.svg"
has "$S/about3d.svg" "read, rnd uniform, stateful, QD 1" "what they still share"
has "$S/about3d.svg" "/dev/sdzp2048 (Disk Z): 1s per point" "the odd panel states its time per point"
has "$S/about3d.svg" "/dev/sdzraw (Disk Z): 5s per point" "so does every other panel"
render "$MP" "$MP with the matrices' lines" 1500 600 about/three.list "$S/multi-about.png"

section "$MP: colours compare across panels"
# low: 100..200, high: 300..400; on one scale only low has the bottom
# colour and only high the top (each on its own scale would have both)
matrix "$S/low.matrix" 3 3 100 200 6
matrix "$S/high.matrix" 3 3 300 400 7
printf 'low\tlow.matrix\nhigh\thigh.matrix\n' >"$S/two.list"
render "$MP" "$MP 2 panels" 1200 600 two.list "$S/multi2.png" "shared scale"
assert_eq "cbrange 100.00 400.00" "$GP_OUT" "two panels: cbrange 100.00 400.00"
render_svg "$MP" "$MP 2 panels to SVG" two.list "$S/multi2.svg" "shared scale"
cells=$(svg_cells "$S/multi2.svg")
BOTTOM="rgb(68,1,84)"
TOP="rgb(253,231,37)"
assert_eq 2 "$(<<<"$cells" grep -c .)" "SVG: 2 panels of cells"
low=$(<<<"$cells" sed -n 1p)
high=$(<<<"$cells" sed -n 2p)
assert_match "$(printf '%s' "$BOTTOM" | sed 's/[()]/\\&/g')" "$low" "panel low (min 100) has the bottom colour"
assert_no_match "$(printf '%s' "$TOP" | sed 's/[()]/\\&/g')" "$low" "panel low (max 200) does not have the top colour"
assert_match "$(printf '%s' "$TOP" | sed 's/[()]/\\&/g')" "$high" "panel high (max 400) has the top colour"
assert_no_match "$(printf '%s' "$BOTTOM" | sed 's/[()]/\\&/g')" "$high" "panel high (min 300) does not have the bottom colour"
assert_match "<text>shared scale</text>" "$(<"$S/multi2.svg")" "SVG: TITLE is the title"
# one value everywhere: still renders (the range is widened around it)
printf '# rebench sweep matrix\n# rows: block-size\n# columns: stride\n# values: ops_per_s\n1 512\n512 1000\n' >"$S/one.matrix"
printf 'only\tone.matrix\n' >"$S/one.list"
render "$MP" "$MP 1 panel, 1 cell" 1000 700 one.list "$S/multi1.png"
assert_eq "cbrange 1000 1000" "$GP_OUT" "one cell: cbrange 1000 1000"

section "$MP: grids for 3, 4, 7 and 9 panels"
for m in 1 2 3 4 5 6 7 8 9; do
	matrix "$S/g$m.matrix" $((3 + m % 4)) $((4 + m % 5)) $((1000 * m)) $((1000 * m + 5000)) "$m"
done
# (sizes: 1500x600 for 3, 1200x1000 for 4, 1500x1400 for 7 to 9)
for spec in "3 1500 600" "4 1200 1000" "7 1500 1400" "9 1500 1400"; do
	read -r k w h <<<"$spec"
	for m in $(seq "$k"); do printf 'config %d\tg%d.matrix\n' "$m" "$m"; done >"$S/g$k.list"
	render "$MP" "$MP $k panels" "$w" "$h" "g$k.list" "$S/multi$k.png"
	assert_eq "cbrange 1000.00 $((1000 * k + 5000)).00" "$GP_OUT" "$k panels: cbrange over all $k"
done

section "$MP: refusals"
gp "$MP"
assert_eq 1 "$GP_RC" "$MP without arguments: exit 1"
assert_match "^usage: gnuplot -c $MP LIST OUT.png\|.svg\|.pdf\|.jpg \[TITLE\]" "$GP_ERR" "$MP without arguments: usage"
refused "$MP" "missing list" "cannot read the list nolist" nolist "$S/e.png"
printf 'raw\tlow.matrix\njust a label\n' >"$S/badline.list"
refused "$MP" "a line without a tab" "badline.list: line 2 is not LABEL<TAB>MATRIX" badline.list "$S/e.png"
printf '# nothing here\n\n' >"$S/empty.list"
refused "$MP" "no panels" ".*empty.list lists no panels" empty.list "$S/e.png"
for m in $(seq 10); do printf 'p%d\tlow.matrix\n' "$m"; done >"$S/ten.list"
refused "$MP" "10 panels" ".*ten.list lists 10 panels; at most 9" ten.list "$S/e.png"
printf 'low\tlow.matrix\nnone\tnone.matrix\n' >"$S/missing.list"
refused "$MP" "missing matrix" "cannot read .*/none.matrix \(line 2 of missing.list\)" missing.list "$S/e.png"
printf 'block-size\tstride\tops_per_s\n512\t512\t1\n' >"$S/table.tsv"
printf 'low\tlow.matrix\ntable\ttable.tsv\n' >"$S/notm.list"
refused "$MP" "a table, not a matrix" ".*/table.tsv \(line 2 of notm.list\) is not a rebench sweep matrix" notm.list "$S/e.png"
sed 's/^# columns: stride/# columns: offset/' "$S/high.matrix" >"$S/offset.matrix"
printf 'low\tlow.matrix\noffset\toffset.matrix\n' >"$S/mixed.list"
refused "$MP" "different columns" ".*/offset.matrix \(line 2 of mixed.list\) has rows block-size, columns offset.*low.matrix has rows block-size, columns stride" mixed.list "$S/e.png"
sed 's/^# rows: block-size/# rows: threads/' "$S/high.matrix" >"$S/threads.matrix"
printf 'low\tlow.matrix\nthreads\tthreads.matrix\n' >"$S/mixed2.list"
refused "$MP" "different rows" ".*/threads.matrix \(line 2 of mixed2.list\) has rows threads" mixed2.list "$S/e.png"
sed 's/^3 512/4 512/' "$S/high.matrix" >"$S/count.matrix"
printf 'count\tcount.matrix\n' >"$S/count.list"
refused "$MP" "a wrong column count" ".*/count.matrix \(line 1 of count.list\): the count 4" count.list "$S/e.png"
sed '$ s/ [0-9.]*$/ fast/' "$S/high.matrix" >"$S/word.matrix"
printf 'word\tword.matrix\n' >"$S/word.list"
refused "$MP" "a value that is not a number" ".*/word.matrix \(line 1 of word.list\): line 8 field 4 is not a number: fast" word.list "$S/e.png"

# ================================================================ drilldown
section "$DD: one line per configuration"
TAIL="mib_per_s	lat_min_us	lat_avg_us	lat_p50_us	lat_p90_us	lat_p99_us	lat_p999_us	lat_max_us	ios	status	durability	device_reads	device_reads_per_request	ops_ci_low	ops_ci_high	ops_ci_pct	precision	seconds	cpu_us_io"
# table FILE ORDER BASE: block sizes 512..4k/512 x strides 512..4k/512,
# columns in ORDER (bs-first or stride-first); ops/s rises with stride for
# 512 (BASE + stride) and 4k (BASE + 40000 + stride), falls otherwise;
# workload 2 rows (bs-first only) are 10x and fall.
table() {
	awk -v order="$2" -v base="$3" -v tail="$TAIL" 'BEGIN {
		OFS = "\t"
		if (order == "bs-first") print "block-size", "stride", "workload", "target", "ops_per_s", tail
		else print "stride", "block-size", "target", "ops_per_s", tail
		for (b = 512; b <= 4096; b += 512)
			for (s = 512; s <= 4096; s += 512)
				for (w = 1; w <= (order == "bs-first" ? 2 : 1); w++) {
					y = (b == 512) ? base + s : (b == 4096) ? base + 40000 + s : base + 20000 - s
					if (w == 2) y = 10 * (base + 20000 - s)
					if (order == "bs-first") print b, s, w, "/dev/loop9", y, 1, 1, 1, 1, 1, 1, 1, 1, 100, "complete"
					else print s, b, "/dev/loop9", y, 1, 1, 1, 1, 1, 1, 1, 1, 100, "complete"
				}
	}' >"$1"
}
mkdir -p "$STUDY/t"
table "$STUDY/t/raw.tsv" bs-first 1000
table "$STUDY/t/p512.tsv" stride-first 2000
table "$S/p1m.tsv" bs-first 3000
printf '# LABEL<TAB>TABLE\nraw device\tt/raw.tsv\n\npartition at 512\tt/p512.tsv\npartition at 1M\t%s\n' "$S/p1m.tsv" >"$STUDY/dd.list"
render "$DD" "$DD default block size" 1000 700 study/dd.list "$S/drill.png"
assert_eq "" "$GP_OUT" "$DD: nothing on stdout"
render_svg "$DD" "$DD default block size to SVG" study/dd.list "$S/drill.svg"
svg=$(cat "$S/drill.svg" 2>/dev/null)
assert_match "<text>512 B reads by alignment</text>" "$svg" "default: the smallest block size of the first table, in the title"
assert_match "<text>alignment \(stride\)</text>" "$svg" "x axis label"
assert_match ">0</tspan>" "$svg" "y starts at 0"
pts=$(svg_points "$S/drill.svg")
assert_eq "raw device	8
partition at 512	8
partition at 1M	8" "$(<<<"$pts" cut -f 1,2)" "one line per configuration, titled LABEL, 8 strides each"
# points left to right, rising (SVG y grows downwards): the rows of
# block-size 512 and workload 1, not the falling ones
bad=$(<<<"$pts" awk -F '\t' '{ n = split($3, p, " "); for (i = 2; i <= n; i++) {
	split(p[i - 1], a, ","); split(p[i], b, ",")
	if (!(b[1] > a[1] && b[2] < a[2])) { print $1 ": point " i " is not right of and above point " i - 1; next } } }')
assert_eq "" "$bad" "every line rises with stride (only block-size 512, workload 1 drawn)"
# the three lines are 1000 apart: raw lowest, 1M highest
assert_eq "raw device,partition at 512,partition at 1M" \
	"$(<<<"$pts" awk -F '\t' '{ split($3, p, " "); split(p[1], a, ","); print a[2] "\t" $1 }' | sort -rn | cut -f 2 | paste -sd,)" \
	"lines in the order of their values (columns found by name in each table)"

render "$DD" "$DD block size 4k" 1000 700 study/dd.list "$S/drill4k.png" 4k
render_svg "$DD" "$DD block size 4k to SVG" study/dd.list "$S/drill4k.svg" 4k "raw vs partitions"
svg=$(cat "$S/drill4k.svg" 2>/dev/null)
assert_match "<text>raw vs partitions</text>" "$svg" "TITLE is the title"
assert_match ">50k</tspan>" "$svg" "4k rows (41k..47k ops/s): y ticks up to 50k"
assert_no_match ">(100|200)k</tspan>" "$svg" "workload 2 rows (up to 220k) are not drawn"
render_svg "$DD" "$DD block size 4096, default title" study/dd.list "$S/drill4096.svg" 4096 ""
assert_match "<text>4 KiB reads by alignment</text>" "$(<"$S/drill4096.svg")" "title: 4 KiB reads by alignment"
# a third swept parameter: its rows are averaged, and the title says so
awk -F '\t' -v OFS='\t' 'NR == 1 { print "threads", $0; next } { print 1, $0; $5 = $5 + 2000; print 2, $0 }' \
	"$STUDY/t/raw.tsv" >"$S/threads.tsv"
printf 'threads 1 and 2\tthreads.tsv\n' >"$S/threads.list"
render_svg "$DD" "$DD with a third parameter" threads.list "$S/drill-threads.svg"
assert_match "<text>512 B reads by alignment, mean over the other parameters</text>" \
	"$(<"$S/drill-threads.svg")" "averaged rows: the title says so"
assert_eq "8" "$(svg_points "$S/drill-threads.svg" | cut -f 2)" "averaged rows: one point per stride"

section "$DD: clear of its title; what produced the tables"
# the legend right of the plot and below the title ("key above" put it
# over the title, which sat under it)
pos=$(text_pos "$S/drill.svg")
ty=$(<<<"$pos" awk -F '\t' '$3 == "512 B reads by alignment" { print $2 }')
kx=$(<<<"$pos" awk -F '\t' '$3 == "raw device" { print $1 }')
ky=$(<<<"$pos" awk -F '\t' '$3 ~ /^(raw device|partition at)/ { print $2 }' | sort -n | head -n 1)
assert_num "drill-down: the legend (x $kx) is right of the plot area" "$kx > 800"
assert_num "drill-down: the legend (y $ky) is below the title (y $ty)" "$ky > $ty + 10"
for m in raw p512; do
	matrix "$STUDY/t/$m.tsv.matrix" 2 2 1 2 1
	about "$STUDY/t/$m.tsv.matrix" "/dev/sdz-$m" 200ms
done
printf 'raw device\tt/raw.tsv\npartition at 512\tt/p512.tsv\n' >"$STUDY/dd2.list"
render_svg "$DD" "$DD, two tables with matrices" study/dd2.list "$S/drill-about2.svg"
has "$S/drill-about2.svg" "512 B reads by alignment" "drill-down: title"
has "$S/drill-about2.svg" "read, rnd uniform, stateful, QD 1, 200ms per point" "drill-down: what the tables share, under the title"
render "$DD" "$DD, two tables with matrices" 1000 700 study/dd2.list "$S/drill-about2.png"
rm -f "$STUDY/t/raw.tsv.matrix" "$STUDY/t/p512.tsv.matrix"

section "$DD: refusals"
gp "$DD"
assert_eq 1 "$GP_RC" "$DD without arguments: exit 1"
assert_match "^usage: gnuplot -c $DD LIST OUT.png\|.svg\|.pdf\|.jpg \[BLOCK_SIZE\] \[TITLE\]" "$GP_ERR" "$DD without arguments: usage"
refused "$DD" "missing list" "cannot read the list nolist" nolist "$S/e.png"
printf 'raw\tt/raw.tsv\nraw\tt/raw.tsv\textra\n' >"$STUDY/badline.list"
refused "$DD" "a line with 3 fields" "study/badline.list: line 2 is not LABEL<TAB>TABLE" study/badline.list "$S/e.png"
refused "$DD" "no tables" ".*empty.list lists no tables" empty.list "$S/e.png"
printf 'raw\tstudy/t/raw.tsv\nnone\tnone.tsv\n' >"$S/missing.list"
refused "$DD" "missing table" "cannot read .*/none.tsv \(line 2 of missing.list\)" missing.list "$S/e.png"
printf 'matrix\tlow.matrix\n' >"$S/matrix.list"
refused "$DD" "a matrix, not a table" ".*/low.matrix \(line 1 of matrix.list\) is not a rebench sweep table.*no column block-size" matrix.list "$S/e.png"
cut -f 2- "$S/p1m.tsv" >"$S/nobs.tsv"
printf 'nobs\tnobs.tsv\n' >"$S/nobs.list"
refused "$DD" "no block-size column" ".*/nobs.tsv \(line 1 of nobs.list\) is not a rebench sweep table.*no column block-size; its columns are: stride workload" nobs.list "$S/e.png"
# an offset sweep's tables (rebench -b 4k -s 4k -j 0,512,...): x the
# offset, BLOCK_SIZE needed, not mixed with stride tables
printf 'offset\tworkload\ttarget\tops_per_s\n0\t1\t/dev/x\t1800\n512\t1\t/dev/x\t930\n1024\t1\t/dev/x\t925\n' >"$S/off0.tsv"
printf 'offset\tworkload\ttarget\tops_per_s\n0\t1\t/dev/y\t930\n512\t1\t/dev/y\t1790\n1024\t1\t/dev/y\t920\n' >"$S/off63.tsv"
printf 'start 2048\toff0.tsv\nstart 63\toff63.tsv\n' >"$S/off.list"
render_svg "$DD" "an offset sweep" off.list "$S/off.svg" 4096
has "$S/off.svg" "offset from the target's start" "an offset sweep: its x axis"
has "$S/off.svg" "4 KiB reads by offset" "an offset sweep: its title"
refused "$DD" "an offset sweep without BLOCK_SIZE" ".*/off0.tsv \(line 1 of off.list\) sweeps the offset at one block size: give it as BLOCK_SIZE" off.list "$S/e.png"
printf 'offset\toff0.tsv\nstride\tp1m.tsv\n' >"$S/mixed.list"
refused "$DD" "offset and stride tables mixed" ".*/p1m.tsv \(line 2 of mixed.list\) sweeps the stride but the first table the offset: draw them apart" mixed.list "$S/e.png" 4096
head -n 1 "$S/p1m.tsv" >"$S/header.tsv"
printf 'header\theader.tsv\n' >"$S/header.list"
refused "$DD" "a header without rows" ".*/header.tsv \(line 1 of header.list\) has a header but no rows" header.list "$S/e.png"
awk -F '\t' 'NR == 1 || $1 != 4096' "$S/p1m.tsv" >"$S/no4k.tsv"
printf 'raw\tstudy/t/raw.tsv\nno 4k\tno4k.tsv\n' >"$S/no4k.list"
refused "$DD" "no rows of the block size" ".*/no4k.tsv \(line 2 of no4k.list\) has no rows with block-size 4096; its block sizes are: 512 1024 1536 2048 2560 3072 3584$" \
	no4k.list "$S/e.png" 4k
refused "$DD" "a block size that is not a size" "BLOCK_SIZE 4kb is not a size in bytes" study/dd.list "$S/e.png" 4kb
