#!/usr/bin/env bash
# test_hdd_study.sh - workloads/hdd-study.sh end to end on a small model
# disk of its own: its tables, what rebench measured and what the model
# counted, each against the model's expected values.  What a loaded
# machine cannot move is checked tightly, on the model's counters (which
# count what the offsets make happen: media reads, read-ahead hits, seeks,
# the tracks they crossed, their time); latency only from below (the
# kernel, the loop device and FUSE add to the model's time, never take
# from it) and as ratios with wide margins: random reads are ten times
# slower than sequential ones or more (about 65 here), a 100% stroke 1.4
# times a 1% one or more (1.9), the outer zone's stream faster than the
# inner's by the model's ratio +-15% (1.75; a stream's pace is the
# platter's, which a late request does not slow).  Then: the model device
# and the scratch folder are gone after a run and after a SIGTERM in the
# middle of one; a disk that is not a model gets no expected values and
# is only read; bad options and outputs are refused before anything runs.
# (The model's own physics, without the study: test_model_disk.sh.)
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq gnuplot numfmt blockdev dd
[ -c /dev/fuse ] || skip "needs /dev/fuse (modprobe fuse)"
[ -x "$TESTS_ROOT/rebench-modeldev" ] ||
	skip "needs rebench-modeldev (make builds it when libfuse3-dev is installed: make deps)"
require_rebench

STUDY=$TESTS_ROOT/workloads/hdd-study.sh
[ -x "$STUDY" ] || fail "$STUDY is missing or not executable"
S=$SCRATCH
mkdir -p "$S/tmp"
# 7200 rpm (a revolution 8.33 ms), seeks 0.5 to 8 ms over 341 tracks of
# 256 KiB falling to 128 KiB (64 MiB): a random read about 8.8 ms, a
# sequential 4 KiB one 130 us (both ten times the ~40 us floor or more)
MODEL=hdd:rpm=7200,seek_min=500us,seek_max=8ms,track=256k,inner=50,switch=1ms,readahead=128k

# study OUT ARGS...: the study into $S/OUT, without a terminal; RB_RC,
# RB_ERR as rb sets them.  The model device it names on stderr is
# registered, so that the test's own cleanup removes it should the study
# not (only while its loop device is over that model's file).
study() {
	local o=$1
	shift
	SCRIPT_TIMEOUT=120 script_run TMPDIR="$S/tmp" "$STUDY" -o "$S/$o" "$@"
	note_model "$RB_ERR_FILE"
}
# note_model ERRFILE: the model device the study said it started, and its
# state folder ("hdd-study: model disk DEV: MODEL, SIZE (FOLDER)"), in
# MD_DEV and MD_DIR; registered (once) while it is up, so that the test's
# own cleanup removes it should the study not (only while its loop device
# is over that model's file)
note_model() {
	local line
	line=$(grep -m 1 '^hdd-study: model disk /dev/' "$1") || return 1
	MD_DEV=$(sed 's/^hdd-study: model disk \(\/dev\/[a-z0-9]*\): .*/\1/' <<<"$line")
	MD_DIR=$(sed 's/.* (\(\/.*\))$/\1/' <<<"$line")
	[ "$(losetup -nO BACK-FILE "$MD_DEV" 2>/dev/null)" = "$MD_DIR/mnt/disk" ] &&
		printf '%s\t%s\n' "$MD_DEV" "$MD_DIR/mnt/disk" >>"$SCRATCH/.models"
	return 0
}
# gone WHAT: the model device the study started is removed (its loop
# device is not over its file any more, its state folder is gone), and so
# is the study's scratch folder
gone() {
	assert_match '^/run/rebench-modeldev/md\.' "$MD_DIR" "$1: the study named its model device ($MD_DEV) and state folder"
	assert_ne "$MD_DIR/mnt/disk" "$(losetup -nO BACK-FILE "$MD_DEV" 2>/dev/null)" "$1: the model device is removed"
	assert_eq "" "$(ls -d "$MD_DIR" 2>/dev/null)" "$1: its state folder is gone"
	assert_eq "" "$(ls -d "$S"/tmp/hdd-study.* 2>/dev/null)" "$1: the study's scratch folder is gone"
}
# col FILE ROW-KEY COLUMN: a table's field, by its first field and its
# column's name
col() { awk -F'\t' -v r="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } $1 == r { print $k; exit }' "$1"; }

section "the study on a model disk of its own"
MD_DEV='' MD_DIR=''
study a --model "$MODEL" --size 64m --reads 50 --repeat 3 --strokes 1,5,25,100 --seed 7
assert_rc 0 "the study exits 0 ($(tail -n 2 "$RB_ERR_FILE" | tr '\n' ' '))"
[ -n "$MD_DEV" ] || fail "the study did not name its model device on stderr" "$RB_ERR"
A=$S/a/hdd-study-seqrnd.tsv B=$S/a/hdd-study-stroke.tsv C=$S/a/hdd-study-zones.tsv
for f in seqrnd stroke zones stroke-model zone-model; do
	assert_num "hdd-study-$f.tsv has a header and rows" "$(wc -l <"$S/a/hdd-study-$f.tsv") >= 3"
done
assert_eq "1 5 25 100" "$(awk -F'\t' 'NR > 1 { printf "%s%s", n++ ? " " : "", $1 }' "$B")" "a row per stroke"
assert_eq 30 "$(tail -n +2 "$S/a/hdd-study-stroke-model.tsv" | grep -c .)" "the expected curve has 30 strokes"
assert_png "$S/a/hdd-study.png" 1200 900 "the plot"
keep_png "$S/a/hdd-study.png"
gone "after the run"

section "(a) sequential against random 4 KiB reads"
assert_eq "12288 3 12285" "$(col "$A" seq reads) $(col "$A" seq media_reads) $(col "$A" seq readahead_hits)" \
	"3 runs of 4096 sequential reads: one from the platter each, the rest from the read-ahead"
read -r rm rs <<<"$(col "$A" rnd media_reads) $(col "$A" rnd seeks)"
assert_num "150 random reads: $rm from the platter, $rs seeks" "$rm >= 143 && $rs >= 135"
read -r sa se ra re <<<"$(col "$A" seq lat_avg_us) $(col "$A" seq expected_avg_us) $(col "$A" rnd lat_avg_us) $(col "$A" rnd expected_avg_us)"
assert_num "sequential: $sa us a read, expected $se: no faster than the platter" "$sa >= 0.9 * $se"
assert_num "random: $ra us a read, expected $re: no faster than seek, rotation and transfer" "$ra >= 0.85 * $re"
assert_num "random / sequential $(calc "$ra / $sa") (expected $(calc "$re / $se")): ten times or more" \
	"$ra >= 10 * $sa && $re >= 10 * $se"

section "(b) latency against stroke"
# the counters: per read from the platter, tracks crossed and seek time,
# against the expected; growing with the stroke
bad=$(awk -F'\t' 'NR > 1 {
	if (!($16 >= 0.75 * $17 && $16 <= 1.25 * $17)) print $1 "%: " $16 " tracks a read, expected " $17
	if (!($18 >= 0.75 * $19 && $18 <= 1.25 * $19)) print $1 "%: seek " $18 " us a read, expected " $19
	if (NR > 2 && !($16 > t && $18 > s)) print $1 "%: " $16 " tracks, " $18 " us: no more than the stroke before"
	t = $16; s = $18 }' "$B")
assert_eq "" "$bad" "seek distance and time a media read within 25% of the expected at every stroke, and growing with it"
bad=$(awk -F'\t' 'NR > 1 && !($4 >= 0.85 * $10) { print $1 "%: avg " $4 " us, expected " $10 }' "$B")
assert_eq "" "$bad" "no stroke's average latency is below 0.85 x the expected"
read -r l1 l100 e1 e100 <<<"$(col "$B" 1 lat_avg_us) $(col "$B" 100 lat_avg_us) $(col "$B" 1 expected_avg_us) $(col "$B" 100 expected_avg_us)"
assert_num "100% against 1%: $l100 / $l1 us = $(calc "$l100 / $l1") (expected $(calc "$e100 / $e1")): 1.4 or more" \
	"$l100 >= 1.4 * $l1 && $e100 >= 1.4 * $e1"

section "(c) sequential MiB/s: outer against inner zone"
read -r bytes bs <<<"$(col "$C" outer bytes) $(col "$C" outer block_bytes)"
n=$((bytes / bs))
assert_eq "1 $((n - 1)) 1 $((n - 1))" \
	"$(col "$C" outer media_reads) $(col "$C" outer readahead_hits) $(col "$C" inner media_reads) $(col "$C" inner readahead_hits)" \
	"each zone: $n reads, one from the platter, the rest from the read-ahead"
read -r mo eo mi ei <<<"$(col "$C" outer mib_s) $(col "$C" outer expected_mib_s) $(col "$C" inner mib_s) $(col "$C" inner expected_mib_s)"
assert_num "the model's ratio, outer $eo against inner $ei MiB/s: $(calc "$eo / $ei") (tracks of 256 KiB against ~146 KiB)" \
	"$eo / $ei > 1.6 && $eo / $ei < 1.9"
assert_num "no stream faster than its platter: outer $mo (expected $eo), inner $mi ($ei)" \
	"$mo <= 1.1 * $eo && $mi <= 1.1 * $ei"
assert_num "outer / inner: $mo / $mi MiB/s = $(calc "$mo / $mi"), expected $(calc "$eo / $ei") +-15%" \
	"$mo / $mi >= 0.85 * $eo / $ei && $mo / $mi <= 1.15 * $eo / $ei"

section "SIGTERM in the middle: the model device and scratch are removed"
MD_DEV='' MD_DIR=''
env REBENCH="$REBENCH" REBENCH_PLOTS="$TESTS_ROOT/plots" TMPDIR="$S/tmp" \
	bash "$STUDY" -o "$S/t" --model "$MODEL" --size 64m --reads 100 --repeat 1 --strokes 1,100 \
	>"$S/t.out" 2>"$S/t.err" </dev/null &
pid=$!
register_pid "$pid"
# (b) has begun: the model device is up and rebench reads from it
STOP_GUARD=60 wait_until grep -q '^hdd-study: (b)' "$S/t.err" ||
	fail "the study did not reach (b) within 60 s" "$(cat "$S/t.err")"
note_model "$S/t.err" || fail "the study did not name its model device" "$(cat "$S/t.err")"
kill -TERM "$pid"
wait "$pid"
assert_eq 143 "$?" "the study, sent SIGTERM, exits 143"
gone "after SIGTERM"
assert_eq "" "$(ls "$S/t"/hdd-study* 2>/dev/null)" "no tables written"

section "a disk that is not a model: only read, no expected values"
DEV=$(make_loop 64M)
sum=$(dev_sum "$DEV")
MD_DEV='' MD_DIR=''
study l --reads 20 --repeat 1 --strokes 100 "$DEV"
assert_rc 0 "the study on $DEV exits 0 ($(tail -n 1 "$RB_ERR_FILE"))"
assert_eq "" "$MD_DEV" "no model device started"
assert_eq "$sum" "$(dev_sum "$DEV")" "$DEV is unchanged"
assert_eq "- - - -" "$(col "$S/l/hdd-study-seqrnd.tsv" rnd expected_avg_us) $(col "$S/l/hdd-study-seqrnd.tsv" rnd seeks) $(col "$S/l/hdd-study-zones.tsv" inner expected_mib_s) $(col "$S/l/hdd-study-zones.tsv" inner media_reads)" \
	"expected values and counters are -"
assert_num "measured values are there: random $(col "$S/l/hdd-study-seqrnd.tsv" rnd lat_avg_us) us, outer zone $(col "$S/l/hdd-study-zones.tsv" outer mib_s) MiB/s" \
	"$(col "$S/l/hdd-study-seqrnd.tsv" rnd lat_avg_us) > 0 && $(col "$S/l/hdd-study-zones.tsv" outer mib_s) > 0"
assert_eq 1 "$(wc -l <"$S/l/hdd-study-stroke-model.tsv")" "no expected curve (a header only)"
assert_png "$S/l/hdd-study.png" 1200 900 "the plot without a model"

section "refused before anything runs"
refused() {
	local what=$1 re=$2
	shift 2
	study r "$@"
	assert_rc 1 "$what: exit 1"
	assert_match "$re" "$RB_ERR" "$what: says why"
	assert_eq "" "$MD_DEV" "$what: no model device started"
}
MD_DEV=''
refused "an ssd model" "give an hdd: model" --model ssd:read=1ms
refused "a stroke of 0" "'0' is not a stroke" --strokes 0,5
refused "a zone of 60%" "at most 50" --zone 60
refused "10 reads too few" "10 to 1000000" --reads 5
refused "an unknown option" "unknown option --frobnicate" --frobnicate
refused "a TARGET with --model" "leave them out" --model "$MODEL" "$DEV"
refused "a TARGET that is not a block device" "not a block device" "$S/nothing"
mkdir -p "$S/o"
ln -s "$DEV" "$S/o/hdd-study-zones.tsv"
refused "an output that is a device" "block device" -o "$S/o"
assert_eq "$sum" "$(dev_sum "$DEV")" "the device behind the link is unchanged"
study h -h
assert_rc 0 "-h exits 0"
assert_match -- "--strokes LIST" "$RB_OUT" "-h prints the usage"
