#!/usr/bin/env bash
# test_hosts.sh - rebench --hosts (issue 18), only on this machine: three
# sshd instances on 127.A.B.2-4 (tests/lib/sshd.sh), each "host" with its
# own loop device.  A three-host run whose merged percentiles equal those
# of the hosts' histograms merged by hand; clock offsets near zero; -n,
# TSV and the plot; a host killed mid-run reported while the others'
# results are kept (exit 6); Ctrl-C stops every host; a sweep across
# hosts; workload lines on stdin; and every refusal before any host
# starts, with the devices unchanged.
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/sshd.sh"

require_loop
require_rebench
require_cmd jq python3 gnuplot
require_sshd
sshd_setup
for n in 1 2 3; do sshd_start "$n"; done

export REBENCH_PLOTS=$TESTS_ROOT/plots
S=$SCRATCH
D1=$(make_loop 32M) D2=$(make_loop 32M) D3=$(make_loop 32M)
{
	echo "# three fake hosts on loopback, each with its own device"
	echo "$(sshd_host 1) $D1"
	echo "$(sshd_host 2) $D2"
	echo "$(sshd_host 3) $D3"
} >"$S/hosts.txt"
H=(--hosts-file "$S/hosts.txt" --ssh "$SSH_CMD" --remote-rebench "$REBENCH")

section "three hosts: one result, merged exactly"
rb_ok "a three-host run" "${H[@]}" -b 4k -d 300ms --json
printf '%s\n' "$RB_OUT" >"$S/run.json"
assert_eq "complete complete complete" "$(jqr '[.hosts.points[0].runs[].status] | join(" ")')" "every host complete"
assert_eq 3 "$(jqr '.hosts.points[0].merged[0].hosts')" "the merged figure sums 3 hosts"
assert_num "merged ops/s = the sum of the hosts'" \
	"($(jqr '.hosts.points[0].merged[0].ops_per_s') - $(jqr '[.hosts.points[0].runs[].document.workloads[0].results.ops_per_s] | add'))^2 < 1e-6"
# by hand: the three latency_hist summed bucket by bucket, percentiles as
# hist.c takes them (nearest rank, the bucket's middle within min..max)
python3 - "$S/run.json" >"$S/hand.txt" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
b, n, lo_, hi_ = {}, 0, None, 0
for run in d["hosts"]["points"][0]["runs"]:
    h = run["document"]["workloads"][0]["results"]["latency_hist"]
    for i, c in h["buckets"]:
        b[i] = b.get(i, 0) + c
    n += h["count"]
    lo_ = h["min"] if lo_ is None else min(lo_, h["min"])
    hi_ = max(hi_, h["max"])
def rng(i):
    if i < 128:
        return i, 1
    s = (i >> 6) - 1
    return (i - (s << 6)) << s, 1 << s
def pct(p):
    x = p / 100.0 * n
    rank = max(1, math.ceil(x - x * 1e-12))
    seen = 0
    for i in sorted(b):
        seen += b[i]
        if seen >= rank:
            break
    lo, w = rng(i)
    return min(max(lo + (w - 1) / 2.0, lo_), hi_) / 1e3
print(pct(50), pct(99), pct(99.9))
PY
read -r h50 h99 h999 <"$S/hand.txt"
assert_num "merged p50 $(jqr '.hosts.points[0].merged[0].latency_us.p50') = by hand $h50" \
	"($(jqr '.hosts.points[0].merged[0].latency_us.p50') - $h50)^2 < 1e-6"
assert_num "merged p99 $(jqr '.hosts.points[0].merged[0].latency_us.p99') = by hand $h99" \
	"($(jqr '.hosts.points[0].merged[0].latency_us.p99') - $h99)^2 < 1e-6"
assert_num "merged p99.9 = by hand $h999" \
	"($(jqr '.hosts.points[0].merged[0].latency_us.p99_9') - $h999)^2 < 1e-6"
for i in 0 1 2; do
	off=$(jqr ".hosts.hosts[$i].offset_ns")
	bound=$(jqr ".hosts.hosts[$i].offset_bound_ns")
	echo "# host $((i + 1)): clock offset $off ns +- $bound ns, started $(jqr ".hosts.points[0].runs[$i].late_ns") ns late"
	# one machine, one clock: the true offset is 0, which the estimate's
	# bound must hold whatever the load (how small the bound is depends
	# on the load: not checked)
	assert_num "host $((i + 1)): the true offset 0 is within the estimate ($off ns +- $bound ns)" \
		"$bound >= 0 && ($off)^2 <= ($bound)^2"
	assert_num "host $((i + 1)): its lateness is a time (>= 0)" \
		"$(jqr ".hosts.points[0].runs[$i].late_ns") >= 0"
done
assert_eq "$D2" "$(jqr '.hosts.points[0].runs[1].document.workloads[0].target.path')" "host 2 ran on its own device (the hosts file's TARGET)"
rb_ok "--max-offset 0" "${H[@]}" -b 4k -d 200ms --max-offset 0 -n
assert_match "warning: host $(sshd_host 2)'s clock is .* this one's \(more than --max-offset 0 ms\)" "$RB_ERR" \
	"a host beyond --max-offset is named"
rb_ok "-n" "${H[@]}" -b 4k -d 200ms -n
assert_eq 4 "$(<<<"$RB_OUT" grep -c '^hosts 1 - 1 ')" "-n: a line per host and the merged one"
assert_eq "all merged" "$(<<<"$RB_OUT" awk '$5 == "all" { print $5, $7 }')" "-n: the merged line"
rb_ok "human, --output and --plot" "${H[@]}" -b 4k -d 200ms --output "$S/hosts.tsv" --plot "$S/hosts.png"
printf '%s\n' "$RB_OUT"
assert_match "^  all +.*merged" "$RB_OUT" "human: the merged row"
assert_eq 4 "$(grep -vc '^#\|^point' "$S/hosts.tsv")" "TSV: 3 hosts and the merged row"
assert_png "$S/hosts.png" 1000 600 "hosts.gp"
keep_png "$S/hosts.png"
rb_ok "--plot as SVG" "${H[@]}" -b 4k -d 200ms --plot "$S/hosts.svg"
svgtext=$(sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' "$S/hosts.svg")
assert_match "^read, rnd uniform, 4 KiB I/Os, .*stateful, QD 1, 200ms run in 1s intervals$" "$svgtext" \
	"hosts.gp's title names the workload each host ran and its length (each host's own target: none named)"
assert_eq 1 "$(<<<"$svgtext" grep -c 'hosts')" "the host count said once"

section "a sweep across hosts, and workload lines on stdin"
rb_ok "-b 4k,16k on 3 hosts" "${H[@]}" -b 4k,16k -d 300ms --json --output "$S/sweep.tsv" --plot "$S/sweep.png"
assert_eq 2 "$(jqr '.hosts.points | length')" "two points"
assert_eq "block-size=16384" "$(jqr '.hosts.points[1].values')" "point 2's values"
assert_eq "16384 16384 16384" "$(jqr '[.hosts.points[1].runs[].document.workloads[0].parameters.block_size] | map(tostring) | join(" ")')" \
	"every host ran point 2 with -b 16k"
assert_eq 8 "$(grep -vc '^#\|^point' "$S/sweep.tsv")" "TSV: 2 points x (3 hosts + merged)"
assert_png "$S/sweep.png" 1000 600 "hosts.gp, a sweep"
keep_png "$S/sweep.png"
printf '%s\n' "-b 4k $D1" "-b 8k -w seq $D1" >"$S/lines"
rb_ok "two workload lines on every host" --hosts "$(sshd_host 1),$(sshd_host 2)" --ssh "$SSH_CMD" \
	--remote-rebench "$REBENCH" -d 300ms --json <"$S/lines"
assert_eq "2 2" "$(jqr '[.hosts.points[0].runs[].document.workloads | length] | map(tostring) | join(" ")')" \
	"each host ran both lines"
assert_eq 2 "$(jqr '.hosts.points[0].merged[1].hosts')" "workload 2 merged over both hosts"

# --hosts has no --ready-fd: host 1's device's reads (wait_reads) say the
# hosts run their workloads, however late their common start on a loaded
# machine.  -z 1ms: the runs last long enough for a kill or a Ctrl-C to
# come mid-run on a loaded machine, at a thousand reads a second, not a
# core each.
section "a host dies mid-run: reported, the others kept"
r0=$(reads_of "$D1")
spawn "${H[@]}" -b 4k -z 1ms -d 8 --json
wait_reads "$D1" "$r0" 200
sshd_kill 2
bg_wait "host 2 was killed"
assert_eq 6 "$BG_RC" "exit status 6: a host failed"
assert_eq "complete failed complete" "$(jqr '[.hosts.points[0].runs[].status] | join(" ")')" "host 2 failed, 1 and 3 complete"
assert_match "connection was lost" "$(jqr '.hosts.points[0].runs[1].reason')" "host 2's reason"
assert_eq 2 "$(jqr '.hosts.points[0].merged[0].hosts')" "merged over the 2 hosts left"
assert_num "host 1's results kept" "$(jqr '.hosts.points[0].runs[0].document.workloads[0].results.ios') > 0"
sshd_start 2

section "Ctrl-C stops every host, with the results so far"
r0=$(reads_of "$D1")
spawn "${H[@]}" -b 4k -z 1ms -d 20 --json
wait_reads "$D1" "$r0" 200
interrupt_after 0 INT
assert_eq 130 "$BG_RC" "exit 130"
assert_eq "interrupted interrupted interrupted" "$(jqr '[.hosts.points[0].runs[].status] | join(" ")')" "every host stopped early"
assert_num "the results so far" "$(jqr '.hosts.points[0].merged[0].ios') > 0"
# a host's rebench ends when its ssh connection does, which rebench
# here does not wait for: give it the hang guard's time to go
wait_until eval '! pgrep -f -- "--stop-on-eof 3 -- $D1" >/dev/null'
assert_eq "" "$(pgrep -f -- "--stop-on-eof 3 -- $D1" || true)" "no rebench left running on a host"

section "refused before any host starts"
SUM=$(dev_sum "$D1")
W=(-o write -d 300ms --yes)
assert_refused "an empty --hosts" "no host" --hosts "," --ssh "$SSH_CMD" "${W[@]}" "$D1"
assert_refused "a malformed host" "'@x': give a host as" --hosts "@x" "${W[@]}" "$D1"
assert_refused "a host twice" "given twice" --hosts "$(sshd_host 1),$(sshd_host 1)" "${W[@]}" "$D1"
printf '%s\n' "$(sshd_host 1) $D1" "nohost:notaport" >"$S/bad.txt"
assert_refused "a bad line in --hosts-file" "--hosts-file .*bad.txt line 2: 'nohost:notaport': the port" --hosts-file "$S/bad.txt" "${W[@]}"
assert_refused "a host that cannot be reached" "host $(sshd_host 9): ssh could not reach it" \
	--hosts "$(sshd_host 1),$(sshd_host 9)" --ssh "$SSH_CMD" --remote-rebench "$REBENCH" "${W[@]}" "$D1"
assert_match "1 of 2 hosts cannot run the workloads .*; no host started" "$RB_ERR" "... and no host started"
assert_refused "a host without rebench" "no rebench there .*--remote-rebench PATH" \
	--hosts "$(sshd_host 1)" --ssh "$SSH_CMD" --remote-rebench "$S/none/rebench" "${W[@]}" "$D1"
printf '%s\n' "$(sshd_host 1) $D1" "$(sshd_host 2) /dev/rebench-no-such-device" >"$S/missing.txt"
assert_refused "a target missing on one host" "host $(sshd_host 2): rebench: cannot open /dev/rebench-no-such-device" \
	--hosts-file "$S/missing.txt" --ssh "$SSH_CMD" --remote-rebench "$REBENCH" "${W[@]}"
cat >"$S/old-rebench" <<'EOF'
#!/bin/sh
# a rebench of another JSON version, as far as --hosts can tell
echo '{"tool": "rebench", "version": "0.0.9", "json_version": 5, "dry_run": {"points": 1, "destroys": false, "workloads": []}}'
EOF
chmod +x "$S/old-rebench"
assert_refused "another JSON version" "its rebench 0.0.9 writes json_version 5, this one $JV" \
	--hosts "$(sshd_host 1)" --ssh "$SSH_CMD" --remote-rebench "$S/old-rebench" "${W[@]}" "$D1"
assert_refused "writes without a terminal or --yes" "refusing to write on 3 hosts without confirmation" \
	"${H[@]}" -o write -d 300ms
rb_pty n "${H[@]}" -o write -d 300ms
assert_rc 1 "writes declined at the question: exit 1"
for n in 1 2 3; do
	assert_match "host $(sshd_host $n): writes to /dev/loop" "$RB_OUT" "the question lists host $n and its device"
done
assert_match "Continue on every host\? \[y/N\]" "$RB_OUT" "one question for every host"
assert_refused "-y and -b in one word" "give -yb4k's letters apart" "${H[@]}" -yb4k -d 300ms
assert_refused "--repeat" "--repeat does not combine" "${H[@]}" --repeat 2 -d 300ms
printf '%s\n' "$(sshd_host 1) $D1" "$(sshd_host 2)" >"$S/mixed.txt"
assert_refused "a per-host TARGET and stdin lines" "with workload lines on stdin" --hosts-file "$S/mixed.txt" \
	--ssh "$SSH_CMD" --remote-rebench "$REBENCH" -d 300ms <"$S/lines"
assert_eq "$SUM" "$(dev_sum "$D1")" "host 1's device unchanged by every refusal"
assert_refused "--outlier without --hosts is harmless, --start-at junk is not" "--start-at soon: give the instant" \
	--start-at soon -d 300ms "$D1"

sshd_stop_all
