#!/usr/bin/env bash
# test_suite.sh - --suite: a preset list of tests run one after another.
#
# The quick suite on a small loop device with a short -d: the table's shape
# (two head lines, a header, one row per test with its name, operation and
# three figures; never the figures' values), the engine it picks; without
# --yes (no terminal, -n, or n on the terminal) the tests that write are
# skipped, said so, and the device is unchanged (checksums); with --yes (or
# y on the terminal) all six run; -n lines and the --json document; a suite
# file of one's own by path; --suite list and the lookup of a name in
# REBENCH_WORKLOADS and in the clone; bad suite files and names refused
# with the file, the line and why, before anything runs.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

export REBENCH_WORKLOADS=$TESTS_ROOT/workloads
DEV=$(make_loop 16M)
NAMES='SEQ1M Q8T1|RND4K Q32T1|RND4K Q1T1|SEQ1M Q8T1|RND4K Q32T1|RND4K Q1T1'
OPS='read|read|read|write|write|write'
NUM='[0-9]+(\.[0-9]+)?'

# The engine a suite picks: the first of uring, naio, paio that this build
# can run (an unavailable engine has a "not available" line after it).
ENGINE=$("$REBENCH" --engines | awk '
	/^[^ ]/ { if (n != "") ok[n] = 1; n = $1; next }
	/not available/ { n = "" }
	END { if (n != "") ok[n] = 1
	      print ok["uring"] ? "uring" : ok["naio"] ? "naio" : "paio" }')

# rows: the table's rows after its header.
rows() { <<<"$RB_OUT" awk 'f; /^Test  /{ f = 1 }'; }

# check_rows WHAT WRITES: six rows in the suite's order, each with its
# name and operation; the reads with three numbers; the writes with three
# numbers when WRITES is "ran", else "skipped".
check_rows() {
	local what=$1 writes=$2 i=0 line name op rest
	assert_eq 6 "$(rows | wc -l)" "$what: six rows"
	while IFS= read -r line; do
		name=$(cut -d'|' -f$((i + 1)) <<<"$NAMES")
		op=$(cut -d'|' -f$((i + 1)) <<<"$OPS")
		i=$((i + 1))
		rest=${line#"$name"}
		if [ "$rest" = "$line" ]; then
			check_failed "$what: row $i is test $name" "row: $line"
			continue
		fi
		if [ "$op" = write ] && [ "$writes" != ran ]; then
			assert_match "^ +$op +skipped \(it writes: --yes runs it\)$" "$rest" \
				"$what: row $i ($name $op) says skipped"
		else
			want=-
			[ "$op" = write ] && want=not-durable	# the suite writes with -f
			assert_match "^ +$op +$NUM +$NUM +$NUM +$want$" "$rest" \
				"$what: row $i ($name $op) has MB/s, ops/s, p99 and durability $want"
		fi
	done < <(rows)
}

section "the quick suite without --yes and without a terminal: reads only"
SUM0=$(dev_sum "$DEV")
rb --suite quick -d 200ms "$DEV"
assert_rc 0 "exit 0 with the writes skipped"
assert_match "^Suite quick \($TESTS_ROOT/workloads/quick\.suite\): 6 tests of 200ms, one after another$" \
	"$RB_OUT" "first line: the suite, its file, 6 tests of 200ms"
assert_match "^Target $DEV \(block device, 16 MiB\); engine $ENGINE \(the best asynchronous engine built; -t to change\)$" \
	"$RB_OUT" "second line: the target and the engine picked ($ENGINE)"
assert_match '^Test +Op +MiB/s +ops/s +p99 \(us\) +Durability$' "$RB_OUT" \
	"header: Test, Op, MiB/s, ops/s, p99 (us), Durability"
assert_eq 9 "$(<<<"$RB_OUT" wc -l)" "two head lines, a header and six rows"
check_rows "reads only" skipped
assert_match "^rebench: suite quick: 3 of 6 tests skipped, the ones that write to $DEV: there is no terminal to ask on\. Add --yes to include them" \
	"$RB_ERR" "stderr: how many were skipped, why, and --yes to include them"
assert_eq "$SUM0" "$(dev_sum "$DEV")" "the device is unchanged (checksum)"

section "-n without --yes: reads only, one line per test that ran"
rb --suite quick -d 200ms -n "$DEV"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_rc 0 "exit 0"
assert_eq 3 "$(<<<"$RB_OUT" grep -c .)" "three lines"
assert_eq "1 SEQ1M_Q8T1|2 RND4K_Q32T1|3 RND4K_Q1T1" \
	"$(<<<"$RB_OUT" awk '{ print $(NF - 1), $NF }' | paste -sd'|')" \
	"each line ends with the test's number and name"
assert_eq $TV "$(terse_field 13)" "field 13 is the -n version ($TV)"
assert_match "3 of 6 tests skipped.*-n asks nothing, and does not confirm a suite's writes\. Add --yes" \
	"$RB_ERR" "stderr: -n does not confirm the writes"
assert_eq "$SUM0" "$(dev_sum "$DEV")" "the device is unchanged (checksum)"

section "--json without --yes: one document"
rb --suite quick -d 200ms --json "$DEV"
assert_rc 0 "exit 0"
assert_eq "rebench 1" "$(jqr '"\(.tool) \([.] | length)"')" "one JSON document"
assert_eq "quick|6|3|$ENGINE|200ms" \
	"$(jqr '.suite | "\(.name)|\(.tests_count)|\(.skipped)|\(.engine_default)|\(.duration_each)"')" \
	"suite: name, tests, skipped, engine, duration"
assert_eq "ran ran ran skipped skipped skipped" "$(jqr '[.suite.tests[].state] | join(" ")')" \
	"the tests' states"
assert_eq "1 1 1 0 0 0" "$(jqr '[.suite.tests[].workloads | length] | join(" ")')" \
	"a workload for each test that ran, none for the skipped"
assert_eq "$NAMES" "$(jqr '[.suite.tests[].name] | join("|")')" "the tests' names"
assert_eq "$ENGINE $ENGINE $ENGINE" "$(jqr '[.suite.tests[:3][].workloads[0].parameters.engine] | join(" ")')" \
	"the tests ran on the engine picked"
assert_eq "8 32 1" "$(jqr '[.suite.tests[:3][].workloads[0].parameters.queue_depth] | join(" ")')" \
	"queue depths 8, 32, 1"
assert_eq "true" "$(jqr '[.suite.tests[:3][].workloads[0].results.ops_per_s > 0] | all')" \
	"every test that ran has results"
assert_eq "$SUM0" "$(dev_sum "$DEV")" "the device is unchanged (checksum)"

section "n on the terminal: reads only"
rb_pty n --suite quick -d 200ms "$DEV"
assert_rc 0 "exit 0"
assert_match 'Run the tests that write too\? \[y/N\]' "$RB_OUT" "one question"
check_rows "answered n" skipped
assert_match "3 of 6 tests skipped.*: not confirmed\. Add --yes" "$RB_ERR" "stderr: not confirmed"
assert_eq "$SUM0" "$(dev_sum "$DEV")" "the device is unchanged (checksum)"

section "y on the terminal, and --yes: all six"
rb_pty y --suite quick -d 200ms "$DEV"
assert_rc 0 "exit 0"
check_rows "answered y" ran
assert_ne "$SUM0" "$(dev_sum "$DEV")" "the writes changed the device"
rb --suite quick -d 200ms --yes "$DEV"
assert_rc 0 "--yes: exit 0"
check_rows "--yes" ran
assert_no_match "skipped" "$RB_ERR" "--yes: nothing skipped"

section "a read-only target: the writes skipped without a question, refused with --yes"
RO=$(losetup -f --show -r "$(make_image 8M)") || fail "losetup -r failed"
_register loops "$RO"
rb_pty y --suite quick -d 100ms "$RO"
assert_rc 0 "exit 0: the reads ran"
assert_no_match '\[y/N\]' "$RB_OUT" "no question"
assert_match "SEQ1M Q8T1 +write +skipped \(it writes: the target may not be written\)" "$RB_OUT" \
	"the rows say the target may not be written"
assert_match "3 of 6 tests skipped, the ones that write to $RO: $RO is read-only .*rebench never writes to anything in use or read-only\.$" \
	"$RB_ERR" "stderr: why, and no --yes advice"
rb --suite quick -d 100ms --yes "$RO"
assert_rc 2 "--yes: refused as any write to a read-only device, exit 2"
assert_match "refusing to write to $RO: $RO is read-only" "$RB_ERR" "--yes: the refusal says why"
assert_eq "" "$RB_OUT" "--yes: nothing ran"

section "a suite file of one's own, by path; command-line options as defaults"
cat >"$SCRATCH/mine.suite" <<'EOF'
# mine - two reads
-w seq -b 64k -q 4 -c 2   # a comment after a test
-b 8k -t stateless -u zipf
EOF
rb --suite "$SCRATCH/mine.suite" -d 100ms -e 8m "$DEV"
assert_rc 0 "exit 0"
assert_match "^Suite mine \($SCRATCH/mine\.suite\): 2 tests of 100ms" "$RB_OUT" "named after its file"
assert_eq "SEQ64K Q4T2 read|RND8K Q1T1 zipf read" \
	"$(rows | awk '{ print $1, $2, $3, ($4 ~ /^[a-z]/ ? $4 : "") }' | sed 's/ *$//' | paste -sd'|')" \
	"rows named by pattern, size, depth, threads and distribution"
rb --suite "$SCRATCH/mine.suite" -d 100ms -e 8m --json "$DEV"
assert_eq "4 1|stateless|8388608 8388608|2 3" \
	"$(jqr '"\([.suite.tests[].workloads[0].parameters.queue_depth] | join(" "))|\(.suite.tests[1].workloads[0].parameters.engine)|\([.suite.tests[].workloads[0].parameters.region_length] | join(" "))|\([.suite.tests[].line] | join(" "))"')" \
	"depths, a line's own engine, -e of the command line for both, file lines"
assert_eq "$ENGINE" "$(jqr '.suite.engine_default')" \
	"engine_default: the engine given to lines without -t"

section "--suite list, and names looked up in the clone"
rb --suite list
assert_rc 0 "--suite list: exit 0"
assert_match "^quick +sequential 1 MiB at depth 8, random 4 KiB at depths 32 and 1" "$RB_OUT" \
	"quick and its description"
assert_match "^ +$TESTS_ROOT/workloads/quick\.suite$" "$RB_OUT" "quick's file"
# the clone's own binary, without REBENCH_WORKLOADS: the workloads/ beside it
OUT=$(env -u REBENCH_WORKLOADS "$TESTS_ROOT/rebench" --suite list 2>&1)
assert_match "^ +$TESTS_ROOT/workloads/quick\.suite$" "$OUT" \
	"./rebench of a clone finds the clone's workloads/"
mkdir -p "$SCRATCH/suites"
printf -- '-b 4k\n' >"$SCRATCH/suites/tiny.suite"
REBENCH_WORKLOADS=$SCRATCH/suites rb --suite tiny -d 100ms "$DEV"
assert_rc 0 "REBENCH_WORKLOADS: a suite by name"
assert_match "^Suite tiny \($SCRATCH/suites/tiny\.suite\): 1 test of 100ms" "$RB_OUT" "read from REBENCH_WORKLOADS"

section "bad suite files and names: refused, with the file, the line and why"
SUM1=$(dev_sum "$DEV")
bad() {	# bad WHAT CONTENT ERE
	printf '%b' "$2" >"$SCRATCH/bad.suite"
	assert_refused "$1" "$3" --suite "$SCRATCH/bad.suite" --yes -d 100ms "$DEV"
	assert_eq "" "$RB_OUT" "$1: no table, nothing ran"
}
bad "a bad value" '-b 4k\n-o read -b 0\n' \
	"bad\.suite line 2: invalid value '0' for -b/--block-size"
bad "an unknown option" '\n\n-o read --nope\n' "bad\.suite line 3: unknown option '--nope'"
bad "a target on a line" '-o write /dev/sda\n' \
	"bad\.suite line 1: '/dev/sda' is not an option; a suite line gives options only"
bad "a run-wide option on a line" '-o read --json\n' \
	"bad\.suite line 1: --json applies to the whole run"
bad "an unterminated quote" "-o 'read\n" "bad\.suite line 1: unterminated quote"
bad "no tests" '# nothing\n\n' "bad\.suite: no tests in this suite"
bad "a test the target cannot run" '-b 4k\n-b 4k -q 32 -t stateful\n' \
	"bad\.suite line 2: -q/--queue-depth 32: the stateful engine is synchronous"
bad "a region beyond the target" '-b 4k -j 1g\n' "bad\.suite line 1: "
bad "two lines, one --output" "-b 4k --output $SCRATCH/o.tsv\n-b 8k --output $SCRATCH/o.tsv\n" \
	"bad\.suite line 2: --output .*line 1 writes that file too"
assert_eq "$SUM1" "$(dev_sum "$DEV")" "no refused suite wrote to the device (checksum)"
printf -- '-o write -b 4k\n' >"$SCRATCH/w.suite"
assert_refused "a suite that only writes, without --yes" \
	"suite w: every test writes to $DEV, and there is no terminal to ask on; nothing ran\. Add --yes" \
	--suite "$SCRATCH/w.suite" -d 100ms "$DEV"
assert_eq "" "$RB_OUT" "a suite that only writes: no table"
assert_refused "an unknown name" "--suite nosuch: no suite of that name in $TESTS_ROOT/workloads; there are: .*quick" \
	--suite nosuch "$DEV"
assert_refused "a missing file" "--suite $SCRATCH/none\.suite: cannot read this file" \
	--suite "$SCRATCH/none.suite" "$DEV"
assert_refused "no TARGET" "--suite quick needs a TARGET" --suite quick
assert_refused "a sweep" "does not combine with it" --suite quick -b 4k,8k "$DEV"
assert_refused "--probe" "does not combine with it" --suite quick --probe "$DEV"
assert_refused "--output on the command line" "--output on the command line would be every test's file" \
	--suite quick --output "$SCRATCH/x.tsv" "$DEV"
