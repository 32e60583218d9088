#!/usr/bin/env bash
# test_sync_policies.sh - --sync (issue 15): fsync:N, fdatasync:N and sfr:N
# issue exactly writes/N flushes of their kind, end exactly one fsync and
# none zero (from the per-operation counts, and from strace); sfr:N passes
# the range written since the last one, and only the engines that can
# issue sync_file_range take it;
# dsync and sync open with O_DSYNC and O_SYNC, rwf-dsync flags each
# pwritev2; O_DSYNC and RWF_DSYNC writes are slower than unflushed ones on
# a loop device; a list sweeps; bad policies are
# refused before any I/O with the fix.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq strace awk

DEV=$(make_loop 64M)
# 64 writes of 4k in one thread: the counts below are exact
W="-o write -w seq -b 4k -d 256k --seed 5 -y"

# ios OP: the per-operation count of the last --json run, 0 when absent
ios() { jqr ".workloads[0].results.operations.$1.ios // 0"; }

section "flushes after every N writes, once at the end, or never"
for case in "fsync:1 fsync 64" "fsync:4 fsync 16" "fsync:64 fsync 1" \
	"fsync:5 fsync 12" "fdatasync:1 fdatasync 64" "fdatasync:8 fdatasync 8" \
	"sfr:1 sync_file_range 64" "sfr:4 sync_file_range 16" \
	"sfr:7 sync_file_range 9" "sfr:64 sync_file_range 1" \
	"end fsync 1" "none fsync 0" "dsync fsync 0" "sync fsync 0" \
	"rwf-dsync fsync 0"; do
	set -- $case
	# shellcheck disable=SC2086
	rb $W --sync "$1" --json "$DEV"
	assert_rc 0 "--sync $1: exit 0"
	assert_eq 64 "$(ios write)" "--sync $1: 64 writes"
	assert_eq "$3" "$(ios "$2")" "--sync $1: $3 ${2}s"
	for other in fsync fdatasync sync_file_range; do
		[ "$other" = "$2" ] ||
			assert_eq 0 "$(ios $other)" "--sync $1: no $other"
	done
	assert_eq "$1" "$(jqr '.workloads[0].parameters.sync')" "--sync $1: JSON parameters.sync"
done
rb $W --sync fdatasync:8 --json "$DEV"
assert_num "fdatasync:8: the flushes have a latency of their own" \
	"$(jqr '.workloads[0].results.operations.fdatasync.latency_us.p50') > 0"
rb $W -p --sync sfr:8 --json "$DEV"
assert_num "sfr:8 -p: the sync_file_ranges wait for writeback, a latency of their own" \
	"$(jqr '.workloads[0].results.operations.sync_file_range.latency_us.p50') > 0"
assert_eq 0 "$(jqr '.workloads[0].results.operations.sync_file_range.bytes')" \
	"sfr:8: a sync_file_range moves no bytes of its own"
rb $W -f --json "$DEV"
assert_eq none "$(jqr '.workloads[0].parameters.sync')" "-f is the policy none"
assert_eq false "$(jqr '.workloads[0].parameters.flush')" "-f: flush false"
rb $W --json "$DEV"
assert_eq dsync "$(jqr '.workloads[0].parameters.sync')" "the default is dsync"

section "every engine issues the same flushes (the stream decides them)"
for e in "stateless -c 2" "paio -q 4" "naio -q 4" "uring -q 4" "mmap -p"; do
	# shellcheck disable=SC2086
	rb $W -t $e --sync fdatasync:4 --json "$DEV"
	assert_rc 0 "-t $e: exit 0"
	assert_eq "64 16" "$(ios write) $(ios fdatasync)" "-t $e: 64 writes, 16 fdatasyncs"
done
for e in "stateful" "stateless -c 2" "uring -q 4" "uring -q 4 -p"; do
	# shellcheck disable=SC2086
	rb $W -t $e --sync sfr:4 --json "$DEV"
	assert_rc 0 "-t $e --sync sfr:4: exit 0"
	assert_eq "64 16" "$(ios write) $(ios sync_file_range)" "-t $e: 64 writes, 16 sync_file_ranges"
done

section "human and terse output report the flushes"
rb $W --sync fsync:4 "$DEV"
assert_match 'flush: fsync:4\]' "$RB_OUT" "the settings line names the policy"
assert_match '^Flushes: 16 fsync, [0-9]+/sec; latency' "$RB_OUT" "human output: 16 fsyncs on a line of their own"
assert_match '^Total: 64 I/Os and 16 flushes' "$RB_OUT" "human output: 64 writes, the flushes apart"
rb $W --sync sfr:4 "$DEV"
assert_match 'flush: sfr:4\]' "$RB_OUT" "the settings line names sfr:4"
assert_match '^Flushes: 16 sync_file_range, [0-9]+/sec; latency' "$RB_OUT" \
	"human output: 16 sync_file_ranges on a line of their own, no MB/sec"
assert_match '^Total: 64 I/Os and 16 flushes' "$RB_OUT" "human output: 64 writes, the flushes apart"
rb $W --sync sfr:4 -n "$DEV"
read -r -a f <<<"$RB_OUT"
assert_eq "$TV 64 16 0 0.003906" "${f[12]} ${f[33]} ${f[82]} ${f[83]} ${f[81]}" \
	"-n: version $TV; 64 writes (field 34); 16 sync_file_ranges (field 83), 0 bytes (84); the passes, 64 of 16384 slots, stay in 82"
rb $W "$DEV"
assert_match 'flush: on\]' "$RB_OUT" "the default's settings line is unchanged"

section "strace counts the same flushes"
for e in stateful stateless; do
	# shellcheck disable=SC2086
	timeout 60 strace -f -c -o "$SCRATCH/strace.txt" \
		-e trace=fsync,fdatasync,write,pwrite64 \
		"$REBENCH" $W -t $e --sync fdatasync:4 -n "$DEV" >/dev/null 2>&1
	calls() { awk -v c="$1" '$NF == c { print $4 }' "$SCRATCH/strace.txt"; }
	assert_eq 16 "$(calls fdatasync)" "$e: strace counts 16 fdatasync calls"
	assert_eq "" "$(calls fsync)" "$e: and no fsync"
	[ $e = stateless ] && assert_eq 64 "$(calls pwrite64)" "$e: strace counts 64 pwrite64 calls"
done
for e in stateful stateless; do
	# shellcheck disable=SC2086
	timeout 60 strace -f -c -o "$SCRATCH/strace.txt" \
		-e trace=sync_file_range,fsync,fdatasync \
		"$REBENCH" $W -t $e --sync sfr:4 -n "$DEV" >/dev/null 2>&1 ||
		fail "sfr:4, $e, under strace: exit $?"
	assert_eq "16 no flush" "$(awk '$NF == "sync_file_range" { n = $4 } $NF ~ /sync$/ { f = 1 } END { print n, (f ? "flush" : "no flush") }' "$SCRATCH/strace.txt")" \
		"sfr:4, $e: strace -c counts 16 sync_file_range calls, no fsync or fdatasync"
done
# the range of each: the 4 sequential 4 KiB writes before it, from where
# the first began, with fio's three flags
# shellcheck disable=SC2086
timeout 60 strace -f -o "$SCRATCH/sfr.txt" -e trace=sync_file_range \
	"$REBENCH" $W -t stateless --sync sfr:4 -n "$DEV" >/dev/null 2>&1 ||
	fail "sfr:4 ranges under strace: exit $?"
want=$(for i in $(seq 0 15); do
	printf 'sync_file_range(%d, 16384, SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER) = 0\n' $((i * 16384))
done)
assert_eq "$want" "$(sed -n 's/^.*sync_file_range([0-9]*, /sync_file_range(/p' "$SCRATCH/sfr.txt")" \
	"sfr:4, seq: the 16 calls cover 0-16k, 16k-32k, ... with WAIT_BEFORE|WRITE|WAIT_AFTER"
# shellcheck disable=SC2086
timeout 60 strace -f -c -o "$SCRATCH/strace.txt" -e trace=fsync,fdatasync \
	"$REBENCH" $W -t stateless --sync end -n "$DEV" >/dev/null 2>&1 ||
	fail "--sync end under strace: exit $?"
assert_eq 1 "$(awk '$NF == "fsync" { print $4 }' "$SCRATCH/strace.txt")" "end: strace counts 1 fsync"
for e in stateless stateful; do
	# shellcheck disable=SC2086
	timeout 60 strace -f -o "$SCRATCH/rwf.txt" -e trace=pwritev2,pwrite64,write,fsync,fdatasync \
		"$REBENCH" $W -t $e --sync rwf-dsync -n "$DEV" >/dev/null 2>&1 ||
		fail "rwf-dsync, $e, under strace: exit $?"
	assert_eq 64 "$(grep -c 'pwritev2(.*, RWF_DSYNC) = 4096$' "$SCRATCH/rwf.txt")" \
		"rwf-dsync, $e: 64 pwritev2 calls with RWF_DSYNC"
	assert_eq 0 "$(grep -c 'fsync(\|fdatasync(\|pwrite64(' "$SCRATCH/rwf.txt")" \
		"rwf-dsync, $e: no flush calls and no pwrite64"
done

section "dsync and sync are flags of the open"
opens() {	# opens POLICY: the flags rebench opened $DEV with for I/O
	# shellcheck disable=SC2086
	timeout 60 strace -f -e trace=openat -o "$SCRATCH/open.txt" \
		"$REBENCH" $W --sync "$1" -n "$DEV" >/dev/null 2>&1 ||
		fail "--sync $1 under strace: exit $?"
	grep -F "\"$DEV\"" "$SCRATCH/open.txt" | grep O_DIRECT | head -1
}
assert_match 'O_DSYNC' "$(opens dsync)" "dsync opens with O_DSYNC"
assert_no_match 'O_SYNC' "$(opens dsync)" "dsync does not open with O_SYNC"
assert_match 'O_SYNC' "$(opens sync)" "sync opens with O_SYNC"
for p in none fsync:4 sfr:4 end rwf-dsync; do
	assert_no_match 'O_D?SYNC' "$(opens $p)" "$p opens without O_DSYNC or O_SYNC"
done

section "O_DSYNC writes are slower than unflushed ones (direct I/O on a loop device)"
# a loop device that itself does direct I/O to its image: a FUA write
# becomes a write and a flush of the image on the disk below, an order of
# magnitude, so the order is safe to check
DIO=$(losetup -f --show --direct-io=on "$(make_image 16M)") || fail "losetup --direct-io=on failed"
_register loops "$DIO"
assert_eq 1 "$(cat "/sys/block/$(basename "$DIO")/loop/dio")" "$DIO does direct I/O to its image"
rb -o write -w seq -b 4k -d 4m --sync none --json -y "$DIO"
none=$(jqr '.workloads[0].results.operations.write.latency_us.p50')
rb -o write -w seq -b 4k -d 4m --sync dsync --json -y "$DIO"
dsync=$(jqr '.workloads[0].results.operations.write.latency_us.p50')
num_true "$dsync > $none" &&
	pass "median write: dsync $dsync us > none $none us" ||
	check_failed "median write: dsync $dsync us > none $none us"
for e in stateless naio uring; do
	rb -o write -w seq -b 4k -d 4m -t $e --sync none --json -y "$DEV"
	none=$(jqr '.workloads[0].results.operations.write.latency_us.p50')
	rb -o write -w seq -b 4k -d 4m -t $e --sync rwf-dsync --json -y "$DEV"
	rwf=$(jqr '.workloads[0].results.operations.write.latency_us.p50')
	num_true "$rwf > $none" &&
		pass "-t $e: median write: rwf-dsync $rwf us > none $none us" ||
		check_failed "-t $e: median write: rwf-dsync $rwf us > none $none us"
done

section "a list sweeps the policies"
rb $W --sync none,fdatasync:1 --json "$DEV"
assert_rc 0 "--sync none,fdatasync:1: exit 0"
assert_eq 2 "$(jqr '.sweep.runs | length')" "two runs"
assert_eq '["none","fdatasync:1"]' "$(jqr '[.sweep.runs[].workloads[0].parameters.sync] | tojson')" \
	"one run per policy"
assert_eq '[0,64]' "$(jqr '.sweep.runs | map(.workloads[0].results.operations.fdatasync.ios // 0) | tojson')" \
	"no fdatasync, then one per write"
rb $W --sync none,fsync:2 -n "$DEV"
assert_eq 2 "$(<<<"$RB_OUT" grep -vc '^device \|^$')" "-n: two rows (and a device line each)"

section "--fio writes each policy in fio's words"
for case in "dsync sync=dsync" "sync sync=sync" "fsync:4 fsync=4" \
	"fdatasync:2 fdatasync=2" "end end_fsync=1" \
	"sfr:4 sync_file_range=wait_before,write,wait_after:4"; do
	set -- $case
	# shellcheck disable=SC2086
	rb $W --sync "$1" --fio "$DEV"
	assert_match "^$2\$" "$RB_OUT" "--fio --sync $1: $2"
done
rb $W --sync none --fio "$DEV"
assert_no_match '^(sync|fsync|fdatasync|end_fsync|sync_file_range)=' "$RB_OUT" "--fio --sync none: no sync option"
rb $W --sync rwf-dsync --fio "$DEV"
assert_rc 1 "--fio --sync rwf-dsync: refused"
assert_match "fio has no option that flags each write RWF_DSYNC" "$RB_ERR" "... saying why"
rb -o write/90:fsync/10 -d 256k --sync fsync:2 --fio "$DEV"
assert_rc 1 "--fio: a policy's flushes with a mix's are refused"
assert_match "fio's job takes one fsync=N or fdatasync=N" "$RB_ERR" "... saying why"

section "bad policies are refused before any I/O, with the fix"
before=$(dev_sum "$DEV")
refuse() {	# refuse MESSAGE ARGS...
	local msg=$1
	shift
	rb -y "$@" "$DEV"
	assert_rc 1 "$*: exit 2"
	assert_eq "rebench: $msg" "$RB_ERR" "$*: the message"
	assert_eq "" "$RB_OUT" "$*: nothing on stdout"
}
refuse "invalid value 'fsync:0' for --sync: the count after fsync: must be a whole number of writes from 1 to 1000000000 (fsync:1 flushes after every write)" \
	-o write --sync fsync:0
refuse "invalid value 'fdatasync' for --sync: fdatasync needs a count of writes per flush, e.g. fdatasync:1 (after every write) or fdatasync:16" \
	-o write --sync fdatasync
refuse "invalid value 'fsnyc:4' for --sync: unknown policy; expected none, fsync:N, fdatasync:N, sfr:N, dsync, sync, rwf-dsync or end (or fio's 0 and 1: none and sync)" \
	-o write --sync fsnyc:4
refuse "invalid value 'dsync:2' for --sync: dsync takes no count; expected none, fsync:N, fdatasync:N, sfr:N, dsync, sync, rwf-dsync or end (or fio's 0 and 1: none and sync)" \
	-o write --sync dsync:2
refuse "--sync sync: the workload does not write (its -o has no write), and a sync policy applies to writes only; add writes to -o (-o write, -o rw), or drop --sync" \
	-o read --sync sync
refuse "-f/--buffered is --sync none, but --sync fsync:4 asks for another policy; drop -f or --sync" \
	-o write -f --sync fsync:4
refuse "--sync end: the run ends at its deadline (-d as a time), after which nothing is issued, so the last write is not known in advance; give -d as bytes or % of the region (-d 64m, -d 100%), or use fsync:N" \
	-o write -d 1s --sync end
refuse "--sync rwf-dsync: the paio engine has no per-write RWF_DSYNC flag; use -t stateless, stateful, naio or uring, or --sync dsync (O_DSYNC, the same guarantee for every write)" \
	-o write -t paio --sync rwf-dsync
refuse "invalid value 'sfr:0' for --sync: the count after sfr: must be a whole number of writes from 1 to 1000000000 (sfr:1 flushes after every write)" \
	-o write --sync sfr:0
refuse "invalid value 'sfr:x' for --sync: the count after sfr: must be a whole number of writes from 1 to 1000000000 (sfr:1 flushes after every write)" \
	-o write --sync sfr:x
refuse "invalid value 'sfr' for --sync: sfr needs a count of writes per flush, e.g. sfr:1 (after every write) or sfr:16" \
	-o write --sync sfr
for e in "naio -q 4" "paio -q 4" "mmap -p"; do
	# shellcheck disable=SC2086
	refuse "--sync sfr:4: the ${e%% *} engine cannot issue sync_file_range; use -t stateless, stateful or uring, or --sync fdatasync:4 (a flush of the whole file after as many writes)" \
		-o write -t $e --sync sfr:4
done
refuse "invalid value 'write/90:sync_file_range/10' for -o/--operation: sync_file_range cannot be drawn in a mix: its range is the writes since the last one; use --sync sfr:N for one after every N writes" \
	-o write/90:sync_file_range/10
assert_eq "$before" "$(dev_sum "$DEV")" "the device is unchanged"
rb -y -o write -w seq -a -e 1m -d 64k --sync sfr:2 "$SCRATCH/append.dat"
assert_rc 1 "--sync sfr:2 -a: refused"
assert_eq "rebench: --sync sfr:2 with -a: an appended write lands at the file's end, wherever that is when it is issued, so the range a sync_file_range must cover is not known; use --sync fdatasync:2, or drop -a" \
	"$RB_ERR" "--sync sfr:2 -a: the message"

