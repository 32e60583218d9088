# heatmap.gp - a metric (ops/s, MiB/s, p50 or p99 latency) over two swept
# parameters as a heatmap: one cell per sweep point, centred on its tick,
# coloured by its value (no interpolation).
#
#   rebench -b 512..4k/512 -s 512..4k/512 -d 5 --output sweep.tsv /dev/sdb
#   gnuplot -c plots/heatmap.gp sweep.tsv.matrix heatmap.png
#   gnuplot -c plots/heatmap.gp MATRIX OUT.png|.svg|.pdf|.jpg [TITLE]
#
# Input: the sweep matrix (TABLE.matrix beside the --output table) written
# for two swept numeric parameters, workload 1: the comment lines
# "# rebench sweep matrix", "# rows: NAME1", "# columns: NAME2",
# "# values: METRIC" (ops_per_s, mib_per_s, lat_p50_us or lat_p99_us), the
# optional lines of about.gpi (target, about, duration, made, workload),
# then gnuplot's "matrix nonuniform" layout: "NX x1 .. xNX", then one line
# "y z1 .. zNX" per value of NAME1.  NAME1 runs up the y axis and NAME2
# along the x axis; cells are evenly spaced whatever the values (so a
# geometric sweep reads like a log axis), with a tick label at every
# value.  Sizes (block-size, stride, offset, length) are in bytes, labelled
# as 512 B, 4 KiB, 3584 B (about.gpi's iec()); the stride of a random
# workload is labelled as its alignment.  Dark cells are
# slow (low ops/s or MiB/s, high latency), light ones fast.  The title is
# TITLE, or "METRIC by NAME1 and NAME2", above what produced the data
# (about.gpi).  Output: chosen by the output file's extension
# (terminal.gpi), 1000x700.
me = "heatmap.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c heatmap.gp MATRIX OUT.png|.svg|.pdf|.jpg [TITLE]"
	exit status 1
}
data = ARG1
out = ARG2
gpdir = system("dirname '" . ARG0 . "'")

# One awk (scan.gpi) reads the matrix and the noise file beside it and
# checks the matrix; it emits gnuplot assignments (strings in single
# quotes): err, the first refusal; or yname, xname, vname (its rows,
# columns and values); xs and ys, the column values (the first data line
# without its count) and the row values ("v1 v2 .. "); rb_m_* and
# rb_meta_of for about.gpi; hasnoise, 1 when MATRIX.noise can be read, and
# then noiseline and cbr (its "# noise:" and "# colour range:" lines) and
# nb, nt, no (how many cells it marks best, tied and outlier).
$SCAN << EOD
BEGIN {
	data = ARGV[1]
	P[1] = data; P[2] = data ".noise"
	readable(P, 2, R)
	if (!R[1]) fail("cannot read " data)
	slurp("m", data)
	yname = hdr("m", "rows"); xname = hdr("m", "columns")
	if (yname == "" || xname == "") \
		fail(data " is not a rebench sweep matrix (no \"# rows: NAME\" and \"# columns: NAME\" lines)")
	xs = ""; ys = ""; bad = ""; d = 0
	for (j = 1; j <= FN["m"]; j++) {
		$0 = FL["m", j]
		if (/^#/ || !NF) continue
		if (!d++) {
			for (k = 2; k <= NF; k++) xs = xs $k " "
			if ($1 != NF - 1 && bad == "") bad = "the count " $1 " in the first line is not the number of columns (" NF - 1 ")"
			nx = NF
		} else {
			ys = ys $1 " "
			if (NF != nx && bad == "") bad = "line " j " has " NF " fields, not " nx
		}
	}
	if (xs !~ /[^ \t\r\n]/ || ys !~ /[^ \t\r\n]/ || bad != "") \
		fail(data ": " (bad != "" ? bad : "no data (a first line \"NX x1 .. xNX\" and one line per row value are needed)"))
	gp("yname", yname); gp("xname", xname); gp("vname", hdr("m", "values"))
	gp("xs", xs); gp("ys", ys)
	about("m", data)
	print "hasnoise = " R[2]
	if (R[2]) {
		slurp("n", P[2])
		gp("noiseline", hdr("n", "noise")); gp("cbr", hdr("n", "colour range"))
		for (j = 1; j <= FN["n"]; j++) { $0 = FL["n", j]; c[$3]++ }
		print "nb = " c["best"] + 0; print "nt = " c["tied"] + 0; print "no = " c["outlier"] + 0
	} else {
		gp("noiseline", ""); gp("cbr", "")
	}
}
EOD
array SCAN_ARGS = [data]
load gpdir . "/scan.gpi"
nx = words(xs)
ny = words(ys)

# What the data is and what produced it: names, labels, the subtitle.
meta_file = data
load gpdir . "/about.gpi"

# Tick labels: sizes as 512 B, 4 KiB, 3584 B (about.gpi's iec()); other
# parameters as written.
xk = issize(xname)
yk = issize(yname)
# Every value gets a label unless there are too many to read.
xevery = int(ceil(nx / 16.0))
yevery = int(ceil(ny / 24.0))
tics = ""
do for [i = 1:nx] {
	if ((i - 1) % xevery == 0) {
		tics = tics . (tics eq "" ? "" : ", ") . sprintf("\"%s\" %d", xk ? iec(real(word(xs, i))) : word(xs, i), i)
	}
}
eval("set xtics (" . tics . ")")
tics = ""
do for [i = 1:ny] {
	if ((i - 1) % yevery == 0) {
		tics = tics . (tics eq "" ? "" : ", ") . sprintf("\"%s\" %d", yk ? iec(real(word(ys, i))) : word(ys, i), i)
	}
}
eval("set ytics (" . tics . ")")

# The noise file beside the matrix (rebench writes MATRIX.noise): the
# noise level for the title, the colour range without outliers, and the
# marked cells.  Without it, the picture is as before.
noise = data . ".noise"

# Colour range: the data's (without the outliers the noise file names, so
# that one cell cannot squash the rest into one colour), with round ticks
# and just enough digits.
stats data matrix using 3 every ::1:1 nooutput
zmin = STATS_min
zmax = STATS_max
if (cbr ne "" && words(cbr) >= 2) {
	zmin = real(word(cbr, 1))
	zmax = real(word(cbr, 2))
}
if (zmax <= zmin) {
	zmin = zmin - (zmin == 0 ? 1 : abs(zmin) * 0.1)
	zmax = zmax + (zmax == 0 ? 1 : abs(zmax) * 0.1)
}
span = zmax - zmin
raw = span / 5.0
p10 = 10.0 ** floor(log10(raw))
step = (raw / p10 < 1.5) ? p10 : (raw / p10 < 3.5) ? 2 * p10 : (raw / p10 < 7.5) ? 5 * p10 : 10 * p10
big = (abs(zmax) > abs(zmin)) ? abs(zmax) : abs(zmin)
pexp = (big >= 1000) ? 3 * floor(log10(big) / 3) : 0
scale = 10.0 ** pexp
dec = (step / scale >= 1) ? 0 : int(ceil(-log10(step / scale) - 1e-9))
unitp = (pexp > 0) ? word("k M G T P E", int(pexp / 3)) : ""
numfmt = sprintf("%%.%df", dec)
ticklabel(v) = (abs(v) < step * 1e-6) ? "0" : sprintf(numfmt, v / scale) . unitp
set cbrange [zmin:zmax]
set cbtics ()
t0 = ceil(zmin / step) * step
do for [k = 0:int((zmax - t0) / step + 1e-6)] { set cbtics add (ticklabel(t0 + k * step) t0 + k * step) }
set cblabel metriclabel(vname) noenhanced offset 2,0

# Cell labels: cellfmt() of about.gpi, dark on light cells.
# (the palette's light end is the fast one: high ops/s, low latency)
light(z) = lowerbetter(vname) ? (zmax - z) / (zmax - zmin) : (z - zmin) / (zmax - zmin)
inkcol(z) = (light(z) > 0.6) ? 0x000000 : 0xffffff
showcells = (nx <= 12 && ny <= 16)

W = 1000
H = 700
load gpdir . "/terminal.gpi"
# viridis: dark blue is slow, yellow is fast (reversed for latencies)
if (lowerbetter(vname)) {
	set palette defined (0 "#fde725", 0.125 "#d4e22b", 0.25 "#a0da39", 0.375 "#4ac16d", \
		0.5 "#1fa187", 0.625 "#277f8e", 0.75 "#365c8d", 0.875 "#46327e", 1 "#440154")
} else {
	set palette defined (0 "#440154", 0.125 "#46327e", 0.25 "#365c8d", 0.375 "#277f8e", \
		0.5 "#1fa187", 0.625 "#4ac16d", 0.75 "#a0da39", 0.875 "#d4e22b", 1 "#fde725")
}
maintitle = (ARGC >= 3 && ARG3 ne "") ? ARG3 : sprintf("%s by %s and %s", metric(vname), optname(yname), optname(xname))
# "noise +-3.2% (median half-width of 64 cells, ...)" -> the title's part
noisetitle = (noiseline eq "") ? "" : (noiseline[1:7] eq "unknown") ? "noise unknown" : \
	sprintf("noise %s (median 95%% half-width)", word(noiseline, 1))
set title rb_join(rb_join(maintitle, "\n", subtitle), "\n", noisetitle) noenhanced
set xlabel axislabel(xname) noenhanced
set ylabel axislabel(yname) noenhanced
set xrange [0.5:nx + 0.5]
set yrange [0.5:ny + 0.5]
set tics out nomirror scale 0.5
set border 3
set size ratio -1
if (nx > 2.0 * ny || ny > 2.0 * nx) { set size noratio }
unset key
# Values beyond the colour range take its end colour (an outlier is
# marked, not allowed to stretch the scale).
clip(z) = (z < zmin) ? zmin : (z > zmax) ? zmax : z
cells = "data matrix using 1:2:(0.503):(0.503):(clip($3)) every ::1:1 with boxxyerror fs solid 1.0 noborder lc palette notitle"
if (showcells) {
	cells = cells . ", data matrix using 1:2:(cellfmt($3)):(inkcol($3)) every ::1:1 with labels tc rgb variable font \",9\" notitle"
}
# The marks, in the cells' top left corner (the value stays readable):
# the best cell, the cells not distinguishable from it at 95%, and the
# outliers; a key below says which is which.
marks = ""
if (hasnoise) {
	# a point only on the lines of that kind: NaN skips the others
	mk(kind, dx, pt, ps, col, label) = sprintf(", noise index 1 using ($1 + %g):(strcol(3) eq \"%s\" ? $2 + 0.3 : NaN) with points pt %d ps %g lw 2 lc rgb \"%s\" title \"%s\"", dx, kind, pt, ps, col, label)
	# best and tied top left, outliers top right (a cell can be both)
	if (nb > 0) { marks = marks . mk("best", -0.32, 3, 1.6, "#d62728", lowerbetter(vname) ? "best (lowest)" : "best (highest)") }
	if (nt > 0) { marks = marks . mk("tied", -0.32, 6, 1.2, "#d62728", sprintf("within noise of the best (%d)", nt)) }
	if (no > 0) { marks = marks . mk("outlier", 0.32, 2, 1.4, "#ff7f0e", sprintf("outlier, colour clipped (%d)", no)) }
}
if (marks ne "") {
	set key outside top center horizontal noenhanced samplen 1
}
eval("plot " . cells . marks)
