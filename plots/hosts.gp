# hosts.gp - rebench --hosts on one figure: ops/s per host as bars
# (outliers in red), the median host's as a dashed line, each host's p99
# latency as a point on the right axis, and the merged figures (the sum of
# ops/s, the p99 of the summed histograms) in the title; workload 1.  For a
# sweep across hosts: a line of ops/s per host across the points, and the
# merged (summed) ops/s on the right axis.
#
#   rebench --hosts-file cluster.txt --output hosts.tsv --plot hosts.png /dev/sdb
#   gnuplot -c plots/hosts.gp HOSTS.tsv OUT.png|.svg|.pdf|.jpg
#
# Input: the --output table of --hosts, tab-separated after '#' comment
# lines: point, values, host, workload, target, status, offset_ms, late_ms,
# ops_per_s (9), mib_per_s, ios, lat_p50_us, lat_p99_us (13), lat_max_us,
# outlier (15, 1 or 0); the row of host "all" is the merged one; "-" where
# a host has no figure.  Output: by the extension (terminal.gpi), 1000x600.
me = "hosts.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c hosts.gp HOSTS.tsv OUT.png|.svg|.pdf|.jpg"
	exit status 1
}
data = ARG1
out = ARG2
q(s) = "'" . s . "'"
gpdir = system("dirname " . q(ARG0))
hdr = system("grep -v '^#' " . q(data) . " 2>/dev/null | head -n 1 | cut -f 3,9,15")
if (hdr ne "host\tops_per_s\toutlier") {
	print sprintf("hosts.gp: %s is not the --output table of rebench --hosts (its header has host, ops_per_s and outlier in columns 3, 9 and 15)", data)
	exit status 1
}
# the rows drawn: workload 1 of the first point, the hosts, then "all"
rows = q(data) . " | awk -F'\\t' '!/^#/ && $1 == 1 && $4 == 1'"
sel = "< grep -v '^#' " . rows . " | awk -F'\\t' '$3 != \"all\"'"
all = system("grep -v '^#' " . rows . " | awk -F'\\t' '$3 == \"all\" { print $9, $13 }'")
nh = int(system("grep -v '^#' " . rows . " | awk -F'\\t' '$3 != \"all\" && $3 != \"host\"' | wc -l"))
med = system("grep -v '^#' " . rows . " | awk -F'\\t' '$3 != \"all\" && $9 != \"-\" && $3 != \"host\" { print $9 }' | sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'")
if (nh < 1) {
	print sprintf("hosts.gp: %s has no host rows for workload 1", data)
	exit status 1
}
meta_file = data
load gpdir . "/about.gpi"
W = 1000
H = 600
load gpdir . "/terminal.gpi"
set datafile separator "\t"
set datafile missing "-"
set key below noenhanced
set grid ytics lc rgb "#dddddd"
set style fill solid 0.8 border -1
set boxwidth 0.6
set xrange [-0.6:nh - 0.4]
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics
set ylabel "ops/s"
set y2label "p99 latency (us)"
set format y "%.0f"
if (nh > 6) {
	set xtics rotate by -30 noenhanced
} else {
	set xtics noenhanced
}
set offsets 0, 0, graph 0.12, 0
merged = (all eq "") ? "" : sprintf("all %d hosts: %s ops/s summed, p99 %s us from the summed histograms", nh, cellfmt(real(word(all, 1))), cellfmt(real(word(all, 2))))
# each host ran once: no interval per bar; the spread between the hosts is
# the plot (an outlier is one more than --outlier from the median host)
noise = "noise: one run per host, no interval"
set title rb_join("ops/s per host, one common start; outliers in red", "\n", rb_join(merged, "\n", rb_join(subtitle, "\n", noise))) noenhanced
if (med ne "") {
	set arrow 1 from graph 0, first real(med) to graph 1, first real(med) nohead dt 2 lw 1.5 lc rgb "#444444" front
	set label 1 sprintf("median host %s", cellfmt(real(med))) at graph 0.01, first real(med) offset 0, 0.7 left font ",9" front
}
npt = int(system("grep -v '^#' " . q(data) . " | awk -F'\\t' 'NR > 1 && $4 == 1 { p[$1] = 1 } END { n = 0; for (k in p) n++; print n }'"))
if (npt > 1) {
	hostlist = system("grep -v '^#' " . q(data) . " | awk -F'\\t' 'NR > 1 && $4 == 1 && $3 != \"all\" && !s[$3]++ { printf \"%s \", $3 }'")
	unset arrow 1
	unset label 1
	set xrange [0.5:npt + 0.5]
	set xtics rotate by -20 noenhanced
	set y2label "ops/s, all hosts summed"
	set format y2 "%.0f"
	set key below noenhanced
	set title rb_join(sprintf("ops/s per host at each of %d points, each from one common start", npt), "\n", rb_join(subtitle, "\n", noise)) noenhanced
	line(h) = "< grep -v '^#' " . q(data) . " | awk -F'\\t' '$4 == 1 && $3 == \"" . h . "\"'"
	plot for [h in hostlist] line(h) using 1:9:xtic(2) with linespoints pt 7 lw 2 title h, \
	     line("all") using 1:9 axes x1y2 with linespoints pt 6 lw 3 dt 2 lc rgb "#444444" title "all hosts (summed, right axis)"
} else {
	plot sel using 0:($15 == 1 ? NaN : $9):xtic(3) with boxes lc rgb "#1f77b4" title "ops/s", \
	     sel using 0:($15 == 1 ? $9 : NaN) with boxes lc rgb "#d62728" title "ops/s, outlier", \
	     sel using 0:13 axes x1y2 with points pt 7 ps 1.4 lc rgb "#2ca02c" title "p99 latency"
}
