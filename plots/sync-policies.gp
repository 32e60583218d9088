# sync-policies.gp - what durability costs: writes/s (top) and p99 write
# latency (bottom) per --sync policy, one bar per block size, each policy
# labelled with its durability verdict so a durable bar is never read
# beside one that is not without it showing.
#
#   gnuplot -c plots/sync-policies.gp sync-policies.tsv OUT.png|.svg|.pdf|.jpg
#
# Dots: the p99 of the policy's separate flushes (fsync:N, fdatasync:N);
# dsync, sync and rwf-dsync flush inside each write, in its latency.
# Input: the table workloads/sync-policies.sh writes (TSV with a header:
# policy, block_size, durability, writes_per_s, write_p50_us, write_p99_us,
# flushes_per_s, flush_p99_us), policies in the order of the rows.  Bars of
# a not-durable policy are hatched; the y axes are logarithmic, since an
# unflushed write can be a hundred times faster than a flushed one.  The
# title says what is drawn, above what produced it (about.gpi: rb_target,
# rb_duration) and that the noise is unknown (one run a point).  Output:
# by the extension (terminal.gpi), 1000x800.
me = "sync-policies.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c sync-policies.gp TABLE OUT.png|.svg|.pdf|.jpg"
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
if (word(header, 1) ne "policy" || word(header, 2) ne "block_size" || word(header, 4) ne "writes_per_s") {
	print sprintf("%s: %s is not a sync-policies.sh table (its columns are: %s)", me, data, header)
	exit status 1
}
# the policies in row order, and the block sizes (at most 4 bars a group)
pols = system("awk -F'\t' 'NR > 1 && !seen[$1]++ { printf \"%s \", $1 }' " . q(data))
sizes = system("awk -F'\t' 'NR > 1 && !seen[$2]++ { printf \"%s \", $2 }' " . q(data))
np = words(pols)
ns = words(sizes)
if (np < 1 || ns < 1) {
	print sprintf("%s: %s has a header but no rows", me, data)
	exit status 1
}
verdict(p) = system(sprintf("awk -F'\t' -v p=%s 'NR > 1 && $1 == p { print $3; exit }' %s", q(p), q(data)))
human(b) = (b >= 1048576 && b % 1048576 == 0) ? sprintf("%d MiB", b / 1048576) : \
	(b >= 1024 && b % 1024 == 0) ? sprintf("%d KiB", b / 1024) : sprintf("%d B", b)
W = 1000; H = 800
load gpdir . "/terminal.gpi"

# x ticks: the policy over its verdict
set xtics () nomirror
do for [i = 1:np] {
	p = word(pols, i)
	set xtics add (sprintf("%s\n(%s)", p, verdict(p)) i - 1)
}
set xrange [-0.6:np - 0.4]
set logscale y
set grid ytics
set key top right
set style fill solid 0.85 border -1
bw = 0.8 / ns
colors = "#0077BB #EE7733 #009988 #CC3311"
# a row's bar: x = policy index shifted by the size, y = the column
rowx(pi, si) = pi - 0.4 + bw * (si - 0.5)
# one size's rows: policy index (in row order), writes/s, write p99,
# durable (1/0), flush p99 (NaN: the policy has no separate flush)
rows(b) = sprintf("< awk -F'\t' -v b=%s 'NR > 1 { if (!($1 in idx)) idx[$1] = n++ } NR > 1 && $2 == b { print idx[$1], $4, $6, ($3 == \"durable\"), ($8 == \"-\" ? \"NaN\" : $8) }' %s", b, q(data))
# the table has one run a point and no interval: the title says so
set multiplot layout 2,1 title sprintf("Random writes per --sync policy: writes/s, p99 latency of the write and of its flush (hatched: not durable)%s\n{/*0.8 noise unknown: one run a point, no interval}", \
	subtitle eq "" ? "" : "\n{/*0.8 " . subtitle . "}")
set bmargin 4
do for [panel = 1:2] {
	if (panel == 2) { set key top left; set offsets 0, 0, graph 0.2, 0 }
	set ylabel (panel == 1 ? "writes/s" : "p99 write latency (us)")
	plot for [s = 1:ns] rows(word(sizes, s)) using \
		(rowx($1, s)):(column(panel + 1)):(bw * 0.95) \
		with boxes lc rgb word(colors, (s - 1) % 4 + 1) fs solid 0.85 \
		title human(int(word(sizes, s))), \
		for [s = 1:ns] rows(word(sizes, s)) using \
		(rowx($1, s)):($4 > 0 ? NaN : column(panel + 1)):(bw * 0.95) \
		with boxes lc rgb "#ffffff" fs transparent pattern 4 border -1 notitle, \
		for [s = 1:ns] rows(word(sizes, s)) using \
		(rowx($1, s)):(panel == 2 ? $5 : NaN) with points pt 7 ps 1.3 \
		lc rgb "#000000" title (panel == 2 && s == 1 ? "p99 of the flush (fsync, fdatasync)" : "")
}
unset multiplot
