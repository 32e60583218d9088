#!/usr/bin/env bash
# test_interrupt.sh - Ctrl-C (SIGINT) stops every workload, prints the
# results so far, flushes --output files, and exits 130.  Each run is
# signalled once it said it started (--ready-fd); how long a stop takes
# is bench/stop_times.sh's to print, not a check (a loaded machine
# stretches it).
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

DEV=$(make_loop 32M)
DEV2=$(make_loop 32M)

# stopped_early EL: the run's elapsed time EL (seconds) is the time until
# the signal: no less than the test let it run after it said ready, no
# more than the process lived, and short of the 30 s asked for
stopped_early() {
	local ran=$(( (SIG_NS - READY_NS) / 1000000 )) lived=$(( (EXIT_NS - SPAWN_NS) / 1000000 ))
	assert_num "elapsed $1 s is the time until the signal (ran $ran ms after ready, lived $lived ms)" \
		"${1:-0} * 1000 >= $ran - 1 && ${1:-0} * 1000 <= $lived + 1 && ${1:-0} < 30"
}

section "SIGINT during a 30 s run with --output"
F=$SCRATCH/series.tsv
spawn_ready -d 30 -g 200 --output "$F" "$DEV"
interrupt_after 1.2
assert_eq 130 "$BG_RC" "exit status 130"
assert_match '^Benchmarking results for \['"$DEV"'\]' "$RB_OUT" "results block printed"
assert_match '^Operations/sec: [0-9]+ \(' "$RB_OUT" "Operations/sec line printed"
assert_match '^Latency \(us\): min ' "$RB_OUT" "Latency line printed"
assert_match '^Total: .* \(interrupted\)$' "$RB_OUT" "Total line says interrupted"
el=$(<<<"$RB_OUT" sed -nE 's/^Total: .* in ([0-9.]+) s, .*/\1/p')
stopped_early "$el"
[ -f "$F" ] && pass "--output file exists" || fail "--output file exists"
assert_eq $'workload\ttime_s\tios\tops_per_s\tmib_per_s\tlat_avg_us\tlat_max_us' "$(grep -v '^#' "$F" | head -n 1)" \
	"--output file has the header (after its comment lines)"
rows=$(grep -v '^#' "$F" | tail -n +2 | wc -l)
assert_num "--output file has a row for each 200 ms interval run, the last one partial (got $rows for $el s)" \
	"$rows >= 1 && $rows >= int($el / 0.2) && $rows <= int($el / 0.2) + 1"

section "SIGINT with --json"
spawn_ready -d 30 --json "$DEV"
interrupt_after 0.8
assert_eq 130 "$BG_RC" "exit status 130"
if <<<"$RB_OUT" jq -e . >/dev/null 2>&1; then
	pass "stdout is valid JSON"
else
	check_failed "stdout is valid JSON" "$(<<<"$RB_OUT" head -n 5)"
fi
assert_eq true "$(jqr .interrupted)" ".interrupted is true"
stopped_early "$(jqr '.workloads[0].results.elapsed_s')"
assert_num "results.ios is positive" "$(jqr '.workloads[0].results.ios') > 0"

section "SIGINT with -n"
spawn_ready -d 30 -n "$DEV"
interrupt_after 0.8
assert_eq 130 "$BG_RC" "exit status 130"
assert_eq 1 "$(<<<"$RB_OUT" awk 'NF && $1 != "device" { n++ } END { print n + 0 }')" "one -n line"
assert_eq 1 "$(<<<"$RB_OUT" awk 'NF { print $18; exit }')" "field 18 is 1 (interrupted)"

section "SIGINT stops every stdin workload; -g 0 log flushed"
printf '%s\n' "-b 4k -g 0 --output $SCRATCH/io.tsv $DEV" "-w seq -b 64k $DEV2" >"$SCRATCH/spec"
STDIN_FILE=$SCRATCH/spec spawn_ready -d 30 --json
interrupt_after 1
assert_eq 130 "$BG_RC" "exit status 130"
assert_eq 2 "$(jqr '.workloads | length')" "both workloads reported"
stopped_early "$(jqr '.workloads[0].results.elapsed_s')"
stopped_early "$(jqr '.workloads[1].results.elapsed_s')"
assert_eq "$(jqr '.workloads[0].results.ios')" "$(tail -n +2 "$SCRATCH/io.tsv" | wc -l)" \
	"per-I/O log has one row per I/O done before the signal"

section "SIGTERM also stops the run and prints results"
spawn_ready -d 30 "$DEV"
interrupt_after 0.8 TERM
assert_match '^Operations/sec: ' "$RB_OUT" "results printed after SIGTERM"
assert_ne 0 "$BG_RC" "exit status is not 0 after SIGTERM (got $BG_RC)"
