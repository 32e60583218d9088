#!/usr/bin/env bash
# test_emulate.sh - rebench --emulate SLOW.json --baseline FAST.json --
# COMMAND (issue 14, Emulate).
#
# The results are hand-written in the schema of a grouped replay's JSON
# (rebench(1), APPLICATION I/O, Emulate): the slow device reads in 2.2 ms,
# this machine in 0.2 ms, so every read of COMMAND must wait 2 ms less the
# zero wait of the calibration.  dd reads 50 blocks of 4 KiB from a file
# in the scratch directory: emulated, it takes at least 50 times the
# adjusted delay (the interposer's waits never sum to less than the delays
# asked: delay.h).  How close to that it comes, and that dd without a
# followed file is not slowed, are times: bench/crosscheck.sh prints them.  The table on stderr
# is checked figure by figure (required = slow - fast, adjusted = required
# - the zero wait printed), COMMAND's stdout and exit status are its own,
# --record logs the emulated run, --record-path limits the delays, and
# --allow-partial leaves out what is not slower.  Every bad input is
# refused with its exact message and runs nothing: arguments, files that
# are missing, a directory, not JSON, or not a grouped replay's result,
# results of different logs, an operation not slower, nothing slower, one
# file twice, a log over a result, a COMMAND not found or static.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd dd awk cksum
LIB=$TESTS_ROOT/librebench-record.so
[ -r "$LIB" ] || fail "$LIB not built: run make"
export REBENCH_RECORD_LIB=$LIB
export LC_ALL=C

S=$(realpath "$SCRATCH")
D=0123456789abcdef

op() { printf '{"op": "%s", "operations": %s, "bytes": 0, "ns": 0, "ns_per_op": %s}' "$1" "$2" "$3"; }

# result FILE MODE DIGEST TARGET EXTRA ITEM...: a replay's JSON result
result() {
	local f=$1 mode=$2 digest=$3 target=$4 extra=$5 items
	shift 5
	items=$(IFS=,; printf '%s' "$*")
	cat >"$f" <<EOF
{"tool": "rebench", "json_version": 3,
 "replay": {"log": "$S/app.log", "format": "rebench-trace", "digest": "$digest",
  "mode": "$mode", "speed": 1.0, "target": "$target", "operations": 111,
  "files": 1, "recorded_threads": 1, "workers": 1, "aligned": 0,
  "skipped_failed": 0, "skipped_empty": 0,$extra
  "per_op": [$items]}}
EOF
}

# slow.json: reads 2 ms slower; fsync 1 ns slower (never above a zero wait);
# trims slower, which no interposed call is
result "$S/slow.json" grouped $D /dev/loop3 "" "$(op read 100 2200000)" \
	"$(op trim 1 9000)" "$(op fsync 10 1001)"
result "$S/fast.json" grouped $D /dev/zram1 "" "$(op read 100 200000)" \
	"$(op trim 1 1000)" "$(op fsync 10 1000)"
dd if=/dev/urandom of="$S/data" bs=4k count=64 status=none || fail "cannot write $S/data"

EM=(--emulate "$S/slow.json" --baseline "$S/fast.json")
DD=(dd if="$S/data" of=/dev/null bs=4k count=50)

# dd's own time, in seconds, from its last line on stderr
dd_seconds() { <<<"$1" awk '/ copied, / { print $(NF - 3) }'; }

# the read delay the last run gave (each run calibrates anew)
read_delay() { <<<"$RB_ERR" sed -n 's/^rebench: --emulate: read=\([0-9]*\)ns after .*/\1/p'; }

# ---------------------------------------------------------------- the run
section "end to end: dd's reads wait 2 ms less the zero wait"
rb_ok "dd under --emulate: exit 0" "${EM[@]}" -- "${DD[@]}"
zw=$(<<<"$RB_ERR" sed -n 's/.*adjusted = required - \([0-9]*\) ns, the zero wait.*/\1/p')
assert_match '^[0-9]+$' "$zw" "the zero wait is printed in ns ($zw)"
adj=$((2000000 - zw))
assert_eq "rebench: --emulate: $S/slow.json (replayed on /dev/loop3) on this machine, whose baseline is $S/fast.json (replayed on /dev/zram1); log $S/app.log, digest $D" \
	"$(<<<"$RB_ERR" sed -n 1p)" "the first line names both results, their targets, the log and its digest"
assert_match '^rebench: --emulate: calibration: clock read [0-9.]+[nu]s, zero wait [0-9.]+[nu]s, shortest sleep .*, sleep overshoot .*, spin below .*$' \
	"$RB_ERR" "the calibration in one line"
table=$(<<<"$RB_ERR" sed -n '3,6p')
assert_eq "  op          slow ns/op   fast ns/op  required ns  adjusted ns  note
$(printf '  %-9s %12s %12s %12s %12s  %s' read 2200000 200000 2000000 "$adj" delayed)
$(printf '  %-9s %12s %12s %12s %12s  %s' trim 9000 1000 8000 - 'not delayed: no call the interposer delays is a trim')
$(printf '  %-9s %12s %12s %12s %12s  %s' fsync 1001 1000 1 - "cannot be met: not above the zero wait ($zw ns), the least a wait adds; not delayed")" \
	"$table" "the table: required = slow - fast, adjusted = required - $zw (read), fsync cannot be met, trim not delayed"
assert_match "^rebench: --emulate: read=${adj}ns after each call that succeeds on a followed file" \
	"$RB_ERR" "the delays given are the adjusted ones, in ns"
em=$(dd_seconds "$RB_ERR")
assert_num "50 emulated reads take at least 50 x $adj ns (${em} s)" "$em * 1e9 >= 50 * $adj"
# upper bounds on time fail on a loaded machine: bench/crosscheck.sh (make
# crosscheck) prints the emulated and plain runs' times
log "dd of 50 x 4 KiB: ${em} s emulated (50 x $adj ns = $(calc "50 * $adj / 1e9") s of delays)"

section "COMMAND's stdout and exit status are its own"
seq 1 30000 >"$S/lines"
rb "${EM[@]}" -- cat "$S/lines"
assert_rc 0 "cat under --emulate: exit 0"
assert_eq "$(file_sum "$S/lines")" "$(file_sum "$RB_OUT_FILE")" \
	"stdout is the file cat read, nothing of rebench's"
rb "${EM[@]}" -- sh -c 'exit 7'
assert_rc 7 "COMMAND's exit status is rebench's"

section "--record logs the emulated run; --record-path limits the delays"
rb_ok "--record: exit 0" "${EM[@]}" --record "$S/dd.log" -- "${DD[@]}"
adj=$(read_delay)
assert_match "^# delay: read=${adj}ns " "$(<"$S/dd.log")" "the log's header has the delay"
reads=$(awk '!/^#/ && $3 == "read" && $5 == "'"$S/data"'" { n++; t += $9 } END { print n + 0, t + 0 }' "$S/dd.log")
assert_eq 50 "${reads% *}" "the log has dd's 50 reads"
assert_num "their DURATIONs (with the waits) sum to at least 50 x $adj ns (${reads#* } ns)" "${reads#* } >= 50 * $adj"
assert_match '^read +50 ' "$RB_ERR" "the log's statistics on stderr, as --record prints them"
rb_ok "--record-path matching nothing: exit 0" "${EM[@]}" --record "$S/none.log" --record-path '/nowhere/*' -- "${DD[@]}"
# the delays go with following a file, as the log does
assert_eq 0 "$(awk '!/^#/ && $5 == "'"$S/data"'"' "$S/none.log" | wc -l)" "no followed file: none of dd's reads is followed (logged), so none is delayed"
log "no followed file, no delay: dd took $(dd_seconds "$RB_ERR") s (50 delays would be $(calc "50 * $adj / 1e9") s)"
rb_ok "--record-path matching the file: exit 0" "${EM[@]}" --record-path "$S/da*" -- "${DD[@]}"
adj=$(read_delay)
t=$(dd_seconds "$RB_ERR")
assert_num "its reads are delayed (${t} s)" "$t * 1e9 >= 50 * $adj"

section "--allow-partial"
result "$S/fast2.json" grouped $D /dev/zram1 "" "$(op read 100 200000)" \
	"$(op trim 1 1000)" "$(op fsync 10 1500.5)"
rb "--emulate" "$S/slow.json" --baseline "$S/fast2.json" -- true
assert_rc 1 "fsync not slower: exit 1"
assert_eq "rebench: --emulate: not slower in $S/slow.json than in $S/fast2.json: fsync (1001 ns per operation in $S/slow.json, 1500.5 in $S/fast2.json); a delay cannot make this machine faster: add --allow-partial to emulate the other operations and leave this one out" \
	"$RB_ERR" "fsync not slower: the message names it and both figures"
rb_ok "--allow-partial: exit 0" --emulate "$S/slow.json" --baseline "$S/fast2.json" --allow-partial -- "${DD[@]}"
assert_eq "$(printf '  %-9s %12s %12s %12s %12s  %s' fsync 1001 1500.5 -500 - 'left out (--allow-partial): not slower than the baseline, and a delay cannot speed it up')" \
	"$(<<<"$RB_ERR" grep '^  fsync')" "--allow-partial: fsync is left out, and says why (-499.5 rounds to -500)"
adj=$(read_delay)
t=$(dd_seconds "$RB_ERR")
assert_num "--allow-partial: the reads are still delayed (${t} s)" "$t * 1e9 >= 50 * $adj"

# ---------------------------------------------------------------- refusals
section "bad arguments: exit 1, nothing run"
# refused1 WHAT FIRST-LINE ARGS...: exit 1, stderr's first line exactly
refused1() {
	local what=$1 want=$2
	shift 2
	rb "$@"
	assert_rc 1 "$what: exit 1"
	assert_eq "$want" "$(<<<"$RB_ERR" sed -n 1p)" "$what: the message"
	assert_eq "" "$(ls "$S/ran" 2>/dev/null)" "$what: nothing ran"
}
RUN=(touch "$S/ran")
refused1 "no --baseline" "rebench: --emulate $S/slow.json needs --baseline FAST.json: this machine's result of a grouped replay of the same log (rebench --replay LOG --replay-mode grouped --json TARGET > FAST.json)" \
	--emulate "$S/slow.json" -- "${RUN[@]}"
refused1 "--baseline alone" "rebench: --baseline $S/fast.json is this machine's result for --emulate SLOW.json, the slow device's: give both" \
	--baseline "$S/fast.json" -- "${RUN[@]}"
refused1 "no COMMAND" "rebench: --emulate needs a COMMAND to run: rebench --emulate $S/slow.json --baseline $S/fast.json -- COMMAND [ARGS...]" \
	"${EM[@]}" --
refused1 "a workload option" "rebench: -o has no meaning with --emulate, which takes --baseline, --allow-partial, --record and --record-path before the COMMAND" \
	"${EM[@]}" -o read -- "${RUN[@]}"
refused1 "--delay with --emulate" "rebench: --delay gives the delays by hand and --emulate computes them from two results: give one of the two" \
	"${EM[@]}" --delay read=1ms -- "${RUN[@]}"
refused1 "--emulate twice" "rebench: --emulate is given twice" \
	"${EM[@]}" --emulate "$S/slow.json" -- "${RUN[@]}"
refused1 "--emulate without a file" "rebench: --emulate needs a file name" --emulate
refused1 "one file twice" "rebench: --emulate $S/slow.json and --baseline $S/slow.json are one file: --emulate takes the slow device's result, --baseline this machine's" \
	--emulate "$S/slow.json" --baseline "$S/slow.json" -- "${RUN[@]}"
cp "$S/fast.json" "$S/keep.json"
refused1 "a log over a result" "rebench: --record $S/fast.json is the --baseline file: the log would overwrite it; give the log a name of its own" \
	"${EM[@]}" --record "$S/fast.json" -- "${RUN[@]}"
assert_eq "$(file_sum "$S/keep.json")" "$(file_sum "$S/fast.json")" "a log over a result: the result is intact"
rb "${EM[@]}" --help
assert_rc 0 "--help: exit 0"
assert_match '^rebench --emulate SLOW.json --baseline FAST.json \[--allow-partial\]' "$RB_OUT" "--help: the usage on stdout"

section "files that are not results: exit 1, with the file, line, column and why"
refused1 "a missing file" "rebench: --emulate: $S/nope.json: cannot open it: No such file or directory" \
	--emulate "$S/nope.json" --baseline "$S/fast.json" -- "${RUN[@]}"
refused1 "a directory" "rebench: --baseline: $S: cannot open it: it is a directory; rebench reads regular files, pipes and FIFOs" \
	--emulate "$S/slow.json" --baseline "$S" -- "${RUN[@]}"
: >"$S/empty.json"
refused1 "an empty file" "rebench: --baseline: $S/empty.json: line 1, column 1: the file is empty: a JSON value was expected (rebench writes one with --json)" \
	--emulate "$S/slow.json" --baseline "$S/empty.json" -- "${RUN[@]}"
printf 'slow device\n' >"$S/text.json"
refused1 "text" "rebench: --emulate: $S/text.json: line 1, column 1: 'slow' is not a JSON value: the words are true, false and null, in lower case, and a string is in double quotes" \
	--emulate "$S/text.json" --baseline "$S/fast.json" -- "${RUN[@]}"
head -n 5 "$S/slow.json" >"$S/cut.json"
refused1 "a result cut short" "rebench: --emulate: $S/cut.json: line 6, column 1: the file ends inside the object that began at line 2, column 12: a '}' is missing" \
	--emulate "$S/cut.json" --baseline "$S/fast.json" -- "${RUN[@]}"
sed 's/"ns_per_op": 200000/"ns_per_op": "200000"/' "$S/fast.json" >"$S/str.json"
col=$(awk 'NR == 6 { print index($0, "\"200000\"") }' "$S/str.json")
refused1 "ns_per_op as a string" "rebench: --baseline: $S/str.json: line 6, column $col: replay.per_op[0].ns_per_op is a string; a number was expected: not the JSON of a rebench --replay (make it with rebench --replay LOG --replay-mode grouped --json TARGET > FILE)" \
	--emulate "$S/slow.json" --baseline "$S/str.json" -- "${RUN[@]}"
rb -p -d 0.2 --json "$S/data"
printf '%s\n' "$RB_OUT" >"$S/run.json"
refused1 "a run's JSON" "rebench: --baseline: $S/run.json is not the JSON result of a rebench --replay: it has no \"replay\" object (the JSON of a run, a sweep or a suite?); make one with rebench --replay LOG --replay-mode grouped --json TARGET > FILE" \
	--emulate "$S/slow.json" --baseline "$S/run.json" -- "${RUN[@]}"

section "results that cannot be emulated: exit 1"
result "$S/asap.json" asap $D /dev/zram1 "" "$(op read 100 200000)"
refused1 "an asap replay" "rebench: --baseline: $S/asap.json was replayed asap; --emulate needs --replay-mode grouped, whose per-operation times are db4o's (each type of operation timed alone): replay the log again with --replay-mode grouped" \
	--emulate "$S/slow.json" --baseline "$S/asap.json" -- "${RUN[@]}"
result "$S/timed.json" timed $D /dev/loop3 "" "$(op read 100 200000)"
refused1 "a timed replay" "rebench: --emulate: $S/timed.json was replayed timed; --emulate needs --replay-mode grouped, whose per-operation times are db4o's (each type of operation timed alone): replay the log again with --replay-mode grouped" \
	--emulate "$S/timed.json" --baseline "$S/fast.json" -- "${RUN[@]}"
result "$S/delayed.json" grouped $D /dev/loop3 ' "delay": "read=8000ns",' "$(op read 100 2200000)"
refused1 "a replay under --delay" "rebench: --emulate: $S/delayed.json was replayed with --delay read=8000ns: its times are the device's plus those delays, not the device's own; replay the log again without --delay" \
	--emulate "$S/delayed.json" --baseline "$S/fast.json" -- "${RUN[@]}"
result "$S/other.json" grouped fedcba9876543210 /dev/zram1 "" "$(op read 100 200000)" \
	"$(op trim 1 1000)" "$(op fsync 10 1000)"
sed -i "s|$S/app.log|$S/other.log|" "$S/other.json"
refused1 "results of different logs" "rebench: --emulate: $S/slow.json and $S/other.json are replays of different logs ($S/slow.json: $S/app.log, digest $D; $S/other.json: $S/other.log, digest fedcba9876543210): --emulate compares the same operations on two devices; replay one log on both" \
	--emulate "$S/slow.json" --baseline "$S/other.json" -- "${RUN[@]}"
result "$S/nofsync.json" grouped $D /dev/zram1 "" "$(op read 100 200000)" "$(op trim 1 1000)"
refused1 "an operation in one result only" "rebench: --emulate: $S/slow.json and $S/nofsync.json do not describe the same operations although their logs' digests agree ($D): fsync is in $S/slow.json (10 operations) but not in $S/nofsync.json; they must be replays of the same log" \
	--emulate "$S/slow.json" --baseline "$S/nofsync.json" -- "${RUN[@]}"
result "$S/count.json" grouped $D /dev/zram1 "" "$(op read 99 200000)" \
	"$(op trim 1 1000)" "$(op fsync 10 1000)"
refused1 "another count of an operation" "rebench: --emulate: $S/slow.json and $S/count.json do not describe the same operations although their logs' digests agree ($D): read has 100 operations in $S/slow.json and 99 in $S/count.json; they must be replays of the same log" \
	--emulate "$S/slow.json" --baseline "$S/count.json" -- "${RUN[@]}"
refused1 "the two swapped" "rebench: --emulate: no operation is slower in $S/fast.json than in $S/slow.json: read (200000 ns per operation in $S/fast.json, 2200000 in $S/slow.json), fsync (1000 ns per operation in $S/fast.json, 1001 in $S/slow.json); there is nothing to emulate: is $S/fast.json the slow device's result (--emulate) and $S/slow.json this machine's (--baseline)?" \
	--emulate "$S/fast.json" --baseline "$S/slow.json" --allow-partial -- "${RUN[@]}"

section "a COMMAND that cannot run under the interposer: exit 2, nothing run"
rb "${EM[@]}" -- no-such-command-rebench "$S/ran"
assert_rc 2 "a COMMAND not found: exit 2"
assert_match "^rebench: --emulate: cannot run no-such-command-rebench: not found in PATH \\(" "$RB_ERR" \
	"a COMMAND not found: the reason"
assert_no_match "calibration|slow ns/op" "$RB_ERR" \
	"a COMMAND not found: refused before the plan is printed"
printf '#include <stdio.h>\nint main(int c, char **v) { FILE *f = fopen(v[1], "w"); return !f; }\n' >"$S/static.c"
if cc -static -o "$S/static" "$S/static.c" 2>"$S/cc.err"; then
	rb "${EM[@]}" -- "$S/static" "$S/ran"
	assert_rc 2 "a static COMMAND: exit 2"
	assert_match "^rebench: --emulate: $S/static is statically linked" "$RB_ERR" "a static COMMAND: the reason"
	assert_eq "" "$(ls "$S/ran" 2>/dev/null)" "a static COMMAND: it did not run"
else
	log "no static libc (cc -static failed: $(head -n 1 "$S/cc.err")): the static COMMAND is test_record's"
fi
