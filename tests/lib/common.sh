# common.sh - shared helpers for rebench's shell integration tests.
#
# Source it from a test script run with bash from the repository root:
#
#	. "$(dirname "$0")/../lib/common.sh"
#
# A test exits 0 (pass), 77 (skip; the reason is the last line printed) or 1
# (fail).  Checks are counted: each passing assertion prints "ok N - what",
# a failing one prints "not ok N - what" with details and the test goes on;
# fail/die stops at once.  Everything a test creates (scratch directory,
# image files, loop devices, mounts, background processes) is registered
# here and removed by one EXIT trap, on every exit path.
#
# Safety: tests only write to loop devices attached here over image files in
# the scratch directory, or to files in the scratch directory.

set -u
# rebench refuses a stdin holding data beside a TARGET: no test hands it
# the caller's stdin (a test redirects stdin for a call where it means to)
exec </dev/null
# Descriptors the caller left open (a CI runner's, perf's, an editor's)
# would be inherited by every program a test runs and shift the numbers a
# recorded log holds (test_record's "open 4" became "open 5" under perf
# record): a test starts with 0, 1 and 2 alone (and bash's own, and the
# xtrace descriptor when one is set).
for _fd in /proc/$$/fd/*; do
	_fd=${_fd##*/}
	case $_fd in 0 | 1 | 2 | 255 | "${BASH_XTRACEFD:-}") continue ;; esac
	eval "exec $_fd>&-"
done 2>/dev/null
unset _fd

TEST_NAME=$(basename "${0:-test}" .sh)
TESTS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
REBENCH=${REBENCH:-$TESTS_ROOT/rebench}
# Per-command time limit, seconds; keeps a hung rebench from hanging a test.
RB_TIMEOUT=${RB_TIMEOUT:-60}

CHECKS_PASSED=0
CHECKS_FAILED=0
FAILED_CHECKS=()
SCRATCH=
_CLEANED=

# ---------------------------------------------------------------- reporting

log() { printf '%s: %s\n' "$TEST_NAME" "$*"; }

# Heading for a group of checks.
section() { printf -- '-- %s\n' "$*"; }

pass() {
	CHECKS_PASSED=$((CHECKS_PASSED + 1))
	printf 'ok %d - %s\n' $((CHECKS_PASSED + CHECKS_FAILED)) "$*"
}

# A failed check: report it and keep going; the test exits 1 at the end.
# In a command substitution (DEV=$(make_loop ...)) stdout is captured, so
# the report goes to stderr there.
check_failed() {
	if [ "$BASH_SUBSHELL" -gt 0 ]; then
		_check_failed "$@" >&2
	else
		_check_failed "$@"
	fi
}

_check_failed() {
	CHECKS_FAILED=$((CHECKS_FAILED + 1))
	printf 'not ok %d - %s\n' $((CHECKS_PASSED + CHECKS_FAILED)) "$1"
	FAILED_CHECKS+=("$((CHECKS_PASSED + CHECKS_FAILED)) - $1")
	shift
	local l
	for l in "$@"; do
		printf '    %s\n' "$l"
	done
	if [ -n "${RB_CMD:-}" ]; then
		printf '    last rebench command: %s (exit %s)\n' "$RB_CMD" "${RB_RC:-?}"
		if [ -s "${RB_ERR_FILE:-/nonexistent}" ]; then
			sed 's/^/    stderr: /' "$RB_ERR_FILE" | head -n 20
		fi
	fi
}

# Stop the test now: a failure that makes later checks meaningless.  From
# a subshell (DEV=$(make_loop ...)) the whole test is stopped, not just the
# subshell, so it never goes on with an empty device name.
fail() {
	check_failed "$@"
	if [ "$BASH_SUBSHELL" -gt 0 ]; then
		kill -USR1 "$$" 2>/dev/null
	fi
	exit 1
}
die() { fail "$@"; }

skip() {
	printf '%s\n' "$*"
	_SKIPPING=1
	exit 77
}

# ---------------------------------------------------------------- assertions

# assert_eq EXPECTED ACTUAL WHAT
assert_eq() {
	if [ "$1" = "$2" ]; then
		pass "$3"
	else
		check_failed "$3" "expected: '$1'" "actual:   '$2'"
	fi
}

assert_ne() {
	if [ "$1" != "$2" ]; then
		pass "$3"
	else
		check_failed "$3" "expected something other than '$1'"
	fi
}

# assert_match [--] ERE TEXT WHAT: some line of TEXT matches ERE (grep -E).
assert_match() {
	[ "$1" = -- ] && shift
	if <<<"$2" grep -Eq -- "$1"; then
		pass "$3"
	else
		check_failed "$3" "no line matches /$1/ in:" "$(<<<"$2" head -n 15)"
	fi
}

assert_no_match() {
	[ "$1" = -- ] && shift
	if <<<"$2" grep -Eq -- "$1"; then
		check_failed "$3" "unexpected match of /$1/ in:" "$(<<<"$2" grep -E -- "$1" | head -n 5)"
	else
		pass "$3"
	fi
}

# assert_rc EXPECTED WHAT: exit status of the last rb/rb_* command.
assert_rc() {
	if [ "${RB_RC:-}" = "$1" ]; then
		pass "$2"
	else
		check_failed "$2" "expected exit status $1, got ${RB_RC:-none}" \
			"stdout: $(head -c 600 "$RB_OUT_FILE" 2>/dev/null)"
	fi
}

# assert_num WHAT EXPR: a numeric comparison evaluated by awk, for example
#	assert_num "p50 <= p90" "$p50 <= $p90"
assert_num() {
	if awk "BEGIN { exit !($2) }" </dev/null 2>/dev/null; then
		pass "$1"
	else
		check_failed "$1" "false: $2"
	fi
}

# num_true EXPR: awk arithmetic as a shell condition.
num_true() { awk "BEGIN { exit !($1) }" </dev/null 2>/dev/null; }

# calc EXPR: print the value of an awk expression.
calc() { awk "BEGIN { printf \"%.10g\", ($1) }" </dev/null; }

# ---------------------------------------------------------------- requirements

require_root() {
	[ "$(id -u)" = 0 ] || skip "needs root (loop devices and block device I/O); run as root"
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "needs the '$c' command; install it (see make deps)"
	done
}

require_loop() {
	require_root
	require_cmd losetup
	[ -e /dev/loop-control ] || modprobe loop 2>/dev/null || true
	[ -e /dev/loop-control ] || skip "needs loop device support (/dev/loop-control missing; modprobe loop)"
}

# Check the binary exists, and test a private copy of it, so that every
# check of a script runs the same build even if ./rebench is relinked
# meanwhile.
require_rebench() {
	[ -x "$REBENCH" ] || fail "rebench binary not found at $REBENCH: run 'make' first (or set REBENCH)"
	cp -p "$REBENCH" "$SCRATCH/rebench" 2>/dev/null && REBENCH=$SCRATCH/rebench
}

# ---------------------------------------------------------------- resources

_register() {
	if [ "$1" = loops ]; then
		# what it is attached to now: cleanup detaches the number only
		# while it still is (a device the test detached itself may be
		# another test's by then)
		printf '%s\t%s\n' "$2" "$(loop_backing "$2")" >>"$SCRATCH/.loops"
	else
		printf '%s\n' "$2" >>"$SCRATCH/.$1"
	fi
}

# loop_backing DEV: what a loop device is attached to, as
# the device and inode of that file: its name changes when it is removed
# while attached, and a path alone may come back attached again.
loop_backing() {
	local f
	f=$(losetup -n -O BACK-MAJ:MIN,BACK-INO "$1" 2>/dev/null) || return 0
	printf '%s' "$f" | tr -s ' ' ' '
}

# make_model [--size SIZE] [--partition-at SECTOR] MODEL: a model device
# (workloads/model-device.sh up); prints its block device.  Removed by the
# EXIT trap, only while its loop device is still over this model's file.
# Skips the test when rebench-modeldev was not built (no libfuse3-dev).
make_model() {
	local dev whole
	[ -x "$TESTS_ROOT/rebench-modeldev" ] ||
		skip "needs rebench-modeldev (make builds it when libfuse3-dev is installed: make deps)"
	dev=$("$TESTS_ROOT/workloads/model-device.sh" up "$@") ||
		fail "model-device.sh up $* failed"
	whole=$(model_whole "$dev")
	printf '%s\t%s\n' "$dev" "$(losetup -nO BACK-FILE "$whole")" >>"$SCRATCH/.models"
	printf '%s\n' "$dev"
}

# model_whole DEV: the loop device DEV is, or is a partition of.
model_whole() {
	local name
	name=$(basename "$(readlink -f "$1")")
	[ -e "/sys/class/block/$name/partition" ] &&
		name=$(basename "$(dirname "$(readlink -f "/sys/class/block/$name")")")
	printf '/dev/%s\n' "$name"
}

# A model device's counters (rebench-modeldev(1), COUNTERS): its counters
# file, found once per device; model_snap DEV keeps them, model_delta DEV
# KEY says how much KEY grew since, model_ctr DEV KEY is KEY now.
declare -A _MODEL_COUNTERS=()
model_counters_file() {
	local whole
	whole=$(model_whole "$1")
	[ -n "${_MODEL_COUNTERS[$whole]:-}" ] ||
		_MODEL_COUNTERS[$whole]=$(dirname "$(losetup -nO BACK-FILE "$whole")")/counters
	printf '%s\n' "${_MODEL_COUNTERS[$whole]}"
}
model_snap() { cat "$(model_counters_file "$1")" >"$SCRATCH/.model-snap" || fail "cannot read $1's counters"; }
model_delta() {
	awk -v k="$2" 'FNR == NR { if ($1 == k) o = $2; next } $1 == k { print $2 - o }' \
		"$SCRATCH/.model-snap" "$(model_counters_file "$1")"
}
model_ctr() { awk -v k="$2" '$1 == k { print $2 }' "$(model_counters_file "$1")"; }

# make_image SIZE: an image file in the scratch dir filled with random,
# non-zero data.  Prints its path.  SIZE takes the k/M/G suffixes of dd.
make_image() {
	local size=$1 img mib
	img=$(mktemp "$SCRATCH/img.XXXXXX") || fail "mktemp failed"
	mib=$(numfmt --from=iec "$(printf '%s' "${size%[bB]}" | tr "[:lower:]" "[:upper:]")" 2>/dev/null) ||
		fail "bad image size $size"
	mib=$((mib / 1048576))
	[ "$mib" -ge 1 ] || fail "image size $size below 1 MiB"
	dd if=/dev/urandom of="$img" bs=1M count="$mib" status=none 2>/dev/null ||
		fail "cannot fill $img"
	printf '%s\n' "$img"
}

# make_loop SIZE [SECTOR_SIZE]: attach a loop device over a new image with
# random data; prints the device (e.g. /dev/loop3).  Partitions in the image
# get nodes (-P).  Detached by the EXIT trap.
make_loop() {
	local img dev
	img=$(make_image "$1") || exit 1
	if [ -n "${2:-}" ]; then
		dev=$(losetup -f --show -P --sector-size "$2" "$img") ||
			fail "losetup --sector-size $2 failed"
	else
		dev=$(losetup -f --show -P "$img") || fail "losetup failed"
	fi
	_register loops "$dev"
	printf '%s\n' "$dev"
}

# loop_from_image IMG [SECTOR_SIZE]: attach an existing scratch image.
loop_from_image() {
	local dev
	case $1 in "$SCRATCH"/*) ;; *) fail "refusing to attach $1: not in the scratch dir" ;; esac
	if [ -n "${2:-}" ]; then
		dev=$(losetup -f --show -P --sector-size "$2" "$1") || fail "losetup failed"
	else
		dev=$(losetup -f --show -P "$1") || fail "losetup failed"
	fi
	_register loops "$dev"
	printf '%s\n' "$dev"
}

# Make the partition nodes of a loop device appear (there is no udev).
loop_partitions() {
	local dev=$1
	partx -u "$dev" >/dev/null 2>&1 || partx -a "$dev" >/dev/null 2>&1 || true
	wait_until test -b "${dev}p1"
}

# mount_dev DEV DIR [OPTIONS]: mount and register for unmounting.
mount_dev() {
	mkdir -p "$2" || fail "mkdir $2"
	mount ${3:+-o "$3"} "$1" "$2" || fail "cannot mount $1 on $2"
	_register mounts "$2"
}

# try_mount DEV DIR [OPTIONS]: like mount_dev, but returns 1 on failure.
try_mount() {
	mkdir -p "$2" || return 1
	mount ${3:+-o "$3"} "$1" "$2" 2>/dev/null || return 1
	_register mounts "$2"
}

# fast_and_slow SIZE: two ext4 filesystems of SIZE (k/M/G), each holding a
# 16 MiB file "pages" of random data: $FAST_DIR on $FAST_DEV, a zram
# device of the test's own (make_zram; memory: a fast device) and
# $SLOW_DIR on $SLOW_DEV, a loop device with direct I/O over an image in
# the scratch dir (its writes and flushes reach the disk).  Both are
# unmounted and removed on every exit.
fast_and_slow() {
	local d
	require_zram
	require_cmd mkfs.ext4
	FAST_DIR=$(realpath "$SCRATCH")/fast
	SLOW_DIR=$(realpath "$SCRATCH")/slow
	FAST_DEV=$(make_zram "$1")
	mkfs.ext4 -q "$FAST_DEV" || fail "mkfs.ext4 $FAST_DEV failed"
	mount_dev "$FAST_DEV" "$FAST_DIR"
	SLOW_DEV=$(losetup -f --show --direct-io=on "$(make_image "$1")") ||
		fail "losetup --direct-io=on failed"
	_register loops "$SLOW_DEV"
	mkfs.ext4 -q "$SLOW_DEV" || fail "mkfs.ext4 $SLOW_DEV failed"
	mount_dev "$SLOW_DEV" "$SLOW_DIR"
	for d in "$FAST_DIR" "$SLOW_DIR"; do
		dd if=/dev/urandom of="$d/pages" bs=1M count=16 status=none ||
			fail "cannot lay out $d/pages"
	done
	sync
}

# Remember a background process to kill if the test exits early.
register_pid() { _register pids "$1"; }

# data_sum: one word that changes when the data on stdin does: its CRC-32
# and length (cksum).  The sums here tell changed data from unchanged, not
# data made to collide, and the suite takes hundreds: sha256sum spent
# 0.15 s of CPU on a 64 MiB device, cksum 0.02 s.
data_sum() { cksum | tr ' ' .; }

# dev_sum DEV [OFFSET LENGTH]: data_sum of a device (or a byte range of
# it), read with O_DIRECT so the page cache cannot hide what is on the
# device.
dev_sum() {
	local dev=$1
	if [ $# -ge 3 ]; then
		dd if="$dev" iflag=direct,skip_bytes,count_bytes skip="$2" count="$3" \
			bs=1M status=none | data_sum
	else
		dd if="$dev" iflag=direct bs=1M status=none | data_sum
	fi
}

# file_sum FILE: data_sum of a regular file.
file_sum() { data_sum <"$1"; }

cleanup() {
	local rc=$? f p
	[ -n "$_CLEANED" ] && return
	_CLEANED=1
	trap - EXIT INT TERM HUP USR1
	jq_flush
	if [ -n "$SCRATCH" ] && [ -d "$SCRATCH" ]; then
		if [ -f "$SCRATCH/.pids" ]; then
			while read -r p; do
				kill -9 "$p" 2>/dev/null
			done <"$SCRATCH/.pids"
			sleep 0.1
		fi
		if [ -f "$SCRATCH/.mounts" ]; then
			tac "$SCRATCH/.mounts" | while read -r f; do
				mountpoint -q "$f" 2>/dev/null && { umount "$f" 2>/dev/null || umount -l "$f"; }
			done
		fi
		if [ -f "$SCRATCH/.loops" ]; then
			tac "$SCRATCH/.loops" | while IFS=$'\t' read -r f p; do
				[ -n "$p" ] && [ "$(loop_backing "$f")" = "$p" ] &&
					losetup -d "$f" 2>/dev/null
			done
		fi
		# after the test's mounts and loops, which may be on them
		if [ -f "$SCRATCH/.models" ]; then
			tac "$SCRATCH/.models" | while IFS=$'\t' read -r f p; do
				[ -b "$f" ] && [ "$(losetup -nO BACK-FILE "$(model_whole "$f")" 2>/dev/null)" = "$p" ] &&
					"$TESTS_ROOT/workloads/model-device.sh" down "$f"
			done
		fi
		if [ -f "$SCRATCH/.zrams" ]; then
			while read -r f; do
				zram_remove "$f"
			done <"$SCRATCH/.zrams"
		fi
		rm -rf "$SCRATCH"
	fi
	if [ "$rc" != 77 ] && [ -z "${_SKIPPING:-}" ]; then
		if [ "$CHECKS_FAILED" -gt 0 ]; then
			printf 'failed check: %s\n' "${FAILED_CHECKS[@]}"
			printf '%s: %d of %d checks failed\n' "$TEST_NAME" "$CHECKS_FAILED" \
				$((CHECKS_PASSED + CHECKS_FAILED))
			rc=1
		elif [ "$rc" = 0 ]; then
			printf '%s: all %d checks passed\n' "$TEST_NAME" "$CHECKS_PASSED"
		fi
	fi
	exit "$rc"
}

SCRATCH=$(mktemp -d /tmp/rebench-test.XXXXXX) || { echo "mktemp -d failed"; exit 1; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'echo "$TEST_NAME: stopped by a failure above"; exit 1' USR1
trap 'exit 129' HUP

# ---------------------------------------------------------------- running

RB_OUT_FILE=$SCRATCH/rb.out
RB_ERR_FILE=$SCRATCH/rb.err
RB_OUT=
RB_ERR=
RB_RC=
RB_CMD=

# A run its time limit killed, or one that crashed, is a failed check
# whatever the test looks at next: what such a run left in RB_OUT is no
# result, and a test that checks only the output would never notice.
rb_status() {
	case $RB_RC in
	124 | 137) check_failed "rebench ran past RB_TIMEOUT (${RB_TIMEOUT} s) and was killed" ;;
	132 | 134 | 135 | 136 | 139) check_failed "rebench crashed (exit $RB_RC, signal $((RB_RC - 128)))" ;;
	esac
}

# RB_NO_TTY: what makes a run have no controlling terminal.  Under
# run-tests.sh the test has none already (its own session), so nothing;
# run by hand from a terminal, setsid -w for each run (an exec each: 1.2 %
# of make check's CPU samples under perf when every run paid it).
if { : </dev/tty; } 2>/dev/null; then
	RB_NO_TTY=(setsid -w)
else
	RB_NO_TTY=()
fi

# rb ARGS...: run rebench with no controlling terminal (RB_NO_TTY), so a
# missing --yes can never hang on a question.  stdin is the caller's (give
# rb ... <FILE for stdin mode).  Sets RB_OUT, RB_ERR, RB_RC.
rb() {
	jq_flush
	RB_CMD="rebench $*"
	timeout -k 5 "$RB_TIMEOUT" "${RB_NO_TTY[@]}" "$REBENCH" "$@" >"$RB_OUT_FILE" 2>"$RB_ERR_FILE"
	RB_RC=$?
	RB_OUT=$(<"$RB_OUT_FILE")
	RB_ERR=$(<"$RB_ERR_FILE")
	rb_status
	return 0
}

# script_run [VAR=VALUE ...] SCRIPT ARGS...: a study script (workloads/,
# scripts/) with this build's rebench and plots and VAR=VALUE in its
# environment, in a session of its own (no terminal: a missing --yes never
# hangs), within SCRIPT_TIMEOUT seconds (300); sets RB_CMD, RB_OUT, RB_ERR
# and RB_RC as rb does.
script_run() {
	local envs=()
	jq_flush
	while [ $# -gt 0 ] && [[ $1 == *=* ]]; do
		envs+=("$1")
		shift
	done
	RB_CMD="${envs[*]}${envs[*]:+ }$(basename "$1") ${*:2}"
	env REBENCH="$REBENCH" REBENCH_PLOTS="$TESTS_ROOT/plots" "${envs[@]}" \
		timeout -k 5 "${SCRIPT_TIMEOUT:-300}" setsid -w bash "$@" \
		>"$RB_OUT_FILE" 2>"$RB_ERR_FILE" </dev/null
	RB_RC=$?
	RB_OUT=$(<"$RB_OUT_FILE")
	RB_ERR=$(<"$RB_ERR_FILE")
}

# rb_ok WHAT ARGS...: rb, and a check that it exited 0.
rb_ok() {
	local what=$1
	shift
	rb "$@"
	assert_rc 0 "$what"
}

# rb_pty ANSWER ARGS...: run rebench on a new pseudo-terminal (script), with
# ANSWER typed on it (empty: nothing typed).  stdin is the caller's only via
# RB_PTY_STDIN (a file) - the pty is what /dev/tty opens.  The pty echoes, so
# RB_OUT holds the prompt and the answer as well as stdout; stderr goes to
# RB_ERR.
# pty_asked DONE: rebench asked its question on the pty, or ended.
pty_asked() { grep -qF '[y/N] ' "$RB_OUT_FILE" || [ -e "$1" ]; }
rb_pty() {
	local answer=$1 cmd done
	shift
	cmd=$(printf '%q ' "$REBENCH" "$@")
	if [ -n "${RB_PTY_STDIN:-}" ]; then
		cmd="$cmd <$(printf '%q' "$RB_PTY_STDIN")"
	fi
	cmd="$cmd 2>$(printf '%q' "$RB_ERR_FILE")"
	RB_CMD="(pty, answer '$answer') rebench $*"
	# script reads the answer from its stdin and types it on the pty.  It
	# is typed once rebench has asked (the "[y/N] " on the pty), so that
	# RB_OUT shows question, then answer; stdin stays open until rebench
	# ended, as an early end of file would be an answer too.  Nothing
	# typed: the end of file is the answer, once rebench asked.
	done=$SCRATCH/.pty_done
	rm -f "$done"
	: >"$RB_OUT_FILE"
	{
		wait_until pty_asked "$done"
		if [ -n "$answer" ]; then
			[ -e "$done" ] || printf '%s\n' "$answer"
			wait_until test -e "$done"
		fi
	} | {
		timeout -k 5 "$RB_TIMEOUT" setsid -w script -qec "$cmd" /dev/null >"$RB_OUT_FILE"
		echo $? >"$done"
	}
	RB_RC=$(<"$done")
	RB_OUT=$(tr -d '\r' <"$RB_OUT_FILE")
	RB_ERR=$(<"$RB_ERR_FILE")
	rb_status
	return 0
}

# The fixed fields of an -n line in this TERSE_VERSION (report.h's
# TERSE_FIELDS): the --repeat fields start after them, then swept values.
TF=129
# the durability verdict's field
TD=95
# the first field of the ops/s interval (98-101) and --precision (102-104);
# --steady-state and --precondition are 105-112, the CPU used 113-117
TC=98
# ... and that version, -n field 13 (report.h's TERSE_VERSION)
TV=6
# --json's json_version (report.h's JSON_VERSION)
JV=7

# jqr FILTER: jq -r on the last rebench stdout.
jqr() { <<<"$RB_OUT" jq -r "$1"; }

# jq_later DOC EXPECTED FILTER WHAT: assert_eq EXPECTED "$(jq -r FILTER
# <<<DOC)" WHAT, later.  A jq costs 25 ms of CPU to start, and a test
# that checks a hundred fields of one document pays more for jq than for
# rebench: the checks queue, and jq_flush runs them all with one jq, in
# order.  They are flushed when a check on another DOC is queued, by
# jq_flush, before the next rb (so a failure names the run it checked),
# and at exit.  A filter whose results are not all scalars or
# strings (jq -r would print them indented), or that fails, gets a jq of
# its own, so every check sees what jq -r FILTER prints.
_JQ_DOC=
_JQ_EXP=()
_JQ_FILTERS=()
_JQ_WHAT=()
jq_later() {
	if [ ${#_JQ_FILTERS[@]} -gt 0 ] && [ "$1" != "$_JQ_DOC" ]; then
		jq_flush
	fi
	_JQ_DOC=$1
	_JQ_EXP+=("$2")
	_JQ_FILTERS+=("$3")
	_JQ_WHAT+=("$4")
}
jq_flush() {
	local i n=${#_JQ_FILTERS[@]} prog= v
	local -a r=()
	[ "$n" -eq 0 ] && return 0
	for ((i = 0; i < n; i++)); do
		prog+="${prog:+, }(try ([${_JQ_FILTERS[i]}] | select(all(.[]; type != \"array\" and type != \"object\")) | \"r[$i]=\" + (map(if type == \"string\" then . else tojson end) | join(\"\\n\") | @sh)) catch empty)"
	done
	eval "$(<<<"$_JQ_DOC" jq -r "$prog" 2>/dev/null)"
	for ((i = 0; i < n; i++)); do
		if [ -n "${r[i]+set}" ]; then
			v=${r[i]}
			while [[ $v == *$'\n' ]]; do v=${v%$'\n'}; done
		else
			v=$(<<<"$_JQ_DOC" jq -r "${_JQ_FILTERS[i]}" 2>/dev/null)
		fi
		assert_eq "${_JQ_EXP[i]}" "$v" "${_JQ_WHAT[i]}"
	done
	_JQ_EXP=()
	_JQ_FILTERS=()
	_JQ_WHAT=()
}

# Field N (1-based) of the first -n line of the last output.
terse_field() { <<<"$RB_OUT" awk -v n="$1" 'NF { print $n; exit }'; }

# Latency values of the human block: prints "min avg p50 p90 p99 p999 max".
human_latency() {
	printf '%s\n' "${1:-$RB_OUT}" | awk '/^Latency \(us\):/ {
		print $4, $6, $8, $10, $12, $14, $16; exit }'
}

require_rebench

# ---------------------------------------------------------------- signals

OUT=$SCRATCH/bg.out
ERR=$SCRATCH/bg.err
BG_PID=
BG_RC=
STOP_MS=

# A background job of a non-interactive shell starts with SIGINT ignored;
# give rebench the default disposition, as a terminal's Ctrl-C would find.
if env --default-signal=INT true 2>/dev/null; then
	DEFSIG=(env --default-signal=INT)
else
	DEFSIG=(python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])')
fi

# --ready-fd (what a test waits on instead of sleeping): ready_listen
# starts a reader on the FIFO $READY (an open for writing waits for one),
# then the test starts rebench with --ready-fd 3 3>"$READY", then
# ready_heard waits for rebench to close it: HEARD is every line it wrote,
# "ready" once its first measured run started, "" when none did.
ready_listen() {
	READY=$SCRATCH/ready
	[ -p "$READY" ] || mkfifo "$READY"
	timeout 60 cat "$READY" >"$SCRATCH/heard" &
	READY_READER=$!
}
ready_heard() {
	wait "$READY_READER"
	HEARD=$(<"$SCRATCH/heard")
}

# ready_started: ready_heard for the run in the background (BG_PID), and
# the test stops unless it said "ready": rebench ended first, or said
# nothing for the reader's 60 s (a hang).  READY_NS: when it was heard.
ready_started() {
	ready_heard
	READY_NS=$(date +%s%N)
	[ "$HEARD" = ready ] && return 0
	if kill -0 "$BG_PID" 2>/dev/null; then
		kill -9 "$BG_PID" 2>/dev/null
		wait "$BG_PID" 2>/dev/null
		fail "rebench did not say ready within 60 s (a hang?)" "$(<"$ERR")"
	fi
	wait "$BG_PID"
	BG_RC=$?
	fail "rebench ended (exit $BG_RC) before its measured run started" "$(<"$ERR")"
}

# spawn ARGS...: start rebench in the background (stdin from STDIN_FILE or
# /dev/null; stdout and stderr to $OUT and $ERR); BG_PID is its pid,
# SPAWN_NS the time it was started.
spawn() {
	SPAWN_NS=$(date +%s%N)
	"${DEFSIG[@]}" "$REBENCH" "$@" <"${STDIN_FILE:-/dev/null}" >"$OUT" 2>"$ERR" &
	BG_PID=$!
	register_pid "$BG_PID"
}

# pid_gone PID: the process has ended (or was never ours to see).
pid_gone() { ! kill -0 "$1" 2>/dev/null; }

# wait_until CMD...: run CMD every 50 ms until it succeeds; 1 when it has
# not after STOP_GUARD seconds (60).  For a sign that something happened
# (a file written, a line printed): the limit only ends a hang, so a
# loaded machine never reaches it.
wait_until() {
	local n=0
	until "$@"; do
		[ $n -lt $((${STOP_GUARD:-60} * 20)) ] || return 1
		sleep 0.05
		n=$((n + 1))
	done
}

# spawn_ready ARGS...: spawn rebench with --ready-fd and return once its
# first measured run has started (ready_started), however loaded the
# machine: a test's signal then reaches a running workload.
spawn_ready() {
	ready_listen
	spawn --ready-fd 3 "$@" 3>"$READY"
	ready_started
}

# bg_wait [WHAT]: wait for the background run to end; a hang guard, not a
# measure: a run still there STOP_GUARD seconds (60) on is killed and the
# test stops.  Sets BG_RC, RB_OUT, RB_ERR and EXIT_NS.
STOP_GUARD=${STOP_GUARD:-60}
bg_wait() {
	wait_until pid_gone "$BG_PID"
	EXIT_NS=$(date +%s%N)
	if kill -0 "$BG_PID" 2>/dev/null; then
		kill -9 "$BG_PID"
		wait "$BG_PID" 2>/dev/null
		fail "rebench still running $STOP_GUARD s after ${1:-it should have ended} (a hang)" "$(<"$ERR")"
	fi
	wait "$BG_PID"
	BG_RC=$?
	RB_OUT=$(<"$OUT")
	RB_ERR=$(<"$ERR")
}

# reads_of DEV: the reads DEV has completed (/sys/block/X/stat).
# wait_reads DEV R0 N: wait until DEV has completed N reads more than R0
# (reads_of DEV before the spawn): the background run is then reading it,
# however late its start on a loaded machine - a sign where --ready-fd
# does not apply (a warm-up, --hosts).  The test stops when the run ends
# first, or after 120 s (a hang).
reads_of() { awk '{ print $1 }' "/sys/block/$(basename "$1")/stat"; }
wait_reads() {
	local want=$(( $2 + $3 )) n=0
	while [ "$(reads_of "$1")" -lt "$want" ]; do
		if ! kill -0 "$BG_PID" 2>/dev/null; then
			wait "$BG_PID"
			BG_RC=$?
			fail "rebench ended (exit $BG_RC) before $3 reads on $1" "$(<"$ERR")"
		fi
		[ $n -lt 2400 ] || fail "no $3 reads on $1 within 120 s"
		sleep 0.05
		n=$((n + 1))
	done
}

# interrupt_after SECONDS [SIGNAL]: let the run go on for SECONDS (start
# it with spawn_ready, or wait for a sign that it runs, first: this sleep
# only gives it time to make progress, and no check may depend on how
# much it made), send the signal (INT), wait for the exit (bg_wait).
# Sets BG_RC, RB_OUT, RB_ERR; SIG_NS and EXIT_NS are when the signal was
# sent and the exit seen, and STOP_MS the time between, for
# bench/stop_times.sh to print: no test checks it (a loaded machine
# stretches it).
interrupt_after() {
	[ "$1" = 0 ] || sleep "$1"
	if ! kill -0 "$BG_PID" 2>/dev/null; then
		wait "$BG_PID"
		BG_RC=$?
		fail "rebench ended before the signal (exit $BG_RC)" "$(<"$ERR")"
	fi
	SIG_NS=$(date +%s%N)
	kill -"${2:-INT}" "$BG_PID"
	bg_wait "SIG${2:-INT}"
	STOP_MS=$(( (EXIT_NS - SIG_NS) / 1000000 ))
}

# ---------------------------------------------------------------- plots

# png_size FILE: "WIDTH HEIGHT" from the IHDR chunk, or "not a png".
png_size() {
	python3 - "$1" <<'EOF'
import struct, sys
try:
    d = open(sys.argv[1], "rb").read(24)
except OSError:
    print("missing"); sys.exit(0)
if len(d) < 24 or d[:8] != b"\x89PNG\r\n\x1a\n" or d[12:16] != b"IHDR":
    print("not a png"); sys.exit(0)
w, h = struct.unpack(">II", d[16:24])
print(w, h)
EOF
}

# assert_png FILE W H WHAT: exists, non-empty, a PNG of W x H.
assert_png() {
	if [ -s "$1" ]; then
		pass "$4: $(basename "$1") exists and is non-empty"
	else
		check_failed "$4: $(basename "$1") exists and is non-empty"
		return
	fi
	assert_eq "$2 $3" "$(png_size "$1")" "$4: $(basename "$1") is a $2x$3 PNG"
}

# keep_png FILE: copy a rendered PNG where it can be looked at later.
keep_png() {
	if [ -n "${SWEEP_PNG_DIR:-}" ] && [ -s "$1" ]; then
		mkdir -p "$SWEEP_PNG_DIR" && cp "$1" "$SWEEP_PNG_DIR/"
	fi
}

# assert_refused WHAT ERE ARGS...: rebench ARGS exits 1 and its stderr
# matches ERE (what was refused, and why).  Callers add their own checks
# that nothing ran.
assert_refused() {
	local what=$1 re=$2
	shift 2
	rb "$@"
	assert_rc 1 "$what: exit 1"
	assert_match "$re" "$RB_ERR" "$what: message matches /$re/"
}

# ---------------------------------------------------------------- zram

# have_zram: zram devices can be added (zram-control; loads the module).
have_zram() {
	[ -e /sys/class/zram-control ] || modprobe zram 2>/dev/null || true
	[ -w /sys/class/zram-control/hot_add ]
}

require_zram() {
	require_root
	have_zram || skip "needs zram devices of its own (no /sys/class/zram-control: modprobe zram)"
}

# make_zram SIZE: a zram device of the test's own, SIZE (k/M/G) of memory;
# prints it (e.g. /dev/zram3).  zram-control's hot_add makes a new one
# each time it is read, so parallel tests never share one and /dev/zram0
# is left alone.  Reset and removed (hot_remove) by the EXIT trap, after
# the mounts and loop devices.  Call require_zram (or have_zram) first:
# in DEV=$(make_zram ...) a skip would only end the subshell.
make_zram() {
	local n
	have_zram || fail "make_zram: no /sys/class/zram-control"
	n=$(cat /sys/class/zram-control/hot_add) || fail "cannot hot_add a zram device"
	_register zrams "$n"
	echo "$1" >"/sys/block/zram$n/disksize" || fail "cannot size /dev/zram$n to $1"
	[ -b "/dev/zram$n" ] || fail "/dev/zram$n did not appear after hot_add"
	printf '/dev/zram%s\n' "$n"
}

# zram_remove N: reset and remove /dev/zramN.  A device still open (an
# io_uring torn down after its process exited, a lazy unmount) refuses
# both with EBUSY for a moment: retry for 5 s.  Past that, something
# else holds it (stress-ng --io keeps every mount open for syncfs): a
# detached retrier removes it once it is let go, within 10 minutes.
zram_remove() {
	local i
	for ((i = 0; i < 50; i++)); do
		{ echo 1 >"/sys/block/zram$1/reset"; } 2>/dev/null
		{ echo "$1" >/sys/class/zram-control/hot_remove; } 2>/dev/null && return 0
		sleep 0.1
	done
	echo "$TEST_NAME: /dev/zram$1 still busy: it is removed once let go (echo $1 > /sys/class/zram-control/hot_remove)" >&2
	setsid bash -c 'for ((i = 0; i < 300; i++)); do
		{ echo "$0" >/sys/class/zram-control/hot_remove; } 2>/dev/null && exit
		sleep 2
	done' "$1" </dev/null >/dev/null 2>&1 &
}
