# alignment-drilldown.gp - ops/s against alignment for one block size, one
# line per configuration (e.g. a raw device, an aligned and a misaligned
# partition): a row of the heatmaps of alignment-multiplot.gp, drawn so
# that the configurations can be read off against each other.
#
#   rebench -b 512..4k/512 -s 512..4k/512 -d 5 --output raw.tsv /dev/sdb
#   rebench -b 512..4k/512 -s 512..4k/512 -d 5 --output p1.tsv /dev/sdb1
#   printf 'raw device\traw.tsv\npartition 1\tp1.tsv\n' >configs
#   gnuplot -c plots/alignment-drilldown.gp configs drilldown.png 4k
#   gnuplot -c plots/alignment-drilldown.gp LIST OUT.png|.svg|.pdf|.jpg [BLOCK_SIZE] [TITLE]
#
# Input: LIST, a text file with one configuration per line,
# "LABEL<TAB>TABLE" (blank lines and lines starting with # are skipped; a
# relative TABLE is relative to LIST's directory).  Each TABLE is a sweep
# table (TSV with a header row) with the columns block-size, stride and
# ops_per_s, found by name, or an offset sweep's (offset and ops_per_s:
# rebench -b 4k -s 4k -j 0,512,...; then x is the offset from the
# target's start, every row is of BLOCK_SIZE, which must be given, and the
# title says "by offset").  Only the rows of workload 1 (when there is a
# workload column) whose block-size is BLOCK_SIZE are drawn: x = stride,
# y = ops/s; rows that share a stride (a third swept parameter) are
# averaged.  BLOCK_SIZE is bytes, with an optional k or m suffix (1024,
# 1048576), or "" for the default: the smallest block-size of the first
# table.  The legend shows LABEL.  x is linear, or log2 when the strides of
# all tables form one geometric sequence (512, 1k, 2k ..); a tick at every
# stride that has room, as 512 B, 4 KiB, 3584 B (about.gpi's iec()).  y
# starts at 0.  The legend is at the right of the plot.  The title is
# TITLE, or "BLOCK_SIZE reads by alignment" (BLOCK_SIZE as the ticks, e.g.
# "4 KiB reads by alignment"; writes, or I/Os, when the tables say so),
# above what produced the tables: rebench writes it into the
# matrix beside each table (TABLE.matrix, about.gpi's lines), and what all
# the matrices share goes under the title, what is a table's own after its
# label.  Output: 1000x700, chosen by the output file's extension
# (terminal.gpi).
if (ARGC < 2) {
	print "usage: gnuplot -c alignment-drilldown.gp LIST OUT.png|.svg|.pdf|.jpg [BLOCK_SIZE] [TITLE]"
	exit status 1
}
list = ARG1
out = ARG2
me = "alignment-drilldown.gp"
gpdir = system("dirname '" . ARG0 . "'")

# One awk (scan.gpi) reads the list and every table (and the matrix
# beside it) and checks them in the order a reader would; it emits gnuplot
# assignments (strings in single quotes): err, the first refusal; or n,
# bs (the block size drawn), and per configuration i LBL[i] and a
# datablock $Ri of its rows of that block size, "stride<TAB>ops/s"; xs,
# the distinct strides of all, ascending ("s1 s2 .. "); ymax, the largest
# ops/s; averaged, 1 when a table has rows that share a stride; MA[i] and
# MD[i], the about and duration lines of the matrix beside table i ("" when
# there is none); mat1, that matrix of the first table, and rb_m_* and
# rb_meta_of, its lines for about.gpi.
$SCAN << EOD
function where(i) { return PTH[i] " (line " LN[i] " of " list ")" }
# the rows of workload 1 of table i ("w" 0: no workload column)
function wl1(i, j) { $0 = FL[i, j]; return j > 1 && NF && (!W[i] || $(W[i]) == 1) }
BEGIN {
	list = ARGV[1]
	P[1] = list
	readable(P, 1, R)
	if (!R[1]) fail("cannot read the list " list)
	# BLOCK_SIZE: bytes, or a number with a k or m suffix
	bsarg = ARGV[2]
	if (bsarg != "") {
		if (bsarg ~ /^[0-9]+[kKmM]?$/) { m = bsarg ~ /[kK]$/ ? 1024 : bsarg ~ /[mM]$/ ? 1048576 : 1; bs = sprintf("%d", bsarg * m) }
		else bs = ""
		if (bs == "" || bs == "0") fail("BLOCK_SIZE " bsarg " is not a size in bytes (like 512, 4096 or 4k)")
		bs += 0
	}
	# the configurations: blank lines and comments skipped, paths relative to LIST's directory
	FS = "\t"
	dir = dirname(list)
	while ((getline line < list) > 0) {
		nr++
		sub(/\r$/, "", line)
		if (line ~ /^[ \t]*(#|$)/) continue
		$0 = line
		l = $1; p = $2
		gsub(/^[ \t]+|[ \t]+$/, "", l); gsub(/^[ \t]+|[ \t]+$/, "", p)
		if (NF != 2 || l == "" || p == "") fail(list ": line " nr " is not LABEL<TAB>TABLE")
		if (p !~ /^\//) p = dir "/" p
		n++; LN[n] = nr; LBL[n] = l; PTH[n] = p
	}
	if (n < 1) fail(list " lists no tables (one line \"LABEL<TAB>TABLE\" per configuration is needed)")
	# every table: readable, with the three columns, with rows
	for (i = 1; i <= n; i++) { P[i] = PTH[i]; P[n + i] = PTH[i] ".matrix" }
	readable(P, 2 * n, R)
	for (i = 1; i <= n; i++) {
		if (!R[i]) fail("cannot read " where(i))
		slurp(i, PTH[i])
		h = FL[i, 1]; gsub(/\r/, "", h); gsub(/\t/, " ", h)
		B[i] = colof(h, "block-size"); S[i] = colof(h, "stride"); Y[i] = colof(h, "ops_per_s"); W[i] = colof(h, "workload")
		CL[i] = colof(h, "ops_ci_low"); CH[i] = colof(h, "ops_ci_high")
		# an offset sweep: x the offset, every row of the one block size
		if (!S[i] && colof(h, "offset")) { S[i] = colof(h, "offset"); XO[i] = 1 }
		if (i > 1 && XO[i] != XO[1]) fail(where(i) " sweeps " (XO[i] ? "the offset" : "the stride") " but the first table " (XO[1] ? "the offset" : "the stride") ": draw them apart")
		if (XO[i] && bs == "") fail(where(i) " sweeps the offset at one block size: give it as BLOCK_SIZE")
		if ((!B[i] && !XO[i]) || !S[i] || !Y[i]) \
			fail(where(i) " is not a rebench sweep table over block-size and stride, or over offset (no column " \
				(!B[i] && !XO[i] ? "block-size" : !S[i] ? "stride" : "ops_per_s") "; its columns are: " h ")")
		rows = 0
		for (j = 1; j <= FN[i]; j++) rows += wl1(i, j)
		if (rows < 1) fail(where(i) " has a header but no rows of workload 1")
	}
	# each table's block sizes, ascending; the block size, and each
	# table's rows of it
	for (i = 1; i <= n; i++) {
		split("", seen); k = 0
		for (j = 1; j <= FN[i]; j++) if (wl1(i, j) && B[i] && !(($(B[i]) + 0) in seen)) { seen[$(B[i]) + 0]; V[++k] = $(B[i]) + 0 }
		if (!B[i]) V[++k] = bs
		sort(V, k, "g")
		SIZES[i] = ""
		for (a = 1; a <= k; a++) SIZES[i] = SIZES[i] (a > 1 ? " " : "") V[a]
	}
	if (bs == "") { split(SIZES[1], V, " "); bs = int(V[1]) }
	for (i = 1; i <= n; i++) {
		NR_[i] = 0
		for (j = 1; j <= FN[i]; j++) if (wl1(i, j) && (!B[i] || $(B[i]) + 0 == bs)) {
			RX[i, ++NR_[i]] = $(S[i]); RY[i, NR_[i]] = $(Y[i])
			# the 95% interval of ops/s, "-" where there is none
			RL[i, NR_[i]] = CL[i] ? $(CL[i]) : "-"; RH[i, NR_[i]] = CH[i] ? $(CH[i]) : "-"
		}
		if (NR_[i] < 1) fail(where(i) " has no rows with block-size " bs "; its block sizes are: " SIZES[i])
		for (j = 1; j <= NR_[i]; j++) if (RX[i, j] !~ /^[0-9]+$/ || RY[i, j] !~ /^[-+]?[0-9]+[.]?[0-9]*([eE][-+]?[0-9]+)?$/) \
			fail(where(i) ": block-size " bs ": line with stride " RX[i, j] " and ops_per_s " RY[i, j] " is not numeric")
	}
	print "n = " n
	print "bs = " bs
	print "xoff = " (XO[1] ? 1 : 0)
	print "array LBL[n]"
	print "array MA[n]"
	print "array MD[n]"
	# averaged points?  (then no intervals: a mean of intervals is none)
	averaged = 0
	for (i = 1; i <= n; i++) {
		split("", c)
		for (j = 1; j <= NR_[i]; j++) if (++c[RX[i, j]] > 1) averaged = 1
	}
	# the noise, as sweep_noise.c judges a matrix's cells: each point's
	# relative standard error from its 95% interval; the best point of
	# all (the highest ops/s); a point is within noise of it when
	# |ln(v / best)| <= 1.96 sqrt(se^2 + se_best^2); the noise is the
	# median half-width, in % of the value
	z = 1.959963984540054; nb = 0; nk = 0
	for (i = 1; i <= n; i++) for (j = 1; j <= NR_[i]; j++) {
		v = RY[i, j] + 0; lo = RL[i, j]; hi = RH[i, j]
		SE[i, j] = (!averaged && v > 0 && lo ~ /^[-+.0-9eE]+$/ && hi ~ /^[-+.0-9eE]+$/ && hi + 0 >= lo + 0) ? (hi - lo) / (2 * z * v) : -1
		if (SE[i, j] >= 0) HW[++nk] = 100 * (hi - lo) / 2 / v
		if (!nb || v > bv) { nb = 1; bi = i; bj = j; bv = v }
	}
	sort(HW, nk, "g")
	med = nk ? (nk % 2 ? HW[(nk + 1) / 2] : (HW[nk / 2] + HW[nk / 2 + 1]) / 2) : -1
	ntied = 0
	for (i = 1; i <= n; i++) for (j = 1; j <= NR_[i]; j++) {
		MK[i, j] = (i == bi && j == bj) ? "best" : "-"
		if (MK[i, j] == "-" && SE[i, j] >= 0 && SE[bi, bj] >= 0 && RY[i, j] > 0 && \
		    (log(RY[i, j] / bv) < 0 ? -log(RY[i, j] / bv) : log(RY[i, j] / bv)) <= z * sqrt(SE[i, j] ^ 2 + SE[bi, bj] ^ 2)) { MK[i, j] = "tied"; ntied++ }
	}
	printf "noisepct = %.10g\n", med
	print "nnoise = " nk
	print "ntied = " ntied
	print "hasci = " (nk > 0 ? 1 : 0)
	# the distinct strides, ascending; y max (the intervals' tops too);
	# each configuration's rows "x<TAB>ops/s<TAB>low<TAB>high<TAB>mark"
	split("", seen); k = 0; ymax = 0
	for (i = 1; i <= n; i++) {
		gp("LBL[" i "]", LBL[i])
		print "$R" i " << EOD"
		for (j = 1; j <= NR_[i]; j++) {
			print RX[i, j] "\t" RY[i, j] "\t" (SE[i, j] >= 0 ? RL[i, j] "\t" RH[i, j] : "-\t-") "\t" MK[i, j]
			if (!((RX[i, j] + 0) in seen)) { seen[RX[i, j] + 0]; V[++k] = RX[i, j] }
			if (RY[i, j] + 0 > ymax) ymax = RY[i, j] + 0
			if (SE[i, j] >= 0 && RH[i, j] + 0 > ymax) ymax = RH[i, j] + 0
		}
		print "EOD"
	}
	# the marks of all configurations in one block: "x<TAB>ops/s<TAB>kind"
	print "$MARKS << EOD"
	for (i = 1; i <= n; i++) for (j = 1; j <= NR_[i]; j++) if (MK[i, j] != "-") print RX[i, j] "\t" RY[i, j] "\t" MK[i, j]
	print "EOD"
	sort(V, k, "g")
	xs = ""
	for (a = 1; a <= k; a++) xs = xs V[a] " "
	gp("xs", xs)
	printf "ymax = %.10g\n", ymax
	print "averaged = " averaged
	# what produced the tables: the matrices rebench wrote beside them
	for (i = 1; i <= n; i++) {
		if (R[n + i]) slurp("m" i, PTH[i] ".matrix")
		gp("MA[" i "]", hdr("m" i, "about")); gp("MD[" i "]", hdr("m" i, "duration"))
	}
	gp("mat1", R[n + 1] ? PTH[1] ".matrix" : "")
	about("m1", R[n + 1] ? PTH[1] ".matrix" : "")
}
EOD
scan_bs = (ARGC >= 3) ? ARG3 : ""
array SCAN_ARGS = [list, scan_bs]
load gpdir . "/scan.gpi"
nx = words(xs)
rows(i) = sprintf("$R%d", i)

meta_file = mat1
load gpdir . "/about.gpi"
array OWN[n]
same_about = 1
same_duration = 1
# without matrices (an offset sweep has one axis, no matrix) the settings
# are rb_about and rb_duration given with -e, the same for all
if (mat1 ne "") do for [i = 2:n] {
	same_about = same_about && (MA[i] eq rb_about)
	same_duration = same_duration && (MD[i] eq rb_duration)
}
# the targets are the configurations: the labels name them
subtitle = rb_join(same_about ? rb_about : "", ", ", same_duration ? rb_duration : "")
do for [i = 1:n] {
	OWN[i] = rb_join(same_about ? "" : MA[i], ", ", same_duration ? "" : MD[i])
}
op = (same_about && rb_about ne "") ? rb_about[1:strstrt(rb_about . ",", ",") - 1] : "read"
ops = (op eq "read") ? "reads" : (op eq "write") ? "writes" : "I/Os"

W = 1000
H = 700
load gpdir . "/terminal.gpi"
set datafile separator "\t"

# y from 0, round ticks with a k/M prefix and just enough digits
raw = (ymax > 0 ? ymax : 1) / 6.0
p10 = 10.0 ** floor(log10(raw))
step = (raw / p10 < 1.5) ? p10 : (raw / p10 < 3.5) ? 2 * p10 : (raw / p10 < 7.5) ? 5 * p10 : 10 * p10
pexp = (ymax >= 1000) ? 3 * floor(log10(ymax) / 3) : 0
dec = (step / 10.0 ** pexp >= 1) ? 0 : int(ceil(-log10(step / 10.0 ** pexp) - 1e-9))
unitp = (pexp > 0) ? word("k M G T P E", int(pexp / 3)) : ""
numfmt = sprintf("%%.%df", dec)
ticklabel(v) = (abs(v) < step * 1e-6) ? "0" : sprintf(numfmt, v / 10.0 ** pexp) . unitp
ytop = ceil(ymax / step - 1e-6) * step
ytop = (ytop > 0) ? ytop : step
set yrange [0:ytop]
set ytics ()
do for [k = 0:int(ytop / step + 1e-6)] { set ytics add (ticklabel(k * step) k * step) }

# x: log2 when the strides are one geometric sequence, else linear; a tick
# at every stride, as 512 B, 4 KiB, 3584 B (about.gpi's iec())
x0 = real(word(xs, 1))
x1 = real(word(xs, nx))
logx = (nx >= 3 && x0 > 0)
if (logx) {
	ratio = real(word(xs, 2)) / x0
	do for [j = 2:nx] { r = real(word(xs, j)) / real(word(xs, j - 1)); if (ratio < 1.5 || abs(r - ratio) > ratio * 1e-6) { logx = 0 } }
}
if (logx) {
	set logscale x 2
	set xrange [x0 / 1.25:x1 * 1.25]
} else {
	pad = (x1 > x0) ? (x1 - x0) * 0.04 : (x0 != 0 ? abs(x0) * 0.1 : 1)
	set xrange [x0 - pad:x1 + pad]
}
# (a label only where it has room after the previous one)
tpos(j) = logx ? log(real(word(xs, j))) : real(word(xs, j))
set xtics ()
room = (nx > 1) ? (tpos(nx) - tpos(1)) / 18.0 : 0
last = -1
do for [j = 1:nx] {
	if (last < 0 || tpos(j) - tpos(last) >= room) {
		eval(sprintf("set xtics add (\"%s\" %s)", iec(real(word(xs, j))), word(xs, j)))
		last = j
	}
}

# colour-blind safe colours (Paul Tol), a different point shape per line
array C[8] = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#555555", "#ee8866"]
array P[8] = [7, 5, 9, 13, 11, 15, 6, 4]
# sizes in titles as on the ticks (about.gpi's iec()): 512 B, 4 KiB, 1536 B
deftitle = sprintf("%s %s by %s", iec(bs), ops, xoff ? "offset" : "alignment") . (averaged ? ", mean over the other parameters" : "")
# the noise line: the median half-width of the points' 95% intervals, and
# how many points are within noise of the best
noisetitle = hasci ? sprintf("noise +-%.1f%% (median 95%% half-width, %d points; bars: 95%% intervals); %d within noise of the best", \
	noisepct, nnoise, ntied) : \
	averaged ? "noise not shown: points are means over the other parameters" : "noise unknown (the tables have no ops_ci_low and ops_ci_high)"
set title rb_join(rb_join((ARGC >= 4 && ARG4 ne "") ? ARG4 : deftitle, "\n", subtitle), "\n", noisetitle) noenhanced
set xlabel (xoff ? "offset from the target's start" : "alignment (stride)") noenhanced
set ylabel "ops/s"
set grid xtics ytics lt 1 lw 1 lc rgb "#dddddd"
set border 3
set tics nomirror
# at the right, clear of the title and of the lines
set key outside right top vertical Left reverse noenhanced samplen 2 spacing 1.3
set datafile missing "-"
# each configuration: its line, its points' 95% intervals as error bars;
# then the best point of all and those within noise of it, ringed
pt_of(i) = P[(i - 1 + (i - 1) / 8) % 8 + 1]
if (averaged || !hasci) {
	plot for [i = 1:n] rows(i) using 1:2 smooth unique \
		with linespoints lw 2 pt pt_of(i) ps 1.2 lc rgb C[(i - 1) % 8 + 1] title rb_join(LBL[i], ", ", OWN[i])
} else {
	tied = (ntied > 0) ? ", $MARKS using 1:(strcol(3) eq \"tied\" ? $2 : NaN) with points pt 6 ps 2.4 lw 1.5 lc rgb \"#d62728\" title \"within noise of the best (95%)\"" : ""
	eval("plot for [i = 1:n] rows(i) using 1:2 with lines lw 2 lc rgb C[(i - 1) % 8 + 1] notitle, " . \
	     "for [i = 1:n] rows(i) using 1:2:3:4 with yerrorbars lw 1.2 pt pt_of(i) ps 1.2 lc rgb C[(i - 1) % 8 + 1] title rb_join(LBL[i], \", \", OWN[i]), " . \
	     "$MARKS using 1:(strcol(3) eq \"best\" ? $2 : NaN) with points pt 3 ps 2.6 lw 2 lc rgb \"#d62728\" title \"best (highest ops/s)\"" . tied)
}
