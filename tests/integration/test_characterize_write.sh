#!/usr/bin/env bash
# test_characterize_write.sh - rebench --characterize --write: flush
# honesty on model SSDs with a write cache that acknowledges in 10 us and
# a page program of 2 ms.  flush=lie answers flushes at once: found NOT
# honest; flush=honest makes them wait for the program: honest.  A model
# without a write cache writes through (2 ms a write): no verdict.  The
# verdicts are the model's times against half a random read (270 us with
# the host's time): writes of about 50 us and lying flushes of about 40
# us are 5 times under it, honest ones of about 2 ms 7 times over.
# Refused: --write without --yes and no terminal, --write on a read-only
# device.  On these models (2 ms a page) the erase-block test would take
# minutes: without --max-duration it says so and does not run.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq
[ -c /dev/fuse ] || skip "needs /dev/fuse (modprobe fuse)"
require_rebench

CACHED=read=500us,program=2ms,channels=4,cache=1m,cached=10us

section "refused"
RO=$(losetup -f --show -r "$(make_image 16M)") || fail "losetup -r"
_register loops "$RO"
rb --characterize --write --yes "$RO"
assert_rc 2 "--write on a read-only device (2, as for any write run)"
assert_match "read-only" "$RB_ERR" "--write on a read-only device: why"

section "a write cache that lies about flushes"
LIE=$(make_model --size 64m "ssd:$CACHED,flush=lie")
model_snap "$LIE"
rb --characterize --write --yes --json "$LIE"
assert_rc 0 "--characterize --write on flush=lie"
jq_later "$RB_OUT" false '.characterize.flush_honest.value' "flush=lie: NOT honest ($(jqr '.characterize.flush_honest.basis'))"
jq_later "$RB_OUT" true '.characterize.flush.measured' "the flush test ran"
jq_later "$RB_OUT" 1 '[.characterize.reports[] | select(test("does not make data durable"))] | length' \
	"the report says an fsync does not make data durable"
jq_flush
assert_num "the model took the test's writes" "$(model_delta "$LIE" requests.write) >= 200"
assert_num "and its flushes" "$(model_delta "$LIE" requests.flush) >= 100"

section "a write cache whose flushes wait for the media"
HON=$(make_model --size 64m "ssd:$CACHED,flush=honest")
rb --characterize --write --yes --json "$HON"
assert_rc 0 "--characterize --write on flush=honest"
jq_later "$RB_OUT" true '.characterize.flush_honest.value' "flush=honest: honest ($(jqr '.characterize.flush_honest.basis'))"
jq_flush
fl=$(jqr '.characterize.flush.flush_p50_us')
assert_num "flushes wait for the program: p50 $fl us, over 1 ms" "$fl > 1000"

section "no write cache: writes take the program's time, nothing to judge"
WT=$(make_model --size 64m "ssd:read=500us,program=2ms,channels=4")
rb --characterize --write --yes --json "$WT"
assert_rc 0 "--characterize --write without a cache"
jq_later "$RB_OUT" null '.characterize.flush_honest.value' "no verdict"
jq_later "$RB_OUT" true '.characterize.flush_honest.basis | test("no volatile write cache seen")' \
	"the basis: no volatile write cache seen"
jq_later "$RB_OUT" null '.characterize.erase_block_bytes.value' "erase block: not measured on a model this slow"
jq_later "$RB_OUT" true '.characterize.erase_block_bytes.basis | test("takes at least [0-9]+ s .*more than the most this test takes without a budget.*give --max-duration")' \
	"the basis: how long the erase test would take (program 2 ms a page), and what to give"
jq_later "$RB_OUT" false '.characterize.erase.measured' "no random writes ran"
jq_flush
