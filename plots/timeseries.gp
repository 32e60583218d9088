# timeseries.gp - ops/s and latency over time from rebench --output.
#
#   rebench -d 30 -g 500 --output run.tsv /dev/sdb
#   gnuplot -c plots/timeseries.gp run.tsv run.png
#
# Input: the TSV time series (workload, time_s, ios, ops_per_s, mb_per_s,
# lat_avg_us, lat_max_us), one or more workloads.  Output: PNG or SVG,
# chosen by the output file's extension.
if (ARGC < 2) {
	print "usage: gnuplot -c timeseries.gp DATA.tsv OUT.png|OUT.svg"
	exit status 1
}
data = ARG1
out = ARG2
if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 1000,700 dynamic enhanced font "sans,11"
} else {
	set terminal pngcairo size 1000,700 enhanced font "sans,10"
}
set output out
set datafile separator "\t"
set key outside right top
stats data using 1 skip 1 nooutput
nwl = int(STATS_max)
name = system(sprintf("basename '%s'", data))
set multiplot layout 2,1 title (data[1:17] eq "/tmp/rebench-plot" ? "rebench time series" : sprintf("rebench time series: %s", name)) noenhanced
set lmargin 12
set rmargin 26
set grid
set ylabel "ops/s"
set format y "%.1s%c"
set xlabel "time (s)"
plot for [w=1:nwl] data skip 1 using ($1 == w ? $2 : 1/0):4 with linespoints pt 7 ps 0.5 title sprintf("workload %d", w)
set ylabel "latency (us)"
set format y "%g"
set logscale y
plot for [w=1:nwl] data skip 1 using ($1 == w ? $2 : 1/0):6 with linespoints pt 7 ps 0.5 title sprintf("avg, workload %d", w), \
     for [w=1:nwl] data skip 1 using ($1 == w ? $2 : 1/0):7 with lines dt 2 title sprintf("max, workload %d", w)
unset multiplot
