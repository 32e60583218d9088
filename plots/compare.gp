# compare.gp - the ratio B/A of two sweeps' ops/s as a heatmap: one cell
# per point, a diverging colour scale centred on 1 (blue: B slower, red: B
# faster; symmetric on a log scale, so 0.5 and 2 are equally strong), the
# ratio in each cell, and a grey dot where no difference is detectable at
# 95% ("?" where there was no interval to judge by).
#
#   rebench --compare before.json after.json --plot compare.png
#   gnuplot -c plots/compare.gp RATIO.matrix OUT.png|.svg|.pdf|.jpg
#
# Input: the matrix rebench --compare --plot writes: the comment lines
# "# rebench compare matrix", "# rows: NAME1", "# columns: NAME2",
# "# values: ...", "# a: A.json", "# b: B.json", then gnuplot's "matrix
# nonuniform" layout (as a sweep matrix, see heatmap.gp), then after two
# empty lines one line per cell: "COLUMN ROW VERDICT" (from 1; faster,
# slower, same, no-interval).  Output: by the extension (terminal.gpi),
# 1000x700.
me = "compare.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c compare.gp RATIO.matrix OUT.png|.svg|.pdf|.jpg"
	exit status 1
}
data = ARG1
out = ARG2
gpdir = system("dirname '" . ARG0 . "'")
# One awk (scan.gpi) reads the matrix; it emits gnuplot assignments
# (strings in single quotes): err, the first refusal; or yname, xname, fa
# and fb (its "# rows:", "# columns:", "# a:" and "# b:" lines), xs and
# ys (the column values and the row values of its first block, "v1 v2 ..").
$SCAN << EOD
BEGIN {
	data = ARGV[1]
	P[1] = data
	readable(P, 1, R)
	if (!R[1]) fail("cannot read " data)
	slurp("m", data)
	if (hdr("m", "rows") == "" || hdr("m", "columns") == "") \
		fail(data " is not a rebench compare matrix (no \"# rows: NAME\" and \"# columns: NAME\" lines)")
	xs = ""; ys = ""; d = 0
	for (j = 1; j <= FN["m"]; j++) {
		$0 = FL["m", j]
		if (!/^#/ && NF) { for (k = 2; k <= NF; k++) xs = xs $k " "; break }
	}
	for (j = 1; j <= FN["m"] && FL["m", j] != ""; j++) {
		$0 = FL["m", j]
		if (!/^#/ && NF && d++) ys = ys $1 " "
	}
	if (xs !~ /[^ \t\r\n]/ || ys !~ /[^ \t\r\n]/) fail(data ": no data")
	gp("yname", hdr("m", "rows")); gp("xname", hdr("m", "columns")); gp("fa", hdr("m", "a")); gp("fb", hdr("m", "b"))
	gp("xs", xs); gp("ys", ys)
}
EOD
array SCAN_ARGS = [data]
load gpdir . "/scan.gpi"
nx = words(xs)
ny = words(ys)
meta_file = ""
load gpdir . "/about.gpi"
xk = issize(xname)
yk = issize(yname)
tics = ""
do for [i = 1:nx] { tics = tics . (i > 1 ? ", " : "") . sprintf("\"%s\" %d", xk ? ksize(int(real(word(xs, i)))) : word(xs, i), i) }
eval("set xtics (" . tics . ")")
tics = ""
do for [i = 1:ny] { tics = tics . (i > 1 ? ", " : "") . sprintf("\"%s\" %d", yk ? ksize(int(real(word(ys, i)))) : word(ys, i), i) }
eval("set ytics (" . tics . ")")

# Colour: log2 of the ratio, symmetric around 0 (a ratio of 1), at least
# +-0.1 (7%) so that equal runs are not drawn as strong colours.
stats data index 0 matrix using (log($3) / log(2)) every ::1:1 nooutput
lim = abs(STATS_min) > abs(STATS_max) ? abs(STATS_min) : abs(STATS_max)
lim = lim < 0.1 ? 0.1 : lim
set cbrange [-lim:lim]
set palette defined (0 "#2166ac", 0.25 "#67a9cf", 0.5 "#f7f7f7", 0.75 "#ef8a62", 1 "#b2182b")
set cbtics ()
do for [k = -2:2] { v = lim * k / 2.0; set cbtics add (sprintf("%.2f", 2 ** v) v) }
set cblabel "B/A (ops/s), log scale: blue B slower, red B faster" noenhanced offset 2,0

W = 1000
H = 700
load gpdir . "/terminal.gpi"
set title sprintf("ops/s, B/A by %s and %s\nA %s, B %s\n(dot: no difference detectable at 95%%; ?: no interval)", optname(yname), optname(xname), fa, fb) noenhanced
set xlabel axislabel(xname) noenhanced
set ylabel axislabel(yname) noenhanced
set xrange [0.5:nx + 0.5]
set yrange [0.5:ny + 0.5]
set tics out nomirror scale 0.5
set border 3
set size ratio -1
if (nx > 2.0 * ny || ny > 2.0 * nx) { set size noratio }
unset key
showcells = (nx <= 12 && ny <= 16)
lbl(z) = sprintf("%.2f", z)
cells = "data index 0 matrix using 1:2:(0.503):(0.503):(log($3) / log(2)) every ::1:1 with boxxyerror fs solid 1.0 noborder lc palette"
if (showcells) {
	cells = cells . ", data index 0 matrix using 1:2:(lbl($3)) every ::1:1 with labels font \",9\""
}
marks = ", data index 1 using ($1 - 0.3):(strcol(3) eq \"same\" ? $2 + 0.3 : NaN) with points pt 7 ps 0.8 lc rgb \"#555555\"" . \
	", data index 1 using ($1 - 0.3):(strcol(3) eq \"no-interval\" ? $2 + 0.3 : NaN):(\"?\") with labels font \",9\" tc rgb \"#555555\""
eval("plot " . cells . marks)
