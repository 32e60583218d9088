# timeseries.gp - ops/s (or MiB/s) and latency over time from rebench
# --output, one colour per workload.
#
#   rebench -d 30 -g 500 --output run.tsv --plot run.png /dev/sdb
#   gnuplot -c plots/timeseries.gp run.tsv run.png
#   gnuplot -e "rb_target='/dev/sdb'" -c plots/timeseries.gp run.tsv run.png
#   gnuplot -c plots/timeseries.gp DATA.tsv OUT.png|.svg|.pdf|.jpg
#
# Input: the TSV time series (workload, time_s, ios, ops_per_s, mib_per_s,
# lat_avg_us, lat_max_us, and lat_p99_us when the series has it; columns
# found by name), one or more workloads; the comment lines rebench writes
# before the header row (about.gpi's five, "# target: ...", and each
# workload's name, "# workload 1: ...") are read when there are any.
# Above: each interval's ops/s (mib_per_s when rb_metric is "mib_per_s"),
# y from 0, one line per workload, named rb_wlN when set (rebench --plot
# sets it to the target and the settings), else by the file's "# workload
# N:" line, else "workload N" (as rebench's report calls it); and the
# noise: the 95% interval of each workload's
# mean, shaded over the intervals it is computed from, by the batch means
# rebench prints as "Ops/sec 95% interval" (stats/ci.h: B = floor(sqrt(n))
# batches within 5..30 of the complete intervals, the last n - B x m left
# out, t(0.975, B - 1)); with fewer than 10 complete intervals the legend
# says there is none.  Below: each interval's mean latency (solid),
# maximum (dashed) and p99 (dotted, when the series has lat_p99_us; the
# legend says when it has not) on a log axis, in the workload's colour.
# x is the end of each interval, from 0.  A series with one interval per
# workload is drawn as points, and a note says so.  The title says what is
# drawn, above what produced it (about.gpi, from -e or the file's comment
# lines; without them, a file of an older rebench, the file's name, its
# length and interval, and that the target and settings are not in the
# file).  The legends are under each panel's axis, where they cover
# neither the title nor the data.  Output: chosen by the output file's
# extension (terminal.gpi), 1000x700.
me = "timeseries.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c timeseries.gp DATA.tsv OUT.png|.svg|.pdf|.jpg"
	exit status 1
}
data = ARG1
out = ARG2
gpdir = system("dirname '" . ARG0 . "'")
ycol = (exists("rb_metric") && rb_metric eq "mib_per_s") ? "mib_per_s" : "ops_per_s"
# One awk (scan.gpi) reads the table; it emits gnuplot assignments
# (strings in single quotes): err, the first refusal; or header (the
# header row, tabs as spaces); wi, ti, yi, ai, mi, pi (the columns
# workload, time_s, the y metric, lat_avg_us, lat_max_us and lat_p99_us,
# 0 when there is none); wls, the workloads in the file ("1 2 .. ",
# sorted); most, the most intervals of any workload; name, the file's name
# without its directory; span and step ("5s", "250ms": the longest
# workload's end and its interval); per workload (words in wls's order):
# cin (complete intervals), cimean, cilo, cihi, cipct (the 95% interval
# of the mean, "-" when fewer than 10), cib, cim (batches, intervals a
# batch), cix0, cix1 (the first and last interval used, as x); and the
# rb_m_* of about.gpi from the file's comment lines.
$SCAN << EOD
function tq(df) {
	# t(0.975, df) for df 4 .. 29 (the batch means' B - 1)
	split("2.776445 2.570582 2.446912 2.364624 2.306004 2.262157 2.228139 2.200985 2.178813 2.160369 2.144787 2.131450 2.119905 2.109816 2.100922 2.093024 2.085963 2.079614 2.073873 2.068658 2.063899 2.059539 2.055529 2.051831 2.048407 2.045230", T, " ")
	return T[df - 3] + 0
}
function secs(s) {
	if (s >= 1 && s == int(s)) return sprintf("%ds", s)
	if (s >= 1) return sprintf("%gs", s)
	if (s * 1000 >= 1) return sprintf("%gms", s * 1000)
	return sprintf("%gus", s * 1e6)
}
BEGIN {
	data = ARGV[1]; ycol = ARGV[2]
	P[1] = data
	readable(P, 1, R)
	if (!R[1]) fail("cannot read " data)
	slurp("t", data)
	for (h = 1; h <= FN["t"] && FL["t", h] ~ /^#/; h++) ;
	header = FL["t", h]; gsub(/\r/, "", header); gsub(/\t/, " ", header)
	wi = colof(header, "workload"); ti = colof(header, "time_s"); yi = colof(header, ycol)
	ai = colof(header, "lat_avg_us"); mi = colof(header, "lat_max_us"); pi = colof(header, "lat_p99_us")
	if (wi * ti * yi * ai * mi == 0) \
		fail(data " is not a rebench time series (it needs the columns workload, time_s, " ycol \
			", lat_avg_us and lat_max_us; its columns are: " header ")")
	FS = "\t"
	for (j = h + 1; j <= FN["t"]; j++) {
		$0 = FL["t", j]
		if (!NF || /^#/) continue
		w = $wi
		if (!(w in n)) { V[++k] = w; step[w] = $ti + 0 }
		if (++n[w] > most) most = n[w]
		# a complete interval ends one step after the one before it
		len = $ti - (n[w] > 1 ? last[w] : 0)
		if (step[w] > 0 && len > step[w] * 0.999 && len < step[w] * 1.001) {
			Y[w, ++c[w]] = $yi + 0; X[w, c[w]] = $ti + 0
		}
		last[w] = $ti + 0
		if ($ti + 0 > span) { span = $ti + 0; spanstep = step[w] }
	}
	sort(V, k, "g")
	wls = ""
	for (i = 1; i <= k; i++) {
		w = V[i]; wls = wls w " "
		N = c[w] + 0
		cin = cin N " "
		if (N < 10) {
			cimean = cimean "- "; cilo = cilo "- "; cihi = cihi "- "; cipct = cipct "- "
			cib = cib "- "; cim = cim "- "; cix0 = cix0 "- "; cix1 = cix1 "- "
			continue
		}
		B = int(sqrt(N)); if (B < 5) B = 5; if (B > 30) B = 30
		m = int(N / B)
		s = 0
		for (q = 1; q <= B * m; q++) s += Y[w, q]
		mean = s / (B * m)
		ss = 0
		for (b = 0; b < B; b++) {
			bm = 0
			for (q = 1; q <= m; q++) bm += Y[w, b * m + q]
			bm = bm / m - mean; ss += bm * bm
		}
		half = tq(B - 1) * sqrt(ss / (B - 1)) / sqrt(B)
		cimean = cimean sprintf("%.6g", mean) " "
		cilo = cilo sprintf("%.6g", mean > half ? mean - half : 0) " "
		cihi = cihi sprintf("%.6g", mean + half) " "
		cipct = cipct sprintf("%.6g", mean > 0 ? 100 * half / mean : 0) " "
		cib = cib B " "; cim = cim m " "; cix0 = cix0 X[w, 1] " "; cix1 = cix1 X[w, B * m] " "
	}
	name = data
	if (name ~ /[^\/]/) sub(/\/+$/, "", name)
	if (name ~ /[^\/]/) sub(/.*\//, "", name); else name = "/"
	gp("header", header); print "wi = " wi; print "ti = " ti; print "yi = " yi; print "ai = " ai; print "mi = " mi; print "pi = " pi
	gp("wls", wls); print "most = " most + 0; gp("name", name)
	gp("span", secs(span)); gp("step", secs(spanstep))
	gp("cin", cin); gp("cimean", cimean); gp("cilo", cilo); gp("cihi", cihi); gp("cipct", cipct)
	gp("cib", cib); gp("cim", cim); gp("cix0", cix0); gp("cix1", cix1)
	about("t", data)
}
EOD
array SCAN_ARGS = [data, ycol]
load gpdir . "/scan.gpi"
nw = words(wls)
if (nw == 0) {
	print sprintf("%s: %s has no intervals (a run that did no I/O)", me, data)
	exit status 1
}
meta_file = data
load gpdir . "/about.gpi"
wl(i) = int(word(wls, i))
hasci(i) = (word(cimean, i) ne "-")
nci = 0
do for [i = 1:nw] { nci = nci + hasci(i) }

W = 1000
H = 700
load gpdir . "/terminal.gpi"
set datafile separator "\t"

# colour-blind safe colours (Paul Tol): one per workload, in both panels
array C[8] = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#555555", "#ee8866"]
col(i) = C[(i - 1) % 8 + 1]
only(i, c) = (column(wi) == wl(i)) ? column(c) : NaN
unit = metric(ycol)
# "1842", "18.4", "0.512": three digits or more, no prefix (the legend
# repeats what the axis shows)
num(z) = (abs(z) >= 100) ? sprintf("%.0f", z) : (abs(z) >= 10) ? sprintf("%.1f", z) : sprintf("%.3g", z)
citext(i) = sprintf("mean %s %s, 95%% interval %s..%s (+-%.1f%%; batch means, %s batches of %s intervals)", \
	num(real(word(cimean, i))), unit, num(real(word(cilo, i))), num(real(word(cihi, i))), \
	real(word(cipct, i)), word(cib, i), word(cim, i))

maintitle = sprintf("%s and latency over time", unit)
what = (subtitle ne "") ? subtitle : \
	sprintf("%s: %s run in %s intervals (the file has no \"# target:\" lines: the target and the settings are unknown)", \
		name, span, step)
set multiplot layout 2,1 title rb_join(maintitle, "\n", what) noenhanced
set lmargin 12
set rmargin 4
set grid xtics ytics lt 1 lw 1 lc rgb "#dddddd"
set border 3
set tics nomirror
set xrange [0:*]
# the time axis is labelled once, under the lower panel
set xlabel ""
# one interval each: no line to draw, only points; say so
if (most == 1) {
	set label 1 "one interval per workload (the run lasted one -g step or less): each is a point, not a line" \
		at graph 0.5, graph 0.5 center noenhanced textcolor rgb "#444444"
}
# the legends go between the panels, under the upper one's time axis and
# over the lower one: they cover neither the title nor the data
noci = sprintf("no 95%% interval of the mean: %s complete intervals%s, batch means needs 10 (a longer run or a shorter -g gives one)", \
	nw == 1 ? word(cin, 1) : "fewer than 10", nw == 1 ? "" : " in a workload")
shade = (nci == 0) ? noci : (nci < nw) ? "no 95% interval where a workload has fewer than 10 complete intervals" : ""
set key bmargin center horizontal Left reverse noenhanced samplen 2 maxrows 4 title shade
set ylabel metriclabel(ycol) noenhanced
set yrange [0:*]
set format y "%.1s%c"
bands = ""
do for [i = 1:nw] {
	if (hasci(i)) {
		bands = bands . sprintf(", [t=%s:%s] '+' using (t):(%s):(%s) with filledcurves fs transparent solid 0.18 noborder lc rgb '%s' title '%s'", \
			word(cix0, i), word(cix1, i), word(cilo, i), word(cihi, i), col(i), citext(i))
	}
}
eval("plot for [i = 1:nw] data skip 1 using (column(ti)):(only(i, yi)) with linespoints " . \
	"pt 7 ps (most == 1 ? 1.5 : 0.5) lw 1.5 lc rgb col(i) title wlname(wl(i))" . bands)
unset label 1
unset label 99
set ylabel "latency (log scale)"
set yrange [*:*]
set logscale y
# decades as times, the style of latency.gp's axis (no 1e+06 beside 1000)
set ytics ("1 us" 1, "10 us" 10, "100 us" 100, "1 ms" 1e3, "10 ms" 1e4, "100 ms" 1e5, "1 s" 1e6, "10 s" 1e7, "100 s" 1e8)
set xlabel "time (s), at the end of each interval"
set key tmargin center horizontal Left reverse noenhanced samplen 3 maxrows 1
p99 = (pi > 0) ? ", for [i = 1:nw] data skip 1 using (column(ti)):(only(i, pi)) with linespoints " . \
	"dt 3 pt 4 ps (most == 1 ? 1.5 : 0.5) lw 1.5 lc rgb col(i) notitle" : ""
p99key = (pi > 0) ? ", NaN with linespoints dt 3 pt 4 lw 1.5 lc rgb '#444444' title 'p99'" : \
	", NaN with points pt -1 title 'no p99 per interval in the series'"
eval("plot for [i = 1:nw] data skip 1 using (column(ti)):(only(i, ai)) with linespoints " . \
	"pt 7 ps (most == 1 ? 1.5 : 0.4) lw 1.5 lc rgb col(i) notitle, " . \
     "for [i = 1:nw] data skip 1 using (column(ti)):(only(i, mi)) with linespoints " . \
	"dt 2 pt 6 ps (most == 1 ? 1.5 : 0.7) lw 1 lc rgb col(i) notitle" . p99 . ", " . \
     "NaN with linespoints pt 7 lw 1.5 lc rgb '#444444' title 'mean', " . \
     "NaN with linespoints dt 2 pt 6 lw 1 lc rgb '#444444' title 'maximum'" . p99key)
unset multiplot
