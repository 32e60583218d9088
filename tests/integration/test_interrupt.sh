#!/usr/bin/env bash
# test_interrupt.sh - Ctrl-C (SIGINT) stops every workload within a few
# seconds, prints the results so far, flushes --output files, and exits 130.
# serial: a bound on the time from a signal to the exit
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

DEV=$(make_loop 32M)
DEV2=$(make_loop 32M)

section "SIGINT during a 30 s run with --output"
F=$SCRATCH/series.tsv
spawn -d 30 -g 200 --output "$F" "$DEV"
interrupt_after 1.2
assert_num "exited within a few seconds of SIGINT (${STOP_MS} ms)" "$STOP_MS < 3000"
assert_eq 130 "$BG_RC" "exit status 130"
assert_match '^Benchmarking results for \['"$DEV"'\]' "$RB_OUT" "results block printed"
assert_match '^Operations/sec: [0-9]+ \(' "$RB_OUT" "Operations/sec line printed"
assert_match '^Latency \(us\): min ' "$RB_OUT" "Latency line printed"
assert_match '^Total: .* \(interrupted\)$' "$RB_OUT" "Total line says interrupted"
el=$(printf '%s\n' "$RB_OUT" | sed -nE 's/^Total: .* in ([0-9.]+) s, .*/\1/p')
assert_num "elapsed time is the time until the signal (${el} s)" "${el:-0} >= 1.0 && ${el:-0} < 3"
[ -f "$F" ] && pass "--output file exists" || fail "--output file exists"
assert_eq $'workload\ttime_s\tios\tops_per_s\tmib_per_s\tlat_avg_us\tlat_max_us' "$(head -n 1 "$F")" \
	"--output file has the header"
rows=$(tail -n +2 "$F" | wc -l)
assert_num "--output file has rows for the intervals run (got $rows)" "$rows >= 1 && $rows <= 15"

section "SIGINT with --json"
spawn -d 30 --json "$DEV"
interrupt_after 0.8
assert_eq 130 "$BG_RC" "exit status 130"
if printf '%s\n' "$RB_OUT" | jq -e . >/dev/null 2>&1; then
	pass "stdout is valid JSON"
else
	check_failed "stdout is valid JSON" "$(printf '%s\n' "$RB_OUT" | head -n 5)"
fi
assert_eq true "$(jqr .interrupted)" ".interrupted is true"
assert_num "results.elapsed_s below the 30 s asked for" "$(jqr '.workloads[0].results.elapsed_s') < 5"
assert_num "results.ios is positive" "$(jqr '.workloads[0].results.ios') > 0"

section "SIGINT with -n"
spawn -d 30 -n "$DEV"
interrupt_after 0.8
assert_eq 130 "$BG_RC" "exit status 130"
assert_eq 1 "$(printf '%s\n' "$RB_OUT" | awk 'NF && $1 != "device" { n++ } END { print n + 0 }')" "one -n line"
assert_eq 1 "$(printf '%s\n' "$RB_OUT" | awk 'NF { print $18; exit }')" "field 18 is 1 (interrupted)"

section "SIGINT stops every stdin workload; -g 0 log flushed"
printf '%s\n' "-b 4k -g 0 --output $SCRATCH/io.tsv $DEV" "-w seq -b 64k $DEV2" >"$SCRATCH/spec"
STDIN_FILE=$SCRATCH/spec spawn -d 30 --json
interrupt_after 1
assert_eq 130 "$BG_RC" "exit status 130"
assert_eq 2 "$(jqr '.workloads | length')" "both workloads reported"
assert_num "both stopped early" \
	"$(jqr '.workloads[0].results.elapsed_s') < 5 && $(jqr '.workloads[1].results.elapsed_s') < 5"
assert_eq "$(jqr '.workloads[0].results.ios')" "$(tail -n +2 "$SCRATCH/io.tsv" | wc -l)" \
	"per-I/O log has one row per I/O done before the signal"

section "SIGTERM also stops the run and prints results"
spawn -d 30 "$DEV"
interrupt_after 0.8 TERM
assert_match '^Operations/sec: ' "$RB_OUT" "results printed after SIGTERM"
assert_ne 0 "$BG_RC" "exit status is not 0 after SIGTERM (got $BG_RC)"
