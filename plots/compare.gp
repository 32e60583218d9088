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
q(s) = "'" . s . "'"
gpdir = system("dirname " . q(ARG0))
if (system("test -f " . q(data) . " && test -r " . q(data) . " && echo yes") ne "yes") {
	print sprintf("compare.gp: cannot read %s", data)
	exit status 1
}
hdr(key) = system(sprintf("sed -n 's/^#[ \t]*%s:[ \t]*//p' %s | head -n 1 | tr -d '\r'", key, q(data)))
yname = hdr("rows")
xname = hdr("columns")
fa = hdr("a")
fb = hdr("b")
if (yname eq "" || xname eq "") {
	print sprintf("compare.gp: %s is not a rebench compare matrix (no \"# rows: NAME\" and \"# columns: NAME\" lines)", data)
	exit status 1
}
# the first block only: the column values, then the row values
xs = system("awk '!/^#/ && NF { for (i = 2; i <= NF; i++) printf \"%s \", $i; exit }' " . q(data))
ys = system("awk '/^$/ { exit } !/^#/ && NF && n++ { printf \"%s \", $1 }' " . q(data))
nx = words(xs)
ny = words(ys)
if (nx < 1 || ny < 1) {
	print sprintf("compare.gp: %s: no data", data)
	exit status 1
}
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
