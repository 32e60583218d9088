#!/usr/bin/env bash
# test_write_data.sh - every write carries the write pattern (seeded,
# non-zero), in every engine and in a read/write mix.  Before, -o rw read
# into the buffer that the next write sent back, so on a region of 0xAB a
# rw run changed nothing, and on a region of zeros it wrote zeros, which
# compressing or zero-detecting devices never store.  (Issue 12.)
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd python3

# blocks IMG_OR_DEV BYTE: "changed zero" - 4 KiB blocks no longer all BYTE,
# and how many of those are all zeros.
blocks() {
	python3 - "$1" "$2" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
b = bytes([int(sys.argv[2], 0)]) * 4096
z = bytes(4096)
ch = [d[i:i + 4096] for i in range(0, len(d), 4096) if d[i:i + 4096] != b]
print(len(ch), sum(1 for x in ch if x == z))
PY
}

fill_img() {	# fill_img FILE BYTE MIB
	python3 -c "import sys; sys.stdout.buffer.write(bytes([$2]) * ($3 << 20))" >"$1"
}

# engine_args ENGINE QD: what each engine needs (-p for mmap, a depth).
engine_args() {
	args=(-t "$1")
	case $1 in
	mmap) args+=(-p) ;;
	paio|naio|uring) args+=(-q "$2") ;;
	esac
}

engines=$("$REBENCH" --engines | awk '$2 == "sync" || $2 == "async" { print $1 }')
for byte in 0xab 0x00; do
	section "-o rw on a region of $byte"
	for e in $engines; do
		IMG=$SCRATCH/rw-$e-$byte.img
		fill_img "$IMG" "$byte" 16
		DEV=$(loop_from_image "$IMG")
		engine_args "$e" 8
		rb -o rw --rwmix 50 -b 4k -d 300ms --yes -n --seed 7 "${args[@]}" "$DEV"
		assert_rc 0 "$e: -o rw exits 0"
		read -r changed zeros < <(blocks "$DEV" "$byte")
		assert_num "$e: the writes changed blocks ($changed of 4096)" "${changed:-0} > 0"
		assert_eq 0 "$zeros" "$e: no block was written as zeros"
	done
done

section "-o write through every engine is the pattern, never zeros"
for e in $engines; do
	IMG=$SCRATCH/w-$e.img
	fill_img "$IMG" 0 8
	DEV=$(loop_from_image "$IMG")
	engine_args "$e" 4
	rb -o write -w seq -b 4k -d 8m --yes -n "${args[@]}" "$DEV"
	assert_rc 0 "$e: -o write of the whole device exits 0"
	read -r changed zeros < <(blocks "$DEV" 0)
	assert_eq 2048 "$changed" "$e: every block was written"
done
