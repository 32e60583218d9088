# loadcurve.gp - latency against load: a sweep of --rate alone, the
# latency from each I/O's intended start (p50, p99, p99.9) and from its
# submission (p99, dashed) against the rate achieved, the rates that were
# not met hollow and labelled with the rate asked, and the knee ringed.
#
#   rebench --rate 250..4k*2 -c 4 -t stateless -d 2 --output load.tsv --plot load.png /dev/sdb
#   gnuplot -c plots/loadcurve.gp TABLE OUT.png|.svg|.pdf|.jpg [KNEE]
#
# Input: the sweep table of a --rate sweep (TSV with a header row; columns
# found by name: workload, rate_asked, rate_achieved, rate_met,
# intended_p50_us, intended_p99_us, intended_p999_us, lat_p99_us, seconds,
# target); workload 1's rows.  KNEE: the asked rate of the knee, as
# rebench's "Knee:" line gives it (rebench --plot passes it; "-" or none:
# no knee marked; the key says the rule).  The knee is the highest rate, going up from the lowest,
# that was met with its p99 from the intended start within 2x the least
# p99 of any rate met (rebench(1), --rate): where the queue a client on
# the schedule sees starts to grow.
#
# Axes: x the achieved ops/s (from 0), y the latency in ms on a log scale
# (it spans decades once the rate is not met).  Title: what is drawn; what
# was measured (about.gpi: target, settings, time per point, from rb_*
# variables, else the table's target and seconds); the noise: one run per
# point, no interval.  Output: by the extension (terminal.gpi), 1000x650.
me = "loadcurve.gp"
if (ARGC < 2) {
	print "usage: gnuplot -c loadcurve.gp TABLE OUT.png|.svg|.pdf|.jpg [KNEE]"
	exit status 1
}
data = ARG1
out = ARG2
knee = (ARGC >= 3 && ARG3 ne "-") ? ARG3 : ""
gpdir = system("dirname '" . ARG0 . "'")

# One awk reads the table: err (a refusal), npts, the datablock $P of
# workload 1's rows by asked rate ("achieved asked met p50 p99 p999
# subp99", latencies in ms), the knee's row (kx, ky), the table's target
# and seconds (tgt, secs), the least and greatest latency (ylo, yhi).
$SCAN << EOD
function col(name) { return colof(header, name) }
BEGIN {
	data = ARGV[1]; knee = ARGV[2]
	P[1] = data
	readable(P, 1, R)
	if (!R[1]) fail("cannot read " data)
	slurp("t", data)
	header = FL["t", 1]; gsub(/\r/, "", header); gsub(/\t/, " ", header)
	split("workload rate_asked rate_achieved rate_met intended_p50_us intended_p99_us intended_p999_us lat_p99_us", need, " ")
	for (i = 1; i <= 8; i++) {
		C[need[i]] = col(need[i])
		if (!C[need[i]]) fail(data " has no column " need[i] ": it is not the table of a --rate sweep (rebench --rate A..B*F --output TABLE); its columns are: " header)
	}
	ti = col("target"); si = col("seconds")
	FS = "\t"; n = 0; ylo = 1e300; yhi = 0
	for (j = 2; j <= FN["t"]; j++) {
		$0 = FL["t", j]; gsub(/\r/, "")
		if (!NF || $C["workload"] != 1 || $C["rate_asked"] == "-") continue
		n++
		A[n] = $C["rate_asked"] + 0
		L[n] = sprintf("%s %s %d %g %g %g %g", $C["rate_achieved"], $C["rate_asked"], $C["rate_met"] == "yes", \
			$C["intended_p50_us"] / 1000, $C["intended_p99_us"] / 1000, $C["intended_p999_us"] / 1000, $C["lat_p99_us"] / 1000)
		for (k = 5; k <= 8; k++) {
			v = (k == 8 ? $C["lat_p99_us"] : $C[need[k]]) / 1000
			if (v > 0 && v < ylo) ylo = v
			if (v > yhi) yhi = v
		}
		if (knee != "" && $C["rate_asked"] + 0 == knee + 0) {
			gp("kx", $C["rate_achieved"]); gp("ky", $C["intended_p99_us"] / 1000)
		}
		if (ti && tgt == "") tgt = $ti
		if (si && $si ~ /^[0-9.]+$/) S[++ns] = $si + 0
	}
	if (!n) fail(data " has no rated row of workload 1: was --rate swept?")
	# by asked rate
	for (i = 2; i <= n; i++) for (k = i; k > 1 && A[k - 1] > A[k]; k--) {
		t = A[k]; A[k] = A[k - 1]; A[k - 1] = t; t = L[k]; L[k] = L[k - 1]; L[k - 1] = t
	}
	print "$P << EOP"
	for (i = 1; i <= n; i++) print L[i]
	print "EOP"
	gp("npts", n); gp("ylo", ylo); gp("yhi", yhi); gp("tgt", tgt)
	if (ns) { sort(S, ns, "g"); gp("secs", S[int((ns + 1) / 2)]) } else gp("secs", "")
}
EOD
array SCAN_ARGS = [data, knee]
err = ""
kx = ""
load gpdir . "/scan.gpi"
if (err ne "") {
	print me . ": " . err
	exit status 1
}
meta_file = ""
if (!exists("rb_target") && tgt ne "") { rb_target = tgt }
if (!exists("rb_duration") && secs ne "") { rb_duration = sprintf("%.3gs per point", real(secs)) }
load gpdir . "/about.gpi"
W = 1000
H = 650
load gpdir . "/terminal.gpi"

set title rb_join("Latency against load: --rate swept, latency from each I/O's intended start", "\n", \
	rb_join(subtitle, "\n", "noise: one run per point, no interval; hollow: the rate asked was not met (labelled with it)")) noenhanced
set xlabel "achieved rate (ops/s)"
set ylabel "latency (ms), log scale"
set logscale y
set xrange [0:*]
set yrange [ylo / 1.5:yhi * 1.5]
set format y "%g"
# 2 and 5 of each decade labelled too: a curve that is not met early may
# span less than two decades, which 1, 10, 100 alone leave unreadable
do for [e = -3:5] { set ytics add (sprintf("%g", 2 * 10.0**e) 2 * 10.0**e, sprintf("%g", 5 * 10.0**e) 5 * 10.0**e) }
set grid xtics ytics mytics lc rgb "#dddddd"
set key top left box opaque noenhanced
set offsets 0, graph 0.06, 0, 0
set style line 1 lc rgb "#1f77b4" lw 2 pt 7 ps 1.2
set style line 2 lc rgb "#d62728" lw 2 pt 9 ps 1.3
set style line 3 lc rgb "#9467bd" lw 2 pt 5 ps 1.1
set style line 4 lc rgb "#7f7f7f" lw 1.5 dt 2 pt 1 ps 1
if (kx ne "") {
	set style textbox opaque noborder margins 1, 1
	set label 1 sprintf("knee: %s ops/s asked", knee) at first real(kx), first real(ky) offset 1.5, -1.6 left font ",10" textcolor rgb "#d62728" boxed front
}
# the key says what the knee is (load_curve.h, rebench(1) --rate), in two
# entries, the second without a sample, so that the key stays narrow
kneekey = "knee: below the first rate not met, the highest"
kneekey2 = "rate with p99 within 2x the least p99 of a rate met"
met(m, v) = (m == 1) ? v : NaN
unmet(m, v) = (m == 0) ? v : NaN
plot $P using 1:4 with lines ls 1 notitle, \
     $P using 1:(met($3, $4)) with points ls 1 title "p50 from the intended start", \
     $P using 1:(unmet($3, $4)) with points ls 1 pt 6 notitle, \
     $P using 1:5 with lines ls 2 notitle, \
     $P using 1:(met($3, $5)) with points ls 2 title "p99 from the intended start", \
     $P using 1:(unmet($3, $5)) with points ls 2 pt 8 notitle, \
     $P using 1:6 with lines ls 3 notitle, \
     $P using 1:(met($3, $6)) with points ls 3 title "p99.9 from the intended start", \
     $P using 1:(unmet($3, $6)) with points ls 3 pt 4 notitle, \
     $P using 1:7 with linespoints ls 4 title "p99 from submission (fio's latency)", \
     $P using 1:(unmet($3, $5)):(sprintf("asked %g", $2)) with labels offset 0, 1.3 font ",9" textcolor rgb "#555555" notitle, \
     '+' using (kx ne "" ? real(kx) : NaN):(kx ne "" ? real(ky) : NaN) every ::0::0 with points pt 6 ps 3.5 lw 2 lc rgb "#d62728" title (kx ne "" ? kneekey : ""), \
     keyentry with lines lt nodraw title (kx ne "" ? kneekey2 : "")
