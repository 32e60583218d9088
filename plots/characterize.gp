# characterize.gp - rebench --characterize on one page: what each test
# measured, with the conclusion it drew in the panel's title.
#
#   rebench --characterize --plot char.png /dev/sdb
#   rebench --characterize --output char.tsv /dev/sdb     (the data, kept)
#   gnuplot -c plots/characterize.gp DATA OUT.png|.svg|.pdf|.jpg
#
# Top left, the boundary test: reads straddling a boundary of 1 KiB, 2 KiB
# .. 64 KiB against reads inside one, their median latency ratio with its
# 95% interval, by verdict; 1.10 is where crossing "costs more".  Top
# right, queue depth: ops/s (95% interval) and the median latency (right
# axis, log) by depth, the knee marked.  Bottom left, the read cache: the
# share of random reads over a working set answered as fast as a cache
# (95% interval) and their median latency, by the set's size.  Bottom
# right, a spinning disk's seek time by the distance between reads (95%
# interval; the bar across spans the distances of a bin) and its
# sequential bandwidth by position; a drive that does not spin gets the
# erase-block test there (--write: sequential over random MiB/s by write
# size, 95% intervals, by verdict, the erase block marked) or, without
# it, a panel that says what the rotation and flush tests found.
#
# Input: the data file rebench --characterize writes for --plot or
# --output (src/characterize/characterize_plot.c): comment lines with the
# target, the settings and the conclusions ("# page_bytes: VALUE LOW
# HIGH" or "none" ..), then six blocks, each under its comment line
# ("# boundaries:", "# queue depth:", "# read cache:", "# seeks:",
# "# zones:", "# erase:"), present even when it has no rows (a file
# from before the erase test has five: it draws without that panel).  The rows are read by
# those lines (into datablocks), not with gnuplot's `index`: a block
# with no rows is no data set to gnuplot, so the indexes of the blocks
# after it would move.  The title gives the target and what produced the
# data (about.gpi: rb_target, rb_about, rb_made, from gnuplot -e or the
# file's comment lines); the data file's path is never drawn (rebench's is
# temporary).  Output: by the extension (terminal.gpi), 1200x900.
me = "characterize.gp"
usage = "usage: gnuplot -c characterize.gp DATA OUT.png|.svg|.pdf|.jpg\n" . \
	"  DATA: the data file of rebench --characterize --output DATA (or --plot OUT, which draws it with this script)"
if (ARGC >= 1 && (ARG1 eq "-h" || ARG1 eq "--help")) {
	print usage
	exit
}
if (ARGC < 2) {
	print usage
	exit status 1
}
data = ARG1
out = ARG2
gpdir = system("dirname '" . ARG0 . "'")

# One awk (scan.gpi) checks the file and reads what the panels need:
# n0 .. n4, each block's rows; each conclusion as NAME_k (1: concluded),
# NAME_v, NAME_lo, NAME_hi; the ranges of the axes; err, the first refusal.
$SCAN << EOD
function isnum(s) { return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
function fig(name,    s, w, n, i) {
	s = hdr("d", name)
	if (s == "") fail(F " has no \"# " name ":\" line: it is not a data file of rebench --characterize, or a cut one; write it again with rebench --characterize --output FILE")
	n = split(s, w, /[ \t]+/)
	if (w[1] == "none" && n == 1) {
		print name "_k = 0"; print name "_v = NaN"; print name "_lo = NaN"; print name "_hi = NaN"
		return
	}
	for (i = 1; i <= 3; i++) if (n != 3 || !isnum(w[i])) fail(F ": \"# " name ": " s "\": expected VALUE LOW HIGH or none")
	print name "_k = 1"; print name "_v = " w[1] + 0; print name "_lo = " w[2] + 0; print name "_hi = " w[3] + 0
}
function one(name, dflt,    s) {
	s = hdr("d", name)
	if (s == "") s = dflt
	if (!isnum(s)) fail(F ": \"# " name ": " s "\": expected a number")
	print name " = " s + 0
}
function lo(k, v) { if (!(k in MN) || v < MN[k]) MN[k] = v }
function hi(k, v) { if (!(k in MX) || v > MX[k]) MX[k] = v }
function put(k, v) { print k " = " (v == "" ? "NaN" : v + 0) }
BEGIN {
	F = ARGV[1]
	P[1] = F
	readable(P, 1, R)
	if (!R[1]) fail("cannot read " F ": there is no such file, or it is not a readable file; give the data file rebench --characterize --output FILE wrote")
	slurp("d", F)
	about("d", F)
	split("boundaries|queue depth|read cache|seeks|zones|erase", H, "|")
	split("bytes ratio low high verdict|qd ops_per_s low high p50_us|set_bytes share low high p50_us|lo_bytes hi_bytes seek_ms low high reads|offset_bytes mb_per_s|bytes ratio low high verdict seq_mb_per_s rnd_mb_per_s", C, "|")
	split("5 5 5 6 2 7", NC, " ")
	blk = 0
	for (j = 1; j <= FN["d"]; j++) {
		l = FL["d", j]; gsub(/\r/, "", l)
		if (l ~ /^[ \t]*$/) continue
		if (l ~ /^[ \t]*#/) {
			for (k = 1; k <= 6; k++) if (match(l, "^#[ \t]*" H[k] ":")) {
				if (seen[k]) fail(F ", line " j ": a second \"# " H[k] ":\" block: two runs in one file? write it again with rebench --characterize --output FILE")
				seen[k] = 1; blk = k
			}
			continue
		}
		if (!blk) { if (!stray) stray = j; continue }
		sub(/^[ \t]+/, "", l)
		n = split(l, w, /[ \t]+/)
		if (n < NC[blk]) fail(F ", line " j ": " H[blk] " rows have " NC[blk] " columns (" C[blk] "), this one " n ": " l)
		for (i = 1; i <= NC[blk]; i++) if (!isnum(w[i])) fail(F ", line " j ": \"" w[i] "\" is not a number (" H[blk] ": " C[blk] ")")
		if ((blk <= 4 || blk == 6) && w[1] <= 0) fail(F ", line " j ": " H[blk] ": " substr(C[blk], 1, index(C[blk], " ") - 1) " is " w[1] ", not above 0")
		if (blk == 4 && w[2] <= w[1]) fail(F ", line " j ": seeks: hi_bytes " w[2] " is not above lo_bytes " w[1])
		N[blk]++
		ROW[blk, N[blk]] = l
		if (blk == 1) {
			if (w[5] != 1 && w[5] != 0 && w[5] != 2 && w[5] != -1) fail(F ", line " j ": verdict " w[5] " is not 1, 0, 2 or -1")
			lo("b_x", w[1]); hi("b_x", w[1]); lo("b_y", w[3]); hi("b_y", w[4])
			V[w[5] + 0]++
			B[w[1] + 0] = w[2] + 0; BL[w[1] + 0] = w[3] + 0; BH[w[1] + 0] = w[4] + 0
		} else if (blk == 2) {
			lo("q_x", w[1]); hi("q_x", w[1]); hi("q_y", w[4]); hi("q_best", w[2])
			if (w[5] > 0) { lo("q_l", w[5]); hi("q_l", w[5]) }
		} else if (blk == 3) {
			lo("c_x", w[1]); hi("c_x", w[1])
			if (w[5] > 0) { lo("c_l", w[5]); hi("c_l", w[5]) }
		} else if (blk == 4) {
			lo("s_x", w[1]); hi("s_x", w[2]); lo("s_y", w[4]); hi("s_y", w[5])
		} else if (blk == 6) {
			if (w[5] != 1 && w[5] != 0 && w[5] != 2) fail(F ", line " j ": erase: verdict " w[5] " is not 1, 0 or 2")
			lo("e_x", w[1]); hi("e_x", w[1]); hi("e_y", w[4])
			E[w[5] + 0]++
		} else {
			hi("z_x", w[1]); hi("z_y", w[2]); lo("z_y", w[2])
			if (N[5] == 1) z_first = w[2]
			z_last = w[2]; z_lastx = w[1]
		}
	}
	for (k = 1; k <= 5; k++) if (!seen[k]) fail(F " has no \"# " H[k] ":\" block: it is not a data file of rebench --characterize, or a cut one; write it again with rebench --characterize --output FILE")
	if (stray) fail(F ", line " stray ": a row before the first block (\"# boundaries:\"): it is not a data file of rebench --characterize; write it again with rebench --characterize --output FILE")
	fig("page_bytes"); fig("parallelism"); fig("read_cache_bytes"); fig("rpm"); fig("seek_min_ms"); fig("seek_max_ms")
	# the erase block: files written before --write's erase test have none
	if (hdr("d", "erase_block_bytes") == "") { print "erase_block_bytes_k = 0"; print "erase_block_bytes_v = NaN"; print "erase_block_bytes_lo = NaN"; print "erase_block_bytes_hi = NaN" }
	else fig("erase_block_bytes")
	one("knee_qd", 0); one("hit_below_us", -1)
	one("boundary_read_bytes", 0); one("qd_read_bytes", 0); one("qd_seconds", 0); one("qd_precision_pct", 0); one("cache_reads", 0); one("cache_max_reads", 0)
	one("flush_verdict", -2); one("flush_write_p50_us", 0); one("flush_p50_us", 0); one("flush_bound_us", 0)
	for (k = 1; k <= 6; k++) print "n" k - 1 " = " N[k] + 0
	for (v = 0; v <= 2; v++) print "ne" v " = " E[v] + 0
	split("b_x b_y q_x q_y q_best q_l c_x c_l s_x s_y z_x z_y e_x e_y", K, " ")
	for (k in K) { put(K[k] "_min", MN[K[k]]); put(K[k] "_max", MX[K[k]]) }
	for (v = -1; v <= 2; v++) print "nv" (v < 0 ? "m" : "") (v < 0 ? -v : v) " = " V[v] + 0
	put("z_first", z_first); put("z_last", z_last); put("z_lastx", z_lastx)
	s = hdr("d", "page_bytes") + 0
	put("b_unit_ratio", s in B ? B[s] : ""); put("b_unit_lo", s in B ? BL[s] : ""); put("b_unit_hi", s in B ? BH[s] : "")
	for (k = 1; k <= 6; k++) {
		print "$B" k - 1 " << EOD"
		for (j = 1; j <= N[k]; j++) print ROW[k, j]
		print "EOD"
	}
}
EOD
array SCAN_ARGS = [data]
load gpdir . "/scan.gpi"
meta_file = data
load gpdir . "/about.gpi"

W = 1200
H = 900
load gpdir . "/terminal.gpi"

# ---------------------------------------------------------------- words
# 3 significant digits, no exponent: 0.512, 12.3, 553, 7805
g3(v) = (abs(v) >= 100) ? sprintf("%.0f", v) : (v == 0) ? "0" : sprintf("%.3g", v)
# bytes as 512 B, 8 KiB, 71.7 KiB, 2 MiB, 1 GiB
un(b) = (b >= 2**30) ? "GiB" : (b >= 2**20) ? "MiB" : (b >= 1024) ? "KiB" : "B"
ud(b) = (b >= 2**30) ? 2.0**30 : (b >= 2**20) ? 2.0**20 : (b >= 1024) ? 1024.0 : 1.0
sz(b) = g3(b / ud(b)) . " " . un(b)
# an interval in one unit where it can be: 8-8 KiB, 0-25.6 KiB, 900 KiB-1.2 MiB
rng(a, b) = (a == 0 || un(a) eq un(b)) ? g3(a / ud(b)) . "-" . g3(b / ud(b)) . " " . un(b) : sz(a) . "-" . sz(b)
# a latency in us as 22.9 us, 553 us, 1.04 ms, 46.4 ms
lat(u) = (u >= 1000) ? g3(u / 1000.0) . " ms" : g3(u) . " us"
# log2 tics labelled as sizes, from 2^k0 to 2^k1 every s powers
l2(v) = log(v) / log(2)
tics2(k, k1, s) = (k > k1) ? "" : sprintf("\"%s\" %.0f", sz(2.0 ** k), 2.0 ** k) . (k + s <= k1 ? ", " . tics2(k + s, k1, s) : "")
# latency tics (1-2-5 us, ms) from 10^e0 to 10^e1
tl(e, e1) = (e > e1) ? "" : sprintf("\"%s\" %g, \"%s\" %g, \"%s\" %g", lat(10.0 ** e), 10.0 ** e, lat(2 * 10.0 ** e), 2 * 10.0 ** e, lat(5 * 10.0 ** e), 5 * 10.0 ** e) . \
	(e + 1 <= e1 ? ", " . tl(e + 1, e1) : "")
tld(e, e1) = (e > e1) ? "" : sprintf("\"%s\" %g", lat(10.0 ** e), 10.0 ** e) . (e + 1 <= e1 ? ", " . tld(e + 1, e1) : "")

# colours (Paul Tol's bright and muted sets)
cmore = "#CC3311"	# costs more
csame = "#009988"	# same
cnoise = "#888888"	# within noise
cless = "#0077BB"	# costs less
cops = "#0077BB"	# ops/s, hit share, seek, MiB/s
clat = "#EE7733"	# latency
cmark = "#AA3377"	# the conclusions: knee, cache size
cband = "#F2F2F2"

# A panel without points: its frame, its title and a message in it.
# (the title and the message are set by the caller; no plot of data)
empty_panel = "unset xtics; unset ytics; unset x2tics; unset y2tics; unset xlabel; unset ylabel; unset y2label; " . \
	"unset logscale; unset key; unset grid; set border 0; set xrange [0:1]; set yrange [0:1]; " . \
	"plot 2 notitle; unset label 10; unset label 11; set border 3"
# everything a panel sets that the next one must not inherit
reset_panel = "unset arrow; unset object; unset label 1; unset label 2; unset label 3; unset label 10; unset label 11; " . \
	"unset logscale; unset y2tics; unset y2label; unset x2tics; set ytics nomirror; set xtics nomirror; " . \
	"set xtics autofreq; set ytics autofreq; set mxtics default; set format x; set format y; set format y2; " . \
	"unset ylabel; unset xlabel; set autoscale; set grid xtics ytics lt 1 lw 1 lc rgb \"#E4E4E4\"; set key default; set key noenhanced"

set multiplot title sprintf("rebench --characterize%s%s", rb_target eq "" ? "" : ": " . rb_target, \
	rb_join(rb_about, ", ", rb_duration) eq "" ? "" : "\n" . rb_join(rb_about, ", ", rb_duration)) font ",13" noenhanced
set errorbars 1.5
set border 3
set tics nomirror
set lmargin 10
set rmargin 10
eval(reset_panel)
top = 0.925	# below the page's title
mid = 0.46
bot = 0.015	# above the corner's "made" line

# ============================================================ boundaries
set origin 0, mid
set size 0.5, top - mid
set title (page_bytes_k ? sprintf("Boundaries: unit %s (%s)", sz(page_bytes_v), rng(page_bytes_lo, page_bytes_hi)) : \
	"Boundaries: no unit concluded") . "\n" . (boundary_read_bytes > 0 ? sz(boundary_read_bytes) . " " : "") . "reads crossing a boundary against reads inside one" noenhanced
if (n0 == 0) {
	set label 10 "the boundary test has no points: not measured" at graph 0.5, graph 0.5 center noenhanced
	eval(empty_panel)
} else {
	set logscale x 2
	set xrange [b_x_min / 1.5 : b_x_max * 1.5]
	eval("set xtics (" . tics2(floor(l2(b_x_min) + 0.5), floor(l2(b_x_max) + 0.5), 1 + int((l2(b_x_max) - l2(b_x_min)) / 8)) . ")")
	ylo = (b_y_min < 0.9 ? b_y_min : 0.9)
	yhi = (b_y_max > 1.2 ? b_y_max : 1.2)
	by0 = ylo - (yhi - ylo) * 0.06
	by1 = yhi + (yhi - ylo) * 0.22
	set yrange [by0 : by1]
	set xlabel "boundary (log2)"
	set ylabel "p50 latency, crossing / inside (ratio)"
	set format y "%.2f"
	set object 1 rect from graph 0, first 1.0 to graph 1, first 1.10 behind fc rgb cband fs solid noborder
	set arrow 1 from graph 0, first 1.0 to graph 1, first 1.0 nohead lc rgb "#666666" lw 1 back
	set arrow 2 from graph 0, first 1.10 to graph 1, first 1.10 nohead lc rgb cmore lw 1.2 dt 2 back
	set label 1 "1.10: crossing costs more above" at graph 0.99, first 1.10 right offset 0, 0.6 tc rgb cmore font ",9" noenhanced
	set label 2 "1.00: the same" at graph 0.99, first 1.0 right offset 0, -0.7 tc rgb "#666666" font ",9" noenhanced
	if (b_unit_ratio == b_unit_ratio) {
		# below the unit's point, or above it when the axis is near
		below = (b_unit_lo - by0 > (by1 - by0) * 0.12)
		set label 3 sprintf("%s: %.2fx (%.2f-%.2f)", sz(page_bytes_v), b_unit_ratio, b_unit_lo, b_unit_hi) \
			at page_bytes_v, below ? b_unit_lo : b_unit_hi center offset 0, below ? -1.2 : 1.2 font ",9" noenhanced
	}
	set key top left opaque box font ",9" samplen 1
	vp(v, c, pt, t, n) = (n == 0) ? "" : sprintf("$B0 using 1:($5 == %d ? $2 : NaN):3:4 with yerrorbars pt %d ps 1.4 lw 1.5 lc rgb \"%s\" title \"%s (%d)\", ", v, pt, c, t, n)
	pl = vp(1, cmore, 9, "costs more", nv1) . vp(0, csame, 7, "the same", nv0) . vp(2, cnoise, 6, "within noise", nv2) . vp(-1, cless, 11, "costs less", nvm1)
	eval("plot " . pl[1:strlen(pl) - 2])
	set format y
}
eval(reset_panel)
unset label 99	# the corner's "made" line: drawn once, with the first panel

# ============================================================ queue depth
set origin 0.5, mid
set size 0.5, top - mid
set title (parallelism_k ? sprintf("Queue depth: parallelism %.1f (95%%: %.1f-%.1f)", parallelism_v, parallelism_lo, parallelism_hi) : \
	"Queue depth: no parallelism concluded") . \
	(knee_qd > 0 ? sprintf(", knee at QD %d", knee_qd) : "") . "\n" . (qd_read_bytes > 0 ? sz(qd_read_bytes) . " " : "") . "random reads, " . \
	(qd_precision_pct > 0 ? sprintf("each depth until +-%g%%", qd_precision_pct) . (qd_seconds > 0 ? sprintf(" (%d s at most)", qd_seconds) : "") : \
	qd_seconds > 0 ? sprintf("%d s at each depth", qd_seconds) : "at each depth") . ": ops/s, median latency" noenhanced
if (n1 == 0) {
	set label 10 "the queue-depth test has no points: not measured" at graph 0.5, graph 0.5 center noenhanced
	eval(empty_panel)
} else {
	set logscale x 2
	set xrange [q_x_min / 1.4 : q_x_max * 1.4]
	set xtics 2 format "%.0f"
	set yrange [0 : q_y_max * 1.3]
	set ytics format "%.0f"
	set xlabel "queue depth (I/Os in flight, log2)"
	set ylabel "ops/s (95% interval)" tc rgb cops
	if (q_l_min == q_l_min) {
		set logscale y2 10
		e0 = floor(log10(q_l_min / 1.6))
		e1 = floor(log10(q_l_max * 1.6))
		set y2range [q_l_min / 1.6 : q_l_max * 1.6]
		eval("set y2tics (" . (e1 - e0 <= 2 ? tl(e0, e1) : tld(e0, e1 + 1)) . ") tc rgb clat")
		set y2label "p50 latency (log)" tc rgb clat
	}
	set arrow 1 from graph 0, first 0.9 * q_best_max to graph 1, first 0.9 * q_best_max nohead lc rgb "#999999" dt 3 back
	set label 1 "90% of the most ops/s" at graph 0.01, first 0.9 * q_best_max left offset 0, -0.7 tc rgb "#777777" font ",9" noenhanced
	if (knee_qd > 0) {
		set arrow 2 from knee_qd, graph 0 to knee_qd, graph 1 nohead lc rgb cmark lw 1.5 dt 2 back
		set label 2 sprintf("knee: QD %d", knee_qd) at knee_qd, graph 0.97 left offset 0.5, 0 tc rgb cmark font ",9" noenhanced
	}
	set key bottom right opaque box font ",9" samplen 1.5
	eval("plot $B1 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 1.5 lc rgb cops title \"ops/s\"" . \
		(q_l_min == q_l_min ? ", $B1 using 1:($5 > 0 ? $5 : NaN) axes x1y2 with linespoints pt 6 ps 1.2 lw 1.2 dt 2 lc rgb clat title \"p50 latency (right axis)\"" : ""))
}
eval(reset_panel)

# The bottom row: the read cache, then the seeks and the zones of a
# spinning disk (a third of the width each when it has both).
have_s = (n3 > 0)
have_z = (n4 > 0)
wc = (have_s && have_z) ? 0.36 : 0.5
ws = (have_s && have_z) ? 0.34 : 0.5

# ============================================================ read cache
set origin 0, bot
set size wc, mid - bot
set title (read_cache_bytes_k ? (read_cache_bytes_v > 0 ? sprintf("Read cache: %s (%s)", sz(read_cache_bytes_v), rng(read_cache_bytes_lo, read_cache_bytes_hi)) : \
	sprintf("Read cache: none seen (%s)", rng(read_cache_bytes_lo, read_cache_bytes_hi))) : \
	(n2 == 0 ? "Read cache: not measured" : "Read cache: none concluded")) . \
	"\n" . (cache_reads > 0 ? sprintf("%d ", cache_reads) . (cache_max_reads > cache_reads ? sprintf("to %d ", cache_max_reads) : "") : "") . \
	"random reads over a working set, after one pass over it" noenhanced
if (n2 == 0) {
	set label 10 "the read-cache test has no points: not measured" at graph 0.5, graph 0.5 center noenhanced
	eval(empty_panel)
} else {
	cx0 = c_x_min / 3
	cx1 = c_x_max * 3
	# the concluded size and its interval on the axis too (a log axis:
	# a low end of 0 is the axis' left end)
	if (read_cache_bytes_k && read_cache_bytes_v > 0) {
		cl = (read_cache_bytes_lo > 0) ? read_cache_bytes_lo : read_cache_bytes_v
		cx0 = (cl / 1.5 < cx0) ? cl / 1.5 : cx0
		cx1 = (read_cache_bytes_hi * 1.5 > cx1) ? read_cache_bytes_hi * 1.5 : cx1
	}
	set logscale x 2
	set xrange [cx0 : cx1]
	k0 = ceil(l2(cx0))
	k1 = floor(l2(cx1))
	eval("set xtics (" . tics2(k0, k1, 1 + int((k1 - k0) / (wc < 0.5 ? 4 : 7))) . ")")
	set mxtics default
	set xlabel "working set (log2)"
	set yrange [-3:119]
	set ytics 0, 20, 100 format "%.0f%%"
	set ylabel "reads answered as fast as a cache (95% interval)" tc rgb cops
	if (c_l_min == c_l_min) {
		set logscale y2 10
		lo2 = (hit_below_us > 0 && hit_below_us < c_l_min) ? hit_below_us : c_l_min
		hi2 = (hit_below_us > c_l_max) ? hit_below_us : c_l_max
		set y2range [lo2 / 2 : hi2 * 2.5]
		e0 = floor(log10(lo2 / 2))
		e1 = floor(log10(hi2 * 2.5))
		eval("set y2tics (" . (e1 - e0 <= 2 ? tl(e0, e1) : tld(e0, e1 + 1)) . ") tc rgb clat")
		set my2tics 10
		set y2label "p50 latency (log)" tc rgb clat
		if (hit_below_us > 0) {
			set arrow 1 from graph 0, second hit_below_us to graph 1, second hit_below_us nohead lc rgb clat dt 3 back
			set label 1 sprintf("a hit: under %s", lat(hit_below_us)) at graph 0.02, second hit_below_us left offset 0, 0.6 tc rgb clat font ",9" noenhanced
		}
	}
	if (read_cache_bytes_k && read_cache_bytes_v > 0) {
		if (read_cache_bytes_lo > cx0) {
			set object 1 rect from read_cache_bytes_lo, graph 0 to read_cache_bytes_hi, graph 1 behind fc rgb "#F3E6EE" fs solid noborder
		} else {
			set object 1 rect from graph 0, graph 0 to read_cache_bytes_hi, graph 1 behind fc rgb "#F3E6EE" fs solid noborder
		}
		set arrow 2 from read_cache_bytes_v, graph 0 to read_cache_bytes_v, graph 1 nohead lc rgb cmark lw 1.5 dt 2 back
		set label 2 sprintf("cache %s", sz(read_cache_bytes_v)) at read_cache_bytes_v, graph 0.97 left offset 0.5, 0 tc rgb cmark font ",9" noenhanced
	} else {
		set label 10 (read_cache_bytes_k ? "no cache seen" : "no cache size concluded") . \
			(hit_below_us < 0 ? " (no read was fast enough to be a hit)" : "") \
			at graph 0.5, graph 0.93 center font ",10" tc rgb "#444444" noenhanced
	}
	unset key
	eval("plot $B2 using 1:($2 * 100):($3 * 100):($4 * 100) with yerrorlines pt 7 ps 1.2 lw 1.5 lc rgb cops title \"hits\", " . \
		"$B2 using 1:($4 * 100):(sprintf(\"%.0f%%\", $2 * 100)) with labels offset 0, 0.8 font \",9\" tc rgb cops notitle" . \
		(c_l_min == c_l_min ? ", $B2 using 1:($5 > 0 ? $5 : NaN) axes x1y2 with linespoints pt 6 ps 1.2 lw 1.2 dt 2 lc rgb clat title \"p50 latency (right axis)\"" : ""))
}
eval(reset_panel)

# ============================================================ seeks, zones
rpmtxt = rpm_k ? sprintf("%.0f rpm (95%%: %.0f-%.0f)", rpm_v, rpm_lo, rpm_hi) : "no rpm concluded"
fms(k, v, a, b) = k ? sprintf("%s ms (%s-%s)", g3(v), g3(a), g3(b)) : "none"
if (have_s) {
	set origin wc, bot
	set size ws, mid - bot
	set title sprintf("Seeks: %s\nshortest %s, longest %s", rpmtxt, \
		fms(seek_min_ms_k, seek_min_ms_v, seek_min_ms_lo, seek_min_ms_hi), fms(seek_max_ms_k, seek_max_ms_v, seek_max_ms_lo, seek_max_ms_hi)) noenhanced
	set logscale x 2
	set xrange [s_x_min / 1.3 : s_x_max * 1.3]
	k0 = ceil(l2(s_x_min))
	k1 = floor(l2(s_x_max))
	eval("set xtics (" . tics2(k0, k1, 1 + int((k1 - k0) / (have_z ? 4 : 6))) . ")")
	set xlabel "distance between consecutive reads (log2)"
	sy0 = (s_y_min < 0) ? s_y_min : 0
	set yrange [sy0 - (s_y_max - sy0) * 0.05 : s_y_max + (s_y_max - sy0) * 0.25]
	set ylabel "seek: p50 less half a revolution (ms)"
	set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lc rgb "#666666" back
	set label 1 "95% intervals; above each: its reads" at graph 0.02, graph 0.96 left font ",9" tc rgb "#777777" noenhanced
	unset key
	plot $B3 using (sqrt($1 * $2)):3:1:2:4:5 with xyerrorbars pt 7 ps 1.1 lw 1.3 lc rgb cops notitle, \
		$B3 using (sqrt($1 * $2)):5:(sprintf("%d", $6)) with labels offset 0, 0.7 font ",8" tc rgb "#777777" notitle
	eval(reset_panel)
}
if (have_z) {
	set origin have_s ? wc + ws : wc, bot
	set size have_s ? 1 - wc - ws : 1 - wc, mid - bot
	zu = (z_x_max >= 4 * 2**30) ? 2.0**30 : 2.0**20
	zn = (zu == 2.0**30) ? "GiB" : "MiB"
	set title sprintf("Zones: sequential reads by position\n%s MiB/s at the start, %s at %s (%.0f%%)", \
		g3(z_first), g3(z_last), sz(z_lastx), 100 * z_last / z_first) noenhanced
	zx = (z_x_max > 0) ? z_x_max / zu : 1	# one zone at 0: an axis all the same
	set xrange [-zx * 0.05 : zx * 1.08]
	set yrange [0 : z_y_max * 1.2]
	set xlabel sprintf("position (%s from the start)", zn)
	set ylabel "MiB/s"
	unset key
	plot $B4 using ($1 / zu):2 with linespoints pt 7 ps 1.1 lw 1.5 lc rgb cops notitle
	eval(reset_panel)
}
# a drive that does not spin: the erase-block test (--write) if it ran,
# else what the rotation test found, and the flush test's figures
flushtxt = (flush_verdict > -2) ? sprintf("flush test: writes alone %s, a flush after each %s;\nthe media needs at least %s: %s", \
	lat(flush_write_p50_us), lat(flush_p50_us), lat(flush_bound_us), \
	flush_verdict == 1 ? "flushes are honest" : flush_verdict == 0 ? "flushes are NOT honest" : "no verdict") : ""
if (!have_s && !have_z && n5 > 0) {
	set origin wc, bot
	set size 1 - wc, mid - bot
	set title (erase_block_bytes_k ? sprintf("Erase block: %s%s", sz(erase_block_bytes_v), \
		erase_block_bytes_lo < erase_block_bytes_v ? " (" . rng(erase_block_bytes_lo, erase_block_bytes_hi) . ")" : "") : \
		"Erase block: none concluded") . "\nrandom writes against sequential ones of each size, depth 1, the target full" noenhanced
	set logscale x 2
	set xrange [e_x_min / 1.5 : e_x_max * 1.5]
	eval("set xtics (" . tics2(floor(l2(e_x_min) + 0.5), floor(l2(e_x_max) + 0.5), 1 + int((l2(e_x_max) - l2(e_x_min)) / 8)) . ")")
	eh = (e_y_max > 1.3 ? e_y_max : 1.3)
	set yrange [0.8 : 0.8 + (eh - 0.8) * 1.2]
	set xlabel "write size (log2)"
	set ylabel "MiB/s, sequential / random (ratio)"
	set format y "%.1f"
	set object 1 rect from graph 0, first 1.0 to graph 1, first 1.10 behind fc rgb cband fs solid noborder
	set arrow 1 from graph 0, first 1.10 to graph 1, first 1.10 nohead lc rgb cmore lw 1.2 dt 2 back
	set label 1 "1.10: random costs more above" at graph 0.99, first 1.10 right offset 0, 0.6 tc rgb cmore font ",9" noenhanced
	if (erase_block_bytes_k) {
		set arrow 2 from erase_block_bytes_v, graph 0 to erase_block_bytes_v, graph 1 nohead lc rgb cmark lw 1.5 dt 2 back
		set label 2 sprintf("erase block %s", sz(erase_block_bytes_v)) at erase_block_bytes_v, graph 0.62 left offset 0.5, 0 tc rgb cmark font ",9" noenhanced
	}
	if (flushtxt ne "") {
		set label 11 flushtxt at graph 0.98, graph 0.42 right font ",8" tc rgb (flush_verdict == 0 ? "#b2182b" : "#444444") noenhanced
	}
	set key top right opaque box font ",9" samplen 1
	ep(v, c, pt, t, n) = (n == 0) ? "" : sprintf("$B5 using 1:($5 == %d ? $2 : NaN):3:4 with yerrorbars pt %d ps 1.4 lw 1.5 lc rgb \"%s\" title \"%s (%d)\", ", v, pt, c, t, n)
	pl = ep(1, cmore, 9, "costs more", ne1) . ep(0, csame, 7, "the same", ne0) . ep(2, cnoise, 6, "within noise", ne2)
	eval("plot " . pl[1:strlen(pl) - 2])
	set format y
	eval(reset_panel)
}
if (!have_s && !have_z && n5 == 0) {
	set origin wc, bot
	set size 1 - wc, mid - bot
	set title sprintf("Rotation: %s", rpm_k ? rpmtxt : "none found") noenhanced
	set label 10 (rpm_k ? "no seek or zone points" : "no rotation found: seeks and zones not measured") . \
		"\n(rpm: " . (rpm_k ? sprintf("%.0f", rpm_v) : "none concluded") . ")" at graph 0.5, graph 0.55 center font ",11" tc rgb "#444444" noenhanced
	if (flush_verdict > -2) {
		set label 11 sprintf("--write: writes alone %s, a flush after each %s;\nthe media needs at least %s: %s", \
			lat(flush_write_p50_us), lat(flush_p50_us), lat(flush_bound_us), \
			flush_verdict == 1 ? "flushes are honest" : flush_verdict == 0 ? \
			"flushes are NOT honest" : "no verdict") \
			at graph 0.5, graph 0.3 center font ",11" tc rgb (flush_verdict == 0 ? "#b2182b" : "#444444") noenhanced
	}
	eval(empty_panel)
}
unset multiplot
