#!/usr/bin/env bash
# test_verify_cut.sh - --verify-log and a power cut (issue 32, the test of
# diskchecker.pl) on model SSDs with a write cache: a writing run logs
# each write as it becomes durable, the model loses what its cache had not
# put on the media (model-device.sh cut), and --verify-only --verify-log
# reads back every block the log names.
#
# flush=honest, --sync dsync and --sync fsync:16: every flush waits for
# the media, so after the last one nothing is pending: the cut loses
# nothing (cut.writes_lost 0) and no durable write is lost (exit 0).
#
# flush=lie: a flush returns at once, and the cut loses every write the
# media has not finished.  The count is exact, not a matter of timing:
#  - each of the 64 blocks is written once (-w seq -d 100% of a 64-block
#    region), a 4 KiB write is one request of the model, and the cache
#    (1 MiB) holds all of them, so none waits for room or is written
#    through: the model's pending writes are these 64 alone;
#  - none of them reaches the media before the cut: on one channel a
#    10 s erase stands in front of their programs (a trim of the only
#    page of the open erase block makes the model erase it; the
#    ssd.blocks_reopened counter shows it did), and the blocks' earlier
#    generation went to the media before the erase (a read of a page
#    never touched waits for the channel, so it returns once every
#    program before it is done).  The runs' own read-backs come from the
#    read cache (rcache=1m), not from behind the erase.  The one
#    assumption about time is that the cut comes within the erase's
#    10 s (test_model_disk.sh makes the same one with 10 s programs);
#  - under --sync dsync every acknowledged write is logged.
# So the blocks found lost = the log's records = cut.writes_lost = 64,
# each of class lost (the generation before, which the media held).
# Under --sync fsync:16, 72 writes: the 64 before the last flush are
# logged, the 8 after it are acknowledged but not durable, and the cut
# loses all 72: found 64 = cut.writes_lost - 8 (unwritten: the region
# was never written before).
#
# Refusals (no sync policy, the log on the target or its file system,
# --verify-log without --verify, a log of another target, seed, block
# size or checksum, a file that is no log) each exit 1 with what, why
# and the fix, and the model counts no write for them.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd dd blkdiscard jq
[ -c /dev/fuse ] || skip "needs /dev/fuse (modprobe fuse)"
require_rebench

MD=$TESTS_ROOT/workloads/model-device.sh
S=$SCRATCH
BS=4096
N=64
# one pass over N blocks: each written once, in order
W=(-o write -w seq -b 4k -e $((N * BS)) -d 100% --verify crc32c -y)
V=(-o write -w seq -b 4k -e $((N * BS)) --verify crc32c --verify-only)

section "flush=honest, --sync dsync: every write durable when it returns"
HON=$(make_model --size 16m ssd:program=1ms,cache=1m,flush=honest)
rb "${W[@]}" --seed 7 --sync dsync --verify-log "$S/hd.log" --json "$HON"
assert_rc 0 "honest, dsync: the writing run"
jq_later "$RB_OUT" "written dsync $N $N 0 null" \
	'.workloads[0].verify.log | "\(.role) \(.sync) \(.records) \(.durable_blocks) \(.not_durable) \(.error)"' \
	"honest, dsync: $N records of $N blocks, none left undurable"
jq_later "$RB_OUT" "$S/hd.log" '.workloads[0].verify.log.path' "the log's path"
assert_eq $((N + 3)) "$(wc -l <"$S/hd.log")" "the log: a 3-line header and a record per write"
assert_eq "rebench-verify-log 1|seed 7 block-size 4096 region-start 0 blocks $N algorithm crc32c sync dsync|target $(readlink -f "$HON")|0 1" \
	"$(head -4 "$S/hd.log" | paste -sd'|')" "the header names seed, -b, region, checksum, policy and target; records are offset and generation"
"$MD" cut "$HON" || fail "model-device.sh cut $HON failed"
assert_eq "1 0" "$(model_ctr "$HON" cut.count) $(model_ctr "$HON" cut.writes_lost)" \
	"honest: the cut found nothing pending (cut.writes_lost 0)"
rb "${V[@]}" --seed 7 --verify-log "$S/hd.log" --json "$HON"
assert_rc 0 "honest, dsync: --verify-only --verify-log exits 0"
jq_later "$RB_OUT" "read $N $N $N 0 false" \
	'.workloads[0].verify.log | "\(.role) \(.records) \(.durable_blocks) \(.survived) \(.lost) \(.torn_tail)"' \
	"honest, dsync: all $N durable blocks survived"
jq_later "$RB_OUT" "$N $N 0" '.workloads[0].verify | "\(.blocks_checked) \(.ok) \(.corrupt + .misdirected + .lost + .unwritten)"' \
	"honest, dsync: $N checked, $N ok"

section "flush=honest, --sync fsync:16: the writes before each flush durable when it returns"
J=(-j $((N * BS)))	# the next N blocks
rb "${W[@]}" "${J[@]}" --seed 8 --sync fsync:16 --verify-log "$S/hf.log" --json "$HON"
assert_rc 0 "honest, fsync:16: the writing run"
jq_later "$RB_OUT" "fsync:16 $N $N 0" \
	'.workloads[0].verify.log | "\(.sync) \(.records) \(.durable_blocks) \(.not_durable)"' \
	"honest, fsync:16: $N writes, 4 flushes, $N records"
"$MD" cut "$HON"
assert_eq "2 0" "$(model_ctr "$HON" cut.count) $(model_ctr "$HON" cut.writes_lost)" \
	"honest: the second cut lost nothing either"
rb "${V[@]}" "${J[@]}" --seed 8 --verify-log "$S/hf.log" --json "$HON"
assert_rc 0 "honest, fsync:16: --verify-only --verify-log exits 0"
jq_later "$RB_OUT" "$N 0" '.workloads[0].verify.log | "\(.survived) \(.lost)"' \
	"honest, fsync:16: all $N survived"

# erase_ahead DEV PAGE UNTOUCHED: make the model's only channel busy for
# its 10 s erase: PAGE written alone into a fresh erase block, a read of
# the never-touched page UNTOUCHED (it waits until the channel has done
# every program so far), then PAGE trimmed, which leaves the open block
# empty: the model erases it, and every program after waits for that.
erase_ahead() {
	local dev=$1 page=$2 untouched=$3 before
	before=$(model_ctr "$dev" ssd.blocks_reopened)
	dd if=/dev/urandom of="$dev" bs=$BS seek="$page" count=1 oflag=direct status=none ||
		fail "write of page $page"
	dd if="$dev" of=/dev/null bs=$BS skip="$untouched" count=1 iflag=direct status=none ||
		fail "read of page $untouched"
	blkdiscard -o $((page * BS)) -l $BS "$dev" || fail "blkdiscard of page $page"
	assert_eq $((before + 1)) "$(model_ctr "$dev" ssd.blocks_reopened)" \
		"the trim left the open erase block empty: erased, 10 s, in front of what follows"
}

section "flush=lie, --sync dsync: every durable write lost by the cut, counted exactly"
LIE=$(make_model --size 16m ssd:channels=1,block=16,program=100us,erase=10s,cache=1m,flush=lie,rcache=1m)
rb "${W[@]}" --seed 7 --verify-state "$S/l.state" "$LIE"
assert_rc 0 "lie: generation 1 of the $N blocks"
erase_ahead "$LIE" 256 512
rb "${W[@]}" --seed 7 --verify-state "$S/l.state" --verify-log "$S/l.log" --json "$LIE"
assert_rc 0 "lie: generation 2, logged"
jq_later "$RB_OUT" "$N $N 0" '.workloads[0].verify.log | "\(.records) \(.durable_blocks) \(.not_durable)"' \
	"lie, dsync: $N records"
jq_later "$RB_OUT" "$N" '.workloads[0].verify.ok' "lie: read back right after the writes (from the drive's cache), all ok"
assert_eq "$N 2" "$(grep -c ' 2$' "$S/l.log") $(sed -n 4p "$S/l.log" | cut -d' ' -f2)" \
	"every record is of generation 2"
model_snap "$LIE"
"$MD" cut "$LIE" || fail "model-device.sh cut $LIE failed"
LOST=$(model_delta "$LIE" cut.writes_lost)
assert_eq "$N $((N * BS))" "$LOST $(model_delta "$LIE" cut.bytes_lost)" \
	"the model lost the $N writes ($((N * BS)) bytes): cut.writes_lost"

rb "${V[@]}" --seed 7 --verify-log "$S/l.log" --json "$LIE"
assert_rc 3 "lie: --verify-only --verify-log exits 3"
jq_later "$RB_OUT" "0 lost true 1" \
	'.workloads[0].verify | "\(.first_mismatch.offset) \(.first_mismatch.class) \(.stopped) \(.blocks_checked)"' \
	"lie: the first lost write named at offset 0, and it stopped the run"
jq_later "$RB_OUT" "offset 0 generation 2 (durable) or a later one, of seed 7" \
	'.workloads[0].verify.first_mismatch.expected' "lie: expected the durable generation 2"
jq_later "$RB_OUT" "generation 1, an older write: generation 2 was lost" \
	'.workloads[0].verify.first_mismatch.found' "lie: found the generation before"
assert_match "data verification failed at offset 0 of $LIE: lost: expected offset 0 generation 2 \(durable\)" \
	"$RB_ERR" "lie: the error names the first lost write's offset"

rb "${V[@]}" --seed 7 --verify-log "$S/l.log" --verify-continue --json "$LIE"
assert_rc 3 "lie, --verify-continue: exit 3"
jq_later "$RB_OUT" "$LOST 0 $LOST" '.workloads[0].verify | "\(.lost) \(.ok) \(.log.lost)"' \
	"lie: blocks found lost = cut.writes_lost ($LOST), none survived"
jq_later "$RB_OUT" "$N $N $N" '.workloads[0].verify.log | "\(.records) \(.durable_blocks) \(.lost + .survived)"' \
	"lie: = the log's records"
assert_eq "$N" "$(grep -c '^rebench: verify: offset [0-9]* of .*: lost: ' <<<"$RB_ERR")" \
	"lie: each lost write named on stderr"
assert_match "^rebench: verify: offset 0 of " "$(head -1 <<<"$RB_ERR")" "lie: offset 0 named first"

rb "${V[@]}" --seed 7 --verify-log "$S/l.log" --verify-continue "$LIE"
assert_match "^Verify log: $S/l.log: $N records of $N blocks acknowledged durable \(--sync dsync\); $N checked: 0 survived, $N did not$" \
	"$RB_OUT" "the human Verify log line"
rb "${V[@]}" --seed 7 --verify-log "$S/l.log" --verify-continue -n "$LIE"
assert_eq "verify-log 1 read $N $N - 0 $N no" "$(grep '^verify-log ' <<<"$RB_OUT")" \
	"-n: the verify-log line"

# the state file says what was written: the log's generation is its last
rb "${V[@]}" --seed 7 --verify-log "$S/l.log" --verify-state "$S/l.state" --verify-continue --json "$LIE"
assert_rc 3 "lie, log and state file: exit 3"
jq_later "$RB_OUT" "$N offset 0 generation 2 of seed 7" \
	'.workloads[0].verify | "\(.lost) \(.first_mismatch.expected)"' \
	"lie, with --verify-state: the same $N, generation 2 exactly"

# a crash of the host mid-record: the torn last line is left out
{ cat "$S/l.log"; printf '4096'; } >"$S/torn.log"
rb "${V[@]}" --seed 7 --verify-log "$S/torn.log" --verify-continue --json "$LIE"
assert_rc 3 "a log with a torn last line: read"
jq_later "$RB_OUT" "$N true" '.workloads[0].verify.log | "\(.records) \(.torn_tail)"' \
	"the torn line left out and said"

section "flush=lie, --sync fsync:16, 72 writes: 64 durable and logged, 8 not"
J=(-j 1m -e $((72 * BS)))
erase_ahead "$LIE" 768 1024
rb "${W[@]}" "${J[@]}" --seed 9 --sync fsync:16 --verify-log "$S/lf.log" --json "$LIE"
assert_rc 0 "lie, fsync:16: the writing run"
jq_later "$RB_OUT" "64 64 8" '.workloads[0].verify.log | "\(.records) \(.durable_blocks) \(.not_durable)"' \
	"lie, fsync:16: 64 records, 8 writes after the last flush not durable"
model_snap "$LIE"
"$MD" cut "$LIE"
LOST=$(model_delta "$LIE" cut.writes_lost)
assert_eq 72 "$LOST" "the cut lost all 72 writes (cut.writes_lost)"
rb "${V[@]}" "${J[@]}" --seed 9 --verify-log "$S/lf.log" --verify-continue --json "$LIE"
assert_rc 3 "lie, fsync:16: --verify-only exits 3"
jq_later "$RB_OUT" "$((LOST - 8)) 64 0 $((LOST - 8))" \
	'.workloads[0].verify | "\(.log.lost) \(.blocks_checked) \(.ok) \(.unwritten)"' \
	"lie, fsync:16: durable writes lost = cut.writes_lost - 8 not durable = 64, zeroes (never written before)"
jq_later "$RB_OUT" "1048576 unwritten" \
	'.workloads[0].verify.first_mismatch | "\(.offset) \(.class)"' "lie, fsync:16: the first named at its offset"

section "refusals: exit 1, what, why and the fix; nothing written"
model_snap "$LIE"
sum0=$(dev_sum "$LIE" 0 $((N * BS)))
refuse() {	# refuse WHAT ERE ARGS...
	local what=$1 re=$2
	shift 2
	rb "$@"
	assert_rc 1 "$what: exit 1"
	assert_match "$re" "$RB_ERR" "$what: says why and the fix"
}
refuse "no sync policy (-f)" "--verify-log with --sync none \(-f\): without a sync policy no write is ever known to be durable.*give --sync dsync" \
	"${W[@]}" -f --verify-log "$S/x.log" "$LIE"
refuse "--sync none" "--verify-log with --sync none: .*give --sync dsync" \
	"${W[@]}" --sync none --verify-log "$S/x.log" "$LIE"
refuse "--sync sfr:4 (writeback only)" "--verify-log with --sync sfr:4: sync_file_range .*flushes no cache.*use --sync fdatasync:4" \
	"${W[@]}" --sync sfr:4 --verify-log "$S/x.log" "$LIE"
refuse "the log on the target" "--verify-log $LIE is the target of this workload: .*put the log on another device" \
	"${W[@]}" --verify-log "$LIE" "$LIE"
ln -s "$LIE" "$S/link"
refuse "the log on a link to the target" "--verify-log $S/link is the target of this workload" \
	"${W[@]}" --verify-log "$S/link" "$LIE"
refuse "the log on the target's file system" "--verify-log $S/f.log: on the file system of the target $S/f.img: a power cut .*put the log on another device" \
	"${W[@]}" --verify-log "$S/f.log" "$S/f.img"
assert_eq "no no" "$([ -e "$S/f.img" ] && echo yes || echo no) $([ -e "$S/f.log" ] && echo yes || echo no)" \
	"the file target and its log were not created"
refuse "a directory" "--verify-log $S: refusing to write there: it is a directory" \
	"${W[@]}" --verify-log "$S" "$LIE"
refuse "the state file's name" "--verify-log $S/l.state is also the --verify-state file.*give each its own name" \
	"${W[@]}" --seed 7 --verify-state "$S/l.state" --verify-log "$S/l.state" "$LIE"
refuse "--verify-log without --verify" "--verify-log: applies to data verification only; add --verify crc32c" \
	-o write -y --verify-log "$S/x.log" "$LIE"
refuse "--verify-only without a state file or log" "--verify-only: needs --verify-state FILE.*or --verify-log FILE" \
	"${V[@]}" "$LIE"
refuse "a log of another target" "--verify-log $S/hd.log: the log of $(readlink -f "$HON"), not of this run's target $(readlink -f "$LIE"): .*give $(readlink -f "$HON") as the target" \
	"${V[@]}" --seed 7 --verify-log "$S/hd.log" "$LIE"
refuse "a log of another seed" "--verify-log $S/l.log: written by a run of --seed 7, not this one's 8: .*give --seed 7" \
	"${V[@]}" --seed 8 --verify-log "$S/l.log" "$LIE"
refuse "a log of another block size" "--verify-log $S/l.log: written by a run of -b 4096 over $N blocks from offset 0, not this one's -b 8192.*give the writing run's -b, -j and -e" \
	-o write -w seq -b 8k -e $((N * BS)) --verify crc32c --verify-only --seed 7 --verify-log "$S/l.log" "$LIE"
refuse "a log of another region" "--verify-log $S/l.log: written by a run of -b 4096 over $N blocks from offset 0, not this one's -b 4096, $N blocks from 1048576" \
	"${V[@]}" -j 1m --seed 7 --verify-log "$S/l.log" "$LIE"
refuse "a log of another checksum" "--verify-log $S/l.log: written by a run of --verify crc32c, not this one's sha256.*give --verify crc32c" \
	"${V[@]}" --seed 7 --verify sha256 --verify-log "$S/l.log" "$LIE"
echo junk >"$S/junk.log"
refuse "a file that is no log" "--verify-log $S/junk.log: not a log of rebench --verify-log \(line 1" \
	"${V[@]}" --seed 7 --verify-log "$S/junk.log" "$LIE"
{ head -5 "$S/l.log"; echo "4096 x"; tail -3 "$S/l.log"; } >"$S/bad.log"
refuse "a bad record" "--verify-log $S/bad.log: line 6: not a record \(OFFSET GENERATION\)" \
	"${V[@]}" --seed 7 --verify-log "$S/bad.log" "$LIE"
refuse "a missing log" "--verify-log $S/none.log: No such file or directory \(--verify-only reads the log a writing run wrote\)" \
	"${V[@]}" --seed 7 --verify-log "$S/none.log" "$LIE"
printf -- "-j 0 %s\n-j 1m %s\n" "$LIE" "$LIE" >"$S/lines"
rb -o write -w seq -b 4k -e $((N * BS)) -d 100% --verify crc32c -y --verify-log "$S/x.log" <"$S/lines"
assert_rc 1 "two workloads, one log: exit 1"
assert_match "another workload of this run logs to this file too.*a log of its own" "$RB_ERR" \
	"two workloads, one log: says why and the fix"
assert_eq 0 "$(model_delta "$LIE" requests.write)" "the model counted no write for any refusal"
assert_eq "$sum0" "$(dev_sum "$LIE" 0 $((N * BS)))" "the region is as it was"
assert_eq "" "$(ls "$S"/x.log 2>/dev/null)" "no log was made by a refused run"
