# distribution.gp - the offset distribution a random workload asked for
# against the one it achieved, over 100 equal slices of its region.
#
#   rebench --json -u zipf:1.2 -b 4k -d 10 /dev/sdb > run.json
#   gnuplot -c plots/distribution.gp run.json dist.png [WORKLOAD]
#   gnuplot -c plots/distribution.gp RUN.json OUT.png|.svg|.pdf|.jpg [WORKLOAD]
#
# Input: rebench --json output (results.distribution of workload WORKLOAD,
# default 1); jq extracts the slices.  With --scatter the fit is made before
# the scatter (fit_space "rank"): the bars show that, and the dots show
# where the I/Os landed in the region.  Under the title: the workload's
# target, settings and duration, and the rebench that measured it, from the
# same document (about.gpi).  Output: chosen by the output file's extension
# (terminal.gpi), 1000x600.
me = "distribution.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c distribution.gp RUN.json OUT.png|.svg|.pdf|.jpg [WORKLOAD]"
	exit status 1
}
json = ARG1
out = ARG2
w = (ARGC >= 3) ? ARG3 : "1"
q(s) = "'" . s . "'"
gpdir = system("dirname " . q(ARG0))
W = 1000
H = 600
load gpdir . "/terminal.gpi"
sel = sprintf(".workloads[%s - 1].results.distribution", w)
if (system(sprintf("jq -e '%s != null' '%s' >/dev/null 2>&1 && echo yes", sel, json)) ne "yes") {
	print sprintf("distribution.gp: workload %s of %s has no offset distribution (a sequential workload, or no I/O)", w, json)
	exit status 1
}
cmd = sprintf("< jq -r '%s as $d | range(0; $d.slices) | [., $d.intended[.], ($d.achieved_rank // $d.achieved)[.], $d.achieved[.]] | @tsv' '%s'", sel, json)
name = system(sprintf("jq -r '%s | \"\\(.name): \\(.ios) I/Os, chi-square \\(.chi2 * 10 | round / 10) on \\(.dof) dof, p \\(if .p_value then (.p_value * 1000 | round / 1000) else \"n/a\" end), KS D \\(.ks_d * 10000 | round / 10000)\"' '%s'", sel, json))
space = system(sprintf("jq -r '%s.fit_space' '%s'", sel, json))
# what produced it, as rebench --plot would say it (about.gpi)
wsel = sprintf(".workloads[%s - 1]", w)
rb_target = system(sprintf("jq -r '%s.target | .path + (if .model then \" (\" + .model + \")\" else \"\" end)' '%s'", wsel, json))
rb_about = system(sprintf("jq -r '%s.parameters | [.operation, \"rnd \" + .dist + (if .dist_param then \":\" + .dist_param else \"\" end), (.block_size | if . >= 1048576 and . %% 1048576 == 0 then \"\\(. / 1048576) MiB\" elif . >= 1024 and . %% 1024 == 0 then \"\\(. / 1024) KiB\" else \"\\(.) B\" end) + \" I/Os\", .engine, \"QD \\(.queue_depth)\"] | join(\", \")' '%s'", wsel, json))
rb_duration = system(sprintf("jq -r '%s.parameters.duration' '%s'", wsel, json))
rb_made = system(sprintf("jq -r '\"rebench \" + .version' '%s'", json))
meta_file = ""
load gpdir . "/about.gpi"
set datafile separator "\t"
set title rb_join(name, "\n", subtitle) noenhanced
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
