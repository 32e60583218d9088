#!/usr/bin/env bash
# test_record.sh - rebench --record and --trace-stats (issue 14, Record and
# Log statistics).
#
# A program of ours (tests/progs/record_calls.c) makes a known sequence of
# calls - open, pwrite, pread64, lseek64, read, writev, fsync, fdatasync,
# ftruncate, a failed openat, calls on /dev/null and a pipe (not
# recorded), a second thread, a forked child that writes and then execs a
# program that writes on the inherited descriptor and appends to a file of
# its own, creat, a failing read, fclose - and its log must be the one
# expected, line by line, once times, durations and ids are normalised.
# --record-path keeps only the matching files; COMMAND's exit status (and
# a signal's 128+N) is rebench's; an LD_PRELOAD already set is kept; the
# statistics (human on stderr after a record, and --trace-stats in human,
# -n and JSON) count what the log holds.  Bad input runs nothing: a missing
# or unreadable log, an unknown version, a corrupt line (named), a static
# COMMAND, a COMMAND not found, no COMMAND, a log path that is a device.
# The binary finds the interposer from a clone and from an installed tree.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd jq awk make
PROG=$TESTS_ROOT/tests/progs/record_calls
LIB=$TESTS_ROOT/librebench-record.so
[ -x "$PROG" ] || fail "$PROG not built: run make check (or make tests/progs/record_calls)"
[ -r "$LIB" ] || fail "$LIB not built: run make"
# the test runs a copy of the binary (common.sh): it finds the interposer
# through the environment; the layouts are tested at the end
export REBENCH_RECORD_LIB=$LIB

S=$(realpath "$SCRATCH")

# normalise [LOG]: TIME and DURATION as T and D, pid/tid as p1/main, p1/t1
# (in order of appearance), the scratch directory as DIR; comments dropped.
# Normalised lines stay as they are (p2/main may become p1/main when the
# lines of p1 are filtered out).
normalise() {
	awk -v dir="$S" '
	!/^#/ {
		split($2, id, "/")
		if (!(id[1] in P)) P[id[1]] = "p" (++np)
		if (id[2] == id[1] || id[2] == "main") t = "main"
		else { if (!(id[2] in T)) T[id[2]] = "t" (++nt); t = T[id[2]] }
		$1 = "T"; $2 = P[id[1]] "/" t; $9 = "D"
		if (index($5, dir) == 1) $5 = "DIR" substr($5, length(dir) + 1)
		print
	}' "$@"
}

# expected ERE: the lines of EXPECTED on the files matching ERE
expected() { <<<"$EXPECTED" grep -E " DIR/calls/($1) " | normalise; }

# compare_log WHAT EXPECTED LOG: line by line, with the first difference
compare_log() {
	local got
	got=$(normalise "$3")
	if [ "$got" = "$2" ]; then
		pass "$1: the log is the one expected ($(<<<"$2" wc -l) lines)"
	else
		check_failed "$1: the log is the one expected" \
			"$(diff <(printf '%s\n' "$2") <(printf '%s\n' "$got") | head -n 30)"
	fi
}

EXPECTED='T p1/main open 3 DIR/calls/data - - 3 D O_RDWR|O_CREAT|O_TRUNC,0644
T p1/main pwrite 3 DIR/calls/data 0 8192 8192 D -
T p1/main pread64 3 DIR/calls/data 0 4096 4096 D -
T p1/main lseek64 3 DIR/calls/data 4096 - 4096 D SEEK_SET
T p1/main read 3 DIR/calls/data 4096 1000 1000 D -
T p1/main writev 3 DIR/calls/data 5096 1024 1024 D 2
T p1/main fsync 3 DIR/calls/data - - 0 D -
T p1/main fdatasync 3 DIR/calls/data - - 0 D -
T p1/main ftruncate 3 DIR/calls/data 16384 - 0 D -
T p1/main openat -1 DIR/calls/missing - - -ENOENT D O_RDONLY
T p1/t1 pread 3 DIR/calls/data 8192 512 512 D -
T p2/main write 3 DIR/calls/data 6120 100 100 D -
T p2/main write 3 DIR/calls/data 6220 100 100 D -
T p2/main open 4 DIR/calls/appended - - 4 D O_WRONLY|O_CREAT|O_APPEND,0644
T p2/main write 4 DIR/calls/appended 0 50 50 D -
T p2/main write 4 DIR/calls/appended 50 50 50 D -
T p2/main close 4 DIR/calls/appended - - 0 D -
T p1/main lseek 3 DIR/calls/data 0 - 6320 D SEEK_CUR
T p1/main pwrite 3 DIR/calls/data 8192 4096 4096 D -
T p1/main close 3 DIR/calls/data - - 0 D -
T p1/main creat 3 DIR/calls/created - - 3 D O_WRONLY|O_CREAT|O_TRUNC,0600
T p1/main read 3 DIR/calls/created 0 10 -EBADF D -
T p1/main write 3 DIR/calls/created 0 10 10 D -
T p1/main fclose 3 DIR/calls/created - - 0 D -'

section "1. the known sequence, recorded line by line"
mkdir -p "$S/calls"
rb --record "$S/calls.log" -- "$PROG" "$S/calls"
assert_rc 0 "record_calls under --record: exit 0"
assert_eq "" "$RB_OUT" "nothing on stdout: it is COMMAND's"
assert_eq "# rebench-trace 1" "$(head -n 1 "$S/calls.log")" "the log starts with its format and version"
assert_match "^# command: $PROG $S/calls\$" "$(<"$S/calls.log")" "the header names the command"
compare_log "record_calls" "$EXPECTED" "$S/calls.log"
times=$(awk '!/^#/ { print $1 }' "$S/calls.log" | sort -n | head -n 1)
assert_num "times count from the start of the record (first $times ns)" "$times > 0 && $times < 60e9"
assert_match '^24 operations by 2 processes \(3 threads\) on 4 files over ' "$RB_ERR" \
	"the statistics follow on stderr"
assert_match '^fsync +1 ' "$RB_ERR" "they count the fsync"

section "2. --record-path keeps only the matching files"
rm -rf "$S/calls" && mkdir -p "$S/calls"
rb --record "$S/data.log" --record-path '*/data' -- "$PROG" "$S/calls"
assert_rc 0 "--record-path '*/data': exit 0"
compare_log "--record-path '*/data'" "$(expected data)" "$S/data.log"
rm -rf "$S/calls" && mkdir -p "$S/calls"
rb --record "$S/two.log" --record-path '*/appended' --record-path '*/created' -- "$PROG" "$S/calls"
compare_log "two --record-path patterns" "$(expected 'appended|created')" "$S/two.log"

section "3. COMMAND's exit status, signals, LD_PRELOAD, PATH"
rb --record "$S/x.log" -- sh -c 'exit 7'
assert_rc 7 "COMMAND's exit status 7 is rebench's"
rb --record "$S/x.log" -- sh -c 'kill -TERM $$'
assert_rc 143 "a COMMAND ended by SIGTERM: 128+15"
assert_match 'rebench: --record: sh was ended by signal 15 \(Terminated\)' "$RB_ERR" "and it is said"
other=$(cc -print-file-name=libm.so.6 2>/dev/null)
if [ -r "$other" ] && [ "${other#/}" != "$other" ]; then
	RB_CMD="LD_PRELOAD=$other rebench --record"
	out=$(LD_PRELOAD=$other "$REBENCH" --record "$S/x.log" -- sh -c 'printf %s "$LD_PRELOAD"' 2>/dev/null)
	assert_eq "$LIB:$other" "$out" "an LD_PRELOAD already set is kept, after the interposer"
else
	log "no libm.so.6 path from cc: the LD_PRELOAD check is left out"
fi
rb --record "$S/x.log" -n -- sh -c 'echo 1 > "$1"; (echo 2 >> "$1"); exec sh -c "echo 3 >> \"\$1\"" sh "$1"' sh "$S/shell.txt"
assert_rc 0 "a command found in PATH, which forks and execs"
assert_eq "3" "$(awk -v f="$S/shell.txt" '$3 == "write" && $5 == f' "$S/x.log" | wc -l)" \
	"the writes of the shell, of its subshell and of the program it execs are in the log"
assert_eq "2" "$(<<<"$RB_ERR" awk '$1 == "trace-stats" { print $5 }')" \
	"two processes (the exec keeps the pid): -n on stderr says so"

spaces=$(printf '%200s' '')
long="$S/$spaces/ a\\b"$'\t'"$spaces"
mkdir -p "$(dirname "$long")"
rb --record "$S/long.log" -- sh -c 'echo x > "$1"' sh "$long"
assert_rc 0 "a path of 400 spaces, a backslash and a tab: exit 0"
assert_eq "$long" "$(printf '%b' "$(awk '$3 == "write" { print $5 }' "$S/long.log")")" \
	"it is written with \\ooo escapes, on one field, and reads back as it was"
rb --trace-stats "$S/long.log" --json
assert_eq "$long" "$(jqr '.files[0].path')" "--trace-stats reads it back"

section "3b. many threads and processes: every call, whole lines"
if command -v fio >/dev/null 2>&1; then
	fio_args=(--directory="$S" --filename=fio.dat --bs=4k --size=1M --ioengine=psync --output=/dev/null)
	rb --record "$S/fio-threads.log" -- fio --name=w --rw=randwrite --numjobs=4 --thread "${fio_args[@]}"
	assert_rc 0 "fio, 4 threads writing: exit 0"
	assert_eq "1024 4" "$(awk '$3 == "pwrite64" { n++; t[$2] = 1 } END { print n, length(t) }' "$S/fio-threads.log")" \
		"4 threads x 256 pwrite64 of 4 KiB, each on a line of its own"
	rb --record "$S/fio-procs.log" -- fio --name=r --rw=randread --numjobs=3 "${fio_args[@]}"
	assert_rc 0 "fio, 3 processes reading: exit 0"
	assert_eq "768 3" "$(awk '$3 == "pread64" { n++; split($2, id, "/"); p[id[1]] = 1 } END { print n, length(p) }' "$S/fio-procs.log")" \
		"3 processes x 256 pread64"
	rb --trace-stats "$S/fio-procs.log" -n
	assert_rc 0 "and the log reads back whole"
else
	log "fio is not installed: the many-threads checks are left out (apt-get install fio)"
fi

section "4. --trace-stats in human, -n and JSON"
rb --trace-stats "$S/calls.log"
assert_rc 0 "--trace-stats: exit 0"
assert_match "^Trace $S/calls.log \\(rebench-trace 1\\): $PROG $S/calls\$" "$RB_OUT" "the human header"
assert_match '^read +4 +16\.67 +5608 +29\.16 +1869\.3 +[0-9.]+ us +1$' "$RB_OUT" \
	"read: 4 calls, 16.67% of them, 5608 bytes, 29.16% of the bytes, 1869.3 per successful read, 1 failed"
assert_match '^write +8 +33\.33 +13622 +70\.84 +1702\.8 ' "$RB_OUT" "write: 8 calls, 13622 bytes"
assert_match "^ +15 +3 +5608 +5 +13512 +2  $S/calls/data\$" "$RB_OUT" "the data file's line"
rb --trace-stats "$S/calls.log" -n
assert_rc 0 "--trace-stats -n: exit 0"
assert_eq "trace-stats 2 24 19230 2 3" "$(<<<"$RB_OUT" head -n 1 | cut -d' ' -f1-6)" \
	"-n: the first line: version, operations, bytes, processes, threads"
assert_eq "4 16.67 5608 29.16 1869.3" "$(<<<"$RB_OUT" awk '$1 == "read" { print $2, $3, $4, $5, $6 }')" \
	"-n: the read line"
assert_eq "open close read write seek fsync fdatasync sync_file_range truncate fallocate total" \
	"$(<<<"$RB_OUT" awk 'NR > 1 && $1 != "file" { printf "%s%s", s, $1; s = " " }')" \
	"-n: every type, in order, and the total"
assert_eq "4" "$(<<<"$RB_OUT" grep -c '^file ')" "-n: one line per file"
rb --trace-stats "$S/calls.log" --json
assert_rc 0 "--trace-stats --json: exit 0"
assert_eq "2 24 2 3 4 4 13622 1" \
	"$(jqr '[.trace_stats_version, .operations, .processes, .threads, (.files | length), .types.read.count, .types.write.bytes, .types.open.failed] | map(tostring) | join(" ")')" \
	"JSON: version, operations, processes, threads, files, reads, bytes written, failed opens"
assert_eq '{"write":5,"pwrite":2,"writev":1}' "$(jqr '.types.write.calls' | jq -c .)" \
	"JSON: the calls of each type"
assert_eq "null" "$(jqr '.types.fsync.avg_bytes')" "JSON: no average size for a flush"
rb --record "$S/y.log" --json -- true
assert_eq "0" "$(<<<"$RB_ERR" jq -r .operations)" "--record --json: the statistics on stderr as JSON"

section "5. bad input runs nothing"
rb --trace-stats "$S/none.log"
assert_rc 1 "a missing log: exit 1"
assert_eq "rebench: --trace-stats: $S/none.log: cannot read the log: No such file or directory" "$RB_ERR" \
	"a missing log: the message"
assert_eq "" "$RB_OUT" "a missing log: nothing on stdout"
printf '# rebench-trace 2\n1 2/2 fsync 3 /f - - 0 5 -\n' >"$S/v2.log"
rb --trace-stats "$S/v2.log"
assert_rc 1 "version 2: exit 1"
assert_match 'v2.log: rebench-trace version 2 is unknown: this rebench reads version 1' "$RB_ERR" "version 2: the message"
assert_eq "" "$RB_OUT" "version 2: nothing on stdout"
{ head -n 6 "$S/calls.log"; echo "123 4/4 pread64 3 /x - 10 10 5 -"; tail -n 3 "$S/calls.log"; } >"$S/bad.log"
rb --trace-stats "$S/bad.log" --json
assert_rc 1 "a corrupt line: exit 1"
assert_eq "rebench: --trace-stats: $S/bad.log: line 7: corrupt: field 6 (offset) is '-': pread64 has an offset" "$RB_ERR" \
	"a corrupt line: the line, the field and why"
assert_eq "" "$RB_OUT" "a corrupt line: nothing on stdout"
printf 'hello\n' >"$S/text.log"
assert_refused "a file that is no trace" "text.log: not a rebench trace: the first line is not '# rebench-trace 1'" \
	--trace-stats "$S/text.log"
chmod 000 "$S/text.log"
if [ "$(id -u)" != 0 ]; then
	assert_refused "an unreadable log" "cannot read the log: Permission denied" --trace-stats "$S/text.log"
fi

rb --record "$S/nocmd.log"
assert_rc 1 "--record without COMMAND: exit 1"
assert_match "needs a COMMAND to run: rebench --record LOG -- COMMAND" "$RB_ERR" "--record without COMMAND: the message"
assert_eq "" "$(ls "$S/nocmd.log" 2>/dev/null)" "--record without COMMAND: no log"
# a LOG left out: "--" (or an option) is not taken as the log's name
mkdir "$S/nolog"
for args in "-- true" "--record-path x -- true" "-n -- true"; do
	# shellcheck disable=SC2086  # the words of args are the arguments
	cd "$S/nolog" || fail "cd $S/nolog"
	rb --record $args
	cd "$TESTS_ROOT" || fail "cd $TESTS_ROOT"
	assert_rc 1 "--record $args (no LOG): exit 1"
	assert_match "rebench: --record: the LOG is missing \('${args%% *}' is not taken as a file name\)" "$RB_ERR" "--record $args: the message"
	assert_eq "" "$(ls -A "$S/nolog")" "--record $args: no file created"
done
assert_refused "--trace-stats without LOG" "rebench: --trace-stats: the LOG is missing" --trace-stats --json
rb --record "$S/nf.log" -- no-such-command-rebench arg
assert_rc 2 "a COMMAND not found: exit 2"
assert_match "rebench: --record: cannot run no-such-command-rebench: not found in PATH" "$RB_ERR" "a COMMAND not found: the message"
assert_eq "" "$(ls "$S/nf.log" 2>/dev/null)" "a COMMAND not found: no log"
rb --record "$S/nf.log" -- "$S/calls.log"
assert_rc 2 "a COMMAND that is not executable: exit 2"
assert_match "cannot run $S/calls.log: not an executable file" "$RB_ERR" "not executable: the message"
printf '#include <stdio.h>\nint main(int c, char **v) { FILE *f = fopen(v[1], "w"); return !f; }\n' >"$S/static.c"
if cc -static -o "$S/static" "$S/static.c" 2>"$S/cc.err"; then
	rb --record "$S/st.log" -- "$S/static" "$S/ran"
	assert_rc 2 "a static COMMAND: exit 2"
	assert_match "$S/static is statically linked \\(its ELF header has no PT_INTERP: no dynamic loader\\), so an LD_PRELOAD interposer cannot see its calls" \
		"$RB_ERR" "a static COMMAND: the reason"
	assert_eq "" "$(ls "$S/ran" "$S/st.log" 2>/dev/null)" "a static COMMAND: it did not run, no log"
	printf '#!%s\n' "$S/static" >"$S/script"
	chmod +x "$S/script"
	rb --record "$S/st.log" -- "$S/script"
	assert_rc 2 "a script whose interpreter is static: exit 2"
	assert_match "the interpreter $S/static of $S/script is statically linked" "$RB_ERR" "and the reason names both"
else
	log "cc -static failed, the static COMMAND checks are left out: $(head -n 1 "$S/cc.err") (apt-get install libc6-dev)"
fi
assert_refused "--record on a character device" "rebench: --record /dev/null: refusing to write there: it is a character device" \
	--record /dev/null -- true
assert_refused "--record in a missing directory" "the directory does not exist" --record "$S/nodir/x.log" -- true
assert_refused "an option --record has no use for" "-b has no meaning with --record or --trace-stats" \
	--record "$S/x.log" -b 4k -- true
assert_refused "--record and --trace-stats together" "two modes" --record "$S/x.log" --trace-stats "$S/calls.log" -- true
assert_refused "-n and --json together" "two formats" --trace-stats "$S/calls.log" -n --json
assert_refused "--trace-stats with a command" "runs nothing" --trace-stats "$S/calls.log" -- true
rb --trace-stats "$S/calls.log" --help
assert_rc 0 "--trace-stats LOG --help: exit 0"
assert_match '^rebench --record LOG \[--record-path GLOB\]\.\.\. \[-n \| --json\] -- COMMAND \[ARGS\.\.\.\]$' "$RB_OUT" \
	"--help: the usage, nothing else done"
assert_refused "--record-path with --trace-stats" "belongs to --record" --trace-stats "$S/calls.log" --record-path '*'
RB_CMD="REBENCH_RECORD_LIB=$S/nope.so rebench --record"
REBENCH_RECORD_LIB=$S/nope.so rb --record "$S/x.log" -- true
assert_rc 2 "an interposer that is not there: exit 2"
assert_match "REBENCH_RECORD_LIB=$S/nope.so: No such file or directory" "$RB_ERR" "and the message"

section "6. the interposer found from a clone and from an installed tree"
unset REBENCH_RECORD_LIB
rm -rf "$S/calls" && mkdir -p "$S/calls"
out=$("$TESTS_ROOT/rebench" --record "$S/clone.log" -- "$PROG" "$S/calls" 2>&1)
assert_eq 0 "$?" "the clone's rebench finds librebench-record.so beside it"
compare_log "from the clone" "$EXPECTED" "$S/clone.log"
if make -s -C "$TESTS_ROOT" install DESTDIR="$S/inst" PREFIX=/usr >"$S/make.out" 2>&1; then
	rm -rf "$S/calls" && mkdir -p "$S/calls"
	"$S/inst/usr/bin/rebench" --record "$S/inst.log" -- "$PROG" "$S/calls" 2>"$S/inst.err"
	assert_eq 0 "$?" "the installed rebench finds lib/rebench/librebench-record.so"
	compare_log "from the installed tree" "$EXPECTED" "$S/inst.log"
	assert_eq "yes" "$([ -f "$S/inst/usr/lib/rebench/librebench-record.so" ] && echo yes)" \
		"make install puts the interposer in LIBDIR/rebench"
else
	check_failed "make install DESTDIR=... failed" "$(tail -n 5 "$S/make.out")"
fi
