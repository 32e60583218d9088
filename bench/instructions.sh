#!/usr/bin/env bash
# instructions.sh - `make bench`: user-space instructions per I/O of
# rebench's hot loop and of the bare loops, counted by callgrind.
#
# Wall-clock ratios (bench/run.sh) swing by 10% on a shared machine; the
# instructions a loop executes per I/O do not: they are the number a commit
# can be held to.  Every contender does 4 KiB random O_DIRECT reads on an
# empty zram device of its own (a read of a page zram never stored costs
# the kernel almost nothing and no user-space instruction), each engine at
# its depth as in bench/run.sh:
#   pread  rebench -t stateless, QD 1; bench/bareloop psync
#   naio   rebench -t naio -q 32 --batch 8; bench/bareloop libaio 32 8
#   uring  rebench -t uring -q 128 --batch 32; bench/bareloop io_uring 128 32
#          (the loop of fio's t/io_uring: fixed buffers, a registered file,
#          batched submission and reaping, nothing else)
# Contenders: rebench (timing and histograms on, as in a normal run), timed
# (bareloop with rebench's clock reads) and bare (bareloop untimed); with
# TIO_URING, also fio's t/io_uring at naio's and uring's depth and batches
# (-d QD -s BATCH -c BATCH, registered buffers and file, O_DIRECT): it
# needs an I/O count, bench/t_io_uring-count.patch (TIO_MAX_IOS=N).
#
# Each contender runs twice under callgrind, for N and for 2N I/Os (rebench
# with -d N*4 KiB of data, bareloop with its I/O count); the instructions
# per I/O are (Ir(2N) - Ir(N)) / N: start-up, option parsing and the report
# cancel out, everything each I/O costs (the loop, the library calls, the
# statistics) stays.  Then, per function (callgrind_annotate, self cost,
# inlined code counted in the function it was inlined into, the source
# files it came from in brackets), where rebench's instructions per I/O go.
#
# The counts repeat to a fraction of an instruction per I/O for pread and
# naio, and to a few for uring, whose reads complete on the kernel's
# worker threads: how many completions one reap finds varies.
#
# Then --verify's cost: 4 KiB sequential O_DIRECT writes with -t stateless,
# unverified and with --verify-mode inline under each checksum (a block
# filled and summed, written, read back and checked: what verifying costs a
# write and its check together), the same difference of two runs.
# valgrind hides the CPU's SHA extensions from the program it runs, so
# sha256's count here is of the portable rounds; bench/digestbench times
# both.
#
# Goals (issue 33): rebench's pread <= 150 instructions per I/O; naio and
# uring <= 1.2 x t/io_uring's.  Nothing here fails on them: only a
# contender that fails to run, or a device that cannot be set up, makes it
# exit non-zero (without valgrind it says so and exits 0).
#
#   bench/instructions.sh [-h]
#   BENCH_IOS=N     I/Os of the shorter run (10240; a multiple of 32)
#   BENCH_TOP=K     functions in each breakdown (12)
#   REBENCH=PATH    the rebench to measure (./rebench)
#   TIO_URING=PATH  fio's t/io_uring with bench/t_io_uring-count.patch
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}
case ${1:-} in
-h | --help) usage; exit 0 ;;
"") ;;
*) echo "bench/instructions.sh: no arguments are taken (got '$1'); settings are in the environment: bench/instructions.sh -h" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")/.." && pwd)
rebench=${REBENCH:-$here/rebench}
bare=$here/bench/bareloop
ios=${BENCH_IOS:-10240}
top=${BENCH_TOP:-12}
tio=${TIO_URING:-}

if ! [[ $ios =~ ^[1-9][0-9]*$ ]] || ((ios % 32)); then
	echo "bench/instructions.sh: BENCH_IOS must be a positive multiple of 32 (a whole number of every engine's batches), not '$ios'" >&2
	exit 2
fi
[[ $top =~ ^[0-9]+$ ]] || { echo "bench/instructions.sh: BENCH_TOP must be a number of functions, not '$top'" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "bench/instructions.sh: needs root (it creates a zram or loop device); run: sudo make bench" >&2; exit 1; }
# Without valgrind the rest of make bench still runs: say so and skip.
for c in valgrind callgrind_annotate; do
	command -v "$c" >/dev/null || { echo "bench/instructions.sh: $c is missing, so instructions per I/O are not counted: apt-get install valgrind" >&2; exit 0; }
done
for b in "$rebench" "$bare"; do
	[ -x "$b" ] || { echo "bench/instructions.sh: $b is missing: run make bench (it builds it)" >&2; exit 1; }
done
if [ -n "$tio" ] && ! [ -x "$tio" ]; then
	echo "bench/instructions.sh: TIO_URING=$tio is not an executable: build fio's t/io_uring with bench/t_io_uring-count.patch, or unset TIO_URING" >&2
	exit 1
fi

zram="" loop="" work=""
cleanup() {
	local i
	if [ -n "$loop" ]; then
		losetup -d "$loop" 2>/dev/null || echo "bench/instructions.sh: could not detach $loop: losetup -d $loop" >&2
	fi
	if [ -n "$zram" ]; then
		# an io_uring torn down asynchronously may hold it a moment
		for ((i = 0; i < 50; i++)); do
			echo "${zram#zram}" >/sys/class/zram-control/hot_remove 2>/dev/null && break
			sleep 0.1
		done
		[ ! -e "/sys/block/$zram" ] ||
			echo "bench/instructions.sh: /dev/$zram is still in use and was not removed: echo ${zram#zram} > /sys/class/zram-control/hot_remove" >&2
	fi
	[ -n "$work" ] && rm -rf "$work"
	true
}
trap cleanup EXIT
trap 'echo "bench/instructions.sh: interrupted" >&2; exit 130' INT
trap 'exit 143' TERM

work=$(mktemp -d /tmp/rebench-instr.XXXXXX)
# A zram device of our own (hot_add), never one in use; else a loop device
# over a sparse file in /dev/shm (a hole still goes through the loop
# driver, which costs the kernel more but no user-space instruction).
[ -e /sys/class/zram-control ] || modprobe zram 2>/dev/null || true
if [ -e /sys/class/zram-control/hot_add ] && n=$(cat /sys/class/zram-control/hot_add 2>/dev/null); then
	zram=zram$n
	echo 1G >"/sys/block/$zram/disksize"
	dev=/dev/$zram
	kind="zram, empty"
else
	truncate -s 1G "$work/disk.img"
	loop=$(losetup -f --show --direct-io=on "$work/disk.img")
	dev=$loop
	kind="loop device over a sparse file in /dev/shm: no zram"
fi

# shellcheck source=bench/engines.sh
. "$(dirname "$0")/engines.sh"

# cg OUT CMD...: CMD under callgrind into OUT; its total Ir on stdout.
cg() {
	local out=$1
	shift
	if ! valgrind --tool=callgrind --callgrind-out-file="$out" "$@" \
		>"$out.stdout" 2>"$out.log"; then
		echo "bench/instructions.sh: under callgrind, this failed: $*" >&2
		tail -n 5 "$out.log" >&2
		exit 1
	fi
	sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$out.log"
}

# the self cost of each file:function in a callgrind output
funcs() {
	callgrind_annotate --threshold=100 --inclusive=no "$1" |
		sed -n 's/^ *\([0-9][0-9,]*\) *([ 0-9.%]*) *\([^ ]*:[^ ]*\).*$/\1 \2/p' |
		tr -d ,
}

# run WHO ENGINE QD BATCH COUNT OUT: one contender under callgrind
run() {
	local who=$1 eng=$2 qd=$3 batch=$4 n=$5 out=$6 be=psync
	case $eng in naio) be=libaio ;; uring) be=io_uring ;; esac
	case $who in
	rebench)
		local extra=()
		[ "$eng" != stateless ] && extra=(-q "$qd" --batch "$batch")
		cg "$out" "$rebench" -n -t "$eng" "${extra[@]}" -b 4k -d "$((n * 4))k" --seed 1 "$dev" ;;
	timed | bare)
		local mode=timed
		[ "$who" = bare ] && mode=untimed
		cg "$out" "$bare" "$dev" "$be" 600 4096 "$qd" "$batch" "$mode" "$n" ;;
	tio)
		TIO_MAX_IOS=$n cg "$out" "$tio" -d "$qd" -s "$batch" -c "$batch" -p0 -B1 -F1 -O1 -n1 -b4096 "$dev" ;;
	esac
}

label_of() {
	local eng qd batch
	read -r eng qd batch <<<"$1"
	[ "$eng" = stateless ] && eng=pread
	printf '%s %s/%s' "$eng" "$qd" "$batch"
}

declare -A per
who=(rebench timed bare)
[ -n "$tio" ] && who+=(tio)
echo "instructions per I/O (user space, callgrind): 4 KiB random O_DIRECT reads on $dev ($kind)"
echo "(Ir of $((2 * ios)) I/Os - Ir of $ios I/Os) / $ios; goals: pread <= 150, naio and uring <= 1.2 x t/io_uring"
for c in "${cases[@]}"; do
	read -r eng qd batch <<<"$c"
	for w in "${who[@]}"; do
		per["$c|$w"]=-
		[ "$w" = tio ] && [ "$eng" = stateless ] && continue	# no pread loop
		a=$(run "$w" "$eng" "$qd" "$batch" "$ios" "$work/$w.$eng.1")
		b=$(run "$w" "$eng" "$qd" "$batch" $((2 * ios)) "$work/$w.$eng.2")
		per["$c|$w"]=$(awk -v a="$a" -v b="$b" -v n="$ios" 'BEGIN {printf "%.1f", (b - a) / n}')
	done
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b == "-" || b + 0 == 0) print "-"; else printf "%.2f", a / b}'; }
printf '%-13s %8s %8s %8s %10s  %8s %8s %8s\n' "engine qd/bat" rebench timed bare t/io_uring rb/timed rb/bare rb/tio
for c in "${cases[@]}"; do
	printf '%-13s %8s %8s %8s %10s  %8s %8s %8s\n' "$(label_of "$c")" \
		"${per[$c|rebench]}" "${per[$c|timed]}" "${per[$c|bare]}" "${per[$c|tio]:--}" \
		"$(ratio "${per[$c|rebench]}" "${per[$c|timed]}")" \
		"$(ratio "${per[$c|rebench]}" "${per[$c|bare]}")" \
		"$(ratio "${per[$c|rebench]}" "${per[$c|tio]:--}")"
done
[ -n "$tio" ] || echo "(t/io_uring: not measured; TIO_URING=PATH, see bench/t_io_uring-count.patch)"

# Per function: the difference of the two runs' self costs over the extra
# I/Os; a function's inlined parts by the file they came from.
for c in "${cases[@]}"; do
	read -r eng qd batch <<<"$c"
	echo
	echo "rebench $(label_of "$c"), instructions per I/O by function (self cost; inlined code by source file):"
	join -a 1 -a 2 -e 0 -o 0,1.2,2.2 \
		<(funcs "$work/rebench.$eng.1" | awk '{print $2, $1}' | sort -k 1,1) \
		<(funcs "$work/rebench.$eng.2" | awk '{print $2, $1}' | sort -k 1,1) |
		awk -v n="$ios" -v top="$top" '
		{
			d = ($3 - $2) / n
			f = $1; file = f; sub(/:.*/, "", file); sub(/^.*:/, "", f)
			sub(/^.*\//, "", file)
			sum[f] += d
			if (d >= 0.5 || d <= -0.5) {
				part[f] = part[f] sprintf("%s%s %.0f", part[f] == "" ? "" : ", ", file, d)
				parts[f]++
			}
		}
		END {
			for (f in sum) if (sum[f] >= 0.5) print sum[f], f, (parts[f] > 1 ? "(" part[f] ")" : "")
		}' | sort -k 1,1gr | head -n "$top" |
		awk '{v = $1; f = $2; $1 = $2 = ""; sub(/^ +/, ""); printf "  %7.1f  %-32s %s\n", v, f, $0}'
done

# --verify: per 4 KiB write, unverified and verified inline by each
# checksum (an algorithm this rebench was built without is skipped)
echo
echo "rebench --verify, instructions per 4 KiB write (sequential, -t stateless, --sync none; inline: the block filled, summed, written, read back and checked):"
for algo in off crc32c xxh64 sha256; do
	v=()
	[ "$algo" != off ] && v=(--verify "$algo" --verify-mode inline)
	if ! "$rebench" -n -y -o write -w seq --sync none -t stateless -b 4k -d 4k "${v[@]}" "$dev" >/dev/null 2>&1; then
		printf '  %-8s %10s\n' "$algo" "not built"
		continue
	fi
	a=$(cg "$work/verify.$algo.1" "$rebench" -n -y -o write -w seq --sync none -t stateless -b 4k -d "$((ios * 4))k" --seed 1 "${v[@]}" "$dev")
	b=$(cg "$work/verify.$algo.2" "$rebench" -n -y -o write -w seq --sync none -t stateless -b 4k -d "$((2 * ios * 4))k" --seed 1 "${v[@]}" "$dev")
	printf '  %-8s %10.1f\n' "$algo" "$(awk -v a="$a" -v b="$b" -v n="$ios" 'BEGIN {print (b - a) / n}')"
done
