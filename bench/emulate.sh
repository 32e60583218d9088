#!/usr/bin/env bash
# emulate.sh (make crosscheck) - how well --emulate makes an application on
# a fast device take the time it takes on a slow one.
#
# The application is sqlite3 inserting rows one transaction each with
# PRAGMA synchronous=FULL (bench/sqlite-insert.sh), into a database on ext4.
# The fast device is /dev/zram0 (memory); the slow one a loop device with
# direct I/O over an image file on the root filesystem's disk, so that its
# writes and flushes reach that disk.  Steps:
#
#   1. time the application on each device (median of EMU_RUNS runs);
#   2. record it once on the fast device (--record);
#   3. replay the log grouped onto a new file on each filesystem
#      (--replay-mode grouped, EMU_REPLAY_OPTS, default -p: the page cache,
#      as sqlite3 uses it) and keep each JSON result;
#   4. run the application on the fast device under --emulate SLOW.json
#      --baseline FAST.json (median of EMU_RUNS runs);
#   5. print the three medians and the emulation's error against the slow
#      device, flagged when it is over EMU_TOL percent (15).
#
# Timing depends on the machine, so nothing here fails on a disagreement:
# it is flagged (DISAGREE) and counted, as bench/crosscheck.sh does.  Only a
# tool that fails to run makes the script exit non-zero.
#
# EMU_ROWS=N rows (300), EMU_RUNS=N runs of each timing (3).  Needs root,
# /dev/zram0 unused (disksize 0), sqlite3, jq and /usr/bin/time.
. "$(dirname "$0")/../tests/lib/common.sh"

require_loop
require_cmd sqlite3 jq mkfs.ext4
[ -x /usr/bin/time ] || skip "needs /usr/bin/time (Debian package time)"

ROWS=${EMU_ROWS:-300}
RUNS=${EMU_RUNS:-3}
TOL=${EMU_TOL:-15}
REPLAY_OPTS=${EMU_REPLAY_OPTS:--p}
INSERT=$TESTS_ROOT/bench/sqlite-insert.sh
# rebench runs as a copy (common.sh): it finds the interposer this way
export REBENCH_RECORD_LIB=$TESTS_ROOT/librebench-record.so
[ -r "$REBENCH_RECORD_LIB" ] || die "$REBENCH_RECORD_LIB not built: run make"
ZRAM=/dev/zram0

[ -b $ZRAM ] || skip "no $ZRAM (modprobe zram)"
[ "$(cat /sys/block/zram0/disksize)" = 0 ] ||
	skip "$ZRAM is in use (its disksize is not 0): this study formats it"

S=$SCRATCH
echo 256M >/sys/block/zram0/disksize || die "cannot size $ZRAM"
# on every exit: zram unmounted and reset (emptied, disksize 0), then the
# usual cleanup of common.sh (the loop device, its mount, the scratch dir)
trap 'rc=$?; umount "$S/fast" 2>/dev/null; echo 1 >/sys/block/zram0/reset; (exit $rc); cleanup' EXIT
mkfs.ext4 -q $ZRAM || die "mkfs.ext4 $ZRAM failed"
mkdir -p "$S/fast" && mount $ZRAM "$S/fast" || die "cannot mount $ZRAM"
SLOW=$(losetup -f --show --direct-io=on "$(make_image 256M)") || die "losetup failed"
_register loops "$SLOW"
mkfs.ext4 -q "$SLOW" || die "mkfs.ext4 $SLOW failed"
mount_dev "$SLOW" "$S/slow"

# seconds CMD...: the elapsed seconds of one run of CMD (a fresh database).
seconds() {
	/usr/bin/time -f %e -o "$S/time" "$@" >/dev/null 2>&1 ||
		die "$* failed"
	tail -1 "$S/time"
}

# median_of DIR CMD...: median elapsed seconds of RUNS runs, each on a new
# database.
median_of() {
	local dir=$1 i ts=()
	shift
	for ((i = 0; i < RUNS; i++)); do
		rm -f "$dir/t.db" "$dir/t.db-journal"
		ts+=("$(seconds "$@")")
	done
	printf '%s\n' "${ts[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p"
	log "$dir: ${ts[*]} s" >&2
}

log "$ROWS single-row transactions, synchronous=FULL; fast $ZRAM, slow $SLOW (direct I/O over $S); $RUNS runs each"
T_FAST=$(median_of "$S/fast" "$INSERT" "$S/fast/t.db" "$ROWS")
T_SLOW=$(median_of "$S/slow" "$INSERT" "$S/slow/t.db" "$ROWS")

rm -f "$S/fast/t.db"
"$REBENCH" --record "$S/app.log" -n -- "$INSERT" "$S/fast/t.db" "$ROWS" >/dev/null ||
	die "rebench --record failed"
for d in fast slow; do
	rm -f "$S/$d/replay.bin"
	# shellcheck disable=SC2086 # EMU_REPLAY_OPTS is a list of options
	"$REBENCH" --replay "$S/app.log" --replay-mode grouped $REPLAY_OPTS \
		-y --json "$S/$d/replay.bin" >"$S/$d.json" 2>"$S/$d.err" ||
		die "grouped replay on $d failed: $(cat "$S/$d.err")"
	log "grouped replay on $d: $(jq -r '[.replay.per_op[] | "\(.op) \(.ns_per_op | floor) ns"] | join(", ")' "$S/$d.json")"
done
"$REBENCH" --emulate "$S/slow.json" --baseline "$S/fast.json" --allow-partial \
	-- "$INSERT" "$S/fast/t.db" 1 >/dev/null 2>"$S/plan" ||
	die "rebench --emulate failed: $(cat "$S/plan")"
sed 's/^/    /' "$S/plan"
T_EMU=$(median_of "$S/fast" "$REBENCH" --emulate "$S/slow.json" \
	--baseline "$S/fast.json" --allow-partial -- \
	"$INSERT" "$S/fast/t.db" "$ROWS")

ERR=$(awk -v e="$T_EMU" -v s="$T_SLOW" 'BEGIN { printf "%+.1f", 100 * (e / s - 1) }')
VERDICT=agree
awk -v e="$ERR" -v t="$TOL" 'BEGIN { exit !(e > t || e < -t) }' && VERDICT=DISAGREE
printf '%-34s %8s\n' "sqlite3, $ROWS transactions" seconds
printf '%-34s %8s\n' "fast ($ZRAM)" "$T_FAST" "slow ($SLOW, direct I/O)" "$T_SLOW" \
	"fast under --emulate slow" "$T_EMU"
printf 'emulation error: %s%% of the slow run (tolerance %s%%): %s\n' "$ERR" "$TOL" "$VERDICT"
exit 0
