#!/usr/bin/env bash
# test_record_random.sh - whatever --record writes, rebench reads back
# (issue 26, item 9).
#
# tests/progs/record_random makes thousands of random file calls, failing
# and succeeding - negative, huge and extreme offsets and sizes, bad and
# closed descriptors, buffer counts below 0 and above IOV_MAX, a NULL
# vector, unknown whence values, any bits of the open, fallocate,
# sync_file_range and RWF flags, any open mode - in three processes (one
# of them exec'd) of two threads each.  Its log must read back whole:
# --trace-stats in every format and --trace-to fio exit 0 and count every
# record, the log says it is complete, and it holds the calls the issue
# named (pwrite at -1, ftruncate to -5, posix_fallocate of -1 bytes,
# pwritev of -1 buffers) with the arguments as given.  Three seeds.  The
# files live on a tmpfs of the test's own when it can mount one (root), so
# that the program's syncs cost nothing; else in the scratch directory.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd awk jq
PROG=$TESTS_ROOT/tests/progs/record_random
LIB=$TESTS_ROOT/librebench-record.so
[ -x "$PROG" ] || fail "$PROG not built: run make check (or make tests/progs/record_random)"
[ -r "$LIB" ] || fail "$LIB not built: run make"
export REBENCH_RECORD_LIB=$LIB

S=$(realpath "$SCRATCH")
D=$S/files
mkdir -p "$D"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64m tmpfs "$D" 2>/dev/null; then
	_register mounts "$D"
else
	log "no tmpfs of its own (not root): the files are in the scratch directory"
fi

# count LOG AWK-CONDITION: the records that match
count() { awk "!/^#/ && ($2) { n++ } END { print n + 0 }" "$1"; }

for seed in 1 2 3; do
	section "seed $seed"
	L=$S/r$seed.log
	rm -rf "${D:?}"/*
	rb --record "$L" -- "$PROG" "$D" "$seed" 3000
	assert_rc 0 "record_random $seed 3000 under --record: exit 0 (nothing lost)"
	records=$(grep -vc '^#' "$L")
	assert_num "thousands of calls recorded ($records)" "$records >= 2000"
	assert_match '^# status: complete *$' "$(head -n 5 "$L")" "the log says it is complete"
	assert_num "failed and successful calls ($(count "$L" '$8 ~ /^-E/') failed)" \
		"$(count "$L" '$8 ~ /^-E/') > 100 && $(count "$L" '$8 !~ /^-/') > 100"

	# the calls of the issue, once per thread at least
	assert_num "pwrite at -1: -EINVAL, offset -1, size 100" "$(count "$L" '$3 == "pwrite" && $6 == "-1" && $7 == "100" && $8 == "-EINVAL"') >= 6"
	assert_num "ftruncate to -5: -EINVAL, offset -5" "$(count "$L" '$3 == "ftruncate" && $6 == "-5" && $8 == "-EINVAL"') >= 6"
	assert_num "posix_fallocate of -1 bytes: size -1" "$(count "$L" '$3 == "posix_fallocate" && $6 == "0" && $7 == "-1" && $8 ~ /^-E/') >= 6"
	assert_num "pwritev of -1 buffers: size '-', ARG -1" "$(count "$L" '$3 == "pwritev" && $7 == "-" && $10 == "-1" && $8 == "-EINVAL"') >= 6"
	assert_num "buffer counts above IOV_MAX" "$(count "$L" '$3 ~ /v(64)?(v2)?$/ && $10 + 0 > 1024') > 0"
	assert_num "whence values that are no SEEK_ name" "$(count "$L" '$3 ~ /^lseek/ && $10 !~ /^SEEK_/') > 0"

	rb --trace-stats "$L" -n
	assert_rc 0 "--trace-stats -n reads it back"
	assert_eq "$records complete 0" "$(<<<"$RB_OUT" awk 'NR == 1 { print $3, $10, $11 }')" \
		"-n: every record counted, the status complete, no damaged line"
	rb --trace-stats "$L" --json
	assert_rc 0 "--trace-stats --json reads it back"
	assert_eq "$records" "$(jqr .operations)" "JSON: every record counted"
	rb --trace-stats "$L"
	assert_rc 0 "--trace-stats (human) reads it back"
	rb --trace-to fio "$L" --output "$S/r$seed.iolog"
	assert_rc 0 "--trace-to fio reads it back"
	assert_eq "fio version 3 iolog" "$(head -n 1 "$S/r$seed.iolog")" "and writes an iolog"
	assert_match "of $records calls written to" "$RB_ERR" "every record read, the failed ones not written"
done
