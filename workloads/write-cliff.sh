#!/usr/bin/env bash
# write-cliff.sh - the write cliff of a model SSD, and where the SNIA PTS
# steady state puts it: random 4 KiB writes at queue depth 1 on a fresh
# model SSD (never written) in rounds of rebench --steady-state, so the
# rounds show the fresh drive's speed, the cliff when its free erase
# blocks run out and garbage collection starts moving pages, and the level
# it settles at; and the model's own counters (rebench-modeldev(1)) say
# what each round cost the flash: the write amplification (pages
# programmed per page written) and the ops/s that implies.
#
#   sudo workloads/write-cliff.sh [-o DIR] [--model MODEL] [--size SIZE]
#                                 [--round SECONDS] [--max-rounds N]
#                                 [--no-precondition] [--seed N]
#
#   -o DIR             where the results go [.]: write-cliff.tsv (the
#                      exact and per-window figures), write-cliff-rounds.tsv
#                      (every round), write-cliff.png, and rebench's own
#                      documents write-cliff-fresh.json and
#                      write-cliff-precondition.json
#   --model MODEL      the model SSD [ssd:block=16,op=7,read=100us,
#                      program=400us,erase=1ms,channels=4]: 16-page erase
#                      blocks and 7% spare flash, so that garbage
#                      collection moves several pages per page written once
#                      the drive is full; page programs of 400 us, ten
#                      times what the kernel, the loop device and FUSE add
#   --size SIZE        the model device's size [16m]: the fresh phase is
#                      about the size written once, the cliff a few times
#                      that; the model keeps what is written in memory
#   --round SECONDS    --round of --steady-state [2]: the fresh drive's
#                      speed lasts for about the size written once (about
#                      a round with the defaults); shorter rounds show more
#                      of it, but the criteria (5 rounds within 20%, a
#                      slope under 10%) then pass on the slow tail of the
#                      cliff sooner, further above the true steady level,
#                      and a round holds fewer writes (noisier)
#   --max-rounds N     --max-rounds of --steady-state [40]
#   --no-precondition  skip the second run (rounds of --precondition
#                      --steady-state on a second new model device)
#   --seed N           the first seed of the random offsets [1]
#
# What it runs, each on a model device of its own (model-device.sh up),
# removed on every way out:
#
#   1. fresh: SIZE/4 of random writes on the new device, the model's
#      counters before and after: the fresh speed, with no garbage
#      collection (write amplification 1), and the floor (what each write
#      costs beyond the flash's own time: kernel, loop device, FUSE);
#   2. rounds of rebench --steady-state on the same device, with no
#      --precondition: the cliff happens in the rounds, and the counters,
#      read every 0.2 s, give each round its write amplification;
#   3. steady: SIZE/4 more random writes after the rounds, counters
#      before and after: the write amplification the rounds settled at,
#      exact, and the ops/s it implies beside what rebench measured;
#   4. unless --no-precondition, rounds of --precondition --steady-state
#      on a second new device: the PTS's preconditioning (the device
#      written twice sequentially) maps every page, so once the spare
#      blocks are used up (in the first round) the rounds are at the
#      steady level.
#
# The cliff shows only without --precondition; but until random writes
# have covered the whole device (several times its size written) the
# pages never written act as more spare flash, so the write amplification
# still rises slowly when the criteria pass: the fresh drive's steady
# state is judged above the level the preconditioned one shows.  The plot
# has both.
#
# The implied ops/s of a stretch of writes is 1 / (the flash time per
# write in it + the floor), the flash time per write from the counters
# (page reads x read + pages programmed x program + erases x erase, over
# the writes), the floor from step 1: at queue depth 1 each write waits
# for all the flash work it causes, garbage collection included.  The
# per-round figures come from counters read every 0.2 s and matched to
# the rounds by the writes done (rebench reports each round's ops/s, not
# its I/O count or start): close, not exact; the exact ones are steps 1
# and 3.  Needs root, rebench-modeldev (make, with libfuse3-dev), jq and
# gnuplot.  About a minute with the defaults.
set -euo pipefail
prog=write-cliff.sh
default_model='ssd:block=16,op=7,read=100us,program=400us,erase=1ms,channels=4'
usage() { sed -n '/^#   sudo/,/^#   --seed/p' "$0" | sed 's/^# \{0,1\}//'; }
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }

out=.
model=$default_model
size=16m
round=2
maxr=40
precond=1
seed=1
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	-o) [ $# -ge 2 ] || die "-o needs a directory"; out=$2; shift ;;
	--model) [ $# -ge 2 ] || die "--model needs a MODEL, such as $default_model"; model=$2; shift ;;
	--size) [ $# -ge 2 ] || die "--size needs a size, such as 16m"; size=$2; shift ;;
	--round) [ $# -ge 2 ] || die "--round needs seconds, such as 1 or 0.5"; round=$2; shift ;;
	--max-rounds) [ $# -ge 2 ] || die "--max-rounds needs a number of rounds, 5 or more"; maxr=$2; shift ;;
	--no-precondition) precond=0 ;;
	--seed) [ $# -ge 2 ] || die "--seed needs a number"; seed=$2; shift ;;
	*) die "$1: not an option of $prog (the options: -o DIR, --model MODEL, --size SIZE, --round SECONDS, --max-rounds N, --no-precondition, --seed N; -h says more)" ;;
	esac
	shift
done

# --- the arguments, all checked before anything is made
case $model in
ssd:*) ;;
hdd:*) die "--model $model: a disk has no erase blocks and no garbage collection, so no write cliff; give an ssd: model, such as $default_model" ;;
*) die "--model $model: give an ssd: model, such as $default_model (rebench-modeldev --help lists the keys)" ;;
esac
bytes=$(numfmt --from=iec "$(printf '%s' "${size%[bB]}" | tr '[:lower:]' '[:upper:]')" 2>/dev/null) ||
	die "--size $size: not a size; give one such as 16m or 64m"
if [ "$bytes" -lt $((1 << 20)) ] || [ "$bytes" -gt $((1 << 30)) ] || [ $((bytes % 131072)) -ne 0 ]; then
	die "--size $size: give 1m to 1g, a multiple of 128 KiB (the model holds what is written in memory, and --precondition writes 128 KiB blocks)"
fi
[[ $round =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--round $round: give seconds as a number, such as 1 or 0.5"
round_ms=$(awk -v r="$round" 'BEGIN { printf "%d", r * 1000 + 0.5 }')
[ "$round_ms" -ge 100 ] || die "--round $round: give 0.1 s or more (a round is 10 intervals of rebench's time series)"
if ! [[ $maxr =~ ^[0-9]+$ ]] || [ "$maxr" -lt 5 ]; then
	die "--max-rounds $maxr: give a whole number of 5 or more (the steady state is judged over the last 5 rounds)"
fi
[[ $seed =~ ^[0-9]+$ ]] || die "--seed $seed: give a whole number"

# the clone's or the installed rebench and plots/ (lib-locate.sh says how)
here=$(dirname "$0")
# shellcheck source=SCRIPTDIR/lib-locate.sh
. "$here/lib-locate.sh"
rebench_locate write-cliff.gp || exit 1
modeldev_locate || exit 1
# shellcheck source=SCRIPTDIR/lib-outpath.sh
. "$here/lib-outpath.sh"
# shellcheck source=SCRIPTDIR/lib-units.sh
. "$here/lib-units.sh"
outpath_check_all "$out" "the study's output" write-cliff.tsv write-cliff-rounds.tsv \
	write-cliff.png write-cliff-fresh.json write-cliff-precondition.json || exit 1
for c in jq gnuplot numfmt losetup; do
	command -v "$c" >/dev/null || die "needs $c (apt-get install ${c/numfmt/coreutils}; make deps installs what rebench needs)"
done
[ "$(id -u)" = 0 ] || die "needs root: it makes model devices (a FUSE mount and a loop device each); run it with sudo"
[ -c /dev/fuse ] || die "/dev/fuse is missing: the model device is a FUSE file system (modprobe fuse)"
mkdir -p -- "$out"

# --- cleanup on every way out: the counter sampler, the model devices, the
# scratch directory
md="$here/model-device.sh"
tmp='' sampler='' dev='' rbpid=''
cleanup() {
	if [ -n "$rbpid" ]; then
		kill -TERM "$rbpid" 2>/dev/null || true
		wait "$rbpid" 2>/dev/null || true
	fi
	if [ -n "$sampler" ]; then
		kill "$sampler" 2>/dev/null || true
		wait "$sampler" 2>/dev/null || true
	fi
	[ -n "$dev" ] && "$md" down "$dev" 2>/dev/null
	[ -n "$tmp" ] && rm -rf -- "$tmp"
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/write-cliff.XXXXXX") ||
	die "cannot make a scratch directory in ${TMPDIR:-/var/tmp}"

# model_up: a new model device (one at a time); sets dev and ctr (its
# counters file)
model_up() {
	dev=$("$md" up --size "$size" "$model") || {
		dev=''
		die "model-device.sh up --size $size $model failed (its message is above)"
	}
	ctr=$(dirname "$(losetup -nO BACK-FILE "$dev")")/counters
	[ -r "$ctr" ] || die "$dev: cannot read the model's counters ($ctr)"
	echo "$prog: model device $dev ($model, $size; state $(dirname "$(dirname "$ctr")"))" >&2
}
model_down() {
	"$md" down "$dev"
	dev=''
}
# rb OUT ARGS: rebench ARGS with its standard output in OUT; in the
# background and waited for, so that a signal to this script is acted on
# at once (bash runs a trap only once the command in the foreground ends)
# and the cleanup stops it
rb() {
	local o=$1 rc=0
	shift
	"$rebench" "$@" >"$o" &
	rbpid=$!
	wait "$rbpid" || rc=$?
	rbpid=''
	return "$rc"
}
# snap: one line "host programmed busy_ns gc_runs moved writes" of the
# counters now (busy: every channel's, page operations only)
snap() {
	awk '$1 == "ssd.host_pages_written" { h = $2 } $1 == "ssd.pages_programmed" { p = $2 }
		$1 ~ /^ssd\.channel[0-9]+\.busy_ns$/ { b += $2 } $1 == "ssd.gc_runs" { g = $2 }
		$1 == "ssd.gc_pages_moved" { m = $2 } $1 == "requests.write" { w = $2 }
		END { printf "%d %d %.0f %d %d %d\n", h, p, b, g, m, w }' "$ctr"
}
# sample_start FILE / sample_stop: the counters every 0.2 s into FILE (a
# reading, not a synchronisation: rounds are matched to readings by the
# writes done, never by time)
sample_start() {
	( while :; do snap; sleep 0.2; done ) >"$1" 2>/dev/null &
	sampler=$!
}
sample_stop() {
	kill "$sampler" 2>/dev/null || true
	wait "$sampler" 2>/dev/null || true
	sampler=''
}
key() { awk -v k="key.$1" '$1 == k { print $2 }' "$ctr"; }

wl=(-o write -w rnd -b 4k -q 1 --sync none --yes)
ss=(--steady-state --round "${round_ms}ms" -g "$((round_ms / 10))" --max-rounds "$maxr")

# 1. fresh
model_up
page=$(key page)
ppw=$(( page >= 4096 ? 1 : 4096 / page ))	# flash pages a 4 KiB write covers
s0=$(snap)
rb "$tmp/fresh1.json" --json "${wl[@]}" -d "$((bytes / 4 >> 10))k" --seed "$seed" "$dev" ||
	die "the fresh run failed (rebench's message is above)"
s1=$(snap)
fresh_ops=$(jq -r '.workloads[0].results.ops_per_s' "$tmp/fresh1.json")

# 2. the rounds, from fresh
echo "$s1" >"$tmp/samples-fresh"
sample_start "$tmp/samples-fresh.more"
rb "$tmp/fresh.json" --json "${wl[@]}" "${ss[@]}" --seed $((seed + 100)) "$dev" ||
	die "the --steady-state run failed (rebench's message is above)"
sample_stop
s2=$(snap)
cat "$tmp/samples-fresh.more" >>"$tmp/samples-fresh"
echo "$s2" >>"$tmp/samples-fresh"

# 3. steady: more writes after the rounds
rb "$tmp/steady.json" --json "${wl[@]}" -d "$((bytes / 4 >> 10))k" --seed $((seed + 200)) "$dev" ||
	die "the run after the rounds failed (rebench's message is above)"
s3=$(snap)
steady_ops=$(jq -r '.workloads[0].results.ops_per_s' "$tmp/steady.json")
model_down

# 4. the rounds after --precondition, on a new device
if [ "$precond" = 1 ]; then
	model_up
	s4=$(snap)
	echo "$s4" >"$tmp/samples-pre"
	sample_start "$tmp/samples-pre.more"
	rb "$tmp/pre.json" --json "${wl[@]}" "${ss[@]}" --precondition --seed $((seed + 100)) "$dev" ||
		die "the --precondition --steady-state run failed (rebench's message is above)"
	sample_stop
	s5=$(snap)
	cat "$tmp/samples-pre.more" >>"$tmp/samples-pre"
	echo "$s5" >>"$tmp/samples-pre"
	pre_pages=$(jq -r --argjson p "$page" '.workloads[0].precondition.bytes / $p | floor' \
		"$tmp/pre.json")
	model_down
else
	rm -f -- "$out/write-cliff-precondition.json"	# not this study's
fi

# --- the tables
# exact S_BEFORE S_AFTER: "writes gc_runs moved wa busy_us_per_write" of
# the writes between two counter readings
exact() {
	awk -v a="$1" -v b="$2" -v ppw="$ppw" 'BEGIN { split(a, x, " "); split(b, y, " ")
		h = y[1] - x[1]; w = h / ppw
		printf "%d %d %d %.3f %.1f\n", w, y[4] - x[4], y[5] - x[5], (y[2] - x[2]) / h, (y[3] - x[3]) / w / 1000 }'
}
read -r f_w f_g f_m f_wa f_busy <<<"$(exact "$s0" "$s1")"
read -r s_w s_g s_m s_wa s_busy <<<"$(exact "$s2" "$s3")"
# the floor: what a fresh write took beyond its flash time
floor_us=$(awk -v o="$fresh_ops" -v b="$f_busy" 'BEGIN { f = 1e6 / o - b; printf "%.1f", f < 0 ? 0 : f }')
implied() { awk -v b="$1" -v f="$floor_us" 'BEGIN { printf "%.1f", 1e6 / (b + f) }'; }

# rounds RUN JSON SAMPLES H0: a row per round; H0 is the host pages
# written when the rounds began.  Each round's pages are its ops/s x the
# round (scaled so that the rounds add up to the pages the counters say
# they wrote), its programmed pages and busy time interpolated from the
# readings at the pages written.
rounds() {
	jq -r '.workloads[0].steady_state as $s | $s.rounds[] |
		[.round, .ops_per_s, .lat_p99_us,
		 (if $s.window.first != null and .round >= $s.window.first and .round <= $s.window.last
		  then 1 else 0 end)] | @tsv' "$2" |
	awk -v run="$1" -v samples="$3" -v h0="$4" -v rs="$round_ms" -v ppw="$ppw" -v fl="$floor_us" '
		BEGIN { FS = "\t"; OFS = "\t"
			while ((getline l < samples) > 0) { split(l, x, " "); n++; H[n] = x[1]; P[n] = x[2]; B[n] = x[3] }
			h1 = H[n] }
		{ r[NR] = $1; ops[NR] = $2; p99[NR] = $3; win[NR] = $4; est += $2 * rs / 1000 }
		# programmed (what = P) or busy (B) at h host pages written
		function at(h, what,    i) {
			for (i = 2; i < n && H[i] < h; i++) ;
			if (H[i] == H[i - 1]) return what == "P" ? P[i] : B[i]
			if (what == "P") return P[i - 1] + (P[i] - P[i - 1]) * (h - H[i - 1]) / (H[i] - H[i - 1])
			return B[i - 1] + (B[i] - B[i - 1]) * (h - H[i - 1]) / (H[i] - H[i - 1])
		}
		END {
			k = est > 0 ? (h1 - h0) / est : 0
			a = h0
			for (j = 1; j <= NR; j++) {
				b = a + k * ops[j] * rs / 1000
				if (j == NR) b = h1
				w = (b - a) / ppw
				wa = b > a ? (at(b, "P") - at(a, "P")) / (b - a) : 0
				bu = w > 0 ? (at(b, "B") - at(a, "B")) / w / 1000 : 0
				printf "%s\t%d\t%.1f\t%.1f\t%d\t%.0f\t%.3f\t%.1f\t%.1f\n", run, r[j], ops[j], p99[j], win[j],
					w, wa, bu, 1e6 / (bu + fl)
				a = b
			}
		}'
}
{
	printf 'run\tround\tops_per_s\tlat_p99_us\tin_window\twrites\twa\tbusy_us_per_write\timplied_ops_per_s\n'
	rounds fresh "$tmp/fresh.json" "$tmp/samples-fresh" "${s1%% *}"
	if [ "$precond" = 1 ]; then
		rounds precondition "$tmp/pre.json" "$tmp/samples-pre" \
			$(( ${s4%% *} + pre_pages ))
	fi
} >"$tmp/rounds"
cp -- "$tmp/rounds" "$out/write-cliff-rounds.tsv"

# window RUN JSON: the summary row of a run's steady-state window (its
# rounds' writes, write amplification and busy time added up), or of
# its last 5 rounds when it did not get there
window() {
	local verdict first last
	verdict=$(jq -r '.workloads[0].steady_state.verdict' "$2")
	first=$(jq -r '.workloads[0].steady_state.window.first // 0' "$2")
	last=$(jq -r '.workloads[0].steady_state.window.last // 0' "$2")
	awk -F'\t' -v run="$1" -v f="$first" -v l="$last" -v v="$verdict" -v fl="$floor_us" '
		$1 == run && $2 >= f && $2 <= l { w += $6; ops += $3; n++; p += $6 * $7; bu += $6 * $8 }
		END { if (!n || !w) exit
			what = (v == "steady" ? "steady state" : "NOT steady, last rounds")
			printf "%s-window\t%s: rounds %d-%d\t%.0f\t%.1f\t-\t-\t%.3f\t%.1f\t%.1f\tsampled\n",
				run, what, f, l, w, ops / n, p / w, bu / w, 1e6 / (bu / w + fl) }' "$tmp/rounds"
}
{
	printf 'phase\twhat\twrites\tops_per_s\tgc_runs\tpages_moved\twa\tbusy_us_per_write\timplied_ops_per_s\tcounters\n'
	printf 'fresh\tnew device, %s written\t%s\t%.1f\t%s\t%s\t%s\t%s\t%s\texact\n' \
		"$((bytes / 4 >> 10)) KiB" "$f_w" "$fresh_ops" "$f_g" "$f_m" "$f_wa" "$f_busy" "$(implied "$f_busy")"
	window fresh "$tmp/fresh.json"
	printf 'steady\tafter the rounds, %s more\t%s\t%.1f\t%s\t%s\t%s\t%s\t%s\texact\n' \
		"$((bytes / 4 >> 10)) KiB" "$s_w" "$steady_ops" "$s_g" "$s_m" "$s_wa" "$s_busy" "$(implied "$s_busy")"
	if [ "$precond" = 1 ]; then
		window precondition "$tmp/pre.json"
	fi
} >"$tmp/table"
cp -- "$tmp/table" "$out/write-cliff.tsv"

# --- the plot
verdict() {
	jq -r '.workloads[0].steady_state | "\(.verdict) \(.window.first // 0) \(.window.last // 0) \(.range_pct) \(.slope_pct)"' "$1"
}
ss_pre=''
[ "$precond" = 1 ] && ss_pre=$(verdict "$tmp/pre.json")
gnuplot -e "rb_target='model SSD $model, $(iec_size "$size")'" \
	-e "rb_about='random 4 KiB writes (--sync none), QD 1'" \
	-e "rb_duration='rounds of $round s'" \
	-e "rb_made='$("$rebench" --version 2>/dev/null | head -n 1), $(date '+%Y-%m-%d %H:%M')'" \
	-e "round_s='$round'; ss_fresh='$(verdict "$tmp/fresh.json")'; ss_pre='$ss_pre'" \
	-e "fresh_ops=$fresh_ops; steady_wa=$s_wa; steady_ops=$steady_ops; steady_implied=$(implied "$s_busy")" \
	-c "$plots/write-cliff.gp" "$out/write-cliff-rounds.tsv" "$out/write-cliff.png"

cp -- "$tmp/fresh.json" "$out/write-cliff-fresh.json"
[ "$precond" = 1 ] && cp -- "$tmp/pre.json" "$out/write-cliff-precondition.json"
column -t -s "$(printf '\t')" "$out/write-cliff.tsv"
awk -v f="$fresh_ops" -v s="$steady_ops" -v fb="$f_busy" -v sb="$s_busy" -v fl="$floor_us" -v wa="$s_wa" 'BEGIN {
	printf "write cliff: %.0f ops/s fresh, %.0f at steady state: %.2fx; the write amplification of %.2f implies %.2fx ((%.0f + %.0f) / (%.0f + %.0f) us a write, flash + floor)\n",
		f, s, f / s, wa, (sb + fl) / (fb + fl), sb, fl, fb, fl }'
echo "write-cliff: $out/write-cliff.tsv, write-cliff-rounds.tsv, write-cliff.png, write-cliff-fresh.json$([ "$precond" = 1 ] && echo ", write-cliff-precondition.json")"
