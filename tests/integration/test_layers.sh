#!/usr/bin/env bash
# test_layers.sh - the include rule of the source tree (issue 28: layers you
# can see).  scripts/layers.sh ranks each folder of src and lists every
# include that points up a layer and every include circle between modules.
# The ones known when the rule was written are in tests/layers.known; that
# list may only shrink: a new violation fails, and so does a known one that
# is gone (remove its line, so it cannot come back unnoticed).
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd awk

known=$TESTS_ROOT/tests/layers.known
now=$(sh "$TESTS_ROOT/scripts/layers.sh" "$TESTS_ROOT/src" | grep -v '^layers: ')
summary=$(sh "$TESTS_ROOT/scripts/layers.sh" "$TESTS_ROOT/src" | grep '^layers: ')

section "the check itself"
assert_match '^layers: [0-9]+ upward, [0-9]+ circles$' "$summary" "it ends with its summary"
# It finds what it is for: a scratch tree with one upward include and one
# circle, checked by the same script.
t=$SCRATCH/tree
mkdir -p "$t/core" "$t/cli" "$t/gen"
printf '#include "cli/opts.h"\n' >"$t/core/a.c"
printf '\n' >"$t/cli/opts.h"
printf '#include "gen/y.h"\n' >"$t/gen/x.c"
printf '\n' >"$t/gen/x.h"
printf '#include "gen/x.h"\n' >"$t/gen/y.c"
printf '\n' >"$t/gen/y.h"
printf '#include "config.h"\n#include "core/a.h"\n' >"$t/core/b.c"
printf '\n' >"$t/core/a.h"
got=$(sh "$TESTS_ROOT/scripts/layers.sh" "$t")
rc=$?
assert_eq 1 "$rc" "a tree with violations: exit 1"
assert_match 'upward: core/a.c \(core\) includes cli/opts.h \(cli\)' "$got" "an upward include is named"
assert_match 'circle: gen/x <-> gen/y' "$got" "a circle is named, members sorted"
assert_match '^layers: 1 upward, 1 circles$' "$got" "and counted; config.h and a downward include are not"
mkdir -p "$t/ok/core" "$t/ok/engines"
printf '#include "engines/e.h"\n' >"$t/ok/core/a.c"
printf '\n' >"$t/ok/engines/e.h"
sh "$TESTS_ROOT/scripts/layers.sh" "$t/ok" >/dev/null
assert_eq 0 "$?" "a tree that keeps the rule: exit 0"

section "src keeps the rule, or is no worse than tests/layers.known"
# (lines of the list starting with '#' say why one is still there)
new=$(comm -13 <(grep -v '^#' "$known" | sort) <(<<<"$now" sed '/^$/d' | sort))
gone=$(comm -23 <(grep -v '^#' "$known" | sort) <(<<<"$now" sed '/^$/d' | sort))
if [ -z "$new" ]; then
	pass "no include against the rule beyond the known ones ($summary)"
else
	check_failed "new includes against the layers (CONTRIBUTING.md, Source layout)" \
		"$(printf '%s\n' "$new")"
fi
if [ -z "$gone" ]; then
	pass "every known violation is still there ($(grep -vc '^#' "$known") listed)"
else
	check_failed "fixed: remove these lines from tests/layers.known" \
		"$(printf '%s\n' "$gone")"
fi
