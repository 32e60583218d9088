#!/usr/bin/env bash
# test_characterize_disk.sh - rebench --characterize on a model disk whose
# physics are known: 15000 rpm (4 ms a revolution), seeks of 1 to 6 ms,
# outer tracks twice the inner ones.  The rotation is found from
# backward one-sector reads and its interval holds 15000; seeks grow with
# the distance and stay within the model's curve; the zones fall toward
# the end; one head serves one I/O at a time.  Nothing is written.  The
# checks are on the model's own numbers with margins for the host's time
# (tens of us against ms), not on the machine's speed.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq
[ -c /dev/fuse ] || skip "needs /dev/fuse (modprobe fuse)"
require_rebench

section "a model disk: 15000 rpm, seeks 1-6 ms, zoned"
HDD=$(make_model --size 256m hdd:rpm=15000,seek_min=1ms,seek_max=6ms,track=256k,inner=50)
model_snap "$HDD"
rb --characterize --json --output "$SCRATCH/disk.tsv" "$HDD"
assert_rc 0 "--characterize --json on the disk"
jq_later "$RB_OUT" true '.characterize.rotation.spins' "it spins"
jq_later "$RB_OUT" true '.characterize.rpm.low <= 15000 and .characterize.rpm.high >= 15000' \
	"the rpm interval holds the model's 15000"
jq_later "$RB_OUT" true '.characterize.rpm.basis | test("a 15000 rpm drive")' "named as a 15000 rpm drive"
jq_later "$RB_OUT" true '(.characterize.rotation.zones | length) == 8' "eight zones"
jq_later "$RB_OUT" true '.characterize.seek_ms.max.value != null' "a longest seek"
jq_flush
rpm=$(jqr '.characterize.rpm.value')
assert_num "rpm $rpm within 2% of 15000" "$rpm > 14700 && $rpm < 15300"
smax=$(jqr '.characterize.seek_ms.max.value')
smin=$(jqr '.characterize.seek_ms.min.value')
# the model's seek at d tracks: 1 + 5 sqrt((d - 1) / (tracks - 2)); the
# longest bin is half the disk or more: 1 + 5 sqrt(1/2) = 4.5 at least,
# 6 at most, and the host's time adds well under 1 ms
assert_num "longest seek $smax ms: between the model's 4.5 and 6 (+1 for the host and the bin's spread)" \
	"$smax >= 3.5 && $smax <= 7"
assert_num "shortest seek $smin ms under the longest $smax" "$smin < $smax"
z0=$(jqr '.characterize.rotation.zones[0].mb_per_s')
z7=$(jqr '.characterize.rotation.zones[7].mb_per_s')
assert_num "zones: the last ($z7 MB/s) slower than the first ($z0 MB/s)" "$z7 < 0.92 * $z0"
par=$(jqr '.characterize.parallelism.value')
assert_num "one head: parallelism $par under 1.5" "$par < 1.5"
assert_eq 0 "$(model_delta "$HDD" requests.write)" "nothing written to the model"
assert_match "^# rpm: " "$(cat "$SCRATCH/disk.tsv")" "--output keeps the points, the rpm in its head"
assert_num "--output: the seeks block has points" \
	"$(awk '/^# seeks:/ { t = 1; next } /^# zones:/ { t = 0 } t && NF == 6 { n++ } END { print n + 0 }' "$SCRATCH/disk.tsv") >= 3"
