# latency.gp - the latency distribution of every I/O from a per-I/O log:
# a histogram over log-spaced bins (20 per decade) above the empirical CDF
# with guides at p50, p90 and p99, on a shared log latency axis.
#
#   rebench -d 10 -g 0 --output ios.tsv /dev/sdb
#   gnuplot -c plots/latency.gp IOLOG OUT.png|.svg|.pdf|.jpg [WORKLOAD]
#
# Input: the per-I/O log of rebench -g 0 --output (TSV with a header row:
# workload, time_s, thread, op, offset, size, latency_us); columns are found
# by name.  With WORKLOAD only that workload's I/Os are drawn (and its
# percentiles printed on the CDF); without it each workload in the log gets
# its own histogram and curve.  The title gives the I/O count, above what
# produced the log when gnuplot -e gives it (about.gpi's rb_ variables).
# Output: chosen by the output file's extension (terminal.gpi), 1000x700.
me = "latency.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c latency.gp IOLOG OUT.png|.svg|.pdf|.jpg [WORKLOAD]"
	exit status 1
}
data = ARG1
out = ARG2
wsel = (ARGC >= 3) ? ARG3 : ""
q(s) = "'" . s . "'"
gpdir = system("dirname " . q(ARG0))
meta_file = ""
load gpdir . "/about.gpi"
if (system("test -f " . q(data) . " && test -r " . q(data) . " && echo yes") ne "yes") {
	print sprintf("latency.gp: cannot read %s", data)
	exit status 1
}
if (wsel ne "" && system("echo " . q(wsel) . " | grep -Eqx '[1-9][0-9]*' && echo yes") ne "yes") {
	print sprintf("latency.gp: WORKLOAD is a workload number (1, 2, ...), not \"%s\"", wsel)
	exit status 1
}
header = system("head -n 1 " . q(data) . " | tr -d '\r' | tr '\t' ' '")
ncols = words(header)
colidx(n) = sum [i = 1:ncols] (word(header, i) eq n ? i : 0)
li = colidx("latency_us")
wi = colidx("workload")
oi = colidx("op")
if (li == 0 || (wsel ne "" && wi == 0)) {
	print sprintf("latency.gp: %s has no column %s; its columns are: %s (a per-I/O log from rebench -g 0 --output is needed)", \
		data, li == 0 ? "latency_us" : "workload", header)
	exit status 1
}
awkcols = sprintf("-v l=%d -v wc=%d -v oc=%d", li, wi, oi)
# Workloads to draw, and each one's I/O count.
wls = system(sprintf("awk -F '\t' %s 'NR > 1 && NF && $l > 0 { k = wc ? $wc : 1; if (!(k in n)) o[++m] = k; n[k]++ } END { for (i = 1; i <= m; i++) print o[i] }' %s | sort -n", awkcols, q(data)))
if (wsel ne "") {
	if (system(sprintf("echo '%s' | grep -qx '%s' && echo yes", wls, wsel)) ne "yes") {
		print sprintf("latency.gp: %s has no I/Os of workload %s (workloads: %s)", data, wsel, wls eq "" ? "none" : system("echo '" . wls . "' | tr '\\n' ' '"))
		exit status 1
	}
	wls = wsel
}
nw = words(wls)
if (nw == 0) {
	print sprintf("latency.gp: %s has no I/Os with a latency", data)
	exit status 1
}
wl(i) = word(wls, i)
rows(i) = sprintf("< awk -F '\t' %s -v w=%s 'NR > 1 && NF && $l > 0 && (!wc || $wc == w) { print $l }' %s", awkcols, wl(i), q(data))
# Per workload: count, min, max and the p50, p90, p99, p99.9 (nearest rank).
pct(i) = system(sprintf("awk -F '\t' %s -v w=%s 'NR > 1 && NF && $l > 0 && (!wc || $wc == w) { print $l }' %s | sort -g | " . \
	"awk '{ a[NR] = $1 } END { printf \"%%d %%s %%s\", NR, a[1], a[NR]; n = split(\"0.5 0.9 0.99 0.999\", p, \" \"); " . \
	"for (i = 1; i <= n; i++) { r = int(p[i] * NR); if (r < p[i] * NR) r++; printf \" %%s\", a[r] } print \"\" }'", awkcols, wl(i), q(data)))
array ST[nw]
do for [i = 1:nw] { ST[i] = pct(i) }
count(i) = int(word(ST[i], 1))
lmin(i) = real(word(ST[i], 2))
lmax(i) = real(word(ST[i], 3))
lp(i, k) = real(word(ST[i], 3 + k))
total = sum [i = 1:nw] count(i)
xlo = lmin(1)
xhi = lmax(1)
do for [i = 2:nw] { xlo = (lmin(i) < xlo) ? lmin(i) : xlo; xhi = (lmax(i) > xhi) ? lmax(i) : xhi }
ops = (oi > 0) ? system(sprintf("awk -F '\t' %s %s 'NR > 1 && NF && $l > 0 %s { n[$oc]++ } END { for (k in n) printf \"%%s%%d %%s\", s++ ? \", \" : \"\", n[k], k \"s\" }' %s", \
	awkcols, wsel ne "" ? "-v w=" . wsel : "", wsel ne "" ? "&& $wc == w" : "", q(data))) : ""

# Latency in us as "10 us", "1 ms", "2 s".
tlabel(v) = (v >= 1e6) ? sprintf("%.3g s", v / 1e6) : (v >= 1e3) ? sprintf("%.3g ms", v / 1e3) : sprintf("%.3g us", v)
binw = 0.05
bin(x) = floor(log10(x) / binw) * binw

W = 1000
H = 700
load gpdir . "/terminal.gpi"

# Histograms first, into tables (counts per bin, bin = log10 of its left edge).
do for [i = 1:nw] {
	eval(sprintf("set table $H%d", i))
	plot rows(i) using (bin($1)):(1) smooth freq with lines
	unset table
}

# The shared latency axis: whole bins, ticks at 1-2-5 (or decades).
set logscale x 10
xlo = 10 ** bin(xlo)
xhi = 10 ** (bin(xhi) + binw)
set xrange [xlo:xhi]
lo = floor(log10(xlo))
hi = ceil(log10(xhi))
set xtics ()
do for [e = lo:hi] {
	do for [m in "1 2 5"] {
		v = real(m) * 10.0 ** e
		if (m eq "1" || hi - lo <= 4) {
			set xtics add (tlabel(v) v)
		}
	}
}
set mxtics 10

array C[8] = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#555555", "#ee8866"]
wtitle(i) = (nw > 1) ? sprintf("%s (%d I/Os)", wlname(int(wl(i))), count(i)) : ""
# the log's name without its directory (rebench --plot may have written
# it into a temporary one)
base = system("basename -- " . q(data))
title = sprintf("latency of %d I/Os%s%s: %s", total, \
	wsel ne "" ? " of workload " . wsel : (nw > 1 ? sprintf(" in %d workloads", nw) : ""), \
	ops ne "" ? " (" . ops . ")" : "", base)

set multiplot layout 2,1 title rb_join(title, "\n", subtitle) noenhanced
set lmargin 11
set rmargin 4
set grid xtics ytics mxtics lt 1 lw 1 lc rgb "#dddddd", lt 1 lw 1 lc rgb "#f2f2f2"
set border 3
set tics nomirror
set key top right noenhanced

# Histogram
set title "histogram (20 bins per decade)"
set ylabel "I/Os per bin"
set xlabel ""
set yrange [0:*]
set style fill transparent solid (nw > 1 ? 0.35 : 0.7) border lc rgb "#ffffff"
plot for [i = 1:nw] sprintf("$H%d", i) using (10 ** ($1 + binw / 2)):2:(10 ** $1):(10 ** ($1 + binw)):(0):2 \
	with boxxyerror lc rgb C[(i - 1) % 8 + 1] title wtitle(i)

# CDF
set title "cumulative distribution"
set ylabel "fraction of I/Os at or below"
set xlabel "latency"
set yrange [0:1.02]
set ytics 0.1
set format y "%.1f"
unset arrow
unset label
# guides, named at the left edge (where the CDF is still low), with the
# value of a single workload's percentile
do for [k = 1:3] {
	f = real(word("0.5 0.9 0.99", k))
	set arrow from graph 0, first f to graph 1, first f nohead dt 2 lc rgb "#888888"
	set label sprintf("p%g%s", f * 100, nw == 1 ? " = " . tlabel(lp(1, k)) : "") at graph 0.005, first f offset 0, 0.6 tc rgb "#444444" font ",9"
}
if (nw == 1) {
	do for [k = 1:3] {
		set object circle at lp(1, k), first real(word("0.5 0.9 0.99", k)) size screen 0.004 fc rgb "#222222" fs solid front
	}
	set key bottom right
	plot rows(1) using 1:(1.0) smooth cnormal with lines lw 2 lc rgb C[1] \
		title sprintf("p50 %s, p90 %s, p99 %s, p99.9 %s, max %s", tlabel(lp(1, 1)), tlabel(lp(1, 2)), tlabel(lp(1, 3)), tlabel(lp(1, 4)), tlabel(lmax(1)))
} else {
	set key bottom right
	plot for [i = 1:nw] rows(i) using 1:(1.0) smooth cnormal with lines lw 2 lc rgb C[(i - 1) % 8 + 1] \
		title sprintf("%s: p50 %s, p99 %s", wlname(int(wl(i))), tlabel(lp(i, 1)), tlabel(lp(i, 3)))
}
unset multiplot
