#!/usr/bin/env bash
# test_p9999.sh - the p99.99 latency of the data I/Os, a result section of
# its own (src/report/section_p9999.c): the human line "Latency p99.99
# (us):" after the headline latency, between that line's p99.9 and max, in
# each workload's block and the total's; JSON keeps it where it was
# (latency_us.p99_99, no second key); no -n field (the -n layout keeps its
# 129 fields).  Byte-limited reads: counts, not timings.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

DEV=$(make_loop 64M)

# p999_p9999_max: "P999 P9999 MAX" of the first Latency line and the
# p99.99 line after it, in RB_OUT
p999_p9999_max() {
	<<<"$RB_OUT" awk '
		/^Latency \(us\):/ && !l { for (i = 1; i < NF; i++) { if ($i == "p99.9") a = $(i + 1); if ($i == "max") m = $(i + 1) }; l = 1; next }
		l == 1 { if ($1 " " $2 " " $3 == "Latency p99.99 (us):") print a, $4, m; exit }'
}

section "human: the line after the headline latency"
rb_ok "the human run exits 0" -t stateless -d 20000k -b 4k --seed 3 "$DEV"
assert_match 'Latency p99\.99 \(us\): [0-9]+\.[0-9]' "$RB_OUT" "the Latency p99.99 line is printed"
read -r p999 p9999 max <<<"$(p999_p9999_max)"
assert_ne "" "$max" "it follows the Latency (us) line"
assert_num "p99.9 $p999 <= p99.99 $p9999" "$p999 <= $p9999"
assert_num "p99.99 $p9999 <= max $max" "$p9999 <= $max"

section "two workloads: each block and the total have it"
printf '%s\n' "--seed 4 $DEV" "--seed 5 $DEV" >"$SCRATCH/spec"
rb -t stateless -d 4000k -b 4k --yes <"$SCRATCH/spec"
assert_rc 0 "two stdin workloads exit 0"
assert_eq 3 "$(<<<"$RB_OUT" grep -c '^Latency p99\.99 (us): ')" \
	"three p99.99 lines: two workloads and All workloads"

section "JSON: the figure once, as before"
rb_ok "the JSON run exits 0" --json -t stateless -d 4000k -b 4k --seed 3 "$DEV"
assert_eq number "$(jqr '.workloads[0].results.latency_us.p99_99 | type')" "latency_us.p99_99 is a number"
assert_eq 0 "$(jqr '[.. | objects | keys[] | select(test("p99_99") and . != "p99_99")] | length')" \
	"no second key for it"

section "-n: no new field"
rb_ok "the -n run exits 0" -n -t stateless -d 400k -b 4k --seed 3 "$DEV"
assert_eq 129 "$(<<<"$RB_OUT" awk 'NR == 1 { print NF }')" "-n: 129 fields, as before"
