#!/usr/bin/env bash
# sync-policies.sh - what durability costs: random 4 KiB and 16 KiB writes
# under every --sync policy, with each row's durability verdict beside its
# figures, so that a durable row is never compared with one that is not
# without it showing (Berkeley DB's 3n+1 runs only matched a rival once the
# rival was found to skip durability).
#
#   sudo workloads/sync-policies.sh [--yes] [TARGET] [OUTDIR] [SECONDS-PER-POINT]
#
# TARGET is a device or file that may be written (rebench asks first unless
# --yes is given; a file is created at 256 MiB if missing).  Without one,
# or with "-", the study runs on a loop device over a new 256 MiB image in
# ${TMPDIR:-/var/tmp}, removed afterwards (writes to it need no question).
# OUTDIR [.] gets sync-policies.tsv (one row per policy and block size:
# writes/s, write and flush latency, the verdict), sync-policies.json
# (rebench's own document) and sync-policies.png.  A path the study would
# write that is not a regular file is refused, with exit status 1, before
# anything runs.  Policies: none, fdatasync:16, fdatasync:1, fsync:1,
# dsync, sync, rwf-dsync (end is left out: it needs a run limited by bytes,
# and its one flush says nothing per write).
set -euo pipefail
yes=()
if [ "${1:-}" = --yes ] || [ "${1:-}" = -y ]; then
	yes=(--yes)
	shift
fi
target=${1:--}
out=${2:-.}
secs=${3:-2}
policies=none,fdatasync:16,fdatasync:1,fsync:1,dsync,sync,rwf-dsync
# the clone's or the installed rebench and plots/ (lib-locate.sh says how)
# shellcheck source=SCRIPTDIR/lib-locate.sh
. "$(dirname "$0")/lib-locate.sh"
rebench_locate sync-policies.gp || exit 1
# shellcheck source=SCRIPTDIR/lib-outpath.sh
. "$(dirname "$0")/lib-outpath.sh"
outpath_check_all "$out" "the study's output" sync-policies.tsv \
	sync-policies.json sync-policies.png || exit 1
command -v jq >/dev/null || { echo "sync-policies.sh: needs jq (apt-get install jq)" >&2; exit 1; }
mkdir -p -- "$out"

# shellcheck source=SCRIPTDIR/lib-scratch.sh
. "$(dirname "$0")/lib-scratch.sh"
size=()
if [ "$target" = - ]; then
	scratch_begin sync-policies
	scratch_loop 256M
	target=$scratch_dev
	yes=(--yes)
elif [ ! -e "$target" ]; then
	size=(-e 256m)	# a new file: rebench creates and lays it out
fi

"$rebench" --json -o write -w rnd -b 4k,16k --sync "$policies" -d "$secs" \
	"${size[@]}" "${yes[@]}" "$target" >"$out/sync-policies.json"

# One row per point: the writes' own figures, and the flushes' (sync,
# dsync and rwf-dsync flush inside each write: their flush columns are -).
jq -r '
	def op($o; $k): (.results.operations[$o][$k] // null);
	def num($v; $f): if $v == null then "-" else ($v * $f | round / $f | tostring) end;
	(["policy", "block_size", "durability", "writes_per_s", "write_p50_us",
	  "write_p99_us", "flushes_per_s", "flush_p99_us"] | @tsv),
	(.sweep.runs[] | .values as $v | .workloads[0] |
	 (if .results.operations.fdatasync then "fdatasync"
	  elif .results.operations.fsync then "fsync" else null end) as $f |
	 [$v.sync, $v["block-size"], (.durability.verdict // "-"),
	  num(op("write"; "ops_per_s"); 10), num(op("write"; "latency_us").p50; 1000),
	  num(op("write"; "latency_us").p99; 1000),
	  (if $f then num(op($f; "ops_per_s"); 10) else "-" end),
	  (if $f then num(op($f; "latency_us").p99; 1000) else "-" end)] | @tsv)
' "$out/sync-policies.json" >"$out/sync-policies.tsv"

about=$(jq -r '.sweep.runs[0].workloads[0].target | "\(.path)\(if .model then " (\(.model))" else "" end)"' \
	"$out/sync-policies.json" 2>/dev/null || printf '%s' "$target")
gnuplot -e "rb_target='$about'" -e "rb_duration='${secs}s per point'" \
	-c "$plots/sync-policies.gp" "$out/sync-policies.tsv" "$out/sync-policies.png"
column -t -s "$(printf '\t')" "$out/sync-policies.tsv"
echo "sync-policies: $out/sync-policies.tsv, sync-policies.json, sync-policies.png"
