#!/usr/bin/env bash
# align-heatmap.sh - the classic Rebench picture: random reads with block
# sizes 512 B to 4 KiB in 512 B steps against alignments (stride) of 512 B
# to 4 KiB in 512 B steps, 64 points in a shuffled order, drawn as a
# heatmap (with the cells within noise of the best marked) and as a 3D
# surface.  Drives are fastest where the alignment is a multiple of their
# internal page; on many SSDs that shows as spikes at powers of two.
#
#   sudo workloads/align-heatmap.sh /dev/sdb [OUTDIR] [SECONDS-PER-POINT]
#
# OUTDIR [.] is an existing directory or a new name in one; a file the study
# would write there that is not a regular file (a device, a FIFO, a
# directory) is refused, with exit status 1, before anything runs.
set -euo pipefail
dev=${1:?usage: align-heatmap.sh DEVICE [OUTDIR] [SECONDS]}
out=${2:-.}
secs=${3:-5}
# the clone's or the installed rebench and plots/ (lib-locate.sh says how)
# shellcheck source=SCRIPTDIR/lib-locate.sh
. "$(dirname "$0")/lib-locate.sh"
rebench_locate surface.gp || exit 1
# every file it writes: a regular file or a new name in an existing directory
# shellcheck source=SCRIPTDIR/lib-outpath.sh
. "$(dirname "$0")/lib-outpath.sh"
outpath_check_all "$out" "the study's output" align.tsv align.tsv.matrix \
	align.tsv.matrix.noise align-heatmap.png align-surface.png \
	align-lines.png || exit 1
mkdir -p -- "$out"
# 100 ms intervals: every point gets its 95% interval (batch means), and
# the heatmap marks the cells within noise of the best; a shuffled order
# keeps a drift from painting a pattern along the block-size axis
"$rebench" -b 512..4k/512 -s 512..4k/512 -d "$secs" -g 100 --order shuffled \
	--yes --output "$out/align.tsv" --plot "$out/align-heatmap.png" "$dev"
gnuplot -c "$plots/surface.gp" "$out/align.tsv.matrix" "$out/align-surface.png"
gnuplot -c "$plots/lines.gp" "$out/align.tsv" "$out/align-lines.png" stride block-size
echo "align-heatmap: $out/align.tsv, align-heatmap.png, align-surface.png, align-lines.png"
