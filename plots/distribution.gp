# distribution.gp - the offset distribution a random workload asked for
# against the one it achieved, over 100 equal slices of its region.
#
#   rebench --json -u zipf:1.2 -b 4k -d 10 /dev/sdb > run.json
#   gnuplot -c plots/distribution.gp run.json dist.png [WORKLOAD]
#
# Input: rebench --json output (results.distribution of workload WORKLOAD,
# default 1); jq extracts the slices.  With --scatter the fit is made before
# the scatter (fit_space "rank"): the bars show that, and the dots show
# where the I/Os landed in the region.  Output: PNG or SVG by extension.
if (ARGC < 2) {
	print "usage: gnuplot -c distribution.gp RUN.json OUT.png|OUT.svg [WORKLOAD]"
	exit status 1
}
json = ARG1
out = ARG2
w = (ARGC >= 3) ? ARG3 : "1"
if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 1000,600 dynamic enhanced font "sans,11"
} else {
	set terminal pngcairo size 1000,600 enhanced font "sans,10"
}
set output out
sel = sprintf(".workloads[%s - 1].results.distribution", w)
if (system(sprintf("jq -e '%s != null' '%s' >/dev/null 2>&1 && echo yes", sel, json)) ne "yes") {
	print sprintf("distribution.gp: workload %s of %s has no offset distribution (a sequential workload, or no I/O)", w, json)
	exit status 1
}
cmd = sprintf("< jq -r '%s as $d | range(0; $d.slices) | [., $d.intended[.], ($d.achieved_rank // $d.achieved)[.], $d.achieved[.]] | @tsv' '%s'", sel, json)
name = system(sprintf("jq -r '%s | \"\\(.name): \\(.ios) I/Os, chi-square \\(.chi2 * 10 | round / 10) on \\(.dof) dof, p \\(if .p_value then (.p_value * 1000 | round / 1000) else \"n/a\" end), KS D \\(.ks_d * 10000 | round / 10000)\"' '%s'", sel, json))
space = system(sprintf("jq -r '%s.fit_space' '%s'", sel, json))
set datafile separator "\t"
set title name noenhanced
set xlabel (space eq "rank" ? "slice of the region before scatter (%)" : "slice of the region (%)")
set ylabel "share of I/Os (%)"
set xrange [-0.5:99.5]
set yrange [0:*]
set key top right
set grid ytics
set style fill solid 0.5 noborder
set boxwidth 0.8
if (space eq "rank") {
	plot cmd using 1:($3 * 100) with boxes lc rgb "#4477aa" title "achieved", \
	     cmd using 1:($2 * 100) with histeps lw 2 lc rgb "#cc3311" title "intended", \
	     cmd using 1:($4 * 100) with points pt 7 ps 0.4 lc rgb "#228833" title "achieved, by offset (after scatter)"
} else {
	plot cmd using 1:($3 * 100) with boxes lc rgb "#4477aa" title "achieved", \
	     cmd using 1:($2 * 100) with histeps lw 2 lc rgb "#cc3311" title "intended"
}
