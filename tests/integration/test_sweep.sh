#!/usr/bin/env bash
# test_sweep.sh - sweeps on a loop device: the table (header, one row per
# point in order, values), the gnuplot matrix, the table on stdout, the -n
# lines and the --json document of a sweep, exact I/O counts with
# amount-limited points, stdin mode (lines swept together; ranges on a line
# refused), lists of names, every refusal before anything runs (device
# unchanged even with -o write --yes), one confirmation for a whole write
# sweep, the progress line on a terminal, --plot (heatmap, lines, time
# series; a missing gnuplot gives status 4 and keeps the data), and every
# script in plots/ rendered by gnuplot from real data to PNG (size checked)
# and SVG.  The PNGs stay in $SWEEP_PNG_DIR when it is set, to look at.
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq python3 script setsid dd cksum

PLOTS=$TESTS_ROOT/plots
# the binary under test is a copy in the scratch dir: point it at the
# scripts of this tree
export REBENCH_PLOTS=$PLOTS
HAVE_GNUPLOT=
command -v gnuplot >/dev/null 2>&1 && HAVE_GNUPLOT=1

DEV=$(make_loop 64M)
S=$SCRATCH
HEADER_TAIL="workload	target	ops_per_s	mib_per_s	lat_min_us	lat_avg_us	lat_p50_us	lat_p90_us	lat_p99_us	lat_p999_us	lat_max_us	ios	status	durability	device_reads	device_reads_per_request	ops_ci_low	ops_ci_high	ops_ci_pct	precision	seconds	cpu_us_io"

# ---------------------------------------------------------------- helpers

# stderr without the too-few-I/Os warning of short points (and its count)
few_ios_filtered() {
	<<<"$RB_ERR" grep -v -e '^rebench: warning: only [0-9]* I/Os: ' \
		-e '^rebench: warning: so did [0-9]* more workload runs of this sweep' \
		-e '^rebench: warning: the run took [0-9.]* s, not the [0-9.]* s asked' |
		grep -v '^$'
}


have_script() { [ -f "$PLOTS/$1" ]; }

# rows FILE: the data rows of a table (header dropped).
rows() { tail -n +2 "$1"; }

# col FILE NAME: the values of column NAME of a table, one a line.
col() {
	awk -F '\t' -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
		c { print $c }' "$1"
}

# gp SCRIPT ARGS...: run a plot script, output in GP_OUT / GP_RC.
gp() {
	local script=$1
	shift
	GP_OUT=$(cd "$S" && timeout -k 5 60 gnuplot -c "$PLOTS/$script" "$@" 2>&1 </dev/null)
	GP_RC=$?
}

# ================================================================ (a) table
section "two numeric axes: table and matrix"
T=$S/align.tsv
rb -b 512..2k/512 -s 512..1k/512 -d 100ms --seed 7 --output "$T" "$DEV"
assert_rc 0 "-b 512..2k/512 -s 512..1k/512 exits 0"
# the table on stdout too (issue 27: a sweep with --output printed
# nothing), the same bytes as the file
assert_eq "$(<"$T")" "$RB_OUT" "with --output the table is on stdout too, as in the file"
assert_eq 9 "$(<<<"$RB_OUT" grep -c .)" "stdout: the header and 8 points"
# 100 ms points are too short for stable tail percentiles, but the table
# leaves that warning out (only -n, --json and --precision say it)
assert_eq "" "$(few_ios_filtered)" "nothing else on stderr (no terminal: no progress line)"
assert_eq 0 "$(<<<"$RB_ERR" grep -c '^rebench: warning: only [0-9]* I/Os: \|so did')" \
	"the table: no too-few-I/Os warning"
# with -n it is said for the first such point and the rest counted: 8
# points of 1 MiB have at most 2048 I/Os each
rb -n -b 512..2k/512 -s 512..1k/512 -d 1mib --seed 7 "$DEV"
assert_rc 0 "-n sweep of 8 points of -d 1mib exits 0"
assert_eq "1 7" "$(<<<"$RB_ERR" grep -c '^rebench: warning: only [0-9]* I/Os: ') $(<<<"$RB_ERR" sed -n 's/^rebench: warning: so did \([0-9]*\) more workload runs of this sweep.*/\1/p')" \
	"-n: the too-few-I/Os warning once, the 7 others counted"
assert_eq "block-size	stride	$HEADER_TAIL" "$(head -n 1 "$T")" \
	"header: block-size, stride, then the metrics"
assert_eq 8 "$(rows "$T" | grep -c .)" "4 x 2 = 8 data rows"
assert_eq "512 512,512 1024,1024 512,1024 1024,1536 512,1536 1024,2048 512,2048 1024" \
	"$(rows "$T" | awk -F '\t' '{ printf "%s%s %s", (NR > 1 ? "," : ""), $1, $2 }')" \
	"rows in sweep order, block size slowest"
assert_eq 24 "$(rows "$T" | awk -F '\t' '{ print NF }' | sort -u | tr -d '\n')" \
	"every row has 24 tab-separated fields"
assert_eq "1" "$(col "$T" workload | sort -u | tr -d '\n')" "workload is 1 on every row"
assert_eq "$DEV" "$(col "$T" target | sort -u | tr -d '\n')" "target is the device on every row"
assert_eq "complete" "$(col "$T" status | sort -u | tr -d '\n')" "status complete on every row"
bad=$(rows "$T" | awk -F '\t' '$14 + 0 <= 0 || $14 !~ /^[0-9]+$/ || $5 + 0 <= 0 { print NR ": " $0 }')
assert_eq "" "$bad" "ios > 0 and ops_per_s > 0 on every row"
bad=$(rows "$T" | awk -F '\t' '{ want = $5 * $1 / 1048576
	if ((($6 - want) ^ 2) > (want * 0.001 + 0.0001) ^ 2) print NR ": mib_per_s " $6 ", ops_per_s * bs / 2^20 " want }')
assert_eq "" "$bad" "mib_per_s = ops_per_s x block size / 2^20 on every row"
bad=$(rows "$T" | awk -F '\t' '!($7 <= $9 && $9 <= $10 && $10 <= $11 && $11 <= $12 && $12 <= $13 && $7 <= $8 && $8 <= $13) { print NR ": " $0 }')
assert_eq "" "$bad" "latency: min <= p50 <= p90 <= p99 <= p99.9 <= max, min <= avg <= max"

M=$T.matrix
if [ -f "$M" ]; then
	pass "the matrix $T.matrix exists"
	assert_eq "# rebench sweep matrix
# rows: block-size
# columns: stride
# values: ops_per_s" "$(head -n 4 "$M")" "matrix: the 4 comment lines"
	# (then what produced it, as comment lines: test_plots.sh checks them)
	assert_eq "2 512 1024" "$(grep -v '^#' "$M" | head -n 1)" "matrix: first data row is the column count and values"
	assert_eq 5 "$(grep -v '^#' "$M" | grep -c .)" "matrix: 1 + 4 rows after the comments"
	assert_eq "512 1024 1536 2048" "$(tail -n 4 "$M" | awk '{ print $1 }' | tr '\n' ' ' | sed 's/ $//')" \
		"matrix: rows start with 512, 1024, 1536, 2048"
	want=$(rows "$T" | awk -F '\t' '{ v[$1] = v[$1] " " $5 } END { for (b = 512; b <= 2048; b += 512) print b v[b] }')
	assert_eq "$want" "$(tail -n 4 "$M")" "matrix: the values are the table's ops_per_s of workload 1"
else
	check_failed "the matrix $T.matrix exists"
fi

# ================================================================ (b) stdout
section "table on stdout"
rb -b 512,1k -s 512,1k -d 100ms "$DEV"
assert_rc 0 "without --output exits 0"
assert_eq "block-size	stride	$HEADER_TAIL" "$(<<<"$RB_OUT" head -n 1)" \
	"the table's header is on stdout"
assert_eq "512 512,512 1024,1024 512,1024 1024" \
	"$(<<<"$RB_OUT" tail -n +2 | awk -F '\t' '{ printf "%s%s %s", (NR > 1 ? "," : ""), $1, $2 }')" \
	"stdout: 4 rows in order, list values in bytes (1k is 1024)"
assert_eq "" "$(few_ios_filtered)" "stdout table: nothing else on stderr"

# ================================================================ (c) -n, --json
section "-n lines and --json"
rb -n -b 512,1k -g 100,200 -d 100ms --seed 11 "$DEV"
assert_rc 0 "-n sweep exits 0"
assert_eq 4 "$(<<<"$RB_OUT" awk '$1 == "device"' | wc -l)" "-n: a device line per point"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_eq 4 "$(<<<"$RB_OUT" grep -c .)" "-n: one line per point (2 x 2)"
assert_eq "$((TF + 2))" "$(<<<"$RB_OUT" awk '{ print NF }' | sort -u | tr -d '\n')" \
	"-n: every line has $TF + 2 fields"
assert_eq "512 100,512 200,1024 100,1024 200" \
	"$(<<<"$RB_OUT" awk -v a=$((TF + 1)) '{ printf "%s%s %s", (NR > 1 ? "," : ""), $a, $(a + 1) }')" \
	"-n: fields $((TF + 1)) and $((TF + 2)) are the swept values in order (times in ms)"
assert_eq "11" "$(<<<"$RB_OUT" awk '{ print $17 }' | sort -u | tr -d '\n')" \
	"-n: every point uses the same seed (field 17)"
assert_eq "" "$(<<<"$RB_OUT" grep -F 'ops_per_s')" "-n: no table on stdout"
T2=$S/terse.tsv
rb -n -b 512,1k -d 100ms --output "$T2" "$DEV"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_eq 2 "$(<<<"$RB_OUT" grep -c .)" "-n --output: the -n lines on stdout"
assert_eq 3 "$(grep -c . "$T2" 2>/dev/null)" "-n --output: the table in the file"
assert_eq "" "$(<<<"$RB_OUT" grep -F 'ops_per_s')" "-n --output: no table on stdout"
rb --json -b 512,1k -d 100ms --output "$S/json.tsv" "$DEV"
assert_eq "2 2" "$(jqr '"\(.sweep.points) \(.sweep.runs | length)"')" "--json --output: stdout is the JSON document alone"
assert_eq 3 "$(grep -c . "$S/json.tsv" 2>/dev/null)" "--json --output: the table in the file"

rb --json -b 512,1k -u uniform,pow -d 100ms "$DEV"
assert_rc 0 "--json sweep exits 0"
if <<<"$RB_OUT" jq -e . >/dev/null 2>&1; then
	pass "--json: stdout is one valid JSON document"
	assert_eq '["block-size","dist"]' "$(jqr '.sweep.parameters | tojson')" ".sweep.parameters"
	assert_eq 4 "$(jqr '.sweep.points')" ".sweep.points is 4"
	assert_eq 4 "$(jqr '.sweep.runs | length')" ".sweep.points == number of runs"
	assert_eq "1 2 3 4" "$(jqr '[.sweep.runs[].point] | map(tostring) | join(" ")')" "runs numbered 1..4"
	assert_eq '{"block-size":512,"dist":"uniform"}|{"block-size":512,"dist":"pow"}|{"block-size":1024,"dist":"uniform"}|{"block-size":1024,"dist":"pow"}' \
		"$(jqr '[.sweep.runs[].values | tojson] | join("|")')" \
		"values in order: numbers for sizes, strings for names"
	assert_eq true "$(jqr '[.sweep.runs[] | .workloads[0].results.ops_per_s > 0] | all')" \
		"every run has workloads[0].results.ops_per_s > 0"
	assert_eq true "$(jqr '[.sweep.runs[] | .interrupted == false] | all')" "no run interrupted"
	assert_eq true "$(jqr '[.sweep.runs[] | .workloads[0].parameters.block_size == .values["block-size"] and .workloads[0].parameters.dist == .values.dist] | all')" \
		"each run's workload ran with the point's block size and dist"
	assert_eq "" "$(jqr '.workloads // empty')" "no top-level workloads outside the sweep"
else
	check_failed "--json: stdout is one valid JSON document" "$(<<<"$RB_OUT" head -n 5)"
fi

# ================================================================ (d) amounts
section "amount-limited points"
# (a bare -d number is seconds: 400k is 409600 bytes)
rb -b 4k,8k -d 400k --output "$S/amount.tsv" "$DEV"
assert_rc 0 "-b 4k,8k -d 400k exits 0"
assert_eq "4096 100,8192 50" \
	"$(rows "$S/amount.tsv" | awk -F '\t' '{ printf "%s%s %s", (NR > 1 ? "," : ""), $1, $13 }')" \
	"409600 bytes: exactly 100 I/Os of 4k and 50 of 8k"
assert_eq "complete" "$(col "$S/amount.tsv" status | sort -u | tr -d '\n')" "both complete"

# ================================================================ (e) stdin
section "stdin mode"
printf '%s\n' "-b 64k $DEV" "-w seq $DEV" >"$S/lines"
rb -b 4k,8k -d 100ms <"$S/lines"
assert_rc 0 "two stdin lines, -b 4k,8k: exits 0"
assert_eq "4096 1,4096 2,8192 1,8192 2" \
	"$(<<<"$RB_OUT" tail -n +2 | awk -F '\t' '{ printf "%s%s %s", (NR > 1 ? "," : ""), $1, $2 }')" \
	"2 points x 2 workloads = 4 rows, workloads in line order"
rb --json -b 4k,8k -d 100ms <"$S/lines"
assert_eq "4096 4096 8192 8192" \
	"$(jqr '[.sweep.runs[].workloads[].parameters.block_size] | map(tostring) | join(" ")')" \
	"the swept block size replaces a line's own -b 64k"
assert_eq "rnd seq rnd seq" \
	"$(jqr '[.sweep.runs[].workloads[].parameters.workload] | join(" ")')" \
	"each line keeps its own other options"
printf '%s\n' "-b 4k $DEV" "-b 4k,8k $DEV" >"$S/badlines"
rb -d 100ms <"$S/badlines"
assert_rc 1 "a list on a stdin line: exit 1"
assert_match 'stdin line 2: .*4k,8k.*command line' "$RB_ERR" "the refusal names stdin line 2"
assert_eq "" "$RB_OUT" "nothing ran"
printf '%s\n' "-s 512..4k/512 $DEV" >"$S/badlines"
rb -d 100ms <"$S/badlines"
assert_rc 1 "a range on a stdin line: exit 1"
assert_match 'stdin line 1: ' "$RB_ERR" "the refusal names stdin line 1"

# ================================================================ (f) lists
section "lists of names"
rb -u uniform,pow -d 100ms --output "$S/dist.tsv" "$DEV"
assert_rc 0 "-u uniform,pow exits 0"
assert_eq "dist	$HEADER_TAIL" "$(head -n 1 "$S/dist.tsv")" "header starts with dist"
assert_eq "uniform pow" "$(col "$S/dist.tsv" dist | tr '\n' ' ' | sed 's/ $//')" "rows uniform, pow"
assert_eq "no" "$([ -e "$S/dist.tsv.matrix" ] && echo yes || echo no)" \
	"no matrix without two numeric axes"
if "$REBENCH" --engines 2>/dev/null | grep -q '^naio'; then
	rb -t stateless,naio -u uniform,pow -d 100ms --output "$S/eng.tsv" "$DEV"
	assert_rc 0 "-t stateless,naio -u uniform,pow exits 0"
	assert_eq "stateless uniform,stateless pow,naio uniform,naio pow" \
		"$(rows "$S/eng.tsv" | awk -F '\t' '{ printf "%s%s %s", (NR > 1 ? "," : ""), $1, $2 }')" \
		"4 rows: type slowest, then dist"
	assert_eq "complete" "$(col "$S/eng.tsv" status | sort -u | tr -d '\n')" "every point complete"
else
	log "naio is not in this build: -t stateless,naio not checked"
	rb -t stateless,stateful -d 100ms --output "$S/eng.tsv" "$DEV"
	assert_rc 0 "-t stateless,stateful exits 0"
	assert_eq "stateless stateful" "$(col "$S/eng.tsv" type | tr '\n' ' ' | sed 's/ $//')" "rows stateless, stateful"
fi

# ================================================================ (g) refusals
section "refusals before anything runs"
SUM=$(dev_sum "$DEV")
# refuse CASE WHAT ERE ARGS...: exit 1, message matching ERE, no stdout
refuse() {
	assert_refused "$@"
	assert_eq "" "$RB_OUT" "$1: nothing on stdout (no table, nothing ran)"
}
W="-o write --yes -d 100ms"
refuse "empty range 4k..512/512" "empty range" -b 4k..512/512 $W "$DEV"
refuse "step 0" "step must be positive" -b 512..4k/0 $W "$DEV"
refuse "factor 1" "factor must be greater than 1" -b 512..4k*1 $W "$DEV"
refuse "factor 0.5" "factor must be greater than 1" -b 512..4k*0.5 $W "$DEV"
refuse "geometric from 0" "must start above 0" -s 0..4k*2 $W "$DEV"
refuse "missing step" "needs a step" -b 512..4k $W "$DEV"
refuse "bad end" "ends of the range are not valid" -b 512..4x/512 $W "$DEV"
refuse "range on -o" "ranges take sizes.*give a list" -o read..write/1 --yes -d 100ms "$DEV"
refuse "range on --seed" "--seed.*takes one value" --seed 1..5/1 $W "$DEV"
refuse "list on --seed" "--seed.*takes one value" --seed 1,2 $W "$DEV"
refuse "list with an empty element" "empty element" -b 512,,1k $W "$DEV"
refuse "bad point -u uniform,bogus" "sweep point that fails is --dist bogus" -u uniform,bogus $W "$DEV"
assert_match "'bogus'" "$RB_ERR" "bad point: the option's own message comes first"
refuse "a point its option refuses (--rwmix 150)" "sweep point that fails is.*--rwmix 150" \
	-o rw --rwmix 50..150/50 --yes -d 100ms "$DEV"
refuse "a point the target refuses (-b 128m on 64 MiB)" "sweep point that fails is --block-size 134217728" \
	-b 4k,128m $W "$DEV"
refuse "128 points without --yes" "128 points.*about [0-9].*add --yes" -b 512..64k/512 -o write -d 100ms "$DEV"
refuse "-g 0 in a sweep" "-g 0.*sweep" -g 0 --output "$S/g0.tsv" -b 4k,8k $W "$DEV"
assert_eq "no" "$([ -e "$S/g0.tsv" ] && echo yes || echo no)" "-g 0 in a sweep: no file written"
refuse "unwritable --output" "cannot write" -b 4k,8k --output "$S/nodir/t.tsv" $W "$DEV"
refuse "--plot with no numeric axis" "--plot.*sweep" -u uniform,pow --plot "$S/x.png" $W "$DEV"
refuse "--plot with three numeric axes" "--plot.*sweep" -b 512,1k -s 512,1k -c 1,2 --plot "$S/x.png" $W "$DEV"
assert_eq "no" "$([ -e "$S/x.png" ] && echo yes || echo no)" "refused --plot: no image"
# 8 axes of 256 values are 2^64 points: that count must not wrap around
# (to 0: nothing runs and the exit status is 0) but be refused
rb -b 1..256/1 -s 1..256/1 -q 1..256/1 --batch 1..256/1 -c 1..256/1 \
	-g 1..256/1 -z 1..256/1 --rwmix 0..255/1 -o write -d 100ms "$DEV"
assert_rc 1 "2^64 points (8 axes of 256) are refused, not wrapped to 0 and run as none"
assert_eq "$SUM" "$(dev_sum "$DEV")" "the device is unchanged after every refusal"

# ================================================================ (h) confirm
section "one confirmation for a write sweep"
rb -o write -b 4k,8k -s 4k,8k -d 100ms --output "$S/w0.tsv" "$DEV" </dev/null
assert_rc 1 "a write sweep without a terminal and without --yes: exit 1"
assert_match "no terminal" "$RB_ERR" "the refusal says there is no terminal to ask on"
assert_eq 1 "$(<<<"$RB_ERR" grep -c 'refusing to write')" "refused once for the whole sweep"
assert_eq "$SUM" "$(dev_sum "$DEV")" "the device is unchanged"
rb_pty n -o write -b 4k,8k -s 4k,8k -d 100ms --output "$S/w1.tsv" "$DEV"
assert_rc 1 "answered no: exit 1"
assert_eq "$SUM" "$(dev_sum "$DEV")" "answered no: the device is unchanged"
rb_pty y -o write -b 4k,8k -s 4k,8k -d 100ms --output "$S/w2.tsv" "$DEV"
assert_rc 0 "answered yes: exit 0"
assert_eq 1 "$(<<<"$RB_OUT" grep -c 'Continue?')" "asked once for 4 points"
assert_eq 1 "$(<<<"$RB_OUT" grep -c "WRITE to $DEV")" "the device listed once"
assert_eq 4 "$(rows "$S/w2.tsv" 2>/dev/null | grep -c complete)" "then all 4 points ran"
assert_ne "$SUM" "$(dev_sum "$DEV")" "and wrote to the device"

section "progress line on a terminal"
cmd=$(printf '%q ' "$REBENCH" -b 512,1k -d 100ms --output "$S/prog.tsv" "$DEV")
prog=$(timeout -k 5 30 setsid -w script -qec "$cmd" /dev/null </dev/null | tr '\r' '\n')
assert_match '\[point 1 of 2\] block-size=512$' "$prog" \
	"point 1 of 2 with its value, while it runs"
assert_match '\[point 2 of 2\] block-size=1024; the one before: [0-9]+ ops/s; about [0-9]+s left$' "$prog" \
	"point 2 of 2 with its value, the ops/s of the point before and the time left"
assert_eq 2 "$(rows "$S/prog.tsv" | grep -c .)" "the table is still complete"

# ================================================================ (i) --plot
section "--plot"
if [ -z "$HAVE_GNUPLOT" ]; then
	log "gnuplot is not installed: --plot rendering not checked"
else
	if have_script heatmap.gp; then
		rb -b 512..2k/512 -s 512..1k/512 -d 100ms --output "$S/p2.tsv" --plot "$S/plot-heatmap.png" "$DEV"
		assert_rc 0 "two-axis sweep --plot exits 0"
		assert_png "$S/plot-heatmap.png" 1000 700 "--plot heatmap"
		keep_png "$S/plot-heatmap.png"
		rb -b 512,1k -s 512,1k -d 100ms --plot "$S/plot-heatmap.svg" "$DEV"
		assert_rc 0 "--plot FILE.svg exits 0"
		assert_match '<svg' "$(head -c 2000 "$S/plot-heatmap.svg" 2>/dev/null)" "--plot FILE.svg writes an SVG"
	else
		log "skip: plots/heatmap.gp does not exist yet"
	fi
	if have_script lines.gp; then
		rb -b 512..4k*2 -d 100ms --plot "$S/plot-lines.png" "$DEV"
		assert_rc 0 "one-axis sweep --plot (table on stdout) exits 0"
		assert_eq 5 "$(<<<"$RB_OUT" grep -c .)" "the table still went to stdout"
		assert_png "$S/plot-lines.png" 1000 700 "--plot lines"
		keep_png "$S/plot-lines.png"
	else
		log "skip: plots/lines.gp does not exist yet"
	fi
	rb --plot "$S/plot-series.png" -d 1 -g 200 "$DEV"
	assert_rc 0 "no sweep: --plot -d 1 -g 200 exits 0"
	assert_png "$S/plot-series.png" 1000 700 "--plot time series"
	keep_png "$S/plot-series.png"
fi

# gnuplot missing: PATH without it for the rebench process only
rb_nogp() {
	RB_CMD="PATH=/nonexistent rebench $*"
	timeout -k 5 "$RB_TIMEOUT" setsid -w env PATH=/nonexistent "$REBENCH" "$@" \
		>"$RB_OUT_FILE" 2>"$RB_ERR_FILE" </dev/null
	RB_RC=$?
	RB_OUT=$(<"$RB_OUT_FILE")
	RB_ERR=$(<"$RB_ERR_FILE")
}
# (rebench looks for the script before it runs gnuplot: each case needs
# the script it would use)
if have_script heatmap.gp; then
	rb_nogp -b 512,1k -s 512,1k -d 100ms --output "$S/nogp.tsv" --plot "$S/nogp.png" "$DEV"
	assert_rc 4 "sweep --plot without gnuplot: exit 4"
	assert_match 'gnuplot.*gnuplot-nox' "$RB_ERR" "the message names gnuplot-nox"
	assert_match "the data is in $S/nogp.tsv" "$RB_ERR" "and says where the data is"
	assert_eq 5 "$(grep -c . "$S/nogp.tsv" 2>/dev/null)" "the table is still written (header + 4 rows)"
	assert_eq "no" "$([ -e "$S/nogp.png" ] && echo yes || echo no)" "no image"
else
	log "skip: no gnuplot for a heatmap: plots/heatmap.gp does not exist yet"
fi
if have_script lines.gp; then
	rb_nogp -b 512,1k -d 100ms --plot "$S/nogp2.png" "$DEV"
	assert_rc 4 "sweep --plot, table on stdout, without gnuplot: exit 4"
	assert_eq 3 "$(<<<"$RB_OUT" grep -c .)" "the table is still on stdout"
	# the copy made for gnuplot is temporary: removed on every exit, and
	# the message points at stdout, not at a removed file
	assert_match 'the table is on standard output' "$RB_ERR" "the message says where the table is"
	assert_no_match '/tmp/rebench-sweep\.' "$RB_ERR" "and names no temporary file"
else
	log "skip: no gnuplot for lines: plots/lines.gp does not exist yet"
fi
if have_script timeseries.gp; then
	rb_nogp -d 300ms -g 100 --output "$S/nogp-series.tsv" --plot "$S/nogp3.png" "$DEV"
	assert_rc 4 "no sweep: --plot without gnuplot: exit 4"
	assert_match 'gnuplot-nox' "$RB_ERR" "the message names gnuplot-nox"
	assert_match '^workload	time_s' "$(grep -v '^#' "$S/nogp-series.tsv" 2>/dev/null | head -n 1)" "the series is still written"
else
	log "skip: no gnuplot for a time series: plots/timeseries.gp does not exist"
fi

# ================================================================ (j) scripts
section "every plot script rendered from real data"
# data: T.matrix above; a block size x dist table; a two-workload series;
# a zipf --json; a per-I/O log
rb -b 512..64k*2 -u uniform,pow -d 100ms --output "$S/bs.tsv" "$DEV"
assert_rc 0 "data: -b 512..64k*2 -u uniform,pow"
printf '%s\n' "-b 4k $DEV" "-w seq -b 64k $DEV" >"$S/series-lines"
rb -d 1 -g 200 --output "$S/series.tsv" <"$S/series-lines"
assert_rc 0 "data: a two-workload time series"
rb --json -u zipf:1.2 -b 4k -d 300ms "$DEV"
assert_rc 0 "data: a zipf --json run"
printf '%s\n' "$RB_OUT" >"$S/zipf.json"
rb -g 0 --output "$S/ios.tsv" -d 200ms "$DEV"
assert_rc 0 "data: a per-I/O log"

# script -> expected size: distribution.gp predates the sweep scripts and
# draws 1000x600; every other script draws 1000x700
declare -A SIZE=([distribution.gp]="1000 600")
rendered=0
# render SCRIPT NAME DATA [ARGS...]: gnuplot -c SCRIPT DATA NAME.png ARGS
# (every script takes the data file, then the output file), then to SVG.
render() {
	local script=$1 out=$2 data=$3 w h
	shift 3
	read -r w h <<<"${SIZE[$script]:-1000 700}"
	if ! have_script "$script"; then
		log "skip: plots/$script does not exist"
		return
	fi
	gp "$script" "$data" "$S/$out.png" "$@"
	if [ "$GP_RC" = 0 ]; then
		pass "gnuplot -c $script $(basename "$data") $out.png $* exits 0"
	else
		check_failed "gnuplot -c $script $(basename "$data") $out.png $* exits 0" "exit $GP_RC" "$GP_OUT"
	fi
	[ -n "$GP_OUT" ] && log "$script printed: $(printf '%s' "$GP_OUT" | head -n 3)"
	assert_png "$S/$out.png" "$w" "$h" "$script"
	keep_png "$S/$out.png"
	gp "$script" "$data" "$S/$out.svg" "$@"
	assert_eq 0 "$GP_RC" "$script to SVG exits 0"
	assert_match '<svg' "$(head -c 2000 "$S/$out.svg" 2>/dev/null)" "$script: the .svg is an SVG"
	rendered=$((rendered + 1))
}
if [ -z "$HAVE_GNUPLOT" ]; then
	log "gnuplot is not installed: scripts not rendered"
else
	render heatmap.gp heatmap "$M"
	render surface.gp surface "$M"
	render lines.gp lines-stride "$T" stride block-size
	render lines.gp lines-bs-dist "$S/bs.tsv" block-size dist log
	render timeseries.gp timeseries "$S/series.tsv"
	render distribution.gp distribution "$S/zipf.json"
	render latency.gp latency "$S/ios.tsv"
	# every script in plots/ has been rendered above
	for f in "$PLOTS"/*.gp; do
		case $(basename "$f") in
		heatmap.gp|surface.gp|lines.gp|timeseries.gp|distribution.gp|latency.gp) ;;
		# rendered by test_alignment_plots.sh and test_alignment_study.sh
		alignment-multiplot.gp|alignment-drilldown.gp) ;;
		# rendered by the studies' own tests, test_sync_study.sh,
		# test_cache_study.sh, test_hdd_study.sh and test_write_cliff.sh
		sync-policies.gp|cache-pressure.gp|hdd-study.gp|write-cliff.gp) ;;
		# rendered (and checked as a PNG) by test_compare.sh and
		# test_steady_state.sh, from rebench --compare and --steady-state
		compare.gp|steadystate.gp) ;;
		# rendered by test_advise.sh and test_hosts.sh, from rebench
		# --advise btree and --hosts
		advise-btree.gp|hosts.gp) ;;
		# rendered by test_plots.sh from saved runs of --characterize
		characterize.gp) ;;
		# rendered by test_loadcurve.sh and test_plot_titles.sh, from
		# rebench --rate A..B*F --plot
		loadcurve.gp) ;;
		*) check_failed "plots/$(basename "$f") is rendered by this test" "add it to section (j)" ;;
		esac
	done
	log "$rendered renderings"
fi
