#!/usr/bin/env bash
# test_study_paths.sh - the study scripts (workloads/partition-alignment.sh,
# align-heatmap.sh, bs-by-dist.sh, scripts/demo.sh) write only regular files
# or new names in an existing directory (DESIGN.md, Safety).  For each: an
# output file name that is a symbolic link to a loop device, an output
# directory that is a regular file, a FIFO as the output directory and as
# an output file - each refused by the script itself, before it runs
# rebench or creates anything, with exit 1 and the reason, and nothing
# written (the device's checksum, the directory's listing, no loop device
# or image left); then a quick run of each that succeeds.
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd gnuplot jq sfdisk partx mkfs.ext2 setsid cksum numfmt mkfifo

S=$SCRATCH
PA=$TESTS_ROOT/workloads/partition-alignment.sh
AH=$TESTS_ROOT/workloads/align-heatmap.sh
BD=$TESTS_ROOT/workloads/bs-by-dist.sh
DEMO=$TESTS_ROOT/scripts/demo.sh
WHY_ANY="give a regular file or a new name in an existing directory"
WHY_DIR="give a directory or a new name in an existing directory"

# study [VAR=VALUE...] SCRIPT ARGS...: script_run with the scratch TMPDIR
# and 120 s.
study() { SCRIPT_TIMEOUT=120 script_run TMPDIR="$S/tmp" "$@"; }

# listing DIR: every name under DIR with its type and size (a refusal must
# leave it as it was)
listing() { find "$1" -mindepth 1 -printf '%P %y %s\n' 2>/dev/null | sort; }

# loops attached by the scripts (over their images), not by this test: the
# scripts' scratch is in this test's own TMPDIR, so another run's (a demo,
# a second make check) is never counted
study_loops() { losetup -a | grep -F "$S/" | grep -c "partition-alignment\.img\|rebench-demo\." || true; }
demo_dirs() { find "$S/tmp" -maxdepth 1 -name 'rebench-demo.*' | wc -l; }

# refused NAME SCRIPT WHAT REASON: the last run exited 1 with the script's
# refusal of WHAT for REASON
refused() {
	assert_rc 1 "$1: exit 1"
	assert_match "^$2: refusing to write .* to $3: $4; " "$RB_ERR" \
		"$1: the script refuses $3: $4"
}

# refused_link WHAT SCRIPT DIR NAME STUDY-ARGS...: DIR/NAME is a link to
# $VICTIM; the study refuses it, writes nothing in DIR and leaves $VICTIM
# unchanged.  The link is removed after.
refused_link() {
	local what=$1 script=$2 dir=$3 name=$4 before
	shift 4
	ln -s "$VICTIM" "$dir/$name"
	before=$(listing "$dir")
	study "$@"
	refused "$what" "$script" "$dir/$name" "it is a block device"
	assert_eq "$before" "$(listing "$dir")" "$what: nothing written"
	assert_eq "$vsum" "$(dev_sum "$VICTIM")" "$what: $VICTIM unchanged"
	rm "$dir/$name"
}

mkdir -p "$S/tmp"                # the scripts' TMPDIR: their scratch is ours
TARGET=$(make_loop 16M)       # the device a study measures
VICTIM=$(make_loop 8M)        # the device an output name points to
tsum=$(dev_sum "$TARGET")
vsum=$(dev_sum "$VICTIM")
loops0=$(study_loops)
demos0=$(demo_dirs)

# ----------------------------------------------------- partition-alignment
section "partition-alignment.sh"
O=$S/pa
mkdir "$O"
for f in raw.probe.json summary.tsv; do
	ln -sfn "$VICTIM" "$O/$f"
	before=$(listing "$O")
	study "$PA" -o "$O" --size 72m -f 8m -n 2 -d 50ms
	refused "(a) image, $f -> $VICTIM" partition-alignment.sh "$O/$f" "it is a block device"
	assert_match "$WHY_ANY" "$RB_ERR" "(a) $f: the message says what to give"
	assert_eq "$before" "$(listing "$O")" "(a) $f: nothing written in the output directory (no image)"
	assert_eq "$loops0" "$(study_loops)" "(a) $f: no loop device attached"
	rm "$O/$f"
done
ln -s "$VICTIM" "$O/p63.tsv.matrix"
study "$PA" -o "$O" -f 8m -n 2 -d 50ms --yes "$TARGET"
refused "(a) named device, p63.tsv.matrix -> $VICTIM" partition-alignment.sh \
	"$O/p63.tsv.matrix" "it is a block device"
section "a clone's and an installed layout: no REBENCH, no rebench on the PATH"
# The README's commands run from a clone: a script finds the clone's
# ./rebench and plots/ beside its own folder, and the installed copy finds
# share/rebench/plots beside share/rebench/workloads and rebench on the PATH.
# (With rebench on neither, it says so.)  PATH holds only system folders.
syspath=/usr/sbin:/usr/bin:/sbin:/bin
C=$S/clone
mkdir -p "$C" "$S/inst/bin" "$S/inst/share/rebench"
cp -R "$TESTS_ROOT/workloads" "$TESTS_ROOT/plots" "$C/"
cp -p "$REBENCH" "$C/rebench"
cp -R "$TESTS_ROOT/workloads" "$TESTS_ROOT/plots" "$S/inst/share/rebench/"
cp -p "$REBENCH" "$S/inst/bin/rebench"
# located [PATH-PREFIX] SCRIPT OUT: run align-heatmap.sh with 10 ms points
located() {
	RB_CMD="PATH=$1$syspath $2 $TARGET $3 10ms"
	env -u REBENCH -u REBENCH_PLOTS PATH="$1$syspath" \
		timeout -k 5 120 setsid -w bash "$2" "$TARGET" "$3" 10ms \
		>"$RB_OUT_FILE" 2>"$RB_ERR_FILE" </dev/null
	RB_RC=$?
	RB_OUT=$(<"$RB_OUT_FILE")
	RB_ERR=$(<"$RB_ERR_FILE")
}
located "" "$C/workloads/align-heatmap.sh" "$S/from-clone"
assert_rc 0 "from a clone: align-heatmap.sh runs the clone's ./rebench and plots/"
assert_match '^[0-9]+ [0-9]+$' "$(png_size "$S/from-clone/align-surface.png")" \
	"from a clone: align-surface.png (drawn with the clone's plots/surface.gp) is a PNG"
located "$S/inst/bin:" "$S/inst/share/rebench/workloads/align-heatmap.sh" "$S/from-inst"
assert_rc 0 "installed: align-heatmap.sh runs rebench from the PATH and share/rebench/plots"
assert_match '^[0-9]+ [0-9]+$' "$(png_size "$S/from-inst/align-surface.png")" \
	"installed: align-surface.png is a PNG"
located "" "$S/inst/share/rebench/workloads/align-heatmap.sh" "$S/from-none"
assert_eq 1 "$RB_RC" "rebench neither beside the script nor on the PATH: exit 1"
assert_match "cannot find rebench: run make in the clone, install it \(make install\), or set REBENCH" \
	"$RB_ERR" "and it says where rebench is looked for"
assert_eq "" "$(ls -d "$S/from-none" 2>/dev/null)" "nothing created"
rm "$C/plots/surface.gp"
located "" "$C/workloads/align-heatmap.sh" "$S/from-noplots"
assert_match "cannot find the plots/ folder \(with surface.gp\)" "$RB_ERR" \
	"a clone without plots/surface.gp: the script says which plot file is missing"

assert_eq "$tsum" "$(dev_sum "$TARGET")" "(a) named device: $TARGET not repartitioned"
rm "$O/p63.tsv.matrix"
assert_eq "$vsum" "$(dev_sum "$VICTIM")" "(a) $VICTIM unchanged"

echo stale >"$S/pa-file"
study "$PA" -o "$S/pa-file" --size 72m -f 8m -n 2 -d 50ms
refused "(b) -o a regular file" partition-alignment.sh "$S/pa-file" \
	"it is a regular file, not a directory"
assert_match "$WHY_DIR" "$RB_ERR" "(b) the message says to give a directory"
assert_eq stale "$(<"$S/pa-file")" "(b) the file is unchanged"
assert_eq "" "$(ls "$S"/*.img 2>/dev/null)" "(b) no image created"

mkfifo "$S/pa-fifo"
study "$PA" -o "$S/pa-fifo" --size 72m -f 8m -n 2 -d 50ms
refused "(c) -o a FIFO" partition-alignment.sh "$S/pa-fifo" "it is a FIFO"
study "$PA" -o "$S/pa-fifo/sub" --size 72m -f 8m -n 2 -d 50ms
refused "(c) -o under a FIFO" partition-alignment.sh "$S/pa-fifo/sub" \
	"$S/pa-fifo is not a directory"
mkfifo "$O/multiplot.list"
before=$(listing "$O")
study "$PA" -o "$O" --size 72m -f 8m -n 2 -d 50ms
refused "(c) multiplot.list a FIFO" partition-alignment.sh "$O/multiplot.list" "it is a FIFO"
assert_eq "$before" "$(listing "$O")" "(c) nothing written in the output directory"
study "$PA" -o "$S/no/such/dir" --size 72m -f 8m -n 2 -d 50ms
refused "-o in a missing directory" partition-alignment.sh "$S/no/such/dir" \
	"its directory $S/no/such does not exist"
assert_eq "" "$(ls -d "$S/no" 2>/dev/null)" "-o in a missing directory: nothing created"
rm "$O/multiplot.list"
assert_eq "$loops0" "$(study_loops)" "no loop device left attached by the refusals"

# (d) stale regular files are overwritten, also through a symbolic link
echo stale >"$O/raw.tsv"
mkdir "$S/elsewhere"
echo stale >"$S/elsewhere/summary"
ln -s "$S/elsewhere/summary" "$O/summary.tsv"
study "$PA" -o "$O" --size 72m -f 8m -n 2 -d 50ms
assert_rc 0 "(d) image, 2 x 2 grid, over stale regular files: exit 0"
assert_eq 5 "$(wc -l <"$O/raw.tsv")" "(d) raw.tsv overwritten: a header and 4 points"
assert_eq 6 "$(wc -l <"$S/elsewhere/summary")" "(d) summary written through the link"
assert_match '^[0-9]+ [0-9]+$' "$(png_size "$O/multiplot.png")" "(d) multiplot.png is a PNG"
assert_eq "$loops0" "$(study_loops)" "(d) no loop device left attached"

# -------------------------------------------------------- align-heatmap
section "align-heatmap.sh"
O=$S/ah
mkdir "$O"
refused_link "(a) align-surface.png -> $VICTIM" align-heatmap.sh "$O" align-surface.png \
	"$AH" "$TARGET" "$O" 10ms

echo stale >"$S/ah-file"
study "$AH" "$TARGET" "$S/ah-file" 10ms
refused "(b) OUTDIR a regular file" align-heatmap.sh "$S/ah-file" \
	"it is a regular file, not a directory"
assert_eq stale "$(<"$S/ah-file")" "(b) the file is unchanged"

mkfifo "$O/align.tsv"
before=$(listing "$O")
study "$AH" "$TARGET" "$O" 10ms
refused "(c) align.tsv a FIFO" align-heatmap.sh "$O/align.tsv" "it is a FIFO"
assert_eq "$before" "$(listing "$O")" "(c) nothing written"
rm "$O/align.tsv"

study "$AH" "$TARGET" "$S/ah-new" 10ms
assert_rc 0 "(d) 8 x 8 grid at 10ms into a new directory: exit 0"
assert_eq 65 "$(wc -l <"$S/ah-new/align.tsv")" "(d) align.tsv: a header and 64 points"
for p in align-heatmap align-surface align-lines; do
	assert_match '^[0-9]+ [0-9]+$' "$(png_size "$S/ah-new/$p.png")" "(d) $p.png is a PNG"
done

# ----------------------------------------------------------- bs-by-dist
section "bs-by-dist.sh"
O=$S/bd
mkdir "$O"
refused_link "(a) bs-by-dist.png (--plot) -> $VICTIM" bs-by-dist.sh "$O" bs-by-dist.png \
	"$BD" "$TARGET" "$O" 10ms
mkdir "$O/bs-by-dist.tsv"
study "$BD" "$TARGET" "$O" 10ms
refused "(a) bs-by-dist.tsv a directory" bs-by-dist.sh "$O/bs-by-dist.tsv" "it is a directory"
rmdir "$O/bs-by-dist.tsv"

echo stale >"$S/bd-file"
study "$BD" "$TARGET" "$S/bd-file" 10ms
refused "(b) OUTDIR a regular file" bs-by-dist.sh "$S/bd-file" \
	"it is a regular file, not a directory"
assert_eq stale "$(<"$S/bd-file")" "(b) the file is unchanged"

mkfifo "$S/bd-fifo"
study "$BD" "$TARGET" "$S/bd-fifo" 10ms
refused "(c) OUTDIR a FIFO" bs-by-dist.sh "$S/bd-fifo" "it is a FIFO"

study "$BD" "$TARGET" "$O" 10ms
assert_rc 0 "(d) 8 sizes x 2 distributions at 10ms: exit 0"
assert_eq 17 "$(wc -l <"$O/bs-by-dist.tsv")" "(d) bs-by-dist.tsv: a header and 16 points"
assert_match '^[0-9]+ [0-9]+$' "$(png_size "$O/bs-by-dist.png")" "(d) bs-by-dist.png is a PNG"

# ----------------------------------------------------------------- demo
section "scripts/demo.sh"
O=$S/demo
mkdir "$O"
refused_link "(a) bs-by-dist.png -> $VICTIM" demo.sh "$O" bs-by-dist.png \
	DEMO_OUT="$O" DEMO_SIZE_MB=16 DEMO_POINT_SECONDS=10ms DEMO_RUN_SECONDS=500ms "$DEMO"
assert_eq "$demos0" "$(demo_dirs)" "(a) no scratch directory created"
assert_eq "$loops0" "$(study_loops)" "(a) no loop device attached"

echo stale >"$S/demo-file"
study DEMO_OUT="$S/demo-file" DEMO_SIZE_MB=16 DEMO_POINT_SECONDS=10ms DEMO_RUN_SECONDS=500ms "$DEMO"
refused "(b) DEMO_OUT a regular file" demo.sh "$S/demo-file" \
	"it is a regular file, not a directory"
assert_eq stale "$(<"$S/demo-file")" "(b) the file is unchanged"

mkfifo "$S/demo-fifo"
study DEMO_OUT="$S/demo-fifo" DEMO_SIZE_MB=16 DEMO_POINT_SECONDS=10ms DEMO_RUN_SECONDS=500ms "$DEMO"
refused "(c) DEMO_OUT a FIFO" demo.sh "$S/demo-fifo" "it is a FIFO"
mkfifo "$O/timeseries.tsv"
study DEMO_OUT="$O" DEMO_SIZE_MB=16 DEMO_POINT_SECONDS=10ms DEMO_RUN_SECONDS=500ms "$DEMO"
refused "(c) timeseries.tsv a FIFO" demo.sh "$O/timeseries.tsv" "it is a FIFO"
assert_eq "$demos0" "$(demo_dirs)" "(c) no scratch directory created"
rm "$O/timeseries.tsv"

study DEMO_OUT="$O" DEMO_SIZE_MB=16 DEMO_POINT_SECONDS=10ms DEMO_RUN_SECONDS=500ms DEMO_MODEL= "$DEMO"
assert_rc 0 "(d) the demo on a 16 MiB image (DEMO_MODEL empty): exit 0"
assert_match 'flash pages, so the alignment plots show noise' "$RB_OUT" "(d) it says its device has no pages"
for p in timeseries align-heatmap align-lines bs-by-dist compare qd; do
	assert_match '^[0-9]+ [0-9]+$' "$(png_size "$O/$p.png")" "(d) $p.png is a PNG"
done
assert_eq no "$([ -e "$O/align-surface.png" ] && echo yes || echo no)" \
	"(d) no 3D surface in the demo (the heatmap shows what it would)"
assert_eq "$loops0" "$(study_loops)" "(d) the demo's loop device is detached"
assert_eq "$demos0" "$(demo_dirs)" "(d) the demo's scratch directory is removed"

if [ -x "$TESTS_ROOT/rebench-modeldev" ] && [ -c /dev/fuse ]; then
	# a model no other test starts, to find what the demo leaves
	M=ssd:read=100us,noise=0
	rm -rf "$O"
	study DEMO_OUT="$O" DEMO_SIZE_MB=16 DEMO_POINT_SECONDS=10ms DEMO_RUN_SECONDS=500ms DEMO_MODEL="$M" "$DEMO"
	assert_rc 0 "(e) the demo on a 16 MiB model SSD: exit 0"
	assert_match "a 16 MiB model SSD \\($M;" "$RB_OUT" "(e) it says it runs on a model SSD, and which"
	for p in align-heatmap bs-by-dist compare qd; do
		assert_match '^[0-9]+ [0-9]+$' "$(png_size "$O/$p.png")" "(e) $p.png is a PNG"
	done
	assert_eq "" "$(grep -lxF -- "$M" /run/rebench-modeldev/md.*/model 2>/dev/null)" \
		"(e) the demo's model device is removed"
	assert_eq "$demos0" "$(demo_dirs)" "(e) the demo's scratch directory is removed"
fi

assert_eq "$tsum" "$(dev_sum "$TARGET")" "$TARGET (read by the studies) unchanged"
assert_eq "$vsum" "$(dev_sum "$VICTIM")" "$VICTIM (named by the refused outputs) unchanged"
