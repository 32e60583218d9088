#!/usr/bin/env bash
# test_trace_fio.sh - fio iologs both ways (issue 14, Export and import).
#
# Export: tests/progs/record_calls is recorded in a scratch directory, its
# log written as fio iolog v3 by --trace-to fio, and fio replays that
# iolog on the same scratch files: fio's counts of reads, writes, bytes
# and syncs must be those of --trace-stats -n less what the export drops
# (failed calls, seeks, ftruncate: the counts on stderr are checked too).
# Import: an iolog fio writes itself (--write_iolog of a small job on a
# scratch file) is read by --trace-stats with fio's own counts; a v2 log
# and a round trip (the exported iolog read back) too.  Bad input is
# refused with the line and why; --output follows the rule of every
# output path.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd fio jq awk
PROG=$TESTS_ROOT/tests/progs/record_calls
LIB=$TESTS_ROOT/librebench-record.so
[ -x "$PROG" ] || fail "$PROG not built: run make check (or make tests/progs/record_calls)"
[ -r "$LIB" ] || fail "$LIB not built: run make"
export REBENCH_RECORD_LIB=$LIB
fio_ver=$(fio --version | sed 's/^fio-//')
num_true "$(echo "$fio_ver" | awk -F. '{ print ($1 > 3 || ($1 == 3 && $2 >= 31)) }')" ||
	skip "fio $fio_ver replays iolog v3 only from 3.31"

S=$(realpath "$SCRATCH")
mkdir -p "$S/calls"

# stat TYPE FIELD: a field of the -n line of TYPE in RB_OUT (2 count,
# 4 bytes, 8 failed)
stat_of() { <<<"$RB_OUT" awk -v t="$1" -v n="$2" '$1 == t { print $n }'; }

section "export: a recorded log, replayed by fio"
rb_ok "record record_calls" --record "$S/calls.log" -- "$PROG" "$S/calls"
rb_ok "--trace-stats -n" --trace-stats "$S/calls.log" -n
reads=$(( $(stat_of read 2) - $(stat_of read 8) ))
writes=$(( $(stat_of write 2) - $(stat_of write 8) ))
rbytes=$(stat_of read 4)
wbytes=$(stat_of write 4)
fsyncs=$(stat_of fsync 2)
fdsyncs=$(stat_of fdatasync 2)
seeks=$(stat_of seek 2)
truncs=$(stat_of truncate 2)
failed=$(<<<"$RB_OUT" awk '$1 == "total" { print $8 }')

rb_ok "--trace-to fio --output" --trace-to fio "$S/calls.log" --output "$S/calls.iolog"
assert_eq "" "$RB_OUT" "--output: nothing on stdout"
assert_eq "fio version 3 iolog" "$(head -n 1 "$S/calls.iolog")" "the first line is fio's v3 header"
assert_match "$(( reads + writes + fsyncs + fdsyncs + 6 )) of 24 calls written to $S/calls.iolog \(3 open, 3 close, $reads read, $writes write, $fsyncs fsync, $fdsyncs fdatasync\)" \
	"$RB_ERR" "stderr: what was written"
assert_match "not written .*: $seeks seek \(the offsets are in the reads and writes\), $truncs truncate, $failed failed calls" \
	"$RB_ERR" "stderr: lseek, ftruncate and failed calls dropped with their counts"
rb_ok "--trace-to fio to stdout" --trace-to fio "$S/calls.log"
assert_eq "$(<"$S/calls.iolog")" "$RB_OUT" "stdout holds the same iolog"
awk 'NR > 1 && (NF != 3 && NF != 5) { bad++ } NR > 2 && $1 + 0 < last { bad++ } NR > 1 { last = $1 + 0 }
     END { exit bad > 0 }' "$S/calls.iolog" &&
	pass "every line is TIME FILE ACTION [OFFSET LENGTH], times never going back" ||
	check_failed "every line is TIME FILE ACTION [OFFSET LENGTH]" "$(<"$S/calls.iolog")"

(cd "$S" && timeout 60 fio --name=replay --read_iolog="$S/calls.iolog" --ioengine=psync \
	--output-format=json --output="$S/replay.json") >"$S/fio.err" 2>&1 ||
	fail "fio --read_iolog failed: $(<"$S/fio.err")"
fj() { jq -r ".jobs[0].$1" "$S/replay.json"; }
assert_eq 0 "$(fj error)" "fio replayed the iolog without an error"
assert_eq "$reads" "$(fj read.total_ios)" "fio's reads = the log's reads that did not fail"
assert_eq "$writes" "$(fj write.total_ios)" "fio's writes = the log's writes"
assert_eq "$rbytes" "$(fj read.io_bytes)" "fio's bytes read = the log's"
assert_eq "$wbytes" "$(fj write.io_bytes)" "fio's bytes written = the log's"
# fio's sync.total_ios counts fsync; its latency samples every flush
assert_eq "$fsyncs" "$(fj sync.total_ios)" "fio's fsyncs = the log's"
assert_eq "$(( fsyncs + fdsyncs ))" "$(fj sync.lat_ns.N)" "fio's flushes (fsync + fdatasync) = the log's"

section "export: replayed elsewhere, by rewriting its paths (man page)"
# the man page's recipe (not fio's replay_redirect, which aborts on the
# sqlite3 and PostgreSQL exports): copies of the files, and a sed of the
# iolog's paths onto them; fio's counts are still the log's
cp -a "$S/calls" "$S/copy"
sed "s| $S/calls/| $S/copy/|" "$S/calls.iolog" >"$S/copy.iolog"
assert_eq 0 "$(grep -c " $S/calls/" "$S/copy.iolog")" "the rewritten iolog names no recorded path"
(cd "$S" && timeout 60 fio --name=replay --read_iolog="$S/copy.iolog" --ioengine=psync \
	--output-format=json --output="$S/copy.json") >"$S/fio.err" 2>&1 ||
	fail "fio --read_iolog of the rewritten iolog failed: $(<"$S/fio.err")"
cj() { jq -r ".jobs[0].$1" "$S/copy.json"; }
assert_eq 0 "$(cj error)" "the rewritten iolog: fio replayed it without an error"
assert_eq "$reads $writes $rbytes $wbytes $(( fsyncs + fdsyncs ))" \
	"$(cj read.total_ios) $(cj write.total_ios) $(cj read.io_bytes) $(cj write.io_bytes) $(cj sync.lat_ns.N)" \
	"the rewritten iolog: fio's reads, writes, bytes and flushes = the log's"

section "export: sqlite3 (a directory fsynced, a journal made and removed)"
if command -v sqlite3 >/dev/null; then
	mkdir -p "$S/db"
	{ printf 'PRAGMA synchronous=FULL;\nCREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT);\n'
	  for i in $(seq 10); do echo "INSERT INTO t(v) VALUES ('row $i');"; done; } >"$S/ins.sql"
	rb_ok "record sqlite3" --record "$S/sq.log" --record-path "$S/db*" -- sqlite3 "$S/db/t.db" <"$S/ins.sql"
	rb_ok "--trace-stats -n of sqlite3" --trace-stats "$S/sq.log" -n
	dirsyncs=$(awk -v d="$S/db" '$5 == d && $3 == "fdatasync"' "$S/sq.log" | wc -l)
	sq_reads=$(awk '$3 ~ /read/ && $8 > 0' "$S/sq.log" | wc -l)
	sq_writes=$(awk '$3 ~ /write/ && $8 > 0' "$S/sq.log" | wc -l)
	sq_flush=$(( $(stat_of fsync 2) + $(stat_of fdatasync 2) - dirsyncs ))
	rb_ok "--trace-to fio of sqlite3's log" --trace-to fio "$S/sq.log" --output "$S/sq.iolog"
	assert_match "calls on directories" "$RB_ERR" "the directory's calls are dropped and counted"
	grep -q " $S/db add" "$S/sq.iolog" && check_failed "no line on the directory" "$(grep " $S/db " "$S/sq.iolog" | head -3)" ||
		pass "no line on the directory"
	(cd "$S" && timeout 60 fio --name=replay --read_iolog="$S/sq.iolog" --ioengine=psync \
		--output-format=json --output="$S/sq.json") >"$S/fio.err" 2>&1 ||
		fail "fio --read_iolog of sqlite3's iolog failed: $(cat "$S/fio.err" "$S/sq.json" | head -5)"
	sj() { jq -r ".jobs[0].$1" "$S/sq.json"; }
	assert_eq 0 "$(sj error)" "fio replayed sqlite3's iolog without an error"
	assert_eq "$sq_reads" "$(sj read.total_ios)" "fio's reads = sqlite3's reads that moved bytes"
	assert_eq "$sq_writes" "$(sj write.total_ios)" "fio's writes = sqlite3's writes"
	assert_eq "$sq_flush" "$(sj sync.lat_ns.N)" "fio's flushes = sqlite3's, less the directory's"
else
	log "sqlite3 not installed: its export is not tested"
fi

section "import: an iolog fio wrote"
truncate -s 64k "$S/fio.dat"
(cd "$S" && timeout 60 fio --name=w --filename="$S/fio.dat" --size=64k --bs=4k --rw=randrw \
	--randseed=7 --fsync=3 --ioengine=psync --write_iolog="$S/fio.iolog" \
	--output-format=json --output="$S/w.json") >"$S/fio.err" 2>&1 ||
	fail "fio --write_iolog failed: $(<"$S/fio.err")"
wj() { jq -r ".jobs[0].$1" "$S/w.json"; }
rb_ok "--trace-stats on fio's iolog" --trace-stats "$S/fio.iolog" -n
assert_eq "$(wj read.total_ios)" "$(stat_of read 2)" "reads: fio's count"
assert_eq "$(wj write.total_ios)" "$(stat_of write 2)" "writes: fio's count"
assert_eq "$(wj read.io_bytes)" "$(stat_of read 4)" "bytes read: fio's"
assert_eq "$(wj write.io_bytes)" "$(stat_of write 4)" "bytes written: fio's"
assert_eq "$(wj sync.lat_ns.N)" "$(stat_of fsync 2)" "syncs: fio's"
rb_ok "--trace-stats --json on fio's iolog" --trace-stats "$S/fio.iolog" --json
assert_eq "fio iolog 3" "$(jqr '.log_format + " " + (.log_version | tostring)')" "JSON names the format and its version"
rb_ok "--trace-stats (human) on fio's iolog" --trace-stats "$S/fio.iolog"
assert_match "^Trace $S/fio.iolog \(fio iolog 3\)" "$RB_OUT" "the human form names the format"

section "import: a round trip and version 2"
rb_ok "--trace-stats on the exported iolog" --trace-stats "$S/calls.iolog" -n
assert_eq "$reads $writes $fsyncs $fdsyncs" \
	"$(stat_of read 2) $(stat_of write 2) $(stat_of fsync 2) $(stat_of fdatasync 2)" \
	"the exported iolog reads back with the counts written"
printf 'fio version 2 iolog\n/f add\n/f open\n/f write 0 4096\n/f wait 1000 0\n/f read 0 512\n/f sync 0 0\n/f datasync 0 0\n/f trim 0 4096\n/f close\n' >"$S/v2.iolog"
rb_ok "--trace-stats on a v2 iolog" --trace-stats "$S/v2.iolog" -n
assert_eq "1 1 1 1 1 1 1" \
	"$(stat_of open 2) $(stat_of close 2) $(stat_of read 2) $(stat_of write 2) $(stat_of fsync 2) $(stat_of fdatasync 2) $(stat_of fallocate 2)" \
	"v2: open, close, read, write, sync, datasync and trim (as fallocate) counted; add and wait are no calls"
assert_eq 1000000 "$(<<<"$RB_OUT" awk 'NR == 1 { print $7 }')" "v2: a wait of 1000 us is 1 ms of the span"

section "import: blkparse's text"
# blkparse's default format (blkparse(1)); only D (issued) lines count
cat >"$S/bp.txt" <<'EOT'
  7,0    1        1     0.000000000  4162  Q   W 0 + 8 [dd]
  7,0    1        2     0.000002116  4162  G   W 0 + 8 [dd]
  7,0    1        3     0.000003010  4162  P   N [dd]
  7,0    1        4     0.000005002  4162  D   W 0 + 8 [dd]
  7,0    1        5     0.000105930     0  C   W 0 + 8 [0]
  7,0    1        6     0.000201000  4162  D  WS 8 + 8 [dd]
  7,0    0        1     0.000300000  4163  D   R 0 + 16 [dd]
  7,0    0        2     0.000400000   211  D  FN [kworker/0:1H]
  7,0    0        3     0.000500000  4164  D   D 64 + 128 [blkdiscard]
CPU0 (7,0):
 Reads Queued:           1,        8KiB  Writes Queued:           2,        8KiB
Total (7,0):
 Reads Queued:           1,        8KiB  Writes Queued:           2,        8KiB
EOT
rb_ok "--trace-stats on blkparse's text" --trace-stats "$S/bp.txt" -n
assert_eq "1 8192 2 8192 1 1" \
	"$(stat_of read 2) $(stat_of read 4) $(stat_of write 2) $(stat_of write 4) $(stat_of fsync 2) $(stat_of fallocate 2)" \
	"blkparse: issued reads, writes (sectors of 512 bytes), a flush and a discard"
assert_eq "file 5 1 8192 2 8192 1 /dev/block/7:0" "$(<<<"$RB_OUT" grep '^file')" "blkparse: the device is the file"
rb_ok "--trace-to fio of blkparse's text" --trace-to fio "$S/bp.txt"
assert_match "1 fallocate" "$RB_ERR" "the discard is dropped (fio 3.33 refuses an iolog with a trim)"
printf '  7,0    1        1     0.000000000  4162  D   W 0 + 8 [dd]\n  7,0 1 2 0.1 4 D W 8 + 8 [dd]\n' >"$S/bpbad.txt"
assert_refused "a blkparse line of another format" "bpbad.txt: line 2: corrupt: not a blkparse event" \
	--trace-stats "$S/bpbad.txt"

section "bad input"
printf 'hello\n' >"$S/hello.log"
assert_refused "an unknown first line" "hello.log: not a rebench trace: the first line is not '# rebench-trace 1' .*nor 'fio version 2 iolog' or 'fio version 3 iolog'" \
	--trace-stats "$S/hello.log"
printf 'fio version 4 iolog\n' >"$S/v4.log"
assert_refused "fio iolog version 4" "v4.log: fio iolog version 4 is unknown: rebench reads versions 2 and 3" \
	--trace-stats "$S/v4.log"
printf 'fio version 3 iolog\n0 /f add\n1 /f open\n2 /f read 0\n' >"$S/fields.log"
assert_refused "a line of 4 fields" "fields.log: line 4: corrupt: 4 fields; a fio version 3 iolog line is 'TIME FILE ACTION' or 'TIME FILE ACTION OFFSET LENGTH'" \
	--trace-stats "$S/fields.log"
printf 'fio version 3 iolog\n0 /f add\n1 /f open\n2 /f frob 0 4096\n' >"$S/act.log"
assert_refused "an unknown action" "act.log: line 4: corrupt: 'frob' is not an I/O action" \
	--trace-stats "$S/act.log"
printf 'fio version 2 iolog\n/f read 0 4096\n' >"$S/noadd.log"
assert_refused "a file used before its add" "noadd.log: line 2: corrupt: read on a file without its 'add' line" \
	--trace-stats "$S/noadd.log"
printf 'fio version 3 iolog\n0 /f add\n1 /f read 0 -5\n' >"$S/len.log"
assert_refused "a negative length" "len.log: line 3: corrupt: the length '-5' is not a number of bytes" \
	--trace-stats "$S/len.log"
assert_refused "--trace-to of a corrupt log" "act.log: line 4: corrupt" \
	--trace-to fio "$S/act.log" --output "$S/never.iolog"
[ -e "$S/never.iolog" ] && check_failed "a corrupt log leaves no output" "$S/never.iolog exists" ||
	pass "a corrupt log leaves no output"
assert_refused "--trace-to an unknown format" "--trace-to 'blkparse': the one format is fio" \
	--trace-to blkparse "$S/calls.log"
assert_refused "--trace-to without LOG" "--trace-to fio needs the LOG" --trace-to fio
assert_refused "--output on a character device" "--output /dev/null: refusing to write there: it is a character device" \
	--trace-to fio "$S/calls.log" --output /dev/null
assert_refused "--output on the LOG itself" "--output $S/calls.log is the LOG being read" \
	--trace-to fio "$S/calls.log" --output "$S/calls.log"
assert_eq "# rebench-trace 1" "$(head -n 1 "$S/calls.log")" "the LOG is untouched"
assert_refused "an option of the workload grammar" "-o has no meaning with --trace-to" \
	--trace-to fio "$S/calls.log" -o write
