# cache-pressure.gp - working set against cache (BangDB's study): ops/s
# (top, log) and device reads per request (bottom) against the cache
# limit over the region, one line per operation, the cache shrinking to
# the right, with BangDB's three regimes shaded: normal (the cache holds
# the region: ratio >= 1), stressed (about half) and totally stressed (a
# fifth to a tenth).
#
#   gnuplot -c plots/cache-pressure.gp cache-pressure.tsv OUT.png|.svg|.pdf|.jpg [INTERVALS]
#
# Input: the table workloads/cache-pressure.sh writes (TSV with a header:
# ratio, operation, cache_bytes, ops_per_s, lat_p99_us,
# device_reads_per_request, durability); INTERVALS, optional, its
# cache-pressure.intervals.tsv (ratio, operation, ops_ci_low, ops_ci_high,
# ops_ci_pct): each point's 95% interval of ops/s, drawn as error bars,
# the median half-width in the title as the noise, and the points within
# noise of their operation's best ringed (|ln(v / best)| <= 1.96
# sqrt(se^2 + se_best^2), as rebench judges a sweep's cells).  The two
# panels share their left and right edges and the x range, so a ratio and
# a regime's band are at the same place in both.  ops/s is labelled 1k,
# 10k, 100k, 1M (a log axis); reads per request as plain numbers.  The
# title says what is drawn, above what produced it (about.gpi: rb_target,
# rb_about, rb_duration).  Output: by the extension (terminal.gpi),
# 1000x800.
me = "cache-pressure.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c cache-pressure.gp TABLE OUT.png|.svg|.pdf|.jpg [INTERVALS]"
	exit status 1
}
data = ARG1
out = ARG2
ci = (ARGC >= 3) ? ARG3 : ""
q(s) = "'" . s . "'"
gpdir = system("dirname " . q(ARG0))
meta_file = ""
load gpdir . "/about.gpi"
if (system("test -f " . q(data) . " && test -r " . q(data) . " && echo yes") ne "yes") {
	print sprintf("%s: cannot read %s", me, data)
	exit status 1
}
header = system("head -n 1 " . q(data) . " | tr '\t' ' '")
if (word(header, 1) ne "ratio" || word(header, 2) ne "operation" || word(header, 6) ne "device_reads_per_request") {
	print sprintf("%s: %s is not a cache-pressure.sh table (its columns are: %s)", me, data, header)
	exit status 1
}
if (ci ne "") {
	if (system("test -f " . q(ci) . " && test -r " . q(ci) . " && echo yes") ne "yes") {
		print sprintf("%s: cannot read the intervals %s", me, ci)
		exit status 1
	}
	cih = system("head -n 1 " . q(ci) . " | tr '\t' ' '")
	if (word(cih, 1) ne "ratio" || word(cih, 2) ne "operation" || word(cih, 3) ne "ops_ci_low" || word(cih, 4) ne "ops_ci_high") {
		print sprintf("%s: %s is not a cache-pressure.sh intervals table (ratio, operation, ops_ci_low, ops_ci_high; its columns are: %s)", me, ci, cih)
		exit status 1
	}
}
ops = system("awk -F'\t' 'NR > 1 && !seen[$2]++ { printf \"%s \", $2 }' " . q(data))
nops = words(ops)
if (nops < 1) {
	print sprintf("%s: %s has a header but no rows", me, data)
	exit status 1
}
rmin = real(system("awk -F'\t' 'NR > 1 && (m == \"\" || $1 < m) { m = $1 } END { print m }' " . q(data)))
rmax = real(system("awk -F'\t' 'NR > 1 && $1 > m { m = $1 } END { print m }' " . q(data)))
W = 1000; H = 800
load gpdir . "/terminal.gpi"

# one operation's rows, in ratio order: the table's columns, then (with
# INTERVALS) ops_ci_low, ops_ci_high (8, 9: "-" where there is none) and
# a mark (10: best, tied or -) against the operation's best ops/s
join = (ci eq "") ? "" : q(ci)
rows(o) = sprintf("< awk -F'\\t' -v OFS='\\t' -v o=%s '" . \
	"FNR == 1 { f++; next } f == 1 && $2 == o { L[$1] = $3; U[$1] = $4; next } " . \
	"f == %d && $2 == o { n++; R[n] = $0; X[n] = $1; V[n] = $4 + 0; lo = ($1 in L) ? L[$1] : \"-\"; hi = ($1 in U) ? U[$1] : \"-\"; " . \
	"SE[n] = (lo ~ /^[0-9.eE+-]+$/ && hi ~ /^[0-9.eE+-]+$/ && V[n] > 0) ? (hi - lo) / (2 * 1.96 * V[n]) : -1; LO[n] = lo; HI[n] = hi; " . \
	"if (!b || V[n] > V[b]) b = n } " . \
	"END { for (i = 1; i <= n; i++) { m = (i == b) ? \"best\" : \"-\"; " . \
	"if (i != b && SE[i] >= 0 && SE[b] >= 0 && V[i] > 0) { d = log(V[i] / V[b]); if (d < 0) d = -d; if (d <= 1.96 * sqrt(SE[i] ^ 2 + SE[b] ^ 2)) m = \"tied\" } " . \
	"print R[i], LO[i], HI[i], m } }' %s %s | sort -g", q(o), (ci eq "") ? 1 : 2, join, q(data))
# the noise: the median half-width of the intervals, in %
noisepct = (ci eq "") ? -1 : real(system("awk -F'\t' 'NR > 1 && $5 ~ /^[0-9.]+$/ { print $5 }' " . q(ci) . " | sort -g | awk '{ v[NR] = $1 } END { print NR ? (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) : -1 }'"))
nci = (ci eq "") ? 0 : int(system("awk -F'\t' 'NR > 1 && $5 ~ /^[0-9.]+$/' " . q(ci) . " | wc -l"))
colors = "#0077BB #EE7733 #009988 #CC3311"
xl = rmin / 1.3
xh = rmax * 1.3
set logscale x
set xrange [xh:xl]	# reversed: the cache shrinks to the right
set xtics () nomirror
do for [r in "2 1 0.5 0.2 0.1"] { set xtics add (sprintf("%s", r) real(r)) }
set grid ytics
set datafile separator "\t"
set datafile missing "-"
# the regimes, as backgrounds (first x, the panels' x range is the same)
set object 1 rect from xh, graph 0 to 0.75, graph 1 behind fc rgb "#DDF2EF" fs solid noborder
set object 2 rect from 0.75, graph 0 to 0.3, graph 1 behind fc rgb "#FCEBDD" fs solid noborder
set object 3 rect from 0.3, graph 0 to xl, graph 1 behind fc rgb "#F6DEDA" fs solid noborder
noisetitle = (ci eq "") ? "" : (noisepct < 0) ? "noise unknown (no intervals)" : \
	sprintf("noise +-%.1f%% (median 95%% half-width of %d points; bars: 95%% intervals; rings: within noise of the operation's best)", noisepct, nci)
# the target on a line of its own, then the settings and times: each fits
about2 = rb_join(rb_target, "\n", rb_join(rb_about, ", ", rb_duration))
set multiplot title rb_join(rb_join("Working set against cache: random reads, writes and a 50/50 mix of 100-400 B values through the page cache, --cache = region x ratio", "\n", about2), "\n", noisetitle) noenhanced
# the panels' edges in screen coordinates: the same left and right, so
# ratios and bands line up whatever the tick labels' widths
set lmargin at screen 0.09
set rmargin at screen 0.97
set tmargin at screen 0.86
set bmargin at screen 0.53
set label 1 "normal" at graph 0.02, graph 0.95 left front
set label 2 "stressed" at 0.5, graph 0.95 center front
set label 3 "totally stressed" at 0.15, graph 0.95 center front
set logscale y
# one style for ops/s: 1k, 10k, 100k, 1M (the same prefixes as the other plots)
set format y "%.0s%c"
set ylabel "ops/s (log)"
set key bottom left opaque noenhanced
if (ci eq "") {
	plot for [i = 1:nops] rows(word(ops, i)) using 1:4 with linespoints lw 2 pt 7 \
		lc rgb word(colors, (i - 1) % 4 + 1) title word(ops, i)
} else {
	plot for [i = 1:nops] rows(word(ops, i)) using 1:4 with lines lw 2 \
		lc rgb word(colors, (i - 1) % 4 + 1) notitle, \
	     for [i = 1:nops] rows(word(ops, i)) using 1:4:8:9 with yerrorbars lw 1.5 pt 7 \
		lc rgb word(colors, (i - 1) % 4 + 1) title word(ops, i), \
	     for [i = 1:nops] rows(word(ops, i)) using 1:(strcol(10) eq "tied" ? $4 : NaN) with points pt 6 ps 2.2 lw 1.5 \
		lc rgb word(colors, (i - 1) % 4 + 1) notitle
}
unset label 1
unset label 2
unset label 3
unset logscale y
set format y "%g"
set tmargin at screen 0.47
set bmargin at screen 0.08
set yrange [0:*]
set ylabel "device reads per request"
set key top left opaque noenhanced
set xlabel "cache / region (the cache shrinks to the right)"
plot for [i = 1:nops] rows(word(ops, i)) using 1:6 with linespoints lw 2 pt 7 \
	lc rgb word(colors, (i - 1) % 4 + 1) title word(ops, i)
unset multiplot
