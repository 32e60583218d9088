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
# ops_per_s, found by name.  Only the rows of workload 1 (when there is a
# workload column) whose block-size is BLOCK_SIZE are drawn: x = stride,
# y = ops/s; rows that share a stride (a third swept parameter) are
# averaged.  BLOCK_SIZE is bytes, with an optional k or m suffix (1024,
# 1048576), or "" for the default: the smallest block-size of the first
# table.  The legend shows LABEL.  x is linear, or log2 when the strides of
# all tables form one geometric sequence (512, 1k, 2k ..); a tick at every
# stride (512, 1k, 2k .. when every stride is below 1k or a multiple of
# 1k).  y starts at 0.  The legend is at the right of the plot.  The title
# is TITLE, or "BLOCK_SIZE-byte reads by alignment" (BLOCK_SIZE in bytes,
# e.g. "4096-byte reads by alignment"; writes, or I/Os, when the tables
# say so), above what produced the tables: rebench writes it into the
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
q(s) = "'" . s . "'"
gpdir = system("dirname " . q(ARG0))
readable(f) = (system("test -f " . q(f) . " && test -r " . q(f) . " && echo yes") eq "yes")
if (!readable(list)) {
	print sprintf("%s: cannot read the list %s", me, list)
	exit status 1
}
# BLOCK_SIZE: bytes, or a number with a k or m suffix
bsarg = (ARGC >= 3) ? ARG3 : ""
if (bsarg ne "") {
	bsarg = system("printf '%s\n' " . q(bsarg) . " | awk '/^[0-9]+[kKmM]?$/ { m = /[kK]$/ ? 1024 : /[mM]$/ ? 1048576 : 1; printf \"%d\", $0 * m; exit }'")
	if (bsarg eq "" || bsarg eq "0") {
		print sprintf("%s: BLOCK_SIZE %s is not a size in bytes (like 512, 4096 or 4k)", me, ARG3)
		exit status 1
	}
}

# The configurations: "LINE<TAB>LABEL<TAB>PATH" each, paths resolved
# against LIST's directory; or one line "error: WHY" for the first bad line.
listdir = system("dirname " . q(list))
entries = "awk -F '\t' -v dir=" . q(listdir) . " '{ sub(/\r$/, \"\") } /^[ \t]*(#|$)/ { next } \
	{ l = $1; p = $2; gsub(/^[ \t]+|[ \t]+$/, \"\", l); gsub(/^[ \t]+|[ \t]+$/, \"\", p); \
	  if (NF != 2 || l == \"\" || p == \"\") { print \"error: line \" NR \" is not LABEL<TAB>TABLE\"; exit } \
	  if (p !~ /^\\//) p = dir \"/\" p; print NR \"\t\" l \"\t\" p }' " . q(list)
bad = system(entries . " | grep '^error: ' | sed 's/^error: //'")
if (bad ne "") {
	print sprintf("%s: %s: %s", me, list, bad)
	exit status 1
}
n = int(system(entries . " | wc -l"))
if (n < 1) {
	print sprintf("%s: %s lists no tables (one line \"LABEL<TAB>TABLE\" per configuration is needed)", me, list)
	exit status 1
}
field(i, f) = system(sprintf("%s | awk -F '\t' 'NR == %d { print $%d }'", entries, i, f))
array LN[n]
array LBL[n]
array PTH[n]
array COLS[n]
do for [i = 1:n] {
	LN[i] = field(i, 1)
	LBL[i] = field(i, 2)
	PTH[i] = field(i, 3)
}

# Every table: readable, with the three columns, with rows.  COLS[i] is
# "-v b=N -v s=N -v y=N -v w=N" (w = 0: no workload column) for awk.
where(i) = sprintf("%s (line %s of %s)", PTH[i], LN[i], list)
colof(h, name) = sum [j = 1:words(h)] (word(h, j) eq name ? j : 0)
do for [i = 1:n] {
	f = PTH[i]
	if (!readable(f)) {
		print sprintf("%s: cannot read %s", me, where(i))
		exit status 1
	}
	header = system("head -n 1 " . q(f) . " | tr -d '\r' | tr '\t' ' '")
	if (colof(header, "block-size") == 0 || colof(header, "stride") == 0 || colof(header, "ops_per_s") == 0) {
		print sprintf("%s: %s is not a rebench sweep table over block-size and stride (no column %s; its columns are: %s)", me, where(i), \
			colof(header, "block-size") == 0 ? "block-size" : colof(header, "stride") == 0 ? "stride" : "ops_per_s", header)
		exit status 1
	}
	COLS[i] = sprintf("-v b=%d -v s=%d -v y=%d -v w=%d", colof(header, "block-size"), colof(header, "stride"), \
		colof(header, "ops_per_s"), colof(header, "workload"))
	nrows = int(system(sprintf("awk -F '\t' %s 'NR > 1 && NF && (!w || $w == 1)' %s | wc -l", COLS[i], q(f))))
	if (nrows < 1) {
		print sprintf("%s: %s has a header but no rows of workload 1", me, where(i))
		exit status 1
	}
}

# The block size, and each table's rows of it: "stride<TAB>ops/s".
sizes(i) = system(sprintf("awk -F '\t' %s 'NR > 1 && NF && (!w || $w == 1) { print $b + 0 }' %s | sort -n -u | tr '\n' ' ' | sed 's/ $//'", COLS[i], q(PTH[i])))
bs = (bsarg ne "") ? int(bsarg) : int(word(sizes(1), 1))
rows(i) = sprintf("< awk -F '\t' %s -v bs=%d 'NR > 1 && NF && (!w || $w == 1) && $b + 0 == bs { print $s \"\t\" $y }' %s", COLS[i], bs, q(PTH[i]))
do for [i = 1:n] {
	if (int(system(rows(i)[3:] . " | wc -l")) < 1) {
		print sprintf("%s: %s has no rows with block-size %d; its block sizes are: %s", me, where(i), bs, sizes(i))
		exit status 1
	}
	bad = system(rows(i)[3:] . " | awk -F '\t' '$1 !~ /^[0-9]+$/ || $2 !~ /^[-+]?[0-9]+[.]?[0-9]*([eE][-+]?[0-9]+)?$/ { print \"line with stride \" $1 \" and ops_per_s \" $2 \" is not numeric\"; exit }'")
	if (bad ne "") {
		print sprintf("%s: %s: block-size %d: %s", me, where(i), bs, bad)
		exit status 1
	}
}
allrows = ""
do for [i = 1:n] { allrows = allrows . rows(i)[3:] . "; " }
# distinct strides of all tables, ascending; y max; averaged points?
xs = system("{ " . allrows . "} | cut -f 1 | sort -n -u | tr '\n' ' '")
nx = words(xs)
ymax = real(system("{ " . allrows . "} | awk -F '\t' '$2 + 0 > m { m = $2 + 0 } END { printf \"%.10g\", m }'"))
averaged = 0
do for [i = 1:n] {
	averaged = averaged || int(system(rows(i)[3:] . " | awk '++c[$1] > 1 { a = 1 } END { print a + 0 }'"))
}

# What produced the tables: the matrices rebench wrote beside them.
mat(i) = readable(PTH[i] . ".matrix") ? PTH[i] . ".matrix" : ""
meta(i, key) = (mat(i) eq "") ? "" : \
	system(sprintf("sed -n 's/^#[ \t]*%s:[ \t]*//p' %s | head -n 1 | tr -d '\r'", key, q(mat(i))))
meta_file = mat(1)
load gpdir . "/about.gpi"
array OWN[n]
same_about = 1
same_duration = 1
do for [i = 2:n] {
	same_about = same_about && (meta(i, "about") eq rb_about)
	same_duration = same_duration && (meta(i, "duration") eq rb_duration)
}
# the targets are the configurations: the labels name them
subtitle = rb_join(same_about ? rb_about : "", ", ", same_duration ? rb_duration : "")
do for [i = 1:n] {
	OWN[i] = rb_join(same_about ? "" : meta(i, "about"), ", ", same_duration ? "" : meta(i, "duration"))
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
# at every stride, as 512, 1k, 2k .. when every stride allows
ksize(v) = (v >= 1048576 && v % 1048576 == 0) ? sprintf("%dM", v / 1048576) : \
	   (v >= 1024 && v % 1024 == 0) ? sprintf("%dk", v / 1024) : sprintf("%d", v)
xk = 1
do for [j = 1:nx] { v = int(real(word(xs, j))); if (v >= 1024 && v % 1024 != 0) { xk = 0 } }
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
		eval(sprintf("set xtics add (\"%s\" %s)", xk ? ksize(int(real(word(xs, j)))) : word(xs, j), word(xs, j)))
		last = j
	}
}

# colour-blind safe colours (Paul Tol), a different point shape per line
array C[8] = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#555555", "#ee8866"]
array P[8] = [7, 5, 9, 13, 11, 15, 6, 4]
deftitle = sprintf("%d-byte %s by alignment", bs, ops) . (averaged ? ", mean over the other parameters" : "")
set title rb_join((ARGC >= 4 && ARG4 ne "") ? ARG4 : deftitle, "\n", subtitle) noenhanced
set xlabel "alignment (stride, bytes)" noenhanced
set ylabel "ops/s"
set grid xtics ytics lt 1 lw 1 lc rgb "#dddddd"
set border 3
set tics nomirror
# at the right, clear of the title and of the lines
set key outside right top vertical Left reverse noenhanced samplen 2 spacing 1.3
plot for [i = 1:n] rows(i) using 1:2 smooth unique \
	with linespoints lw 2 pt P[(i - 1 + (i - 1) / 8) % 8 + 1] ps 1.2 lc rgb C[(i - 1) % 8 + 1] title rb_join(LBL[i], ", ", OWN[i])
