#!/usr/bin/env bash
# test_replay.sh - rebench --replay (issue 14, Replay): asap and grouped,
# onto a new file and onto a loop device; each operation type's count and
# bytes equal the log's statistics (--trace-stats -n) less the failed
# calls, in the run's results and in the replay object.  Bad input runs
# nothing: a missing log, an unknown version, a corrupt line, a target
# smaller than the file map, misaligned O_DIRECT operations without
# --replay-align, an option the log decides, a write to a file the user
# has without confirmation, a mounted device.  No timing assertions
# (test_replay_modes.sh has the timed mode, threads and every format).
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq awk dd mkfs.ext4
PROG=$TESTS_ROOT/tests/progs/record_calls
LIB=$TESTS_ROOT/librebench-record.so
[ -x "$PROG" ] || fail "$PROG not built: run make check (or make tests/progs/record_calls)"
[ -r "$LIB" ] || fail "$LIB not built: run make"
export REBENCH_RECORD_LIB=$LIB
S=$(realpath "$SCRATCH")

# stat_of LOG TYPE FIELD: count (2), bytes (4) or failed (8) of TYPE in
# --trace-stats -n
stat_of() {
	"$REBENCH" --trace-stats "$1" -n | awk -v t="$2" -v f="$3" '$1 == t { print $f }'
}

# check_counts LOG WHAT: the last JSON result has, per type, the log's
# successful calls and bytes (writes and reads moved what they recorded)
check_counts() {
	local log=$1 what=$2 t want got
	for t in read write fsync fdatasync; do
		want=$(( $(stat_of "$log" $t 2) - $(stat_of "$log" $t 8) ))
		got=$(jqr ".workloads[0].results.operations.$t.ios // 0")
		assert_eq "$want" "$got" "$what: $t count"
	done
	for t in read write; do
		want=$(stat_of "$log" $t 4)
		got=$(jqr ".workloads[0].results.operations.$t.bytes // 0")
		assert_eq "$want" "$got" "$what: $t bytes"
	done
}

section "record the test program and dd"
mkdir -p "$S/d"
rb --record "$S/calls.log" -- "$PROG" "$S/d"
assert_rc 0 "record_calls recorded"
rb --record "$S/dd.log" -- dd if=/dev/zero of="$S/ddout" bs=4k count=64 conv=fsync
assert_rc 0 "dd recorded"
assert_eq 64 "$(stat_of "$S/dd.log" write 2)" "dd: 64 writes in the log"

section "asap onto a new file, page cache"
rb --replay "$S/calls.log" -p --json "$S/new.img"
assert_rc 0 "asap -p onto a new file"
check_counts "$S/calls.log" "asap -p"
assert_eq 3145728 "$(stat -c %s "$S/new.img")" "the new file holds the map: 3 files, 1 MiB each"
assert_eq "asap 13 3 $S/calls.log" "$(jqr '"\(.replay.mode) \(.replay.operations) \(.replay.files) \(.replay.log)"')" "the replay object names mode, operations, files and log"
assert_eq 1 "$(jqr .replay.skipped_failed)" "the failed read is skipped and counted"
assert_no_match 'replay' "$(jqr '.workloads[0].warnings[]')" "the replay's figures are no warnings"

section "grouped, O_DIRECT, --replay-align"
rb --replay "$S/calls.log" --replay-mode grouped --replay-align -y --json "$S/new.img"
assert_rc 0 "grouped --replay-align"
for t in read write fsync fdatasync; do
	want=$(( $(stat_of "$S/calls.log" $t 2) - $(stat_of "$S/calls.log" $t 8) ))
	assert_eq "$want" "$(jqr ".workloads[0].results.operations.$t.ios")" "grouped: $t count"
	assert_eq "$want" "$(jqr ".replay.per_op[] | select(.op == \"$t\") | .operations")" "grouped: $t in the replay object"
	ns=$(jqr ".replay.per_op[] | select(.op == \"$t\") | .ns")
	assert_num "grouped: $t timed as a group ($ns ns)" "$ns > 0"
	assert_num "grouped: $t ns_per_op is ns / operations" \
		"$(jqr ".replay.per_op[] | select(.op == \"$t\") | .ns_per_op") - $ns / $want < 0.001 && $ns / $want - $(jqr ".replay.per_op[] | select(.op == \"$t\") | .ns_per_op") < 0.001"
done
assert_eq "grouped 1 3" "$(jqr '"\(.replay.mode) \(.replay.workers) \(.replay.recorded_threads)"')" "grouped: one worker for the log's 3 threads"
assert_num "the aligned operations are counted" "$(jqr .replay.aligned) >= 1"
assert_eq "false" "$(jqr '.workloads[0].parameters.paged // false')" "O_DIRECT by default"

section "dd's log onto a loop device, asap and grouped, human and -n"
DEV=$(make_loop 4M)
rb --replay "$S/dd.log" -y --json "$DEV"
assert_rc 0 "asap onto $DEV"
check_counts "$S/dd.log" "dd asap"
rb --replay "$S/dd.log" --replay-mode grouped -y "$DEV"
assert_rc 0 "grouped onto $DEV, human"
assert_match '^Total: 64 I/Os and 1 flush,' "$RB_OUT" "human: the writes, and the fsync apart"
assert_match '^Flushes: 1 fsync, ' "$RB_OUT" "human: the fsync's own line"
assert_match '^Replay: grouped of .*dd.log' "$RB_OUT" "human: the Replay section"
assert_match '^    write +64 operations, 262144 bytes, [0-9]+ ns: [0-9.]+ ns per operation$' "$RB_OUT" "human: the group's time"
rb --replay "$S/dd.log" -n "$DEV"
assert_rc 0 "-n onto $DEV"
assert_eq 64 "$(terse_field 14)" "-n: 64 I/Os (the writes: the fsync is not an I/O of the headline)"
assert_eq 262144 "$(terse_field 15)" "-n: the log's bytes"

section "bad input runs nothing"
rm -f "$S/none.img"
assert_refused "missing log" 'cannot read the log: No such file' --replay "$S/missing.log" -y "$S/none.img"
sed '1s/.*/# rebench-trace 9/' "$S/dd.log" >"$S/v9.log"
assert_refused "unknown version" 'version 9' --replay "$S/v9.log" -y "$S/none.img"
{ cat "$S/dd.log"; echo "garbage line"; } >"$S/corrupt.log"
n=$(wc -l <"$S/corrupt.log")
assert_refused "corrupt line" "line $n" --replay "$S/corrupt.log" -y "$S/none.img"
assert_match 'nothing was replayed' "$RB_ERR" "corrupt line: says nothing ran"
[ ! -e "$S/none.img" ] || fail "a refused replay created its target"
SMALL=$(make_loop 1M)
sum=$(dev_sum "$SMALL")
assert_refused "target smaller than the map" 'needs 3145728' --replay "$S/calls.log" -p -y "$SMALL"
dsum=$(dev_sum "$DEV")
assert_refused "misaligned O_DIRECT" '7 of 13 operations .*512-byte sector .*--replay-align.*or -p' --replay "$S/calls.log" -y "$DEV"
assert_eq "$dsum" "$(dev_sum "$DEV")" "misaligned: $DEV unchanged"
assert_refused "an option the log decides" 'no meaning with --replay' --replay "$S/dd.log" -o read -y "$SMALL"
assert_eq "$sum" "$(dev_sum "$SMALL")" "refused replays left $SMALL as it was"
dd if=/dev/urandom of="$S/mine.img" bs=1M count=2 status=none
fsum=$(file_sum "$S/mine.img")
assert_refused "writes to the user's file without confirmation" 'without confirmation' --replay "$S/dd.log" "$S/mine.img"
assert_eq "$fsum" "$(file_sum "$S/mine.img")" "unconfirmed: the file is unchanged"

section "a mounted device is refused, even with --yes"
MDEV=$(make_loop 16M)
mkfs.ext4 -q -F "$MDEV" >/dev/null 2>&1 || fail "mkfs.ext4 $MDEV"
mount_dev "$MDEV" "$S/mnt"
rb --replay "$S/dd.log" -y "$MDEV"
assert_rc 2 "mounted device: exit 2"
assert_match 'mounted|in use' "$RB_ERR" "mounted device: says why"

pass
