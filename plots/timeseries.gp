# timeseries.gp - ops/s (or MiB/s) and latency over time from rebench
# --output, one colour per workload.
#
#   rebench -d 30 -g 500 --output run.tsv /dev/sdb
#   gnuplot -c plots/timeseries.gp run.tsv run.png
#   gnuplot -c plots/timeseries.gp DATA.tsv OUT.png|.svg|.pdf|.jpg
#
# Input: the TSV time series (workload, time_s, ios, ops_per_s, mib_per_s,
# lat_avg_us, lat_max_us, ...; columns found by name), one or more
# workloads.  Above: each interval's ops/s (mib_per_s when rb_metric is
# "mib_per_s"), y from 0, one line per workload, named rb_wlN when set
# (rebench --plot sets it to the target and the settings) or "workload N".
# Below: each interval's mean latency (solid) and maximum latency (dashed)
# on a log axis, in the workload's colour.  x is the end of each interval,
# from 0.  A series with one interval per workload is drawn as points, and
# a note says so.  The title says what is drawn, above what produced it
# (about.gpi).  Output: chosen by the output file's extension
# (terminal.gpi), 1000x700.
me = "timeseries.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c timeseries.gp DATA.tsv OUT.png|.svg|.pdf|.jpg"
	exit status 1
}
data = ARG1
out = ARG2
gpdir = system("dirname '" . ARG0 . "'")
meta_file = ""
load gpdir . "/about.gpi"
ycol = (exists("rb_metric") && rb_metric eq "mib_per_s") ? "mib_per_s" : "ops_per_s"
# One awk (scan.gpi) reads the table; it emits gnuplot assignments
# (strings in single quotes): err, the first refusal; or header (the
# header row, tabs as spaces); wi, ti, yi, ai, mi (the columns workload,
# time_s, the y metric, lat_avg_us and lat_max_us); wls, the workloads in
# the file ("1 2 .. ", sorted); most, the most intervals of any workload;
# name, the file's name without its directory.
$SCAN << EOD
BEGIN {
	data = ARGV[1]; ycol = ARGV[2]
	P[1] = data
	readable(P, 1, R)
	if (!R[1]) fail("cannot read " data)
	slurp("t", data)
	header = FL["t", 1]; gsub(/\r/, "", header); gsub(/\t/, " ", header)
	wi = colof(header, "workload"); ti = colof(header, "time_s"); yi = colof(header, ycol)
	ai = colof(header, "lat_avg_us"); mi = colof(header, "lat_max_us")
	if (wi * ti * yi * ai * mi == 0) \
		fail(data " is not a rebench time series (it needs the columns workload, time_s, " ycol \
			", lat_avg_us and lat_max_us; its columns are: " header ")")
	FS = "\t"
	for (j = 2; j <= FN["t"]; j++) {
		$0 = FL["t", j]
		if (!NF) continue
		if (!($wi in n)) V[++k] = $wi
		if (++n[$wi] > most) most = n[$wi]
	}
	sort(V, k, "g")
	wls = ""
	for (i = 1; i <= k; i++) wls = wls V[i] " "
	name = data
	if (name ~ /[^\/]/) sub(/\/+$/, "", name)
	if (name ~ /[^\/]/) sub(/.*\//, "", name); else name = "/"
	gp("header", header); print "wi = " wi; print "ti = " ti; print "yi = " yi; print "ai = " ai; print "mi = " mi
	gp("wls", wls); print "most = " most + 0; gp("name", name)
}
EOD
array SCAN_ARGS = [data, ycol]
load gpdir . "/scan.gpi"
nw = words(wls)
if (nw == 0) {
	print sprintf("%s: %s has no intervals (a run that did no I/O)", me, data)
	exit status 1
}
wl(i) = int(word(wls, i))

W = 1000
H = 700
load gpdir . "/terminal.gpi"
set datafile separator "\t"

# colour-blind safe colours (Paul Tol): one per workload, in both panels
array C[8] = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#555555", "#ee8866"]
col(i) = C[(i - 1) % 8 + 1]
only(i, c) = (column(wi) == wl(i)) ? column(c) : NaN

maintitle = sprintf("%s and latency over time", metric(ycol))
what = (subtitle ne "") ? subtitle : (data[1:17] eq "/tmp/rebench-plot" ? "" : name)
set multiplot layout 2,1 title rb_join(maintitle, "\n", what) noenhanced
set lmargin 12
set rmargin 4
set grid xtics ytics lt 1 lw 1 lc rgb "#dddddd"
set border 3
set tics nomirror
set xrange [0:*]
set xlabel "time (s), at the end of each interval"
# one interval each: no line to draw, only points; say so
if (most == 1) {
	set label 1 "one interval per workload (the run lasted one -g step or less): each is a point, not a line" \
		at graph 0.5, graph 0.5 center noenhanced textcolor rgb "#444444"
}
set key tmargin left Left reverse noenhanced samplen 2 maxcols 1
set ylabel metriclabel(ycol) noenhanced
set yrange [0:*]
set format y "%.1s%c"
plot for [i = 1:nw] data skip 1 using (column(ti)):(only(i, yi)) with linespoints \
	pt 7 ps (most == 1 ? 1.5 : 0.5) lw 1.5 lc rgb col(i) title wlname(wl(i))
unset label 1
unset label 99
set ylabel "latency (us, log scale)"
set yrange [*:*]
set format y "%g"
set logscale y
set key tmargin right Right noreverse horizontal
plot for [i = 1:nw] data skip 1 using (column(ti)):(only(i, ai)) with linespoints \
	pt 7 ps (most == 1 ? 1.5 : 0.4) lw 1.5 lc rgb col(i) notitle, \
     for [i = 1:nw] data skip 1 using (column(ti)):(only(i, mi)) with linespoints \
	dt 2 pt 6 ps (most == 1 ? 1.5 : 0.7) lw 1 lc rgb col(i) notitle, \
     NaN with linespoints pt 7 lw 1.5 lc rgb "#444444" title "mean", \
     NaN with linespoints dt 2 pt 6 lw 1 lc rgb "#444444" title "maximum"
unset multiplot
