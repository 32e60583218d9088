# compare.gp - the ratio B/A of two sweeps' ops/s as a heatmap: one cell
# per point, a diverging colour scale centred on 1 (blue: B slower, red: B
# faster; symmetric on a log scale, so 0.5 and 2 are equally strong, with
# ticks at round ratios: 0.5 1 2, or 0.25 .. 4, or 0.9 1 1.1), the ratio
# in each cell, and a grey dot where no difference is detectable at 95%
# ("?" where there was no interval to judge by).
#
#   rebench --compare before.json after.json --plot compare.png
#   gnuplot -c plots/compare.gp RATIO.matrix OUT.png|.svg|.pdf|.jpg
#
# Input: the matrix rebench --compare --plot writes: the comment lines
# "# rebench compare matrix", "# rows: NAME1", "# columns: NAME2",
# "# values: ...", about.gpi's five ("# target: ...", "# about: ...",
# "# duration: ...", "# made: ...", "# workload: ...": what A and B share),
# "# a: A" and "# b: B" (each file's base name and what is its own:
# "align-512.json: offset 512 B"; a bare path is cut to its base name),
# then gnuplot's "matrix nonuniform" layout (as a sweep matrix, see
# heatmap.gp), then after two empty lines one line per cell: "COLUMN ROW
# VERDICT" (from 1; faster, slower, same, no-interval).  The title names
# what was compared, the target and the settings; long lines are wrapped
# to the picture's width.  Sizes on the axes read as the reports write
# them: "512 B", "4 KiB", "3584 B".  Output: by the extension
# (terminal.gpi), 1000x700.
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
# ys (the column values and the row values of its first block, "v1 v2
# .."), and about.gpi's rb_m_* from its comment lines.
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
	fa = hdr("m", "a"); fb = hdr("m", "b")
	# an older matrix named A and B by the paths given: their base names
	if (fa !~ /: /) sub(/.*\//, "", fa)
	if (fb !~ /: /) sub(/.*\//, "", fb)
	gp("yname", hdr("m", "rows")); gp("xname", hdr("m", "columns")); gp("fa", fa); gp("fb", fb)
	gp("xs", xs); gp("ys", ys)
	about("m", data)
}
EOD
array SCAN_ARGS = [data]
load gpdir . "/scan.gpi"
nx = words(xs)
ny = words(ys)
meta_file = data
load gpdir . "/about.gpi"
xk = issize(xname)
yk = issize(yname)
# sizes as the reports write them (about.gpi's iec()): 512 B, 4 KiB, 3584 B;
# an axis of sizes has its unit on every tick
tics = ""
do for [i = 1:nx] { tics = tics . (i > 1 ? ", " : "") . sprintf("\"%s\" %d", xk ? iec(int(real(word(xs, i)))) : word(xs, i), i) }
eval("set xtics (" . tics . ")")
tics = ""
do for [i = 1:ny] { tics = tics . (i > 1 ? ", " : "") . sprintf("\"%s\" %d", yk ? iec(int(real(word(ys, i)))) : word(ys, i), i) }
eval("set ytics (" . tics . ")")

# Colour: log2 of the ratio, symmetric around 0 (a ratio of 1).  The range
# is rounded out to round ratios so that the colour bar's ticks are ones a
# reader can name: below 1.5x either way the ticks are 0.8 0.9 1 1.1 1.25
# (at least 0.9..1.1, so that equal runs are not drawn as strong colours),
# above it whole powers of 2 (0.5 1 2, 0.25 .. 4, ..; every other one past
# 16x).
stats data index 0 matrix using (log($3) / log(2)) every ::1:1 nooutput
lim = abs(STATS_min) > abs(STATS_max) ? abs(STATS_min) : abs(STATS_max)
array SMALL[5] = [0.8, 0.9, 1, 1.1, 1.25]
if (lim <= log(1.5) / log(2)) {
	lim = lim < log(1.1) / log(2) ? log(1.1) / log(2) : \
	      lim < log(1.25) / log(2) ? log(1.25) / log(2) : log(1.5) / log(2)
	set cbtics ()
	do for [k = 1:5] { v = log(SMALL[k]) / log(2); if (abs(v) <= lim + 1e-9) { set cbtics add (sprintf("%g", SMALL[k]) v) } }
	if (lim > log(1.3) / log(2)) { set cbtics add ("0.67" log(2.0 / 3) / log(2), "1.5" log(1.5) / log(2)) }
} else {
	lim = ceil(lim - 1e-9)
	step = lim > 4 ? 2 : 1
	set cbtics ()
	do for [k = -lim:lim:step] { set cbtics add ((k >= -3 ? sprintf("%g", 2.0 ** k) : sprintf("1/%d", 2 ** (-k))) k) }
	if (lim == 1) { set cbtics add ("0.67" log(2.0 / 3) / log(2), "1.5" log(1.5) / log(2)) }
}
set cbrange [-lim:lim]
set palette defined (0 "#2166ac", 0.25 "#67a9cf", 0.5 "#f7f7f7", 0.75 "#ef8a62", 1 "#b2182b")
set cblabel "B/A (ops/s), log scale: blue B slower, red B faster" noenhanced offset 2,0

W = 1000
H = 700
load gpdir . "/terminal.gpi"
# Lines longer than the picture is wide are wrapped at a space (the title
# is centred: a longer line loses both ends).
rb_lastsp(s, k) = (k < 1) ? 0 : (s[k:k] eq " ") ? k : rb_lastsp(s, k - 1)
rb_cut(s, n) = (rb_lastsp(s, n) > 1) ? rb_lastsp(s, n) : n
wrap(s, n) = (strlen(s) <= n) ? s : s[1:rb_cut(s, n) - 1] . "\n" . wrap(s[rb_cut(s, n) + 1:], n)
wide = int(W / charw) - 10
head = sprintf("ops/s of B against A (B/A) by %s and %s", optname(yname), optname(xname))
sides = sprintf("A %s;  B %s", fa, fb)
key = "grey dot: no difference detectable at 95%; ?: no interval to judge by"
set title wrap(head, wide) . "\n" . wrap(subtitle, wide) . (subtitle ne "" ? "\n" : "") . \
	wrap(sides, wide) . "\n" . wrap(key, wide) noenhanced
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
