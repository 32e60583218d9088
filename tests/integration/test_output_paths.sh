#!/usr/bin/env bash
# test_output_paths.sh - every path rebench writes (--output, a sweep's
# table and TABLE.matrix, --plot and their temporaries) is a regular file or
# a new name in an existing directory, checked before any I/O; a failing
# stdout (/dev/full, a closed pipe) gives exit 5 after the data files are
# complete; temporaries are removed on every exit.
#
# Issue 11, items 1, 3, 4, 9 and 10.  Before the fix, --output on a mounted
# partition exited 0 and destroyed its filesystem, --plot wrote a PNG header
# over a device, a directory or a path through a file passed the access()
# check and the run (writes included) went ahead, > /dev/full exited 0 and
# "| true" killed rebench with SIGPIPE before its --output file was written.
#
# rebench's temporaries go to TMPDIR: this test's runs have one of their
# own, so it counts what they left and not another test's.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd sfdisk partx mkfs.ext4 e2fsck gnuplot mkfifo jq

export REBENCH_PLOTS=$TESTS_ROOT/plots
export TMPDIR=$SCRATCH/tmp
mkdir -p "$TMPDIR"
DEV=$(make_loop 32M)

# A disk with a mounted ext4 partition: what --output must never reach.
DISK=$(make_loop 64M)
printf 'label: dos\nstart=2048, size=61440\n' | sfdisk -q "$DISK" >/dev/null 2>&1 ||
	fail "sfdisk on $DISK"
loop_partitions "$DISK" || fail "no partition node for $DISK"
mkfs.ext4 -q -F -E nodiscard "${DISK}p1" >/dev/null 2>&1 || fail "mkfs.ext4 ${DISK}p1"
mount_dev "${DISK}p1" "$SCRATCH/mnt"
echo "precious" >"$SCRATCH/mnt/data.txt"
sync

# refused_path WHAT ERE ARGS...: exit 1, the message, nothing measured, and
# nothing under $DEV changed.
refused_path() {
	local what=$1 re=$2 sum
	shift 2
	sum=$(dev_sum "$DEV")
	rb "$@"
	assert_rc 1 "$what: exit 1 before any I/O"
	assert_match "$re" "$RB_ERR" "$what: the message says why"
	assert_no_match '^Operations/sec|^[0-9.]+ [0-9.]+ ' "$RB_OUT" "$what: nothing was measured"
	assert_eq "$sum" "$(dev_sum "$DEV")" "$what: $DEV unchanged"
}

section "1. --output and --plot on devices"
refused_path "--output on a mounted partition" \
	"--output ${DISK}p1: refusing to write there: it is a block device" \
	-d 200ms -g 10 -n --output "${DISK}p1" "$DEV"
refused_path "--plot on a block device" "--plot $DISK: refusing to write there: it is a block device" \
	-d 200ms -n --plot "$DISK" "$DEV"
refused_path "--output on a character device" "it is a character device" \
	-d 200ms -n --output /dev/null "$DEV"
ln -s "${DISK}p1" "$SCRATCH/link.tsv"
refused_path "--output through a symbolic link to a device" "it is a block device" \
	-d 200ms -n --output "$SCRATCH/link.tsv" "$DEV"
refused_path "a sweep's --output through a link to a device" "it is a block device" \
	-d 100ms -b 512,1k -n --output "$SCRATCH/link.tsv" "$DEV"
ln -s "${DISK}p1" "$SCRATCH/table.tsv.matrix"
refused_path "a sweep's TABLE.matrix is a link to a device" "the sweep matrix .*table.tsv.matrix: refusing to write there: it is a block device" \
	-d 100ms -b 512,1k -s 512,1k -n --output "$SCRATCH/table.tsv" "$DEV"
assert_eq "" "$(ls "$SCRATCH"/table.tsv 2>/dev/null)" "no table was started"
umount "$SCRATCH/mnt"
e2fsck -fn "${DISK}p1" >"$SCRATCH/fsck.out" 2>&1
assert_eq 0 "$?" "e2fsck finds the partition's filesystem intact"
mount_dev "${DISK}p1" "$SCRATCH/mnt"
assert_eq precious "$(<"$SCRATCH/mnt/data.txt")" "the file on it is intact"

section "9. the check opens: directories, paths through files, long names, FIFOs"
F=$SCRATCH/regular
echo hello >"$F"
refused_path "--output is a directory" "it is a directory" -d 200ms -n --output "$SCRATCH" "$DEV"
refused_path "--output through a regular file" "Not a directory" -d 200ms -n --output "$F/x.tsv" "$DEV"
long=$(printf 'n%.0s' $(seq 1 300))
refused_path "--output longer than NAME_MAX" "File name too long" -d 200ms -n --output "$SCRATCH/$long" "$DEV"
refused_path "--output in a missing directory" "the directory does not exist" \
	-d 200ms -n --output "$SCRATCH/nodir/x.tsv" "$DEV"
mkfifo "$SCRATCH/fifo"
refused_path "--output is a FIFO (and nothing hangs)" "it is a FIFO" -d 200ms -n --output "$SCRATCH/fifo" "$DEV"
refused_path "--plot is a directory" "--plot $SCRATCH: refusing to write there: it is a directory" \
	-d 200ms -n --plot "$SCRATCH" "$DEV"
# the confirmed write did not go ahead (before: it ran and then exit 3)
sum=$(dev_sum "$DEV")
rb -o write --yes -d 200ms --output "$SCRATCH" "$DEV"
assert_rc 1 "a write run with a bad --output: exit 1"
assert_eq "$sum" "$(dev_sum "$DEV")" "a write run with a bad --output wrote nothing"
assert_eq hello "$(<"$F")" "the regular file in the path is unchanged"

section "issue 26, 3. pseudo file systems: kernel settings are not output files"
# In a UTS namespace of the test's own, so that a write that got through
# would rename only that namespace; the value is read there after each.
uts_rb() {
	RB_CMD="(unshare -u) rebench $*"
	timeout -k 5 "$RB_TIMEOUT" unshare -u sh -c '"$@" >"$0.out" 2>"$0.err"; rc=$?
		cat /proc/sys/kernel/hostname /proc/sys/kernel/domainname >"$0.uts"; exit $rc' \
		"$SCRATCH/uts" "$REBENCH" "$@"
	RB_RC=$?
	RB_ERR=$(<"$SCRATCH/uts.err")
	UTS=$(<"$SCRATCH/uts.uts")
}
uts0=$(unshare -u cat /proc/sys/kernel/hostname /proc/sys/kernel/domainname)
printf '# rebench-trace 1\n' >"$SCRATCH/empty.log"
for args in "-d 200ms -n --output /proc/sys/kernel/domainname $DEV" \
	"--record /proc/sys/kernel/domainname -- true" \
	"--trace-to fio $SCRATCH/empty.log --output /proc/sys/kernel/hostname" \
	"-d 200ms -n --plot /proc/sys/kernel/hostname $DEV"; do
	# shellcheck disable=SC2086
	uts_rb $args
	assert_rc 1 "$args: exit 1"
	assert_match "refusing to write there: it is on proc, a pseudo file system" "$RB_ERR" \
		"$args: the reason names the file system"
	assert_eq "$uts0" "$UTS" "$args: hostname and domainname unchanged"
done
refused_path "a new name on sysfs" "refusing to write there: it is on sysfs" \
	-d 200ms -n --output /sys/kernel/rebench-test.tsv "$DEV"
# the type is the field after " - " (the optional fields before it vary)
cg=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") break }
	$(i + 1) == "cgroup" || $(i + 1) == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ -n "$cg" ]; then
	refused_path "an existing cgroup file" "refusing to write there: it is on cgroup" \
		-d 200ms -n --output "$cg/cgroup.procs" "$DEV"
fi

section "results never overwrite what is measured"
T=$SCRATCH/target.dat
dd if=/dev/urandom of="$T" bs=1M count=4 status=none
tsum=$(file_sum "$T")
rb -d 200ms -n --output "$T" "$T"
assert_rc 1 "--output is the target: exit 1"
assert_match "is the target of this workload" "$RB_ERR" "--output is the target: said so"
rb -d 200ms -n --plot "$T" "$T"
assert_rc 1 "--plot is the target: exit 1"
assert_eq "$tsum" "$(file_sum "$T")" "the target file is unchanged"
rb -d 200ms -n --output "$SCRATCH/same.png" --plot "$SCRATCH/same.png" "$DEV"
assert_rc 1 "--plot is the --output file: exit 1"
assert_match "also the --output file" "$RB_ERR" "--plot is the --output file: said so"
# a regular file that backs a loop device in use
IMG=$(make_image 16M)
UP=$(loop_from_image "$IMG")
mkfs.ext4 -q -F -E nodiscard "$UP" >/dev/null 2>&1 || fail "mkfs.ext4 $UP"
mount_dev "$UP" "$SCRATCH/up"
rb -d 200ms -n --output "$IMG" "$DEV"
assert_rc 1 "--output is the image under a mounted loop: exit 1"
assert_match "backs $UP, and $UP is mounted on" "$RB_ERR" "--output on a loop's backing file: says what holds it"
umount "$SCRATCH/up"
e2fsck -fn "$UP" >/dev/null 2>&1
assert_eq 0 "$?" "the filesystem on the upper loop is intact"

section "good paths still work; an existing file is replaced, a plot appears whole"
echo "old contents" >"$SCRATCH/old.tsv"
rb_ok "--output over an existing regular file" -d 300ms -g 100 -n --output "$SCRATCH/old.tsv" "$DEV"
assert_eq workload "$(grep -v '^#' "$SCRATCH/old.tsv" | head -n 1 | cut -f1)" "the file now holds the series (its header after the comment lines)"
assert_no_match "old contents" "$(<"$SCRATCH/old.tsv")" "and nothing of the old contents"
rb_ok "--plot to a new name" -d 300ms -g 100 -n --plot "$SCRATCH/ts.png" "$DEV"
assert_png "$SCRATCH/ts.png" 1000 700 "time series plot"
assert_eq "" "$(ls -A "$SCRATCH" | grep '^\.ts\.png\.')" "no hidden temporary picture left beside it"

section "3. output errors: /dev/full in every format"
for fmt in "" -n --json; do
	RB_CMD="rebench $fmt -d 200ms $DEV >/dev/full"
	timeout 30 "$REBENCH" $fmt -d 200ms "$DEV" >/dev/full 2>"$RB_ERR_FILE"
	RB_RC=$?
	assert_rc 5 "stdout is /dev/full (${fmt:-human}): exit 5"
	assert_match "cannot write the results to standard output: No space left on device" \
		"$(<"$RB_ERR_FILE")" "stdout is /dev/full (${fmt:-human}): said so"
done
timeout 30 "$REBENCH" --probe "$DEV" >/dev/full 2>"$RB_ERR_FILE"
RB_RC=$?
assert_rc 5 "--probe to /dev/full: exit 5"
# issue 26, 12: before, exit 2 and a second message, "Input/output error"
timeout 30 "$REBENCH" --fio -b 4k "$DEV" >/dev/full 2>"$RB_ERR_FILE"
RB_RC=$?
assert_rc 5 "--fio to /dev/full: exit 5"
assert_eq "rebench: cannot write the results to standard output: No space left on device" \
	"$(<"$RB_ERR_FILE")" "--fio to /dev/full: one message, with the first error"

section "4. a closed stdout keeps the data files"
S=$SCRATCH/closed.tsv
timeout 30 "$REBENCH" -d 500ms -g 100 --output "$S" "$DEV" 2>"$RB_ERR_FILE" | true
RB_RC=${PIPESTATUS[0]}
assert_rc 5 "stdout closed early: exit 5, not death by SIGPIPE (141)"
assert_match "Broken pipe" "$(<"$RB_ERR_FILE")" "the message names the closed pipe"
assert_eq workload "$(grep -v '^#' "$S" | head -n 1 | cut -f1)" "the --output file has its header (after the comment lines)"
rows=$(grep -v '^#' "$S" | tail -n +2 | wc -l)
assert_num "the --output file has its intervals ($rows)" "$rows >= 4"
# a sweep whose reader goes away stops instead of measuring for no one
timeout 60 "$REBENCH" -d 200ms -b 512..64k*2 -n "$DEV" 2>"$RB_ERR_FILE" | head -n 1 >/dev/null
RB_RC=${PIPESTATUS[0]}
assert_rc 5 "a sweep piped into head: exit 5"
assert_match "standard output failed after point [0-9]+ of 8: the sweep stops there" \
	"$(<"$RB_ERR_FILE")" "the sweep says where it stopped"

section "10. temporaries are made in TMPDIR and removed on every exit"
tmp_count() { ls -d "$TMPDIR"/rebench-plot.* "$TMPDIR"/rebench-sweep.* 2>/dev/null | wc -l; }
assert_eq 0 "$(tmp_count)" "no temporaries left in TMPDIR ($TMPDIR) by the runs above"
TMPDIR=$SCRATCH/none rb -d 300ms -g 100 -n --plot "$SCRATCH/a.png" "$DEV"
assert_rc 1 "--plot with a TMPDIR that does not exist: exit 1"
assert_match "^rebench: --plot: cannot make a temporary directory in $SCRATCH/none \(TMPDIR\): No such file or directory" \
	"$RB_ERR" "... the message names TMPDIR"
TMPDIR=$SCRATCH/none rb -d 100ms -b 512,1k -n --plot "$SCRATCH/a.png" "$DEV"
assert_rc 2 "a sweep's --plot with a TMPDIR that does not exist: exit 2"
assert_match "cannot make a temporary directory in $SCRATCH/none \(TMPDIR\)" \
	"$RB_ERR" "... the message names TMPDIR"
for args in "-d 30 -g 100" "-d 30 -b 512,1k"; do
	kind=plot
	case $args in *-b*) kind=sweep ;; esac
	ready_listen
	# shellcheck disable=SC2086
	spawn --ready-fd 3 $args -n --plot "$SCRATCH/r.png" "$DEV" 3>"$READY"
	ready_heard
	assert_eq "ready 1" "$HEARD $(ls -d "$TMPDIR"/rebench-$kind.* 2>/dev/null | wc -l)" \
		"a $kind run with --plot: its rebench-$kind.XXXXXX is in TMPDIR while it runs"
	kill -INT "$BG_PID"
	wait "$BG_PID"
	assert_eq 130 "$?" "... interrupted: exit 130"
	assert_eq 0 "$(tmp_count)" "... and its temporary directory is removed"
done
rb -d 300ms -g 100 -n --plot "$SCRATCH/a.png" "$DEV"
assert_rc 0 "--plot without --output: exit 0"
REBENCH_PLOTS=$SCRATCH/noplots rb -d 300ms -g 100 -n --plot "$SCRATCH/b.png" "$DEV"
assert_rc 4 "--plot with no scripts: exit 4"
assert_match "the series was temporary" "$RB_ERR" "the message does not point at a removed file"
REBENCH_PLOTS=$SCRATCH/noplots rb -d 100ms -b 512,1k -n --plot "$SCRATCH/c.png" "$DEV"
assert_rc 4 "a sweep's --plot with no scripts: exit 4"
spawn_ready -d 30 -g 100 -n --plot "$SCRATCH/d.png" "$DEV"
interrupt_after 0.8
assert_eq 130 "$BG_RC" "--plot run interrupted: exit 130"
spawn_ready -d 2 -b 512,1k -n --plot "$SCRATCH/e.png" "$DEV"
interrupt_after 0.8
assert_eq 130 "$BG_RC" "--plot sweep interrupted: exit 130"
# an I/O error (exit 3): an mmap reader whose file shrinks under it
MF=$SCRATCH/shrink.dat
dd if=/dev/urandom of="$MF" bs=1M count=16 status=none
spawn_ready -t mmap -p -d 10 -b 4k -g 100 -n --plot "$SCRATCH/f.png" "$MF"
truncate -s 64k "$MF"
wait "$BG_PID"
assert_eq 3 "$?" "--plot run with an I/O error: exit 3"
assert_eq 0 "$(tmp_count)" "no rebench-plot.* or rebench-sweep.* left in TMPDIR after exits 0, 3, 4, 130"
