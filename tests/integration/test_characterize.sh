#!/usr/bin/env bash
# test_characterize.sh - rebench --characterize on devices whose physics
# are known: a model SSD with 8 KiB pages on 2 channels (the unit found
# exactly, the I/Os served at once near 2, the layout that follows, the
# report's 512 B physical sector called out, nothing written), a partition
# at sector 63 of a model SSD (said to straddle units, re-created at 2048),
# and a loop device over memory, which has no physics: no unit is
# invented.  Bad invocations are refused before any I/O.  The unit's
# verdicts are ratios of medians of the same run, side by side, so a
# loaded machine moves both; the parallelism is checked within a wide
# band for the same reason.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq
[ -c /dev/fuse ] || skip "needs /dev/fuse (modprobe fuse)"
require_rebench

S=$SCRATCH

section "refused before any I/O"
LOOP=$(make_loop 64M)
before=$(awk '{ print $1, $5 }' "/sys/block/${LOOP#/dev/}/stat")
rb --characterize
assert_rc 1 "no TARGET"
assert_match "give its block device" "$RB_ERR" "no TARGET: what to give"
: >"$S/file"
rb --characterize "$S/file"
assert_rc 1 "a file"
assert_match "is not a block device" "$RB_ERR" "a file: why"
rb --characterize -b 4k "$LOOP"
assert_rc 1 "-b given"
assert_match -- "--block-size: the tests choose their own workloads" "$RB_ERR" "-b given: why"
rb --characterize -q 1,4 "$LOOP"
assert_rc 1 "a list"
assert_match "a range or list \\(queue-depth\\)" "$RB_ERR" "a list: why"
rb --characterize --plot "$S/c.txt" "$LOOP"
assert_rc 1 "--plot to a .txt"
assert_match -- "not .txt; give the picture one of those extensions" "$RB_ERR" "--plot: why"
rb --characterize --output "$LOOP" "$LOOP"
assert_rc 1 "--output onto the target"
assert_match -- "it is a block device" "$RB_ERR" "--output: why"
rb --characterize --max-duration 0 "$LOOP"
assert_rc 1 "--max-duration 0"
assert_match -- "the time budget must be a time" "$RB_ERR" "--max-duration 0: why"
rb --write "$LOOP"
assert_rc 1 "--write without --characterize"
assert_match -- "--write adds --characterize's write test" "$RB_ERR" "--write: why"
rb --characterize --write "$LOOP" </dev/null
assert_rc 1 "--write with no terminal and no --yes"
assert_match -- "without confirmation" "$RB_ERR" "--write: asks first"
assert_eq "$before" "$(awk '{ print $1, $5 }' "/sys/block/${LOOP#/dev/}/stat")" "nothing read or written by the refusals"

section "a model SSD: 8 KiB pages, 2 channels"
SSD=$(make_model --size 32m ssd:page=8k,channels=2,read=1ms)
model_snap "$SSD"
rb --characterize --json "$SSD"
assert_rc 0 "--characterize --json"
jq_later "$RB_OUT" 8192 '.characterize.page_bytes.value' "the unit: 8 KiB, the model's page"
jq_later "$RB_OUT" 8192 '.characterize.page_bytes.high' "its interval ends at the page"
jq_later "$RB_OUT" "costs more" '[.characterize.boundaries.points[] | select(.bytes == 8192) | .verdict][0]' "crossing 8 KiB costs more"
jq_later "$RB_OUT" 0 '[.characterize.boundaries.points[] | select(.bytes > 8192 and (.verdict == "same" or .verdict == "costs less"))] | length' \
	"no larger boundary costs the same"
jq_later "$RB_OUT" 1024 '.characterize.boundaries.read_bytes' "two-sector reads"
jq_later "$RB_OUT" 13 '[.characterize.advice[] | select(.setting == "zfs ashift") | .value][0]' "ashift 13"
jq_later "$RB_OUT" "-d su=8192,sw=1" '[.characterize.advice[] | select(.setting == "mkfs.xfs") | .value][0]' "xfs stripe unit of a page"
jq_later "$RB_OUT" "-b 4096 -E stride=2,stripe_width=2" '[.characterize.advice[] | select(.setting == "mkfs.ext4") | .value][0]' "ext4 stride of a page"
jq_later "$RB_OUT" 1 '[.characterize.reports[] | select(test("physical sector of 512 B, but reads cost more across 8 KiB boundaries"))] | length' \
	"the report's 512 B physical sector called out"
jq_later "$RB_OUT" null '.characterize.flush_honest.value' "flush honesty: not measured by reads"
jq_later "$RB_OUT" true '.characterize.queue_depths.engine | test("uring|naio")' "queue depths on an engine that queues"
jq_later "$RB_OUT" false '.characterize.rotation.spins' "flash: no rotation"
jq_later "$RB_OUT" null '.characterize.rpm.value' "no rpm"
jq_later "$RB_OUT" 0 '.characterize.rotation.seeks | length' "no seeks measured"
jq_later "$RB_OUT" 0 '.characterize.read_cache_bytes.value' "no read cache seen"
jq_later "$RB_OUT" false '.characterize.flush.measured' "no flush test without --write"
jq_later "$RB_OUT" true '.characterize.erase_block_bytes.basis | test("add --write")' "no erase test without --write"
jq_later "$RB_OUT" 0 '[.characterize.queue_depths.points[] | select(.seconds < 0.4 or .seconds > 2.2)] | length' \
	"each queue depth ran until +-2%: from its 20 intervals of 25 ms (0.5 s) to 2 s"
jq_later "$RB_OUT" 0 '[.characterize.boundaries.points[] | select(.rounds < 3 or .rounds > 6)] | length' \
	"each boundary: 3 to 6 rounds"
jq_later "$RB_OUT" 0 '[.characterize.boundaries.points[] | select(.rounds > 3 and .rounds < 6 and .verdict == "within noise")] | length' \
	"a boundary stops short of 6 rounds only once decided"
jq_flush
par=$(jqr '.characterize.parallelism.value')
assert_num "parallelism $par: near the 2 channels (1.6 to 2.6: the host's own time per I/O is in it too)" \
	"$par >= 1.6 && $par <= 2.6"
knee=$(jqr '.characterize.queue_depths.knee_qd')
assert_num "the knee at queue depth $knee, 2 or deeper" "$knee >= 2"
assert_eq 0 "$(model_delta "$SSD" requests.write)" "nothing written to the model"
assert_num "the model read pages ($(model_delta "$SSD" ssd.pages_read))" "$(model_delta "$SSD" ssd.pages_read) > 1000"

section "a partition at sector 63 of a model SSD with 4 KiB pages"
P63=$(make_model --size 32m --partition-at 63 ssd:read=500us)
rb --characterize "$P63"
assert_rc 0 "--characterize on the partition"
assert_match "^Unit \(page, alignment\): 4 KiB" "$RB_OUT" "the unit: 4 KiB, in the drive's coordinates"
assert_match "starts at byte 32256 of .*, 3584 B past a 4 KiB boundary" "$RB_OUT" "the misaligned start said"
assert_match "re-create it at sector 2048" "$RB_OUT" "and how to fix it"
qd1=$(<<<"$RB_OUT" awk '/^  QD +ops\/s/ { t = 1; next } t && $1 == 1 { print $4; exit }')
assert_num "queue depth 1: 4 KiB reads aligned to the drive's pages, one page read each (p50 $qd1 us, under 1.5 x 500)" \
	"$qd1 > 0 && $qd1 < 750"

section "a loop device over memory: no physics, no unit invented"
rb --characterize --json "$LOOP"
assert_rc 0 "--characterize on a loop device"
jq_later "$RB_OUT" null '.characterize.page_bytes.value' "no unit concluded"
jq_flush
assert_match "no unit" "$(jqr '.characterize.page_bytes.basis')" "and the basis says so"
