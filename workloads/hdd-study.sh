#!/usr/bin/env bash
# hdd-study.sh - what a disk's mechanics cost, measured by rebench on a
# model disk whose parameters are known (rebench-modeldev(1), hdd:) and set
# beside what those parameters say it should show:
#
#   (a) sequential against random 4 KiB reads (the read-ahead stream
#       against a seek, half a revolution and a transfer);
#   (b) random 4 KiB reads short-stroked (-e) to the first 1 .. 100 % of
#       the device: latency against stroke (shorter seeks);
#   (c) sequential reads over the first and the last 10 % (zones): MiB/s,
#       a track's bytes per revolution, outer against inner.
#
#   sudo workloads/hdd-study.sh [-o DIR] [--model MODEL] [--size SIZE]
#        [--reads N] [--repeat N] [--strokes LIST] [--zone PCT] [--seed N]
#        [TARGET]
#
#   -o DIR          where the tables and the plot go [.]
#   --model MODEL   the model device's MODEL, hdd:KEY=VALUE,... [hdd:rpm=7200,
#                   seek_min=600us,seek_max=15ms,track=256k,inner=50,
#                   switch=1ms,readahead=256k: the model's defaults, with
#                   256 KiB outer tracks, so that a 4 KiB read off the
#                   platter (130 us) stands clear of the ~40 us the kernel
#                   and FUSE add]
#   --size SIZE     the model device's size [256m]
#   --reads N       random reads in each run [120]
#   --repeat N      runs of each point (rebench --repeat: the mean of the
#                   runs and its 95% interval) [5]
#   --strokes LIST  (b)'s strokes, % of the device [1,2,5,10,25,50,100]
#   --zone PCT      (c)'s zones, % of the device at each end [10]
#   --seed N        the first run's seed (rebench --seed) [1]
#   TARGET          a block device to read instead of a model device of the
#                   study's own (only read; a model disk's device gives the
#                   expected columns, any other disk none)
#
# Without a TARGET the study starts its own model device
# (workloads/model-device.sh up --size SIZE MODEL), names it on stderr and
# removes it on every way out (an error, Ctrl-C, SIGTERM).  Each point
# reads at queue depth 1 with O_DIRECT, after one read of the device's last
# 4 KiB (it empties the model's read-ahead window, which keeps its start
# for as long as a stream hits it) and, for (b), one of the region's last
# 4 KiB (the head waits in the region).  (a)'s sequential reads are 16 MiB
# from the start, each run's first from the platter.  DIR gets:
#
#   hdd-study-seqrnd.tsv        (a): seq and rnd rows
#   hdd-study-stroke.tsv        (b): a row per stroke
#   hdd-study-zones.tsv         (c): outer and inner rows
#   hdd-study-stroke-model.tsv  the expected latency at 30 strokes
#   hdd-study-zone-model.tsv    a track's MiB/s against its place
#   hdd-study.png               the three, measured against expected
#
# Latencies are in us: the mean of the runs' averages and of their medians,
# each with its 95% interval; the expected values come from the model's
# keys and geometry alone (lib-hdd-model.awk), and the model's own
# counters say what it did (media reads, read-ahead hits, seeks, the
# tracks they crossed, seek and rotation time per media read).  (c) reads
# each zone once (at most 256 MiB of it) in blocks of the model's
# read-ahead (at most 1 MiB), and its MiB/s is the stream's, from the
# completions of the second read to the last (rebench's per-I/O log: the
# first read's seek and rotation left out; run_mib_s has them).  A path
# the study would write that is not a regular file, or a bad option, is
# refused with exit status 1 before anything runs; a failed step exits
# non-zero with rebench's or model-device.sh's reason.  About a minute
# with the defaults.
set -euo pipefail
prog=hdd-study.sh
DEFAULT_MODEL=hdd:rpm=7200,seek_min=600us,seek_max=15ms,track=256k,inner=50,switch=1ms,readahead=256k

usage() { sed -n '/^#   sudo/,/^# with the defaults\./p' "$0" | sed 's/^# \{0,1\}//'; }
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }
say() { printf '%s: %s\n' "${prog%.sh}" "$*" >&2; }

out=. model='' size='' reads=120 repeat=5 strokes=1,2,5,10,25,50,100 zone=10 seed=1 target=''
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o | --model | --size | --reads | --repeat | --strokes | --zone | --seed)
		[ $# -ge 2 ] || die "$1 needs a value (see $prog -h)"
		case $1 in
		-o) out=$2 ;;
		--model) model=$2 ;;
		--size) size=$2 ;;
		--reads) reads=$2 ;;
		--repeat) repeat=$2 ;;
		--strokes) strokes=$2 ;;
		--zone) zone=$2 ;;
		--seed) seed=$2 ;;
		esac
		shift ;;
	--) shift; [ $# -le 1 ] || die "one TARGET only: $*"; target=${1:-}; break ;;
	-*) die "unknown option $1 (see $prog -h)" ;;
	*) [ -z "$target" ] || die "one TARGET only: $target and $1"
	   target=$1 ;;
	esac
	shift
done

# the options, checked before anything runs
isint() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
{ isint "$reads" && [ "$reads" -ge 10 ] && [ "$reads" -le 1000000 ]; } ||
	die "--reads $reads: give a whole number of random reads a run, 10 to 1000000"
{ isint "$repeat" && [ "$repeat" -ge 1 ] && [ "$repeat" -le 100 ]; } ||
	die "--repeat $repeat: give a whole number of runs a point, 1 to 100 (3 or more for an interval)"
isint "$seed" || die "--seed $seed: give a whole number"
# a number in (0, MAX]: printed as %g (1, 2.5) or nothing
pct() { awk -v v="$1" -v m="$2" 'BEGIN { if (v !~ /^([0-9]+[.]?[0-9]*|[.][0-9]+)$/ || v + 0 <= 0 || v + 0 > m) exit 1; printf "%g", v }'; }
zone=$(pct "$zone" 50) || die "--zone $zone: give the zones' share of the device in %, above 0 and at most 50"
list=''
IFS=, read -r -a _s <<<"$strokes"
for s in "${_s[@]}"; do
	v=$(pct "$s" 100) || die "--strokes $strokes: '$s' is not a stroke; give % of the device, above 0 and at most 100, separated by commas (1,5,25,100)"
	list="$list $v"
done
[ -n "$list" ] || die "--strokes: give at least one stroke (1,5,25,100)"
# shellcheck disable=SC2086 # the list's words
strokes=$(printf '%s\n' $list | sort -g -u | paste -sd' ')
if [ -n "$target" ]; then
	[ -z "$model$size" ] || die "--model and --size shape the study's own model device; with a TARGET ($target) leave them out"
	[ -b "$target" ] || die "$target is not a block device: give a disk (it is only read) or no TARGET for a model device of the study's own"
fi
model=${model:-$DEFAULT_MODEL}
size=${size:-256m}
case $model in
hdd | hdd:*) ;;
*) die "--model $model: the study is about a disk's seeks, rotation and zones; give an hdd: model (hdd:rpm=5400,...: man rebench-modeldev)" ;;
esac
sizeb=$(numfmt --from=iec "$(printf '%s' "${size%[bB]}" | tr '[:lower:]' '[:upper:]')" 2>/dev/null) ||
	die "--size $size is not a size (256m, 1g)"
[ "$sizeb" -ge $((16 << 20)) ] || die "--size $size: give 16m or more (a model disk needs tracks enough to stroke)"

# the clone's or the installed rebench and plots/ (lib-locate.sh says how)
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=SCRIPTDIR/lib-locate.sh
. "$here/lib-locate.sh"
rebench_locate hdd-study.gp || exit 1
[ -f "$here/lib-hdd-model.awk" ] || die "$here/lib-hdd-model.awk is missing: the study computes what the model should show with it"
# shellcheck source=SCRIPTDIR/lib-outpath.sh
. "$here/lib-outpath.sh"
names=(hdd-study-seqrnd.tsv hdd-study-stroke.tsv hdd-study-zones.tsv
	hdd-study-stroke-model.tsv hdd-study-zone-model.tsv hdd-study.png)
outpath_check_all "$out" "the study's output" "${names[@]}" || exit 1
for c in jq gnuplot numfmt; do
	command -v "$c" >/dev/null || die "needs $c (apt-get install $c)"
done
[ "$(id -u)" = 0 ] || die "needs root: it reads a block device with O_DIRECT and, without a TARGET, starts a model device (a FUSE mount and a loop device); run it with sudo"

# shellcheck source=SCRIPTDIR/lib-scratch.sh
. "$here/lib-scratch.sh"
scratch_begin hdd-study
tmp=$scratch_dir
made=''
cleanup() {
	local rc=$?
	if [ -n "$made" ]; then
		"$here/model-device.sh" down "$made" || say "could not remove the model device $made (model-device.sh list shows it)"
	fi
	scratch_end
	return $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -z "$target" ]; then
	# model-device.sh says what is wrong (a bad key, no rebench-modeldev,
	# no /dev/fuse) and leaves nothing behind when it fails
	made=$("$here/model-device.sh" up --size "$size" "$model") || exit 1
	target=$made
	say "model disk $made: $model, $size ($(dirname "$(dirname "$(losetup -nO BACK-FILE "$made")")"))"
fi
ctr() { "$here/model-device.sh" counters "$target"; }
ismodel=''
if ctr >"$tmp/counters" 2>/dev/null; then
	if [ "$(awk '$1 == "model" { print $2 }' "$tmp/counters")" = hdd ]; then
		ismodel=1
	else
		say "$target is a model device but not a disk: no expected values"
	fi
fi
devsize=$(blockdev --getsize64 "$target") || die "cannot read the size of $target"
sec=$(awk '$1 == "key.sector" { print $2 }' "$tmp/counters")
sec=${sec:-512}

# The points' geometry: -e PCT% is floor(size x PCT / 100) bytes, and
# random 4 KiB reads need a few slots in it.
for s in $strokes; do
	n=$(awk -v b="$devsize" -v p="$s" 'BEGIN { printf "%d", int(b * p / 100) / 4096 }')
	[ "$n" -ge 16 ] || die "--strokes: $s% of $target is $n slots of 4 KiB; give strokes of 64 KiB or more"
done
ra=$(awk '$1 == "key.readahead" { print $2 }' "$tmp/counters")
if [ -n "$ismodel" ] && [ "${ra:-0}" -ge 4096 ]; then
	zbs=$((ra / 4096 * 4096))	# the read-ahead keeps up with a block its size
	[ "$zbs" -le 1048576 ] || zbs=1048576
elif [ -n "$ismodel" ]; then
	zbs=262144	# no read-ahead: each read waits a revolution
else
	zbs=1048576
fi
read -r zoff zlen <<<"$(awk -v b="$devsize" -v z="$zone" -v bs="$zbs" 'BEGIN {
	len = int(b * z / 100 / bs) * bs
	if (len > 268435456) len = 268435456
	printf "%d %d", int(b * (100 - z) / 100 / bs) * bs, len }')"
[ "$zlen" -ge $((4 * zbs)) ] || die "--zone $zone: $zone% of $target is less than 4 reads of $((zbs / 1024)) KiB; give a larger zone or device"
seqlen=$((16 << 20))
[ "$seqlen" -le "$devsize" ] || seqlen=$((devsize / 4096 * 4096))

# read4k OFFSET: one 4 KiB read at OFFSET, past the page cache
read4k() {
	dd if="$target" of=/dev/null bs=4096 skip=$(($1 / 4096)) count=1 iflag=direct status=none 2>"$tmp/dd.err" ||
		{ cat "$tmp/dd.err" >&2; die "cannot read 4 KiB at $1 of $target"; }
}
# run NAME PARK REBENCH-ARGS...: rebench --json on the target into
# $tmp/NAME.json, and the growth of the model's counters into $tmp/NAME.ctr.
# First a read of the device's last 4 KiB, so that no read-ahead window
# of the point before covers this one's reads (the model's window keeps
# its start for as long as a stream hits it: after (a)'s 16 MiB every
# read in them would be a hit), then, unless PARK is -, one at PARK: the
# head waits in the region, and the first read's seek is one of the
# region's.
run() {
	local name=$1 park=$2
	shift 2
	read4k $(((devsize / 4096 - 1) * 4096))
	[ "$park" = - ] || read4k "$park"
	[ -z "$ismodel" ] || ctr >"$tmp/$name.c0"
	if ! "$rebench" --json "$@" "$target" >"$tmp/$name.json" 2>"$tmp/$name.err"; then
		cat "$tmp/$name.err" >&2
		die "rebench $* $target failed"
	fi
	# Ctrl-C reaches rebench too, which ends its run and reports it: the
	# study stops there (bash itself lets a SIGINT go that its child took)
	if [ "$(jq -r '.interrupted' "$tmp/$name.json")" = true ]; then
		say "interrupted"
		exit 130
	fi
	if [ -n "$ismodel" ]; then
		ctr >"$tmp/$name.c1"
		awk 'NR == FNR { a[$1] = $2; next } $2 ~ /^[0-9]+$/ { print $1, $2 - a[$1] }' \
			"$tmp/$name.c0" "$tmp/$name.c1" >"$tmp/$name.ctr"
	fi
}
# cv NAME KEY: how much the model's counter KEY grew in NAME's run ("-"
# without a model)
cv() { if [ -n "$ismodel" ]; then awk -v k="$2" '$1 == k { print $2 }' "$tmp/$1.ctr"; else echo -; fi; }
# lat NAME: total reads, then mean, low and high of the runs' average and
# median latencies (us; "-" without an interval)
lat() {
	jq -r '.workloads[0] | .results as $r | (.repeat // {}) as $p |
		def r1: if . == null then "-" else (. * 10 | round / 10) end;
		[$r.ios * ($p.runs // 1),
		 ($p.lat_avg_us.mean // $r.latency_us.avg | r1), ($p.lat_avg_us.ci95_low | r1), ($p.lat_avg_us.ci95_high | r1),
		 ($p.lat_p50_us.mean // $r.latency_us.p50 | r1), ($p.lat_p50_us.ci95_low | r1), ($p.lat_p50_us.ci95_high | r1)] | @tsv' \
		"$tmp/$1.json"
}
rep=()
[ "$repeat" -gt 1 ] && rep=(--repeat "$repeat")

# (a) sequential 4 KiB reads from the start (the stream (c) measures, in
# small reads); the random ones are (b)'s whole-device point
say "(a) $repeat x $((seqlen / 4096)) sequential 4 KiB reads"
run seq - -o read -w seq -b 4k -d "$((seqlen / 1024))k" --seed "$seed" "${rep[@]}"
# (b) random 4 KiB reads over the first STROKE %
for s in $strokes; do
	say "(b) $repeat x $reads random 4 KiB reads over the first $s%"
	run "stroke-$s" "$(awk -v b="$devsize" -v p="$s" 'BEGIN { printf "%d", (int(int(b * p / 100) / 4096) - 1) * 4096 }')" \
		-o read -w rnd -b 4k -e "$s%" -d "$((reads * 4))k" --seed "$seed" "${rep[@]}"
done
if [[ " $strokes " != *" 100 "* ]]; then
	say "(a) $repeat x $reads random 4 KiB reads over the whole device"
	run stroke-100 $(((devsize / 4096 - 2) * 4096)) -o read -w rnd -b 4k -d "$((reads * 4))k" --seed "$seed" "${rep[@]}"
fi
# (c) each zone once, sequentially, every read's completion logged
for z in outer inner; do
	o=0
	[ $z = inner ] && o=$zoff
	say "(c) $((zlen / 1048576)) MiB read sequentially in $((zbs / 1024)) KiB blocks from $((o / 1048576)) MiB ($z zone)"
	run "zone-$z" - -o read -w seq -b "$zbs" -j "$o" -e "$zlen" -d "$((zlen / 1024))k" -g 0 --output "$tmp/zone-$z.log"
done

# What the model's keys say: the strokes measured and 30 more for the
# curve, the streams (a) and (c) read, a track's rate by its place
curve=$(awk -v lo="${strokes%% *}" 'BEGIN { if (lo > 0.5) lo = 0.5
	for (i = 0; i < 30; i++) printf "%g ", lo * (100 / lo) ^ (i / 29) }')
if [ -n "$ismodel" ]; then
	awk -v bs=4096 -v strokes="$strokes 100 $curve" -v rates=300 \
		-v streams="seq:0:4096:$((devsize / sec - 1)) seq2:0:4096:$((seqlen / sec - 1)) outer:0:$zbs:0 inner:$zoff:$zbs:0" \
		-f "$here/lib-hdd-model.awk" "$tmp/counters" >"$tmp/expected" ||
		die "cannot compute what the model should show (lib-hdd-model.awk)"
fi
# ex KIND KEY FIELD: a field of the expected line KIND KEY ("-" without a
# model)
ex() { if [ -n "$ismodel" ]; then awk -F'\t' -v k="$1" -v w="$2" -v f="$3" '$1 == k && $2 == w { print $f; exit }' "$tmp/expected"; else echo -; fi; }
us() { awk -v v="$1" 'BEGIN { if (v == "-" || v == "") print "-"; else printf "%.1f", v / 1000 }'; }
# per1k A B: A / B / 1000, one decimal ("-" when either is)
per1k() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.1f", a / b / 1000 }'; }
per() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }

T=$tmp/seqrnd.tsv
printf 'pattern\tblock_bytes\treads\tlat_avg_us\tlat_avg_ci_low_us\tlat_avg_ci_high_us\tlat_p50_us\tlat_p50_ci_low_us\tlat_p50_ci_high_us\texpected_avg_us\texpected_p50_us\tmedia_reads\treadahead_hits\tseeks\tseek_tracks\n' >"$T"
# the stream's time a read, and each run's first read from the platter:
# the first run's from the end of the device (run parked the head there),
# the others' from where the run before ended
if [ -n "$ismodel" ]; then
	e=$(awk -F'\t' -v r="$repeat" -v n=$((seqlen / 4096)) '$1 == "stream" && $2 == "seq" { t = $7; f1 = $9 }
		$1 == "stream" && $2 == "seq2" { f2 = $9 }
		END { printf "%.1f\t%.1f", (t + (f1 + (r - 1) * f2 - r * t) / (r * n)) / 1000, t / 1000 }' "$tmp/expected")
else
	e=$(printf -- '-\t-')
fi
printf 'seq\t4096\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(lat seq)" "$e" \
	"$(cv seq hdd.media_reads)" "$(cv seq hdd.readahead_hits)" "$(cv seq hdd.seeks)" "$(cv seq hdd.seek_tracks)" >>"$T"
p=stroke-100
printf 'rnd\t4096\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(lat "$p")" "$(us "$(ex stroke 100 4)")" "$(us "$(ex stroke 100 5)")" \
	"$(cv "$p" hdd.media_reads)" "$(cv "$p" hdd.readahead_hits)" "$(cv "$p" hdd.seeks)" "$(cv "$p" hdd.seek_tracks)" >>"$T"

T=$tmp/stroke.tsv
printf 'stroke_pct\tregion_bytes\treads\tlat_avg_us\tlat_avg_ci_low_us\tlat_avg_ci_high_us\tlat_p50_us\tlat_p50_ci_low_us\tlat_p50_ci_high_us\texpected_avg_us\texpected_p50_us\tmedia_reads\treadahead_hits\tseeks\tseek_tracks\ttracks_per_media_read\texpected_tracks\tseek_us\texpected_seek_us\trotation_us\texpected_rotation_us\n' >"$T"
for s in $strokes; do
	p=stroke-$s
	m=$(cv "$p" hdd.media_reads)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" \
		"$(jq -r '.workloads[0].parameters.region_length' "$tmp/$p.json")" "$(lat "$p")" \
		"$(us "$(ex stroke "$s" 4)")" "$(us "$(ex stroke "$s" 5)")" \
		"$m" "$(cv "$p" hdd.readahead_hits)" "$(cv "$p" hdd.seeks)" "$(cv "$p" hdd.seek_tracks)" \
		"$(per "$(cv "$p" hdd.seek_tracks)" "$m")" "$(ex stroke "$s" 7 | awk '{ printf "%s", $1 == "-" ? "-" : sprintf("%.2f", $1) }')" \
		"$(per1k "$(cv "$p" hdd.seek_ns)" "$m")" "$(us "$(ex stroke "$s" 6)")" \
		"$(per1k "$(cv "$p" hdd.rotation_ns)" "$m")" "$(us "$(ex stroke "$s" 9)")" >>"$T"
done

T=$tmp/zones.tsv
printf 'zone\tzone_pct\toffset_bytes\tposition_pct\tbytes\tblock_bytes\tmib_s\tmib_s_ci_low\tmib_s_ci_high\trun_mib_s\texpected_mib_s\ttrack\ttrack_bytes\tmedia_reads\treadahead_hits\n' >"$T"
for z in outer inner; do
	o=0
	[ $z = inner ] && o=$zoff
	# the stream from the first read's completion to the last: the mean
	# time between completions, and its 95% interval
	bw=$(awk -F'\t' -v bs="$zbs" 'NR > 1 { t[++n] = $2 }
		END {
			if (n < 3) { print "-\t-\t-"; exit }
			for (i = 2; i <= n; i++) { d = t[i] - t[i - 1]; s += d; ss += d * d }
			k = n - 1; m = s / k; sd = sqrt((ss - k * m * m) / (k - 1 > 0 ? k - 1 : 1))
			h = 1.96 * sd / sqrt(k)
			f = bs / 1048576
			printf "%.2f\t%.2f\t%s\n", f / m, f / (m + h), (m > h ? sprintf("%.2f", f / (m - h)) : "-")
		}' "$tmp/zone-$z.log")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$z" "$zone" "$o" \
		"$(awk -v o="$o" -v b="$devsize" 'BEGIN { printf "%.2f", 100 * o / b }')" "$zlen" "$zbs" "$bw" \
		"$(jq -r '.workloads[0].results.mib_per_s * 100 | round / 100' "$tmp/zone-$z.json")" \
		"$(ex stream $z 8 | awk '{ printf "%s", $1 == "-" ? "-" : sprintf("%.2f", $1) }')" \
		"$(ex stream $z 5)" "$(ex stream $z 6 | awk -v s="$sec" '{ printf "%s", $1 == "-" ? "-" : $1 * s }')" \
		"$(cv zone-$z hdd.media_reads)" "$(cv zone-$z hdd.readahead_hits)" >>"$T"
done

printf 'stroke_pct\tslots\texpected_avg_us\texpected_p50_us\texpected_seek_us\texpected_tracks\tp_readahead_hit\n' >"$tmp/stroke-model.tsv"
printf 'position_pct\ttrack\ttrack_bytes\tmib_s\n' >"$tmp/zone-model.tsv"
if [ -n "$ismodel" ]; then
	awk -F'\t' -v c=" $curve " '$1 == "stroke" && index(c, " " $2 " ") && !seen[$2]++ {
		printf "%s\t%s\t%.1f\t%.1f\t%.1f\t%.2f\t%s\n", $2, $3, $4 / 1000, $5 / 1000, $6 / 1000, $7, $8 }' \
		"$tmp/expected" | sort -g >>"$tmp/stroke-model.tsv"
	awk -F'\t' '$1 == "rate" { printf "%s\t%s\t%s\t%.3f\n", $2, $3, $4, $5 }' "$tmp/expected" >>"$tmp/zone-model.tsv"
fi

mkdir -p -- "$out"
for t in seqrnd stroke zones stroke-model zone-model; do
	cp -- "$tmp/$t.tsv" "$out/hdd-study-$t.tsv"
done

# what the plot says it shows
if [ -n "$ismodel" ]; then
	about=$(awk -v dev="$target" '{ v[$1] = $2 }
		function ms(ns) { return sprintf("%g ms", ns / 1e6) }
		function kib(b) { return b >= 1048576 ? sprintf("%g MiB", b / 1048576) : sprintf("%g KiB", b / 1024) }
		END {
			printf "model disk %s: %d rpm, seek %s to %s, %d tracks of %s to %s, switch %s, read-ahead %s, %s", dev,
				v["key.rpm"], ms(v["key.seek_min"]), ms(v["key.seek_max"]), v["hdd.tracks"],
				kib(v["hdd.outer_track_sectors"] * v["key.sector"]), kib(v["hdd.inner_track_sectors"] * v["key.sector"]),
				ms(v["key.switch"]), kib(v["key.readahead"]), kib(v["size"])
		}' "$tmp/counters")
else
	about="$target$(jq -r '.workloads[0].target.model // "" | if . == "" then "" else " (\(.))" end' "$tmp/seq.json")"
fi
runs="$repeat runs of $reads random reads a point"
[ "$repeat" -gt 1 ] || runs="$reads random reads a point"
gnuplot -e "rb_target='${about//\'/\'\'}'" \
	-e "rb_about='reads at QD 1, O_DIRECT'" \
	-e "rb_duration='$runs, $repeat of $((seqlen >> 20)) MiB sequential, each zone once ($((zlen >> 20)) MiB)'" \
	-e "rb_made='rebench hdd-study.sh, $(date '+%Y-%m-%d %H:%M')'" \
	-c "$plots/hdd-study.gp" "$out/hdd-study" "$out/hdd-study.png"

# the summary: measured against expected
awk -F'\t' -v z="$zone" '
	function ms(u) { return u == "-" ? "-" : sprintf(u >= 1000 ? "%.2f ms" : "%.0f us", u >= 1000 ? u / 1000 : u) }
	function x(a, b) { return (a == "-" || b == "-" || b + 0 == 0) ? "-" : sprintf(a / b < 10 ? "%.2fx" : "%.0fx", a / b) }
	FILENAME ~ /seqrnd/ && FNR > 1 { A[$1] = $4; P[$1] = $7; EA[$1] = $10; EP[$1] = $11 }
	FILENAME ~ /zones/ && FNR > 1 { B[$1] = $7; EB[$1] = $11 }
	END {
		printf "(a) random 4 KiB read: avg %s, expected %s; p50 %s, expected %s\n", ms(A["rnd"]), ms(EA["rnd"]), ms(P["rnd"]), ms(EP["rnd"])
		printf "    sequential 4 KiB read: avg %s, expected %s (p50 %s, expected %s)\n", ms(A["seq"]), ms(EA["seq"]), ms(P["seq"]), ms(EP["seq"])
		printf "    random / sequential (avg): %s, expected %s\n", x(A["rnd"], A["seq"]), x(EA["rnd"], EA["seq"])
		printf "(c) outer %s%%: %s MiB/s, expected %s; inner %s%%: %s MiB/s, expected %s; outer/inner %s, expected %s\n",
			z, B["outer"], EB["outer"], z, B["inner"], EB["inner"], x(B["outer"], B["inner"]), x(EB["outer"], EB["inner"])
	}' "$out/hdd-study-seqrnd.tsv" "$out/hdd-study-zones.tsv"
echo "(b) latency against stroke (us):"
cut -f1,4,7,10,11,16,17 "$out/hdd-study-stroke.tsv" | column -t -s "$(printf '\t')" | sed 's/^/    /'
echo "hdd-study: $out/hdd-study-{seqrnd,stroke,zones,stroke-model,zone-model}.tsv, $out/hdd-study.png"
