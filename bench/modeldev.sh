#!/usr/bin/env bash
# modeldev.sh - the floor under every model device's times: what the kernel
# path, the loop device and FUSE add to a request (rebench-modeldev(1),
# OVERHEAD).  A model SSD whose times are all 0 against a loop device over
# a file on tmpfs (the block layer and loop driver without FUSE; tmpfs has
# no O_DIRECT, so that loop device reads through the page cache), 4 KiB
# random reads at queue depth 1 and 8, ROUNDS runs each: the run with the
# median p50 is shown.
# Timing: it prints, it never fails on load.  Root.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
rebench=${REBENCH:-$here/rebench}
md=$here/workloads/model-device.sh
rounds=${ROUNDS:-5}
dur=${DUR:-1}

[ "$(id -u)" = 0 ] || { echo "modeldev.sh: needs root (a loop device and a FUSE mount)"; exit 1; }
[ -x "$here/rebench-modeldev" ] || {
	echo "modeldev.sh: rebench-modeldev is not built (libfuse3-dev: make deps): no overhead floor measured"
	exit 0
}

dir=$(mktemp -d /dev/shm/rebench-bench-modeldev.XXXXXX) || exit 1
model='' plain=''
cleanup() {
	[ -n "$model" ] && "$md" down "$model"
	[ -n "$plain" ] && losetup -d "$plain"
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

model=$("$md" up --size 256m ssd:read=0ns,program=0ns,erase=0ns) || exit 1
truncate -s 256m "$dir/plain.img"
# tmpfs has no O_DIRECT: the loop device reads it through the page cache,
# which still costs no device time
plain=$(losetup -f --show "$dir/plain.img") || exit 1

# lat DEV QD: p50 and average latency (us), and ops/s, of one run
lat() {
	"$rebench" --json -b 4k -t "$([ "$2" = 1 ] && echo stateful || echo uring)" \
		-q "$2" -d "$dur" --seed 1 "$1" 2>/dev/null |
		jq -r '.workloads[0].results | "\(.latency_us.p50) \(.latency_us.avg) \(.ops_per_s)"'
}

echo "FUSE and loop overhead: 4 KiB random reads, $rounds runs of ${dur} s each, the run with the median p50"
printf '%-34s %3s %10s %10s %10s\n' device qd "p50 us" "avg us" "ops/s"
for qd in 1 8; do
	for which in model plain; do
		dev=$model
		[ "$which" = plain ] && dev=$plain
		for ((r = 0; r < rounds; r++)); do
			lat "$dev" "$qd"
		done >"$dir/$which.$qd"
	done
	for which in model plain; do
		label="model SSD, all times 0 (FUSE)"
		[ "$which" = plain ] && label="loop over tmpfs (no FUSE)"
		printf '%-34s %3s ' "$label" "$qd"
		sort -n "$dir/$which.$qd" | awk -v n="$rounds" '{ p[NR] = $1; a[NR] = $2; o[NR] = $3 }
			END { m = int((n + 1) / 2); printf "%10.1f %10.1f %10.0f\n", p[m], a[m], o[m] }'
	done
done
echo "a model's times should be ten times the FUSE p50 at queue depth 1 or more"

# rebench's flush-honesty heuristic against a disk whose flushes lie and
# one whose flushes are honest: 100 O_DSYNC writes of 4 KiB each
echo
echo "flush honesty: 100 O_DSYNC 4 KiB writes on a model disk with a 4 MiB write cache"
printf '%-8s %14s  %s\n' flush "p50 write us" "rebench's warning"
for f in lie honest; do
	d=$("$md" up --size 64m "hdd:cache=4m,flush=$f") || continue
	out=$("$rebench" --json -o write -b 4k -d 400k --seed 8 --yes "$d" 2>&1 >"$dir/flush.json")
	"$md" down "$d"
	warned=no
	{ grep -q 'under one revolution' <<<"$out" ||
		jq -e '[.. | strings | select(test("under one revolution"))] | length > 0' \
			"$dir/flush.json" >/dev/null; } && warned=yes
	printf '%-8s %14.1f  %s\n' "$f" "$(jq -r '.workloads[0].results.latency_us.p50' "$dir/flush.json")" "$warned"
done
