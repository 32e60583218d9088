#!/usr/bin/env bash
# test_verify_digest.sh - --verify xxh64 and sha256 (issue 32: "crc32c|
# xxh64|sha256") on a loop device over an image of its own: each writes
# its region with its digest after the header and reads every block back
# ok; a byte flipped in the image under the loop device is named corrupt
# by --verify-only with the checksum's name, the block's offset and the
# byte's; a state file of one checksum is refused to a run of another, and
# a block too small for the header and digest is refused, both before any
# I/O.  xxh64 needs libxxhash at build: without it, its refusal is what is
# checked.  Counts and offsets only, no timing.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_rebench
require_cmd jq

IMG=$(make_image 2M)
DEV=$(loop_from_image "$IMG")
BLOCKS=512

algos=(sha256)
if grep -q '^#define HAVE_LIBXXHASH 1' "$TESTS_ROOT/src/config.h" 2>/dev/null; then
	algos+=(xxh64)
else
	section "xxh64 without libxxhash: refused"
	rb -o write -w seq -b 4k -d 100% --verify xxh64 -y "$DEV"
	assert_rc 1 "xxh64 not built: exit 1"
	assert_match "built without its library \(libxxhash-dev\)" "$RB_ERR" "it says which library"
fi

for a in "${algos[@]}"; do
	section "$a: write, read back, a flipped byte"
	ST=$SCRATCH/$a.state
	rb -o write -f -w seq -b 4k -d 100% --seed 9 --verify "$a" --verify-state "$ST" -y --json "$DEV"
	assert_rc 0 "$a: a clean write+verify exits 0"
	jq_later "$RB_OUT" "$a" '.workloads[0].verify.algorithm' "$a: the algorithm in JSON"
	jq_later "$RB_OUT" $BLOCKS '.workloads[0].verify.ok' "$a: every block ok"
	assert_match "algorithm $a\$" "$(sed -n 2p "$ST")" "$a: the state file names its checksum"
	# byte 200 of block 7 (the payload starts after the digest)
	printf '\xa5' | dd of="$IMG" bs=1 seek=$((7 * 4096 + 200)) conv=notrunc status=none
	sync "$IMG"
	rb -o write -w seq -b 4k --seed 9 --verify "$a" --verify-state "$ST" --verify-only --json "$DEV"
	assert_rc 3 "$a: the flipped byte: exit 3"
	jq_later "$RB_OUT" corrupt '.workloads[0].verify.first_mismatch.class' "$a: named corrupt"
	jq_later "$RB_OUT" $((7 * 4096)) '.workloads[0].verify.first_mismatch.offset' "$a: at block 7"
	FOUND=$(jqr '.workloads[0].verify.first_mismatch.found')
	assert_match "^payload $a 0x[0-9a-f]+(\.\.\.)?, not the header's 0x[0-9a-f]+(\.\.\.)?: 1 byte differs, the first at byte 200 of the block \(offset $((7 * 4096 + 200))\): 0xa5 where 0x[0-9a-f]{2} was written" \
		"$FOUND" "$a: the checksum's name, the byte and its offset"
done

section "refused before any I/O"
sum0=$(md5sum <"$IMG")
rb -o write -w seq -b 4k --seed 9 --verify crc32c --verify-state "$SCRATCH/sha256.state" --verify-only "$DEV"
assert_rc 1 "a sha256 state file to a crc32c run: exit 1"
assert_match "saved by a run of --verify sha256, not this one's crc32c: its blocks carry that checksum; give --verify sha256" "$RB_ERR" "it says which to give"
rb -o write -b 64 --verify sha256 -y "$DEV"
assert_rc 1 "sha256 at -b 64: exit 1"
assert_match "--verify sha256 with -b 64: each block carries 80 bytes of header .* use -b 96 or more" "$RB_ERR" "it says the least block size"
rb -o write -b 64 --verify md5 -y "$DEV"
assert_rc 1 "an unknown checksum: exit 1"
assert_match "crc32c.*xxh64.*sha256" "$RB_ERR" "it lists the checksums"
assert_eq "$sum0" "$(md5sum <"$IMG")" "the refused runs wrote nothing"
