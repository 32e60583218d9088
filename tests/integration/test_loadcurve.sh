#!/usr/bin/env bash
# test_loadcurve.sh - a sweep of --rate alone (issue 32, "a load curve"):
# latency against the rate achieved, and its knee, on a model SSD whose
# service time is known.
#
# The model: one channel, 7 ms reads; with the FUSE and loop floor (about
# 50 us) one thread serves at most about 140 reads a second.  Swept at
# 25, 50, 100 and 200 ops/s, 40 I/Os a point (-d 160k: a count, so no
# check rests on time), fixed arrivals, one thread:
#   - 25 to 100 are below the capacity: a fixed schedule 10 ms apart or
#     more never queues behind a 7 ms read, so each is met and its p99
#     from the intended start is the service time (a p99 of 40 I/Os is
#     their slowest but one: the 7 ms reads leave room for a stall of
#     several ms on a loaded machine);
#   - 200 is above it by 40%: not met, and the queue a client on the
#     schedule would see grows over the run (each read starts about 2 ms
#     later than the one before: 7 ms served, 5 ms asked, so the 40th
#     ends about 85 ms after its intended start), so its p99 from the
#     intended start is several times the service time (held to 3x the
#     p99 of 100 ops/s, expected about 12x) while the one from
#     submission is not;
#   - the knee, below the lowest rate not met, is the highest rate with
#     its p99 within 2x the least p99 of a rate met: 100 on this model
#     (recomputed from each output's own points, so a point a loaded
#     machine made late moves both alike);
#   - the table has the rate columns, JSON sweep.load_curve, -n a knee
#     line, the human output a "Knee:" line, --plot draws the load curve
#     (SVG, its key saying the knee's rule) and gnuplot the table to a
#     1000x650 PNG;
#   - refused before any I/O: a rate of 0 in a range and in a list, a
#     range of SIZE/s, a range with --latency-target.
. "$(dirname "$0")/../lib/common.sh"

require_cmd jq awk
require_rebench

export REBENCH_PLOTS=$TESTS_ROOT/plots
DEV=$(make_model --size 64m ssd:channels=1,read=7ms)
SW=(--rate 25..200*2 -b 4k -d 160k --seed 3)

section "the sweep: the table"
rb_ok "--rate 25..200*2" "${SW[@]}" --output "$SCRATCH/lc.tsv" "$DEV"
T=$SCRATCH/lc.tsv
# col NAME: the column of the table called NAME
col() { head -n 1 "$T" | tr '\t' '\n' | grep -nx "$1" | cut -d: -f1; }
for c in rate rate_asked rate_achieved rate_met intended_p50_us intended_p99_us intended_p999_us intended_max_us late_mean_us lat_p99_us; do
	assert_match '^[0-9]+$' "$(col "$c")" "the table has a column $c"
done
# cell RATE NAME: workload 1's NAME at the asked RATE
cell() { awk -F'\t' -v r="$(col rate_asked)" -v c="$(col "$2")" -v w="$(col workload)" \
	'NR > 1 && $w == 1 && $r + 0 == '"$1"' { print $c }' "$T"; }
assert_eq 4 "$(($(wc -l <"$T") - 1))" "four points"
for r in 25 50 100; do
	assert_eq yes "$(cell $r rate_met)" "$r ops/s is met"
	assert_num "$r ops/s: intended p99 $(cell $r intended_p99_us) us is about the 7 ms read (under 20 ms)" \
		"$(cell $r intended_p99_us) < 20000"
done
assert_eq no "$(cell 200 rate_met)" "200 ops/s is not met (the model serves about 140)"
assert_num "200 ops/s: achieved $(cell 200 rate_achieved), under 160" "$(cell 200 rate_achieved) < 160"
assert_num "200 ops/s: intended p99 $(cell 200 intended_p99_us) us at least 2x the submission p99 $(cell 200 lat_p99_us) us" \
	"$(cell 200 intended_p99_us) >= 2 * $(cell 200 lat_p99_us)"
assert_num "200 ops/s: intended p99 $(cell 200 intended_p99_us) us at least 3x that of 100 ops/s, $(cell 100 intended_p99_us) us (the queue grows)" \
	"$(cell 200 intended_p99_us) >= 3 * $(cell 100 intended_p99_us)"

section "the knee"
# knee_of: the knee of "ASKED MET P99" lines (MET yes or no), by the rule:
# below the lowest rate not met, the highest with p99 within 2x the least
# p99 of a rate met ("null" when none)
knee_of() {
	sort -g | awk '{ n++; A[n] = $1; M[n] = $2; P[n] = $3 + 0
			if ($2 == "yes" && (least == "" || $3 + 0 < least)) least = $3 + 0 }
		END { for (w = 1; w <= n && M[w] == "yes"; w++) ; k = "null"
			for (i = w - 1; i >= 1; i--) if (P[i] <= 2 * least) { k = A[i] + 0; break }
			print k }'
}
KNEE=$(awk -F'\t' -v r="$(col rate_asked)" -v m="$(col rate_met)" -v p="$(col intended_p99_us)" -v w="$(col workload)" \
	'NR > 1 && $w == 1 { print $r, $m, $p }' "$T" | knee_of)
assert_eq 100 "$KNEE" "the table's knee is 100 ops/s (the model's capacity is about 140)"
assert_match "^Knee: $KNEE ops/s \(achieved [0-9.]+, p99 from the intended start [0-9.]+ us\); 200 asked: achieved [0-9.]+, not met, p99 [0-9.]+ us" \
	"$RB_OUT" "the human Knee line: the knee and the rate that gave way"

# each format's knee from its own run's points (a loaded machine may
# make a point late in one run and not another)
rb_ok "--json" "${SW[@]}" --json "$DEV"
K=$(jqr '.sweep.runs[].workloads[0].results.rate | "\(.asked) \(if .met then "yes" else "no" end) \(.intended_latency_us.p99)"' | knee_of)
jq_later "$RB_OUT" "$K" '.sweep.load_curve.knee.asked' "JSON: sweep.load_curve.knee.asked is the rule's ($K)"
jq_later "$RB_OUT" 4 '.sweep.load_curve.points' "JSON: four points"
jq_later "$RB_OUT" false '.sweep.load_curve.gave_way.met' "JSON: the rate that gave way was not met"
rb_ok "-n" "${SW[@]}" -n "$DEV"
K=$(awk '$1 == "rate" { print $3, ($6 == "met" ? "yes" : "no"), $17 }' <<<"$RB_OUT" | knee_of)
KL=$(grep '^knee ' <<<"$RB_OUT")
assert_eq 9 "$(wc -w <<<"$KL")" "-n: the knee line has 9 fields"
assert_match "^knee ${K/null/-}(\.00)? [0-9.]+ [0-9.]+ [0-9.]+ [0-9]+\.00 [0-9.]+ [0-9.]+ not-met$" "$KL" "-n: the rule's knee ($K) and what gave way"
assert_eq 4 "$(grep -c '^rate 1 ' <<<"$RB_OUT")" "-n: a rate line per point"

section "--plot draws the load curve"
if command -v gnuplot >/dev/null; then
	rb_ok "--plot" "${SW[@]}" --plot "$SCRATCH/lc.svg" "$DEV"
	assert_match "Latency against load" "$(cat "$SCRATCH/lc.svg")" "the load curve's title"
	assert_match "knee: [0-9]+ ops/s asked" "$(cat "$SCRATCH/lc.svg")" "the knee marked"
	assert_match "asked 200" "$(cat "$SCRATCH/lc.svg")" "the rate not met labelled with the rate asked"
	assert_match "rate with p99 within 2x the least p99 of a rate met" "$(cat "$SCRATCH/lc.svg")" "the key says the knee's rule"
	# the first sweep's table, by hand, to a PNG
	if gnuplot -c "$REBENCH_PLOTS/loadcurve.gp" "$T" "$SCRATCH/lc.png" "$KNEE" >"$SCRATCH/gp.out" 2>&1; then
		pass "gnuplot -c loadcurve.gp TABLE lc.png $KNEE exits 0"
	else
		check_failed "gnuplot -c loadcurve.gp TABLE lc.png $KNEE exits 0" "$(cat "$SCRATCH/gp.out")"
	fi
	assert_png "$SCRATCH/lc.png" 1000 650 "loadcurve.gp"
else
	log "skip: no gnuplot"
fi

section "refused before any I/O"
model_snap "$DEV"
rb --rate 0..400/100 -b 4k -d 160k "$DEV"
assert_rc 1 "a range from 0: exit 1"
assert_match "an end of the range: a rate of 0 I/Os a second would never start an I/O" "$RB_ERR" "it says why"
rb --rate 100,0 -b 4k -d 160k "$DEV"
assert_rc 1 "a list with a 0: exit 1"
assert_match "the element '0': a rate of 0 I/Os a second would never start an I/O; give a rate above 0" "$RB_ERR" "it says which, why and how"
rb --rate 1m/s..4m/s*2 -b 4k -d 160k "$DEV"
assert_rc 1 "a range of SIZE/s: exit 1"
assert_match "a range of rates is in I/Os a second \(1k\.\.64k\*2\); give bytes a second as a list" "$RB_ERR" "it says how"
rb --rate 100..400*2 --latency-target 'p99<10ms' -b 4k "$DEV"
assert_rc 1 "a range with --latency-target: exit 1"
assert_match "the search chooses its own rates" "$RB_ERR" "it says why"
assert_eq 0 "$(model_delta "$DEV" requests.read)" "nothing was read by the refused runs"
