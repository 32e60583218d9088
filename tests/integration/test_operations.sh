#!/usr/bin/env bash
# test_operations.sh - the operations: write changes exactly the -j/-e
# region; trim discards a region of a loop device and punches holes in a
# regular file; rw follows --rwmix; -a appends to a file; -f turns off the
# flush.  File targets live on an ext4 filesystem on a loop device of ours.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq mkfs.ext4 fallocate

M=1048576
DEV=$(make_loop 64M)

# range_sums DEV: checksums of [0,8m) [8m,16m) [16m,64m)
range_sums() {
	echo "$(dev_sum "$1" 0 $((8 * M))) $(dev_sum "$1" $((8 * M)) $((8 * M))) $(dev_sum "$1" $((16 * M)) $((48 * M)))"
}

section "write changes the device, and only the -j/-e region"
read -r b0 b1 b2 <<<"$(range_sums "$DEV")"
all0=$(dev_sum "$DEV")
rb -o write --yes -w seq -b 64k -j 8m -e 8m -d 8m --json "$DEV"
assert_rc 0 "-o write --yes -w seq -j 8m -e 8m exits 0"
assert_eq "128 128 0" "$(jqr '.workloads[0].results | "\(.ios) \(.writes) \(.reads)"')" \
	"128 writes of 64 KiB, no reads"
read -r a0 a1 a2 <<<"$(range_sums "$DEV")"
assert_ne "$all0" "$(dev_sum "$DEV")" "device checksum changed"
assert_ne "$b1" "$a1" "the written region [8m,16m) changed"
assert_eq "$b0" "$a0" "bytes before the region [0,8m) unchanged"
assert_eq "$b2" "$a2" "bytes after the region [16m,64m) unchanged"
if cmp -s -n $((8 * M)) <(dd if="$DEV" iflag=direct,skip_bytes skip=$((8 * M)) bs=1M count=8 status=none) /dev/zero; then
	check_failed "written region holds non-zero data"
else
	pass "written region holds non-zero data"
fi

read -r b0 b1 b2 <<<"$(range_sums "$DEV")"
rb -o write --yes -w rnd -b 4k -j 8m -e 8m -d 300ms "$DEV"
assert_rc 0 "random writes inside -j 8m -e 8m exit 0"
assert_match '^\[duration: 300ms, threads: 1, operation: write, .*region: 8m\+8m, flush: on\]$' "$RB_OUT" \
	"parameter line shows operation: write, the region and flush: on"
read -r a0 a1 a2 <<<"$(range_sums "$DEV")"
assert_ne "$b1" "$a1" "random writes changed the region"
assert_eq "$b0 $b2" "$a0 $a2" "random writes left everything outside the region unchanged"

section "-f (no flush after writes)"
rb -o write -f --yes -d 300ms --json "$DEV"
assert_rc 0 "-o write -f --yes exits 0"
assert_eq false "$(jqr '.workloads[0].parameters.flush')" "JSON flush is false with -f"
rb -o write -f --yes -d 300ms "$DEV"
assert_match 'flush: off\]$' "$RB_OUT" "parameter line shows flush: off"

section "trim on a loop device"
disc=$(cat "/sys/block/$(basename "$DEV")/queue/discard_max_bytes" 2>/dev/null || echo 0)
if [ "${disc:-0}" -gt 0 ]; then
	read -r b0 b1 b2 <<<"$(range_sums "$DEV")"
	rb -o trim --yes -w seq -b 1m -j 8m -e 8m -d 8m --json "$DEV"
	assert_rc 0 "-o trim --yes on a loop device exits 0"
	assert_eq "8 8" "$(jqr '.workloads[0].results | "\(.ios) \(.trims)"')" "8 trims of 1 MiB"
	read -r a0 a1 a2 <<<"$(range_sums "$DEV")"
	assert_eq "$(head -c $((8 * M)) /dev/zero | data_sum)" "$a1" \
		"the trimmed region reads back as zeros (loop punches holes)"
	assert_eq "$b0 $b2" "$a0 $a2" "trim left everything outside the region unchanged"
	rb -o trim --yes -b 4k -d 300ms "$DEV"
	assert_rc 0 "random 4 KiB trims for 300ms exit 0"
	assert_match 'operation: trim' "$RB_OUT" "parameter line shows operation: trim"
else
	log "loop device without discard support: device trim checks not run"
fi

section "files on ext4 (scratch filesystem on a loop device)"
FSDEV=$(make_loop 128M)
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$FSDEV" || fail "mkfs.ext4 $FSDEV failed"
FS=$SCRATCH/fs
mount_dev "$FSDEV" "$FS"

section "trim on a regular file punches holes"
F=$FS/trim.dat
dd if=/dev/urandom of="$F" bs=1M count=8 conv=fsync status=none || fail "cannot write $F"
size0=$(stat -c %s "$F")
alloc0=$(( $(stat -c %b "$F") * $(stat -c %B "$F") ))
head0=$(head -c $((2 * M)) "$F" | data_sum)
rb -o trim --yes -w seq -b 64k -j 2m -e 4m -d 4m "$F"
assert_rc 0 "-o trim --yes on a file exits 0"
sync
alloc1=$(( $(stat -c %b "$F") * $(stat -c %B "$F") ))
assert_eq "$size0" "$(stat -c %s "$F")" "file size unchanged ($size0)"
assert_num "allocation shrank by the 4 MiB trimmed ($alloc0 -> $alloc1)" "$alloc0 - $alloc1 >= 4 * $M"
if cmp -s -n $((4 * M)) <(tail -c +$((2 * M + 1)) "$F") /dev/zero; then
	pass "the trimmed range reads as zeros"
else
	check_failed "the trimmed range reads as zeros"
fi
assert_eq "$head0" "$(head -c $((2 * M)) "$F" | data_sum)" "data before the region unchanged"

section "rw with --rwmix 70"
rb -o rw --rwmix 70 --yes -b 4k -d 12m --json "$DEV"
assert_rc 0 "-o rw --rwmix 70 exits 0"
read -r ios reads writes <<<"$(jqr '.workloads[0].results | "\(.ios) \(.reads) \(.writes)"')"
assert_eq 3072 "$ios" "-d 12m -b 4k does 3072 I/Os"
assert_eq "$ios" "$((reads + writes))" "reads + writes == ios ($reads + $writes)"
assert_num "reads are 60..80% of the I/Os ($reads of $ios)" "$reads / $ios >= 0.6 && $reads / $ios <= 0.8"
assert_eq 70 "$(jqr '.workloads[0].parameters.rwmix_read_pct')" "JSON rwmix_read_pct is 70"
rb -o rw --rwmix 70 --yes -b 4k -d 1m "$DEV"
assert_match 'rwmix: 70% reads' "$RB_OUT" "parameter line shows the mix"
assert_match '^Total: 256 I/Os \([0-9]+ reads, [0-9]+ writes\)' "$RB_OUT" "Total line splits reads and writes"

section "-a appends to a file"
A=$FS/append.dat
dd if=/dev/urandom of="$A" bs=1M count=1 conv=fsync status=none || fail "cannot write $A"
sum0=$(file_sum "$A")
rb -o write -w seq -a -b 4k -d 1m --yes "$A"
assert_rc 0 "-o write -w seq -a exits 0"
assert_eq $((2 * M)) "$(stat -c %s "$A")" "file grew by the 1 MiB written (1 MiB -> 2 MiB)"
assert_eq "$sum0" "$(head -c $M "$A" | data_sum)" "the original first 1 MiB is unchanged"
rb -o write -w seq -a -p -f -b 4k -d 256k --yes "$A"
assert_rc 0 "-a with -p -f (page cache, no flush) exits 0"
assert_eq $((2 * M + 256 * 1024)) "$(stat -c %s "$A")" "file grew by another 256 KiB"

section "write to a regular file"
W=$FS/write.dat
dd if=/dev/urandom of="$W" bs=1M count=4 conv=fsync status=none
sum0=$(file_sum "$W")
rb -o write -f --yes -b 4k -d 300ms "$W"
assert_rc 0 "-o write -f --yes on a file exits 0"
assert_ne "$sum0" "$(file_sum "$W")" "file contents changed"
assert_eq $((4 * M)) "$(stat -c %s "$W")" "file size unchanged by in-place writes"

section "a read/write mix reports each operation apart (issue 12)"
rb -o rw --rwmix 70 -b 4k -d 500ms --yes --json "$DEV"
assert_rc 0 "-o rw --rwmix 70 --json exits 0"
assert_eq '["read","write"]' "$(jqr '.workloads[0].results.operations | keys' | tr -d ' \n')" \
	"results.operations has read and write"
assert_eq "$(jqr '.workloads[0].results.ios')" \
	"$(jqr '.workloads[0].results.operations.read.ios + .workloads[0].results.operations.write.ios')" \
	"the two counts add up to the total"
assert_eq "$(jqr '.workloads[0].results.reads')" "$(jqr '.workloads[0].results.operations.read.ios')" \
	"operations.read.ios is the reads count"
assert_num "each kind has its own latency (read p50 $(jqr '.workloads[0].results.operations.read.latency_us.p50'), write p50 $(jqr '.workloads[0].results.operations.write.latency_us.p50'))" \
	"$(jqr '.workloads[0].results.operations.read.latency_us.p50') > 0 && $(jqr '.workloads[0].results.operations.write.latency_us.p50') > 0"
rb -o rw --rwmix 70 -b 4k -d 300ms --yes "$DEV"
assert_match '^  read  [0-9]+ I/Os, [0-9]+ ops/sec \([0-9.]+ MiB/s\); latency \(us\): min .* p99\.99 ' "$RB_OUT" \
	"human output: a read line with its own latency"
assert_match '^  write [0-9]+ I/Os, ' "$RB_OUT" "human output: a write line"
rb -b 4k -d 300ms "$DEV"
assert_no_match '^  read ' "$RB_OUT" "one kind only: no per-operation line"
