# alignment-multiplot.gp - several sweep matrices side by side, one heatmap
# panel each, all on ONE colour scale, so that a colour means the same ops/s
# (or MiB/s, or latency) in every panel (e.g. a raw device, an aligned and a
# misaligned partition, a file on a file system; or one panel per name of
# a sweep such as -b 512,4k -s 512,4k -u uniform,pow, as rebench --plot
# draws it).
#
#   rebench -b 512..4k/512 -s 512..4k/512 -d 5 --output raw.tsv /dev/sdb
#   rebench -b 512..4k/512 -s 512..4k/512 -d 5 --output p1.tsv /dev/sdb1
#   printf 'raw device\traw.tsv.matrix\npartition 1\tp1.tsv.matrix\n' >panels
#   gnuplot -c plots/alignment-multiplot.gp panels alignment.png
#   gnuplot -c plots/alignment-multiplot.gp LIST OUT.png|.svg|.pdf|.jpg [TITLE]
#
# Input: LIST, a text file with one panel per line, "LABEL<TAB>MATRIX"
# (blank lines and lines starting with # are skipped; a relative MATRIX is
# relative to LIST's directory), at most 9 panels.  Each MATRIX is a sweep
# matrix as read by heatmap.gp (the comment lines "# rebench sweep matrix",
# "# rows: NAME1", "# columns: NAME2", "# values: METRIC", the optional
# lines of about.gpi, then "NX x1 .. xNX" and one line "y z1 .. zNX" per
# value of NAME1); all of them have the same NAME1, NAME2 and values.  Each
# panel is drawn like heatmap.gp (NAME1 up the y axis, NAME2 along x, both
# axes labelled on every panel, one evenly spaced cell per sweep point, no
# interpolation, tick labels 512 B, 4 KiB, 3584 B for sizes, a random
# workload's stride called its alignment) with LABEL as its title; panels may have
# different sweep values.  The colour range is [min, max] of the values of
# all matrices, shown by one colour bar at the right (dark is slow).
# Panels are laid out in a grid: 1, 2 or 3 columns for 1, 2 or 3 panels,
# 2 columns for 4, 3 columns for 5 to 9.  The title is TITLE, or "METRIC
# by NAME1 and NAME2, same colour scale" ("ops/s by block size and
# alignment, same colour scale"), above what produced the data: the
# target, settings and time per point that every matrix gives alike
# (about.gpi); where the settings or times differ, each panel's title gives
# its own; so do the targets, unless gnuplot -e "rb_panel_targets=0" says
# that LABEL names each (no path is shown: a study's target may be a
# temporary mount point).  Each panel's
# noise comes from the noise file rebench writes beside its matrix
# (MATRIX.noise, as heatmap.gp reads it): its title's last line gives the
# median half-width of the cells' 95% intervals ("noise +-3.2% (median
# 95% half-width)", "noise not measured" without the file), and its best
# cell, the cells within noise of that best and any outliers are marked as
# heatmap.gp marks them, with one key for the marks at the bottom.
# Output: chosen by the output file's extension (terminal.gpi), of
# 1000x700 (1 panel), 1200x600 (2), 1500x600 (3), 1200x1000 (4),
# 1500x1000 (5, 6) or 1500x1400 (7 to 9).  On stdout one line
# "cbrange MIN MAX": the shared colour range, MIN and MAX as written in the
# matrices.
if (ARGC < 2) {
	print "usage: gnuplot -c alignment-multiplot.gp LIST OUT.png|.svg|.pdf|.jpg [TITLE]"
	exit status 1
}
list = ARG1
out = ARG2
me = "alignment-multiplot.gp"
gpdir = system("dirname '" . ARG0 . "'")

# One awk (scan.gpi) reads the list and every matrix and checks them in
# the order a reader would; it emits gnuplot assignments (strings in
# single quotes): err, the first refusal; or n, and per panel i LN[i],
# LBL[i], PTH[i] (its line in LIST, label and resolved path), XS[i] and
# YS[i] (its x and y values, "v1 v2 .. "), HT[i], HA[i], HD[i] (its
# target, about and duration lines); yname, xname, vname (the names of
# the first matrix, which all share); rb_m_* and rb_meta_of (the first
# matrix's lines for about.gpi); range, "MIN MAX" over every cell of
# every matrix, as written.
$SCAN << EOD
function where(i) { return PTH[i] " (line " LN[i] " of " list ")" }
BEGIN {
	list = ARGV[1]
	P[1] = list
	readable(P, 1, R)
	if (!R[1]) fail("cannot read the list " list)
	# the panels: blank lines and comments skipped, paths relative to LIST's directory
	FS = "\t"
	dir = dirname(list)
	while ((getline line < list) > 0) {
		nr++
		sub(/\r$/, "", line)
		if (line ~ /^[ \t]*(#|$)/) continue
		$0 = line
		l = $1; p = $2
		gsub(/^[ \t]+|[ \t]+$/, "", l); gsub(/^[ \t]+|[ \t]+$/, "", p)
		if (NF != 2 || l == "" || p == "") fail(list ": line " nr " is not LABEL<TAB>MATRIX")
		if (p !~ /^\//) p = dir "/" p
		n++; LN[n] = nr; LBL[n] = l; PTH[n] = p
	}
	if (n < 1) fail(list " lists no panels (one line \"LABEL<TAB>MATRIX\" per panel is needed)")
	if (n > 9) fail(list " lists " n " panels; at most 9 fit on one page")
	# every matrix: readable, a sweep matrix with the first one's names,
	# and well formed (all values numbers)
	readable(PTH, n, R)
	FS = " "
	num = "^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$"
	for (i = 1; i <= n; i++) {
		if (!R[i]) fail("cannot read " where(i))
		slurp(i, PTH[i])
		if (hdr(i, "rows") == "" || hdr(i, "columns") == "") \
			fail(where(i) " is not a rebench sweep matrix (no \"# rows: NAME\" and \"# columns: NAME\" lines)")
		if (i == 1) { yname = hdr(1, "rows"); xname = hdr(1, "columns"); vname = hdr(1, "values") }
		if (hdr(i, "rows") != yname || hdr(i, "columns") != xname || hdr(i, "values") != vname) \
			fail(where(i) " has rows " hdr(i, "rows") ", columns " hdr(i, "columns") ", values " hdr(i, "values") \
				", but " PTH[1] " has rows " yname ", columns " xname ", values " vname ": panels on one colour scale need the same")
		# the first data line "NX x1 .. xNX" (XS: x1 ..), then "y z1 .. zNX" (YS: y ..);
		# the checks without CRs, XS and YS as the lines stand
		bad = ""; d = 0; XS[i] = ""; YS[i] = ""; dr = 0
		for (j = 1; j <= FN[i]; j++) {
			$0 = FL[i, j]
			if (!/^#/ && NF) {
				if (!dr++) { for (k = 2; k <= NF; k++) XS[i] = XS[i] $k " " } else YS[i] = YS[i] $1 " "
			}
			sub(/\r$/, "")
			if (bad == "" && !/^#/ && NF) {
				if (!d++) {
					if ($1 != NF - 1) bad = "the count " $1 " in the first line is not the number of columns (" NF - 1 ")"
					nx = NF
				} else if (NF != nx) bad = "line " j " has " NF " fields, not " nx
				for (k = 1; bad == "" && k <= NF; k++) if ($k !~ num) bad = "line " j " field " k " is not a number: " $k
			}
		}
		if (bad != "" || XS[i] !~ /[^ \t\r\n]/ || YS[i] !~ /[^ \t\r\n]/) \
			fail(where(i) ": " (bad != "" ? bad : "no data (a first line \"NX x1 .. xNX\" and one line per row value are needed)"))
	}
	print "n = " n
	# each matrix's noise file (rebench writes MATRIX.noise beside it):
	# its "# noise:" line and how many cells it marks best, tied and outlier
	for (i = 1; i <= n; i++) Q[i] = PTH[i] ".noise"
	readable(Q, n, RN)
	for (i = 1; i <= n; i++) {
		HN[i] = RN[i] ? 1 : 0; NL[i] = ""; NB[i] = 0; NT[i] = 0; NO[i] = 0
		if (!HN[i]) continue
		slurp("n" i, Q[i])
		NL[i] = hdr("n" i, "noise")
		for (j = 1; j <= FN["n" i]; j++) {
			$0 = FL["n" i, j]
			if ($3 == "best") NB[i]++; else if ($3 == "tied") NT[i]++; else if ($3 == "outlier") NO[i]++
		}
	}
	split("LN LBL PTH XS YS HT HA HD NL HN NB NT NO", A, " ")
	for (a in A) print "array " A[a] "[n]"
	for (i = 1; i <= n; i++) {
		gp("LN[" i "]", LN[i]); gp("LBL[" i "]", LBL[i]); gp("PTH[" i "]", PTH[i])
		gp("XS[" i "]", XS[i]); gp("YS[" i "]", YS[i])
		gp("HT[" i "]", hdr(i, "target")); gp("HA[" i "]", hdr(i, "about")); gp("HD[" i "]", hdr(i, "duration"))
		gp("NL[" i "]", NL[i])
		print "HN[" i "] = " HN[i]; print "NB[" i "] = " NB[i]; print "NT[" i "] = " NT[i]; print "NO[" i "] = " NO[i]
	}
	gp("yname", yname); gp("xname", xname); gp("vname", vname)
	about(1, PTH[1])
	# the colour range: every cell (a matrix's first data line holds its x values)
	for (i = 1; i <= n; i++) {
		first = 1
		for (j = 1; j <= FN[i]; j++) {
			$0 = FL[i, j]; sub(/\r$/, "")
			if (/^#/ || !NF) continue
			if (first) { first = 0; continue }
			for (k = 2; k <= NF; k++) { if (!seen++ || $k + 0 < lo + 0) lo = $k; if (seen == 1 || $k + 0 > hi + 0) hi = $k }
		}
	}
	gp("range", lo " " hi)
}
EOD
array SCAN_ARGS = [list]
load gpdir . "/scan.gpi"

# What produced each matrix (about.gpi's lines): the title gives what they
# share, each panel's title what is its own.
array ABOUT[n]
meta_file = PTH[1]
load gpdir . "/about.gpi"
same_target = 1
same_about = 1
same_duration = 1
do for [i = 2:n] {
	same_target = same_target && (HT[i] eq rb_target)
	same_about = same_about && (HA[i] eq rb_about)
	same_duration = same_duration && (HD[i] eq rb_duration)
}
subtitle = rb_join(same_target ? rb_target : "", ": ", rb_join(same_about ? rb_about : "", ", ", same_duration ? rb_duration : ""))
# Where the targets differ, each panel's title gives its own, unless
# rb_panel_targets = 0 (gnuplot -e): then LABEL names each panel's target
# (a raw device, a partition, a file on a file system) and its path is not
# shown, as it may be a temporary one (a mount point gone by the time the
# plot is read; partition-alignment.sh passes it).
if (!exists("rb_panel_targets")) { rb_panel_targets = 1 }
do for [i = 1:n] {
	ABOUT[i] = rb_join((same_target || !rb_panel_targets) ? "" : HT[i], ": ", \
		rb_join(same_about ? "" : HA[i], ", ", same_duration ? "" : HD[i]))
}
own = !((same_target || !rb_panel_targets) && same_about && same_duration)
# Each panel's noise, from its noise file: "noise +-3.2% (median ...)" ->
# "noise +-3.2%"; "" without a noise file.
array NOISE[n]
anynoise = 0
anyb = 0
anyt = 0
anyo = 0
do for [i = 1:n] {
	NOISE[i] = !HN[i] ? "noise not measured (no MATRIX.noise)" : (NL[i] eq "" || NL[i][1:7] eq "unknown") ? "noise unknown" : \
		sprintf("noise %s (median 95%% half-width)", word(NL[i], 1))
	anynoise = anynoise || HN[i]
	anyb = anyb || (HN[i] && NB[i] > 0)
	anyt = anyt || (HN[i] && NT[i] > 0)
	anyo = anyo || (HN[i] && NO[i] > 0)
}
marked = anyb || anyt || anyo

# The shared colour range: min and max over every cell of every matrix.
set print "-"
print "cbrange " . range
unset print
zmin = real(word(range, 1))
zmax = real(word(range, 2))
if (zmax <= zmin) {
	zmin = zmin - (zmin == 0 ? 1 : abs(zmin) * 0.1)
	zmax = zmax + (zmax == 0 ? 1 : abs(zmax) * 0.1)
}
# round colour bar ticks with just enough digits (as heatmap.gp)
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
set cblabel metriclabel(vname) noenhanced offset 1.5,0

# Tick labels: sizes as 512 B, 4 KiB, 3584 B (about.gpi's iec());
# other parameters as written.  The stride of a study's random reads is
# their alignment: without a "# workload:" line (matrices from before
# rebench wrote one) a stride is taken as one.
if (rb_workload eq "") { rb_workload = "rnd" }

# Grid and canvas: columns by panel count, about 400 x 400 pixels a panel.
cols = (n <= 3) ? n : (n == 4) ? 2 : 3
rows = int(ceil(n / real(cols)))
W = (cols == 1) ? 1000 : (cols == 2) ? 1200 : 1500
H = (rows == 1) ? ((cols == 1) ? 700 : 600) : (rows == 2) ? 1000 : 1400
# margins and gaps in pixels: y label and ticks at the left of every
# panel, x label and ticks below it, its title (one or two lines) above,
# the title (two lines) above all, the colour bar in a strip at the right
ml = 90.0
mr = 130.0
# panel title lines: LABEL, its own settings, its noise
tl = 2 + own
mb = marked ? 95.0 : 70.0
mt = 85.0 + 20 * tl
gx = 105.0
gy = 95.0 + 20 * tl
pw = (W - ml - mr - (cols - 1) * gx) / cols
ph = (H - mb - mt - (rows - 1) * gy) / rows

load gpdir . "/terminal.gpi"
# viridis: dark blue is slow, yellow is fast (reversed for latencies)
if (lowerbetter(vname)) {
	set palette defined (0 "#fde725", 0.125 "#d4e22b", 0.25 "#a0da39", 0.375 "#4ac16d", \
		0.5 "#1fa187", 0.625 "#277f8e", 0.75 "#365c8d", 0.875 "#46327e", 1 "#440154")
} else {
	set palette defined (0 "#440154", 0.125 "#46327e", 0.25 "#365c8d", 0.375 "#277f8e", \
		0.5 "#1fa187", 0.625 "#4ac16d", 0.75 "#a0da39", 0.875 "#d4e22b", 1 "#fde725")
}

# Cell labels: cellfmt() of about.gpi, dark on light cells (light and dark
# on the shared scale).
light(z) = lowerbetter(vname) ? (zmax - z) / (zmax - zmin) : (z - zmin) / (zmax - zmin)
inkcol(z) = (light(z) > 0.6) ? 0x000000 : 0xffffff

maintitle = (ARGC >= 3 && ARG3 ne "") ? ARG3 : \
	sprintf("%s by %s and %s, same colour scale", metric(vname), optname(yname), optname(xname))
set multiplot title rb_join(maintitle, "\n", subtitle) noenhanced font ",13"
set tics out nomirror scale 0.5
set border 3
unset key
set size noratio
do for [i = 1:n] {
	c = (i - 1) % cols
	r = (i - 1) / cols
	set lmargin at screen (ml + c * (pw + gx)) / W
	set rmargin at screen (ml + c * (pw + gx) + pw) / W
	set tmargin at screen (H - mt - r * (ph + gy)) / H
	set bmargin at screen (H - mt - r * (ph + gy) - ph) / H
	xs = XS[i]
	ys = YS[i]
	nx = words(xs)
	ny = words(ys)
	# ticks (thinned to fit the panel), as heatmap.gp
	xk = issize(xname)
	yk = issize(yname)
	lw = 0
	do for [j = 1:nx] { s = xk ? iec(real(word(xs, j))) : word(xs, j); lw = (strlen(s) > lw) ? strlen(s) : lw }
	xevery = int(ceil((lw * charw + 10) / (pw / nx)))
	yevery = int(ceil(16.0 / (ph / ny)))
	tics = ""
	do for [j = 1:nx] {
		if ((j - 1) % xevery == 0) {
			tics = tics . (tics eq "" ? "" : ", ") . sprintf("\"%s\" %d", xk ? iec(real(word(xs, j))) : word(xs, j), j)
		}
	}
	eval("set xtics (" . tics . ")")
	tics = ""
	do for [j = 1:ny] {
		if ((j - 1) % yevery == 0) {
			tics = tics . (tics eq "" ? "" : ", ") . sprintf("\"%s\" %d", yk ? iec(real(word(ys, j))) : word(ys, j), j)
		}
	}
	eval("set ytics (" . tics . ")")
	set xrange [0.5:nx + 0.5]
	set yrange [0.5:ny + 0.5]
	set title rb_join(rb_join(LBL[i], "\n", ABOUT[i]), "\n", NOISE[i]) noenhanced font ",12"
	# every panel names its axes: a reader looks at one panel at a time
	set xlabel axislabel(xname) noenhanced offset 0, 0.3
	set ylabel axislabel(yname) noenhanced
	# one colour bar for all panels, right of the grid, full height
	if (i == n) {
		set colorbox user origin screen (W - mr + 25) / W, mb / H size screen 18.0 / W, (H - mb - mt) / H
	} else {
		unset colorbox
	}
	# cell labels where they fit: about 5 characters wide, 1 high; larger
	# in large cells
	showcells = (pw / nx >= 5 * charw + 4 && ph / ny >= 15)
	cellfont = (pw / nx >= 75 && ph / ny >= 30) ? ",10" : ",8"
	cells = "PTH[i] matrix using 1:2:(0.503):(0.503):3 every ::1:1 with boxxyerror fs solid 1.0 noborder lc palette"
	if (showcells) {
		cells = cells . ", PTH[i] matrix using 1:2:(cellfmt($3)):(inkcol($3)) every ::1:1 with labels tc rgb variable font cellfont"
	}
	# the noise file's marks, as heatmap.gp's: the panel's best cell and
	# the cells within noise of it in the top left corner, outliers top
	# right (a point only on the lines of that kind: NaN skips the others)
	marks = ""
	if (HN[i]) {
		noise = PTH[i] . ".noise"
		mk(kind, dx, pt, ps, col) = sprintf(", noise index 1 using ($1 + %g):(strcol(3) eq \"%s\" ? $2 + 0.3 : NaN) with points pt %d ps %g lw 2 lc rgb \"%s\"", dx, kind, pt, ps, col)
		if (NB[i] > 0) { marks = marks . mk("best", -0.3, 3, 1.4, "#d62728") }
		if (NT[i] > 0) { marks = marks . mk("tied", -0.3, 6, 1.0, "#d62728") }
		if (NO[i] > 0) { marks = marks . mk("outlier", 0.3, 2, 1.2, "#ff7f0e") }
	}
	# the marks' key, once (drawn with the first panel), at the bottom
	# left of the canvas
	if (i == 1 && marked) {
		kx = 14.0
		if (anyb) {
			kt = lowerbetter(vname) ? "best of its panel (lowest)" : "best of its panel (highest)"
			set label 90 kt at screen kx / W, screen 18.0 / H left point pt 3 ps 1.4 lw 2 lc rgb "#d62728" offset 1.2, 0 font ",10" front noenhanced
			kx = kx + strlen(kt) * charw + 60
		}
		if (anyt) {
			kt = "within noise of its panel's best (95%)"
			set label 91 kt at screen kx / W, screen 18.0 / H left point pt 6 ps 1.0 lw 2 lc rgb "#d62728" offset 1.2, 0 font ",10" front noenhanced
			kx = kx + strlen(kt) * charw + 60
		}
		if (anyo) {
			set label 92 "outlier, colour as measured (beyond Tukey's far fences)" at screen kx / W, screen 18.0 / H left point pt 2 ps 1.2 lw 2 lc rgb "#ff7f0e" offset 1.2, 0 font ",10" front noenhanced
		}
	}
	eval("plot " . cells . marks)
	unset label 99	# the corner's line once, not once per panel
	unset label 90
	unset label 91
	unset label 92
}
unset multiplot
