#!/usr/bin/env bash
# test_engines.sh - every engine of this build runs every operation it
# supports (read, write, rw; trim on stateful, stateless and mmap) on a
# regular file and on a 512-byte-sector loop device, at depth 1 and, for the
# async engines, at depth 8 in batches of 4: exactly -d 400k / -b 4k = 100
# I/Os, 409600 bytes, status complete, and for rw reads + writes = ios.  A
# timed run at depth 8 reports ordered latencies; threads and depth combine;
# two stdin workloads on different async engines run together; invalid
# combinations are refused with exit 1 and a message naming the problem.
# An engine this build lacks is reported as skipped with its reason.
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

FILE=$SCRATCH/engines.dat
DEV=$(make_loop 64M)

# ---------------------------------------------------------------- engines

declare -A KIND UNAVAIL
ENGINES=()
while IFS= read -r line; do
	case $line in
	" "*"not available:"*)
		UNAVAIL[$last]=${line#*not available: }
		;;
	[a-z]*)
		last=${line%% *}
		ENGINES+=("$last")
		KIND[$last]=$(<<<"$line" awk '{ print $2 }')
		;;
	esac
done < <("$REBENCH" --engines)
[ ${#ENGINES[@]} -ge 6 ] || fail "rebench --engines lists ${#ENGINES[@]} engines, expected 6" \
	"$("$REBENCH" --engines 2>&1)"
log "engines: ${ENGINES[*]}"

AVAIL_ASYNC=()
for e in "${ENGINES[@]}"; do
	[ "${KIND[$e]}" = async ] && [ -z "${UNAVAIL[$e]:-}" ] && AVAIL_ASYNC+=("$e")
done
log "available async engines: ${AVAIL_ASYNC[*]:-none}"

# first available engine of the arguments, or nothing
first_avail() {
	local e
	for e in "$@"; do
		if [ -n "${KIND[$e]:-}" ] && [ -z "${UNAVAIL[$e]:-}" ]; then
			printf '%s\n' "$e"
			return
		fi
	done
}

DISCARD=$(cat "/sys/block/$(basename "$DEV")/queue/discard_max_bytes" 2>/dev/null || echo 0)

# run_100 WHAT ARGS...: 100 I/Os of 4 KiB (-d 400k); exit 0, field 14 (I/Os)
# 100, field 15 (bytes) 409600, field 18 (status) 0.
run_100() {
	local what=$1
	shift
	rb -n --yes -b 4k -d 400k "$@"
	assert_rc 0 "$what: exit 0"
	[ "$RB_RC" = 0 ] || return 0
	assert_eq "100 409600 0" "$(terse_field 14) $(terse_field 15) $(terse_field 18)" \
		"$what: 100 I/Os, 409600 bytes, status 0"
}

# rw_json WHAT ARGS...: -o rw with --json; reads + writes == ios == 100.
rw_json() {
	local what=$1 ios reads writes
	shift
	rb --json --yes -b 4k -d 400k -o rw "$@"
	assert_rc 0 "$what --json: exit 0"
	[ "$RB_RC" = 0 ] || return 0
	read -r ios reads writes <<<"$(jqr '.workloads[0].results | "\(.ios) \(.reads) \(.writes)"')"
	assert_eq "100 100" "$ios $((reads + writes))" \
		"$what --json: reads + writes == ios == 100 ($reads + $writes)"
}

section "create the file target with -e 16m"
rb -n --yes -b 4k -e 16m -d 400k "$FILE"
assert_rc 0 "rebench creates $FILE with -e 16m"
assert_eq 16777216 "$(stat -c %s "$FILE" 2>/dev/null)" "the file is 16 MiB"

for e in "${ENGINES[@]}"; do
	if [ -n "${UNAVAIL[$e]:-}" ]; then
		section "$e: skipped: ${UNAVAIL[$e]}"
		log "SKIP $e: ${UNAVAIL[$e]}"
		rb -n -t "$e" -b 4k -d 400k "$DEV"
		assert_rc 1 "$e (not in this build): -t $e is refused with exit 1"
		assert_match "install .*-dev" "$RB_ERR" "$e (not in this build): the refusal says which package to install"
		continue
	fi
	section "$e (${KIND[$e]})"
	ops="read write rw"
	case $e in stateful|stateless|mmap) ops="$ops trim" ;; esac
	extra=()
	[ "$e" = mmap ] && extra=(-p)
	depths=("1")
	[ "${KIND[$e]}" = async ] && depths=("1" "8 --batch 4")
	for tgt in file dev; do
		path=$FILE
		[ "$tgt" = dev ] && path=$DEV
		for op in $ops; do
			if [ "$op" = trim ] && [ "$tgt" = dev ] && [ "${DISCARD:-0}" -eq 0 ]; then
				log "SKIP $e trim on $DEV: the loop device has no discard support"
				continue
			fi
			for d in "${depths[@]}"; do
				# shellcheck disable=SC2086
				run_100 "$e -o $op -q $d on $tgt" -t "$e" ${extra[@]+"${extra[@]}"} -o "$op" -q $d "$path"
				if [ "$op" = rw ]; then
					# shellcheck disable=SC2086
					rw_json "$e -o rw -q $d on $tgt" -t "$e" ${extra[@]+"${extra[@]}"} -q $d "$path"
				fi
			done
		done
	done
	if [ "${KIND[$e]}" = async ]; then
		rb -n -t "$e" -q 8 --batch 4 -b 4k -d 300ms "$DEV"
		assert_rc 0 "$e timed run -q 8 --batch 4 -d 300ms: exit 0"
		read -r lmin lp50 lmax ios st <<<"$(terse_field 6) $(terse_field 8) $(terse_field 12) $(terse_field 14) $(terse_field 18)"
		assert_num "$e timed run: I/Os > 0 ($ios) and status 0 ($st)" "${ios:-0} > 0 && \"${st:-x}\" == \"0\""
		assert_num "$e timed run: latency min <= p50 <= max ($lmin <= $lp50 <= $lmax)" \
			"${lmin:-1} > 0 && ${lmin:-1} <= ${lp50:-0} && ${lp50:-1} <= ${lmax:-0}"
	fi
done
if [ ${#AVAIL_ASYNC[@]} -eq 0 ]; then
	log "SKIP async engine checks: no asynchronous engine is available in this build"
fi

section "writes through every engine land in the region, and only there"
M=1048576
# region_sums: checksums of [0,8m) [8m,9m) [9m,64m) of the device
region_sums() {
	echo "$(dev_sum "$DEV" 0 $((8 * M))) $(dev_sum "$DEV" $((8 * M)) $M) $(dev_sum "$DEV" $((9 * M)) $((55 * M)))"
}
for e in "${ENGINES[@]}"; do
	[ -n "${UNAVAIL[$e]:-}" ] && continue
	args=(-t "$e")
	[ "$e" = mmap ] && args+=(-p)
	[ "${KIND[$e]}" = async ] && args+=(-q 8 --batch 4)
	read -r b0 b1 b2 <<<"$(region_sums)"
	rb -n --yes -o write -w seq -b 4k -j 8m -e 1m -d 1m "${args[@]}" "$DEV"
	assert_rc 0 "$e: sequential writes over -j 8m -e 1m exit 0"
	assert_eq "256 0" "$(terse_field 14) $(terse_field 18)" "$e: 256 writes, status 0"
	read -r a0 a1 a2 <<<"$(region_sums)"
	assert_ne "$b1" "$a1" "$e: the region [8m,9m) changed"
	assert_eq "$b0 $b2" "$a0 $a2" "$e: nothing outside the region changed"
done

section "engine names and fio aliases on the command line"
for pair in sync:stateful psync:stateless posixaio:paio libaio:naio io_uring:uring; do
	alias=${pair%%:*} name=${pair#*:}
	if [ -n "${UNAVAIL[$name]:-}" ]; then
		log "SKIP -t $alias: $name is not in this build"
		continue
	fi
	rb --json -t "$alias" -b 4k -d 400k "$DEV"
	assert_rc 0 "-t $alias: exit 0"
	assert_eq "$name" "$(jqr '.workloads[0].parameters.engine')" "-t $alias runs the $name engine"
done

section "uring polled completions (--hipri)"
if [ -z "${UNAVAIL[uring]:-}" ]; then
	rb -n -t uring --hipri -p -b 4k -d 400k "$DEV"
	assert_rc 1 "--hipri -p: exit 1"
	assert_match "need O_DIRECT" "$RB_ERR" "--hipri -p: the message says polled completions need O_DIRECT"
	if [ "$(cat "/sys/block/$(basename "$DEV")/queue/io_poll" 2>/dev/null || echo 0)" = 0 ]; then
		rb -n -t uring --hipri -b 4k -d 400k "$DEV"
		# the loop driver has no poll queues (queue/io_poll is 0):
		# refused before any I/O instead of failing in the run
		assert_rc 1 "--hipri on a device without poll queues: refused, exit 1"
		assert_match "no poll queues" "$RB_ERR" "--hipri without poll queues: the message says why"
	fi
else
	log "SKIP --hipri checks: uring is not in this build"
fi

section "invalid combinations are refused (exit 1) with a clear message"
# refused WHAT REGEX ARGS...: exit 1, and stderr matches REGEX
refused() { assert_refused "$@"; }
refused "mmap without -p" "O_DIRECT.*add -p" -t mmap -b 4k -d 400k "$FILE"
refused "-q 4 with stateless" "synchronous" -t stateless -q 4 -b 4k -d 400k "$DEV"
A=$(first_avail paio naio uring)
if [ -n "$A" ]; then
	refused "--batch 8 with -q 4 ($A)" "larger than the queue depth" -t "$A" -q 4 --batch 8 -b 4k -d 400k "$DEV"
fi
A=$(first_avail naio paio)
if [ -n "$A" ]; then
	refused "--sqpoll with $A" "--sqpoll.*uring only" -t "$A" --sqpoll -q 4 -b 4k -d 400k "$DEV"
	refused "-t $A -o trim" "cannot discard" -t "$A" -o trim --yes -b 4k -d 400k "$DEV"
fi
A=$(first_avail uring naio paio)
if [ -n "$A" ]; then
	refused "-z with $A" "think time" -t "$A" -z 100 -q 2 -b 4k -d 400k "$DEV"
fi
refused "stateful -c 2 without -l" "local-fd" -t stateful -c 2 -b 4k -d 400k "$DEV"
refused "--batch with a synchronous engine" "batching" -t stateless --batch 2 -b 4k -d 400k "$DEV"
run_100 "stateful -c 2 -l (the fix the message suggests)" -t stateful -c 2 -l "$DEV"

section "threads x depth"
A=$(first_avail uring naio paio)
if [ -n "$A" ]; then
	run_100 "-t $A -q 4 -c 2 -d 400k (two threads, four in flight each)" -t "$A" -q 4 -c 2 "$DEV"
	run_100 "-t $A -q 4 --batch 2 -c 2 -l -o write" -t "$A" -q 4 --batch 2 -c 2 -l -o write "$FILE"
else
	log "SKIP threads x depth: no asynchronous engine in this build"
fi

section "two concurrent stdin workloads on different async engines"
if [ ${#AVAIL_ASYNC[@]} -ge 1 ]; then
	E1=${AVAIL_ASYNC[0]}
	E2=${AVAIL_ASYNC[1]:-${AVAIL_ASYNC[0]}}
	[ "$E1" = "$E2" ] && log "only one async engine ($E1): both workloads use it"
	SPEC=$SCRATCH/spec
	printf '%s\n' "-t $E1 -q 8 --batch 4 $DEV" "-t $E2 -q 4 -o rw $FILE" >"$SPEC"
	rb -n --yes -b 4k -d 400k <"$SPEC"
	assert_rc 0 "stdin: $E1 on the device and $E2 on the file together: exit 0"
	assert_eq 3 "$(<<<"$RB_OUT" grep -vc '^device \|^$')" "stdin: two result lines and their total"
	assert_eq "100 409600 0|100 409600 0|200 819200 0" \
		"$(<<<"$RB_OUT" awk 'NF && $1 != "device" { print $14, $15, $18 }' | paste -sd'|')" \
		"stdin: each workload did 100 I/Os, 409600 bytes, status 0; the total 200 I/Os"
	rb --json --yes -b 4k -d 400k <"$SPEC"
	assert_rc 0 "stdin --json: exit 0"
	assert_eq "$E1 $E2" "$(jqr '[.workloads[].parameters.engine] | join(" ")')" \
		"stdin --json: each workload reports its own engine"
else
	log "SKIP concurrent async workloads: no asynchronous engine in this build"
fi
