# advise-btree.gp - rebench --advise btree on one figure: queries/s per
# node size (left axis, with its 95% interval when the IOPS had one) and
# the IOPS it came from (right axis), the best node size ringed and
# labelled; the title gives the model and the choice in a line.
#
#   rebench --advise btree --rows 1000000000 --key-size 32 --output advice.tsv --plot advice.png /dev/sdb
#   gnuplot -c plots/advise-btree.gp ADVICE.tsv OUT.png|.svg|.pdf|.jpg
#
# Input: the --output table of --advise btree: comment lines ("# rebench
# --advise btree: MODEL", "# headline: ...", "# advice: ...", "# target:
# ...", "# made: ..."), a header line, then a row per node size, tab-separated:
# node_size (bytes) in column 1, iops 10, iops_low 11, iops_high 12,
# queries_per_s 13, queries_per_s_low 14, queries_per_s_high 15, mark 17
# ("best", "runner-up", "tied", "-", "unusable", "in-cache"); "-" where a
# figure is unknown.  Output: by the extension (terminal.gpi), 1000x600.
me = "advise-btree.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c advise-btree.gp ADVICE.tsv OUT.png|.svg|.pdf|.jpg"
	exit status 1
}
data = ARG1
out = ARG2
q(s) = "'" . s . "'"
gpdir = system("dirname " . q(ARG0))
hdr = system("grep -v '^#' " . q(data) . " 2>/dev/null | head -n 1 | cut -f 1,13,17")
if (hdr ne "node_size\tqueries_per_s\tmark") {
	print sprintf("advise-btree.gp: %s is not the --output table of rebench --advise btree (its header starts node_size, ... queries_per_s in column 13)", data)
	exit status 1
}
meta_file = data
load gpdir . "/about.gpi"
# the model line (its key has spaces, which about.gpi's rb_meta keys
# cannot), its "32-byte entries" in the axes' size style: 32 B
model = system("sed -n 's/^#[ \t]*rebench --advise btree:[ \t]*//p' " . q(data) . " | sed 's/\\([0-9]\\)-byte /\\1 B /g' | head -n 1")
# the choice in a line (it may hold quotes: read from the file)
first = system("sed -n 's/^#[ \t]*headline:[ \t]*//p' " . q(data) . " | head -n 1")
# the best row, and whether any row has an interval
best = system("awk -F'\t' '!/^#/ && $17 == \"best\" { print $1, $13, $10 }' " . q(data))
ivals = int(system("awk -F'\t' '!/^#/ && NR > 1 && $14 != \"-\" && $14 != \"queries_per_s_low\" { n++ } END { print n + 0 }' " . q(data)))
W = 1000
H = 600
load gpdir . "/terminal.gpi"
set datafile separator "\t"
set datafile missing "-"
set key top right noenhanced box opaque
set style textbox opaque noborder margins 2, 2
set grid ytics lc rgb "#dddddd"
set logscale x 2
set xlabel "node size (block size)"
set ylabel "queries/s (point queries, the model)"
set y2label "IOPS (measured)"
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
set format y "%.0f"
set format y2 "%.0f"
set offsets graph 0.05, graph 0.05, graph 0.12, 0
title1 = "B-tree node size: queries/s = IOPS / node reads per query"
set title rb_join(rb_join(title1, "\n", model), "\n", rb_join(first, "\n", subtitle)) noenhanced
if (best ne "") {
	bx = real(word(best, 1))
	by = real(word(best, 2))
	set label 1 sprintf("best: %s, %s queries/s", iec(bx), cellfmt(by)) at bx, by offset 0, 1.8 center noenhanced font ",10" boxed front
}
# x tics at the measured sizes, as 512 B, 1 KiB .. 64 KiB (about.gpi's iec())
set xtics () nomirror
sizes = system("awk -F'\t' '!/^#/ && $1 ~ /^[0-9]+$/ { printf \"%s \", $1 }' " . q(data))
do for [w in sizes] {
	set xtics add (iec(int(w)) int(w))
}
if (ivals > 0) {
	plot data using 1:13:14:15 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb "#1f77b4" title "queries/s, 95% interval", \
	     data using 1:10:11:12 axes x1y2 with yerrorlines pt 6 ps 1 lw 1.5 dt 2 lc rgb "#888888" title "IOPS, 95% interval", \
	     data using 1:(stringcolumn(17) eq "best" ? $13 : NaN) with points pt 6 ps 3.5 lw 2.5 lc rgb "#d62728" title "best"
} else {
	plot data using 1:13 with linespoints pt 7 ps 1.2 lw 2 lc rgb "#1f77b4" title "queries/s", \
	     data using 1:10 axes x1y2 with linespoints pt 6 ps 1 lw 1.5 dt 2 lc rgb "#888888" title "IOPS", \
	     data using 1:(stringcolumn(17) eq "best" ? $13 : NaN) with points pt 6 ps 3.5 lw 2.5 lc rgb "#d62728" title "best"
}
