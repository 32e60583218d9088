#!/usr/bin/env bash
# test_fio_exact.sh - what rebench and fio must agree on exactly, whatever
# the machine is doing: the job file `rebench --fio` prints parses, and a
# byte-limited run (-d SIZE) does the same number of I/Os, and moves the
# same bytes, in rebench and in fio running that job file.  Timing (ops/s,
# latency) is compared by `make crosscheck`, which reports disagreements
# without failing on a busy machine.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd fio jq

DEV=$(make_loop 64M)

# parses NAME ARGS...: fio reads the job file `rebench --fio ARGS` prints
# (left in $SCRATCH/job.fio); 1 when it does not.
parses() {
	local name=$1 job=$SCRATCH/job.fio
	shift
	rb --fio "$@" "$DEV"
	assert_rc 0 "$name: rebench --fio exits 0"
	printf '%s\n' "$RB_OUT" >"$job"
	if fio --parse-only "$job" >"$SCRATCH/parse.out" 2>&1; then
		pass "$name: fio --parse-only accepts the job file"
	else
		check_failed "$name: fio --parse-only accepts the job file" "$(<"$SCRATCH/parse.out")"
		return 1
	fi
}

# exact NAME KEY ARGS...: rebench's and fio's I/O counts for ARGS.
exact() {
	local name=$1 key=$2 rios rbytes fios fbytes job=$SCRATCH/job.fio
	shift 2
	parses "$name" "$@" || return
	rb --json --yes "$@" "$DEV"
	assert_rc 0 "$name: rebench runs"
	rios=$(jqr '.workloads[0].results.ios')
	rbytes=$(jqr '.workloads[0].results.bytes')
	if ! fio --output-format=json --output="$SCRATCH/fio.json" "$job" >"$SCRATCH/fio.err" 2>&1; then
		check_failed "$name: fio runs the job file" "$(tail -n 5 "$SCRATCH/fio.err")"
		return
	fi
	if [ "$key" = mixed ]; then
		fios=$(jq -r '.jobs[0].read.total_ios + .jobs[0].write.total_ios' "$SCRATCH/fio.json")
		fbytes=$(jq -r '.jobs[0].read.io_bytes + .jobs[0].write.io_bytes' "$SCRATCH/fio.json")
	else
		fios=$(jq -r --arg k "$key" '.jobs[0][$k].total_ios' "$SCRATCH/fio.json")
		fbytes=$(jq -r --arg k "$key" '.jobs[0][$k].io_bytes' "$SCRATCH/fio.json")
	fi
	assert_eq "$fios" "$rios" "$name: the same number of I/Os as fio ($fios)"
	assert_eq "$fbytes" "$rbytes" "$name: the same bytes as fio ($fbytes)"
}

exact "seq read 4k, 8 MiB" read -w seq -b 4k -d 8m
exact "rnd read 4k, 8 MiB" read -b 4k -d 8m
exact "seq read 128k, 50%" read -w seq -b 128k -d 50%
exact "rnd write 4k, 4 MiB" write -o write -b 4k -d 4m
exact "rw 70% 4k, 4 MiB" mixed -o rw --rwmix 70 -b 4k -d 4m
if "$REBENCH" --engines | grep -q '^uring  *async' && fio --enghelp 2>/dev/null | grep -qw io_uring; then
	exact "uring qd16 rnd read 4k, 8 MiB" read -t uring -q 16 -b 4k -d 8m
fi
if "$REBENCH" --engines | grep -q '^naio  *async' && fio --enghelp 2>/dev/null | grep -qw libaio; then
	exact "naio qd16 rnd read 4k, 8 MiB" read -t naio -q 16 -b 4k -d 8m
fi

parses "size split" -b 4k/10:64k/50:32k/40 -d 8m
assert_match '^bssplit=4096/10:65536/50:32768/40$' "$RB_OUT" "a split is fio's bssplit"
parses "size range" -b 4k-64k/4k -t uring -q 8
assert_match '^bsrange=4096-65536$' "$RB_OUT" "a range is fio's bsrange"
assert_match 'rebench draws each of the 16 sizes equally' "$RB_OUT" "... with a note on how fio's differs"
parses "write with fdatasync" -o write/90:fdatasync/10 -b 4k
assert_match '^fdatasync=9$' "$RB_OUT" "a flush share is fio's fdatasync=N, N writes per flush"
parses "read/write/fsync mix" -o read/60:write/30:fsync/10 -b 4k
assert_match '^rwmixread=67$' "$RB_OUT" "reads' share of the data I/Os"
assert_match '^fsync=3$' "$RB_OUT" "3 writes per fsync"

# A flushed write workload: fio's IOPS counts its writes, never its syncs,
# and so does rebench's headline (issue 27).  Counts only: 256 writes of 4
# KiB, each followed by an fdatasync.  rebench flushes after every write,
# the last one too (floor(W/N)); fio 3.33 leaves its last write unflushed
# (255 syncs for 256 writes), so fio's sync count is W - 1 or W.
exact "rnd write 4k fdatasync:1, 1 MiB" write -o write -b 4k -d 1m --sync fdatasync:1
W=$(jqr '.workloads[0].results.operations.write.ios')
assert_eq 256 "$W" "fdatasync:1: 256 writes"
assert_eq "$W" "$(jqr '.workloads[0].results.ios')" "fdatasync:1: rebench's I/Os are the writes, as fio's write total_ios"
assert_eq "$W" "$(jqr '.workloads[0].results.flushes')" "fdatasync:1: a flush after every write, the last one too"
assert_num "fdatasync:1: ops/s x elapsed is the writes: rebench's IOPS means fio's" \
	"$(jqr '.workloads[0].results.ops_per_s * .workloads[0].results.elapsed_s') > $W - 0.5 && $(jqr '.workloads[0].results.ops_per_s * .workloads[0].results.elapsed_s') < $W + 0.5"
fsyncs=$(jq -r '.jobs[0].sync.lat_ns.N // .jobs[0].sync.total_ios' "$SCRATCH/fio.json")
assert_num "fio issued $fsyncs fdatasyncs for its $W writes (W - 1 or W)" "$fsyncs == $W || $fsyncs == $W - 1"
fiops=$(jq -r '.jobs[0].write.iops * .jobs[0].write.runtime / 1000' "$SCRATCH/fio.json")
assert_num "fio's write IOPS x its runtime is its writes too ($fiops)" "$fiops > $W * 0.9 && $fiops < $W * 1.1"
