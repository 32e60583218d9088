#!/usr/bin/env bash
# test_record_sqlite.sh - a real application under rebench --record (issue
# 14): sqlite3 inserts 20 rows, one transaction each, with PRAGMA
# synchronous=FULL, into a database in a scratch directory.  The same run
# is traced by strace -f -y, which names the file of every system call, and
# for the database, its journal and its directory (sqlite3 syncs the
# directory after deleting the journal) the log's pread64, pwrite64, fsync,
# fdatasync, read and write calls are counted and compared with strace's:
# they must be equal, file by file and call by call.  Then --trace-stats
# must add up to the same counts.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd sqlite3 strace jq
LIB=$TESTS_ROOT/librebench-record.so
[ -r "$LIB" ] || fail "$LIB not built: run make"
export REBENCH_RECORD_LIB=$LIB
S=$(realpath "$SCRATCH")
mkdir -p "$S/db"

{
	echo 'PRAGMA synchronous=FULL;'
	echo 'PRAGMA journal_mode=DELETE;'
	echo 'CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT);'
	for i in $(seq 1 20); do
		echo "INSERT INTO t(v) VALUES ('row $i $(printf '%0100d' "$i")');"
	done
	echo 'SELECT count(*) FROM t;'
} >"$S/insert.sql"

CALLS=pread64,pwrite64,fsync,fdatasync,read,write
RB_CMD="strace -f -y -e trace=$CALLS rebench --record $S/sqlite.log --record-path '$S/db' --record-path '$S/db/*' -- sqlite3 $S/db/t.db"
timeout -k 5 120 strace -f -y -qq -e trace=$CALLS -o "$S/strace.out" \
	"$REBENCH" --record "$S/sqlite.log" --record-path "$S/db" --record-path "$S/db/*" -- \
	sqlite3 "$S/db/t.db" <"$S/insert.sql" >"$RB_OUT_FILE" 2>"$RB_ERR_FILE"
RB_RC=$?
RB_OUT=$(<"$RB_OUT_FILE")
RB_ERR=$(<"$RB_ERR_FILE")
assert_rc 0 "sqlite3 under strace and --record: exit 0"
assert_eq "delete 20" "$(<<<"$RB_OUT" paste -sd' ')" \
	"sqlite3 set the journal mode and inserted the 20 rows"
REC_ERR=$RB_ERR

# "CALL FILE" per system call strace saw on the database's files or its
# directory (the start of a call, finished or not; -y names the file after
# the fd)
strace_counts() {
	sed -nE 's|^[0-9]+ +([a-z0-9]+)\([0-9]+<('"$S"'/db(/[^>]*)?)>.*|\1 \2|p' "$S/strace.out" |
		sort | uniq -c | awk '{ print $2, $3, $1 }'
}

# the same from the log: each C library call named as the system call it
# makes
log_counts() {
	awk '!/^#/ {
		c = $3
		sub(/^__/, "", c); sub(/_chk$/, "", c)
		if (c == "pread") c = "pread64"
		if (c == "pwrite") c = "pwrite64"
		if (c ~ /^(pread64|pwrite64|fsync|fdatasync|read|write)$/) print c, $5
	}' "$S/sqlite.log" | sort | uniq -c | awk '{ print $2, $3, $1 }'
}

st=$(strace_counts)
lg=$(log_counts)
if [ "$st" = "$lg" ] && [ -n "$st" ]; then
	pass "the log's calls equal strace's, file by file and call by call:"
	<<<"$st" sed "s|$S/||; s/^/      /"
else
	check_failed "the log's calls equal strace's, file by file and call by call" \
		"strace:" "$st" "log:" "$lg"
fi
syncs=$(<<<"$st" awk '$1 ~ /sync/ { n += $3 } END { print n + 0 }')
assert_num "synchronous=FULL: at least one flush per transaction ($syncs)" "$syncs >= 21"
assert_eq "$S/db $S/db/t.db $S/db/t.db-journal" "$(<<<"$st" awk '{ print $2 }' | sort -u | paste -sd' ')" \
	"the directory, the database and its journal, nothing else"

rb --trace-stats "$S/sqlite.log" --json
assert_rc 0 "--trace-stats --json: exit 0"
for c in pread64 pwrite64 fdatasync fsync; do
	want=$(<<<"$st" awk -v c="$c" '$1 == c { n += $3 } END { print n + 0 }')
	case $c in
	pread64) got=$(jqr '.types.read.calls.pread64 // 0') ;;
	pwrite64) got=$(jqr '.types.write.calls.pwrite64 // 0') ;;
	*) got=$(jqr ".types.$c.count") ;;
	esac
	assert_eq "$want" "$got" "--trace-stats: $c as strace counts it ($want)"
done
written=$(jqr '[.files[].bytes_written] | add')
assert_eq "$written" "$(jqr '.types.write.bytes')" "bytes written: the files add up to the type"
assert_match "^fdatasync +$(jqr '.types.fdatasync.count') " "$REC_ERR" \
	"the statistics after the record (stderr) count the same"
