# steadystate.gp - the rounds of rebench --steady-state: workload 1's
# ops/s per round, the measurement window (the last 5 rounds) shaded, its
# mean with the band the range criterion allows (a 20% range: +-10% around
# the mean), and the least-squares line through the window; the title
# gives both criteria and the verdict, as rebench computed them.
#
#   rebench --steady-state --round 60 -o write -b 4k --yes --output rounds.tsv --plot ss.png /dev/sdb
#   gnuplot -c plots/steadystate.gp ROUNDS.tsv OUT.png|.svg|.pdf|.jpg
#
# Input: the --output file of --steady-state, tab-separated with a header:
# workload, round, ops_per_s, mib_per_s, lat_p99_us, in_window (1 for the
# window's rounds).  Output: by the extension (terminal.gpi), 1000x600.
me = "steadystate.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c steadystate.gp ROUNDS.tsv OUT.png|.svg|.pdf|.jpg"
	exit status 1
}
data = ARG1
out = ARG2
q(s) = "'" . s . "'"
gpdir = system("dirname " . q(ARG0))
if (system("head -n 1 " . q(data) . " 2>/dev/null | cut -f 2,6") ne "round\tin_window") {
	print sprintf("steadystate.gp: %s is not the --output of rebench --steady-state (its header starts workload, round, ... in_window)", data)
	exit status 1
}
# The window of workload 1, with the SNIA criteria computed again here
# from its rounds: mean, range and the least-squares slope's excursion.
st = system("awk -F'\t' 'NR > 1 && $1 == 1 { n++; if ($6 == 1) { w++; x[w] = $2; y[w] = $3 } } END { if (!w) { print n, 0, 0, 0, 0, 0, 0, 0; exit } m = 0; for (i = 1; i <= w; i++) m += y[i] / w; lo = hi = y[1]; mx = 0; for (i = 1; i <= w; i++) { if (y[i] < lo) lo = y[i]; if (y[i] > hi) hi = y[i]; mx += x[i] / w } sxy = sxx = 0; for (i = 1; i <= w; i++) { sxy += (x[i] - mx) * (y[i] - m); sxx += (x[i] - mx) ^ 2 } s = sxy / sxx; print n, w, x[1], x[w], m, 100 * (hi - lo) / m, 100 * (s < 0 ? -s : s) * (w - 1) / m, s }' " . q(data))
nr = int(word(st, 1))
nw = int(word(st, 2))
if (nr < 1) {
	print sprintf("steadystate.gp: %s has no rounds of workload 1", data)
	exit status 1
}
meta_file = ""
load gpdir . "/about.gpi"
W = 1000
H = 600
load gpdir . "/terminal.gpi"
set datafile separator "\t"
set key top left noenhanced
set grid ytics lc rgb "#dddddd"
set xlabel "round"
set ylabel "ops/s"
set xrange [0.5:nr + 0.5]
set xtics 1
if (nr > 25) { set xtics 5 }
set yrange [0:*]
set format y "%.0s%c"
if (nw > 0) {
	w1 = real(word(st, 3))
	w2 = real(word(st, 4))
	m = real(word(st, 5))
	rng = real(word(st, 6))
	slp = real(word(st, 7))
	s = real(word(st, 8))
	ok = (rng <= 20 && slp <= 10)
	crit = sprintf("window rounds %d-%d: mean %.0f, range %.1f%% (limit 20%%), slope %.1f%% (limit 10%%)", w1, w2, m, rng, slp)
	set title rb_join("ops/s per round: " . (ok ? "steady state reached" : "NOT at steady state") . "\n" . crit, "\n", subtitle) noenhanced
	set object 1 rect from w1 - 0.5, graph 0 to w2 + 0.5, graph 1 fc rgb "#e8f0fa" fs solid 1.0 noborder behind
	set object 2 rect from w1 - 0.5, m * 0.9 to w2 + 0.5, m * 1.1 fc rgb "#c9dcf0" fs solid 0.6 noborder behind
	fitline(x) = (x >= w1 - 0.01 && x <= w2 + 0.01) ? m + s * (x - (w1 + w2) / 2.0) : NaN
	set samples 500
	plot data using 2:($1 == 1 ? $3 : NaN) with linespoints pt 7 ps 1 lw 2 lc rgb "#1f77b4" title "ops/s per round", \
	     (x >= w1 - 0.5 && x <= w2 + 0.5 ? m : NaN) with lines dt 2 lw 1.5 lc rgb "#444444" title "window mean; band: the 20% range", \
	     fitline(x) with lines lw 2 lc rgb "#d62728" title "least-squares line over the window"
} else {
	set title rb_join("ops/s per round: fewer than 5 rounds, no window to judge", "\n", subtitle) noenhanced
	plot data using 2:($1 == 1 ? $3 : NaN) with linespoints pt 7 ps 1 lw 2 lc rgb "#1f77b4" title "ops/s per round"
}
