# lines.gp - a metric (ops/s unless chosen: MiB/s, p50 or p99 latency)
# against one swept parameter, one line per value of another (e.g. x =
# stride with one line per block-size, or x = block-size with one line per
# dist or target), points joined by lines.
#
#   rebench -b 512..4k/512 -s 512..4k/512 -d 5 --output sweep.tsv /dev/sdb
#   gnuplot -c plots/lines.gp sweep.tsv lines.png stride block-size
#   rebench -b 512..64k*2 -u uniform,pow -d 5 --output bs.tsv /dev/sdb
#   gnuplot -c plots/lines.gp bs.tsv bs.png block-size dist log
#   gnuplot -e "rb_metric='mib_per_s'" -c plots/lines.gp bs.tsv mbs.png block-size dist log
#   gnuplot -c plots/lines.gp TABLE OUT.png|.svg|.pdf|.jpg XNAME [GROUPNAME|""] [log]
#
# Input: the sweep table (TSV with a header row: the swept parameters by
# their long option names, then workload, target, ops_per_s, mib_per_s, the
# latencies, ios, status).  Columns are found by name.  With several
# workloads each workload gets its own lines (grouped by workload alone when
# no GROUPNAME, or GROUPNAME workload, is given), named rb_WLN when set
# (about.gpi).  The y column is rb_metric (ops_per_s, mib_per_s, lat_p50_us
# or lat_p99_us; default ops_per_s), or its _median column when the table
# has one (a --repeat table).  Points that share x within a line (a third
# swept parameter) are averaged.  With "log": log2 x axis with a tick at
# every value (512, 1k, 2k .. 64k for sizes) and log10 y axis; else y from
# 0.  Sizes (block-size, stride, offset, length) are in bytes; a random
# workload's stride is labelled as its alignment.  A non-numeric XNAME
# (e.g. dist) gives one evenly spaced tick per value.  The title says what
# is drawn, above what produced it (about.gpi).  Output: chosen by the
# output file's extension (terminal.gpi), 1000x700.
me = "lines.gp"
if (ARGC < 3) {
	print "usage: gnuplot -c lines.gp TABLE OUT.png|.svg|.pdf|.jpg XNAME [GROUPNAME|\"\"] [log]"
	exit status 1
}
data = ARG1
out = ARG2
xname = ARG3
gname = (ARGC >= 4) ? ARG4 : ""
logmode = (ARGC >= 5 && ARG5 eq "log")
if (ARGC >= 5 && ARG5 ne "log" && ARG5 ne "") {
	print sprintf("lines.gp: the 5th argument is \"log\" or nothing, not \"%s\"", ARG5)
	exit status 1
}
gpdir = system("dirname '" . ARG0 . "'")
meta_file = ""
load gpdir . "/about.gpi"
ycol = (exists("rb_metric") && rb_metric ne "") ? rb_metric : "ops_per_s"

# One awk (scan.gpi) reads the table; it emits gnuplot assignments
# (strings in single quotes): err, the first refusal; or header (the
# header row, tabs as spaces), gname and logmode (the arguments as taken),
# xi, yi, gi, wi, ti (the columns of x, y, the group, the workload and the
# target; 0: none), median (1: y is a --repeat table's median); gnum and
# xnum (1: the group and x values are all numbers); keys, one "GROUP
# WORKLOAD TARGET" per line in the order of the lines (sorted by group when
# it is a number, else by workload) and nlines; nwl and ntarget (how many
# workloads and targets); averaged (1: rows that share x within a line);
# kg and kx (1: the group or x values are sizes that are all below 1k or
# a multiple of it); xs, the distinct x values (sorted when numbers); and a
# datablock $Ri of the rows of each line i.
$SCAN << EOD
function colidx(name) { return colof(header, name) }
function isnum(s) { return s ~ /^[ \t]*[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?[ \t]*$/ }
# a == b as awk compares two fields
function same(a, b) { return (isnum(a) && isnum(b)) ? a + 0 == b + 0 : a == b }
BEGIN {
	data = ARGV[1]; xname = ARGV[2]; gname = ARGV[3]; ycol = ARGV[4]; logmode = ARGV[5] + 0; four = ARGV[6]
	P[1] = data
	readable(P, 1, R)
	if (!R[1]) fail("cannot read " data)
	slurp("t", data)
	header = FL["t", 1]; gsub(/\r/, "", header); gsub(/\t/, " ", header)
	# "lines.gp T OUT x log": no GROUPNAME, log axes (unless a column is named log)
	if (four && gname == "log" && colidx("log") == 0) { gname = ""; logmode = 1 }
	# GROUPNAME workload: the default grouping (one line per workload)
	if (gname == "workload") gname = ""
	xi = colidx(xname)
	# a --repeat table: the median of the runs where the table has it
	median = colidx(ycol "_median") > 0
	yi = colidx(median ? ycol "_median" : ycol)
	gi = gname == "" ? 0 : colidx(gname)
	wi = colidx("workload")
	ti = colidx("target")
	if (xi == 0 || yi == 0 || (gname != "" && gi == 0)) \
		fail(data " has no column " (xi == 0 ? xname : yi == 0 ? ycol : gname) "; its columns are: " header)
	# the rows: lines after the header that have fields
	for (j = 2; j <= FN["t"]; j++) { $0 = FL["t", j]; if (NF) rows++ }
	if (rows < 1) fail(data " has a header but no rows")
	FS = "\t"
	gnum = 1; xnum = 1; kg = 1; kx = 1; nkeys = 0; nx = 0
	for (j = 2; j <= FN["t"]; j++) {
		$0 = FL["t", j]
		if (!NF) continue
		if (gi && $gi !~ /^[-+]?[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?$/) gnum = 0
		if ($xi !~ /^[-+]?[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?$/) xnum = 0
		k = (gi ? $gi : "-") "\t" (wi ? $wi : 1)
		if (!(k in seenk)) { seenk[k] = 1; K[++nkeys] = k "\t" (ti ? $ti : "-") }
		wls[wi ? $wi : 1] = 1; tgs[ti ? $ti : 1] = 1
		if (++pts[(gi ? $gi : "") "\t" (wi ? $wi : "") "\t" $xi] > 1) averaged = 1
		v = $gi + 0; if (gi && v >= 1024 && v % 1024) kg = 0
		v = $xi + 0; if (v >= 1024 && v % 1024) kx = 0
		if (!($xi in seenx)) { seenx[$xi] = 1; X[++nx] = $xi }
	}
	sort(K, nkeys, gnum ? "kg" : "kn")
	if (xnum) sort(X, nx, "g")
	keys = ""; xs = ""
	for (i = 1; i <= nkeys; i++) keys = keys (i > 1 ? " " : "") K[i]
	for (i = 1; i <= nx; i++) xs = xs (i > 1 ? " " : "") X[i]
	for (w in wls) nwl++
	for (t in tgs) ntarget++
	gp("header", header); gp("gname", gname); print "logmode = " logmode
	print "xi = " xi; print "yi = " yi; print "gi = " gi; print "wi = " wi; print "ti = " ti; print "median = " median
	print "gnum = " gnum; print "xnum = " xnum; print "kg = " kg; print "kx = " kx
	gp("keys", keys); print "nwl = " nwl; print "ntarget = " ntarget; print "averaged = " averaged + 0
	gp("xs", xs)
	# each line's rows, found as gnuplot finds them: by the words of keys
	nw = split(keys, KW, /[ \t\r\n]+/); o = (KW[1] == "")
	print "nlines = " int((nw - o) / 3)
	for (i = 1; 3 * i <= nw - o; i++) {
		gv = KW[o + 3 * i - 2]; wv = int(KW[o + 3 * i - 1])
		print "$R" i " << EOD"
		for (j = 2; j <= FN["t"]; j++) {
			$0 = FL["t", j]
			if (NF && (!gi || same($gi, gv)) && (!wi || same($wi, wv))) print
		}
		print "EOD"
	}
}
EOD
scan_log = sprintf("%d", logmode)
scan_four = (ARGC == 4) ? "1" : ""
array SCAN_ARGS = [data, xname, gname, ycol, scan_log, scan_four]
load gpdir . "/scan.gpi"
nx = words(xs)
nlines = words(keys) / 3
gval(i) = word(keys, 3 * i - 2)
wval(i) = int(word(keys, 3 * i - 1))
tval(i) = word(keys, 3 * i)

# Sizes in bytes as 512, 1k, 2k .. 1M when every value is below 1k or a
# multiple of 1k (else plain bytes; issize() and ksize() of about.gpi).
gk = (gi > 0 && gnum && issize(gname)) ? kg : 0
xk = (xnum && issize(xname)) ? kx : 0
showval(s, k) = k ? ksize(int(real(s))) : s

# x values: numbers, or the distinct strings placed at 1, 2, 3 ...
if (!xnum) {
	xmap = "xcat(s) = "
	do for [i = 1:nx] { xmap = xmap . sprintf("(s eq \"%s\") ? %d : ", word(xs, i), i) }
	eval(xmap . "NaN")
	xpos(c) = xcat(strcol(c))
	if (logmode) {
		print sprintf("lines.gp: %s is not numeric; log axes need a numeric x column", xname)
		exit status 1
	}
} else {
	xpos(c) = column(c)
}
if (logmode && real(word(xs, 1)) <= 0) {
	print sprintf("lines.gp: %s has values <= 0, which a log axis cannot show", xname)
	exit status 1
}
# Each line reads only its own rows (so that smooth unique joins them).
rows(i) = sprintf("$R%d", i)

W = 1000
H = 700
load gpdir . "/terminal.gpi"
set datafile separator "\t"

# y range and tick format (k/M prefixes, just enough digits)
stats data using yi skip 1 nooutput
ymin = STATS_min
ymax = STATS_max
if (logmode) {
	stats data using (column(yi) > 0 ? column(yi) : NaN) skip 1 nooutput
	ymin = STATS_min
	set logscale y 10
	lo = floor(log10(ymin))
	hi = ceil(log10(ymax))
	# decades, with 1-2-5 ticks when the data spans few of them and more
	# within a single one
	pre(v) = int(floor((log10(v) + 1e-9) / 3))
	logtick(v) = (v >= 1000) ? sprintf("%g%s", v / 10.0 ** (3 * pre(v)), word("k M G T P", pre(v))) : sprintf("%g", v)
	mant = (ymax < 10 * ymin) ? "1 1.2 1.5 2 2.5 3 4 5 6 7 8 9" : (ymax < 1000 * ymin) ? "1 2 5" : "1"
	set ytics ()
	do for [e = lo:hi] {
		do for [m in mant] {
			v = real(m) * 10.0 ** e
			set ytics add (logtick(v) v)
		}
	}
	set mytics 10
	set yrange [ymin / 1.25:ymax * 1.25]
} else {
	raw = (ymax > 0 ? ymax : 1) / 6.0
	p10 = 10.0 ** floor(log10(raw))
	step = (raw / p10 < 1.5) ? p10 : (raw / p10 < 3.5) ? 2 * p10 : (raw / p10 < 7.5) ? 5 * p10 : 10 * p10
	pexp = (ymax >= 1000) ? 3 * floor(log10(ymax) / 3) : 0
	dec = (step / 10.0 ** pexp >= 1) ? 0 : int(ceil(-log10(step / 10.0 ** pexp) - 1e-9))
	unitp = (pexp > 0) ? word("k M G T P E", int(pexp / 3)) : ""
	numfmt = sprintf("%%.%df", dec)
	ticklabel(v) = (abs(v) < step * 1e-6) ? "0" : sprintf(numfmt, v / 10.0 ** pexp) . unitp
	ytop = ceil(ymax / step - 1e-6) * step
	ytop = (ytop > 0) ? ytop : step
	set yrange [0:ytop]
	set ytics ()
	do for [k = 0:int(ytop / step + 1e-6)] { set ytics add (ticklabel(k * step) k * step) }
}

# x axis: a tick at every value (thinned when there are too many)
xevery = int(ceil(nx / 20.0))
if (logmode) {
	set logscale x 2
	set xrange [real(word(xs, 1)) / 1.25:real(word(xs, nx)) * 1.25]
} else {
	if (xnum) {
		x0 = real(word(xs, 1))
		x1 = real(word(xs, nx))
		pad = (x1 > x0) ? (x1 - x0) * 0.04 : (x0 != 0 ? abs(x0) * 0.1 : 1)
		set xrange [x0 - pad:x1 + pad]
	} else {
		set xrange [0.5:nx + 0.5]
	}
}
# (numbers: a label only where it has room after the previous one)
tpos(i) = !xnum ? i : logmode ? log(real(word(xs, i))) : real(word(xs, i))
if (!xnum || nx <= 40) {
	set xtics ()
	room = (tpos(nx) - tpos(1)) / 18.0
	last = -1
	do for [i = 1:nx] {
		if (xnum ? (last < 0 || tpos(i) - tpos(last) >= room) : ((i - 1) % xevery == 0)) {
			eval(sprintf("set xtics add (\"%s\" %s)", showval(word(xs, i), xk), xnum ? word(xs, i) : sprintf("%d", i)))
			last = i
		}
	}
}

# colour-blind safe colours (Paul Tol), a different point shape per line
array C[8] = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#555555", "#ee8866"]
array P[8] = [7, 5, 9, 13, 11, 15, 6, 4]
# a workload: its name from rebench (target and settings), else its
# number and, when the targets differ, its target
wltitle(w, t) = exists(sprintf("rb_wl%d", w)) ? wlname(w) : \
	sprintf("workload %d%s", w, (ti > 0 && gname ne "target") ? sprintf(" (%s)", t) : "")
title_of(i) = (gi > 0 ? sprintf("%s %s", optname(gname), showval(gval(i), gk)) : "") . \
	(nwl > 1 ? (gi > 0 ? ", " : "") . wltitle(wval(i), tval(i)) : "")

target = (ti > 0 && ntarget == 1) ? tval(1) : ""
deftitle = sprintf("%s by %s%s%s", metric(ycol), optname(xname), \
	gi > 0 ? sprintf(", one line per %s", optname(gname)) : nwl > 1 ? ", one line per workload" : "", \
	logmode ? " (log axes)" : "") . (averaged ? ", mean over the other parameters" : "") . \
	(median ? ", median of the runs" : "")
# what produced it: about.gpi's line, else the table's one target
set title rb_join(deftitle, "\n", subtitle ne "" ? subtitle : target) noenhanced
set xlabel axislabel(xname) noenhanced
set ylabel metriclabel(ycol) noenhanced
set grid xtics ytics mytics lt 1 lw 1 lc rgb "#dddddd", lt 1 lw 1 lc rgb "#f2f2f2"
set border 3
set tics nomirror
# the legend at the right, or under the plot when its names are long (a
# workload's target and settings) and would squeeze the plot
keylen = 0
do for [i = 1:nlines] { keylen = (strlen(title_of(i)) > keylen) ? strlen(title_of(i)) : keylen }
if (nlines < 2) {
	unset key
} else { if (keylen > 24) {
	set key bmargin left Left reverse noenhanced samplen 2 spacing 1.1 maxcols 1
} else {
	set key outside right top noenhanced samplen 2 spacing 1.2
} }
plot for [i = 1:nlines] rows(i) using (xpos(xi)):(column(yi)) smooth unique \
	with linespoints lw 2 pt P[(i - 1 + (i - 1) / 8) % 8 + 1] ps 1.2 lc rgb C[(i - 1) % 8 + 1] title title_of(i)
