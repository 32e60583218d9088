#!/usr/bin/env bash
# cache-pressure.sh - working set against cache, BangDB's study: random
# reads, writes and a 50/50 mix of 100-400 byte values through the page
# cache (-p) over a region, with the cache limited (--cache) to the region
# x 2, 1, 1/2, 1/5 and 1/10: ops/s, p99 and the device reads per request
# against the ratio, with BangDB's three regimes marked ("normal": the
# cache holds all the data; "stressed": half; "totally stressed": a fifth
# to a tenth).
#
#   sudo workloads/cache-pressure.sh [--yes] [TARGET|-] [OUTDIR] [SECONDS] [REGION] [WARMUP]
#
# TARGET is a device or file that may be written (rebench asks first
# unless --yes is given; a missing file is created at REGION).  Without
# one, or with "-", the study runs on a loop device (direct I/O, so the
# image is not cached twice) over a new image in ${TMPDIR:-/var/tmp},
# removed afterwards.  Each point warms up for WARMUP seconds [5] (4
# threads fill the cache) and then measures SECONDS [3]; REGION [256m]
# must be at least 10 x rebench's own need under --cache (about 17 MiB),
# so 170 MiB or more.  OUTDIR [.] gets cache-pressure.tsv (a row per
# operation and ratio), cache-pressure.intervals.tsv (the 95% interval of
# each row's ops/s: ratio, operation, ops_ci_low, ops_ci_high,
# ops_ci_pct; each point is measured in 20 intervals) and
# cache-pressure.png.  CACHE_PRESSURE_MODEL names the target's model in
# the plot's title when the kernel has none (a model device).  A path the study would
# write that is not a regular file is refused, with exit status 1, before
# anything runs.  Writes are not flushed (-f): the study is about the
# cache, and their rows say not-durable.  About 2 minutes with the
# defaults.
set -euo pipefail
yes=()
if [ "${1:-}" = --yes ] || [ "${1:-}" = -y ]; then
	yes=(--yes)
	shift
fi
target=${1:--}
out=${2:-.}
secs=${3:-3}
region=${4:-256m}
warm=${5:-5}
ratios="2 1 0.5 0.2 0.1"
# the clone's or the installed rebench and plots/ (lib-locate.sh says how)
# shellcheck source=SCRIPTDIR/lib-locate.sh
. "$(dirname "$0")/lib-locate.sh"
rebench_locate cache-pressure.gp || exit 1
# shellcheck source=SCRIPTDIR/lib-outpath.sh
. "$(dirname "$0")/lib-outpath.sh"
# shellcheck source=SCRIPTDIR/lib-units.sh
. "$(dirname "$0")/lib-units.sh"
outpath_check_all "$out" "the study's output" cache-pressure.tsv \
	cache-pressure.intervals.tsv cache-pressure.png || exit 1
command -v jq >/dev/null || { echo "cache-pressure.sh: needs jq (apt-get install jq)" >&2; exit 1; }
bytes=$(numfmt --from=iec "$(printf '%s' "${region%[bB]}" | tr 'a-z' 'A-Z')" 2>/dev/null) || {
	echo "cache-pressure.sh: REGION '$region' is not a size (256m, 1g)" >&2
	exit 1
}
if [ "$bytes" -lt $((170 << 20)) ]; then
	echo "cache-pressure.sh: REGION $region is below 170 MiB: a tenth of it must hold rebench's own memory under --cache (about 17 MiB); give 170m or more" >&2
	exit 1
fi
mkdir -p -- "$out"

# shellcheck source=SCRIPTDIR/lib-scratch.sh
. "$(dirname "$0")/lib-scratch.sh"
scratch_begin cache-pressure
tmp=$scratch_dir
size=()
if [ "$target" = - ]; then
	scratch_loop "$bytes" --direct-io=on
	target=$scratch_dev
	yes=(--yes)
	# reads of a sparse image would not touch the device: fill it once
	"$rebench" -o write -w seq -b 1m -d 100% -f -n --yes "$target" >/dev/null
elif [ ! -e "$target" ]; then
	size=(-e "$bytes")	# a new file: rebench creates and lays it out
fi

caches=$(for r in $ratios; do awk -v b="$bytes" -v r="$r" 'BEGIN { printf "%d,", b * r }'; done)
caches=${caches%,}
# each point in 20 intervals: the 95% interval of its ops/s (batch means
# need 10), drawn as error bars
step=$(awk -v s="$secs" 'BEGIN { g = int(s * 1000 / 20); print (g < 1 ? 1 : g) }')
common=(-p -b 100-400 -j 0 -e "$bytes" -c 4 -t stateless -f -d "$secs" -g "$step"
	--warmup "$warm" --cache "$caches" "${size[@]}" "${yes[@]}")
printf 'ratio\toperation\tcache_bytes\tops_per_s\tlat_p99_us\tdevice_reads_per_request\tdurability\n' \
	>"$tmp/table"
printf 'ratio\toperation\tops_ci_low\tops_ci_high\tops_ci_pct\n' >"$tmp/ci"
for op in read write read/50:write/50; do
	name=${op//\/50/}
	name=${name//:/+}
	"$rebench" --json -o "$op" "${common[@]}" "$target" >"$tmp/$name.json"
	size=()	# created by the first run
	jq -r --arg op "$name" --argjson region "$bytes" '
		.sweep.runs[] | .values.cache as $c | .workloads[0] |
		[($c / $region * 100 | round / 100), $op, $c,
		 (.results.ops_per_s * 10 | round / 10),
		 (.results.latency_us.p99 * 1000 | round / 1000),
		 (if .results.device.reads_per_request == null then "-"
		  else (.results.device.reads_per_request * 1000 | round / 1000) end),
		 (.durability.verdict // "-")] | @tsv
	' "$tmp/$name.json" >>"$tmp/table"
	jq -r --arg op "$name" --argjson region "$bytes" '
		.sweep.runs[] | .values.cache as $c | .workloads[0].results.ops_ci as $i |
		[($c / $region * 100 | round / 100), $op,
		 ($i.low // "-"), ($i.high // "-"), ($i.half_width_pct // "-")] | @tsv
	' "$tmp/$name.json" >>"$tmp/ci"
done
cp -- "$tmp/table" "$out/cache-pressure.tsv"
cp -- "$tmp/ci" "$out/cache-pressure.intervals.tsv"
# the target, and the model when the kernel names one (a model device's
# loop device has none: MODEL, from the environment, names it)
tpath=$(jq -r '.sweep.runs[0].workloads[0].target.path' "$tmp/read.json")
tmodel=${CACHE_PRESSURE_MODEL:-$(jq -r '.sweep.runs[0].workloads[0].target.model // empty' "$tmp/read.json")}
[ "$target" != "${scratch_dev:-}" ] || tpath="a loop device over a $(iec_size "$region") image"
about="$tpath${tmodel:+ ($tmodel)}"
gnuplot -e "rb_target='${about//\'/}'" \
	-e "rb_about='100-400 B values through the page cache, 4 threads, stateless, QD 1, writes not flushed'" \
	-e "rb_duration='region $(iec_size "$region"), ${warm} s warm-up + ${secs} s per point'" \
	-c "$plots/cache-pressure.gp" "$out/cache-pressure.tsv" "$out/cache-pressure.png" \
	"$out/cache-pressure.intervals.tsv"
column -t -s "$(printf '\t')" "$out/cache-pressure.tsv"
echo "cache-pressure: $out/cache-pressure.tsv, cache-pressure.png"
