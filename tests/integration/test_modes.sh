#!/usr/bin/env bash
# test_modes.sh - the modes as a first word (src/cli/modes.c): rebench
# MODE ... is rebench --MODE ... word for word, the option spellings stay,
# a target named as a mode is written ./NAME, and --help's synopsis and
# mode list come from the one table.  Counts and bytes, not timings.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

DEV=$(make_loop 16M)
IN=$TESTS_ROOT/tests/golden/in
export REBENCH_RECORD_LIB=$TESTS_ROOT/librebench-record.so

# same_as WHAT ARGS...: "rebench MODE REST" and "rebench --MODE REST" give
# the same stdout, stderr and exit status (MODE is ARGS' first word)
same_as() {
	local what=$1 mode=$2
	shift 2
	rb "$mode" "$@"
	local out=$RB_OUT err=$RB_ERR rc=$RB_RC
	rb "--$mode" "$@"
	assert_eq "$RB_RC $RB_OUT" "$rc $out" "$what: the same exit status and stdout as --$mode"
	assert_eq "$RB_ERR" "$err" "$what: the same stderr"
}

section "each mode word is its option"
same_as "probe" probe "$DEV"
rb probe --json "$DEV"
a=$(<<<"$RB_OUT" jq -S 'del(.run)')
rb --probe --json "$DEV"
assert_eq "$(<<<"$RB_OUT" jq -S 'del(.run)')" "$a" "probe --json: the same document but for the command line it records"
same_as "probe without a TARGET (refused)" probe
cp "$IN/b4k.json" "$IN/b64k.json" "$SCRATCH/"
same_as "compare" compare "$SCRATCH/b4k.json" "$SCRATCH/b64k.json"
same_as "compare -n" compare -n "$SCRATCH/b4k.json" "$SCRATCH/b64k.json"
rb_ok "record: a log of COMMAND's I/O" record "$SCRATCH/true.log" -- true
assert_eq "# rebench-trace 1" "$(head -n 1 "$SCRATCH/true.log")" "record: the log's first line"
same_as "trace-stats -n" trace-stats "$SCRATCH/true.log" -n
same_as "trace-to fio" trace-to fio "$SCRATCH/true.log"
same_as "suite list" suite list

section "run: the workload grammar, the word dropped"
rb_ok "run -n" run -n -d 64k --seed 1 "$DEV"
a=$(terse_field 13)-$(terse_field 14)-$(terse_field 15)
rb_ok "the same without run" -n -d 64k --seed 1 "$DEV"
assert_eq "$(terse_field 13)-$(terse_field 14)-$(terse_field 15)" "$a" "run -n: the same I/Os, bytes and block size"
rb_ok "run --json" run --json -d 64k --seed 1 "$DEV"
assert_eq run "$(jqr '.run.argv[1]')" "the JSON run record keeps the command as typed"

section "a target named as a mode"
cp "$IN/b4k.json" "$SCRATCH/compare"
rb compare
assert_rc 1 "compare alone is the mode (refused: no documents)"
rb -n -d 64k --seed 1 --dry-run "./probe"
assert_no_match "--probe needs a TARGET" "$RB_ERR" "./probe is a target, not the mode"

section "--help all: the synopsis and the list from the table"
rb_ok "--help all" --help all
for m in run probe suite record record-block delay trace-stats trace-to replay emulate compare hosts clock-echo advise; do
	assert_match "MODE: ([a-z-]+, )*$m[,;]" "$(<<<"$RB_OUT" tr '\n' ' ' | tr -s ' ')" "--help lists the mode $m"
done
assert_eq 17 "$(<<<"$RB_OUT" grep -c '^\(Usage:\|      \) rebench ')" \
	"17 synopsis lines: 16 of the modes' and MODE ..."

section "the manual lists the same modes"
help_modes=$(<<<"$RB_OUT" tr '\n' ' ' | tr -s ' ' | sed -E 's/.*\(MODE: ([^;]*);.*/\1/')
man_modes=$(tr '\n' ' ' <"$TESTS_ROOT/man/rebench.1" | sed -E 's/.*The words: ([^(]*) \.RB \( \\-\\-help.*/\1/; s/\\-/-/g; s/ +$//')
assert_eq "$help_modes" "$man_modes" "rebench(1)'s list of mode words is --help's"
