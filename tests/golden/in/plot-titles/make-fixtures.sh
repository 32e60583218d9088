#!/usr/bin/env bash
# make-fixtures.sh - the saved data test_plot_titles.sh renders the study
# and --hosts plots from (the ones too long or too involved to run in a
# make check test): run once, by hand, as root from the tree,
#
#   tests/golden/in/plot-titles/make-fixtures.sh
#
# It writes into this folder, each from a short real run:
#   sync-policies.tsv    workloads/sync-policies.sh on a loop device of its
#                        own, 0.2 s a policy
#   write-cliff-rounds.tsv  workloads/write-cliff.sh on a 4 MiB model SSD
#                        (test_write_cliff.sh's model), rounds of 0.5 s
#   hdd-study.*          workloads/hdd-study.sh on a 64 MiB model HDD
#                        (test_hdd_study.sh's model), 100 reads a point
#   hosts.tsv            rebench --hosts on two fake hosts on loopback
#                        (tests/lib/sshd.sh), each with a 32 MiB loop device
# and beside each, NAME.e: the settings the study (or rebench --plot) gave
# its plot with gnuplot -e, one a line, as a gnuplot in PATH that logs its
# arguments saw them; test_plot_titles.sh passes them on.  The hosts'
# addresses and loop devices are replaced by stable names (host1,
# /dev/loopA): no temporary name is in the data.
. "$(dirname "$0")/../../../lib/common.sh"
. "$(dirname "$0")/../../../lib/sshd.sh"

require_loop
require_rebench
require_cmd jq gnuplot
OUT=$(cd "$(dirname "$0")" && pwd)
S=$SCRATCH
W=$TESTS_ROOT/workloads
export REBENCH REBENCH_MODELDEV=$TESTS_ROOT/rebench-modeldev REBENCH_PLOTS=$TESTS_ROOT/plots

# a gnuplot that writes its -e arguments to $S/gp.SCRIPT.e, then runs
mkdir -p "$S/bin"
{
	echo '#!/bin/bash'
	echo 'e=() c='
	echo 'for ((i = 1; i <= $#; i++)); do'
	echo '	a=${!i}; n=$((i + 1))'
	echo '	case $a in -e) e+=("${!n}") ;; -c) c=$(basename "${!n}") ;; esac'
	echo 'done'
	echo "[ -n \"\$c\" ] && printf '%s\\n' \"\${e[@]}\" >\"$S/gp.\$c.e\""
	echo "exec $(command -v gnuplot) \"\$@\""
} >"$S/bin/gnuplot"
chmod +x "$S/bin/gnuplot"
export PATH=$S/bin:$PATH
# keep_e SCRIPT NAME [SED]: SCRIPT's -e arguments as NAME.e, through SED
keep_e() { sed -e "${3:-}" "$S/gp.$1.e" >"$OUT/$2.e" || fail "no gnuplot -e of $1"; }

section "sync-policies"
TMPDIR=$S bash "$W/sync-policies.sh" - "$S/sync" 0.2 >"$S/sync.out" 2>"$S/sync.err" ||
	fail "sync-policies.sh: $(tail -n 3 "$S/sync.err")"
cp "$S/sync/sync-policies.tsv" "$OUT/"
keep_e sync-policies.gp sync-policies 's|/dev/loop[0-9]*|/dev/loopA|g'

section "write-cliff"
TMPDIR=$S timeout -k 5 300 bash "$W/write-cliff.sh" -o "$S/cliff" \
	--model ssd:block=16,op=7,read=100us,program=400us,erase=1ms,channels=4 --size 4m --round 0.5 \
	--max-rounds 20 >"$S/cliff.out" 2>"$S/cliff.err" || fail "write-cliff.sh: $(tail -n 3 "$S/cliff.err")"
cp "$S/cliff/write-cliff-rounds.tsv" "$OUT/"
keep_e write-cliff.gp write-cliff-rounds

section "hdd-study"
TMPDIR=$S timeout -k 5 300 bash "$W/hdd-study.sh" -o "$S/hdd" \
	--model hdd:rpm=7200,seek_min=500us,seek_max=8ms,track=256k,inner=50,switch=1ms,readahead=128k \
	--size 64m --reads 100 --repeat 2 --strokes 1,10,100 >"$S/hdd.out" 2>"$S/hdd.err" ||
	fail "hdd-study.sh: $(tail -n 3 "$S/hdd.err")"
for f in "$S"/hdd/hdd-study*.tsv; do cp "$f" "$OUT/"; done
keep_e hdd-study.gp hdd-study 's|/dev/loop[0-9]*|/dev/loopA|g'

section "hosts"
require_sshd
sshd_setup
for n in 1 2; do sshd_start "$n"; done
D1=$(make_loop 32M) D2=$(make_loop 32M)
printf '%s %s\n%s %s\n' "$(sshd_host 1)" "$D1" "$(sshd_host 2)" "$D2" >"$S/hosts.txt"
rb_ok "--hosts" --hosts-file "$S/hosts.txt" --ssh "$SSH_CMD" --remote-rebench "$REBENCH" \
	-b 4k -d 300ms --output "$S/hosts.tsv" --plot "$S/hosts.png" "$D1"
# the hosts' addresses and loop devices as stable names
stable="s|$(sshd_host 1)|host1|g; s|$(sshd_host 2)|host2|g; s|$D1|/dev/loopA|g; s|$D2|/dev/loopB|g"
sed -e "$stable" "$S/hosts.tsv" >"$OUT/hosts.tsv"
keep_e hosts.gp hosts "$stable"
pass "fixtures written to $OUT"
