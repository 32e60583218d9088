#!/usr/bin/env bash
# run.sh - `make bench`: is rebench ever the bottleneck?
#
# On a RAM-backed block device (zram when it is free, else a loop device over
# a file in /dev/shm) it runs 4 KiB random O_DIRECT reads with three
# contenders doing the same I/Os the same way: rebench (timing and
# histograms on, as in a normal run), fio, and bareloop (a C loop that only
# issues the I/Os).  Contenders are interleaved, their order rotated each
# round, and the median of the rounds is compared: the ratios are measured
# side by side in one run, never against absolute numbers.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
rebench=${REBENCH:-$here/rebench}
bare=$here/bench/bareloop
secs=${BENCH_SECONDS:-3}
rounds=${BENCH_ROUNDS:-3}
size_mb=${BENCH_SIZE_MB:-1024}

[ "$(id -u)" = 0 ] || { echo "bench: needs root (zram or loop device); run: sudo make bench" >&2; exit 1; }
for c in fio jq; do
	command -v "$c" >/dev/null || { echo "bench: $c is missing: run make deps" >&2; exit 1; }
done

dev="" zram="" loop="" work=""
cleanup() {
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	[ -n "$zram" ] && echo 1 >"/sys/block/$zram/reset" 2>/dev/null
	[ -n "$work" ] && rm -rf "$work"
	true
}
trap cleanup EXIT INT TERM

# A RAM-backed device we create and tear down; never one in use.
[ -e /sys/block/zram0 ] || modprobe zram 2>/dev/null || true
if [ -e /sys/block/zram0 ] && [ "$(cat /sys/block/zram0/disksize)" = 0 ]; then
	zram=zram0
	echo "${size_mb}M" >/sys/block/zram0/disksize
	dev=/dev/zram0
	kind="zram"
else
	work=$(mktemp -d /dev/shm/rebench-bench.XXXXXX)
	truncate -s "${size_mb}M" "$work/disk.img"
	loop=$(losetup -f --show --direct-io=on "$work/disk.img")
	dev=$loop
	kind="loop device over tmpfs"
fi
# Random data: zeros would let zram skip the work of a real read.
dd if=/dev/urandom of="$dev" bs=1M count="$size_mb" oflag=direct status=none

have_libaio=$("$rebench" --engines | awk '$1 == "naio" && !/not available/ {print "yes"}' | head -1)
have_uring=$("$rebench" --engines | awk '$1 == "uring" && !/not available/ {print "yes"}' | head -1)
# "not available" is printed on the line after the engine's
"$rebench" --engines | grep -A1 '^naio' | grep -q 'not available' && have_libaio=""
"$rebench" --engines | grep -A1 '^uring' | grep -q 'not available' && have_uring=""

cases=("stateless 1 1")
[ -n "$have_libaio" ] && cases+=("naio 32 8")
[ -n "$have_uring" ] && cases+=("uring 128 32")

run_one() {	# contender engine depth batch -> ops/s
	local who=$1 eng=$2 qd=$3 batch=$4
	case $who in
	rebench)
		local extra=""
		[ "$eng" != stateless ] && extra="-q $qd --batch $batch"
		# shellcheck disable=SC2086
		"$rebench" -n -t "$eng" $extra -b 4k -d "${secs}s" --seed 1 "$dev" | awk '{print $1}'
		;;
	fio)
		local fe=psync opts=""
		case $eng in
		naio) fe=libaio; opts="--iodepth=$qd --iodepth_batch_submit=$batch --iodepth_batch_complete_min=$batch --iodepth_batch_complete_max=$qd" ;;
		uring) fe=io_uring; opts="--iodepth=$qd --iodepth_batch_submit=$batch --iodepth_batch_complete_min=$batch --iodepth_batch_complete_max=$qd --fixedbufs --registerfiles" ;;
		esac
		# shellcheck disable=SC2086
		fio --name=bench --filename="$dev" --rw=randread --bs=4k --direct=1 \
			--ioengine=$fe $opts --norandommap --randrepeat=0 \
			--runtime="$secs" --time_based --output-format=json 2>/dev/null |
			jq '.jobs[0].read.iops'
		;;
	bare)
		local be=psync
		case $eng in naio) be=libaio ;; uring) be=io_uring ;; esac
		"$bare" "$dev" "$be" "$secs" 4096 "$qd" "$batch" | awk '{print $2}'
		;;
	esac
}

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

declare -A res
who=(rebench fio bare)
echo "bench: 4 KiB random reads, O_DIRECT, $dev ($kind, $size_mb MiB), ${secs} s per run, median of $rounds interleaved rounds"
for ((r = 0; r < rounds; r++)); do
	for c in "${cases[@]}"; do
		read -r eng qd batch <<<"$c"
		for ((k = 0; k < 3; k++)); do
			w=${who[$(((k + r) % 3))]}
			v=$(run_one "$w" "$eng" "$qd" "$batch")
			res["$c|$w"]+="$v "
			printf '  round %d  %-9s %-8s %10.0f ops/s\n' $((r + 1)) "$eng" "$w" "$v"
		done
	done
done

echo
printf '%-26s %10s %10s %10s %12s %13s\n' case rebench fio bare rebench/fio rebench/bare
declare -A target_fio=([stateless]=1.15 [naio]=1.50 [uring]=1.50)
declare -A target_bare=([stateless]=0.90 [naio]=0.85 [uring]=0.85)
for c in "${cases[@]}"; do
	read -r eng qd batch <<<"$c"
	rb=$(tr ' ' '\n' <<<"${res[$c|rebench]}" | grep . | median)
	fi=$(tr ' ' '\n' <<<"${res[$c|fio]}" | grep . | median)
	ba=$(tr ' ' '\n' <<<"${res[$c|bare]}" | grep . | median)
	label="$eng, depth $qd, batch $batch"
	printf '%-26s %10.0f %10.0f %10.0f %7.2f (>=%s) %7.2f (>=%s)\n' "$label" "$rb" "$fi" "$ba" \
		"$(awk -v a="$rb" -v b="$fi" 'BEGIN {print a / b}')" "${target_fio[$eng]}" \
		"$(awk -v a="$rb" -v b="$ba" 'BEGIN {print a / b}')" "${target_bare[$eng]}"
done

# Generating an offset must stay small next to an I/O.
if [ -x "$here/bench/distbench" ]; then
	echo
	echo "offset generation (pattern_next with slice counting, 1 TiB region of 4 KiB blocks):"
	"$here/bench/distbench"
fi

# Resident memory must not grow with the length of a run.
rss() {	# seconds -> max RSS in KiB
	/usr/bin/time -f %M "$rebench" -n -t stateless -b 4k -d "$1" "$dev" 2>&1 >/dev/null | tail -n 1
}
if [ -x /usr/bin/time ]; then
	r3=$(rss 3s)
	r30=$(rss 30s)
	echo
	echo "resident memory (max RSS): 3 s run ${r3} KiB, 30 s run ${r30} KiB"
else
	echo "bench: /usr/bin/time is missing (apt-get install time): resident memory not measured"
fi
