#!/usr/bin/env bash
# stop_times.sh (make crosscheck) - how long rebench takes to stop, the
# figures the tests no longer bound (issue 29: a loaded machine stretches
# them, and a test checks only what must hold).
#
# Each case starts a run that says when its measured run started
# (--ready-fd: spawn_ready in tests/lib/common.sh), lets it run for a
# moment, sends the signal and times the exit (interrupt_after's STOP_MS):
# a plain read run (SIGINT, SIGTERM), -n, --json, an hour of think time
# (-z), and deep queues (paio -q 65536, uring -q 32768), whose elapsed time
# for -d 1 says how far past its deadline a run drained (once 24 to 125 s).
# A figure over STOP_TOL ms (1000) is flagged SLOW and counted, never a
# failure: only a run that does not stop, or fails, makes the script exit
# non-zero.
#
# STOP_RUNS=N runs of each case (3; the table shows the median and the
# largest).
. "$(dirname "$0")/../tests/lib/common.sh"

require_loop
require_cmd jq

RUNS=${STOP_RUNS:-3}
TOL=${STOP_TOL:-1000}
SLOW=0
ROWS=()

DEV=$(make_loop 64M)

# median_max N...: "median max" of the numbers
median_max() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[NR] }'; }

# row WHAT UNIT VALUES...: a table row, flagged over the tolerance
row() {
	local what=$1 unit=$2 med max verdict=ok
	shift 2
	read -r med max <<<"$(median_max "$@")"
	num_true "$max > $TOL" && { verdict=SLOW; SLOW=$((SLOW + 1)); }
	ROWS+=("$(printf '%-32s %8s %8s %-3s %s' "$what" "$med" "$max" "$unit" "$verdict")")
}

# stop WHAT SIGNAL ARGS...: RUNS stops of rebench ARGS by SIGNAL
stop() {
	local what=$1 sig=$2 i ms=()
	shift 2
	for i in $(seq "$RUNS"); do
		spawn_ready "$@"
		interrupt_after 0.5 "$sig"
		case $BG_RC in 130 | 143) ;; *) die "$what: exit $BG_RC after SIG$sig" "$RB_ERR" ;; esac
		ms+=("$STOP_MS")
	done
	row "$what (SIG$sig)" ms "${ms[@]}"
}

stop "read, human" INT -d 30 "$DEV"
stop "read, human" TERM -d 30 "$DEV"
stop "read, -n" INT -d 30 -n "$DEV"
stop "read, --json" INT -d 30 --json "$DEV"
stop "an hour of think time" INT -z 3600000000 -d 30 "$DEV"

# deep queues: -d 1's elapsed time, in ms
for e in "paio 65536" "uring 32768"; do
	set -- $e
	"$REBENCH" --engines | grep -q "^$1 " || { log "engine $1 not built"; continue; }
	ms=()
	for i in $(seq "$RUNS"); do
		rb -t "$1" -q "$2" -b 4k -d 1 --json "$DEV"
		[ "$RB_RC" = 0 ] || die "-t $1 -q $2 -d 1: exit $RB_RC" "$RB_ERR"
		ms+=("$(calc "int($(jqr '.workloads[0].results.elapsed_s') * 1000 - 1000)")")
	done
	row "-t $1 -q $2 -d 1: past -d" ms "${ms[@]}"
done

printf '%-32s %8s %8s\n' case median max
printf '%s\n' "${ROWS[@]}"
log "$SLOW of ${#ROWS[@]} cases over $TOL ms (medians and maxima of $RUNS runs)"
exit 0
