#!/usr/bin/env bash
# test_default_run.sh - `rebench -d 1 DEV` with no other options on loop
# devices with 512- and 4096-byte logical sectors: the classic output block,
# ordered latency percentiles, the O_DIRECT block-size refusal on a 4Kn
# device, and a read run leaving the device's data untouched.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd cksum dd

# check_block DEV SIZE_LABEL BS_LABEL BS_BYTES: the classic block of the last run.
check_block() {
	local dev=$1 size=$2 bs=$3 bsb=$4 lat min avg p50 p90 p99 p999 max ops mbs

	assert_eq "Benchmarking results for [$dev] ($size)" \
		"$(<<<"$RB_OUT" sed -n 1p)" \
		"first line names the target and its size"
	assert_eq "[duration: 1s, threads: 1, operation: read, block size: $bs, workload: rnd, dist: uniform, direct IO: on, IO type: stateful]" \
		"$(<<<"$RB_OUT" sed -n 2p)" \
		"second line lists the default parameters"
	assert_match '^Operations/sec: [0-9]+ \([0-9]+\.[0-9]{2} MiB/s\)$' "$RB_OUT" \
		"Operations/sec: N (X MiB/s) line"
	ops=$(<<<"$RB_OUT" sed -nE 's/^Operations\/sec: ([0-9]+) .*/\1/p')
	mbs=$(<<<"$RB_OUT" sed -nE 's/^Operations\/sec: [0-9]+ \(([0-9.]+) MiB.*/\1/p')
	assert_num "ops/sec is positive ($ops)" "${ops:-0} > 0"
	# MiB is 2^20 bytes: MiB/s = ops * bs / 2^20 (within rounding)
	assert_num "MiB/s ($mbs) = ops/sec * block size / 2^20" \
		"(${mbs:-0} - ${ops:-0} * $bsb / 1048576) ^ 2 <= (0.01 + ${ops:-0} * $bsb / 1048576 * 0.001) ^ 2"
	assert_match '^Latency \(us\): min [0-9.]+ avg [0-9.]+ p50 [0-9.]+ p90 [0-9.]+ p99 [0-9.]+ p99\.9 [0-9.]+ max [0-9.]+$' \
		"$RB_OUT" "Latency (us): min avg p50 p90 p99 p99.9 max line"
	lat=$(human_latency)
	read -r min avg p50 p90 p99 p999 max <<<"$lat"
	assert_num "min <= p50 <= p90 <= p99 <= p99.9 <= max ($lat)" \
		"${min:-1} <= ${p50:-0} && $p50 <= $p90 && $p90 <= $p99 && $p99 <= $p999 && $p999 <= $max"
	assert_num "min <= avg <= max" "$min <= $avg && $avg <= $max"
	assert_num "min latency is positive" "$min > 0"
}

section "512-byte sectors"
D512=$(make_loop 32M)
assert_eq 512 "$(blockdev --getss "$D512")" "loop device has 512-byte logical sectors"
before=$(dev_sum "$D512")
rb -d 1 "$D512"
assert_rc 0 "rebench -d 1 $D512 exits 0"
check_block "$D512" "32 MiB" 512b 512
assert_eq "$before" "$(dev_sum "$D512")" "a read workload leaves the device checksum unchanged"
assert_eq "" "$RB_ERR" "nothing on stderr"

section "4096-byte sectors"
D4K=$(make_loop 64M 4096)
assert_eq 4096 "$(blockdev --getss "$D4K")" "loop device has 4096-byte logical sectors"
before=$(dev_sum "$D4K")
rb -d 1 -b 512 "$D4K"
assert_rc 1 "an explicit -b 512 is refused on a 4096-byte-sector device (exit 1)"
assert_match 'multiple of 4096' "$RB_ERR" "message says to use a multiple of 4096"
assert_match '(^| )-p( |$)' "$RB_ERR" "message mentions -p for page cache I/O"
assert_match '-b|block.size' "$RB_ERR" "message names the block size option"
assert_eq "" "$RB_OUT" "no results printed for a refused run"

# without -b the default is the logical sector, and the header says so
# (from stdin too, beside a 512-byte-sector device: issue 12)
printf '%s\n%s\n' "-d 300ms $D512" "-d 300ms $D4K" >"$SCRATCH/two.spec"
rb <"$SCRATCH/two.spec"
assert_rc 0 "stdin lines for a 512- and a 4096-byte-sector device, no -b: exit 0"
assert_match 'block size: 512b, ' "$RB_OUT" "the 512-byte-sector device keeps the 512-byte default"
assert_match 'block size: 4k \(the logical sector: no -b given\)' "$RB_OUT" \
	"the 4096-byte-sector device gets 4k, and the header says why"
printf '%s\n' "$D4K" >"$SCRATCH/one.spec"
rb -b 512 -d 300ms <"$SCRATCH/one.spec"
assert_rc 1 "-b 512 on the command line is the user's own for every line: refused"

rb -d 1 -b 4k "$D4K"
assert_rc 0 "rebench -d 1 -b 4k $D4K exits 0"
check_block "$D4K" "64 MiB" 4k 4096
assert_eq "$before" "$(dev_sum "$D4K")" "reads leave the 4Kn device checksum unchanged"
