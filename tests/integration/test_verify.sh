#!/usr/bin/env bash
# test_verify.sh - --verify crc32c (issue 32, section 1) on a loop device
# over an image of its own: a clean write+verify checks every block it
# wrote (after the writes, and inline); then the image's bytes are damaged
# under the loop device as a misbehaving drive would, one class at a time,
# each new damage at a lower offset than the last so that it becomes the
# first mismatch, and --verify-only (from the state file the writing runs
# saved) names each at its offset: an older generation put back (lost),
# zeroes (unwritten), another block's bytes (misdirected, both offsets),
# a flipped byte (corrupt, at its byte); --verify-continue counts all four
# and the exit status is 3 either way.  Bad input is refused before any
# I/O, the image unchanged.  No timing is asserted: counts and offsets only.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_rebench
require_cmd jq

BS=4096
BLOCKS=1024			# a 4 MiB image
IMG=$(make_image 4M)
DEV=$(loop_from_image "$IMG")
STATE=$SCRATCH/verify.state
W=(-o write -f -w seq -b 4k -d 100% --seed 7 --verify crc32c -y --json)
V=(-o write -w seq -b 4k --seed 7 --verify crc32c --verify-state "$STATE" --verify-only --json)

# blk N: the offset of block N
blk() { echo $(($1 * BS)); }
# put the image's bytes where the loop device reads them
settle() { sync "$IMG"; }

section "clean: every block written is read back and ok"
for mode in after inline; do
	rb "${W[@]}" --verify-mode "$mode" "$DEV"
	assert_rc 0 "$mode: a clean write+verify exits 0"
	jq_later "$RB_OUT" "$mode" '.workloads[0].verify.mode' "$mode: the mode"
	jq_later "$RB_OUT" $BLOCKS '.workloads[0].verify.blocks_written' "$mode: every block written"
	jq_later "$RB_OUT" $BLOCKS '.workloads[0].verify.blocks_checked' "$mode: every block written was checked"
	jq_later "$RB_OUT" $BLOCKS '.workloads[0].verify.ok' "$mode: every block ok"
	jq_later "$RB_OUT" 0 '.workloads[0].verify | .corrupt + .misdirected + .lost + .unwritten' "$mode: no mismatch"
	jq_later "$RB_OUT" null '.workloads[0].verify.first_mismatch' "$mode: no first mismatch"
	jq_later "$RB_OUT" $BLOCKS '.workloads[0].results.ios' "$mode: the measured I/Os are the writes alone"
	# inline's read-backs reach the device while its counters run: they
	# are the run's own, not another user's
	jq_later "$RB_OUT" false '.devices[0].shared' "$mode: the device not called shared for verify's own reads"
done
rb -o write -f -w seq -b 4k -d 100% --seed 7 --verify crc32c -y "$DEV"
assert_match "^Verify: crc32c, after: $BLOCKS blocks checked: $BLOCKS ok, 0 corrupt, 0 misdirected, 0 lost, 0 unwritten" "$RB_OUT" "the human Verify line"

section "the state file: two writing runs, generations 1 then 2"
rb "${W[@]}" --verify-state "$STATE" "$DEV"
assert_rc 0 "first writing run"
dd if="$IMG" of="$SCRATCH/old50" bs=$BS skip=50 count=1 status=none || fail "save block 50"
rb "${W[@]}" --verify-state "$STATE" "$DEV"
assert_rc 0 "second writing run"
assert_eq "$(blk 50) 2" "$(grep "^$(blk 50) " "$STATE")" "the state file holds block 50's generation 2"
assert_eq $((BLOCKS + 2)) "$(wc -l <"$STATE")" "the state file names every block"
rb "${V[@]}" "$DEV"
assert_rc 0 "--verify-only on the undamaged image exits 0"
jq_later "$RB_OUT" $BLOCKS '.workloads[0].verify.ok' "--verify-only: every block ok"
jq_later "$RB_OUT" read '.workloads[0].parameters.operation // "read"' "--verify-only reads"

# first_mismatch CLASS BLOCK WHAT: --verify-only names CLASS at BLOCK first
first_mismatch() {
	rb "${V[@]}" "$DEV"
	assert_rc 3 "$3: exit status 3"
	jq_later "$RB_OUT" "$1" '.workloads[0].verify.first_mismatch.class' "$3: named $1"
	jq_later "$RB_OUT" "$(blk "$2")" '.workloads[0].verify.first_mismatch.offset' "$3: at block $2's offset"
	jq_later "$RB_OUT" true '.workloads[0].verify.stopped' "$3: the first mismatch stopped the run"
	jq_later "$RB_OUT" $(($2 + 1)) '.workloads[0].verify.blocks_checked' "$3: stopped at it (blocks 0-$2 checked)"
	assert_match "data verification failed at offset $(blk "$2") of $DEV: $1" "$RB_ERR" "$3: the error names offset and class"
}

section "lost: block 50's generation-1 bytes put back"
dd if="$SCRATCH/old50" of="$IMG" bs=$BS seek=50 count=1 conv=notrunc status=none
settle
first_mismatch lost 50 "an older generation"
FOUND=$(jqr '.workloads[0].verify.first_mismatch.found')
assert_match "generation 1, an older write: generation 2 was lost" "$FOUND" "lost: found generation 1, expected 2"

section "unwritten: zeroes over block 40"
dd if=/dev/zero of="$IMG" bs=$BS seek=40 count=1 conv=notrunc status=none
settle
first_mismatch unwritten 40 "zeroes"

section "misdirected: block 20's bytes over block 30"
dd if="$IMG" of="$IMG" bs=$BS skip=20 seek=30 count=1 conv=notrunc status=none
settle
first_mismatch misdirected 30 "another block's bytes"
jq_later "$RB_OUT" "offset $(blk 30) generation 2 of seed 7" '.workloads[0].verify.first_mismatch.expected' "misdirected: expected names block 30"
FOUND=$(jqr '.workloads[0].verify.first_mismatch.found')
assert_match "the block written for offset $(blk 20) " "$FOUND" "misdirected: found names block 20"

section "corrupt: one byte flipped in block 10's payload"
OFF=$(($(blk 10) + 100))
printf '\x5a' | dd of="$IMG" bs=1 seek=$OFF conv=notrunc status=none
settle
first_mismatch corrupt 10 "a flipped byte"
FOUND=$(jqr '.workloads[0].verify.first_mismatch.found')
assert_match "1 byte differs, the first at byte 100 of the block \(offset $OFF\)" "$FOUND" "corrupt: the byte named"

section "--verify-continue counts every one"
rb "${V[@]}" --verify-continue "$DEV"
assert_rc 3 "--verify-continue with mismatches: exit status 3"
jq_later "$RB_OUT" $BLOCKS '.workloads[0].verify.blocks_checked' "every block checked"
jq_later "$RB_OUT" $((BLOCKS - 4)) '.workloads[0].verify.ok' "the others ok"
jq_later "$RB_OUT" "1 1 1 1" '.workloads[0].verify | "\(.corrupt) \(.misdirected) \(.lost) \(.unwritten)"' "one of each class"
jq_later "$RB_OUT" false '.workloads[0].verify.stopped' "not stopped"
jq_later "$RB_OUT" corrupt '.workloads[0].verify.first_mismatch.class' "the first is the lowest offset"
for m in "10 corrupt" "30 misdirected" "40 unwritten" "50 lost"; do
	set -- $m
	assert_match "^rebench: verify: offset $(blk "$1") of $DEV: $2: " "$RB_ERR" "--verify-continue names block $1 ($2) on stderr"
done
# -n: the same counts on the verify line (rebench-output(5))
V_N=("${V[@]/--json/-n}")
rb "${V_N[@]}" --verify-continue "$DEV"
assert_rc 3 "-n: exit status 3"
assert_eq "verify 1 crc32c only $BLOCKS $BLOCKS $((BLOCKS - 4)) 1 1 1 1 no $(blk 10) corrupt" \
	"$(grep '^verify ' <<<"$RB_OUT")" "-n: the verify line, 14 fields"
assert_eq 1 "$(grep -c '^[0-9]' <<<"$RB_OUT")" "-n: one workload line besides it"

section "inline: a write read back at once (the damage above rewritten)"
rb "${W[@]}" --verify-mode inline --verify-state "$STATE" "$DEV"
assert_rc 0 "inline over the damaged image: every write lands, all ok"
jq_later "$RB_OUT" $BLOCKS '.workloads[0].verify.ok' "inline: every block ok"
rb "${V[@]}" "$DEV"
assert_rc 0 "--verify-only after the rewrite: ok"

section "--fio: fio's verify options"
rb --fio -o write -b 4k --verify crc32c --verify-mode inline --verify-continue "$DEV"
assert_rc 0 "--fio with --verify"
for l in verify=crc32c do_verify=1 verify_backlog=1 verify_fatal=0; do
	assert_match "^$l\$" "$RB_OUT" "--fio writes $l"
done
if command -v fio >/dev/null; then
	printf '%s\n' "$RB_OUT" >"$SCRATCH/verify.fio"
	fio --parse-only "$SCRATCH/verify.fio" >/dev/null 2>&1
	assert_eq 0 $? "fio --parse-only takes the job"
fi

section "bad input, refused before any I/O"
sum0=$(file_sum "$IMG")
refuse() {	# refuse PATTERN WHAT ARGS...
	local pat=$1 what=$2
	shift 2
	rb -y "$@" "$DEV"
	assert_rc 1 "$what: exit status 1"
	assert_match "$pat" "$RB_ERR" "$what: says why and the fix"
}
refuse "--verify with trim: .*trim in a run of its own" "trim" -o trim --verify crc32c
refuse "workload that only reads: .*use -o write" "read-only" -o read --verify crc32c
refuse "--verify crc32c with -b 32: .*48 bytes of header.*use -b 64" "block smaller than the header" -o write -p -b 32 --verify crc32c
refuse "--verify-mode: applies to data verification only; add --verify crc32c" "--verify-mode alone" -o write --verify-mode inline
refuse "--verify-continue: applies to data verification only" "--verify-continue alone" -o write --verify-continue
refuse "--verify with -p .*page cache.*drop -p" "page cache I/O" -o write -p --verify crc32c
refuse "--verify with -t mmap: .*page cache" "mmap" -o write -t mmap -p --verify crc32c
refuse "--verify with a size split or range .*not supported.*use one -b" "a size split" -o write -b 4k/50:8k/50 --verify crc32c
refuse "--verify with -s 8192: .*leave -s out" "a stride" -o write -b 4k -s 8k --verify crc32c
refuse "--verify with -c 2: .*use -c 1" "threads" -o write -t stateless -c 2 --verify crc32c
refuse "--verify-only: needs --verify-state FILE" "--verify-only without a state file" -o write --verify crc32c --verify-only
refuse "invalid value 'md5' for --verify: expected one of off, crc32c" "an unknown algorithm" -o write --verify md5
refuse "saved by a run of --seed 7, not this one's 8.*give --seed 7" "a state file of another seed" \
	-o write -b 4k --seed 8 --verify crc32c --verify-state "$STATE" --verify-only
refuse "saved by a run of -b 4096 .* not this one's -b 8192" "a state file of another block size" \
	-o write -b 8k --seed 7 --verify crc32c --verify-state "$STATE" --verify-only
echo junk >"$SCRATCH/junk.state"
refuse "not a state file of rebench --verify" "a file that is no state file" \
	-o write -b 4k --seed 7 --verify crc32c --verify-state "$SCRATCH/junk.state" --verify-only
refuse "--verify-state $SCRATCH/none: No such file" "a missing state file" \
	-o write -b 4k --seed 7 --verify crc32c --verify-state "$SCRATCH/none" --verify-only
if "$REBENCH" --engines | grep -q '^naio'; then
	refuse "--verify with -t naio: .*synchronous engines only" "an async engine" -o write -t naio -q 4 --verify crc32c
fi
assert_eq "$sum0" "$(file_sum "$IMG")" "the refusals wrote nothing"
