#!/usr/bin/env bash
# test_record_safety.sh - the log of --record is written where rebench
# checked it and nowhere else, and what does not reach it is counted
# (issue 26, items 1 and 8).
#
# The attack of the issue: COMMAND swaps the log's path while it runs, for
# a symbolic link to a mounted ext4 on a loop device, for a hard link to
# the image file behind that loop device, and by swapping a parent
# directory for a symbolic link to a directory holding such a link.  The
# processes started after the swap must not write the log (they say so on
# their stderr, and rebench counts them), the device's checksum, the
# image's checksum and size stay as they were, e2fsck -fn finds the file
# system clean, and rebench exits 5 (COMMAND succeeded, the log did not)
# with the count in its message and in the statistics.
#
# A full file system (a tmpfs of 1 MiB) under the log: every line lost is
# counted, rebench says how many and why, exits 5 (or COMMAND's own
# failure), the log ends with a whole line and its status line says
# "incomplete", which --trace-stats (every format) and --trace-to fio say.
# A record whose rebench was killed says "unfinished", and is read as
# such.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd mkfs.ext4 e2fsck dd awk jq mkfifo
LIB=$TESTS_ROOT/librebench-record.so
[ -r "$LIB" ] || fail "$LIB not built: run make"
export REBENCH_RECORD_LIB=$LIB
S=$(realpath "$SCRATCH")

IMG=$(make_image 32M)
DEV=$(loop_from_image "$IMG")
mkfs.ext4 -q -F "$DEV" || fail "mkfs.ext4 $DEV failed"
# read-only: the file system itself writes nothing while it is checked
mount_dev "$DEV" "$S/mnt" ro
SUM=$(dev_sum "$DEV")
ISUM="$(file_sum "$IMG") $(stat -c %s "$IMG")"

# intact WHAT: the device and the image behind it, as they were
intact() {
	assert_eq "$SUM" "$(dev_sum "$DEV")" "$1: $DEV unchanged"
	assert_eq "$ISUM" "$(file_sum "$IMG") $(stat -c %s "$IMG")" \
		"$1: the image behind $DEV unchanged (checksum, size)"
}

# refused WHAT N ERE: exit 5, N processes counted, each said why (ERE)
refused() {
	assert_rc 5 "$1: COMMAND succeeded, the log did not: exit 5"
	assert_match "rebench: --record: process [0-9]+ \\(dd\\) cannot write the log .*: $3" \
		"$RB_ERR" "$1: dd, started after the swap, says why it cannot log"
	assert_match "rebench: --record: $2 processes of COMMAND could not write the log" \
		"$RB_ERR" "$1: rebench counts the processes"
	assert_match "^Warning: the log is incomplete: .*$2 processes could not write the log" \
		"$RB_ERR" "$1: and so do the statistics"
	assert_eq 4096 "$(stat -c %s "$S/x" 2>/dev/null)" "$1: COMMAND ran (dd wrote its own file)"
}

DD='dd if=/dev/zero of="$3" bs=512 count=8 status=none'
mkdir -p "$S/d"

section "1. the log swapped for a symbolic link to a mounted device"
rb --record "$S/d/L" -- sh -c 'rm -f "$1"; ln -s "$2" "$1"; '"$DD" sh "$S/d/L" "$DEV" "$S/x"
# ln starts after rm: it finds no log; dd finds the link
refused "a link to $DEV" 2 "the path is now a symbolic link, which is never followed"
assert_match "no longer leads to the log rebench created" "$RB_ERR" "rebench says the path was replaced"
intact "a link to $DEV"

section "2. the log swapped for the image file behind the mounted loop device"
rb --record "$S/d/L2" -- sh -c 'rm -f "$1"; ln "$2" "$1"; '"$DD" sh "$S/d/L2" "$IMG" "$S/x"
refused "a hard link to the image" 2 "the path now leads to another file than the one rebench created"
rm -f "$S/d/L2"
intact "a hard link to the image"

section "3. a parent directory swapped for a symbolic link"
mkdir -p "$S/p/sub" "$S/q"
ln "$IMG" "$S/q/L"
rb --record "$S/p/sub/L" -- sh -c 'mv "$1/sub" "$1/old"; ln -s "$2" "$1/sub"; '"$DD" sh "$S/p" "$S/q" "$S/x"
refused "a parent directory swapped" 2 "the path now leads to another file than the one rebench created"
rm -f "$S/q/L"
intact "a parent directory swapped"

section "4. the file system on $DEV is clean"
umount "$S/mnt" || fail "cannot unmount $S/mnt"
out=$(e2fsck -fn "$DEV" 2>&1)
assert_eq 0 "$?" "e2fsck -fn $DEV: clean"
assert_eq "$SUM" "$(dev_sum "$DEV")" "$DEV unchanged after the unmount"

section "5. a full file system: every lost line counted"
mkdir -p "$S/small"
mount -t tmpfs -o size=1m tmpfs "$S/small" || fail "cannot mount a tmpfs on $S/small"
_register mounts "$S/small"
L=$S/small/log
# the first dd fills the file system, the second reads it back 1 KiB at
# a time: a line per read, none of which fits
FILL='dd if=/dev/zero of="$1/fill" bs=4k status=none 2>/dev/null; dd if="$1/fill" of=/dev/null bs=1k status=none'
rb --record "$L" -- sh -c "$FILL" sh "$S/small"
assert_rc 5 "COMMAND succeeded, lines were lost: exit 5"
reads=$(( $(stat -c %s "$S/small/fill") / 1024 ))
logged=$(awk '!/^#/ && $3 == "read" { n++ } END { print n + 0 }' "$L")
lost=$(<<<"$RB_ERR" sed -n 's/^rebench: --record: \([0-9]*\) lines lost: writing the log .* failed (No space left on device); the log is incomplete and says so$/\1/p')
assert_num "the lines lost are counted and said: ${lost:-none} lost and $logged logged of the $reads reads" \
	"${lost:-0} + $logged >= $reads && ${lost:-0} > 0"
assert_match "^# status: incomplete: $lost lines lost \\(ENOSPC\\)" "$(head -n 5 "$L")" \
	"the log's status line says what was lost"
assert_eq "0a" "$(tail -c 1 "$L" | od -An -tx1 | tr -d ' ')" "the log ends with a whole line"
rb --trace-stats "$L" -n
assert_rc 0 "--trace-stats reads the log"
assert_eq "incomplete 0" "$(<<<"$RB_OUT" awk 'NR == 1 { print $10, $11 }')" "-n: the status field"
rb --trace-stats "$L"
assert_match "^Warning: the log is incomplete: $lost lines lost \\(ENOSPC\\)" "$RB_OUT" "human: the warning"
rb --trace-stats "$L" --json
assert_eq "incomplete" "$(jqr .log_status)" "JSON: log_status"
rb --trace-to fio "$L" --output "$S/small.iolog"
assert_rc 0 "--trace-to fio exports what the log holds"
assert_match "is incomplete: $lost lines lost \\(ENOSPC\\).*: the iolog holds only what the log holds" "$RB_ERR" \
	"--trace-to fio says so"
rb --replay "$L" -y "$S/replayed.img"
assert_match "^rebench: --replay: .* is incomplete: $lost lines lost \\(ENOSPC\\).*: the replay holds only what the log holds" \
	"$RB_ERR" "--replay says so"
rm -f "$S/replayed.img"

rm -f "$S/small/fill" "$L"
rb --record "$L" -- sh -c "$FILL; exit 3" sh "$S/small"
assert_rc 3 "COMMAND's own failure: its status, not 5"
assert_match "lines lost: writing the log .* failed \\(No space left on device\\)" "$RB_ERR" "and the loss is said all the same"
umount "$S/small"

section "6. a record that did not end says unfinished"
mkfifo "$S/ready" "$S/hold"
spawn --record "$S/k.log" -- sh -c 'dd if=/dev/zero of="$1/y" bs=512 count=4 status=none; echo ready > "$1/ready"; read x < "$1/hold"' sh "$S"
read -r _ <"$S/ready"
{ kill -9 "$BG_PID"; wait "$BG_PID"; } 2>/dev/null
echo go >"$S/hold"
assert_match "^# status: unfinished " "$(head -n 5 "$S/k.log")" "SIGKILL: the status line still says unfinished"
rb --trace-stats "$S/k.log"
assert_rc 0 "--trace-stats reads it"
assert_match "^Warning: the log is unfinished: the record did not end" "$RB_OUT" "and says it may be incomplete"
printf '123 4/4 write 3 /y 0 512 5' >>"$S/k.log"
rb --trace-stats "$S/k.log" -n
assert_rc 0 "a last line cut short in an unfinished log: read"
assert_eq "unfinished 1" "$(<<<"$RB_OUT" awk 'NR == 1 { print $10, $11 }')" "and counted as damaged"

section "7. the log replaced by a FIFO: read back through rebench's own descriptor"
# Before: rebench opened the path after COMMAND ended and waited in open()
# for ever (issue 26, item 7).  The harness timeout only guards the run.
rb --record "$S/f.log" -- sh -c 'dd if=/dev/zero of="$1/z" bs=512 count=2 status=none; rm -f "$1/f.log"; mkfifo "$1/f.log"' sh "$S"
assert_rc 5 "a log replaced by a FIFO: rebench ends, exit 5 (its path was replaced)"
assert_match "^write +2 " "$RB_ERR" "the statistics are those of the log rebench recorded (the two writes)"
assert_eq fifo "$(stat -c %F "$S/f.log")" "the FIFO is left as COMMAND made it"

section "8. no room for the log's header: nothing runs, nothing is left, no 'incomplete'"
mkdir -p "$S/full"
mount -t tmpfs -o size=64k tmpfs "$S/full" || fail "mount tmpfs"
_register mounts "$S/full"
dd if=/dev/zero of="$S/full/fill" bs=4k status=none 2>/dev/null
rb --record "$S/full/L" -- touch "$S/ran"
assert_rc 2 "a full file system under the log: exit 2, nothing run"
assert_match "No space left on device" "$RB_ERR" "the reason"
assert_no_match "incomplete" "$RB_ERR" "the message does not call a removed file incomplete"
assert_eq "fill" "$(ls "$S/full")" "the partial log was removed"
assert_eq "" "$(ls "$S/ran" 2>/dev/null)" "COMMAND did not run"
umount "$S/full"

section "9. a stopped COMMAND: its status and the statistics stay"
# rebench passes SIGTERM on; COMMAND writes, then exits 2 on it.  Before:
# the stop turned the status into 130 and the log was not read back.
mkfifo "$S/ready9"
spawn --record "$S/t.log" -- sh -c 'trap "dd if=/dev/zero of=\"$1/t9\" bs=512 count=2 status=none; exit 2" TERM; echo ready >"$1/ready9"; while :; do sleep 1; done' sh "$S"
read -t 120 -r _ <>"$S/ready9" || fail "COMMAND never said it was ready (rebench: $(<"$ERR"))"
kill -TERM "$BG_PID"
wait "$BG_PID"
assert_eq 2 "$?" "COMMAND's own status (2), not 130"
assert_match "^write +2 " "$(<"$ERR")" "the statistics of the log, read back after the stop"

section "10. a command line longer than a log line: cut in the header, read back"
long=$(head -c 70000 /dev/zero | tr '\0' a)
rb --record "$S/long.log" -- sh -c "true $long"
assert_rc 0 "a 70 KB command line is recorded"
assert_no_match "cannot read the log" "$RB_ERR" "its statistics are read back"
rb --trace-stats "$S/long.log" -n
assert_rc 0 "--trace-stats reads the log"
assert_match "^# command: sh -c 'true a+ \.\.\. \([0-9]+ more bytes of the command line\)$" \
	"$(sed -n 2p "$S/long.log")" "the header says how much of the command line it left out"

section "11. a dup2() onto the log's number while another thread logs"
# Before: a thread between its look at the log's number and its write
# wrote the line into the file the program had just put on that number.
DUP=$TESTS_ROOT/tests/progs/record_dup2
[ -x "$DUP" ] || fail "$DUP not built: run make check (or make tests/progs/record_dup2)"
: >"$S/victim"
head -c 4096 /dev/urandom >"$S/data11"
rb --record "$S/dup.log" -- "$DUP" "$S/dup.log" "$S/data11" "$S/victim" 20000
assert_rc 0 "20000 dup2()s onto the log's number, a thread logging all the while"
assert_eq 0 "$(stat -c %s "$S/victim")" "no line of the log went into the program's file"
rb --trace-stats "$S/dup.log" -n
assert_rc 0 "the log reads back"

section "12. a process that outlives COMMAND adds nothing after the status line"
mkfifo "$S/go12" "$S/done12"
rb --record "$S/late.log" -- sh -c '(read x <"$1/go12"; dd if=/dev/zero of="$1/late" bs=512 count=3 status=none; echo >"$1/done12") & exit 0' sh "$S"
assert_rc 0 "COMMAND ends, its child lives on"
lines=$(wc -l <"$S/late.log")
echo go >"$S/go12"
read -r _ <"$S/done12"
assert_eq 3 "$(( $(stat -c %s "$S/late") / 512 ))" "the child wrote its file after rebench ended"
assert_eq "$lines" "$(wc -l <"$S/late.log")" "and not one line into the closed log"
assert_match "^# status: complete" "$(grep '^# status:' "$S/late.log")" "which still says complete, truly"
