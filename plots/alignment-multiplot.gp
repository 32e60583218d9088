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
# interpolation, tick labels 512, 1k, 2k .. for sizes, a random workload's
# stride called its alignment) with LABEL as its title; panels may have
# different sweep values.  The colour range is [min, max] of the values of
# all matrices, shown by one colour bar at the right (dark is slow).
# Panels are laid out in a grid: 1, 2 or 3 columns for 1, 2 or 3 panels,
# 2 columns for 4, 3 columns for 5 to 9.  The title is TITLE, or "METRIC
# by NAME1 and NAME2, same colour scale" ("ops/s by block size and
# alignment, same colour scale"), above what produced the data: the
# target, settings and time per point that every matrix gives alike
# (about.gpi); where the panels differ, each panel's title gives its own.
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
q(s) = "'" . s . "'"
gpdir = system("dirname " . q(ARG0))
readable(f) = (system("test -f " . q(f) . " && test -r " . q(f) . " && echo yes") eq "yes")
if (!readable(list)) {
	print sprintf("%s: cannot read the list %s", me, list)
	exit status 1
}

# The panels: "LINE<TAB>LABEL<TAB>PATH" per panel, paths resolved against
# LIST's directory; or one line "error: WHY" for the first bad line.
listdir = system("dirname " . q(list))
entries = "awk -F '\t' -v dir=" . q(listdir) . " '{ sub(/\r$/, \"\") } /^[ \t]*(#|$)/ { next } \
	{ l = $1; p = $2; gsub(/^[ \t]+|[ \t]+$/, \"\", l); gsub(/^[ \t]+|[ \t]+$/, \"\", p); \
	  if (NF != 2 || l == \"\" || p == \"\") { print \"error: line \" NR \" is not LABEL<TAB>MATRIX\"; exit } \
	  if (p !~ /^\\//) p = dir \"/\" p; print NR \"\t\" l \"\t\" p }' " . q(list)
bad = system(entries . " | grep '^error: ' | sed 's/^error: //'")
if (bad ne "") {
	print sprintf("%s: %s: %s", me, list, bad)
	exit status 1
}
n = int(system(entries . " | wc -l"))
if (n < 1) {
	print sprintf("%s: %s lists no panels (one line \"LABEL<TAB>MATRIX\" per panel is needed)", me, list)
	exit status 1
}
if (n > 9) {
	print sprintf("%s: %s lists %d panels; at most 9 fit on one page", me, list, n)
	exit status 1
}
field(i, f) = system(sprintf("%s | awk -F '\t' 'NR == %d { print $%d }'", entries, i, f))
array LN[n]
array LBL[n]
array PTH[n]
array XS[n]
array YS[n]
array ABOUT[n]
do for [i = 1:n] {
	LN[i] = field(i, 1)
	LBL[i] = field(i, 2)
	PTH[i] = field(i, 3)
}

# Every matrix: readable, a sweep matrix with the first one's names, and
# well formed (all values numbers).
hdr(f, key) = system(sprintf("sed -n 's/^#[ \t]*%s:[ \t]*//p' %s | head -n 1 | tr -d '\r'", key, q(f)))
where(i) = sprintf("%s (line %s of %s)", PTH[i], LN[i], list)
num = "[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?"
do for [i = 1:n] {
	f = PTH[i]
	if (!readable(f)) {
		print sprintf("%s: cannot read %s", me, where(i))
		exit status 1
	}
	if (hdr(f, "rows") eq "" || hdr(f, "columns") eq "") {
		print sprintf("%s: %s is not a rebench sweep matrix (no \"# rows: NAME\" and \"# columns: NAME\" lines)", me, where(i))
		exit status 1
	}
	if (i == 1) {
		yname = hdr(f, "rows")
		xname = hdr(f, "columns")
		vname = hdr(f, "values")
	}
	if (hdr(f, "rows") ne yname || hdr(f, "columns") ne xname || hdr(f, "values") ne vname) {
		print sprintf("%s: %s has rows %s, columns %s, values %s, but %s has rows %s, columns %s, values %s: panels on one colour scale need the same", \
			me, where(i), hdr(f, "rows"), hdr(f, "columns"), hdr(f, "values"), PTH[1], yname, xname, vname)
		exit status 1
	}
	bad = system("awk '{ sub(/\r$/, \"\") } !/^#/ && NF { if (!n++) { if ($1 != NF - 1) { print \"the count \" $1 \" in the first line is not the number of columns (\" NF - 1 \")\"; exit } nx = NF } \
		else if (NF != nx) { print \"line \" NR \" has \" NF \" fields, not \" nx; exit } \
		for (i = 1; i <= NF; i++) if ($i !~ /^" . num . "$/) { print \"line \" NR \" field \" i \" is not a number: \" $i; exit } }' " . q(f))
	XS[i] = system("awk '!/^#/ && NF { for (i = 2; i <= NF; i++) printf \"%s \", $i; exit }' " . q(f))
	YS[i] = system("awk '!/^#/ && NF && n++ { printf \"%s \", $1 }' " . q(f))
	if (words(XS[i]) < 1 || words(YS[i]) < 1 || bad ne "") {
		print sprintf("%s: %s: %s", me, where(i), bad ne "" ? bad : "no data (a first line \"NX x1 .. xNX\" and one line per row value are needed)")
		exit status 1
	}
}

# What produced each matrix (about.gpi's lines): the title gives what they
# share, each panel's title what is its own.
meta_file = PTH[1]
load gpdir . "/about.gpi"
same_target = 1
same_about = 1
same_duration = 1
do for [i = 2:n] {
	same_target = same_target && (hdr(PTH[i], "target") eq rb_target)
	same_about = same_about && (hdr(PTH[i], "about") eq rb_about)
	same_duration = same_duration && (hdr(PTH[i], "duration") eq rb_duration)
}
subtitle = rb_join(same_target ? rb_target : "", ": ", rb_join(same_about ? rb_about : "", ", ", same_duration ? rb_duration : ""))
do for [i = 1:n] {
	ABOUT[i] = rb_join(same_target ? "" : hdr(PTH[i], "target"), ": ", \
		rb_join(same_about ? "" : hdr(PTH[i], "about"), ", ", same_duration ? "" : hdr(PTH[i], "duration")))
}
own = !(same_target && same_about && same_duration)

# The shared colour range: min and max over every cell of every matrix.
files = ""
do for [i = 1:n] { files = files . " " . q(PTH[i]) }
range = system("awk '{ sub(/\r$/, \"\") } FNR == 1 { first = 1 } !/^#/ && NF { if (first) { first = 0; next } \
	for (i = 2; i <= NF; i++) { if (!seen++ || $i + 0 < lo + 0) lo = $i; if (seen == 1 || $i + 0 > hi + 0) hi = $i } } \
	END { print lo, hi }'" . files)
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

# Tick labels: sizes in bytes as 512, 1k, 2k .. (about.gpi's ksize());
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
mb = 70.0
mt = (own ? 125.0 : 105.0)
gx = 105.0
gy = own ? 135.0 : 115.0
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
	do for [j = 1:nx] { v = int(real(word(xs, j))); if (!kok(v)) { xk = 0 } }
	yk = issize(yname)
	do for [j = 1:ny] { v = int(real(word(ys, j))); if (!kok(v)) { yk = 0 } }
	lw = 0
	do for [j = 1:nx] { s = xk ? ksize(int(real(word(xs, j)))) : word(xs, j); lw = (strlen(s) > lw) ? strlen(s) : lw }
	xevery = int(ceil((lw * charw + 10) / (pw / nx)))
	yevery = int(ceil(16.0 / (ph / ny)))
	tics = ""
	do for [j = 1:nx] {
		if ((j - 1) % xevery == 0) {
			tics = tics . (tics eq "" ? "" : ", ") . sprintf("\"%s\" %d", xk ? ksize(int(real(word(xs, j)))) : word(xs, j), j)
		}
	}
	eval("set xtics (" . tics . ")")
	tics = ""
	do for [j = 1:ny] {
		if ((j - 1) % yevery == 0) {
			tics = tics . (tics eq "" ? "" : ", ") . sprintf("\"%s\" %d", yk ? ksize(int(real(word(ys, j)))) : word(ys, j), j)
		}
	}
	eval("set ytics (" . tics . ")")
	set xrange [0.5:nx + 0.5]
	set yrange [0.5:ny + 0.5]
	set title rb_join(LBL[i], "\n", ABOUT[i]) noenhanced font ",12"
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
	if (showcells) {
		plot PTH[i] matrix using 1:2:(0.503):(0.503):3 every ::1:1 with boxxyerror fs solid 1.0 noborder lc palette, \
		     PTH[i] matrix using 1:2:(cellfmt($3)):(inkcol($3)) every ::1:1 with labels tc rgb variable font cellfont
	} else {
		plot PTH[i] matrix using 1:2:(0.503):(0.503):3 every ::1:1 with boxxyerror fs solid 1.0 noborder lc palette
	}
	unset label 99	# the corner's line once, not once per panel
}
unset multiplot
