#!/usr/bin/env bash
# test_compare.sh - rebench --compare A.json B.json (issue 16): two runs of
# one workload show no difference, 64 KiB reads against 4 KiB reads are
# slower in ops/s and faster in MB/s, the ratio interval matches a hand
# computation from the two documents' ops_ci, -n and JSON parse, a sweep's
# ratio heatmap renders, and every bad input is refused with what differs.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq
require_cmd python3

DEV=$(make_loop 64M)
export REBENCH_PLOTS=$TESTS_ROOT/plots
S=$SCRATCH

section "two runs of the same workload: no difference detectable"
# A and B are the odd and the even runs of one --repeat 6, so that the
# drift of this shared machine falls on both alike.  A valid 95% test
# still says "different" for 5% of equal pairs: three tries, one must say
# "same" (a wrong method fails all three; chance fails them 1 in 8000).
split() { jq --argjson k "$1" '.workloads[0].repeat |= with_entries(if (.value | type) == "object" then .value.values |= [.[range($k; length; 2)]] else . end)' "$S/r.json"; }
same=""
for try in 1 2 3; do
	rb --json -b 4k -d 200ms --repeat 6 --seed 1 "$DEV"
	printf '%s\n' "$RB_OUT" >"$S/r.json"
	split 0 >"$S/r1.json"
	split 1 >"$S/r2.json"
	rb --compare "$S/r1.json" "$S/r2.json" --json
	assert_rc 0 "try $try: --compare --json exits 0"
	v=$(jqr '.compare.rows[] | select(.metric == "ops_per_s") | "\(.verdict) \(.method)"')
	echo "# try $try: ops/s $v"
	[ "$v" = "same repeat" ] && { same=yes; break; }
done
assert_eq yes "$same" "ops/s of two runs of one workload: same, from the --repeat runs"
rb --compare "$S/r1.json" "$S/r1.json"
assert_match "ops/s +[0-9.]+ +[0-9.]+ +1\.000  [0-9.]+\.\.[0-9.]+ +no difference detectable \(over the runs" \
	"$RB_OUT" "a document against itself: ratio 1.000, no difference detectable"

section "64 KiB against 4 KiB reads: the right direction"
rb --json -b 4k -d 1 -g 50 --seed 2 "$DEV"; printf '%s\n' "$RB_OUT" >"$S/b4k.json"
rb --json -b 64k -d 1 -g 50 --seed 2 "$DEV"; printf '%s\n' "$RB_OUT" >"$S/b64k.json"
rb --compare "$S/b4k.json" "$S/b64k.json" --json
printf '%s\n' "$RB_OUT" >"$S/cmp.json"
# MB/s: 16 times the bytes per I/O.  (Ops/s is not always lower here:
# this machine's loop devices spend their time on the host, not on the
# bytes, so its direction is left to chance and not tested.)
assert_eq "faster" "$(jqr '.compare.rows[] | select(.metric == "mib_per_s") | .verdict')" \
	"MB/s: 64 KiB reads are faster"
assert_num "MB/s ratio = 16 x the ops/s ratio" \
	"$(jqr '[.compare.rows[] | select(.metric == "mib_per_s" or .metric == "ops_per_s") | .ratio] | (.[1] / .[0] - 16) | fabs') < 1e-6"
assert_eq "batch-means" "$(jqr '.compare.rows[0].method')" "single runs: from their batch-means intervals"
assert_eq "no-interval" "$(jqr '.compare.rows[] | select(.metric == "lat_p99_us") | .verdict')" \
	"a single run's p99 has no interval"
# by hand: s = (high - low) / 2 / mean / t(0.975, dof) per side, se =
# sqrt(sA^2 + sB^2), Welch df, ratio of the runs' ops/s, exp(ln r +- t se)
verdict=$(python3 - "$S/b4k.json" "$S/b64k.json" "$S/cmp.json" <<'PY'
import json, math, subprocess, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:4])
def side(d):
    r = d["workloads"][0]["results"]; ci = r["ops_ci"]
    return r["ops_per_s"], ci["mean"], ci["low"], ci["high"], ci["dof"]
# t(0.975, dof) from a printed table
T = {1: 12.7062047, 2: 4.3026527, 3: 3.1824463, 4: 2.7764451, 5: 2.5705818,
     6: 2.4469119, 7: 2.3646243, 8: 2.3060041, 9: 2.2621572, 10: 2.2281389,
     11: 2.2009852, 12: 2.1788128, 13: 2.1603687, 14: 2.1447867,
     15: 2.1314495, 16: 2.1199053, 17: 2.1098155, 18: 2.1009220,
     19: 2.0930241, 20: 2.0859634, 21: 2.0796138, 22: 2.0738731,
     23: 2.0686576, 24: 2.0638986, 25: 2.0595386, 26: 2.0555294,
     27: 2.0518305, 28: 2.0484071, 29: 2.0452296, 30: 2.0422725}
va, ma, la, ha, da = side(a); vb, mb, lb, hb, db = side(b)
sa = (ha - la) / 2 / ma / T[da]; sb = (hb - lb) / 2 / mb / T[db]
se = math.sqrt(sa * sa + sb * sb)
df = se ** 4 / (sa ** 4 / da + sb ** 4 / db)
row = c["compare"]["rows"][0]
# the t quantile at a fractional df: between the table's neighbours
t = math.log(row["high"] / row["ratio"]) / se
lo = T[math.floor(df)] if df < 31 else 2.0422725
hi = T[math.ceil(df)] if df < 30 else 1.9599640
ok = (abs(row["ratio"] - vb / va) < 1e-9 * vb / va and abs(row["df"] - df) < 1e-6 * df
      and abs(row["low"] * row["high"] - row["ratio"] ** 2) < 1e-6 * row["ratio"] ** 2
      and hi - 1e-6 <= t <= lo + 1e-6)
print("ok" if ok else "row %s, hand: ratio %g df %g se %g t %g" % (row, vb / va, df, se, t))
PY
)
assert_eq ok "$verdict" "the ratio, its df and its interval match a hand computation"
rb --compare "$S/b4k.json" "$S/b64k.json" -n
assert_eq 4 "$(<<<"$RB_OUT" grep -c '^compare 1 - 1 ')" "-n: a line per metric, version 1, no point"
read -r -a f <<<"$(<<<"$RB_OUT" sed -n 2p)"
assert_eq "mib_per_s faster batch-means" "${f[4]} ${f[10]} ${f[11]}" "-n fields 5, 11, 12: metric, verdict, method"
assert_num "-n: 1 < low ${f[8]} <= ratio ${f[7]} <= high ${f[9]}" "1 < ${f[8]} && ${f[8]} <= ${f[7]} && ${f[7]} <= ${f[9]}"
rb --compare "$S/b4k.json" "$S/b64k.json"
assert_match "B against A: [0-9] faster, [0-9] slower, [0-9] no difference detectable, 2 without an interval" \
	"$RB_OUT" "human: the summary line"
assert_match "MiB/s +[0-9.]+ +[0-9.]+ +[0-9.]+  [0-9.]+\.\.[0-9.]+ +faster \(batch means, df [0-9.]+\)" \
	"$RB_OUT" "human: the MiB/s row"

section "sweeps: matched by point, the ratio heatmap"
rb --json -b 512,4k -s 512,4k -d 500ms -g 50 --seed 3 "$DEV"; printf '%s\n' "$RB_OUT" >"$S/s1.json"
rb --json -b 512,4k -s 512,4k -d 500ms -g 50 --seed 3 --order shuffled:5 -j 512 "$DEV"; printf '%s\n' "$RB_OUT" >"$S/s2.json"
rb --compare "$S/s1.json" "$S/s2.json" -n --plot "$S/cmp.png"
assert_rc 0 "a sweep against its shuffled twin, with --plot: exit 0"
assert_eq "1 2 3 4" "$(<<<"$RB_OUT" awk '$5 == "ops_per_s" { printf "%s%s", n++ ? " " : "", $3 }')" \
	"rows in point order although B ran shuffled"
assert_eq "512 512" "$(<<<"$RB_OUT" awk 'NR == 1 { print $(NF - 1), $NF }')" "-n: the point's values end the line"
assert_png "$S/cmp.png" 1000 700 "compare.gp"
keep_png "$S/cmp.png"

section "bad input: refused, nothing printed on stdout"
echo '{"a": 1}' >"$S/other.json"
echo 'not json' >"$S/bad.json"
jq '.json_version = 4' "$S/b4k.json" >"$S/v4.json"
jq '.workloads[0].results = null' "$S/b4k.json" >"$S/nores.json"
rb --json -b 512,4k -d 100ms "$DEV"; printf '%s\n' "$RB_OUT" >"$S/s3.json"
rb --json -b 512,1k -s 512,4k -d 100ms "$DEV"; printf '%s\n' "$RB_OUT" >"$S/s4.json"
assert_refused "a missing file" "^rebench: --compare: $S/none.json: " --compare "$S/none.json" "$S/b4k.json"
assert_refused "not JSON" "^rebench: --compare: $S/bad.json: line 1, column 1" --compare "$S/bad.json" "$S/b4k.json"
assert_refused "not a rebench document" "is JSON but not a rebench document" --compare "$S/other.json" "$S/b4k.json"
assert_refused "different versions" "has json_version 4 and .* has $JV; this rebench reads version $JV" \
	--compare "$S/v4.json" "$S/b4k.json"
assert_refused "a single run against a sweep" "is a single run and .* is a sweep of block-size \(2 points\)" \
	--compare "$S/b4k.json" "$S/s3.json"
assert_refused "sweeps of different options" "is a sweep of block-size, stride \(4 points\) and .* is a sweep of block-size \(2 points\)" \
	--compare "$S/s1.json" "$S/s3.json"
assert_refused "sweeps of different values" "point 3 of .*s1.json has no twin with the same values" \
	--compare "$S/s1.json" "$S/s4.json"
assert_refused "no results" "workload 1 has no results in .*nores.json" --compare "$S/nores.json" "$S/b4k.json"
assert_refused "a target too" "$DEV is not one of its words: it compares two JSON documents and runs nothing" \
	--compare "$S/b4k.json" "$S/b64k.json" "$DEV"
assert_refused "one file" "needs two files" --compare "$S/b4k.json"
assert_refused "--plot of single runs" "draws the ratio heatmap of a sweep of two numbers" \
	--compare "$S/b4k.json" "$S/b64k.json" --plot "$S/x.png"
assert_eq "" "$RB_OUT" "nothing on standard output"
