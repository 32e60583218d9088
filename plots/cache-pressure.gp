# cache-pressure.gp - working set against cache (BangDB's study): ops/s
# (top, log) and device reads per request (bottom) against the cache
# limit over the region, one line per operation, the cache shrinking to
# the right, with BangDB's three regimes shaded: normal (the cache holds
# the region: ratio >= 1), stressed (about half) and totally stressed (a
# fifth to a tenth).
#
#   gnuplot -c plots/cache-pressure.gp cache-pressure.tsv OUT.png|.svg|.pdf|.jpg
#
# Input: the table workloads/cache-pressure.sh writes (TSV with a header:
# ratio, operation, cache_bytes, ops_per_s, lat_p99_us,
# device_reads_per_request, durability).  The title says what is drawn,
# above what produced it (about.gpi: rb_target, rb_duration).  Output: by
# the extension (terminal.gpi), 1000x800.
me = "cache-pressure.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c cache-pressure.gp TABLE OUT.png|.svg|.pdf|.jpg"
	exit status 1
}
data = ARG1
out = ARG2
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

# one operation's rows, in ratio order
rows(o) = sprintf("< awk -F'\\t' -v o=%s 'NR > 1 && $2 == o' %s | sort -g", q(o), q(data))
colors = "#0077BB #EE7733 #009988 #CC3311"
xl = rmin / 1.3
xh = rmax * 1.3
set logscale x
set xrange [xh:xl]	# reversed: the cache shrinks to the right
set xtics () nomirror
do for [r in "2 1 0.5 0.2 0.1"] { set xtics add (sprintf("%s", r) real(r)) }
set grid ytics
set key bottom left opaque
# the regimes, as backgrounds
set object 1 rect from xh, graph 0 to 0.75, graph 1 behind fc rgb "#DDF2EF" fs solid noborder
set object 2 rect from 0.75, graph 0 to 0.3, graph 1 behind fc rgb "#FCEBDD" fs solid noborder
set object 3 rect from 0.3, graph 0 to xl, graph 1 behind fc rgb "#F6DEDA" fs solid noborder
set label 1 "normal" at graph 0.02, graph 0.95 left front
set label 2 "stressed" at 0.5, graph 0.95 center front
set label 3 "totally stressed" at 0.15, graph 0.95 center front
set multiplot layout 2,1 title sprintf("Working set against cache: 100-400 byte values through the page cache (--cache = region x ratio)%s", \
	subtitle eq "" ? "" : "\n{/*0.8 " . subtitle . "}")
set logscale y
set ylabel "ops/s"
plot for [i = 1:nops] rows(word(ops, i)) using 1:4 with linespoints lw 2 pt 7 \
	lc rgb word(colors, (i - 1) % 4 + 1) title word(ops, i)
unset logscale y
unset label 1
unset label 2
unset label 3
set yrange [0:*]
set ylabel "device reads per request"
set key top left opaque
set xlabel "cache / region"
plot for [i = 1:nops] rows(word(ops, i)) using 1:6 with linespoints lw 2 pt 7 \
	lc rgb word(colors, (i - 1) % 4 + 1) title word(ops, i)
unset multiplot
