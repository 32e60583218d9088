# write-cliff.gp - the write cliff of an SSD in the rounds of rebench
# --steady-state (workloads/write-cliff.sh): above, ops/s per round on a
# fresh drive and, when there, after --precondition, with the steady-state
# window shaded (its mean, and the band the 20% range criterion allows),
# the fresh speed, and the ops/s each round's write amplification implies
# (dashed); below, the write amplification per round (pages programmed
# per page written: 1 without garbage collection).
#
#   workloads/write-cliff.sh -o DIR          (draws DIR/write-cliff.png)
#   gnuplot -c plots/write-cliff.gp ROUNDS.tsv OUT.png|.svg|.pdf|.jpg
#
# Input: write-cliff-rounds.tsv, tab-separated with a header: run (fresh
# or precondition), round, ops_per_s, lat_p99_us, in_window (1: a round
# of the window rebench judged), writes, wa, busy_us_per_write,
# implied_ops_per_s.  Optional, with gnuplot -e: ss_fresh and ss_pre
# ("steady|not-steady FIRST LAST RANGE SLOPE": each run's verdict, window
# and criteria in % as rebench gave them), round_s (a round's seconds),
# fresh_ops (the fresh drive's measured ops/s), steady_wa, steady_ops and
# steady_implied (the exact write amplification of the writes after the
# fresh run's rounds, the ops/s rebench measured for them and the ops/s
# the amplification implies), and about.gpi's rb_target, rb_about,
# rb_duration, rb_made.  Output: by the extension (terminal.gpi),
# 1000x800.
me = "write-cliff.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c write-cliff.gp ROUNDS.tsv OUT.png|.svg|.pdf|.jpg"
	exit status 1
}
data = ARG1
out = ARG2
gpdir = system("dirname '" . ARG0 . "'")
meta_file = ""
load gpdir . "/about.gpi"
# One awk (scan.gpi) checks the table and gives: nf, np (the rounds of
# the fresh and the precondition run), last (the highest round), wmax (the
# highest write amplification), opsmax (the highest ops/s, implied
# included); per run (f: fresh, p: precondition) its window's first and
# last round (0 0: none), mean ops/s and write amplification (the window's
# pages programmed over its pages written).
$SCAN << EOD
BEGIN {
	data = ARGV[1]
	P[1] = data
	readable(P, 1, R)
	if (!R[1]) fail("cannot read " data)
	slurp("t", data)
	header = FL["t", 1]; gsub(/\r/, "", header); gsub(/\t/, " ", header)
	want = "run round ops_per_s lat_p99_us in_window writes wa busy_us_per_write implied_ops_per_s"
	if (header != want) fail(data " is not a write-cliff.sh rounds table (its columns must be: " want "; they are: " header ")")
	FS = "\t"
	for (j = 2; j <= FN["t"]; j++) {
		$0 = FL["t", j]
		if (!NF) continue
		if ($1 == "fresh") r = "f"
		else if ($1 == "precondition") r = "p"
		else fail(data ": row " j ": the run " $1 " is neither fresh nor precondition")
		n[r]++
		if ($5 == 1) { if (!w1[r]) w1[r] = $2; w2[r] = $2; wn[r]++; wops[r] += $3; ww[r] += $6; wp[r] += $6 * $7 }
		if ($2 > last) last = $2
		if ($7 > wmax) wmax = $7
		if ($3 > opsmax) opsmax = $3
		if ($9 > opsmax) opsmax = $9
	}
	if (!n["f"]) fail(data " has no rounds of the fresh run")
	print "nf = " n["f"] + 0; print "np = " n["p"] + 0; print "last = " last + 0
	print "wmax = " wmax + 0; print "opsmax = " opsmax + 0
	split("f p", K, " ")
	for (i = 1; i <= 2; i++) {
		r = K[i]
		print r "w1 = " w1[r] + 0; print r "w2 = " w2[r] + 0
		print r "mean = " (wn[r] ? wops[r] / wn[r] : 0); print r "wa = " (ww[r] ? wp[r] / ww[r] : 0)
	}
}
EOD
array SCAN_ARGS = [data]
load gpdir . "/scan.gpi"
if (!exists("ss_fresh")) { ss_fresh = "" }
if (!exists("ss_pre")) { ss_pre = "" }
if (!exists("round_s")) { round_s = "" }
if (!exists("fresh_ops")) { fresh_ops = NaN }
if (!exists("steady_wa")) { steady_wa = NaN }
if (!exists("steady_ops")) { steady_ops = NaN }
if (!exists("steady_implied")) { steady_implied = NaN }

W = 1000
H = 800
load gpdir . "/terminal.gpi"
set datafile separator "\t"

# a run's verdict as rebench gave it ("steady|not-steady FIRST LAST RANGE
# SLOPE"), in words
isteady(v) = (word(v, 1) eq "steady")
crit(v) = (words(v) >= 5) ? sprintf(" (range %.1f%%, slope %.1f%%)", real(word(v, 4)), real(word(v, 5))) : ""
judged(v, a, b, m, wa) = (b > 0) ? sprintf("%s at rounds %d-%d: %.0f ops/s%s, write amplification %.2f", \
	isteady(v) ? "steady state" : "NOT steady (last 5 rounds)", a, b, m, crit(v), wa) : "fewer than 5 rounds"
line1 = "Write cliff: ops/s per round of rebench --steady-state from a fresh drive, and the write amplification behind it"
line2 = (fresh_ops == fresh_ops ? sprintf("fresh drive: %.0f ops/s, then ", fresh_ops) : "fresh drive: ") . \
	judged(ss_fresh, fw1, fw2, fmean, fwa) . (fresh_ops == fresh_ops && fmean > 0 ? sprintf(": %.1fx slower", fresh_ops / fmean) : "")
line3 = (np > 0) ? "after --precondition: " . judged(ss_pre, pw1, pw2, pmean, pwa) : ""
set multiplot title rb_join(line1, "\n", rb_join(line2, "\n", rb_join(line3, "\n", subtitle))) noenhanced
set lmargin 11
set rmargin 3
set border 3
set tics nomirror
set grid ytics lc rgb "#dddddd"
set xrange [0.5:last + 0.5]
set xtics 1
if (last > 20) { set xtics 5 }
set mxtics
blue = "#4477aa"
red = "#ee6677"
only(run, c) = (strcol(1) eq run) ? column(c) : NaN
# the windows: the fresh run's shaded, both runs' 20% band around their
# window's mean in the run's colour
window(n) = (n == 1) ? (fw2 > 0) : (np > 0 && pw2 > 0)

# --- above: ops/s
set size 1, 0.55
set origin 0, 0.36
set bmargin 1
set tmargin 0
set format x ""
set ylabel "ops/s (4 KiB writes)"
set yrange [0:(fresh_ops == fresh_ops && fresh_ops > opsmax ? fresh_ops : opsmax) * 1.12]
set format y "%.0f"
set key top right noenhanced samplen 2.5 spacing 1.1 box opaque
if (window(1)) {
	set object 1 rect from fw1 - 0.5, graph 0 to fw2 + 0.5, graph 1 fc rgb blue fs transparent solid 0.10 noborder behind
	set object 2 rect from fw1 - 0.5, fmean * 0.9 to fw2 + 0.5, fmean * 1.1 fc rgb blue fs transparent solid 0.25 noborder behind
}
if (window(2)) {
	set object 4 rect from pw1 - 0.5, pmean * 0.9 to pw2 + 0.5, pmean * 1.1 fc rgb red fs transparent solid 0.25 noborder behind
}
if (fresh_ops == fresh_ops) {
	set arrow 1 from graph 0, first fresh_ops to graph 1, first fresh_ops nohead dt 3 lw 1.2 lc rgb "#228833" front
	set label 2 sprintf("fresh, no garbage collection: %.0f ops/s", fresh_ops) at 1.5, first fresh_ops \
		offset 0, -0.7 left front font ",9" textcolor rgb "#228833"
}
if (steady_implied == steady_implied) {
	set arrow 2 from graph 0, first steady_implied to graph 1, first steady_implied nohead dt 3 lw 1.2 lc rgb "#aa3377" front
	set label 3 sprintf("dotted: after the rounds (fresh drive), write amplification %.2f (exact) implies %.0f ops/s; rebench measured %.0f", \
		steady_wa, steady_implied, steady_ops) at graph 0.99, first steady_implied * 0.5 right front font ",9" textcolor rgb "#aa3377"
}
plot data skip 1 using ($2 - 0.4):(only("fresh", 9)):(0.8):(0) with vectors nohead lw 3 lc rgb "#99b3d6" \
	title "implied by the round's write amplification (model)", \
     data skip 1 using 2:(only("fresh", 3)) with linespoints pt 7 ps 1 lw 2 lc rgb blue title "fresh drive (no --precondition): rebench's ops/s", \
     (window(1) && x >= fw1 - 0.5 && x <= fw2 + 0.5 ? fmean : NaN) with lines dt 2 lw 1.5 lc rgb "#2a5a8a" \
	title "steady-state window: its mean, the 20% range band", \
     data skip 1 using ($2 - 0.4):(np > 0 ? only("precondition", 9) : NaN):(0.8):(0) with vectors nohead lw 3 lc rgb "#f4b3bd" notitle, \
     data skip 1 using 2:(np > 0 ? only("precondition", 3) : NaN) with linespoints pt 5 ps 0.9 lw 2 lc rgb red \
	title (np > 0 ? "after --precondition (the device written twice, sequentially)" : ""), \
     (window(2) && x >= pw1 - 0.5 && x <= pw2 + 0.5 ? pmean : NaN) with lines dt 2 lw 1.5 lc rgb "#aa3344" notitle
unset object 1
unset object 2
unset object 4
unset label 2
unset label 3
unset arrow 1
unset arrow 2
unset label 99

# --- below: write amplification
set size 1, 0.34
set origin 0, 0.02
set tmargin 1
set bmargin 3
set format x "%g"
set xlabel sprintf("round (%sback to back); each round's write amplification from the model's counters, read every 0.2 s", \
	round_s eq "" ? "" : round_s . " s each, ")
set ylabel "write amplification"
set yrange [0:wmax * 1.45 + 0.5]	# room for the key above the curves
set format y "%.0f"
set ytics 1
if (wmax > 8) { set ytics 2 }
if (wmax > 16) { set ytics 5 }
set key top left noenhanced samplen 2.5 box opaque
if (window(1)) {
	set object 1 rect from fw1 - 0.5, graph 0 to fw2 + 0.5, graph 1 fc rgb blue fs transparent solid 0.10 noborder behind
}
set arrow 3 from graph 0, first 1 to graph 1, first 1 nohead dt 3 lw 1 lc rgb "#228833"
set label 4 "1: no garbage collection" at graph 0.99, first 1 offset 0, 0.6 right font ",9" textcolor rgb "#228833"
if (steady_wa == steady_wa) {
	set arrow 4 from graph 0, first steady_wa to graph 1, first steady_wa nohead dt 3 lw 1.2 lc rgb "#aa3377"
}
plot data skip 1 using 2:(only("fresh", 7)) with linespoints pt 7 ps 0.8 lw 2 lc rgb blue \
	title "fresh drive: pages programmed per page written", \
     data skip 1 using 2:(np > 0 ? only("precondition", 7) : NaN) with linespoints pt 5 ps 0.7 lw 2 lc rgb red \
	title (np > 0 ? "after --precondition" : ""), \
     NaN with lines dt 3 lw 1.2 lc rgb "#aa3377" \
	title (steady_wa == steady_wa ? sprintf("after the rounds (fresh drive), exact: %.2f", steady_wa) : "")
unset multiplot
