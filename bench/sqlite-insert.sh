#!/bin/sh
# sqlite-insert.sh DB N - the application of bench/emulate.sh and of
# docs/guide.md's walk-through: sqlite3 inserting N rows of 200 hex digits
# into DB, one transaction each, with PRAGMA synchronous=FULL (every commit
# waits for its fdatasyncs).  SQLITE_JOURNAL=MODE sets PRAGMA journal_mode
# (sqlite's default, delete, creates and deletes the rollback journal in every
# transaction; persist keeps it and zeroes its header).
db=$1
n=$2
{
	echo "PRAGMA journal_mode=${SQLITE_JOURNAL:-delete};"
	echo "PRAGMA synchronous=FULL;"
	echo "CREATE TABLE IF NOT EXISTS t(k INTEGER PRIMARY KEY, v TEXT);"
	i=0
	while [ "$i" -lt "$n" ]; do
		echo "INSERT INTO t(v) VALUES (hex(randomblob(100)));"
		i=$((i + 1))
	done
} | sqlite3 "$db" >/dev/null	# (the journal_mode pragma prints the mode)
