#!/usr/bin/env bash
# bs-by-dist.sh - IOPS against block size from 512 B to 64 KiB (log axes),
# one line per distribution: uniform against pow.  On a rotational drive a
# skewed distribution seeks less and wins; on an SSD the lines meet.  This
# is the curve the original Rebench used to pick B-tree node sizes.  Each
# point is measured in 100 ms intervals, so the plot carries its 95%
# interval (error bars) and marks the points within noise of the best (at
# least 1 s per point gives the 10 intervals an interval needs); the points
# run in a shuffled order, so that a drift does not draw a zigzag.
#
#   sudo workloads/bs-by-dist.sh /dev/sdb [OUTDIR] [SECONDS-PER-POINT]
#
# OUTDIR [.] is an existing directory or a new name in one; a file the study
# would write there that is not a regular file (a device, a FIFO, a
# directory) is refused, with exit status 1, before anything runs.
set -euo pipefail
dev=${1:?usage: bs-by-dist.sh DEVICE [OUTDIR] [SECONDS]}
out=${2:-.}
secs=${3:-5}
# the clone's or the installed rebench and plots/ (lib-locate.sh says how)
# shellcheck source=SCRIPTDIR/lib-locate.sh
. "$(dirname "$0")/lib-locate.sh"
rebench_locate heatmap.gp || exit 1
# every file it writes: a regular file or a new name in an existing directory
# shellcheck source=SCRIPTDIR/lib-outpath.sh
. "$(dirname "$0")/lib-outpath.sh"
outpath_check_all "$out" "the study's output" bs-by-dist.tsv bs-by-dist.png || exit 1
mkdir -p -- "$out"
"$rebench" -b 512..64k*2 -u uniform,pow -d "$secs" -g 100 --order shuffled:1 --yes \
	--output "$out/bs-by-dist.tsv" --plot "$out/bs-by-dist.png" "$dev"
echo "bs-by-dist: $out/bs-by-dist.tsv, bs-by-dist.png"
