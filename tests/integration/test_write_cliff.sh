#!/usr/bin/env bash
# test_write_cliff.sh - workloads/write-cliff.sh end to end on a small
# model SSD (4 MiB, rounds of 0.5 s): the write cliff on the model's own
# counters, which are exact whatever the machine does (a fresh drive
# writes with no garbage collection, write amplification 1.000 and one
# program time of flash per write; after the rounds it is above 2, and
# the flash time per write is the page operations the counters count);
# rebench's ops/s against them: never faster than the flash time allows
# (a bound no load can break), and the fresh drive faster than the one
# at steady state by at least half the factor the write amplification
# implies (a generous margin: expected about 7, asked 2 or more); the
# cliff in the rounds, a steady state reached after it and not before;
# the preconditioned run at the cliff's level from its window on; the
# plot drawn; both model devices gone after; bad input refused before
# any device is made.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq gnuplot numfmt
[ -c /dev/fuse ] || skip "needs /dev/fuse (modprobe fuse)"
[ -x "$TESTS_ROOT/rebench-modeldev" ] ||
	skip "needs rebench-modeldev (make builds it when libfuse3-dev is installed: make deps)"

STUDY=$TESTS_ROOT/workloads/write-cliff.sh
[ -x "$STUDY" ] || fail "$STUDY is missing or not executable"
export REBENCH REBENCH_MODELDEV=$TESTS_ROOT/rebench-modeldev
S=$SCRATCH
# the model: its times in us, as the study's default
MODEL=ssd:block=16,op=7,read=100us,program=400us,erase=1ms,channels=4
READ=100 PROG=400 ERASE=1000

section "bad input: refused before any model device is made"
bad() {
	local what=$1 re=$2
	shift 2
	TMPDIR=$S bash "$STUDY" -o "$S/bad" "$@" >"$S/bad.out" 2>"$S/bad.err"
	assert_eq 1 "$?" "$what: exit 1"
	assert_match "$re" "$(<"$S/bad.err")" "$what: says why"
	assert_no_match "model device /dev/" "$(<"$S/bad.err")" "$what: no model device made"
}
bad "a disk model" 'no erase blocks and no garbage collection.*give an ssd: model' --model hdd:
bad "a size below 1 MiB" '--size 100k: give 1m to 1g' --size 100k
bad "a round that is not a number" '--round 2x: give seconds as a number' --round 2x
bad "fewer than 5 rounds" '--max-rounds 4: give a whole number of 5 or more' --max-rounds 4
bad "an option it does not have" '--qd: not an option of write-cliff.sh' --qd 4
DEV=$(make_loop 8M)
sum=$(dev_sum "$DEV")
mkdir -p "$S/c"
ln -s "$DEV" "$S/c/write-cliff.png"
bad "an output that is a block device" 'refusing to write .*write-cliff.png: it is a block device' -o "$S/c"
assert_eq "$sum" "$(dev_sum "$DEV")" "the block device is unchanged"

section "the study on a 4 MiB model SSD, rounds of 0.5 s"
TMPDIR=$S timeout -k 5 300 bash "$STUDY" -o "$S/a" --model "$MODEL" --size 4m --round 0.5 --max-rounds 20 \
	>"$S/a.out" 2>"$S/a.err"
rc=$?
# what it made, removed by this test's cleanup if the study left them
states=$(sed -n 's/^write-cliff\.sh: model device \(\/dev\/[^ ]*\) .*; state \([^)]*\))$/\2/p' "$S/a.err")
for st in $states; do
	d=$(cat "$st/loop" 2>/dev/null) && printf '%s\t%s\n' "$d" "$st/mnt/disk" >>"$S/.models"
done
assert_eq 0 "$rc" "the study exits 0 ($(tail -n 2 "$S/a.err" | tr '\n' ' '))"
assert_eq 2 "$(wc -w <<<"$states")" "it made two model devices (fresh, then for --precondition)"
for st in $states; do
	assert_eq no "$([ -e "$st" ] && echo yes || echo no)" "$st is gone after the study"
done
assert_eq "" "$("$TESTS_ROOT/workloads/model-device.sh" list | grep -F "$states" || true)" \
	"model-device.sh list has neither"
assert_eq "" "$(ls -d "$S"/write-cliff.* 2>/dev/null)" "its scratch directory is gone"
T=$S/a/write-cliff.tsv
RT=$S/a/write-cliff-rounds.tsv
assert_eq "phase what writes ops_per_s gc_runs pages_moved wa busy_us_per_write implied_ops_per_s counters" \
	"$(head -n 1 "$T" | tr '\t' ' ')" "the table's header"
assert_eq "fresh fresh-window steady precondition-window" "$(awk -F'\t' 'NR > 1 { print $1 }' "$T" | paste -sd' ')" \
	"a row per phase"
assert_eq "run round ops_per_s lat_p99_us in_window writes wa busy_us_per_write implied_ops_per_s" \
	"$(head -n 1 "$RT" | tr '\t' ' ')" "the rounds table's header"
row() { awk -F'\t' -v p="$1" -v c="$2" '$1 == p { print $c }' "$T"; }

section "before the cliff: the model's counters, exact"
assert_eq "256 0 0 1.000 $PROG.0" "$(row fresh 3) $(row fresh 5) $(row fresh 6) $(row fresh 7) $(row fresh 8)" \
	"fresh, 1 MiB of random 4 KiB writes: 256 writes, no garbage collection, amplification 1.000, $PROG us of flash each"
f_ops=$(row fresh 4)
assert_num "rebench's fresh ops/s ($f_ops) never beat the flash (1e6 / $PROG us)" "$f_ops <= 1e6 / $PROG * 1.02"

section "after the cliff: the model's counters, exact"
read -r s_w s_ops s_g s_m s_wa s_busy s_imp <<<"$(awk -F'\t' '$1 == "steady" { print $3, $4, $5, $6, $7, $8, $9 }' "$T")"
assert_eq 256 "$s_w" "1 MiB more after the rounds: 256 writes"
assert_num "write amplification after the rounds $s_wa > 2 ($s_g collections moved $s_m pages)" \
	"$s_wa > 2 && $s_g > 0 && $s_m > 0"
assert_num "amplification = (written + moved) / written: $s_wa" \
	"($s_w + $s_m) / $s_w - $s_wa < 0.001 && ($s_w + $s_m) / $s_w - $s_wa > -0.001"
# each write: its program, each moved page a read and a program, each
# collection an erase (4 KiB writes on 4 KiB pages: no read-modify-write)
want=$(awk -v w="$s_w" -v m="$s_m" -v g="$s_g" -v r=$READ -v p=$PROG -v e=$ERASE \
	'BEGIN { printf "%.2f", (w * p + m * (r + p) + g * e) / w }')
assert_num "flash time per write $s_busy us = program + moved x (read + program) + collections x erase, per write ($want)" \
	"$s_busy - $want < 0.1 && $s_busy - $want > -0.1"
assert_num "rebench's ops/s after the rounds ($s_ops) never beat the flash (1e6 / $s_busy us)" \
	"$s_ops <= 1e6 / $s_busy * 1.02"

section "the cliff in rebench's figures, against what the counters imply"
f_imp=$(row fresh 9)
ratio=$(awk -v a="$f_ops" -v b="$s_ops" 'BEGIN { printf "%.2f", a / b }')
implied=$(awk -v a="$f_imp" -v b="$s_imp" 'BEGIN { printf "%.2f", a / b }')
assert_num "fresh $f_ops ops/s, $s_ops after the rounds: $ratio x slower, 2 x or more" "$ratio >= 2"
assert_num "... at least half the $implied x the write amplification implies (with the fresh run's floor)" \
	"$ratio >= $implied / 2"
assert_num "... and at most twice it" "$ratio <= $implied * 2"

section "the rounds: the cliff, then the steady state"
verdict=$(jq -r '.workloads[0].steady_state | "\(.verdict) \(.window.first) \(.window.last) \(.window.mean_ops_per_s)"' \
	"$S/a/write-cliff-fresh.json")
read -r v w1 w2 wmean <<<"$verdict"
wmean=$(printf '%.1f' "$wmean")
n=$(awk -F'\t' '$1 == "fresh"' "$RT" | grep -c .)
assert_num "$n rounds of the fresh run, 5 to 20" "$n >= 5 && $n <= 20"
read -r r1_ops r1_wa <<<"$(awk -F'\t' '$1 == "fresh" && $2 == 1 { print $3, $7 }' "$RT")"
read -r rn_wa <<<"$(awk -F'\t' '$1 == "fresh" { w = $7 } END { print w }' "$RT")"
assert_num "round 1 is the fresh drive: write amplification $r1_wa below 1.5" "$r1_wa < 1.5"
assert_num "the last round is past the cliff: write amplification $rn_wa above 2" "$rn_wa > 2"
assert_num "round 1's $r1_ops ops/s is over twice the last 5 rounds' mean ($wmean)" "$r1_ops > 2 * $wmean"
if [ "$v" = steady ]; then
	assert_num "steady state at rounds $w1-$w2, after the cliff: its mean $wmean is under half the fresh $f_ops" \
		"$w1 > 1 && $wmean < $f_ops / 2"
else
	log "the fresh run did not reach steady state in 20 rounds (a busy machine): the window is not checked"
fi
assert_eq "$w1-$w2" "$(awk -F'\t' '$1 == "fresh" && $5 == 1 { if (!a) a = $2; b = $2 } END { print a "-" b }' "$RT")" \
	"the rounds table marks the window rebench judged"

section "--precondition: the device written twice first, the window at the cliff's level"
assert_eq "8388608 2" "$(jq -r '.workloads[0].precondition | "\(.bytes) \(.passes)"' "$S/a/write-cliff-precondition.json")" \
	"rebench preconditioned 2 x 4 MiB"
pw=$(awk -F'\t' '$1 == "precondition-window" { print $7 }' "$T")
assert_num "the preconditioned window's write amplification $pw is above 2" "$pw > 2"
assert_num "... and at least the fresh drive's after its rounds, less 20% ($s_wa)" "$pw >= $s_wa * 0.8"

section "the plot"
assert_png "$S/a/write-cliff.png" 1000 800 "write-cliff.gp"
keep_png "$S/a/write-cliff.png"
assert_match "^write cliff: [0-9]+ ops/s fresh, [0-9]+ at steady state" "$(<"$S/a.out")" "the summary line"
