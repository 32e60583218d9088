#!/usr/bin/env bash
# test_progress_warnings.sh - the live progress line (on a terminal only:
# one line per workload, redrawn each second, erased before the report;
# never without a terminal or with -n) and the honesty warnings that are
# deterministic: buffered reads of a region that fits in memory, reads of a
# file another workload trims into holes, too few I/Os for tail
# percentiles.  (The CV warning of --repeat depends on timing; its
# statistics are unit-tested in test_repeat.c.)
# serial: the progress line is redrawn each second of a run
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

section "progress line on a terminal"
on_pty -b 4k -d 2500ms "$DEV"
assert_eq 0 "$RB_RC" "a 2.5 s run on a pty exits 0"
assert_match "^<CR><ESC>\[K\[1s/2500ms\] $DEV: [0-9]+ ops/s, [0-9.]+ MiB/s, p99 [0-9.]+ us so far<CR><ESC>\[K\[2s/2500ms\] " \
	"$PTY" "[1s/2500ms] DEV: N ops/s, X MiB/s, p99 Y us so far, redrawn in place a second later"
assert_match "so far<CR><ESC>\[JBenchmarking results for \[$DEV\]" "$PTY" \
	"erased (CR ESC[J) right before the report"

printf '%s\n' "-b 4k $DEV" "-w seq -b 64k $DEV" >"$S/two"
PTY_STDIN=$S/two on_pty -d 1500ms
assert_eq 0 "$RB_RC" "two stdin workloads on a pty exit 0"
assert_match "^<CR><ESC>\[K\[1s/1500ms\] $DEV: [0-9]+ ops/s, .* so far<CR>\$" "$PTY" \
	"workload 1 has its line"
assert_match "^<CR><ESC>\[K\[1s/1500ms\] $DEV: [0-9]+ ops/s, .* so far<ESC>\[1A<CR><ESC>\[J" "$PTY" \
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
