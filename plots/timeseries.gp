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
q(s) = "'" . s . "'"
gpdir = system("dirname " . q(ARG0))
if (system("test -f " . q(data) . " && test -r " . q(data) . " && echo yes") ne "yes") {
	print sprintf("%s: cannot read %s", me, data)
	exit status 1
}
meta_file = ""
load gpdir . "/about.gpi"
ycol = (exists("rb_metric") && rb_metric eq "mib_per_s") ? "mib_per_s" : "ops_per_s"
header = system("head -n 1 " . q(data) . " | tr -d '\r' | tr '\t' ' '")
ncols = words(header)
colidx(n) = sum [i = 1:ncols] (word(header, i) eq n ? i : 0)
wi = colidx("workload")
ti = colidx("time_s")
yi = colidx(ycol)
ai = colidx("lat_avg_us")
mi = colidx("lat_max_us")
if (wi * ti * yi * ai * mi == 0) {
	print sprintf("%s: %s is not a rebench time series (it needs the columns workload, time_s, %s, lat_avg_us and lat_max_us; its columns are: %s)", \
		me, data, ycol, header)
	exit status 1
}
# The workloads in the file (a number each), and the most intervals of any.
wls = system(sprintf("awk -F '\t' 'NR > 1 && NF && !($%d in s) { s[$%d] = 1; print $%d }' %s | sort -n | tr '\n' ' '", wi, wi, wi, q(data)))
nw = words(wls)
most = int(system(sprintf("awk -F '\t' 'NR > 1 && NF { n[$%d]++ } END { for (w in n) if (n[w] > m) m = n[w]; print m + 0 }' %s", wi, q(data))))
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

name = system("basename " . q(data))
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
