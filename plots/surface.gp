# surface.gp - ops/s over two swept parameters as a 3D surface over a
# heatmap of the same values, so that the spikes (e.g. where the alignment
# is a power of two) stand out and can still be read off the base.
#
#   rebench -b 512..4k/512 -s 512..4k/512 -d 5 --output sweep.tsv /dev/sdb
#   gnuplot -c plots/surface.gp sweep.tsv.matrix surface.png
#   gnuplot -c plots/surface.gp MATRIX OUT.png|.svg|.pdf|.jpg [TITLE]
#
# Input: the sweep matrix (TABLE.matrix beside the --output table) written
# for two swept numeric parameters, workload 1: the comment lines
# "# rebench sweep matrix", "# rows: NAME1", "# columns: NAME2",
# "# values: METRIC", the optional lines of about.gpi, then gnuplot's
# "matrix nonuniform" layout:
# "NX x1 .. xNX", then one line "y z1 .. zNX" per value of NAME1.  NAME1
# runs along the y axis and NAME2 along the x axis, evenly spaced whatever
# the values, with a tick label at every value (fewer when there are more
# than 10-12); the base has one cell per sweep point, centred on its ticks.
# Sizes (block-size, stride, offset, length) are in bytes, labelled as
# 512 B, 4 KiB, 3584 B (about.gpi's iec()); a random
# workload's stride is labelled as its alignment.  The title is TITLE, or
# "METRIC by NAME1 and NAME2", above what produced the data (about.gpi)
# and the noise (MATRIX.noise's "# noise:" line, when rebench wrote one).
# Output: chosen by the output file's extension (terminal.gpi), 1000x700.
me = "surface.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c surface.gp MATRIX OUT.png|.svg|.pdf|.jpg [TITLE]"
	exit status 1
}
data = ARG1
out = ARG2
q(s) = "'" . s . "'"
gpdir = system("dirname " . q(ARG0))
if (system("test -f " . q(data) . " && test -r " . q(data) . " && echo yes") ne "yes") {
	print sprintf("surface.gp: cannot read %s", data)
	exit status 1
}
hdr(key) = system(sprintf("sed -n 's/^#[ \t]*%s:[ \t]*//p' %s | head -n 1 | tr -d '\r'", key, q(data)))
yname = hdr("rows")
xname = hdr("columns")
vname = hdr("values")
if (yname eq "" || xname eq "") {
	print sprintf("surface.gp: %s is not a rebench sweep matrix (no \"# rows: NAME\" and \"# columns: NAME\" lines)", data)
	exit status 1
}
# The column values (first data line without its count) and the row values.
xs = system("awk '!/^#/ && NF { for (i = 2; i <= NF; i++) printf \"%s \", $i; exit }' " . q(data))
ys = system("awk '!/^#/ && NF && n++ { printf \"%s \", $1 }' " . q(data))
nx = words(xs)
ny = words(ys)
bad = system("awk '!/^#/ && NF { if (!n++) { if ($1 != NF - 1) { print \"the count \" $1 \" in the first line is not the number of columns (\" NF - 1 \")\"; exit } nx = NF } else if (NF != nx) { print \"line \" NR \" has \" NF \" fields, not \" nx; exit } }' " . q(data))
if (nx < 1 || ny < 1 || bad ne "") {
	print sprintf("surface.gp: %s: %s", data, bad ne "" ? bad : "no data (a first line \"NX x1 .. xNX\" and one line per row value are needed)")
	exit status 1
}
if (nx < 2 || ny < 2) {
	print sprintf("surface.gp: %s has %d x %d points; a surface needs at least 2 values of each parameter (lines.gp draws one)", data, ny, nx)
	exit status 1
}

# What the data is and what produced it: names, labels, the subtitle.
meta_file = data
load gpdir . "/about.gpi"

# Tick labels: sizes as 512 B, 4 KiB, 3584 B (about.gpi's iec()); other
# parameters as written.
xk = issize(xname)
yk = issize(yname)
# Every value gets a label unless there are too many to read.
xevery = int(ceil(nx / 12.0))
yevery = int(ceil(ny / 10.0))
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

# Colour range: exactly the data's, with round ticks and just enough digits.
stats data matrix using 3 every ::1:1 nooutput
zmin = STATS_min
zmax = STATS_max
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


# The base sits below the surface, with room for the spikes to show.
zbase = (zmin >= 0 && zmin - 0.6 * span < 0) ? 0 : zmin - 0.6 * span
zrange_top = zmax + 0.05 * span

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
# the noise of the sweep, from the "# noise:" line of MATRIX.noise beside
# the matrix, as heatmap.gp's title gives it (the surface marks no cells:
# heatmap.gp shows which are within noise of the best)
noiseline = system(sprintf("sed -n 's/^#[ \t]*noise:[ \t]*//p' %s 2>/dev/null | head -n 1 | tr -d '\r'", q(data . ".noise")))
noisetitle = (noiseline eq "") ? "" : (noiseline[1:7] eq "unknown") ? "noise unknown" : \
	sprintf("noise %s (median 95%% half-width; heatmap.gp marks the cells within it of the best)", word(noiseline, 1))
set title rb_join(rb_join(maintitle, "\n", subtitle), "\n", noisetitle) noenhanced
set xlabel axislabel(xname) noenhanced rotate parallel offset 0,-1
set ylabel axislabel(yname) noenhanced rotate parallel offset 0,-1
set zlabel metriclabel(vname) noenhanced rotate parallel
# z ticks: about 5 over the whole height, labelled like the colour bar
zraw = (zrange_top - zbase) / 5.0
zp10 = 10.0 ** floor(log10(zraw))
zstep = (zraw / zp10 < 1.5) ? zp10 : (zraw / zp10 < 3.5) ? 2 * zp10 : (zraw / zp10 < 7.5) ? 5 * zp10 : 10 * zp10
zdec = (zstep / scale >= 1) ? 0 : int(ceil(-log10(zstep / scale) - 1e-9))
znumfmt = sprintf("%%.%df", zdec)
zticklabel(v) = (abs(v) < zstep * 1e-6) ? "0" : sprintf(znumfmt, v / scale) . unitp
set ztics ()
t0 = ceil(zbase / zstep) * zstep
do for [k = 0:int((zrange_top - t0) / zstep + 1e-6)] { set ztics add (zticklabel(t0 + k * zstep) t0 + k * zstep) }
set xrange [0.5:nx + 0.5]
set yrange [0.5:ny + 0.5]
set zrange [zbase:zrange_top]
set xyplane at zbase
set view 56, 322, 0.95, 1.15
set grid ztics
set border 895 lc rgb "#888888"
set tics nomirror
set pm3d depthorder border lc rgb "#202020" lw 0.6
set colorbox vertical user origin 0.88, 0.2 size 0.025, 0.6
unset key
splot data matrix using 1:2:(zbase):3 every ::1:1 with image, \
      data matrix using 1:2:3 every ::1:1 with pm3d
