#!/usr/bin/env bash
# test_p9999.sh - the p99.99 latency of the data I/Os, a result section
# (src/report/section_p9999.c): JSON results.latency_p99_99_us, between
# p99.9 and max and the same as latency_us.p99_99, and the human line
# "Latency p99.99 (us):" after the headline latency; no -n field (the -n
# layout keeps its TERSE_FIELDS fields).  Byte-limited reads: counts, not
# timings.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

DEV=$(make_loop 64M)

section "JSON: results.latency_p99_99_us"
rb_ok "the JSON run exits 0" --json -t stateless -d 20000k -b 4k --seed 3 "$DEV"
assert_eq number "$(jqr '.workloads[0].results.latency_p99_99_us | type')" \
	"results.latency_p99_99_us is a number"
read -r p999 p9999 max lat9999 <<<"$(jqr '.workloads[0].results | [.latency_us.p99_9, .latency_p99_99_us, .latency_us.max, .latency_us.p99_99] | @tsv')"
assert_num "p99.9 $p999 <= p99.99 $p9999" "$p999 <= $p9999"
assert_num "p99.99 $p9999 <= max $max" "$p9999 <= $max"
assert_eq "$lat9999" "$p9999" "the same figure as latency_us.p99_99"
assert_eq "number" "$(jqr '.workloads[0].results | to_entries | last | .value | type')" \
	"the last key of results (a new section's keys follow the old ones)"

section "two workloads: the total has it too"
printf '%s\n' "--seed 4 $DEV" "--seed 5 $DEV" >"$SCRATCH/spec"
rb --json -t stateless -d 4000k -b 4k <"$SCRATCH/spec"
assert_rc 0 "two stdin workloads exit 0"
assert_eq number "$(jqr '.total.results.latency_p99_99_us | type')" \
	"total.results.latency_p99_99_us is a number"

section "human: the line after the headline latency"
rb_ok "the human run exits 0" -t stateless -d 20000k -b 4k --seed 3 "$DEV"
assert_match 'Latency p99\.99 \(us\): [0-9]+\.[0-9]' "$RB_OUT" "the Latency p99.99 line is printed"
assert_eq "Latency p99.99 (us):" \
	"$(printf '%s\n' "$RB_OUT" | awk '/^Latency \(us\):/ { getline; print $1, $2, $3; exit }')" \
	"it follows the Latency (us) line"

section "-n: no new field"
rb_ok "the -n run exits 0" -n -t stateless -d 400k -b 4k --seed 3 "$DEV"
assert_eq 129 "$(printf '%s\n' "$RB_OUT" | awk 'NR == 1 { print NF }')" "-n: 129 fields, as before"

