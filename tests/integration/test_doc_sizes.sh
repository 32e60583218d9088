#!/usr/bin/env bash
# test_doc_sizes.sh - the documents stay the size a reader can use (issue
# 29): rebench(1) a reference of at most 2,500 lines at 80 columns, the
# README at most 400 lines, --help one screen (test_help.sh); both man
# pages render without a warning.  What does not fit goes to
# rebench-output(5) or docs/, not to the end of rebench(1).
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd groff

# rendered as man(1) does at 80 columns
rendered() { groff -man -Tutf8 -rLL=80n -rLT=80n -P-c "$1" 2>/dev/null | wc -l; }

section "sizes"
n=$(rendered "$TESTS_ROOT/man/rebench.1")
assert_num "rebench(1) renders to at most 2500 lines at 80 columns ($n)" "$n > 100 && $n <= 2500"
n=$(wc -l <"$TESTS_ROOT/README.md")
assert_num "README.md has at most 400 lines ($n)" "$n > 50 && $n <= 400"
assert_eq 1 "$(grep -c '^## Contents$' "$TESTS_ROOT/README.md")" "README.md has a table of contents (## Contents)"

section "the man pages render cleanly"
for m in rebench.1 rebench-output.5; do
	assert_eq "" "$(groff -man -ww -z "$TESTS_ROOT/man/$m" 2>&1 | head -5)" "$m: groff warns of nothing"
done
