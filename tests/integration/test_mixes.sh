#!/usr/bin/env bash
# test_mixes.sh - each I/O carries its own operation and size (issue 12):
# a read/write mix reports reads and writes apart, with counts that add up;
# a size split and a size range give the sizes asked (counted from the -g 0
# per-I/O log); fsync and fdatasync go through every engine, counted with
# strace where they are system calls and checked against the per-operation
# counts, which are the same for every engine because the stream is; bad
# mixes are refused before any I/O, naming the option and the stdin line.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq strace awk

DEV=$(make_loop 64M)
D4K=$(make_loop 64M 4096)
rb_ok "lay out the device" -o write -w seq -b 1m -d 100% -n "$DEV"

section "a 70/30 read/write mix reports reads and writes apart"
for mix in "-o rw --rwmix 70" "-o read/70:write/30"; do
	# shellcheck disable=SC2086
	rb $mix -b 4k -d 8m --seed 7 -y --json "$DEV"
	assert_rc 0 "$mix: exit 0"
	r=$(jqr '.workloads[0].results.operations.read.ios')
	w=$(jqr '.workloads[0].results.operations.write.ios')
	t=$(jqr '.workloads[0].results.ios')
	assert_eq "$t" "$((r + w))" "$mix: reads $r + writes $w = the total $t"
	assert_eq 2048 "$t" "$mix: 8m in 4k I/Os is 2048"
	num_true "$r > 0.65 * $t && $r < 0.75 * $t" &&
		pass "$mix: reads are 70% of the I/Os ($r of $t)" ||
		check_failed "$mix: reads are 70% of the I/Os ($r of $t)"
	rl=$(jqr '.workloads[0].results.operations.read.latency_us.p50')
	wl=$(jqr '.workloads[0].results.operations.write.latency_us.p50')
	assert_ne "$rl" "$wl" "$mix: reads and writes have their own median ($rl, $wl us)"
done
rb -o read/70:write/30 -b 4k -d 4m --seed 7 -y "$DEV"
assert_match 'operation: read/70:write/30' "$RB_OUT" "the header names the mix"
assert_match '^  read +[0-9]+ I/Os' "$RB_OUT" "human output has a read line"
assert_match '^  write +[0-9]+ I/Os' "$RB_OUT" "human output has a write line"

section "a size split gives the sizes asked"
rb -b 4k/10:64k/50:32k/40 -d 64m --seed 3 -g 0 --output "$SCRATCH/split.tsv" -n "$DEV"
assert_rc 0 "-b 4k/10:64k/50:32k/40: exit 0"
counts=$(awk -F'\t' 'NR > 1 { n[$6]++; t++ } END { printf "%d %d %d %d", n[4096], n[32768], n[65536], t }' "$SCRATCH/split.tsv")
read -r c4 c32 c64 total <<<"$counts"
assert_eq "$total" "$((c4 + c32 + c64))" "every I/O is one of the three sizes ($counts)"
num_true "$c4 > 0.07 * $total && $c4 < 0.13 * $total" &&
	pass "4k is about 10% ($c4 of $total)" || check_failed "4k is about 10% ($c4 of $total)"
num_true "$c64 > 0.45 * $total && $c64 < 0.55 * $total" &&
	pass "64k is about 50% ($c64 of $total)" || check_failed "64k is about 50% ($c64 of $total)"
bytes=$(awk -F'\t' 'NR > 1 { b += $6 } END { printf "%d", b }' "$SCRATCH/split.tsv")
assert_eq "$bytes" "$(terse_field 15)" "-n bytes are the sum of the logged sizes"
num_true "$bytes >= 67108864 && $bytes < 67108864 + 65536" &&
	pass "-d 64m stops after 64 MiB, within one I/O ($bytes)" ||
	check_failed "-d 64m stops after 64 MiB, within one I/O ($bytes)"
misaligned=$(awk -F'\t' 'NR > 1 && $5 % 4096 { n++ } END { print n + 0 }' "$SCRATCH/split.tsv")
assert_eq 0 "$misaligned" "random offsets are multiples of the smallest size"

section "a size range is uniform over its steps; sequential sizes are contiguous"
rb -b 100-400/100 -p -w seq -d 1m -g 0 --output "$SCRATCH/range.tsv" -n "$DEV"
assert_rc 0 "-b 100-400/100 -p -w seq: exit 0"
sizes=$(awk -F'\t' 'NR > 1 { n[$6]++ } END { for (s in n) printf "%s ", s }' "$SCRATCH/range.tsv" | tr ' ' '\n' | sort -n | xargs)
assert_eq "100 200 300 400" "$sizes" "the four sizes of 100-400/100, and no others"
gaps=$(awk -F'\t' 'NR > 2 && $5 != next_off && $5 != 0 { g++ } NR > 1 { next_off = $5 + $6 } END { print g + 0 }' "$SCRATCH/range.tsv")
assert_eq 0 "$gaps" "each I/O starts where the one before ended"

section "fsync and fdatasync through every engine"
# the same seed and byte limit give the same stream, so the same counts
# flush_args ENGINE: what each engine needs (-f: no msync inside mmap's
# writes, so its msyncs are the flushes alone)
flush_args() {
	case $1 in
	mmap) echo "-t $1 -p -f" ;;
	paio | naio | uring) echo "-t $1 -q 4" ;;
	*) echo "-t $1" ;;
	esac
}
want=""
for e in stateful stateless mmap paio naio uring; do
	args=$(flush_args "$e")
	for f in fsync fdatasync; do
		# shellcheck disable=SC2086
		rb -o write/80:$f/20 -b 4k -d 1m --seed 11 -y --json $args "$DEV"
		assert_rc 0 "$e, $f: exit 0"
		n=$(jqr ".workloads[0].results.operations.$f.ios")
		w=$(jqr '.workloads[0].results.operations.write.ios')
		assert_eq 256 "$w" "$e, $f: 1m of 4k writes is 256"
		if [ -z "$want" ]; then
			want=$n
			num_true "$n > 40 && $n < 90" && pass "about 64 flushes among 256 writes ($n)" ||
				check_failed "about 64 flushes among 256 writes ($n)"
		fi
		assert_eq "$want" "$n" "$e: $n ${f}s, the stream's count"
	done
done
# where a flush is a system call, strace counts them
for e in stateful stateless paio mmap; do
	args=$(flush_args "$e")
	for f in fsync fdatasync; do
		call=$f
		[ "$e" = mmap ] && call=msync
		# shellcheck disable=SC2086
		timeout 60 strace -f -c -o "$SCRATCH/strace.txt" -e trace=$call \
			"$REBENCH" -o write/80:$f/20 -b 4k -d 1m --seed 11 -y -n $args "$DEV" \
			>"$SCRATCH/terse.txt" 2>/dev/null ||
			fail "$e: -o write/80:$f/20 under strace: exit $?"
		calls=$(awk -v c="$call" '$NF == c { print $4 }' "$SCRATCH/strace.txt")
		assert_eq "$want" "${calls:-0}" "$e: strace counts $want $call calls for -o write/80:$f/20"
	done
done

section "bad mixes are refused before any I/O"
before=$(dev_sum "$DEV")
refuse() {	# refuse WHAT WORDS ARGS...
	local what=$1 words=$2
	shift 2
	rb -y "$@" "$DEV"
	assert_rc 1 "$what: exit 1"
	assert_match "$words" "$RB_ERR" "$what: says why"
}
refuse "shares over 100" "add up to 110%, more than 100%" -o read/70:write/40
refuse "an operation named twice" "write is named twice" -o write/50:write/50
refuse "an unknown operation" "'fsink' is not an operation" -o write/50:fsink/50
refuse "a size of 0" "0 bytes moves nothing" -b 4k/50:0/50
refuse "size shares over 100" "add up to 120%" -b 4k/60:8k/60
refuse "a step that does not divide" "the step 7 does not divide" -b 100-400/7
refuse "a size that O_DIRECT cannot do" "not a multiple of the logical sector size" -b 4k/50:6000/50
refuse "a flush-only stream with a byte limit" "flushes alone moves no data" -o fsync -d 1m
refuse "trim with an engine that cannot" "cannot discard" -o trim/50:write/50 -t uring
refuse "--fio with a mix fio cannot express" "fio cannot mix trims" --fio -o trim/50:write/50
assert_eq "$before" "$(dev_sum "$DEV")" "nothing was written by the refused runs"
printf '%s\n' "-o read/60:write/60 $DEV" >"$SCRATCH/bad.spec"
rb -y <"$SCRATCH/bad.spec"
assert_rc 1 "a bad mix on a stdin line: exit 1"
assert_match 'stdin line 1: .*-o/--operation: .*more than 100%' "$RB_ERR" "names the stdin line and the option"

section "O_DIRECT sizes on a 4096-byte-sector device"
rb -b 4k/50:6k/50 -d 300ms -n "$D4K"
assert_rc 1 "-b 4k/50:6k/50 on 4096-byte sectors: exit 1"
assert_match '6k.*not a multiple of the logical sector size .*4096' "$RB_ERR" "names the size and the sector"
rb -b 4k-16k -d 1m -n -g 0 --output "$SCRATCH/d4k.tsv" "$D4K"
assert_rc 0 "-b 4k-16k on 4096-byte sectors: the step defaults to the sector"
sizes=$(awk -F'\t' 'NR > 1 { n[$6]++ } END { for (s in n) printf "%s ", s }' "$SCRATCH/d4k.tsv" | tr ' ' '\n' | sort -n | xargs)
assert_eq "4096 8192 12288 16384" "$sizes" "4k-16k in steps of the 4096-byte sector"

