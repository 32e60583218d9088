#!/usr/bin/env bash
# test_sync_study.sh - workloads/sync-policies.sh end to end: on its own
# loop device (none named), and on a file it is given; the table has a row
# per policy and block size with the verdict each policy must get, the
# flush columns where the policy flushes apart, and the plot is drawn; a
# device as an output file is refused before anything runs.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq gnuplot

STUDY=$TESTS_ROOT/workloads/sync-policies.sh
[ -x "$STUDY" ] || fail "$STUDY is missing or not executable"
export REBENCH

# want: the verdict of each policy on a loop device over a file on ext4
want="none:not-durable fdatasync:16:not-durable fdatasync:1:durable fsync:1:durable dsync:durable sync:durable rwf-dsync:durable"

section "no target: a loop device of its own, removed after"
out=$(TMPDIR=$SCRATCH bash "$STUDY" - "$SCRATCH/a" 0.2 2>"$SCRATCH/a.err")
rc=$?
assert_eq 0 "$rc" "the study exits 0 ($(tail -n 2 "$SCRATCH/a.err" | tr '\n' ' '))"
T=$SCRATCH/a/sync-policies.tsv
assert_eq "policy block_size durability writes_per_s write_p50_us write_p99_us flushes_per_s flush_p99_us" \
	"$(head -n 1 "$T" | tr '\t' ' ')" "the table's header"
assert_eq 14 "$(tail -n +2 "$T" | grep -c .)" "7 policies x 2 block sizes = 14 rows"
assert_eq "$want" "$(awk -F'\t' '$2 == 4096 { printf "%s%s:%s", n++ ? " " : "", $1, $3 }' "$T")" \
	"4 KiB: each policy's durability verdict"
assert_eq "$want" "$(awk -F'\t' '$2 == 16384 { printf "%s%s:%s", n++ ? " " : "", $1, $3 }' "$T")" \
	"16 KiB: the same verdicts"
bad=$(awk -F'\t' 'NR > 1 && !($4 > 0 && $6 > 0) { print $1 "/" $2 }' "$T")
assert_eq "" "$bad" "every row has writes/s and a p99 above 0"
assert_eq "fdatasync:16 fdatasync:1 fsync:1" \
	"$(awk -F'\t' 'NR > 1 && $2 == 4096 && $8 != "-" { printf "%s%s", n++ ? " " : "", $1 }' "$T")" \
	"flush columns only where the policy flushes apart"
# a flush after every 16 writes: exactly floor(writes / 16) of them (the
# rates' ratio is 16 only for long runs: 50 writes make 3 flushes, 16.67)
counts=$(jq -r '.sweep.runs[] | select(.values.sync == "fdatasync:16" and .values["block-size"] == 4096) |
	.workloads[0].results.operations | "\(.write.ios) \(.fdatasync.ios)"' "$SCRATCH/a/sync-policies.json")
assert_num "fdatasync:16: a flush per 16 writes ($counts: writes, fdatasyncs)" \
	"${counts#* } == int(${counts% *} / 16) && ${counts% *} >= 16"
assert_png "$SCRATCH/a/sync-policies.png" 1000 800 "the plot"
keep_png "$SCRATCH/a/sync-policies.png"
assert_match "sync-policies: $SCRATCH/a/sync-policies.tsv" "$out" "it says where the files are"
assert_eq "" "$(losetup -a | grep -F "$SCRATCH/sync-policies.")" "its loop device is gone"
assert_eq "" "$(ls -d "$SCRATCH"/sync-policies.* 2>/dev/null)" "its scratch directory and image are gone"

section "a file it is given"
F=$SCRATCH/db.dat
bash "$STUDY" --yes "$F" "$SCRATCH/b" 0.1 >/dev/null 2>"$SCRATCH/b.err"
assert_eq 0 "$?" "the study on a new file exits 0 ($(tail -n 1 "$SCRATCH/b.err"))"
assert_eq 14 "$(tail -n +2 "$SCRATCH/b/sync-policies.tsv" | grep -c .)" "14 rows on the file"
assert_eq "$want" "$(awk -F'\t' '$2 == 4096 { printf "%s%s:%s", n++ ? " " : "", $1, $3 }' "$SCRATCH/b/sync-policies.tsv")" \
	"the same verdicts for a file on the root file system"

section "an output path that is a device: refused before anything runs"
DEV=$(make_loop 8M)
sum=$(dev_sum "$DEV")
mkdir -p "$SCRATCH/c"
ln -s "$DEV" "$SCRATCH/c/sync-policies.png"
bash "$STUDY" --yes "$SCRATCH/never.dat" "$SCRATCH/c" 0.1 >/dev/null 2>"$SCRATCH/c.err"
assert_eq 1 "$?" "exit status 1"
assert_match "block device" "$(<"$SCRATCH/c.err")" "the message says it is a block device"
assert_eq "$sum" "$(dev_sum "$DEV")" "the device is unchanged"
assert_eq "" "$(ls "$SCRATCH/never.dat" "$SCRATCH/c/sync-policies.tsv" 2>/dev/null)" "nothing ran"
