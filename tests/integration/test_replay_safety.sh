#!/usr/bin/env bash
# test_replay_safety.sh - a replay writes only the region its question
# states, lays out only what fits, and loads a log within the memory
# budget (issue 26, items 2, 11 and the replay part of 16).
#  - the issue's log (files at offsets near 2^63, whose slots once summed
#    past 2^64: "from 0 B to 2 MiB" asked, MiB 99 and 100 written) and a
#    map whose slots together pass 1 EiB: refused before anything runs,
#    on a device and in a directory; the device's checksum is unchanged;
#  - a log at sane offsets: the question states the map (0 to 3 MiB), and
#    after -y nothing outside the blocks the log wrote has changed;
#  - a new file is laid out only when it fits the file system's free space
#    and 1 TiB (ext4 of 32 MiB on a loop device: the old code filled it
#    until ENOSPC); a directory's new files likewise;
#  - a log of half a million lines under REBENCH_MEMORY_BUDGET=4m: --replay,
#    --trace-to fio refused (exit 1, the budget, how to go on), nothing
#    written; --trace-stats of a log of many files likewise; the same
#    logs under a budget of 1g run.
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd awk dd jq mkfs.ext4 cksum
S=$(realpath "$SCRATCH")
MiB=1048576
# every new file goes to a small file system of the test's own, so that
# a replay that lays out too much can fill nothing else
FDEV=$(make_loop 32M)
mkfs.ext4 -q -F "$FDEV" >/dev/null 2>&1 || fail "mkfs.ext4 $FDEV"
mount_dev "$FDEV" "$S/fs"

# log FILE PATH OFFSET SIZE ...: a rebench trace of one thread's pwrites
log() {
	local out=$1 t=1000
	shift
	{
		echo "# rebench-trace 1"
		while [ $# -ge 3 ]; do
			echo "$t 1/1 pwrite 3 $1 $2 $3 $3 1000 -"
			t=$((t + 1000))
			shift 3
		done
	} >"$out"
}

section "offsets near 2^63: refused, nothing written (item 2)"
# /x/a reaches 100 MiB, /x/b 4 KiB; /x/c's slot is 2^63 and /x/d's
# 2^63 - 99 MiB: 2^64 + 2 MiB in all
log "$S/wrap.log" /x/a 0 4096 /x/a 104853504 4096 /x/b 0 4096 \
	/x/c 9223372036854771712 4096 /x/d 9223372036749914112 1048576 \
	/x/c 9223372036854771712 4096
DEV=$(make_loop 128M)
sum=$(dev_sum "$DEV")
assert_refused "the issue's log onto $DEV" \
	'wrap.log: line 5: a write of 4096 bytes at offset 9223372036854771712 reaches beyond byte 1152921504606846976 \(1 EiB\), the most a replay places.*nothing was replayed' \
	--replay "$S/wrap.log" -y "$DEV"
assert_eq "$sum" "$(dev_sum "$DEV")" "$DEV unchanged"
# each slot fits, but not together: 1 MiB + 2^59 + 2^59 > 2^60
log "$S/slots.log" /x/a 0 4096 /x/c 576460752303419392 4096 \
	/x/d 576460752303419392 4096
assert_refused "slots past 1 EiB together" \
	'the file map would pass byte 1152921504606846976 \(1 EiB\).*its first 2 files take 576460752304472064 bytes, and the slot of the next, /x/d' \
	--replay "$S/slots.log" -y "$DEV"
assert_eq "$sum" "$(dev_sum "$DEV")" "$DEV unchanged"
mkdir -p "$S/fs/dir"
assert_refused "the issue's log into a directory" 'reaches beyond byte 1152921504606846976' \
	--replay "$S/wrap.log" -y "$S/fs/dir"
assert_refused "files past 1 EiB together, into a directory" \
	'the recorded files would take more than 1152921504606846976 bytes \(1 EiB\) together' \
	--replay "$S/slots.log" -y "$S/fs/dir"
assert_eq "" "$(ls -A "$S/fs/dir")" "nothing created in the directory"

section "sane offsets: the question states the map, nothing else changes (item 2)"
# /x/a in MiB 0 (blocks 0 and 2), /x/b in MiB 1 (4 KiB to 12 KiB), /x/c
# in MiB 2 (its last 4 KiB): a map of 3 MiB
log "$S/sane.log" /x/a 0 4096 /x/a 8192 4096 /x/b 4096 8192 /x/c 1044480 4096
SDEV=$(make_loop 8M)
rb_pty n --replay "$S/sane.log" "$SDEV"
assert_match "WRITE to $SDEV \(block device, 8 MiB\): the data will be lost from 0 B to 3 MiB" "$RB_OUT" "the question states the map: 0 B to 3 MiB"
dd if="$SDEV" of="$S/before.img" iflag=direct bs=1M status=none || fail "cannot copy $SDEV"
rb --replay "$S/sane.log" -y --json "$SDEV"
assert_rc 0 "the sane log replayed"
assert_eq "4 20480" "$(jqr '.workloads[0].results.operations.write | "\(.ios) \(.bytes)"')" "its 4 writes, 20480 bytes"
dd if="$SDEV" of="$S/after.img" iflag=direct bs=1M status=none || fail "cannot copy $SDEV"
# the 4 KiB blocks with a changed byte: those the log wrote, 0 and 2 in
# /x/a's slot, 256 + 1 and 256 + 2 in /x/b's, 767 at the end of /x/c's
changed=$(cmp -l "$S/before.img" "$S/after.img" |
	awk '{ b = int(($1 - 1) / 4096); if (NR == 1 || b != last) printf "%d ", b; last = b }')
assert_eq "0 2 257 258 767 " "$changed" "only the blocks the log wrote changed, all inside the first 3 MiB"

section "a new file is laid out only when it fits (item 16)"
# 64 MiB on a 32 MiB file system: the old code laid out until ENOSPC
log "$S/big.log" /x/a 0 4096 /x/a $((64 * MiB - 4096)) 4096
assert_refused "a new file larger than the free space" \
	"big.log: the replay would create $S/fs/new.img and lay out 64 MiB \(67108864 bytes\) of data, but the file system of $S/fs has .* free; free some space, or replay onto another file system or a block device" \
	--replay "$S/big.log" -y "$S/fs/new.img"
[ ! -e "$S/fs/new.img" ] && pass "new.img not created" || check_failed "new.img not created"
# 2 TiB: more than any replay lays out, whatever the free space
log "$S/huge.log" /x/a 2199023251456 4096
assert_refused "a new file of 2 TiB" \
	'create .*/fs/huge.img and lay out 2 TiB \(2199023255552 bytes\) of data, but a replay lays out at most 1 TiB in the files it creates' \
	--replay "$S/huge.log" -y "$S/fs/huge.img"
mkdir -p "$S/fs/d"
free0=$(df -B1 --output=avail "$S/fs" | tail -n 1)
log "$S/two.log" /x/a 0 4096 /x/a $((64 * MiB - 4096)) 4096 /y/b 0 4096
rb --replay "$S/two.log" -p -y "$S/fs/d/"
assert_rc 1 "two new files, 64 MiB and 4 KiB, in a 32 MiB file system: exit 1"
assert_match "create 2 files in $S/fs/d/ \($S/fs/d/a, \.\.\.\) and lay out 64\.0 MiB \(67112960 bytes\)" "$RB_ERR" "the directory's new files: named and counted"
assert_eq "" "$(ls -A "$S/fs/d")" "nothing created in the directory"
assert_eq "$free0" "$(df -B1 --output=avail "$S/fs" | tail -n 1)" "the file system's free space is unchanged"
log "$S/fits.log" /x/a 0 4096 /x/a $((4 * MiB - 4096)) 4096
rb --replay "$S/fits.log" -y "$S/fs/fits.img"
assert_rc 0 "a new file that fits is created and replayed"
assert_eq $((4 * MiB)) "$(stat -c %s "$S/fs/fits.img")" "fits.img holds the map, 4 MiB"

section "a new file: by its directory's file system, not by a /dev prefix (issue 27, item 11)"
# /dev/shm is tmpfs (a file is created there as anywhere); /dev itself is
# devtmpfs, where a missing name is a mistyped device, never a new file
fstype_of() { awk -v m="$1" '$5 == m { sub(/.* - /, ""); split($0, f, " "); t = f[1] } END { print t }' /proc/self/mountinfo; }
log "$S/shm.log" /x/a 0 4096 /x/a 4096 4096 /x/a 8192 4096
if [ "$(fstype_of /dev/shm)" = tmpfs ]; then
	SHM=/dev/shm/rebench-$TEST_NAME-$$
	rm -f "$SHM"
	rb --replay "$S/shm.log" -y "$SHM"
	assert_rc 0 "--replay onto a new file in /dev/shm (tmpfs): exit 0"
	assert_match "  3 operations of 1 files onto $SHM" "$RB_OUT" "--replay onto $SHM: its 3 writes"
	assert_eq "1048576" "$(stat -c %s "$SHM" 2>/dev/null)" "--replay onto $SHM: the file laid out (1 MiB slot)"
	rm -f "$SHM"
	rb -o write -b 4k -d 8k -e 64k -y "$SHM"
	assert_rc 0 "a workload on a new file in /dev/shm: exit 0"
	assert_eq "65536" "$(stat -c %s "$SHM" 2>/dev/null)" "a workload on $SHM: the file created (-e 64k)"
	rm -f "$SHM"
else
	echo "/dev/shm is not tmpfs here: its part skipped"
fi
if [ "$(fstype_of /dev)" = devtmpfs ]; then
	NODEV=/dev/rebench-$TEST_NAME-$$
	assert_refused "--replay onto a missing name in /dev (devtmpfs)" \
		"cannot open $NODEV: No such file or directory \(is the device name right\? its directory is on devtmpfs, where rebench does not create files\)" \
		--replay "$S/shm.log" -y "$NODEV"
	assert_eq "" "$(ls "$NODEV" 2>/dev/null)" "nothing created in /dev"
	assert_refused "a workload on a missing name in /dev, with -e" "its directory is on devtmpfs" \
		-o write -d 8k -e 64k -y "$NODEV"
	assert_eq "" "$(ls "$NODEV" 2>/dev/null)" "nothing created in /dev"
else
	echo "/dev is not devtmpfs here: its part skipped"
fi

section "a log within the memory budget (item 11)"
N=500000
awk -v n=$N 'BEGIN { print "# rebench-trace 1"
	for (i = 0; i < n; i++)
		printf "%d 1/1 pread 3 /f %d 512 512 10 -\n", i, (i % 2048) * 512 }' >"$S/long.log"
dd if=/dev/urandom of="$S/fs/small.img" bs=1M count=1 status=none
fsum=$(file_sum "$S/fs/small.img")
REBENCH_MEMORY_BUDGET=4m rb --replay "$S/long.log" -p -y "$S/fs/small.img"
assert_rc 1 "replay of $N lines under a budget of 4m: exit 1"
assert_match "long.log: at line [0-9]+ the log needs more than rebench's memory budget of 4 MiB \(REBENCH_MEMORY_BUDGET\): its operations and their tables hold [0-9.]+ MiB so far \(see MEMORY in rebench\(1\)\); raise the budget \(REBENCH_MEMORY_BUDGET=8m, for example\), or give a shorter log; nothing was replayed" "$RB_ERR" "the refusal names the budget, what holds it and how to go on"
assert_eq "$fsum" "$(file_sum "$S/fs/small.img")" "the target is unchanged"
RB_TIMEOUT=600 REBENCH_MEMORY_BUDGET=1g rb --replay "$S/long.log" -p -y --json "$S/fs/small.img"
assert_rc 0 "the same log under a budget of 1g"
assert_eq "$N $N" "$(jqr '"\(.replay.operations) \(.workloads[0].results.operations.read.ios)"')" "every line replayed"
REBENCH_MEMORY_BUDGET=4m rb --trace-to fio "$S/long.log" --output "$S/long.iolog"
assert_rc 1 "--trace-to fio under a budget of 4m: exit 1"
assert_match "the log needs more than rebench's memory budget of 4 MiB \(REBENCH_MEMORY_BUDGET\): the iolog built in memory and its table of files hold .*; nothing was written" "$RB_ERR" "--trace-to: the refusal"
[ ! -e "$S/long.iolog" ] && pass "--trace-to wrote nothing" || check_failed "--trace-to wrote nothing"
REBENCH_MEMORY_BUDGET=1g rb --trace-to fio "$S/long.log" --output "$S/long.iolog"
assert_rc 0 "--trace-to fio under a budget of 1g"
assert_eq $((N + 3)) "$(wc -l <"$S/long.iolog")" "the iolog: its header, add, open and every read"
awk -v n=300000 'BEGIN { print "# rebench-trace 1"
	for (i = 0; i < n; i++)
		printf "%d 1/1 pread 3 /many/f%d 0 512 512 10 -\n", i, i }' >"$S/many.log"
REBENCH_MEMORY_BUDGET=8m rb --trace-stats "$S/many.log" -n
assert_rc 1 "--trace-stats of 300000 files under a budget of 8m: exit 1"
assert_match "many.log: at line [0-9]+ the log needs more than rebench's memory budget of 8 MiB \(REBENCH_MEMORY_BUDGET\): its table of file names hold" "$RB_ERR" "--trace-stats: the refusal"
REBENCH_MEMORY_BUDGET=1g rb --trace-stats "$S/many.log" --json
assert_rc 0 "--trace-stats under a budget of 1g"
assert_eq 300000 "$(jqr '.files | length')" "--trace-stats: every file"
