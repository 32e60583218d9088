#!/usr/bin/env bash
# demo.sh - rebench on a model SSD: the default run, sequential
# reads, two workloads at once from stdin, a confirmed write, a time series
# plot, the classic 8 x 8 block size x alignment sweep as a heatmap and as
# lines (each with its noise: the cells or points within noise of the best
# marked, the lines' 95% intervals as error bars), the same sweep 512 bytes
# in compared with it (rebench --compare), IOPS against queue depth, and
# IOPS against block size for uniform against pow (both with --plot, so
# that rebench names the target, settings, time per point and noise in
# their titles).  The 3D surface (plots/surface.gp) is left out: it shows
# nothing the heatmap does not and marks no noise; draw it by hand with
# gnuplot -c plots/surface.gp OUT/align.tsv.matrix surface.png.  The device is a model SSD (workloads/model-device.sh up
# DEMO_MODEL, rebench-modeldev(1)): its 4 KiB flash pages make the alignment
# plots show what page-crossing costs.  Without rebench-modeldev (no
# libfuse3-dev), or with DEMO_MODEL empty, a loop device over an image in a
# temporary directory, which has no pages: its plots are noise.  Everything
# is removed on every exit path.  Needs root (losetup).  The
# DEMO_SIZE_MB, DEMO_POINT_SECONDS (a sweep point) and DEMO_RUN_SECONDS (each
# single run) make it smaller and shorter, as the tests do.  The
# output directory (DEMO_OUT) is an existing directory or a new name in one;
# a file the demo would write there that is not a regular file is refused,
# with exit status 1, before anything is created.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
rebench=${REBENCH:-$here/rebench}
out=${DEMO_OUT:-$here/demo-output}
size_mb=${DEMO_SIZE_MB:-256}
# page reads of 500 us: ten times what FUSE and the loop device add
model=${DEMO_MODEL-ssd:read=500us,program=2ms,erase=5ms}

if [ "$(id -u)" != 0 ]; then
	echo "demo: needs root to attach a loop device; run: sudo make demo" >&2
	exit 1
fi
# every file it writes: a regular file or a new name in an existing
# directory, checked before anything is created
# shellcheck source=SCRIPTDIR/../workloads/lib-outpath.sh
. "$here/workloads/lib-outpath.sh"
outpath_check_all "$out" "the demo's output" timeseries.tsv align.tsv \
	align.tsv.matrix align.tsv.matrix.noise align.json align-512.json \
	compare.png bs-by-dist.tsv timeseries.png align-heatmap.png \
	align-lines.png bs-by-dist.png qd.tsv qd.png || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/rebench-demo.XXXXXX")
loop="" modeldev=""
cleanup() {
	if [ -n "$modeldev" ]; then
		"$here/workloads/model-device.sh" down "$modeldev" || true
	elif [ -n "$loop" ]; then
		losetup -d "$loop" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

mkdir -p -- "$out"
if [ -n "$model" ] && [ -x "$here/rebench-modeldev" ] && [ -c /dev/fuse ]; then
	modeldev=$("$here/workloads/model-device.sh" up --size "${size_mb}m" "$model")
	loop=$modeldev
	echo "demo: scratch device is $loop, a ${size_mb} MiB model SSD ($model;"
	echo "      man -l man/rebench-modeldev.1): 4 KiB flash pages on 4 channels"
else
	echo "demo: creating a ${size_mb} MiB scratch image and filling it with data"
	dd if=/dev/urandom of="$work/disk.img" bs=1M count="$size_mb" status=none
	loop=$(losetup -f --show "$work/disk.img")
	echo "demo: scratch device is $loop (a loop device over $work/disk.img; it has no"
	echo "      flash pages, so the alignment plots show noise: build rebench-modeldev,"
	echo "      which needs libfuse3-dev (make deps), for a model SSD)"
fi

run() {
	echo
	echo "\$ $*"
	"$@"
}

# DEMO_RUN_SECONDS: every single run's length (the tests' short demo);
# else 3 s for the default run, 5 s for the time series, 2 s for the rest
d3=${DEMO_RUN_SECONDS:-3} d2=${DEMO_RUN_SECONDS:-2} d5=${DEMO_RUN_SECONDS:-5}
run "$rebench" -d "$d3" "$loop"
run "$rebench" -d "$d2" -w seq -b 1m "$loop"
echo
echo "\$ printf '%s\\n' '-b 4k -t stateless -c 2 $loop' '-w seq -b 256k $loop' | $rebench -d $d2"
printf '%s\n' "-b 4k -t stateless -c 2 $loop" "-w seq -b 256k $loop" | "$rebench" -d "$d2"
run "$rebench" -d "$d2" -o write -b 4k --yes "$loop"
# --plot names what ran in the series' title (a TSV alone does not)
tsplot=()
command -v gnuplot >/dev/null && tsplot=(--plot "$out/timeseries.png")
REBENCH_PLOTS=${REBENCH_PLOTS:-$here/plots} \
	run "$rebench" -d "$d5" -g 250 -b 4k --output "$out/timeseries.tsv" "${tsplot[@]}" "$loop"
secs=${DEMO_POINT_SECONDS:-1}
# 100 ms intervals give every point its 95% interval, so the heatmap can
# mark the cells the noise cannot tell from the best; shuffled, so that a
# drift does not paint a pattern
echo
echo "\$ $rebench -b 512..4k/512 -s 512..4k/512 -d $secs -g 100 --order shuffled:1 --output $out/align.tsv --json $loop > $out/align.json"
"$rebench" -b 512..4k/512 -s 512..4k/512 -d "$secs" -g 100 --order shuffled:1 \
	--output "$out/align.tsv" --json "$loop" >"$out/align.json"
# the same sweep on a region that starts 512 bytes in, compared with it
echo "\$ $rebench -b 512..4k/512 -s 512..4k/512 -d $secs -g 100 --order shuffled:2 -j 512 --json $loop > $out/align-512.json"
"$rebench" -b 512..4k/512 -s 512..4k/512 -d "$secs" -g 100 --order shuffled:2 \
	-j 512 --json "$loop" >"$out/align-512.json"
cmpplot=()
command -v gnuplot >/dev/null && cmpplot=(--plot "$out/compare.png")
echo "\$ $rebench --compare $out/align.json $out/align-512.json ${cmpplot[*]} | tail -n 1"
REBENCH_PLOTS=${REBENCH_PLOTS:-$here/plots} "$rebench" --compare "$out/align.json" \
	"$out/align-512.json" "${cmpplot[@]}" | tail -n 1
# IOPS against block size for uniform against pow: 100 ms intervals give
# each point its 95% interval (the plot's error bars), shuffled so that a
# drift does not draw a zigzag
lineplot() { command -v gnuplot >/dev/null && printf '%s\n' --plot "$1"; }
mapfile -t bsplot < <(lineplot "$out/bs-by-dist.png")
run "$rebench" -b 512..64k*2 -u uniform,pow -d "$secs" -g 100 --order shuffled:3 \
	--output "$out/bs-by-dist.tsv" "${bsplot[@]}" "$loop"
# IOPS against queue depth: on the model SSD they rise to about its 4
# channels and flatten (io_uring, else libaio, when built)
qd_engine=
for e in uring naio; do
	"$rebench" -t "$e" -q 2 --dry-run "$loop" >/dev/null 2>&1 && { qd_engine=$e; break; }
done
mapfile -t qdplot < <(lineplot "$out/qd.png")
[ -z "$qd_engine" ] ||
	run "$rebench" -t "$qd_engine" -b 4k -q 1,2,4,8,16,32 -d "$secs" -g 100 --order shuffled:4 \
		--output "$out/qd.tsv" "${qdplot[@]}" "$loop"
if command -v gnuplot >/dev/null; then
	p=$here/plots
	gnuplot -c "$p/heatmap.gp" "$out/align.tsv.matrix" "$out/align-heatmap.png"
	# the lines read what produced them from align.tsv.matrix beside the table
	gnuplot -c "$p/lines.gp" "$out/align.tsv" "$out/align-lines.png" stride block-size
	echo
	echo "demo: plots in $out: timeseries.png, align-heatmap.png and align-lines.png"
	echo "      (cells or points within noise of the best marked, the lines with 95%"
	echo "      intervals), compare.png (offset 512 against offset 0), bs-by-dist.png,"
	echo "      qd.png (data beside them).  As a 3D surface, if wanted:"
	echo "      gnuplot -c plots/surface.gp $out/align.tsv.matrix align-surface.png"
else
	echo "demo: gnuplot is not installed; the data is in $out/*.tsv"
fi
