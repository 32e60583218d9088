#!/usr/bin/env bash
# test_doc_versions.sh - the -n and JSON format versions in README.md, the
# man pages and docs/*.md are the current ones (issue 27, item 11: the README
# said JSON version 4, the binary printed 6, a man example showed 5; issue
# 29 moved the formats to rebench-output(5) and the studies to docs/).
#
# One source: TERSE_VERSION and JSON_VERSION in src/report/version.h, which the
# binary must print (-n field 13, JSON "json_version").  The documents
# follow a greppable convention, and every mention of it is checked:
#  - "JSON version N" and "json_version": N (JSON examples), and the
#    hosts example's "json_version M, this one N": N is JSON_VERSION;
#  - "-n version N" (\-n in the man page), and field 13 of every -n
#    example line (20 or more fields, the first 13 numbers or "-"): N is
#    TERSE_VERSION.
# Past versions are named otherwise ("version 2: fields 22 to 81").
# No number is written here: a bump in version.h is followed at once.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd jq awk
DOCS="$TESTS_ROOT/README.md $TESTS_ROOT/man/rebench.1 $TESTS_ROOT/man/rebench-output.5 $(ls "$TESTS_ROOT"/docs/*.md)"

version_of() { sed -n "s/^#define $1 \([0-9][0-9]*\).*/\1/p" "$TESTS_ROOT/src/report/version.h"; }
TV=$(version_of TERSE_VERSION)
JV=$(version_of JSON_VERSION)
[ -n "$TV" ] && [ -n "$JV" ] || fail "no TERSE_VERSION or JSON_VERSION in src/report/version.h"

section "the binary prints src/report/version.h's versions"
head -c 65536 /dev/zero >"$SCRATCH/f"
rb -n -o read -b 4k -d 16k "$SCRATCH/f"
assert_eq "$TV" "$(terse_field 13)" "-n field 13 is TERSE_VERSION ($TV)"
rb --json -o read -b 4k -d 16k "$SCRATCH/f"
assert_eq "$JV" "$(jqr .json_version)" "JSON json_version is JSON_VERSION ($JV)"

# mentions ERE: "FILE:LINE: N" for each number the ERE's last group holds
mentions() {
	local f
	for f in $DOCS; do
		grep -nE -o "$1" "$f" | sed -E "s|^([0-9]+):.*[^0-9]([0-9]+)[^0-9]*$|$(basename "$f"):\1: \2|"
	done
}

# check WHAT WANT LIST: every mention in LIST is WANT, and there is one
check() {
	local bad
	bad=$(<<<"$3" awk -v w="$2" 'NF && $NF != w')
	assert_eq "" "$bad" "$1: every mention is $2"
	assert_num "$1: found ($(<<<"$3" grep -c .) mentions)" \
		"$(<<<"$3" grep -c .) >= 1"
}

section "README.md, the man pages and docs/ name the current versions"
check '"JSON version N"' "$JV" "$(mentions 'JSON version [0-9]+')"
check '"json_version": N' "$JV" "$(mentions '"json_version": [0-9]+')"
check '"json_version M, this one N"' "$JV" "$(mentions 'json_version [0-9]+, this one [0-9]+')"
check '"-n version N"' "$TV" "$(mentions '(\\)?-n version [0-9]+')"
examples=$(for f in $DOCS; do
	awk -v f="$(basename "$f")" 'NF >= 20 {
		for (i = 1; i <= 13; i++) if ($i !~ /^(\\?-|[0-9.]+)$/) next
		print f ":" NR ": " $13
	}' "$f"
done)
check "field 13 of the -n examples" "$TV" "$examples"
