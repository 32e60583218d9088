#!/usr/bin/env bash
# demo.sh - rebench on a scratch loop device: the default run, sequential
# reads, two workloads at once from stdin, a confirmed write, and a time
# series plot.  Creates everything in a temporary directory and removes it,
# with the loop device, on every exit path.  Needs root (losetup).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
rebench=${REBENCH:-$here/rebench}
out=${DEMO_OUT:-$here/demo-output}
size_mb=${DEMO_SIZE_MB:-256}

if [ "$(id -u)" != 0 ]; then
	echo "demo: needs root to attach a loop device; run: sudo make demo" >&2
	exit 1
fi
work=$(mktemp -d /tmp/rebench-demo.XXXXXX)
loop=""
cleanup() {
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

mkdir -p "$out"
echo "demo: creating a ${size_mb} MiB scratch image and filling it with data"
dd if=/dev/urandom of="$work/disk.img" bs=1M count="$size_mb" status=none
loop=$(losetup -f --show "$work/disk.img")
echo "demo: scratch device is $loop (a loop device over $work/disk.img)"

run() {
	echo
	echo "\$ $*"
	"$@"
}

run "$rebench" -d 3 "$loop"
run "$rebench" -d 2 -w seq -b 1m "$loop"
echo
echo "\$ printf '%s\\n' '-b 4k -t stateless -c 2 $loop' '-w seq -b 256k $loop' | $rebench -d 2"
printf '%s\n' "-b 4k -t stateless -c 2 $loop" "-w seq -b 256k $loop" | "$rebench" -d 2
run "$rebench" -d 2 -o write -b 4k --yes "$loop"
run "$rebench" -d 5 -g 250 -b 4k --output "$out/timeseries.tsv" "$loop"
if command -v gnuplot >/dev/null; then
	gnuplot -c "$here/plots/timeseries.gp" "$out/timeseries.tsv" "$out/timeseries.png"
	echo
	echo "demo: plot written to $out/timeseries.png (data: $out/timeseries.tsv)"
else
	echo "demo: gnuplot is not installed; the data is in $out/timeseries.tsv"
fi
