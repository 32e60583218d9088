#!/usr/bin/env bash
# test_characterize_erase.sh - rebench --characterize --write's erase
# block on a model SSD whose unit of garbage collection is known: 4 KiB
# pages, 4 pages to an erase block, 4 channels, so a write of 64 KiB
# (4 x 4 x 4 KiB), aligned, fills one block on each channel.  Once the
# drive is full, random writes of 64 KiB and more replace whole blocks and
# cost what sequential ones do; those of 32 KiB and less leave blocks
# half valid, which garbage collection copies: about 2x at 32 KiB.  The
# verdicts are ratios of the same size's sequential and random MiB/s,
# both from the model's times, so machine load moves both.  A loop device
# over memory has no translation layer: no unit (none seen, or its
# microsecond writes too noisy to say).
# (A slow model, whose test would take longer than a minute without
# --max-duration, says so instead of running it: test_characterize_write.)
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq
[ -c /dev/fuse ] || skip "needs /dev/fuse (modprobe fuse)"
require_rebench

S=$SCRATCH

section "a model SSD with 64 KiB erase units"
SSD=$(make_model --size 32m ssd:page=4k,block=4,channels=4,read=50us,program=100us,erase=1ms)
model_snap "$SSD"
rb --characterize --write --yes --json --output "$S/c.tsv" "$SSD"
assert_rc 0 "--characterize --write"
jq_later "$RB_OUT" 65536 '.characterize.erase_block_bytes.value' "the erase block: 64 KiB, the model's 4 pages x 4 channels"
jq_later "$RB_OUT" 65536 '.characterize.erase_block_bytes.low' "its interval: exactly 64 KiB (from)"
jq_later "$RB_OUT" 65536 '.characterize.erase_block_bytes.high' "its interval: exactly 64 KiB (to)"
jq_later "$RB_OUT" true '.characterize.erase.trimmed' "the target was trimmed first"
jq_later "$RB_OUT" "131072 65536 32768 16384" '[.characterize.erase.sizes[].bytes] | map(tostring) | join(" ")' \
	"sizes from a 256th of the target down to 16 KiB"
jq_later "$RB_OUT" "same same costs more costs more" '[.characterize.erase.sizes[].verdict] | join(" ")' \
	"random writes of 64 KiB and more cost what sequential ones do, smaller ones more"
jq_later "$RB_OUT" 1 '[.characterize.advice[] | select(.setting == "mkfs.ext4" and (.value | test("stripe_width=16$")))] | length' \
	"ext4's stripe width: the erase block, 16 blocks of 4 KiB"
jq_later "$RB_OUT" 1 '[.characterize.reports[] | select(test("reclaimed in units of 64 KiB"))] | length' \
	"the report: space is reclaimed in 64 KiB units, which the device does not say"
jq_flush
r32=$(jqr '.characterize.erase.sizes[2].ratio')
assert_num "32 KiB random writes cost ${r32}x sequential ones (the model copies half a block: about 2)" "$r32 > 1.5 && $r32 < 3"
assert_num "the target was trimmed whole" "$(model_delta "$SSD" bytes.trim) >= 32 * 1048576 - 131072"
assert_num "and copied pages for the small writes" "$(model_delta "$SSD" ssd.gc_pages_moved) > 1000"
assert_match "^# erase_block_bytes: 65536 65536 65536$" "$(cat "$S/c.tsv")" "--output: the figure"
assert_eq 4 "$(awk '/^# erase:/ { b = 1; next } /^#/ { b = 0 } b && NF == 7' "$S/c.tsv" | wc -l)" \
	"--output: the erase block's four rows"

section "a loop device over memory: no translation layer, no unit"
LOOP=$(make_loop 32M)
rb --characterize --write --yes --json "$LOOP"
assert_rc 0 "--characterize --write on a loop device"
jq_later "$RB_OUT" null '.characterize.erase_block_bytes.value' "no erase block invented"
jq_later "$RB_OUT" true '.characterize.erase_block_bytes.basis | test("^none seen|no unit concluded")' \
	"the basis: none seen, or too noisy to conclude (memory answers in microseconds, as noisy as the machine)"
jq_flush
