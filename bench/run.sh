#!/usr/bin/env bash
# run.sh - `make bench`: is rebench ever the bottleneck?
#
# 4 KiB random O_DIRECT reads on a RAM-backed block device, each engine at
# its depth (stateless = pread at depth 1, naio at depth 32 in batches of 8,
# uring at depth 128 in batches of 32), by four contenders doing the same
# I/Os the same way:
#   rebench  timing and histograms on, as in a normal run
#   fio      the same engine, depth and batching
#   timed    bench/bareloop with the clock reads rebench makes and nothing
#            else: two CLOCK_MONOTONIC reads per pread; per submitted batch
#            and per reaped batch for naio and uring (as src/core/run.c does)
#   bare     bench/bareloop untimed: the clock read only at start and end
#
# Two devices, one after the other, each created here and torn down:
#   empty    zram0 freshly reset and sized, never written: a read of a page
#            zram never stored costs the kernel almost nothing (it zero-fills
#            the buffer), so the contenders' own costs show.  The closest
#            this machine has to a null device.
#   filled   the same device once filled with random data (zeros would let
#            zram store nothing): now the kernel's copy of each page counts.
# zram0 is used only when it is free (disksize 0); otherwise a loop device
# over a file in /dev/shm, sparse (empty) then filled: reading a hole there
# still goes through the loop driver and tmpfs, so "empty" is less empty.
# After the empty rounds the script prints how many bytes zram stored (0:
# nothing wrote to it).  Ctrl-C or a failure still detaches and resets it.
#
# Each round runs every contender once per engine, back to back, their
# order rotated from round to round.  Per run it records ops/s (I/Os over
# wall-clock time) and CPU time per I/O (user + system time of the whole
# process, all its threads and its start-up, over its I/Os; for fio not
# measured: its own accounting leaves out io_uring's workers).  Two tables,
# each over both devices and every engine:
#   ops/s     median of the rounds per contender, and the ratios
#     rb/timed  rebench / timed bare loop: what rebench's own bookkeeping
#               (offsets, statistics, engine indirection) costs.  Goal on
#               the empty device: >= 0.95 for every engine.
#     rb/fio    rebench / fio.  Goal: > 1 (rebench drives more I/Os).
#   CPU ns per I/O  median of the rounds for rebench, timed and bare;
#     clocks    timed - bare: the clock reads;
#     own       rebench - timed: rebench's bookkeeping;
#     rb/timed per CPU  I/Os per CPU second, rebench / timed: the same
#               question as rb/timed, steadier when other jobs share the
#               CPUs (a run that waits for a CPU loses wall time, not CPU
#               time), "I/Os per core" as DESIGN.md puts it.
# A ratio is the median of the per-round ratios (the two contenders of a
# ratio ran a second or two apart in the same round, so slow drifts of the
# machine cancel), with the lowest and highest per-round ratio after it.
# Nothing here passes or fails on timing: the ratios are measured side by
# side in one run, never against absolute numbers.  Only a contender that
# fails to run, or a device that cannot be set up, makes it exit non-zero.
#
# zram has no non-blocking submission, so io_uring hands its reads to a
# kernel worker thread (iou-wrk) of the process: uring runs two threads,
# and its ops/s is that of the slower one.  Its CPU time counts both.
#
# Then the cost of the clock reads against a calibrated TSC, set against
# the empty device's CPU time per I/O (bench/clockbench, which says why a
# TSC clock is not worth it here), offset generation (bench/distbench) and
# rebench's resident memory over a 2 s and a 20 s run (it must not grow).
#
# Many short runs rather than a few long ones: this VM's speed wanders by
# 10-30% over seconds (other jobs, the host), and a pair of 0.5 s runs side
# by side sees the same conditions far more often than a pair of 2 s runs.
# Measured here on a quiet machine, one per-round rebench / timed ratio of
# ops/s varies by about 6% (standard deviation), so the median of 10
# rounds is good to about 2-3%; with another job compiling on the 2 CPUs
# it varied by 18% (per CPU second: 10%).  Read the ranges.
#
# BENCH_SECONDS=S per run (0.5), BENCH_ROUNDS=N rounds (10), BENCH_SIZE_MB=M
# device size (1024), BENCH_RSS=0 skips the resident-memory check.  With the
# defaults this script takes about 3 minutes on a 2-core VM (make bench then
# runs bench/crosscheck.sh, which takes about 3 more).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
rebench=${REBENCH:-$here/rebench}
bare=$here/bench/bareloop
secs=${BENCH_SECONDS:-0.5}
rounds=${BENCH_ROUNDS:-10}
size_mb=${BENCH_SIZE_MB:-1024}
check_rss=${BENCH_RSS:-1}

ms=$(awk -v s="$secs" 'BEGIN {if (s + 0 > 0) printf "%d", s * 1000 + 0.5}')
if [ -z "$ms" ] || [ "$ms" = 0 ] || ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
	echo "bench: BENCH_SECONDS must be > 0 (e.g. 0.5) and BENCH_ROUNDS a positive integer" >&2
	exit 1
fi
[ "$(id -u)" = 0 ] || { echo "bench: needs root (zram or loop device); run: sudo make bench" >&2; exit 1; }
for c in fio jq; do
	command -v "$c" >/dev/null || { echo "bench: $c is missing: run make deps" >&2; exit 1; }
done
for b in "$rebench" "$bare"; do
	[ -x "$b" ] || { echo "bench: $b is missing: run make bench (it builds it)" >&2; exit 1; }
done

dev="" zram="" loop="" work=""
# Tear down what was created.  zram refuses a reset while the device is
# open, and the last contender's io_uring can hold it open for a moment
# after exiting (the ring is torn down asynchronously): retry for 5 s.
cleanup() {
	local i
	if [ -n "$loop" ]; then
		losetup -d "$loop" 2>/dev/null || echo "bench: could not detach $loop: losetup -d $loop" >&2
	fi
	if [ -n "$zram" ]; then
		for ((i = 0; i < 50; i++)); do
			echo 1 >"/sys/block/$zram/reset" 2>/dev/null && break
			sleep 0.1
		done
		[ "$(cat "/sys/block/$zram/disksize")" = 0 ] ||
			echo "bench: /dev/$zram is still in use and was not reset: echo 1 > /sys/block/$zram/reset" >&2
	fi
	[ -n "$work" ] && rm -rf "$work"
	true
}
trap cleanup EXIT
trap 'echo "bench: interrupted" >&2; exit 130' INT
trap 'exit 143' TERM

# A RAM-backed device we create and tear down; never one in use.  It is
# created empty: nothing is written to it until fill_device.  zram0 is
# ours only once sizing it succeeded (a concurrent user sizing it first
# makes ours fail): only then does cleanup reset it.
[ -e /sys/block/zram0 ] || modprobe zram 2>/dev/null || true
if [ -e /sys/block/zram0 ] && [ "$(cat /sys/block/zram0/disksize)" = 0 ] &&
	(echo "${size_mb}M" >/sys/block/zram0/disksize) 2>/dev/null; then
	zram=zram0
	dev=/dev/zram0
	kind="zram"
else
	work=$(mktemp -d /dev/shm/rebench-bench.XXXXXX)
	truncate -s "${size_mb}M" "$work/disk.img"
	loop=$(losetup -f --show --direct-io=on "$work/disk.img")
	dev=$loop
	kind="loop device over tmpfs: zram0 is not free"
fi

fill_device() {
	# Random data: zeros would let zram store nothing and skip the copy.
	dd if=/dev/urandom of="$dev" bs=1M count="$size_mb" oflag=direct status=none
}

# shellcheck source=bench/engines.sh
. "$(dirname "$0")/engines.sh"

# cpu_run CMD...: CMD's standard output, then the shell's times: the last
# line is the user and system time of CMD (the subshell's only child).
cpu_run() {
	(
		out=$("$@")
		printf '%s\n' "$out"
		times
	)
}
# the CPU seconds in the last line of cpu_run ("0m0.412s 0m0.080s")
cpu_awk='function secs(t) { split(t, p, "m"); return p[1] * 60 + p[2] }
	END { cpu = secs(u) + secs(s) }'

run_one() {	# contender engine depth batch -> "ops/s CPU-ns-per-I/O" ("-": fio)
	local who=$1 eng=$2 qd=$3 batch=$4 be=psync
	case $eng in naio) be=libaio ;; uring) be=io_uring ;; esac
	case $who in
	rebench)
		local extra=""
		[ "$eng" != stateless ] && extra="-q $qd --batch $batch"
		# shellcheck disable=SC2086
		cpu_run "$rebench" -n -t "$eng" $extra -b 4k -d "${ms}ms" --seed 1 "$dev" |
			awk "NR == 1 {ops = \$1; ios = \$14} {u = \$1; s = \$2} $cpu_awk"' END {print ops, cpu * 1e9 / ios}'
		;;
	fio)
		local opts=""
		case $eng in
		naio) opts="--iodepth=$qd --iodepth_batch_submit=$batch --iodepth_batch_complete_min=$batch --iodepth_batch_complete_max=$qd" ;;
		uring) opts="--iodepth=$qd --iodepth_batch_submit=$batch --iodepth_batch_complete_min=$batch --iodepth_batch_complete_max=$qd --fixedbufs --registerfiles" ;;
		esac
		# no CPU time: fio's own accounting leaves out io_uring's
		# io-wq workers (zram reads are punted to them), and its whole
		# process spends a long start-up in the main thread
		# shellcheck disable=SC2086
		fio --name=bench --filename="$dev" --rw=randread --bs=4k --direct=1 \
			--ioengine=$be $opts --norandommap --randrepeat=0 \
			--runtime="${ms}ms" --time_based --output-format=json 2>/dev/null |
			jq -r '"\(.jobs[0].read.iops) -"'
		;;
	timed | bare)
		local mode=timed
		[ "$who" = bare ] && mode=untimed
		cpu_run "$bare" "$dev" "$be" "$secs" 4096 "$qd" "$batch" "$mode" |
			awk "\$1 == \"iops\" {ops = \$2; ios = \$4} {u = \$1; s = \$2} $cpu_awk"' END {print ops, cpu * 1e9 / ios}'
		;;
	esac
}

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
med_of() { tr ' ' '\n' <<<"$1" | grep . | median; }
# ratio "a1 a2 ..." "b1 b2 ...": median of a_i / b_i, then (min-max)
ratio() {
	local r
	r=$(paste <(tr ' ' '\n' <<<"$1" | grep .) <(tr ' ' '\n' <<<"$2" | grep .) |
		awk '{print $1 / $2}' | sort -g)
	printf '%.3f (%.2f-%.2f)' "$(median <<<"$r")" "$(head -n 1 <<<"$r")" "$(tail -n 1 <<<"$r")"
}

declare -A res cpu	# "device|case|contender" -> ops/s, CPU ns per I/O of each round
who=(rebench fio timed bare)
devices=(empty filled)

label_of() {	# case -> "engine qd/batch"
	local eng qd batch
	read -r eng qd batch <<<"$1"
	[ "$eng" = stateless ] && eng="pread"
	printf '%s %s/%s' "$eng" "$qd" "$batch"
}

measure() {	# device label: the rounds on $dev as it is now
	local d=$1 r c k w v n eng qd batch line
	for ((r = 0; r < rounds; r++)); do
		for c in "${cases[@]}"; do
			read -r eng qd batch <<<"$c"
			line=""
			for ((k = 0; k < ${#who[@]}; k++)); do
				w=${who[$(((k + r) % ${#who[@]}))]}
				v=$(run_one "$w" "$eng" "$qd" "$batch") || v=""
				read -r v n <<<"$v"
				if ! [[ $v =~ ^[0-9.]+$ && $n =~ ^([0-9.]+|-)$ ]] || [ "${v%%.*}" = 0 ]; then
					echo "bench: $w failed on $dev ($d, $eng): no ops/s or CPU time" >&2
					exit 1
				fi
				res["$d|$c|$w"]+="$v "
				cpu["$d|$c|$w"]+="$n "
				line+=$(printf ' %8s %7.0f %4s' "$w" "$v" "${n%.*}")
			done
			printf '  %-6s round %2d  %-13s%s\n' "$d" $((r + 1)) "$(label_of "$c")" "$line"
		done
	done
}

echo "bench: 4 KiB random reads, O_DIRECT, $dev ($kind, $size_mb MiB), ${secs} s per run, $rounds interleaved rounds per device"
echo "ops/s and CPU ns per I/O of each run, in the order run:"
echo "empty device (never written):"
measure empty
if [ -n "$zram" ]; then
	# mm_stat's first field: bytes stored.  Reads never store any.
	stored=$(awk '{print $1}' "/sys/block/$zram/mm_stat")
	echo "  zram stored $stored bytes during the empty rounds (mm_stat; 0 = nothing written)"
fi
echo "filling $dev with random data..."
fill_device
echo "filled device:"
measure filled

echo
echo "ops/s (wall clock): median of $rounds rounds; ratios: median of the per-round ratios (lowest-highest)"
echo "goals: rb/timed >= 0.95 on the empty device; rb/fio > 1"
printf '%-6s %-13s %8s %8s %8s %8s  %-19s %-19s\n' device "engine qd/bat" rebench fio timed bare rb/timed rb/fio
for d in "${devices[@]}"; do
	for c in "${cases[@]}"; do
		printf '%-6s %-13s %8.0f %8.0f %8.0f %8.0f  %-19s %-19s\n' "$d" "$(label_of "$c")" \
			"$(med_of "${res[$d|$c|rebench]}")" "$(med_of "${res[$d|$c|fio]}")" \
			"$(med_of "${res[$d|$c|timed]}")" "$(med_of "${res[$d|$c|bare]}")" \
			"$(ratio "${res[$d|$c|rebench]}" "${res[$d|$c|timed]}")" \
			"$(ratio "${res[$d|$c|rebench]}" "${res[$d|$c|fio]}")"
	done
done

echo
echo "CPU time per I/O, ns: median of $rounds rounds (user + system time of the whole process, all threads, start-up included / I/Os)"
echo "clocks = timed - bare, own = rebench - timed (differences of medians: noise can make them negative)"
echo "rb/timed per CPU: I/Os per CPU second, rebench / timed, median of the per-round ratios (lowest-highest)"
printf '%-6s %-13s %8s %8s %8s  %7s %7s  %-19s\n' device "engine qd/bat" rebench timed bare clocks own \
	"rb/timed per CPU"
for d in "${devices[@]}"; do
	for c in "${cases[@]}"; do
		rb=$(med_of "${cpu[$d|$c|rebench]}")
		tm=$(med_of "${cpu[$d|$c|timed]}")
		ba=$(med_of "${cpu[$d|$c|bare]}")
		printf '%-6s %-13s %8.0f %8.0f %8.0f  %7.0f %7.0f  %-19s\n' "$d" "$(label_of "$c")" \
			"$rb" "$tm" "$ba" \
			"$(awk -v a="$tm" -v b="$ba" 'BEGIN {print a - b}')" \
			"$(awk -v a="$rb" -v b="$tm" 'BEGIN {print a - b}')" \
			"$(ratio "${cpu[$d|$c|timed]}" "${cpu[$d|$c|rebench]}")"
	done
done

# What the clock reads cost next to an I/O of the empty device, and
# whether a calibrated TSC clock would be worth it (bench/clockbench.c).
if [ -x "$here/bench/clockbench" ]; then
	io_args=()
	for c in "${cases[@]}"; do
		read -r eng qd batch <<<"$c"
		io_args+=("$(awk -v rb="$(med_of "${cpu[empty|$c|rebench]}")" -v b="$batch" \
			'BEGIN {printf "%.0f/%d", rb, b}')")
	done
	echo
	echo "clock reads: clock_gettime against a calibrated TSC, next to rebench's CPU time per I/O on the empty device (ns / I/Os per pair of clock reads: ${io_args[*]}):"
	"$here/bench/clockbench" -d 1 "${io_args[@]}" | sed 's/^/  /'
fi

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
if [ "$check_rss" = 0 ]; then
	echo
	echo "resident memory: not measured (BENCH_RSS=0)"
elif [ -x /usr/bin/time ]; then
	r2=$(rss 2s)
	r20=$(rss 20s)
	# the default run: rebench DEV, nothing else (512-byte reads, 10 s)
	rdef=$(/usr/bin/time -f %M "$rebench" -n "$dev" 2>&1 >/dev/null | tail -n 1)
	echo
	echo "resident memory (max RSS): 2 s run ${r2} KiB, 20 s run ${r20} KiB; a default run (rebench $dev, 10 s) ${rdef} KiB"
else
	echo "bench: /usr/bin/time is missing (apt-get install time): resident memory not measured"
fi
