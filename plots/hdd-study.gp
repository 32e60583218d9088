# hdd-study.gp - a disk's mechanics, measured against what its model says
# (workloads/hdd-study.sh): (a) sequential against random 4 KiB reads,
# latency on a log axis; (c) sequential MiB/s at the start of the outer and
# the inner zone, over the model's bytes per revolution of each track by
# its place; (b) random 4 KiB reads' latency against the stroke (-e, % of
# the device), with the seek time per read the model counted.  Measured:
# points, the mean of the runs with its 95% interval (the stream's mean
# time between completions in (c)); expected from the model's keys: lines
# and dashes.  A table without expected values (a disk that is not a
# model) is drawn without them.
#
#   gnuplot -c plots/hdd-study.gp PREFIX OUT.png|.svg|.pdf|.jpg
#
# Input: the tables hdd-study.sh writes, PREFIX-seqrnd.tsv,
# PREFIX-stroke.tsv, PREFIX-zones.tsv, PREFIX-stroke-model.tsv and
# PREFIX-zone-model.tsv (TSV with a header; "-" where a value is not
# known; the columns are in hdd-study.sh).  The title says what is drawn,
# above what produced it (about.gpi: rb_target, rb_about, rb_duration,
# rb_made).  Output: by the extension (terminal.gpi), 1200x900.
me = "hdd-study.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c hdd-study.gp PREFIX OUT.png|.svg|.pdf|.jpg"
	exit status 1
}
pre = ARG1
out = ARG2
gpdir = system("dirname '" . ARG0 . "'")
fa = pre . "-seqrnd.tsv"
fb = pre . "-stroke.tsv"
fc = pre . "-zones.tsv"
fbm = pre . "-stroke-model.tsv"
fcm = pre . "-zone-model.tsv"
# One awk (scan.gpi) checks the five tables and reads what the labels
# need: err, the first refusal; a_*, c_* (the rows of (a) and (c): avg,
# p50, expected, MiB/s ...), nb (strokes measured), nbm and ncm (rows of
# the model's curves), smin and smax (the strokes' range), ymax (the
# largest latency of (b), ms), cmax (the largest MiB/s of (c)).
$SCAN << EOD
function need(id, f, cols,    h) {
	slurp(id, f)
	h = FL[id, 1]; gsub(/\r/, "", h); gsub(/\t/, " ", h)
	if (index(h " ", cols " ") != 1) fail(f " is not an hdd-study.sh table (its header: " h "; expected: " cols " ...)")
}
function num(v) { return v == "-" || v == "" ? "NaN" : v + 0 }
BEGIN {
	split("seqrnd stroke zones stroke-model zone-model", K, " ")
	for (i = 1; i <= 5; i++) P[i] = ARGV[1] "-" K[i] ".tsv"
	readable(P, 5, R)
	for (i = 1; i <= 5; i++) if (!R[i]) fail("cannot read " P[i] " (hdd-study.sh writes it)")
	need("a", P[1], "pattern block_bytes reads lat_avg_us lat_avg_ci_low_us lat_avg_ci_high_us lat_p50_us lat_p50_ci_low_us lat_p50_ci_high_us expected_avg_us expected_p50_us")
	need("b", P[2], "stroke_pct region_bytes reads lat_avg_us lat_avg_ci_low_us lat_avg_ci_high_us lat_p50_us lat_p50_ci_low_us lat_p50_ci_high_us expected_avg_us expected_p50_us")
	need("c", P[3], "zone zone_pct offset_bytes position_pct bytes block_bytes mib_s mib_s_ci_low mib_s_ci_high run_mib_s expected_mib_s")
	need("bm", P[4], "stroke_pct slots expected_avg_us expected_p50_us expected_seek_us")
	need("cm", P[5], "position_pct track track_bytes mib_s")
	FS = "\t"
	for (j = 2; j <= FN["a"]; j++) {
		$0 = FL["a", j]
		if ($1 != "seq" && $1 != "rnd") continue
		A[$1] = 1
		print "a_" $1 "_avg = " num($4); print "a_" $1 "_p50 = " num($7)
		print "a_" $1 "_eavg = " num($10); print "a_" $1 "_ep50 = " num($11)
		print "a_" $1 "_reads = " num($3)
	}
	if (!A["seq"] || !A["rnd"]) fail(P[1] " needs a seq and a rnd row")
	nb = 0; smin = 0; smax = 0; ymax = 0
	for (j = 2; j <= FN["b"]; j++) {
		$0 = FL["b", j]
		if (NF < 11) continue
		nb++
		if (!smin || $1 < smin) smin = $1 + 0
		if ($1 > smax) smax = $1 + 0
		for (k = 4; k <= 11; k++) if ($k != "-" && $k / 1000 > ymax) ymax = $k / 1000
	}
	if (!nb) fail(P[2] " has a header but no rows")
	for (j = 2; j <= FN["bm"]; j++) {
		$0 = FL["bm", j]
		if (NF < 4) continue
		nbm++
		if ($1 < smin) smin = $1 + 0
		if ($3 / 1000 > ymax) ymax = $3 / 1000
	}
	for (j = 2; j <= FN["c"]; j++) {
		$0 = FL["c", j]
		if ($1 != "outer" && $1 != "inner") continue
		C[$1] = 1
		print "c_" $1 " = " num($7); print "c_" $1 "_e = " num($11)
		print "c_zone = " $2 + 0
		for (k = 7; k <= 11; k++) if ($k != "-" && $k > cmax) cmax = $k + 0
		c_block = $6
	}
	if (!C["outer"] || !C["inner"]) fail(P[3] " needs an outer and an inner row")
	for (j = 2; j <= FN["cm"]; j++) {
		$0 = FL["cm", j]
		if (NF < 4) continue
		ncm++
		if ($4 > cmax) cmax = $4 + 0
	}
	print "c_block = " c_block + 0
	print "nb = " nb; print "nbm = " nbm + 0; print "ncm = " ncm + 0
	print "smin = " smin; print "smax = " smax; print "ymax = " ymax; print "cmax = " cmax
}
EOD
array SCAN_ARGS = [pre]
load gpdir . "/scan.gpi"
meta_file = ""
load gpdir . "/about.gpi"

W = 1200
H = 900
load gpdir . "/terminal.gpi"
set datafile separator "\t"
set datafile missing "-"

# what the labels say: 12.4 ms, 130 us, 2.0x
ms(u) = (u != u) ? "-" : (u >= 1000 ? sprintf("%.2f ms", u / 1000.0) : sprintf("%.0f us", u))
xr(a, b) = (a != a || b != b || b == 0) ? "-" : sprintf(a / b < 10 ? "%.2fx" : "%.0fx", a / b)
mibs(v) = (v != v) ? "-" : sprintf("%.1f", v)
haveexp = (a_rnd_eavg == a_rnd_eavg)
# a measured value's interval, or the value when there is none
lo(c, v) = (strcol(c) eq "-" || strcol(c) eq "") ? v : column(c)

cm = "#0077BB"	# measured mean
cp = "#EE7733"	# measured median
ce = "#333333"	# expected
cs = "#009988"	# seek
set errorbars 1.5
# the subtitle in two lines: the target, then the settings and durations
sub2 = rb_join(rb_target, "\n", rb_join(rb_about, ", ", rb_duration))
set multiplot title sprintf("%s: 4 KiB random against sequential reads, latency against stroke (-e), sequential MiB/s by zone\nmeasured by rebench (points, 95%% intervals)%s%s", \
	haveexp ? "Model disk" : "Disk", haveexp ? " against what the model's keys say (lines, dashes)" : "", \
	sub2 eq "" ? "" : "\n" . sub2) noenhanced

# (a) top left: sequential and random on a log latency axis
set origin 0, 0.47
set size 0.42, 0.43
set title sprintf("(a) 4 KiB reads: random / sequential (average) %s, expected %s", xr(a_rnd_avg, a_seq_avg), xr(a_rnd_eavg, a_seq_eavg)) noenhanced
set logscale y
set xrange [0.4:2.6]
set xtics ("sequential" 1, "random" 2) nomirror
set ytics nomirror
set grid ytics
set ylabel "latency (ms)"
set key top left opaque box
set label 1 sprintf("avg %s, p50 %s%s", ms(a_seq_avg), ms(a_seq_p50), haveexp ? sprintf("\nexp. %s, %s", ms(a_seq_eavg), ms(a_seq_ep50)) : "") at 1.22, a_seq_avg / 1000.0 * 0.6 left font ",9" front
set label 2 sprintf("avg %s, p50 %s%s", ms(a_rnd_avg), ms(a_rnd_p50), haveexp ? sprintf("\nexp. %s, %s", ms(a_rnd_eavg), ms(a_rnd_ep50)) : "") at 1.6, a_rnd_avg / 1000.0 / 2.2 center font ",9" front
set yrange [(a_seq_p50 < a_seq_ep50 || a_seq_ep50 != a_seq_ep50 ? a_seq_p50 : a_seq_ep50) / 1000.0 / 3 : a_rnd_avg / 1000.0 * 3]
# the expected dashes only where the table has them (no warnings about
# columns of "-")
xa(c) = sprintf("fa skip 1 using ((strcol(1) eq \"rnd\" ? 2 : 1) - 0.2):($%d / 1000):(0.4):(0) with vectors nohead lw 2 %s lc rgb ce title \"expected %s\"", \
	c, c == 10 ? "" : "dt 2", c == 10 ? "avg" : "p50")
eval("plot fa skip 1 using ((strcol(1) eq \"rnd\" ? 2 : 1) - 0.08):($4 / 1000):(lo(5, $4) / 1000):(lo(6, $4) / 1000) " . \
	"with yerrorbars pt 7 ps 1.3 lc rgb cm title \"average\", " . \
	"fa skip 1 using ((strcol(1) eq \"rnd\" ? 2 : 1) + 0.08):($7 / 1000):(lo(8, $7) / 1000):(lo(9, $7) / 1000) " . \
	"with yerrorbars pt 6 ps 1.3 lw 1.5 lc rgb cp title \"p50\"" . \
	(haveexp ? ", " . xa(10) . ", " . xa(11) : ""))
unset label 1
unset label 2
unset logscale y

# (c) top right: MiB/s against the place in the device
set origin 0.42, 0.47
set size 0.58, 0.43
set title sprintf("(c) sequential %d KiB reads over the first and last %g%%: outer / inner %s, expected %s", \
	c_block / 1024, c_zone, xr(c_outer, c_inner), xr(c_outer_e, c_inner_e)) noenhanced
set xrange [0:100]
set xtics 10 nomirror
set yrange [0:cmax * 1.25]
set ylabel "MiB/s"
set xlabel "place in the device (% of its bytes from the first)"
set key bottom left opaque box
set object 1 rect from 0, graph 0 to c_zone, graph 1 behind fc rgb "#E8F1F8" fs solid noborder
set object 2 rect from 100 - c_zone, graph 0 to 100, graph 1 behind fc rgb "#E8F1F8" fs solid noborder
set label 3 sprintf("outer: %s MiB/s%s", mibs(c_outer), haveexp ? "\nexpected " . mibs(c_outer_e) : "") at c_zone + 1.5, c_outer * 1.1 left font ",9" front
set label 4 sprintf("inner: %s MiB/s%s", mibs(c_inner), haveexp ? "\nexpected " . mibs(c_inner_e) : "") at 100 - c_zone - 1.5, (c_inner * 0.78 > cmax * 0.12 ? c_inner * 0.78 : c_inner + cmax * 0.12) right font ",9" front
eval("plot " . (ncm > 0 ? "fcm skip 1 using 1:4 with lines lw 2 lc rgb \"#AAAAAA\" title \"a track's bytes per revolution (model)\", " : "") . \
	(haveexp ? "fc skip 1 using ($4 - 0.8):11:(1.6):(0) with vectors nohead lw 2 lc rgb ce title \"expected stream\", " : "") . \
	"fc skip 1 using 4:7:(lo(8, $7)):(lo(9, $7)) with yerrorbars pt 7 ps 1.3 lc rgb cm title \"measured stream (2nd read to last)\", " . \
	"fc skip 1 using ($4 + 1.2):10 with points pt 8 ps 1.1 lc rgb cp title \"rebench MiB/s (with the first read's seek)\"")
unset object 1
unset object 2
unset label 3
unset label 4

# (b) bottom: latency against stroke
set origin 0, 0
set size 1, 0.47
set title "(b) random 4 KiB reads over the first STROKE % of the device (-e): latency" . \
	(haveexp ? ", and the seek time the model counted per read from the platter" : "") noenhanced
set logscale x
set xrange [smin / 1.3 : smax * 1.3]
set xtics () nomirror
do for [s in "0.1 0.2 0.5 1 2 5 10 25 50 100"] { if (real(s) >= smin / 1.3 && real(s) <= smax * 1.3) { set xtics add (s . "%%" real(s)) } }
set yrange [0:ymax * 1.15]
set ylabel "latency (ms)"
set xlabel "stroke (-e, % of the device)"
set key top left opaque box maxrows 3
eval("plot " . (nbm > 0 ? "fbm skip 1 using 1:($3 / 1000) with lines lw 2 lc rgb ce title \"expected average\", " . \
	"fbm skip 1 using 1:($4 / 1000) with lines lw 2 dt 2 lc rgb ce title \"expected p50\", " . \
	"fbm skip 1 using 1:($5 / 1000) with lines lw 1.5 lc rgb cs title \"expected seek\", " : "") . \
	(haveexp ? "fb skip 1 using 1:($18 / 1000) with points pt 2 ps 1.2 lw 1.5 lc rgb cs title \"seek per media read (model's counters)\", " : "") . \
	"fb skip 1 using ($1 / 1.04):($4 / 1000):(lo(5, $4) / 1000):(lo(6, $4) / 1000) with yerrorbars pt 7 ps 1.3 lc rgb cm title \"measured average\", " . \
	"fb skip 1 using ($1 * 1.04):($7 / 1000):(lo(8, $7) / 1000):(lo(9, $7) / 1000) with yerrorbars pt 6 ps 1.3 lw 1.5 lc rgb cp title \"measured p50\"")
unset multiplot
