#!/usr/bin/env bash
# test_progress_warnings.sh - the live progress line (on a terminal only:
# one line per workload, redrawn each second, erased before the report;
# never without a terminal or with -n) and the honesty warnings that are
# deterministic: buffered reads of a region that fits in memory, reads of a
# file another workload trims into holes, too few I/Os for tail
# percentiles.  (The CV warning of --repeat depends on timing; its
# statistics are unit-tested in test_repeat.c.)  The runs that are redrawn
# last an hour and are interrupted once the test has read their redraws on
# the pty: how many a run of a few seconds gets depends on the load.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq script setsid

DEV=$(make_loop 64M)
S=$SCRATCH

# on_pty ARGS...: rebench with stdout and stderr both on a new pty (as in a
# terminal); PTY holds the bytes with CR shown as <CR> and ESC as <ESC>.
on_pty() {
	local cmd
	cmd=$(printf '%q ' "$REBENCH" "$@")
	[ -n "${PTY_STDIN:-}" ] && cmd="$cmd <$(printf '%q' "$PTY_STDIN")"
	RB_CMD="(pty) rebench $*"
	timeout -k 5 "$RB_TIMEOUT" setsid -w script -qec "$cmd" /dev/null </dev/null >"$S/pty.out"
	RB_RC=$?
	PTY=$(sed -e 's/\r/<CR>/g' -e 's/\x1b/<ESC>/g' "$S/pty.out")
}

# on_pty_until N ARGS...: on_pty, in the background, until the pty has
# shown N progress lines of a -d 1h run, then SIGINT (exit 130, the report
# printed as for a run that ended).
on_pty_until() {
	local n=$1 cmd i
	shift
	cmd=$(printf '%q ' "$REBENCH" "$@")
	[ -n "${PTY_STDIN:-}" ] && cmd="$cmd <$(printf '%q' "$PTY_STDIN")"
	RB_CMD="(pty) rebench $*"
	rm -f "$S/pty.out" "$S/pty.pid"
	timeout -k 5 "$RB_TIMEOUT" setsid -w script -qec "echo \$\$ >$S/pty.pid; exec $cmd" /dev/null </dev/null >"$S/pty.out" &
	local bg=$!
	register_pid "$bg"
	# what rebench wrote decides, not the time: wait for the lines
	for ((i = 0; i < RB_TIMEOUT * 10; i++)); do
		[ "$(grep -o '\[[0-9]*s/3600s\]' "$S/pty.out" 2>/dev/null | wc -l)" -ge "$n" ] && break
		kill -0 "$bg" 2>/dev/null || break
		sleep 0.1
	done
	kill -INT "$(<"$S/pty.pid")" 2>/dev/null
	wait "$bg"
	RB_RC=$?
	# script killed by its time limit: its rebench may outlive the pty
	case $RB_RC in 124 | 137) kill -9 "$(<"$S/pty.pid")" 2>/dev/null ;; esac
	rb_status
	PTY=$(sed -e 's/\r/<CR>/g' -e 's/\x1b/<ESC>/g' "$S/pty.out")
}

# labels: the seconds of each progress line drawn, in order
labels() { <<<"$PTY" grep -o '\[[0-9]*s/3600s\]' | sed 's/^\[\([0-9]*\)s.*/\1/' | paste -sd' '; }

section "progress line on a terminal"
on_pty_until 2 -b 4k -d 1h "$DEV"
assert_eq 130 "$RB_RC" "an hour's run on a pty, interrupted after two redraws: exit 130"
assert_match "^<CR><ESC>\[K\[[0-9]+s/3600s\] $DEV: [0-9]+ ops/s, [0-9.]+ MiB/s, p99 [0-9.]+ us so far<CR><ESC>\[K\[[0-9]+s/3600s\] " \
	"$PTY" "[Ns/3600s] DEV: N ops/s, X MiB/s, p99 Y us so far, redrawn in place"
# a line is drawn a second or more after the last: its whole seconds grow
assert_eq "" "$(labels | awk '$1 < 1 { print "first at " $1 "s" } { for (i = 2; i <= NF; i++) if ($i <= $(i - 1)) print "line " i " at " $i "s after " $(i - 1) "s" }')" \
	"the first line is at 1 s or later, each next one at a later second ($(labels))"
assert_match "so far<CR><ESC>\[JBenchmarking results for \[$DEV\]" "$PTY" \
	"erased (CR ESC[J) right before the report"

printf '%s\n' "-b 4k $DEV" "-w seq -b 64k $DEV" >"$S/two"
PTY_STDIN=$S/two on_pty_until 2 -d 1h
assert_eq 130 "$RB_RC" "two stdin workloads on a pty, interrupted after a redraw: exit 130"
assert_match "^<CR><ESC>\[K\[[0-9]+s/3600s\] $DEV: [0-9]+ ops/s, .* so far<CR>\$" "$PTY" \
	"workload 1 has its line"
assert_match "^<CR><ESC>\[K\[[0-9]+s/3600s\] $DEV: [0-9]+ ops/s, .* so far<ESC>\[1A<CR><ESC>\[J" "$PTY" \
	"workload 2 has the next line; then the cursor goes up and both are erased"

section "no progress line without a terminal, or with -n"
rb -b 4k -d 1500ms "$DEV"
assert_eq "" "$RB_ERR" "no terminal: nothing on stderr"
on_pty -n -b 4k -d 1500ms "$DEV"
assert_no_match 'ops/s, ' "$PTY" "-n on a terminal: no progress line"

section "honesty warnings"
rb --json -p -b 4k -d 300ms "$DEV"
assert_rc 0 "-p read exits 0"
assert_match "reads go through the page cache \\(-p\\) and the 64 MiB region fits in this machine's .* of memory: once read, blocks come from RAM, not from $DEV" \
	"$(jqr '.workloads[0].warnings[]')" "-p read of a region that fits in memory warns"
rb --json -b 4k -d 300ms "$DEV"
assert_no_match "page cache" "$(jqr '.workloads[0].warnings[]')" "O_DIRECT reads: no page-cache warning"

printf '%s\n' "-e 8m -b 4k $S/f" "-e 8m -o trim -b 4k $S/f" >"$S/trim"
rb --json --yes -d 300ms <"$S/trim"
assert_rc 0 "a read beside a trim of the same file exits 0"
assert_match "line 2 trims $S/f at the same time: it punches holes, and reads of holes return zeros without touching the device" \
	"$(jqr '.workloads[0].warnings[]')" "the read is warned that it reads holes"
assert_no_match "punches holes" "$(jqr '.workloads[1].warnings[]')" "the trim itself is not"

rb --json -b 4k -d 1mib "$DEV"
assert_eq "only 256 I/Os: 0.3 of them lie beyond p99.9 and 2.6 beyond p99; a percentile moves from run to run with fewer than 10 beyond it, so run longer (10000 I/Os for p99.9)" \
	"$(jqr '.workloads[0].warnings[]')" "256 I/Os: the too-few-I/Os warning, exactly"
rb --json -b 4k -d 40mib "$DEV"
assert_eq 0 "$(jqr '.workloads[0].warnings | length')" "10240 I/Os: no warning"
