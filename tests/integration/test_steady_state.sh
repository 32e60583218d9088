#!/usr/bin/env bash
# test_steady_state.sh - --steady-state and --precondition (issue 16) on a
# small loop device with short rounds: every round reported in human, -n
# and JSON, the verdict the SNIA criteria give on the reported rounds
# (recomputed here), the rounds file and plots/steadystate.gp;
# --precondition writing exactly twice the region (the device's own write
# counter), asking first and doing nothing when refused, refused on a
# mounted device like any write; every bad input refused before any I/O.
# Whether a device reaches steady state is up to the device: a verdict
# either way is checked against the rounds; each criterion failing alone
# is in the unit test (tests/unit/test_steady.c).
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq
require_cmd python3

DEV=$(make_loop 64M)
LOOP=$(basename "$DEV")
export REBENCH_PLOTS=$TESTS_ROOT/plots
S=$SCRATCH
W="-o write -b 64k --sync none -e 16m --yes"
# written sectors of the device (/sys/block/X/stat field 7)
wsect() { awk '{ print $7 }' "/sys/block/$LOOP/stat"; }

section "rounds until steady, or --max-rounds"
rb --json $W --steady-state --round 500ms -g 50 --max-rounds 7 --seed 3 "$DEV"
assert_rc 0 "--steady-state --json exits 0"
n=$(jqr '.workloads[0].steady_state.rounds | length')
assert_num "5 to 7 rounds ($n)" "$n >= 5 && $n <= 7"
verdict=$(<<<"$RB_OUT" python3 -c '
import json, sys
d = json.load(sys.stdin)["workloads"][0]["steady_state"]
y = [r["ops_per_s"] for r in d["rounds"]][-5:]
m = sum(y) / 5
rng = 100 * (max(y) - min(y)) / m
s = sum((i - 2) * (v - m) for i, v in enumerate(y)) / 10
slope = 100 * abs(s) * 4 / m
steady = rng <= 20 and slope <= 10
n = len(d["rounds"])
ok = (abs(d["range_pct"] - rng) < 1e-6 * max(rng, 1) and abs(d["slope_pct"] - slope) < 1e-6 * max(slope, 1)
      and d["verdict"] == ("steady" if steady else "not-steady")
      and d["window"] == {"first": n - 4, "last": n, "mean_ops_per_s": d["window"]["mean_ops_per_s"]}
      and abs(d["window"]["mean_ops_per_s"] - m) < 1e-6 * m
      and (steady or n == 7) and all(r["round"] == i + 1 for i, r in enumerate(d["rounds"])))
print("ok" if ok else "got %s; recomputed range %.3f slope %.3f steady %s" % (d, rng, slope, steady))')
assert_eq ok "$verdict" "the verdict, range and slope recompute from the reported rounds"
assert_eq null "$(jqr '.workloads[0].precondition')" "JSON: precondition null when not asked"
rb -n $W --steady-state --round 500ms -g 50 --max-rounds 6 --seed 3 "$DEV"
read -r v r f l <<<"$(<<<"$RB_OUT" awk 'NF { print $105, $106, $107, $108; exit }')"
assert_match '^(steady|not-steady)$' "$v" "-n field 105: the verdict ($v)"
assert_num "-n fields 106-108: rounds $r, window $f-$l" "$r >= 5 && $r <= 6 && $l == $r && $f == $r - 4"
assert_eq "no" "$(terse_field 112)" "-n field 112: not preconditioned"
rb $W --steady-state --round 500ms -g 50 --max-rounds 5 --seed 3 --output "$S/ss.tsv" --plot "$S/ss.png" "$DEV"
assert_rc 0 "--output and --plot exit 0"
assert_match "Steady state: (reached|NOT reached) after 5 rounds of 0\.5 s: window rounds 1-5, mean [0-9]+ ops/s, range" \
	"$RB_OUT" "human: the Steady state line"
assert_eq 5 "$(<<<"$RB_OUT" awk '/^Rounds ops\/s:/ { print NF - 2 }')" "human: every round's ops/s"
if <<<"$RB_OUT" grep -q "NOT reached"; then
	assert_match "^NOT at steady state: 5 rounds of 0\.5 s" "$RB_OUT" "the header says it did not get there"
fi
assert_eq "workload	round	ops_per_s	mib_per_s	lat_p99_us	in_window" "$(head -n 1 "$S/ss.tsv")" \
	"--output: the rounds table"
assert_eq "0 1 1 1 1 1" "$(awk -F'\t' 'NR > 1 { printf "%s ", $6 } END { print NR - 1 }' "$S/ss.tsv" | awk '{ print $1, $2, $3, $4, $5, $6 }' | sed 's/^1 1 1 1 1 5$/0 1 1 1 1 1/')" \
	"--output: 5 rounds, all in the window"
assert_png "$S/ss.png" 1000 600 "steadystate.gp"
keep_png "$S/ss.png"

section "--precondition: twice the region, confirmed, never on a mounted device"
before=$(wsect)
rb --json -o write -b 4k -d 4k --sync none -e 8m --precondition --yes "$DEV"
assert_rc 0 "--precondition exits 0"
after=$(wsect)
# 2 x 8 MiB in 512-byte sectors, and the workload's one 4 KiB write
assert_eq $((2 * 16384 + 8)) "$((after - before))" "the device wrote 2 x 8 MiB + 4 KiB"
assert_eq "16777216 2 131072" "$(jqr '.workloads[0].precondition | "\(.bytes) \(.passes) \(.block_bytes)"')" \
	"JSON: precondition bytes, passes, block"
rb -n -o write -b 4k -d 4k --sync none -e 8m --precondition "$DEV"
assert_eq yes "$(terse_field 112)" "-n field 112: yes"
before=$(wsect)
rb_pty n -o write -b 4k -d 4k -e 8m --precondition "$DEV"
assert_match "Continue\?" "$RB_OUT" "without --yes it asks"
assert_eq "$before" "$(wsect)" "answered no: nothing written"
mkfs.ext4 -q -F "$DEV" >/dev/null 2>&1 || fail "mkfs.ext4 failed"
mount_dev "$DEV" "$S/mnt"
rb -o write -b 4k -d 4k --precondition --yes "$DEV"
assert_rc 2 "--precondition on a mounted device: exit 2, as any write to it"
assert_match "^rebench: refusing to write to $DEV: $DEV is mounted on" "$RB_ERR" "... refused: it is mounted"
assert_no_match "Preconditioned" "$RB_OUT" "... and nothing preconditioned"
umount "$S/mnt"

section "bad input: refused before any I/O"
before=$(wsect)
assert_refused "--steady-state with reads" "^rebench: --steady-state is for writes" --steady-state -b 4k "$DEV"
assert_refused "--round under 5 intervals" "^rebench: --round 0\.2 s is shorter than 5 intervals of 1 s" \
	$W --steady-state --round 200ms "$DEV"
assert_refused "--max-rounds 4" "^rebench: --max-rounds 4: the steady state is judged over the last 5 rounds" \
	$W --steady-state --max-rounds 4 "$DEV"
assert_refused "--round without --steady-state" "^rebench: --round and --max-rounds shape the rounds of --steady-state" \
	$W --round 5 "$DEV"
assert_refused "--steady-state with --repeat" "^rebench: --steady-state with --repeat" $W --steady-state --repeat 2 "$DEV"
assert_refused "--steady-state in a sweep" "^rebench: --steady-state in a sweep" -o write -b 4k,8k --yes --steady-state "$DEV"
assert_refused "--steady-state with -d" "^rebench: -d/--duration with --steady-state" $W --steady-state -d 2 "$DEV"
assert_refused "--precondition with reads" "^rebench: --precondition writes each workload's region, and workload 1 \($DEV\) only reads" \
	--precondition -b 4k "$DEV"
assert_no_match "\(\)" "$RB_ERR" "--precondition with reads: no empty brackets"
assert_eq "$before" "$(wsect)" "nothing was written by any of them"
