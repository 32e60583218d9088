#!/usr/bin/env bash
# test_json_run.sh - --json's "run" object: when rebench started (ISO 8601
# with the offset from UTC, and the zone's name), the host, the command
# line (argv as given, and one shell-quoted string that a shell reads back
# as the same words), and standard input's lines verbatim (comments and
# blank lines too, so stdin[line - 1] is a workload's own line); null
# stdin when a TARGET was given.  In a run's, a sweep's and --probe's
# documents alike.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq hostname

DEV=$(make_loop 32M)
ISO='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2}$'

section "a run with a TARGET"
F="$SCRATCH/a file's name.dat"
day0=$(date +%F)
rb --json -e 1m -d 100ms --seed 5 "$F"
day1=$(date +%F)
assert_rc 0 "--json run exits 0"
assert_eq $JV "$(jqr .json_version)" "json_version $JV"
date=$(jqr .run.date)
assert_match "$ISO" "$date" "run.date is ISO 8601 with the offset: $date"
if [ "${date%%T*}" = "$day0" ] || [ "${date%%T*}" = "$day1" ]; then
	pass "run.date is today's date (${date%%T*})"
else
	check_failed "run.date is today's date" "run.date $date, date +%F $day0 .. $day1"
fi
assert_eq "$(date +%:z)" "${date: -6}" "run.date's offset is the local one (date +%:z)"
assert_eq "$(date +%Z)" "$(jqr .run.timezone)" "run.timezone is the zone's name (date +%Z)"
assert_eq "$(hostname)" "$(jqr .run.host)" "run.host is the host name"
want=$(jq -cn --args '$ARGS.positional' -- "$SCRATCH/rebench" --json -e 1m -d 100ms --seed 5 "$F")
assert_eq "$want" "$(jqr '.run.argv | tojson')" "run.argv is the command line, word for word"
cmd=$(jqr .run.command_line)
eval "set -- $cmd"
assert_eq "$want" "$(jq -cn --args '$ARGS.positional' -- "$@")" \
	"run.command_line, read by a shell, gives back the same words"
assert_match "'$SCRATCH/a file'\\\\''s name.dat'\$" "$cmd" "run.command_line quotes the word with a space and a quote"
assert_match "^$SCRATCH/rebench --json -e 1m -d 100ms --seed 5 " "$cmd" "plain words are not quoted"
assert_eq null "$(jqr .run.stdin)" "run.stdin is null when a TARGET was given"

section "stdin lines, verbatim"
SPEC=$SCRATCH/spec
printf '%s\n' "# two readers" "-b 4k $DEV" "" "   -w seq  -b 8k   $DEV   # sequential" >"$SPEC"
rb --json -d 100ms --seed 5 <"$SPEC"
assert_rc 0 "stdin --json exits 0"
assert_eq "$(jq -Rsc 'split("\n") | .[:-1]' <"$SPEC")" "$(jqr '.run.stdin | tojson')" \
	"run.stdin holds the 4 lines as given: the comment, the blank line, the spaces"
assert_eq "2 4" "$(jqr '[.workloads[].parameters.line] | map(tostring) | join(" ")')" "the workloads are lines 2 and 4"
assert_eq "-b 4k $DEV|   -w seq  -b 8k   $DEV   # sequential" \
	"$(jqr '. as $d | [.workloads[].parameters.line | $d.run.stdin[. - 1]] | join("|")')" \
	"stdin[line - 1] is each workload's own line"

section "a sweep's and --probe's documents"
rb --json -b 4k,8k -d 100ms "$DEV"
assert_rc 0 "--json sweep exits 0"
assert_match "$ISO" "$(jqr .run.date)" "sweep: run.date"
assert_eq "7" "$(jqr '.run.argv | length')" "sweep: run.argv has the 7 words"
rb --probe --json "$DEV"
assert_rc 0 "--probe --json exits 0"
assert_eq "$(hostname) null" "$(jqr '"\(.run.host) \(.run.stdin)"')" "--probe: run.host, and no stdin"
assert_eq "[\"$SCRATCH/rebench\",\"--probe\",\"--json\",\"$DEV\"]" "$(jqr '.run.argv | tojson')" "--probe: run.argv"
