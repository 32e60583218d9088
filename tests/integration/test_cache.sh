#!/usr/bin/env bash
# test_cache.sh - --cache SIZE (issue 15) and the device read counters: a
# region larger than the limit reads from the device on most requests, one
# within it on almost none after a warm-up (the device's own counters, in
# -n fields 96-97 and JSON results.device) - half with two passes, none
# measured after a warm-up over the region; the run's memory cgroup is
# gone after the run, after SIGINT and after SIGTERM; a file on tmpfs has
# no counters and says why; refused before any I/O: without -p, below
# rebench's own need (with the figure), two values in one run.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

CG=/sys/fs/cgroup/memory$(sed -n 's/^[0-9]*:memory://p' /proc/self/cgroup)
[ -d "$CG" ] || skip "no cgroup v1 memory hierarchy here ($CG)"
# The test in a memory cgroup of its own, so that the rebench-PID cgroups
# under it are its runs' (another test's runs make theirs beside it);
# back out and removed on every exit.
TOP=$CG
CG=$TOP/test-cache.$$
mkdir "$CG" && echo $$ >"$CG/cgroup.procs" || fail "cannot enter a memory cgroup of its own ($CG)"
trap 'rc=$?; echo $$ >"$TOP/cgroup.procs"; rmdir "$CG"/rebench-* "$CG" 2>/dev/null; (exit $rc); cleanup' EXIT
DEV=$(make_loop 128M)
# 64 MiB read twice in 4 KiB: once in the warm-up, once measured; no
# read-ahead (--fadvise random), so a device read is one missed block
R="-p -w seq -b 4k -e 64m --fadvise random"

# ours: the run's cgroups left under ours
ours() { ls -d "$CG"/rebench-* 2>/dev/null; }

section "a region above the limit: most reads reach the device"
rb -n $R -d 128m --cache 24m "$DEV"
assert_rc 0 "--cache 24m exits 0"
read -r ios dr db <<<"$(<<<"$RB_OUT" awk 'NF { print $14, $96, $97; exit }')"
assert_eq 32768 "$ios" "32768 requests of 4 KiB (two passes)"
assert_num "device reads $dr of $ios requests: at least 90%" "$dr >= 0.9 * $ios"
assert_num "device bytes $db: 4 KiB a read" "$db == $dr * 4096"
assert_eq "" "$(ours)" "no cgroup of the run left"

section "a region within the limit: the second pass comes from the cache"
rb -n $R -d 128m --cache 256m "$DEV"
read -r ios dr <<<"$(<<<"$RB_OUT" awk 'NF { print $14, $96; exit }')"
assert_num "device reads $dr of $ios requests: the first pass only (at most 55%)" \
	"$dr <= 0.55 * $ios && $dr >= 0.45 * $ios"
# 4096 blocks: the warm-up reads them all at the 5000 cold reads/s of
# this loop device
rb -n -p -w seq -b 4k -e 16m --fadvise random -d 16m --warmup 3s --cache 256m "$DEV"
read -r ios dr <<<"$(<<<"$RB_OUT" awk 'NF { print $14, $96; exit }')"
assert_num "after a 3 s warm-up over the region: device reads $dr of $ios requests (at most 5%)" \
	"$dr <= 0.05 * $ios"
rb --json $R -d 64m --cache 256m "$DEV"
assert_eq 268435456 "$(jqr '.workloads[0].parameters.cache_bytes')" "JSON parameters.cache_bytes"
assert_eq "$(basename "$DEV") 16384 67108864" \
	"$(jqr '.workloads[0].results.device | "\(.name) \(.reads) \(.read_bytes)"')" \
	"JSON results.device: every block of one cold pass read once"
rb --json -p -w seq -b 4k -e 64m -d 64m "$DEV"
assert_eq null "$(jqr '.workloads[0].parameters.cache_bytes')" "without --cache: null"
rb $R -d 64m --cache 256m "$DEV"
assert_match "^Device reads: 16384 \(1\.00 per read request\), 64 MiB, $(basename "$DEV") \(this workload alone on it\)$" "$RB_OUT" \
	"human: the Device reads line"
assert_match "cache: 256m \(memory cgroup\)" "$RB_OUT" "human: the limit in the settings line"

section "a sweep of limits"
rb $R -d 128m --cache 24m,256m "$DEV"
assert_rc 0 "--cache 24m,256m sweeps"
assert_eq 2 "$(<<<"$RB_OUT" tail -n +2 | grep -c .)" "two rows"

section "two workloads on one device share the cgroup and its counters"
printf '%s\n' "-p -b 4k -e 32m -d 1s --cache 32m $DEV" "-p -b 4k -j 64m -e 32m -d 1s --cache 32m $DEV" >"$SCRATCH/same"
rb -n <"$SCRATCH/same"
assert_rc 0 "two workloads with one --cache value run"
assert_eq 1 "$(<<<"$RB_OUT" awk '$1 == "device"' | wc -l)" "one device line: the device once"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_eq 3 "$(<<<"$RB_OUT" grep -c .)" "two lines and the total"
read -r -a u <<<"$(<<<"$RB_OUT" awk '{ printf "%s ", $96 }')"
assert_eq "- -" "${u[0]} ${u[1]}" "neither workload claims the device's reads: both used it"
assert_eq "" "$(ours)" "no cgroup left"

section "the cgroup is removed after SIGINT and SIGTERM"
for sig in INT TERM; do
	# the cgroup is made before the measured run starts
	spawn_ready -p -b 4k -e 64m -d 30 --cache 32m "$DEV"
	assert_ne "" "$(ours)" "SIG$sig: the run's cgroup exists while it runs"
	interrupt_after 0 "$sig"
	assert_eq 130 "$BG_RC" "SIG$sig: exit 130"
	assert_eq "" "$(ours)" "SIG$sig: the cgroup is gone"
	assert_eq "" "$(grep -c "rebench-" /proc/self/cgroup | grep -v '^0$')" "SIG$sig: this shell is not in it"
done

section "no device counters: a file on tmpfs says why"
T=$SCRATCH/tmpfs
mkdir -p "$T" && mount -t tmpfs -o size=16m tmpfs "$T" || fail "cannot mount tmpfs"
_register mounts "$T"
rb --json -p -e 4m -d 1m "$T/f.dat"
assert_eq "null null" "$(jqr '[.workloads[0].results.device, .devices[0].reads] | map(tostring) | join(" ")')" "JSON: no results.device, devices[0].reads null"
assert_match "tmpfs" "$(jqr '.devices[0].unknown')" "JSON devices[0].unknown names tmpfs"
rb -n -p -e 4m -d 1m "$T/f.dat"
assert_eq "- -" "$(<<<"$RB_OUT" awk 'NF { print $96, $97; exit }')" "-n fields 96-97: - -"
umount "$T"

section "refused before any I/O"
sum=$(dev_sum "$DEV")
rb -b 4k -d 1m --cache 64m "$DEV"
assert_rc 1 "--cache without -p: exit 1"
assert_match "--cache 64 MiB: the limit is on the page cache, which O_DIRECT .* add -p" "$RB_ERR" \
	"without -p: O_DIRECT bypasses the page cache; add -p"
rb -p -b 4k -d 1m --cache 4m "$DEV"
assert_rc 1 "--cache 4m: exit 1"
assert_match "--cache 4 MiB: below the [0-9.]+ MiB this run needs for rebench itself .*give --cache [0-9]+m or more" \
	"$RB_ERR" "too small: says how much rebench needs, and what to give"
rb -p -b 4k -d 1m --cache 0 "$DEV"
assert_rc 1 "--cache 0: exit 1"
printf -- '-p %s --cache 64m\n-p %s --cache 32m -j 64m\n' "$DEV" "$DEV" >"$SCRATCH/two"
rb -d 200ms <"$SCRATCH/two"
assert_rc 1 "two limits in one run: exit 1"
assert_match "stdin line 2: --cache 32 MiB: stdin line 1 .* has --cache 64 MiB; the workloads of one run share one memory cgroup" \
	"$RB_ERR" "the message names both lines"
assert_no_match "Benchmarking" "$RB_OUT" "nothing ran"
rb --fio -p --cache 64m "$DEV"
assert_match "# not expressible in fio: --cache 67108864: run fio inside a memory cgroup" "$RB_OUT" \
	"--fio: a note on how to do it"
assert_eq "$sum" "$(dev_sum "$DEV")" "the device is unchanged"
assert_eq "" "$(ours)" "no cgroup left after the refusals"
