#!/usr/bin/env bash
# test_ready_fd.sh - --ready-fd FD: the line "ready" on FD once the first
# measured run has started, then FD closed; closed without the line when
# no run starts; a descriptor that is not open for writing refused before
# anything runs.  What a test waits on instead of sleeping (issue 29).
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd mkfifo

DEV=$(make_loop 32M)

section "the line comes while the run runs"
ready_listen
spawn --ready-fd 3 -d 30 "$DEV" 3>"$READY"
ready_heard
got=$HEARD
assert_eq ready "$got" "the line is 'ready'"
kill -0 "$BG_PID" 2>/dev/null
assert_eq 0 "$?" "rebench is still running (a 30 s run) when the line comes"
kill -INT "$BG_PID"
wait "$BG_PID"
assert_eq 130 "$?" "stopped after the line: exit 130"
assert_match '^Operations/sec: [0-9]+' "$(<"$OUT")" "the results so far are printed"

section "one line for a run of several points"
ready_listen
spawn --ready-fd 3 -b 4k,8k -d 100ms -n "$DEV" 3>"$READY"
ready_heard
got=$HEARD
wait "$BG_PID"
assert_eq 0 "$?" "a sweep of two points: exit 0"
assert_eq ready "$got" "one line, at the first point's start"
assert_eq 2 "$(grep -vc '^device ' "$OUT")" "both points ran (a -n line each)"

section "no run, no line"
ready_listen
spawn --ready-fd 3 -o write -d 1 "$DEV" 3>"$READY"
ready_heard
got=$HEARD
wait "$BG_PID"
assert_eq 1 "$?" "a write without --yes is refused: exit 1"
assert_eq "" "$got" "FD closed without the line"

section "a descriptor it cannot write is refused"
rb --ready-fd 9 -d 1 "$DEV"
assert_rc 1 "--ready-fd 9, not open: exit 1"
assert_match "^rebench: --ready-fd 9: not an open file descriptor; open it for the run" "$RB_ERR" \
	"says it is not open, and how to open it"
assert_eq "" "$RB_OUT" "nothing ran"
: >"$SCRATCH/r"
rb --ready-fd 4 -d 1 "$DEV" 4<"$SCRATCH/r"
assert_rc 1 "--ready-fd on a descriptor open for reading: exit 1"
assert_match "open for reading only" "$RB_ERR" "says it is open for reading only"
