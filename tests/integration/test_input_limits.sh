#!/usr/bin/env bash
# test_input_limits.sh - every file rebench reads stops (issue 26, item 6):
# a device is refused at once (/dev/zero never ends), an endless pipe
# ends at the reader's byte or line limit (rebench(1), FILES), and a
# reader that waits on a FIFO whose writer never writes ends at SIGTERM
# with exit 130, saying so.  Before, each of these ran until killed.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_rebench
require_cmd jq

S=$SCRATCH
printf '%s\n' 'block-size	ops_per_s' '1024	100' '2048	90' >"$S/table.tsv"
printf '%s\n' '# rebench-trace 1' >"$S/empty.log"
rb_ok "a result to compare with" --json -d 100ms -e 1m "$S/data"
printf '%s\n' "$RB_OUT" >"$S/r.json"

# Every reader, as "OPTION ... FILE ...": the file is @ in the words.
READERS=(
	"--trace-stats @"
	"--trace-to fio @"
	"--replay @ -y $S/replayed"
	"--hosts-file @ -d 1 /dev/null"
	"--suite @ $S/data"
	"--advise btree --rows 1000000 --key-size 16 --from @"
	"--compare @ $S/r.json"
	"--emulate @ --baseline $S/r.json -- true"
)

# words READER FILE: the reader's words with FILE for @.
words() {
	local w out=()
	for w in $1; do
		[ "$w" = @ ] && w=$2
		out+=("$w")
	done
	WORDS=("${out[@]}")
}

section "(a) a device is refused at once, with the reason"
for r in "${READERS[@]}"; do
	words "$r" /dev/zero
	rb "${WORDS[@]}"
	assert_rc 1 "$r /dev/zero: exit 1"
	assert_match "/dev/zero.*it is a character device" "$RB_ERR" "$r /dev/zero: names what it is"
done
rb </dev/zero
assert_rc 1 "workload lines from /dev/zero on stdin: exit 1"
assert_match "cannot read workload lines on stdin: a line is longer than 16 KiB" "$RB_ERR" \
	"stdin: the line limit, named"

section "(b) an endless pipe ends at the reader's limit"
# rebench ends; its end closes the pipe, which ends the writer
pipe_rb() {
	local gen=$1
	shift
	RB_CMD="$gen | rebench $*"
	$gen 2>/dev/null | timeout -k 5 "$RB_TIMEOUT" "$REBENCH" "$@" >"$RB_OUT_FILE" 2>"$RB_ERR_FILE"
	RB_RC=${PIPESTATUS[1]}
	RB_ERR=$(<"$RB_ERR_FILE")
}
header_then_junk() { printf '# rebench-trace 1\n'; tr '\0' a </dev/zero; }
pipe_rb header_then_junk --trace-stats /dev/stdin
assert_rc 1 "--trace-stats of a log whose second line never ends: exit 1"
assert_match "cannot read the log after line 1: a line is longer than 64 KiB" "$RB_ERR" \
	"--trace-stats: the line limit, named"
table_then_comments() { printf 'block-size\tops_per_s\n'; yes '#'; }
pipe_rb table_then_comments --advise btree --rows 1000000 --key-size 16 --from /dev/stdin
assert_rc 1 "--advise --from an endless table: exit 1"
assert_match "cannot read it after line [0-9]+: it is longer than 16 MiB" "$RB_ERR" \
	"--from: the byte limit, named"
pipe_rb "yes #" --hosts-file /dev/stdin -d 1 /dev/null
assert_rc 1 "--hosts-file of endless comments: exit 1"
assert_match "cannot read it after line [0-9]+: it is longer than 1 MiB" "$RB_ERR" \
	"--hosts-file: the byte limit, named"
pipe_rb "yes #"
assert_rc 1 "endless comment lines on stdin: exit 1"
assert_match "stdin after line [0-9]+: it is longer than 1 MiB" "$RB_ERR" "stdin: the byte limit, named"
pipe_rb "yes #" --hosts 127.0.0.2 -d 1
assert_rc 1 "--hosts with endless comment lines on stdin: exit 1, no host asked"
assert_match "^rebench: --hosts: cannot read workload lines on stdin: it is longer than 1 MiB" "$RB_ERR" \
	"--hosts' stdin: the byte limit, named"
pipe_rb "yes" --compare /dev/stdin "$S/r.json"
assert_rc 1 "--compare of an endless document: exit 1"
assert_match "it is longer than 256 MiB" "$RB_ERR" "--compare: the byte limit, named"

section "(c) a FIFO whose writer never writes: SIGTERM ends the wait"
mkfifo "$S/fifo"
for r in "${READERS[@]}"; do
	case $r in --suite*|--emulate*) continue ;; esac	# (d)
	words "$r" "$S/fifo"
	# rebench itself gets the SIGTERM, not a timeout(1) around it: timeout
	# passes a signal on to its process group as well, and about one run
	# in 70 under load ended 143 with the FIFO read as empty.  Should
	# rebench not end, the writer's own time limit closes the FIFO.
	"$REBENCH" "${WORDS[@]}" >"$S/out" 2>"$S/err" &
	pid=$!
	# the writer's open returns once rebench has the FIFO open (its
	# signal handlers are set by then); it keeps the FIFO open, writing
	# nothing, until rebench has ended
	timeout "$RB_TIMEOUT" bash -c 'exec 3>"$1"; kill -TERM "$2"; exec sleep 600' \
		_ "$S/fifo" "$pid" &
	writer=$!
	register_pid "$writer"
	wait "$pid"
	rc=$?
	kill "$writer" 2>/dev/null
	wait "$writer" 2>/dev/null
	assert_eq 130 "$rc" "$r FIFO: SIGTERM ends it, exit 130"
	assert_match "stopped by signal 15 \(Terminated\)" "$(<"$S/err")" \
		"$r FIFO: says the signal stopped the reading"
done

section "(d) a reader that reads twice takes a regular file only"
words "--suite @ $S/data" "$S/fifo"
rb "${WORDS[@]}"
assert_rc 1 "--suite FIFO: exit 1, nothing waited for"
assert_match "it is a FIFO; rebench reads only a regular file here" "$RB_ERR" "--suite FIFO: the reason"

section "(e) the limits leave real inputs alone"
rb_ok "--trace-stats of a log" --trace-stats "$S/empty.log"
rb_ok "--advise --from a table" --advise btree --rows 1000000 --key-size 16 --from "$S/table.tsv"
rb_ok "--compare of two documents" --compare "$S/r.json" "$S/r.json"
