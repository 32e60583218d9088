#!/usr/bin/env bash
# test_model_device.sh - the model SSD (rebench-modeldev under a loop device,
# workloads/model-device.sh): rebench's runs reach the model through the
# kernel, and the model does what its keys say, checked on its own counters
# (exact: pages read and programmed, read-modify-writes, garbage collection,
# time busy) and on latencies that can only be longer than the model's
# times (a busy machine makes them longer, never shorter).  Bad MODELs and
# a DEVICE that is not a model device are refused, leaving nothing behind.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq sfdisk partx groff blockdev
[ -c /dev/fuse ] || skip "needs /dev/fuse (modprobe fuse)"
require_rebench

MD=$TESTS_ROOT/workloads/model-device.sh
S=$SCRATCH


# gone PID: the process has ended (a zombie not yet reaped has)
gone() { [ "$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null || echo Z)" = Z ]; }

# lat_min_at_least WHAT US: the last run's smallest latency is US or more
lat_min_at_least() {
	local min
	min=$(human_latency | awk '{ print $1 }')
	assert_num "$1: the fastest I/O took $min us, at least the model's $2 us" "$min >= $2"
}

section "bad MODELs and devices: refused, nothing left behind"
bad_model() {
	local what=$1 re=$2
	shift 2
	"$MD" up --size 8m "$@" >"$S/out" 2>"$S/err"
	assert_eq 1 "$?" "$what: exit 1"
	assert_eq "" "$(<"$S/out")" "$what: nothing on stdout"
	assert_match "$re" "$(<"$S/err")" "$what: says why"
	assert_eq "" "$(grep -lxF -- "${*: -1}" /run/rebench-modeldev/md.*/model 2>/dev/null)" \
		"$what: no state folder left"
}
bad_model "a model that does not exist" 'tape: no such model; give ssd:' 'tape:x=1'
bad_model "a key ssd does not have" 'foo: no such key of ssd; the keys are page block channels read program erase op sector cache cached flush noise' 'ssd:foo=1'
bad_model "a time without its unit" 'read=100: not a time with its unit' 'ssd:read=100'
bad_model "a sector a loop device cannot show" 'sector=1024: give 512 or 4096' 'ssd:sector=1024'
bad_model "a page smaller than the sector" 'page=512: give a power of two of at least the sector \(4096\)' 'ssd:sector=4k,page=512'
"$MD" up --partition-at x ssd: >"$S/out" 2>"$S/err"
assert_eq 1 "$?" "--partition-at x: exit 1"
assert_match 'give a sector number' "$(<"$S/err")" "--partition-at x: says what to give"
PLAIN=$(make_loop 8M)
"$MD" down "$PLAIN" 2>"$S/err"
assert_eq 1 "$?" "down of a loop device over a plain file: exit 1"
assert_match "is not a model device" "$(<"$S/err")" "down of a plain loop device: says it is not a model device"
assert_ne "" "$(losetup -nO BACK-FILE "$PLAIN")" "the plain loop device is still attached"

section "up: one line, a block device with direct I/O"
"$MD" up --size 64m ssd:read=1ms,program=2ms,erase=5ms,channels=4 >"$S/up.out" 2>"$S/up.err"
assert_eq 0 "$?" "up exits 0"
DEV=$(<"$S/up.out")
assert_match '^/dev/loop[0-9]+$' "$DEV" "up prints the block device and nothing else"
printf '%s\t%s\n' "$DEV" "$(losetup -nO BACK-FILE "$DEV")" >>"$SCRATCH/.models"
assert_eq "1 512" "$(losetup -nO DIO,LOG-SEC "$DEV" | awk '{ print $1, $2 }')" "loop device with direct I/O, 512-byte sectors"
assert_eq $((64 << 20)) "$(blockdev --getsize64 "$DEV")" "64 MiB"
assert_match "^$DEV	ssd:read=1ms,program=2ms,erase=5ms,channels=4	/run/rebench-modeldev/md\." \
	"$("$MD" list)" "list names it with its model"

section "reads: a page each when aligned, two when they cross a page"
model_snap "$DEV"
rb -o read -b 4k -d 400k --seed 1 "$DEV"
assert_rc 0 "100 aligned 4 KiB reads"
assert_eq "100 100" "$(model_delta "$DEV" requests.read) $(model_delta "$DEV" ssd.pages_read)" \
	"aligned: 100 requests reached the model, 100 pages read"
lat_min_at_least "aligned 4 KiB reads" 1000
model_snap "$DEV"
rb -o read -b 4k -j 2k -d 400k --seed 1 "$DEV"
assert_rc 0 "100 reads 2 KiB off the pages"
assert_eq "100 200" "$(model_delta "$DEV" requests.read) $(model_delta "$DEV" ssd.pages_read)" \
	"crossing a page: 100 requests, 200 pages read"
lat_min_at_least "page-crossing 4 KiB reads (two pages in turn)" 2000

section "writes: a program per page; a partial page is read first"
model_snap "$DEV"
rb -o write -b 4k -d 200k --seed 2 --yes "$DEV"
assert_rc 0 "50 aligned 4 KiB writes"
assert_eq "50 50 0" "$(model_delta "$DEV" requests.write) $(model_delta "$DEV" ssd.pages_programmed) $(model_delta "$DEV" ssd.rmw_pages)" \
	"aligned: 50 writes, 50 pages programmed, no read-modify-write"
lat_min_at_least "aligned 4 KiB writes" 2000
model_snap "$DEV"
rb -o write -b 4k -j 1k -d 100k --seed 3 --yes "$DEV"
assert_rc 0 "25 writes 1 KiB off the pages"
assert_eq "25 50 50" "$(model_delta "$DEV" requests.write) $(model_delta "$DEV" ssd.rmw_pages) $(model_delta "$DEV" ssd.pages_programmed)" \
	"misaligned: 25 writes, each two pages read and programmed"
lat_min_at_least "misaligned 4 KiB writes (2 x (read + program))" 6000

section "the channels' busy time is the sum of the page operations"
"$MD" counters "$DEV" >"$S/c"
assert_eq "$(awk '$1 ~ /^ssd\.channel[0-9]+\.busy_ns$/ { b += $2 } END { print b }' "$S/c")" \
	"$(awk '$1 == "ssd.pages_read" { r = $2 } $1 == "ssd.pages_programmed" { p = $2 } $1 == "ssd.erases" { e = $2 }
		END { print r * 1000000 + p * 2000000 + e * 5000000 }' "$S/c")" \
	"busy = pages read x 1 ms + programmed x 2 ms + erases x 5 ms"

section "every counter is in rebench-modeldev(1)"
plain=$(groff -man -Tascii -rLL=250n -rHY=0 -P-cbou "$TESTS_ROOT/man/rebench-modeldev.1" 2>/dev/null)
missing=
for k in $(awk '{ print $1 }' "$S/c" | sed -E 's/^key\..*/key.KEY/; s/channel[0-9]+/channelN/;
	s/^(requests|bytes)\.(read|write|flush|trim)$/\1.KIND/' | sort -u); do
	grep -qF -- "$k" <<<"$plain" || missing+=" $k"
done
assert_eq "" "$missing" "the man page's COUNTERS names every key the counters file has"

section "queue depth: requests reach the model together"
model_snap "$DEV"
rb -o read -b 4k -t uring -q 8 -d 1600k --seed 4 "$DEV"
[ "$RB_RC" = 0 ] || rb -o read -b 4k -t paio -q 8 -d 1600k --seed 4 "$DEV"
assert_rc 0 "400 reads at queue depth 8"
assert_eq 400 "$(model_delta "$DEV" requests.read)" "400 requests reached the model"
assert_num "the model served up to $(model_ctr "$DEV" requests.in_flight_max) requests at once, more than 1" \
	"$(model_ctr "$DEV" requests.in_flight_max) >= 2"

section "partition at sector 63: every aligned read crosses a page"
P63=$(make_model --size 16m --partition-at 63 ssd:read=1ms)
assert_match '^/dev/loop[0-9]+p1$' "$P63" "up --partition-at 63 prints the partition's node"
rb --probe --json "$P63"
assert_eq "32256" "$(jqr '.target.partition_start')" "the partition starts at byte 32256"
model_snap "$P63"
rb -o read -b 4k -d 40k --seed 5 "$P63"
assert_rc 0 "10 reads of 4 KiB on the partition"
assert_eq "10 20" "$(model_delta "$P63" requests.read) $(model_delta "$P63" ssd.pages_read)" \
	"10 requests, 20 pages: the partition's 4 KiB is 512 B off the device's"

section "garbage collection: random writes over a full device"
GC=$(make_model --size 4m ssd:read=20us,program=20us,erase=20us,block=16,op=10)
rb -o write -w seq -b 64k -d 4m --yes "$GC"
assert_rc 0 "the device written whole, in order"
assert_eq "0 1024" "$(model_ctr "$GC" ssd.gc_runs) $(model_ctr "$GC" ssd.pages_programmed)" \
	"filled once: 1024 pages programmed, no garbage collection yet"
rb -o write -b 4k -d 2m --seed 6 --yes "$GC"
assert_rc 0 "512 random 4 KiB writes"
"$MD" counters "$GC" >"$S/gc"
read -r runs moved erases prog host <<<"$(awk '$1 == "ssd.gc_runs" { a = $2 } $1 == "ssd.gc_pages_moved" { b = $2 }
	$1 == "ssd.erases" { c = $2 } $1 == "ssd.pages_programmed" { d = $2 } $1 == "ssd.host_pages_written" { e = $2 }
	END { print a, b, c, d, e }' "$S/gc")"
assert_num "garbage collection ran ($runs runs, $erases erases, $moved pages moved)" \
	"$runs > 0 && $erases == $runs && $moved > 0"
assert_eq "$((host + moved))" "$prog" "pages programmed = written by the host ($host) + moved ($moved)"
model_snap "$GC"
rb -o trim -w seq -b 64k -d 1m --yes "$GC"
assert_rc 0 "16 trims of 64 KiB"
assert_eq "16 256" "$(model_delta "$GC" requests.trim) $(model_delta "$GC" ssd.trimmed_pages)" \
	"the loop device's discards reach the model: 16 trims, 256 pages unmapped"

section "down: everything gone"
STATE=$(dirname "$(dirname "$(losetup -nO BACK-FILE "$(model_whole "$P63")")")")
PID=$(<"$STATE/pid")
"$MD" down "$P63"
assert_eq 0 "$?" "down of a partition of a model device exits 0"
assert_eq "" "$(losetup -nO BACK-FILE "$(model_whole "$P63")" 2>/dev/null | grep -F "$STATE")" "its loop device is detached"
assert_eq no "$([ -e "$STATE" ] && echo yes || echo no)" "its state folder is gone"
if wait_until gone "$PID"; then pass "the daemon ($PID) has ended"; else check_failed "the daemon ($PID) has ended"; fi

section "a daemon that died: list says so, the next up removes it"
DEAD=$(make_model --size 8m ssd:)
DSTATE=$(dirname "$(dirname "$(losetup -nO BACK-FILE "$DEAD")")")
DPID=$(<"$DSTATE/pid")
# hold model-device.sh's lock from the kill to the list: another test's
# up, beside this one, would otherwise remove the dead device first (up
# cleans up dead devices under that lock; list does not take it)
exec 8>/run/rebench-modeldev/.lock
flock 8
kill -9 "$DPID"
wait_until gone "$DPID" || fail "the daemon $DPID did not end on SIGKILL"
assert_match "daemon dead" "$("$MD" list | grep -F "$DSTATE")" "list: daemon dead"
flock -u 8
exec 8>&-
make_model --size 8m ssd: >/dev/null
assert_eq no "$([ -e "$DSTATE" ] && echo yes || echo no)" "the next up removed the dead device's folder"
assert_eq "" "$(losetup -nO BACK-FILE "$DEAD" 2>/dev/null | grep -F "$DSTATE")" \
	"and its loop device ($DEAD is no longer over its file)"
