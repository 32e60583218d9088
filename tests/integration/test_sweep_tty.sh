#!/usr/bin/env bash
# test_sweep_tty.sh - a sweep on a terminal: standard output and standard
# error on one pty, as in a terminal window, and the screen a person would
# see worked out from the bytes (tests/lib/screen.py, a small VT100).  The
# progress line of each point is shown while it runs and is gone before
# anything else is printed: no table row, warning or JSON line is glued to
# it or cut by its erasure, and it never wraps (a wrapped line cannot be
# erased in place), even on a narrow terminal.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq script setsid python3 stty

DEV=$(make_loop 64M)
SCREEN="python3 $TESTS_ROOT/tests/lib/screen.py"

# on_tty COLS ARGS...: rebench on a new pty COLS wide, stdout and stderr
# both on it; RAW holds the bytes, SCREEN_OUT the screen (wrapped lines
# joined).
on_tty() {
	local cols=$1 cmd
	shift
	cmd="stty cols $cols rows 50; $(printf '%q ' "$REBENCH" "$@")"
	RB_CMD="(tty $cols) rebench $*"
	timeout -k 5 "$RB_TIMEOUT" setsid -w script -qec "$cmd" /dev/null </dev/null >"$SCRATCH/tty.out"
	RB_RC=$?
	RAW=$(sed -e 's/\r/<CR>/g' -e 's/\x1b/<ESC>/g' "$SCRATCH/tty.out")
	SCREEN_OUT=$($SCREEN --join "$cols" <"$SCRATCH/tty.out")
}

# rows_intact WHAT COLUMNS POINTS: the screen is the table header, then a
# row per point with COLUMNS tab-separated fields starting with a number,
# and warnings on lines of their own; nothing of a progress line is left.
rows_intact() {
	local what=$1 ncol=$2 npoints=$3 bad
	assert_no_match '\[point [0-9]+ of [0-9]+\]' "$SCREEN_OUT" "$what: no progress line left on the screen"
	bad=$(<<<"$SCREEN_OUT" tail -n +2 |
		awk -F'\t' -v n="$ncol" '/^rebench: warning: / { next }
			!(NF == n && $1 ~ /^[0-9]+$/) { print NR + 1 ": " $0 }')
	assert_eq "" "$bad" "$what: every line after the header is a whole row or a warning"
	assert_eq "$npoints" "$(<<<"$SCREEN_OUT" grep -cE '^[0-9]+	')" "$what: $npoints rows"
	assert_match '^block-size	' "$(<<<"$SCREEN_OUT" head -n 1)" "$what: the header first"
}

section "the table on a wide terminal"
on_tty 200 -b 4k,8k,16k -d 1500ms --seed 3 "$DEV"
assert_eq 0 "$RB_RC" "a 3-point sweep on a pty exits 0"
assert_match '<ESC>\[K\[point 2 of 3\] block-size=8192; the one before: [0-9]+ ops/s; about [0-9]+s left' "$RAW" \
	"the bytes hold point 2's progress line, with point 1's ops/s and the time left"
assert_match '<ESC>\[K\[1s/1500ms\] ' "$RAW" "and a run's own line under it after a second"
rows_intact "200 columns" 23 3

section "a narrow terminal: the line is cut, never wrapped"
# "[point 1 of 4] block-size=4096 stride=4096; ..." is wider than 40
on_tty 40 -b 4k,8k -s 4k,8k -d 300ms --seed 3 "$DEV"
assert_eq 0 "$RB_RC" "a 4-point sweep on a 40-column pty exits 0"
long_lines=$(<<<"$RAW" sed 's/<CR>/\n/g' | grep -F '[point ' | sed 's/<ESC>\[K//' | awk 'length > 39')
assert_eq "" "$long_lines" "every progress line fits in 39 columns"
rows_intact "40 columns" 24 4

section "--json on the terminal stays valid JSON on the screen"
on_tty 2000 --json -b 4k,8k -d 300ms --seed 3 "$DEV"
assert_eq 0 "$RB_RC" "--json sweep on a pty exits 0"
assert_eq 2 "$(<<<"$SCREEN_OUT" jq '.sweep.runs | length' 2>&1)" \
	"the screen parses as the JSON document, with both points"
