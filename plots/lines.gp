# lines.gp - a metric (ops/s unless chosen: MiB/s, p50 or p99 latency)
# against one swept parameter, one line per value of another (e.g. x =
# stride with one line per block-size, or x = block-size with one line per
# dist or target), each point with its 95% interval where the sweep
# measured one, the best point and those within noise of it marked.
#
#   rebench -b 512..4k/512 -s 512..4k/512 -d 1 -g 100 --output sweep.tsv /dev/sdb
#   gnuplot -c plots/lines.gp sweep.tsv lines.png stride block-size
#   rebench -b 512..64k*2 -u uniform,pow -d 1 -g 100 --output bs.tsv /dev/sdb
#   gnuplot -c plots/lines.gp bs.tsv bs.png block-size dist log
#   gnuplot -e "rb_metric='mib_per_s'" -c plots/lines.gp bs.tsv mbs.png block-size dist log
#   gnuplot -c plots/lines.gp TABLE OUT.png|.svg|.pdf|.jpg XNAME [GROUPNAME|""] [log]
#
# Input: the sweep table (TSV with a header row: the swept parameters by
# their long option names, then workload, target, ops_per_s, mib_per_s, the
# latencies, ios, status, ops_ci_low, ops_ci_high .. seconds).  Columns are
# found by name.  With several workloads each workload gets its own lines
# (grouped by workload alone when no GROUPNAME, or GROUPNAME workload, is
# given), named rb_WLN when set (about.gpi).  The y column is rb_metric
# (ops_per_s, mib_per_s, lat_p50_us or lat_p99_us; default ops_per_s), or
# its _median column when the table has one (a --repeat table).  Points
# that share x within a line (a third swept parameter) are averaged, and
# so are their intervals' ends.
#
# Noise: each point's 95% interval is drawn as an error bar: a --repeat
# table's ops_per_s_ci95_low/high, else the batch means of the point's
# intervals (ops_ci_low/high: rebench -g so that a point has at least 10
# intervals, e.g. -d 1 -g 100); MiB/s gets the same relative width; a
# latency has none.  The title gives the median half-width in % of the
# value ("noise +-2.2%"), or says the noise is unknown and how to measure
# it.  The best point (highest; lowest for a latency) is marked with a
# star, and circled are the points that cannot be told from it at about
# 95%: |ln(v / v_best)| <= 1.96 sqrt(s^2 + s_best^2), s a point's relative
# standard error (hi - lo) / (2 * 1.96 * v), as the heatmap's noise file
# marks its cells (src/study/sweep_noise.h).  Lines that share an x are
# set slightly apart so that their bars do not hide each other.
#
# Axes: with "log", a log2 x axis with a tick at every value, and a log10
# y axis when the values (with their intervals) span at least a decade
# (else y from 0, which shows a plateau as one); without, y from 0.  Sizes
# (block-size, stride, offset, length) are labelled as 512 B, 4 KiB,
# 3584 B, 1 MiB; a random workload's stride is labelled as its alignment.
# A non-numeric XNAME (e.g. dist) gives one evenly spaced tick per value.
#
# Title: what is drawn; then what was measured (about.gpi: target, the
# settings the sweep does not vary - operation, pattern, block size, engine,
# queue depth - and the time per point), from rb_* variables (rebench --plot
# passes them), else from TABLE.matrix beside the table when its rows and
# columns are two of the table's columns (a two-parameter sweep writes
# it), else the table's target and its seconds column; then the noise.
# Output: chosen by the output file's extension (terminal.gpi), 1000x700.
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
ycol = (exists("rb_metric") && rb_metric ne "") ? rb_metric : "ops_per_s"

# One awk (scan.gpi) reads the table (and TABLE.matrix beside it for what
# produced it); it emits gnuplot assignments (strings in single quotes):
# err, the first refusal; or header (the header row, tabs as spaces), gname
# and logmode (the arguments as taken), xi, yi, gi, wi, ti (the columns of
# x, y, the group, the workload and the target; 0: none), median (1: y is
# a --repeat table's median); gnum and xnum (1: the group and x values are
# all numbers); keys, one "GROUP WORKLOAD TARGET" per line in the order of
# the lines (sorted by group when it is a number, else by workload) and
# nlines; nwl and ntarget (how many workloads and targets); averaged (1:
# rows that share x within a line); xs, the distinct x values (sorted when
# numbers); ylo and yhi, the least and greatest value or interval end;
# nknown, npts, noisemed, noisemin, noisemax (the points with an interval,
# all points, the median, least and greatest half-width in %); nbest,
# ntied, bestline and bestx (the best point's line and x); secs, the
# median of the seconds column ("" when none); hasmeta and, when 1,
# rb_m_* and rb_meta_of for about.gpi; and a datablock $Ri per line i of
# "x y lo hi mark" rows in x order (x: the value, or its place 1, 2 ..
# when x is not numeric; lo, hi: NaN without an interval; mark: 1 best, 2
# within noise of the best, 0 neither).
$SCAN << EOD
function colidx(name) { return colof(header, name) }
function isnum(s) { return s ~ /^[ \t]*[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?[ \t]*$/ }
# a == b as awk compares two fields
function same(a, b) { return (isnum(a) && isnum(b)) ? a + 0 == b + 0 : a == b }
# a point's relative standard error from its 95% interval ("" without one)
function relse(v, lo, hi) { return (lo == "" || hi == "" || v <= 0 || hi < lo) ? "" : (hi - lo) / (2 * 1.96 * v) }
BEGIN {
	data = ARGV[1]; xname = ARGV[2]; gname = ARGV[3]; ycol = ARGV[4]; logmode = ARGV[5] + 0; four = ARGV[6]
	P[1] = data; P[2] = data ".matrix"
	readable(P, 2, R)
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
	si = colidx("seconds")
	oi = colidx("ops_per_s"); mi = colidx("mib_per_s")
	# the interval: --repeat's over the runs, else the batch means of the
	# point's intervals; MiB/s with the relative width of ops/s
	li = 0; hi = 0; scale = 0
	if (ycol == "ops_per_s" || ycol == "mib_per_s") {
		if (median && colidx("ops_per_s_ci95_low")) { li = colidx("ops_per_s_ci95_low"); hi = colidx("ops_per_s_ci95_high") }
		else if (colidx("ops_ci_low")) { li = colidx("ops_ci_low"); hi = colidx("ops_ci_high") }
		scale = (ycol == "mib_per_s")
	}
	if (xi == 0 || yi == 0 || (gname != "" && gi == 0)) \
		fail(data " has no column " (xi == 0 ? xname : yi == 0 ? ycol : gname) "; its columns are: " header)
	# the rows: lines after the header that have fields
	for (j = 2; j <= FN["t"]; j++) { $0 = FL["t", j]; if (NF) rows++ }
	if (rows < 1) fail(data " has a header but no rows")
	FS = "\t"
	gnum = 1; xnum = 1; nkeys = 0; nx = 0; ns = 0
	for (j = 2; j <= FN["t"]; j++) {
		$0 = FL["t", j]
		if (!NF) continue
		if (gi && $gi !~ /^[-+]?[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?$/) gnum = 0
		if ($xi !~ /^[-+]?[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?$/) xnum = 0
		k = (gi ? $gi : "-") "\t" (wi ? $wi : 1)
		if (!(k in seenk)) { seenk[k] = 1; K[++nkeys] = k "\t" (ti ? $ti : "-") }
		wls[wi ? $wi : 1] = 1; tgs[ti ? $ti : 1] = 1
		if (++pts[(gi ? $gi : "") "\t" (wi ? $wi : "") "\t" $xi] > 1) averaged = 1
		if (!($xi in seenx)) { seenx[$xi] = 1; X[++nx] = $xi }
		if (si && isnum($si)) S[++ns] = $si + 0
	}
	sort(K, nkeys, gnum ? "kg" : "kn")
	if (xnum) sort(X, nx, "g")
	for (i = 1; i <= nx; i++) xplace[X[i]] = i
	keys = ""; xs = ""
	for (i = 1; i <= nkeys; i++) keys = keys (i > 1 ? " " : "") K[i]
	for (i = 1; i <= nx; i++) xs = xs (i > 1 ? " " : "") X[i]
	for (w in wls) nwl++
	for (t in tgs) ntarget++
	gp("header", header); gp("gname", gname); print "logmode = " logmode
	print "xi = " xi; print "yi = " yi; print "gi = " gi; print "wi = " wi; print "ti = " ti; print "median = " median
	print "gnum = " gnum; print "xnum = " xnum
	gp("keys", keys); print "nwl = " nwl; print "ntarget = " ntarget; print "averaged = " averaged + 0
	gp("xs", xs)
	sort(S, ns, "g")
	gp("secs", ns ? sprintf("%.3g", ns % 2 ? S[(ns + 1) / 2] : (S[ns / 2] + S[ns / 2 + 1]) / 2) : "")
	# each line's points, found as gnuplot finds the lines: by the words of
	# keys; the rows of one x averaged, their intervals' ends too
	nw = split(keys, KW, /[ \t\r\n]+/); o = (KW[1] == "")
	nl = int((nw - o) / 3)
	print "nlines = " nl
	np = 0; best = 0; lowbetter = (substr(ycol, 1, 4) == "lat_")
	for (i = 1; i <= nl; i++) {
		gv = KW[o + 3 * i - 2]; wv = int(KW[o + 3 * i - 1])
		for (j = 2; j <= FN["t"]; j++) {
			$0 = FL["t", j]
			if (!NF || (gi && !same($gi, gv)) || (wi && !same($wi, wv)) || !isnum($yi)) continue
			p = i SUBSEP $xi
			if (!(p in cnt)) { PL[++np] = i; PX[np] = $xi; pidx[p] = np }
			q = pidx[p]; cnt[p]++; sy[q] += $yi
			f = scale ? (isnum($oi) && $oi > 0 ? $mi / $oi : "") : 1
			if (li && isnum($li) && isnum($hi) && f != "") { slo[q] += $li * f; shi[q] += $hi * f; nci[q]++ }
		}
	}
	ylo = ""; yhi = ""; nknown = 0
	for (q = 1; q <= np; q++) {
		n = cnt[PL[q], PX[q]]
		V[q] = sy[q] / n
		if (nci[q] == n) { LO[q] = slo[q] / n; HI[q] = shi[q] / n } else { LO[q] = ""; HI[q] = "" }
		if (!best || (lowbetter ? V[q] < V[best] : V[q] > V[best])) best = q
		for (e = 0; e < 3; e++) {
			z = e == 0 ? V[q] : e == 1 ? LO[q] : HI[q]
			if (z == "") continue
			if (ylo == "" || z < ylo) ylo = z
			if (yhi == "" || z > yhi) yhi = z
		}
		if (relse(V[q], LO[q], HI[q]) != "") HW[++nknown] = 100 * (HI[q] - LO[q]) / 2 / V[q]
	}
	if (np < 1) fail(data " has no numbers in its " (median ? ycol "_median" : ycol) " column")
	sort(HW, nknown, "g")
	print "npts = " np; print "nknown = " nknown
	print "noisemed = " (nknown ? (nknown % 2 ? HW[(nknown + 1) / 2] : (HW[nknown / 2] + HW[nknown / 2 + 1]) / 2) : 0)
	print "noisemin = " (nknown ? HW[1] : 0); print "noisemax = " (nknown ? HW[nknown] : 0)
	print "ylo = " ylo + 0; print "yhi = " yhi + 0
	# the best point and those within noise of it (sweep_noise.h)
	sb = relse(V[best], LO[best], HI[best]); ntied = 0
	for (q = 1; q <= np; q++) {
		M[q] = (q == best) ? 1 : 0
		sc = relse(V[q], LO[q], HI[q])
		if (q != best && sb != "" && sc != "" && V[q] > 0 && V[best] > 0) {
			d = log(V[q] / V[best]); if (d < 0) d = -d
			if (d <= 1.96 * sqrt(sc * sc + sb * sb)) { M[q] = 2; ntied++ }
		}
	}
	print "nbest = 1"; print "ntied = " ntied
	print "bestline = " PL[best]; gp("bestx", PX[best])
	for (i = 1; i <= nl; i++) {
		print "$R" i " << EOD"
		for (k = 1; k <= nx; k++) {
			q = pidx[i SUBSEP X[k]]
			if (!q) continue
			printf "%s %.6g %s %s %d\n", xnum ? X[k] : k, V[q], LO[q] == "" ? "NaN" : sprintf("%.6g", LO[q]), \
				HI[q] == "" ? "NaN" : sprintf("%.6g", HI[q]), M[q]
		}
		print "EOD"
	}
	# what produced it: TABLE.matrix of the same sweep (its rows and
	# columns are two of the table's columns)
	hasmeta = 0
	if (R[2]) {
		slurp("m", P[2])
		if (hdr("m", "rows") != "" && colidx(hdr("m", "rows")) && colidx(hdr("m", "columns"))) {
			hasmeta = 1; about("m", P[2])
		}
	}
	print "hasmeta = " hasmeta
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

# What the data is and what produced it: names, labels, the subtitle.
meta_file = hasmeta ? data . ".matrix" : ""
load gpdir . "/about.gpi"

# Sizes as the reports write them (about.gpi's iec()): 512 B, 4 KiB,
# 3584 B, 1 MiB.
gk = (gi > 0 && gnum && issize(gname))
xk = (xnum && issize(xname))
showval(s, k) = k ? iec(int(real(s))) : s
# axis names (about.gpi's axislabel()): the unit is on the ticks

# x values: numbers, or the distinct strings placed at 1, 2, 3 ...
if (!xnum && logmode) {
	print sprintf("lines.gp: %s is not numeric; log axes need a numeric x column", xname)
	exit status 1
}
if (logmode && real(word(xs, 1)) <= 0) {
	print sprintf("lines.gp: %s has values <= 0, which a log axis cannot show", xname)
	exit status 1
}
rows(i) = sprintf("$R%d", i)

W = 1000
H = 700
load gpdir . "/terminal.gpi"

# y axis: log10 when asked and the values span a decade, else from 0;
# round ticks with k/M prefixes and just enough digits
ymin = ylo
ymax = yhi
ylog = (logmode && ymin > 0 && ymax >= 10 * ymin)
if (ylog) {
	set logscale y 10
	lo = floor(log10(ymin))
	hi = ceil(log10(ymax))
	pre(v) = int(floor((log10(v) + 1e-9) / 3))
	logtick(v) = (v >= 1000) ? sprintf("%g%s", v / 10.0 ** (3 * pre(v)), word("k M G T P", pre(v))) : sprintf("%g", v)
	mant = (ymax < 1000 * ymin) ? "1 2 5" : "1"
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
	room = (tpos(nx) - tpos(1)) / 14.0
	last = -1
	do for [i = 1:nx] {
		if (xnum ? (last < 0 || tpos(i) - tpos(last) >= room) : ((i - 1) % xevery == 0)) {
			eval(sprintf("set xtics add (\"%s\" %s)", showval(word(xs, i), xk), xnum ? word(xs, i) : sprintf("%d", i)))
			last = i
		}
	}
}
# lines set apart at each x so that their error bars do not cover each
# other: a quarter of the least gap between x values, shared by the lines
# (only when there are bars)
gap = (nx > 1) ? tpos(2) - tpos(1) : 1
do for [i = 2:nx] { gap = (tpos(i) - tpos(i - 1) < gap) ? tpos(i) - tpos(i - 1) : gap }
dodge(i) = (nlines > 1 && nknown > 0) ? (i - (nlines + 1) / 2.0) * 0.25 * gap / nlines : 0
xat(x, i) = logmode ? x * exp(dodge(i)) : x + dodge(i)

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
deftitle = sprintf("%s by %s%s%s", metric(ycol), axislabel(xname), \
	gi > 0 ? sprintf(", one line per %s", optname(gname)) : nwl > 1 ? ", one line per workload" : "", \
	logmode ? (ylog ? " (log axes)" : " (log x axis)") : "") . (averaged ? ", mean over the other parameters" : "") . \
	(median ? ", median of the runs" : "")
# what produced it: about.gpi's line; else the table's one target and the
# time its points took
what = subtitle
if (rb_target eq "" && target ne "") { what = rb_join(target, ": ", what) }
if (rb_duration eq "" && secs ne "") { what = rb_join(what, ", ", sprintf("%s s per point (the table's seconds)", secs)) }
# the noise: the median half-width of the intervals, or why there is none
rb_pct(v) = (v >= 9.95) ? sprintf("%.0f", v) : sprintf("%.1f", v)
noisetitle = (nknown > 0) ? sprintf("noise +-%s%% (median 95%% half-width of %d points, %s..%s%%; bars: 95%% intervals)", \
	rb_pct(noisemed), nknown, rb_pct(noisemin), rb_pct(noisemax)) : \
	(ycol[1:4] eq "lat_") ? "noise unknown: a latency has no interval per point (--repeat N gives its spread)" : \
	"noise unknown: no interval per point (rebench -g with at least 10 intervals a point, or --repeat N)"
set title rb_join(rb_join(deftitle, "\n", what), "\n", noisetitle) noenhanced
set xlabel axislabel(xname) noenhanced
set ylabel metriclabel(ycol) noenhanced
set grid xtics ytics mytics lt 1 lw 1 lc rgb "#dddddd", lt 1 lw 1 lc rgb "#f2f2f2"
set border 3
set tics nomirror
set bars small
# the legend at the right, or under the plot when its names are long (a
# workload's target and settings) and would squeeze the plot
keylen = 0
do for [i = 1:nlines] { keylen = (strlen(title_of(i)) > keylen) ? strlen(title_of(i)) : keylen }
if (keylen > 24) {
	set key bmargin left Left reverse noenhanced samplen 2 spacing 1.1 maxcols 1
} else {
	set key outside right top noenhanced samplen 2 spacing 1.2
}
# each line: the points joined, their 95% intervals as bars, then the
# marks over them (the best: a star; within noise of it: a circle; no
# marks without intervals, where a best would read as a finding)
keyt(i) = (nlines < 2) ? "" : title_of(i)
besttitle = sprintf("best (%s)", ycol[1:4] eq "lat_" ? "lowest" : "highest")
tiedtitle = (nknown > 0) ? sprintf("within noise of the best (%d)", ntied) : "within noise of the best: unknown"
plot for [i = 1:nlines] rows(i) using (xat($1, i)):2:3:4 with yerrorbars lw 1.5 ps 0 \
		lc rgb C[(i - 1) % 8 + 1] notitle, \
	for [i = 1:nlines] rows(i) using (xat($1, i)):2 with linespoints lw 2 \
		pt P[(i - 1 + (i - 1) / 8) % 8 + 1] ps 1.2 lc rgb C[(i - 1) % 8 + 1] title keyt(i), \
	for [i = 1:nlines] rows(i) using (xat($1, i)):($5 == 2 ? $2 : NaN) with points pt 6 ps 2.6 lw 2 \
		lc rgb "#d62728" title (i == 1 && ntied > 0 ? tiedtitle : ""), \
	for [i = 1:nlines] rows(i) using (xat($1, i)):($5 == 1 && nknown > 0 ? $2 : NaN) with points pt 3 ps 3 lw 2 \
		lc rgb "#d62728" title (i == 1 && nknown > 0 ? besttitle : "")
