#!/usr/bin/env bash
# test_repeat.sh - --repeat N and --warmup D.
#
# --repeat N runs the workloads N times with seeds seed0, seed0+1, ...; each
# block shows its median run by ops/s, whole (latency, seed, -g 0 log), and
# says which run it is: the JSON "repeat" object (runs, seeds, shown_run
# and shown_seed, per-metric values and their median,
# trimmed mean, mean, stddev, CV and 95% CI, recomputed here from the
# values), -n fields after the fixed ones ($TF in common.sh), the human "Over N runs" block, stdin workloads
# each with their own figures, --repeat 1 as a plain run, refusals (bad
# counts, on a stdin line), a sweep with every point repeated (table
# columns, JSON and -n per point), one confirmation for all runs, a
# new file laid out once, and warnings that describe the reported run.
# --warmup D runs unmeasured for D first: parameters, elapsed and I/O counts
# of the measured part only, byte-limited runs, async engines, refusals, and
# Ctrl-C during the warm-up.
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq python3

DEV=$(make_loop 64M)
DEV2=$(make_loop 64M)
M=1048576
S=4242
W='.workloads[0]'
KEYS="ops_per_s mib_per_s lat_avg_us lat_p50_us lat_p90_us lat_p99_us lat_p999_us"

# rb_wall ARGS...: rb, and WALL, the seconds the command took.  A warm-up
# of D is at least D of that time, so a measured part that leaves it out
# has an elapsed time of at most WALL - D, however loaded the machine;
# one that counted the warm-up would have all of WALL but the setup.
rb_wall() {
	local t0
	t0=$(date +%s%N)
	rb "$@"
	WALL=$(calc "($(date +%s%N) - $t0) / 1e9")
}

# check_stats FILE INDEX: recompute every metric of workload INDEX's repeat
# object in the JSON document FILE from its "values"; prints one line per
# metric, "KEY ok" or "KEY: what differs".  t(0.975, dof) from a table.
check_stats() {
	python3 - "$1" "$2" <<'EOF'
import json, math, sys
T975 = {1: 12.7062047, 2: 4.30265273, 3: 3.18244631, 4: 2.77644511}
doc = json.load(open(sys.argv[1]))
rep = doc["workloads"][int(sys.argv[2])]["repeat"]
keys = ["ops_per_s", "mib_per_s", "lat_avg_us", "lat_p50_us", "lat_p90_us",
        "lat_p99_us", "lat_p999_us"]

# The values are printed with 10 significant digits, so a figure derived
# from them is exact only to about 1e-10 of their scale: a CI bound or a
# stddev near 0 cannot be held to 1e-6 of itself.
def close(a, b, scale):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b)) + 1e-8 * scale + 1e-9

for k in keys:
    m = rep[k]
    v = m["values"]
    n = len(v)
    s = sorted(v)
    med = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    mean = sum(v) / n
    trim = sum(s[1:-1]) / (n - 2) if n >= 3 else mean
    sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1)) if n >= 2 else 0.0
    cv = 100 * sd / abs(mean) if mean else 0.0
    # the interval is on the log scale (rebench(1), --repeat)
    if n >= 2 and min(v) > 0:
        lg = [math.log(x) for x in v]
        lm = sum(lg) / n
        lsd = math.sqrt(sum((x - lm) ** 2 for x in lg) / (n - 1))
        half = T975[n - 1] * lsd / math.sqrt(n)
        lo, hi = math.exp(lm - half), math.exp(lm + half)
    else:
        lo = hi = None
    bad = []
    for name, want in (("median", med), ("trimmed_mean", trim),
                       ("mean", mean), ("stddev", sd), ("cv_pct", cv),
                       ("ci95_low", lo), ("ci95_high", hi)):
        got = m.get(name, "missing")
        scale = max(abs(x) for x in v)
        if name == "cv_pct":
            scale = 100 * scale / abs(mean) if mean else 0.0
        if got == "missing" or not close(got, want, scale):
            bad.append("%s %s, recomputed %s" % (name, got, want))
    print(k, "ok" if not bad else ": " + "; ".join(bad) + " (values %s)" % v)
EOF
}

# terse_fields: the fields of the first -n line, one per line.
terse_fields() { <<<"$RB_OUT" awk 'NF { for (i = 1; i <= NF; i++) print $i; exit }'; }

section "--repeat 3 --json: runs, seeds, values and their statistics"
rb --json --repeat 3 -d 100ms --seed $S "$DEV"
assert_rc 0 "--repeat 3 --json exits 0"
printf '%s\n' "$RB_OUT" >"$SCRATCH/r3.json"
if jq -e . "$SCRATCH/r3.json" >/dev/null 2>&1; then
	pass "stdout is one valid JSON document"
else
	fail "stdout is one valid JSON document" "$(head -n 5 "$SCRATCH/r3.json")"
fi
assert_eq object "$(jqr "$W.repeat | type")" ".repeat is an object"
assert_eq 3 "$(jqr "$W.repeat.runs")" "repeat.runs == 3"
assert_eq "$S,$((S + 1)),$((S + 2))" "$(jqr "$W.repeat.seeds | map(tostring) | join(\",\")")" \
	"repeat.seeds are seed0..seed0+2 ($S..$((S + 2)))"
# the median run of 3: the one whose ops/s is the middle value
sh=$(jqr "$W.repeat.ops_per_s.values | . as \$v | sort[1] as \$m | index(\$m) + 1")
assert_eq "$sh $((S + sh - 1)) $((S + sh - 1))" "$(jqr "$W | \"\\(.repeat.shown_run) \\(.repeat.shown_seed) \\(.parameters.seed)\"")" \
	"repeat.shown_run is the median run ($sh); shown_seed and parameters.seed are its seed"
assert_eq "runs seeds shown_run shown_seed $KEYS" "$(jqr "$W.repeat | keys_unsorted | join(\" \")")" \
	"repeat has runs, seeds, shown_run, shown_seed and the seven metrics, in order"
for k in $KEYS; do
	assert_eq 3 "$(jqr "$W.repeat.$k.values | length")" "repeat.$k.values has 3 entries"
done
assert_eq "" "$(jqr "[$W.repeat[] | objects | .values[] | select(type != \"number\" or . <= 0)] | map(tostring) | join(\" \")")" \
	"every value of every metric is a positive number"
while read -r key verdict; do
	if [ "$verdict" = ok ]; then
		pass "repeat.$key: median, trimmed mean, mean, stddev, CV, CI match a recomputation from values"
	else
		check_failed "repeat.$key: median, trimmed mean, mean, stddev, CV, CI match a recomputation from values" "$verdict"
	fi
done < <(check_stats "$SCRATCH/r3.json" 0)
# the median run is the one reported in results
for pair in "ops_per_s results.ops_per_s" "mib_per_s results.mib_per_s" \
	"lat_avg_us results.latency_us.avg" "lat_p50_us results.latency_us.p50" \
	"lat_p90_us results.latency_us.p90" "lat_p99_us results.latency_us.p99" \
	"lat_p999_us results.latency_us.p99_9"; do
	set -- $pair
	a=$(jqr "$W.repeat.$1.values[$((sh - 1))]")
	b=$(jqr "$W.$2")
	assert_num "repeat.$1.values[$((sh - 1))] ($a) is the median run's $2 ($b)" \
		"($a - $b) ^ 2 <= ($b * 1e-6) ^ 2"
done
# each run's MB/s is its ops/s * 512 / 2^20
for r in 0 1 2; do
	o=$(jqr "$W.repeat.ops_per_s.values[$r]")
	mb=$(jqr "$W.repeat.mib_per_s.values[$r]")
	assert_num "run $r: mib_per_s ($mb) = ops_per_s ($o) * 512 / 2^20" \
		"($mb - $o * 512 / $M) ^ 2 <= ($mb * 1e-6) ^ 2"
done
read -r p50 p90 p99 p999 <<<"$(jqr "$W.repeat | \"\\(.lat_p50_us.median) \\(.lat_p90_us.median) \\(.lat_p99_us.median) \\(.lat_p999_us.median)\"")"
assert_num "medians of the percentiles are ordered (p50 $p50 <= p90 $p90 <= p99 $p99 <= p99.9 $p999)" \
	"$p50 <= $p90 && $p90 <= $p99 && $p99 <= $p999"
cv=$(jqr "$W.repeat.ops_per_s.cv_pct")
nvar=$(jqr "[$W.warnings[] | select(test(\"varied by\"))] | length")
if num_true "$cv > 10"; then
	assert_eq 1 "$nvar" "ops/s CV $cv% > 10%: one 'varied by' warning"
else
	assert_eq 0 "$nvar" "ops/s CV $cv% <= 10%: no 'varied by' warning"
fi

section "--repeat 3 -n: $TF + 27 fields"
rb -n --repeat 3 -d 100ms --seed $S "$DEV"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_rc 0 "--repeat 3 -n exits 0"
assert_eq 1 "$(<<<"$RB_OUT" grep -c .)" "exactly one line"
mapfile -t f < <(terse_fields)
assert_eq $((TF + 27)) "${#f[@]}" "$TF + 27 = $((TF + 27)) fields"
assert_eq 3 "${f[TF]:-}" "field $((TF + 1)) is the number of runs, 3"
sh=${f[TF + 26]:-0}
assert_num "field $((TF + 27)) is the shown run, 1..3 ($sh)" "$sh >= 1 && $sh <= 3"
assert_eq $((S + sh - 1)) "${f[16]:-}" "field 17 is the shown run's seed"
nonnum=$(printf '%s\n' "${f[@]:TF}" | grep -Evx -- '-?[0-9]+(\.[0-9]+)?' | head -n 3)
assert_eq "" "$nonnum" "fields $((TF + 1))-$((TF + 27)) are numbers (a CI exists for 3 runs)"
names=(ops/s p50 p90 p99 p99.9)
for g in 0 1 2 3 4; do
	i=$((TF + 1 + g * 5))	# 0-based index of the group's median
	med=${f[i]:-0} tm=${f[i + 1]:-0} sd=${f[i + 2]:-0} lo=${f[i + 3]:-0} hi=${f[i + 4]:-0}
	assert_num "${names[g]} (fields $((i + 1))-$((i + 5))): trimmed mean $tm = median $med for 3 runs" \
		"($tm - $med) ^ 2 <= 0.0015 ^ 2"
	assert_num "${names[g]}: stddev $sd >= 0, CI low $lo <= high $hi" "$sd >= 0 && $lo <= $hi"
	# on the log scale (the JSON check below recomputes it exactly)
	assert_num "${names[g]}: CI low $lo is above 0" "$lo > 0"
done
# the ops/s group's order is JSON's ops_per_s median, trimmed_mean, stddev, ci95
# low and high: with --json the same run (same seeds) gives the same shape
assert_num "ops/s median (field $((TF + 2)), ${f[TF + 1]:-0}) is a plausible ops/s" "${f[TF + 1]:-0} > 100"

section "--repeat 3, human output"
rb --repeat 3 -d 100ms --seed $S "$DEV"
assert_rc 0 "--repeat 3 exits 0"
assert_match "^Over 3 runs \\(seeds $S\\.\\.$((S + 2)); the figures above are run [1-3] of 3, the median run by ops/s, seed [0-9]+\\):$" "$RB_OUT" "an 'Over 3 runs (seeds $S..$((S + 2)); the figures above are run K of 3, the median run by ops/s, seed ...)' line"
for l in 'ops/s' 'p50 \(us\)' 'p90 \(us\)' 'p99 \(us\)' 'p99\.9 \(us\)'; do
	assert_match "^  $l +median -?[0-9.]+, trimmed mean -?[0-9.]+, stddev [0-9.]+ \\(CV [0-9.]+%\\), 95% CI -?[0-9.]+\\.\\.-?[0-9.]+$" \
		"$RB_OUT" "a '$l' line with median, trimmed mean, stddev, CV and CI"
done
runs=$(<<<"$RB_OUT" sed -n 's/^  runs ops\/s: *//p')
read -r -a rv <<<"$runs"
assert_eq 3 "${#rv[@]}" "'runs ops/s:' lists 3 numbers ($runs)"
ops=$(<<<"$RB_OUT" sed -nE 's/^Operations\/sec: ([0-9]+) .*/\1/p')
med=$(<<<"$RB_OUT" sed -nE 's/^  ops\/s +median ([0-9]+),.*/\1/p')
assert_eq "$(printf '%s\n' "${rv[@]}" | sort -n | sed -n 2p)" "$med" "ops/s median is the middle of the three runs"
assert_eq "$med" "$ops" "classic Operations/sec is the median run's"
sh=$(<<<"$RB_OUT" sed -nE 's/^Over 3 runs .* are run ([0-9]+) of 3.*/\1/p')
assert_eq "$ops" "${rv[sh - 1]:-}" "the run named ($sh) is the one of that ops/s in 'runs ops/s:'"
assert_match "^Total: .* seed $((S + sh - 1))$" "$RB_OUT" "Total line names the median run's seed"
assert_eq 1 "$(<<<"$RB_OUT" grep -c '^Benchmarking results for ')" "one result block, not one per run"

section "--repeat 5: every format shows the median run, whole"
# The block is the run whose ops/s is the median of the 5, not the last:
# checked against the runs' own figures (counts and printed values, no
# timing), in human, -n and JSON, with its seed, latency, interval series
# and -g 0 log.
rb --repeat 5 -d 100ms --seed $S "$DEV"
assert_rc 0 "--repeat 5 exits 0"
read -r -a rv <<<"$(<<<"$RB_OUT" sed -n 's/^  runs ops\/s: *//p')"
assert_eq 5 "${#rv[@]}" "'runs ops/s:' lists 5 numbers (${rv[*]})"
mid=$(printf '%s\n' "${rv[@]}" | sort -n | sed -n 3p)
ops=$(<<<"$RB_OUT" sed -nE 's/^Operations\/sec: ([0-9]+) .*/\1/p')
assert_eq "$mid" "$ops" "human: Operations/sec ($ops) is the median of the runs (${rv[*]})"
assert_eq "$mid" "$(<<<"$RB_OUT" sed -nE 's/^  ops\/s +median ([0-9]+),.*/\1/p')" "human: and the ops/s median line says the same"
sh=$(<<<"$RB_OUT" sed -nE "s/^Over 5 runs \(seeds $S\.\.$((S + 4)); the figures above are run ([1-5]) of 5, the median run by ops\/s, seed [0-9]+\):$/\1/p")
assert_match '^[1-5]$' "$sh" "human: 'the figures above are run K of 5, the median run by ops/s, seed ...'"
assert_eq "$mid" "${rv[sh - 1]:-}" "human: run $sh is the median run in 'runs ops/s:'"
assert_match "^Over 5 runs .*, seed $((S + sh - 1))\):$" "$RB_OUT" "human: the seed named is run $sh's, $((S + sh - 1))"
assert_match "^Total: .* seed $((S + sh - 1))$" "$RB_OUT" "human: the Total line has run $sh's seed"
rb -n --repeat 5 -d 100ms --seed $S "$DEV"
assert_rc 0 "--repeat 5 -n exits 0"
mapfile -t f < <(terse_fields)
sh=${f[TF + 26]:-0}
assert_num "-n: field 1 (${f[0]}) is the median ops/s of field $((TF + 2)) (${f[TF + 1]})" \
	"(${f[0]} - ${f[TF + 1]}) ^ 2 <= 0.006 ^ 2"
assert_eq $((S + sh - 1)) "${f[16]:-}" "-n: field 17 is the shown run's ($sh, field $((TF + 27))) seed"
rb --json --repeat 5 -d 100ms -g 50ms --output "$SCRATCH/r5.tsv" --seed $S "$DEV"
assert_rc 0 "--repeat 5 --json --output exits 0"
sh=$(jqr "$W.repeat.shown_run")
assert_eq "$sh" "$(jqr "$W.repeat.ops_per_s.values | . as \$v | sort[2] as \$m | index(\$m) + 1")" \
	"JSON: shown_run ($sh) is the run of the median ops/s"
assert_eq "$((S + sh - 1)) $((S + sh - 1))" "$(jqr "$W | \"\\(.repeat.shown_seed) \\(.parameters.seed)\"")" "JSON: shown_seed and parameters.seed are its seed"
for pair in "ops_per_s results.ops_per_s" "lat_p99_us results.latency_us.p99" "lat_avg_us results.latency_us.avg"; do
	set -- $pair
	a=$(jqr "$W.repeat.$1.values[$((sh - 1))]")
	b=$(jqr "$W.$2")
	assert_num "JSON: run $sh's $1 ($a) is $2 ($b): no mix of runs" "($a - $b) ^ 2 <= ($b * 1e-6) ^ 2"
done
assert_eq "$(jqr "$W.results.intervals.ios | map(tostring) | join(\" \")")" "$(grep -v '^#' "$SCRATCH/r5.tsv" | awk -F'\t' 'NR > 1 { printf "%s%s", n++ ? " " : "", $3 }')" \
	"--output: the series is the shown run's, interval by interval"
rb --json --repeat 5 -d 100ms -g 0 --output "$SCRATCH/r5io.tsv" --seed $S "$DEV"
assert_rc 0 "--repeat 5 -g 0 --output exits 0"
assert_eq "$(jqr "$W.results.ios")" "$(tail -n +2 "$SCRATCH/r5io.tsv" | wc -l)" \
	"-g 0: one log row per I/O of the shown run (run $(jqr "$W.repeat.shown_run"))"
printf '%s\n' "-b 4k $DEV" "-b 8k $DEV2" >"$SCRATCH/spec5"
rb --json --repeat 5 -d 100ms --seed $S <"$SCRATCH/spec5"
assert_rc 0 "two workloads --repeat 5 --json exits 0"
for w in '.workloads[0]' '.workloads[1]' '.total'; do
	assert_eq "$(jqr "$w.repeat.ops_per_s.median")" "$(jqr "$w.results.ops_per_s")" "$w: results.ops_per_s is its median"
	assert_eq "$(jqr "$w.repeat.ops_per_s.values | . as \$v | sort[2] as \$m | index(\$m) + 1")" "$(jqr "$w.repeat.shown_run")" \
		"$w: shown_run is its own median run"
done
rb --json -b 512,4k --repeat 3 -d 100ms --seed $S "$DEV"
assert_rc 0 "a sweep with --repeat 3 exits 0"
assert_eq "0 0" "$(jqr '[.sweep.runs[].workloads[0] | .results.ops_per_s - .repeat.ops_per_s.median] | map(tostring) | join(" ")')" \
	"a sweep: each point's results are its median run"

section "stdin: two workloads, --repeat 2, each with its own figures"
printf '%s\n' "-b 4k $DEV" "-w seq -b 64k $DEV2" >"$SCRATCH/spec"
rb --json --repeat 2 -d 100ms --seed 7 <"$SCRATCH/spec"
assert_rc 0 "stdin --repeat 2 --json exits 0"
printf '%s\n' "$RB_OUT" >"$SCRATCH/stdin.json"
assert_eq "2 2" "$(jqr '[.workloads[].repeat.runs] | map(tostring) | join(" ")')" "each workload has repeat.runs 2"
assert_eq "2 2" "$(jqr '[.workloads[].repeat.ops_per_s.values | length] | map(tostring) | join(" ")')" \
	"each workload has 2 ops/s values"
for i in 0 1; do
	s0=$(jqr ".workloads[$i].repeat.seeds[0]")
	assert_eq "$s0 $((s0 + 1)) $s0" \
		"$(jqr ".workloads[$i] | \"\\(.repeat.seeds[0]) \\(.repeat.seeds[1]) \\(.parameters.seed + 1 - .repeat.shown_run)\"")" \
		"workload $((i + 1)): seeds s0, s0+1; parameters.seed is the shown run's"
	# of 2 runs, the lower of the two middle ones: the slower
	a=$(jqr ".workloads[$i].repeat.ops_per_s.values | min")
	b=$(jqr ".workloads[$i].results.ops_per_s")
	assert_num "workload $((i + 1)): the lower ops/s value ($a) is its own results.ops_per_s ($b)" \
		"($a - $b) ^ 2 <= ($b * 1e-6) ^ 2"
	while read -r key verdict; do
		[ "$verdict" = ok ] || check_failed "workload $((i + 1)): repeat.$key recomputes" "$verdict"
	done < <(check_stats "$SCRATCH/stdin.json" $i)
	pass "workload $((i + 1)): statistics recomputed from values (2 runs, t(0.975, 1))"
done
assert_eq "7 8" "$(jqr '[.workloads[].repeat.seeds[0]] | map(tostring) | join(" ")')" \
	"--seed 7: the lines start at seeds 7 and 8"
assert_ne "$(jqr '.workloads[0].repeat.ops_per_s.values | tostring')" \
	"$(jqr '.workloads[1].repeat.ops_per_s.values | tostring')" "the two workloads' values differ"
rb -n --repeat 2 -d 100ms <"$SCRATCH/spec"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_rc 0 "stdin --repeat 2 -n exits 0"
n=$((TF + 27))
assert_eq "$n $n $n" "$(<<<"$RB_OUT" awk 'NF { printf "%s%d", n++ ? " " : "", NF }')" "two lines of $n fields, and the total's"
assert_eq "2 2 2" "$(<<<"$RB_OUT" awk -v r=$((TF + 1)) 'NF { printf "%s%s", n++ ? " " : "", $r }')" "field $((TF + 1)) is 2 on all three"
rb --repeat 2 -d 100ms <"$SCRATCH/spec"
assert_rc 0 "stdin --repeat 2 (human) exits 0"
assert_eq 2 "$(<<<"$RB_OUT" grep -c '^Over 2 runs (seeds ')" "two 'Over 2 runs (seeds' blocks"
assert_eq 2 "$(<<<"$RB_OUT" grep -cE '^Over 2 runs \(seeds [0-9]+\.\.[0-9]+; the figures above are run [12] of 2, the lower of the two middle runs by ops/s, seed [0-9]+\):$')" \
	"each names its run: the lower of the two middle runs"
assert_eq 1 "$(<<<"$RB_OUT" grep -c '^Over 2 runs (the figures above are run [12] of 2, the lower of the two middle runs by total ops/s):$')" "and the total's 'Over 2 runs' block"
assert_eq 3 "$(<<<"$RB_OUT" grep -cE '^  runs ops/s: [0-9]+ [0-9]+$')" "three 'runs ops/s:' lines of 2 numbers"

section "--repeat 1 is a plain run"
rb --json --repeat 1 -d 100ms --seed $S "$DEV"
assert_rc 0 "--repeat 1 --json exits 0"
assert_eq null "$(jqr "$W.repeat")" "repeat is null"
assert_eq $S "$(jqr "$W.parameters.seed")" "the seed is the one given"
rb --json -d 100ms "$DEV"
assert_eq null "$(jqr "$W.repeat")" "without --repeat, repeat is null"
rb -n --repeat 1 -d 100ms "$DEV"
assert_rc 0 "--repeat 1 -n exits 0"
assert_eq $TF "$(<<<"$RB_OUT" awk 'NF { print NF; exit }')" "-n: $TF fields"
rb --repeat 1 -d 100ms "$DEV"
assert_no_match '^Over [0-9]+ runs|^  runs ops/s' "$RB_OUT" "human: no repeat block"

section "bad --repeat values are refused"
assert_refused "--repeat 0" "invalid value '0' for --repeat: must be at least 1" --repeat 0 -d 100ms "$DEV"
assert_eq "" "$RB_OUT" "--repeat 0: nothing on stdout"
assert_refused "--repeat x" "invalid value 'x' for --repeat: expected a whole number" --repeat x -d 100ms "$DEV"
assert_refused "--repeat 1001" "invalid value '1001' for --repeat: must be at most 1000" --repeat 1001 -d 100ms "$DEV"
assert_refused "--repeat -1" "invalid value '-1' for --repeat" --repeat -1 -d 100ms "$DEV"
assert_refused "--repeat 1.5" "invalid value '1.5' for --repeat" --repeat 1.5 -d 100ms "$DEV"
printf '%s\n' "--repeat 2 -d 100ms $DEV" >"$SCRATCH/spec-line"
assert_refused "--repeat on a stdin line" \
	"^rebench: stdin line 1: --repeat applies to the whole run; give it on the command line" <"$SCRATCH/spec-line"
assert_eq "" "$RB_OUT" "--repeat on a stdin line: nothing ran"

section "--repeat with a sweep: every point N times"
rb -b 512,4k --repeat 3 -d 100ms --seed 5 --output "$SCRATCH/sw.tsv" "$DEV"
assert_rc 0 "-b 512,4k --repeat 3 exits 0"
assert_eq "block-size	workload	target	ops_per_s	mib_per_s	lat_min_us	lat_avg_us	lat_p50_us	lat_p90_us	lat_p99_us	lat_p999_us	lat_max_us	ios	status	durability	device_reads	device_reads_per_request	ops_ci_low	ops_ci_high	ops_ci_pct	precision	seconds	cpu_us_io	runs	ops_per_s_median	ops_per_s_trimmed_mean	ops_per_s_stddev	ops_per_s_ci95_low	ops_per_s_ci95_high	lat_p50_us_median	lat_p99_us_median" \
	"$(head -n 1 "$SCRATCH/sw.tsv")" "the table gains the repeat columns"
assert_eq "3 3" "$(awk -F'\t' 'NR > 1 { printf "%s%s", (NR > 2 ? " " : ""), $24 }' "$SCRATCH/sw.tsv")" \
	"every point ran 3 times"
rb -b 512,4k --repeat 3 -d 100ms --seed 5 --json "$DEV"
assert_eq "3 3" "$(jqr '[.sweep.runs[].workloads[0].repeat.runs] | join(" ")')" "JSON: each point has its repeat object"
assert_eq "5,6,7 5,6,7" "$(jqr '[.sweep.runs[].workloads[0].repeat.seeds | join(",")] | join(" ")')" \
	"JSON: each point's runs use seeds 5, 6, 7"
med=$(jqr '.sweep.runs[0].workloads[0].repeat.ops_per_s | (.values | sort | .[1]) - .median')
assert_eq 0 "$med" "JSON: a point's median is the middle of its 3 values"
rb -b 512,4k --repeat 2 -d 100ms -n "$DEV"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
n=$((TF + 28))
assert_eq "$n $n" "$(<<<"$RB_OUT" awk '{ printf "%s%s", (NR > 1 ? " " : ""), NF }')" \
	"-n: $((TF + 27)) fields and the swept value on each line"
# 1000 real runs would take about a minute (each run ends on the main
# thread's 50 ms signal-wait tick); --probe parses the options, then exits.
rb --repeat 1000 --probe "$DEV"
assert_rc 0 "--repeat 1000 (the maximum) is accepted"
rb -n --repeat 10 -d 1k "$DEV"
assert_rc 0 "--repeat 10 -d 1k exits 0"
assert_eq "10 2" "$(terse_field $((TF + 1))) $(terse_field 14)" "--repeat 10 -d 1k: field $((TF + 1)) is 10; the last run did 2 I/Os"

section "a write workload with --repeat 2 asks once"
rb_pty y -o write --repeat 2 -d 100ms "$DEV"
assert_rc 0 "write --repeat 2, answer y: exit 0"
assert_eq 1 "$(<<<"$RB_OUT" grep -o 'Continue? \[y/N\]' | wc -l)" "the question is asked once for both runs"
assert_match '^Over 2 runs ' "$RB_OUT" "both runs ran"

section "a new file with -e and --repeat 2: laid out once"
NEW=$SCRATCH/new.dat
rb --json --repeat 2 -e 2m -b 4k -d 100ms "$NEW"
assert_rc 0 "--repeat 2 on a new file exits 0"
assert_eq $((2 * M)) "$(stat -c %s "$NEW" 2>/dev/null)" "the file is 2 MiB"
assert_eq 1 "$(jqr "[$W.warnings[] | select(test(\"created .* laid out\"))] | length")" \
	"one 'created ... laid out' warning, kept from the first run"
assert_eq 0 "$(jqr "[$W.warnings[] | select(test(\"had holes\"))] | length")" "no 'had holes' warning: not laid out again"
assert_eq 2 "$(jqr "$W.repeat.runs")" "both runs counted"
assert_eq true "$(jqr "$W.target.created")" "target.created is true: this rebench created the file"
rb --repeat 2 -e 2m -b 4k -d 100ms "$SCRATCH/new2.dat"
assert_eq 1 "$(<<<"$RB_OUT" grep -c '^Warning: created .* laid out')" "human: the layout warning, once"
rb -n --repeat 2 -e 2m -b 4k -d 100ms "$SCRATCH/new3.dat"
assert_eq 1 "$(<<<"$RB_ERR" grep -c 'warning: created .* laid out')" "-n: the layout warning on stderr, once"

section "warnings describe the reported run, not every earlier run"
# Short timed runs: each run has a different, small I/O count, and each
# collects an "only N I/Os" warning; the report shows the last run.
rb --json --repeat 20 -d 20ms "$DEV"
assert_rc 0 "--repeat 20 -d 20ms exits 0"
ios=$(jqr "$W.results.ios")
only=$(jqr "[$W.warnings[] | select(test(\"^only [0-9]+ I/Os\"))] | length")
assert_num "at most one 'only N I/Os' warning (got $only)" "$only <= 1"
assert_eq "" "$(jqr "[$W.warnings[] | capture(\"^only (?<n>[0-9]+) I/Os\") | .n | select(. != \"$ios\")] | join(\" \")")" \
	"every 'only N I/Os' warning has N = results.ios ($ios) of the reported run"
cv=$(jqr "$W.repeat.ops_per_s.cv_pct")
nvar=$(jqr "[$W.warnings[] | select(test(\"varied by\"))] | length")
if num_true "$cv > 10"; then
	assert_eq 1 "$nvar" "ops/s CV $cv% > 10% over 20 runs: the 'varied by' warning is there"
else
	assert_eq 0 "$nvar" "ops/s CV $cv% <= 10% over 20 runs: no 'varied by' warning"
fi

section "--warmup 500ms -d 500ms: only the measured part is reported"
rb -d 500ms -g 100 --json "$DEV"
assert_rc 0 "a run without warmup exits 0"
assert_eq 0 "$(jqr "$W.parameters.warmup_s")" "without --warmup, warmup_s is 0"
rb_wall --warmup 500ms -d 500ms -g 100 --json "$DEV"
assert_rc 0 "--warmup 500ms exits 0"
assert_eq "0.5 0.5" "$(jqr "$W.parameters | \"\\(.warmup_s) \\(.duration_s)\"")" "parameters.warmup_s 0.5, duration_s 0.5"
el=$(jqr "$W.results.elapsed_s")
assert_num "results.elapsed_s ($el) is the measured 0.5 s, without the warm-up (command: $WALL s)" \
	"$el >= 0.45 && $el <= $WALL - 0.5"
assert_num "$(jqr "$W.results.intervals.complete") complete intervals of 100 ms in $el s, 4 or more" \
	"$(jqr "$W.results.intervals.complete") == int($el / 0.1) && $(jqr "$W.results.intervals.complete") >= 4"
iosw=$(jqr "$W.results.ios")
# No throughput comparison with the run without warmup: two runs on two
# shared cores differ by more than 2x. The intervals below are the check.
ivsum=$(jqr "$W.results.intervals.ios | add")
assert_num "the intervals hold the I/Os counted ($ivsum of $iosw; at most the tail I/O outside)" \
	"$ivsum <= $iosw && $iosw - $ivsum <= 1"
rb --warmup 500ms -d 300ms "$DEV"
assert_match '^\[duration: 300ms, .*, warmup: 500ms[],]' "$RB_OUT" "human parameter line has ', warmup: 500ms'"
rb -d 100ms "$DEV"
assert_no_match 'warmup' "$RB_OUT" "without --warmup the parameter line has no warmup"

section "--warmup with -g 0: the per-I/O log holds the measured I/Os only"
rb_wall --warmup 300ms -d 300ms -g 0 --output "$SCRATCH/io.tsv" --json "$DEV"
assert_rc 0 "--warmup -g 0 --output exits 0"
rows=$(tail -n +2 "$SCRATCH/io.tsv" | wc -l)
assert_eq "$(jqr "$W.results.ios")" "$rows" "one log row per measured I/O"
read -r tmin tmax <<<"$(tail -n +2 "$SCRATCH/io.tsv" | awk -F'\t' 'NR == 1 { a = b = $2 } { if ($2 < a) a = $2; if ($2 > b) b = $2 } END { print a + 0, b + 0 }')"
el=$(jqr "$W.results.elapsed_s")
# times from the warm-up's start would run past the measured time
assert_num "log times run from the measured start (first $tmin s, last $tmax s, in $el s)" \
	"$tmin >= 0 && $tmin <= $tmax && $tmax <= $el + 0.001"

section "--warmup with a byte-limited run: exactly the bytes asked for"
# the warm-up runs for its time, then the measured part does exactly -d:
# warm-up I/Os counted in the results would show here as extra bytes
rb --warmup 300ms -d 8m -b 4k --json "$DEV"
assert_rc 0 "--warmup 300ms -d 8m exits 0"
assert_eq "$((8 * M)) 2048" "$(jqr "$W.results | \"\\(.bytes) \\(.ios)\"")" "rnd: bytes == 8 MiB, 2048 I/Os of 4k"
rb --warmup 300ms -d 8m -w seq -b 64k --json "$DEV"
assert_rc 0 "--warmup 300ms -d 8m -w seq exits 0"
assert_eq "$((8 * M)) 128" "$(jqr "$W.results | \"\\(.bytes) \\(.ios)\"")" "seq: bytes == 8 MiB, 128 I/Os of 64k"

section "--warmup with async engines and threads"
engines=$(setsid -w "$REBENCH" --engines </dev/null | awk '{ print $1 }')
for e in uring naio paio; do
	if ! <<<"$engines" grep -qx "$e"; then
		log "engine $e not built; not tested"
		continue
	fi
	rb_wall --warmup 300ms -d 300ms -t $e -q 8 -b 4k --json "$DEV"
	assert_rc 0 "-t $e -q 8 --warmup 300ms exits 0"
	el=$(jqr "$W.results.elapsed_s")
	assert_num "-t $e: warmup_s 0.3, elapsed $el the measured 0.3 s (command: $WALL s), I/Os done, no error" \
		"$(jqr "$W.parameters.warmup_s") == 0.3 && $el >= 0.25 && $el <= $WALL - 0.3 && $(jqr "$W.results.ios") > 0"
	assert_eq null "$(jqr "$W.error")" "-t $e: error is null"
done
rb_wall --warmup 300ms -d 300ms -c 3 -t stateless --json "$DEV"
assert_rc 0 "-c 3 --warmup 300ms exits 0"
el=$(jqr "$W.results.elapsed_s")
assert_num "-c 3: elapsed $el the measured 0.3 s (command: $WALL s)" "$el >= 0.25 && $el <= $WALL - 0.3"
rb_wall --warmup 300ms --repeat 2 -d 300ms --json "$DEV"
assert_rc 0 "--warmup with --repeat 2 exits 0"
el=$(jqr "$W.results.elapsed_s")
# a warm-up and another measured run: at least 0.6 s of the command's time
assert_num "--warmup --repeat 2: 2 runs, warmup_s 0.3, elapsed $el the measured 0.3 s (command: $WALL s)" \
	"$(jqr "$W.repeat.runs") == 2 && $(jqr "$W.parameters.warmup_s") == 0.3 && $el >= 0.25 && $el <= $WALL - 0.6"

section "bad --warmup values are refused"
assert_refused "--warmup 2x" "invalid value '2x' for --warmup: expected a time" --warmup 2x -d 100ms "$DEV"
assert_eq "" "$RB_OUT" "--warmup 2x: nothing ran"
assert_refused "--warmup -1" "invalid value '-1' for --warmup" --warmup -1 -d 100ms "$DEV"
printf '%s\n' "--warmup 1 -d 100ms $DEV" >"$SCRATCH/spec-w"
assert_refused "--warmup on a stdin line" "^rebench: stdin line 1: --warmup applies to the whole run" <"$SCRATCH/spec-w"

section "Ctrl-C during the warm-up"
for fmt in human --json; do
	args=(--warmup 5 -d 5 "$DEV")
	[ "$fmt" = human ] || args=("$fmt" "${args[@]}")
	# the measured run starts after the warm-up (--ready-fd would say
	# so too late): the warm-up's reads say it runs
	r0=$(reads_of "$DEV")
	spawn "${args[@]}"
	wait_reads "$DEV" "$r0" 100
	interrupt_after 0 INT
	assert_eq 130 "$BG_RC" "$fmt: SIGINT in the warm-up: exit 130"
	if [ "$fmt" = human ]; then
		assert_match '^Total: .*\(interrupted\)$' "$RB_OUT" "human: the Total line says interrupted"
		assert_match 'warmup: 5s' "$RB_OUT" "human: the parameter line shows the warmup"
	else
		assert_eq true "$(jqr .interrupted)" "--json: interrupted is true"
		el=$(jqr "$W.results.elapsed_s")
		assert_num "--json: no measured run after the signal (elapsed $el, $(jqr "$W.results.ios") I/Os)" \
			"$el < 5 && $(jqr "$W.results.ios") == 0"
	fi
done
