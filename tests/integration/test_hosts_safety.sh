#!/usr/bin/env bash
# test_hosts_safety.sh - --hosts against hosts that lie, flood, hang or
# linger (issue 26, items 10, 11, 14, 15, 17), with a fake ssh: it ignores
# the host and runs the remote command here, in sh, as the host's shell
# would.  The host's rebench is this one for the checks (--dry-run,
# --clock-echo) and, for the run, this one or a fake that prints a crafted
# document or floods.  Nothing here writes but into the scratch directory.
#
#   - empty --hosts, --ssh, --remote-rebench say what they expect;
#   - host names with shell or ssh % characters are refused before ssh runs;
#     targets are quoted, or refused when they hold a control character;
#   - a host printing 512 MiB stays within REBENCH_MEMORY_BUDGET;
#   - a wrapper's leftover child holding the pipes: the run ends, and at a
#     SIGTERM rebench and the host's whole process group end;
#   - a host that never answers its check times out (REBENCH_HOSTS_TIMEOUT);
#   - a document that does not match what was sent (no workloads, 50 of
#     them, json_version 999, negative ops/s, counts that disagree, a
#     target with a newline, another run's start) fails its host;
#   - every failure is named with its reason in -n, JSON, TSV and the
#     human form, also when every host fails.
# fast: needs neither root nor a device
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"

require_rebench
require_cmd jq python3 ps pidwait timeout tail mkfifo
S=$SCRATCH
export REAL=$REBENCH

cat >"$S/fake-ssh" <<'EOF'
#!/bin/sh
# fake ssh: the last word is the remote command, run here; FAKE_LOG gets
# each command line, FAKE_STARTED the process group (its pid: rebench makes
# each ssh a group leader) when the run starts, FAKE_LEFTOVER leaves a
# child holding stdout and stderr, FAKE_SILENT makes the check hang.
for last; do :; done
[ -n "${FAKE_LOG:-}" ] && echo "$*" >>"$FAKE_LOG"
case $last in
*--stop-on-eof*)
	[ -n "${FAKE_LEFTOVER:-}" ] && { sleep 100000 & }
	[ -n "${FAKE_CHATTY:-}" ] && { (while :; do echo chat >&2; sleep 0.2; done) & }
	[ -n "${FAKE_STARTED:-}" ] && echo $$ >"$FAKE_STARTED"
	;;
*--dry-run*)
	[ -n "${FAKE_SILENT:-}" ] && { echo $$ >"$FAKE_SILENT"; exec sleep 100000; }
	;;
esac
exec sh -c "$last"
EOF
cat >"$S/fake-rebench" <<'EOF'
#!/bin/sh
# a host's rebench: the real one for the checks; for the run, FAKE_FLOOD
# bytes of zeros, or FAKE_DOC with the instant sent as its start (unless
# FAKE_OLD_START), or the real one
case " $* " in
*" --dry-run "* | *" --clock-echo "*) exec "$REAL" "$@" ;;
esac
[ -n "${FAKE_HANG:-}" ] && exec sleep 100000
if [ -n "${FAKE_FLOOD:-}" ]; then
	head -c "$FAKE_FLOOD" /dev/zero
	exit 0
fi
if [ -n "${FAKE_DOC:-}" ]; then
	at=
	while [ $# -gt 0 ]; do [ "$1" = --start-at ] && at=$2; shift; done
	[ -n "${FAKE_OLD_START:-}" ] && exec cat "$FAKE_DOC"
	ns=$(printf '%s' "$at" | tr -d .)
	exec sed -e "s/\"requested_ns\": [0-9]*/\"requested_ns\": $ns/" \
		-e "s/\"started_ns\": [0-9]*/\"started_ns\": $ns/" \
		-e "s/\"late_ns\": [0-9]*/\"late_ns\": 0/" "$FAKE_DOC"
fi
exec "$REAL" "$@"
EOF
chmod +x "$S/fake-ssh" "$S/fake-rebench"
F=$S/target
head -c 8M /dev/urandom >"$F"
H=(--ssh "$S/fake-ssh" --remote-rebench "$S/fake-rebench")
W=(-b 4k -d 200ms)

# group_alive PGID: a process of the group runs (a zombie does not); one
# killed a moment ago may still be on its way out, so its end is waited
# for first (pidwait, bounded by the harness's 10 s)
group_running() { ps -e -o pgid= -o stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { n++ } END { exit !n }'; }
group_alive() {
	timeout 10 pidwait -g "$1" 2>/dev/null
	group_running "$1"
}

section "empty values say what they expect"
assert_refused "--hosts ''" "--hosts: expected the hosts, comma-separated" --hosts '' "$F"
assert_refused "--ssh ''" "--ssh: expected the ssh command" --hosts h1 --ssh '' "$F"
assert_refused "--remote-rebench ''" "--remote-rebench: expected the path of rebench on the hosts" \
	--hosts h1 --remote-rebench '' "$F"
assert_no_match "expected a file name" "$RB_ERR" "not 'a file name'"

section "host names: shell and ssh characters never reach ssh"
export FAKE_LOG=$S/ssh.log
for h in 'h$(touch PWNED)' 'h;touch PWNED' 'h`touch PWNED`' 'h|x' 'h&x' 'h>PWNED' 'h%h' \
	'u$(id)@h' 'fe80::1' '-oProxyCommand=x' 'u@-x' 'h:22;x'; do
	assert_refused "host '$h'" "--hosts: '.*': .*(is not in a|brackets|starts with '-'|the port)" \
		--hosts "h1,$h" "${H[@]}" "${W[@]}" "$F"
done
assert_eq "no" "$([ -e "$FAKE_LOG" ] && echo yes || echo no)" "ssh never ran for a refused name"
assert_eq "no" "$([ -e PWNED ] || [ -e "$S/PWNED" ] && echo yes || echo no)" "nothing was executed"
printf '%s\n' "h1 $F" 'h$(id) '"$F" >"$S/hosts.txt"
assert_refused "a name in --hosts-file" "hosts.txt line 2: 'h\\\$\(id\)': '\\$' is not in a host name" \
	--hosts-file "$S/hosts.txt" "${H[@]}" "${W[@]}"
rb_ok "an IPv6 address in brackets, a user, a port" --hosts 'bob.smith@[::1]:2222' "${H[@]}" "${W[@]}" -n "$F"
assert_match "-p 2222 -- bob.smith@::1 exec " "$(<"$FAKE_LOG")" "ssh gets the address without brackets, after --"
assert_match "-o BatchMode=yes -o ConnectTimeout=60 -o ServerAliveInterval=15 -o ServerAliveCountMax=4 " \
	"$(head -n 1 "$FAKE_LOG")" "ssh's own limits from REBENCH_HOSTS_TIMEOUT (60 s)"
unset FAKE_LOG

section "targets: quoted for the host's shell, or refused"
T=$S/'t$(touch PWNED);`touch PWNED` | x & y > z %h'
cp "$F" "$T"
rb_ok "a target with shell characters" --hosts h1 "${H[@]}" "${W[@]}" --json "$T"
assert_eq "$T" "$(jqr '.hosts.points[0].runs[0].document.workloads[0].target.path')" "the host measured that very file"
assert_eq "no" "$([ -e PWNED ] || [ -e "$S/PWNED" ] && echo yes || echo no)" "nothing was executed"
NL="$S/t
hosts 1 - 1 evil"
cp "$F" "$NL"
export FAKE_LOG=$S/ssh.log
rm -f "$FAKE_LOG"
assert_refused "a target with a newline" "--hosts: the TARGET holds a control character \(0x0a" \
	--hosts h1 "${H[@]}" "${W[@]}" -n "$NL"
printf "h1 '%s\033[31m'\n" "$F" >"$S/esc.txt"
assert_refused "a target with an escape, in --hosts-file" "esc.txt line 1: 'h1': the TARGET holds a control character \(0x1b" \
	--hosts-file "$S/esc.txt" "${H[@]}" "${W[@]}" -n
printf -- "-b 4k '%s\tx'\n" "$F" >"$S/tab.lines"
assert_refused "a target with a tab, in a workload line" "stdin line 1: the TARGET holds a control character \(0x09" \
	--hosts h1 "${H[@]}" -d 200ms -n <"$S/tab.lines"
assert_eq "no" "$([ -e "$FAKE_LOG" ] && echo yes || echo no)" "ssh never ran for a refused target"
unset FAKE_LOG

section "a host's output stays within the memory budget"
# 512 MiB of zeros on a budget of 64 MiB: rebench's largest resident set
FAKE_FLOOD=$((512 << 20)) REBENCH_MEMORY_BUDGET=64m python3 - "$REBENCH" --hosts h1 "${H[@]}" "${W[@]}" --json "$F" \
	>"$S/flood.out" 2>"$S/flood.err" <<'PY'
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, timeout=120)
sys.stdout.write(r.stdout.decode())
print("rc %d maxrss_kib %d" % (r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss), file=sys.stderr)
PY
read -r _ rc _ rss < <(tail -n 1 "$S/flood.err") || true
RB_OUT=$(<"$S/flood.out")
echo "# 512 MiB printed by the host: exit $rc, largest resident set $rss KiB"
assert_eq 6 "$rc" "exit 6: the host failed"
assert_match "its output, .* so far, passed rebench's memory budget of 64 MiB \(REBENCH_MEMORY_BUDGET\)" \
	"$(jqr '.hosts.points[0].runs[0].reason')" "the reason names the budget"
assert_num "resident set within the budget and a margin ($rss KiB < 160 MiB)" "$rss < 160 * 1024"

section "a wrapper's child holding the pipes"
FAKE_LEFTOVER=1 FAKE_STARTED=$S/pg rb --hosts h1 "${H[@]}" "${W[@]}" -n "$F"
assert_rc 0 "the run ends once ssh has exited (exit 0)"
assert_eq complete "$(terse_field 7)" "its result kept"
PG=$(<"$S/pg")
if group_alive "$PG"; then check_failed "the leftover (group $PG) was ended" "$(ps -e -o pid,pgid,stat,args | awk -v g="$PG" '$2 == g')"
else pass "the leftover (group $PG) was ended"; fi

mkfifo "$S/started"
FAKE_LEFTOVER=1 FAKE_STARTED=$S/started spawn --hosts h1 "${H[@]}" -b 4k -d 30 -n "$F"
PG=$(timeout 60 cat "$S/started") || fail "the host's run never started" "$(<"$ERR")"
kill -TERM "$BG_PID"
# the harness's guard only: today's end takes the 5 s the pipes may linger
timeout 90 tail --pid="$BG_PID" -f /dev/null
if kill -0 "$BG_PID" 2>/dev/null; then
	check_failed "rebench ends after SIGTERM" "still running 90 s later"
	kill -9 "$BG_PID"
fi
wait "$BG_PID"
BG_RC=$?
assert_eq 130 "$BG_RC" "SIGTERM: exit 130"
assert_match "h1 .* interrupted " "$(<"$OUT")" "SIGTERM: the host's line says interrupted"
if group_alive "$PG"; then check_failed "SIGTERM: the host's process group $PG ended" "$(ps -e -o pid,pgid,stat,args | awk -v g="$PG" '$2 == g')"
	kill -9 -- -"$PG" 2>/dev/null
else pass "SIGTERM: the host's process group $PG ended"; fi

# a leftover that writes on and on: the pipes are read for 5 s after ssh
# exited, not for 5 s after the last byte (before: it held the run open)
FAKE_CHATTY=1 FAKE_STARTED=$S/pg2 rb --hosts h1 "${H[@]}" "${W[@]}" -n "$F"
assert_rc 0 "a leftover that writes to stderr for ever: the run ends (exit 0)"
assert_eq complete "$(terse_field 7)" "its result kept"
PG=$(<"$S/pg2")
if group_alive "$PG"; then check_failed "the chatty leftover (group $PG) was ended"; kill -9 -- -"$PG"
else pass "the chatty leftover (group $PG) was ended"; fi

section "a host that never answers times out"
# the run: a host's rebench that hangs after its checks passed is ended
# its run (200 ms) and the time limit (2 s) after the common start
REBENCH_HOSTS_TIMEOUT=2 FAKE_HANG=1 FAKE_STARTED=$S/pg3 rb --hosts h1 "${H[@]}" "${W[@]}" -n "$F"
assert_rc 6 "a host silent in its run: exit 6"
assert_match "h1.*no result within its run and 2 s more \(REBENCH_HOSTS_TIMEOUT\); its ssh was ended" \
	"$RB_ERR" "the reason names the limit"
PG=$(<"$S/pg3")
if group_alive "$PG"; then check_failed "the hung host's group $PG was ended"; kill -9 -- -"$PG"
else pass "the hung host's group was ended"; fi
# the check
REBENCH_HOSTS_TIMEOUT=2 FAKE_SILENT=$S/silent rb --hosts h1 "${H[@]}" "${W[@]}" -n "$F"
assert_rc 1 "a silent check: exit 1, no host started"
assert_match "host h1: its check \(rebench --dry-run\): no answer within 2 s \(REBENCH_HOSTS_TIMEOUT\); its ssh was ended" \
	"$RB_ERR" "the reason names the limit"
PG=$(cat "$S/silent" 2>/dev/null)
if [ -n "$PG" ] && group_alive "$PG"; then check_failed "the silent host's group $PG was ended"; kill -9 -- -"$PG"
else pass "the silent host's group was ended"; fi
REBENCH_HOSTS_TIMEOUT=soon assert_refused "REBENCH_HOSTS_TIMEOUT=soon" \
	"REBENCH_HOSTS_TIMEOUT=soon: give the hosts' time limit in seconds" --hosts h1 "${H[@]}" "${W[@]}" "$F"

section "documents that do not match what was sent fail their host"
rb_ok "a real run, for a document to craft" --hosts h1 "${H[@]}" "${W[@]}" --json "$F"
<<<"$RB_OUT" jq '.hosts.points[0].runs[0].document' >"$S/run.json"
python3 - "$S" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
def craft(name, change):
    x = json.loads(json.dumps(d))
    change(x)
    json.dump(x, open("%s/%s.json" % (sys.argv[1], name), "w"), indent=2)
res = lambda x: x["workloads"][0]["results"]
craft("good", lambda x: None)
craft("empty", lambda x: x.__setitem__("workloads", []))
craft("fifty", lambda x: x.__setitem__("workloads", [x["workloads"][0]] * 50))
craft("version", lambda x: x.__setitem__("json_version", 999))
craft("negative", lambda x: res(x).__setitem__("ops_per_s", -3.0))
craft("count", lambda x: res(x).__setitem__("ios", res(x)["ios"] + 7))
craft("rate", lambda x: res(x).__setitem__("ops_per_s", res(x)["ops_per_s"] * 2))
craft("newline", lambda x: x["workloads"][0]["target"].__setitem__("path", x["workloads"][0]["target"]["path"] + "\nhosts 1 - 1 evil"))
craft("status", lambda x: x["workloads"][0].__setitem__("status", "complete 1 2 3"))
PY
FAKE_DOC=$S/good.json rb_ok "the document as it came" --hosts h1 "${H[@]}" "${W[@]}" -n "$F"
# doc, what the reason says
while IFS='|' read -r doc re; do
	FAKE_DOC=$S/$doc.json rb --hosts h1 "${H[@]}" "${W[@]}" --json "$F"
	assert_rc 6 "$doc: exit 6, a host failed"
	assert_eq "failed" "$(jqr '.hosts.points[0].runs[0].status')" "$doc: the host failed"
	assert_match "$re" "$(jqr '.hosts.points[0].runs[0].reason')" "$doc: the reason"
	assert_eq "null" "$(jqr '.hosts.points[0].runs[0].document')" "$doc: its document is not passed on"
	assert_eq "0" "$(jqr '.hosts.points[0].merged[0].hosts')" "$doc: nothing of it merged"
done <<'EOF'
empty|its document has 0 workloads, 1 was sent
fifty|its document has 50 workloads, 1 was sent
version|json_version 999, this one
negative|results.ops_per_s is -3, not a figure
count|latency_hist does not hold its
rate|ops_per_s .* are not its .* ios
newline|workload 1 is on '.*\?hosts 1 - 1 evil', not on
status|its status 'complete 1 2 3' is none of rebench's
EOF
FAKE_DOC=$S/good.json FAKE_OLD_START=1 rb --hosts h1 "${H[@]}" "${W[@]}" --json "$F"
assert_rc 6 "another run's document: exit 6"
assert_match "requested_ns is .*, the instant sent was .*: not this run's document" \
	"$(jqr '.hosts.points[0].runs[0].reason')" "another run's document: the reason"

section "every failure is named in every format, also when every host fails"
export FAKE_DOC=$S/empty.json
rb --hosts h1,h2 "${H[@]}" "${W[@]}" -n "$F"
assert_rc 6 "-n: exit 6"
assert_eq "h1 failed
h2 failed
all merged" "$(<<<"$RB_OUT" awk '$1 == "hosts" { print $5, $7 }')" "-n: a line per host with its status, and the merged one"
assert_match "rebench: host h1: failed: its document has 0 workloads, 1 was sent" "$RB_ERR" "-n: host 1's reason on stderr"
assert_match "rebench: host h2: failed: its document has 0 workloads" "$RB_ERR" "-n: host 2's reason on stderr"
rb --hosts h1,h2 "${H[@]}" "${W[@]}" --output "$S/fail.tsv" "$F"
assert_rc 6 "human and TSV: exit 6"
assert_match "  h2 +.* failed" "$RB_OUT" "human: host 2's row says failed"
assert_match "  host h1: failed: its document has 0 workloads" "$RB_OUT" "human: host 1's reason"
assert_eq "reason" "$(grep -v '^#' "$S/fail.tsv" | head -n 1 | cut -f 16)" "TSV: a reason column"
assert_eq "h1 failed its document has 0 workloads, 1 was sent" \
	"$(awk -F'\t' '$3 == "h1" { print $3, $6, $16 }' "$S/fail.tsv")" "TSV: host 1's row, status and reason"
unset FAKE_DOC
