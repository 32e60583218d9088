#!/usr/bin/env bash
# test_dist.sh - random offset distributions end to end, on a 64 MiB loop
# device full of data: every distribution (its defaults and one other
# setting each) reports the fit it achieved in --json (100 achieved and
# 100 intended shares, chi-square p-value, KS D, fit space), in the human
# "Distribution:" line and in -n fields 19-21; offsets stay in the -j/-e
# region on the stride and the reported shares are the ones the per-I/O log
# shows; --seed repeats the offsets; bad parameters are refused with the
# valid range.
#
# Every run is 5000 I/Os (-b 4k -d 20000k) with --seed 7, so the fit
# statistics are deterministic.  Significance: p > 0.001; KS D < 0.03
# (about 2.1 / sqrt(5000): a correct generator exceeds it with probability
# ~3e-4).
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq awk

DEV=$(make_loop 64M)
LOG=$SCRATCH/io.tsv
LOG2=$SCRATCH/io2.tsv
M=1048576
RUN=(-b 4k -d 20000k --seed 7)

# name|options: each distribution with its defaults and one non-default
# setting; center and scatter on a few.
CASES=(
	"uniform|-u uniform"
	"uniform --center 10|-u uniform --center 10"
	"normal|-u normal"
	"normal -i 20 --center 30|-u normal -i 20 --center 30"
	"pow|-u pow"
	"pow -i 20|-u pow -i 20"
	"exp -i 50|-u exp -i 50"
	"powerlaw|-u powerlaw"
	"powerlaw -i 20|-u powerlaw -i 20"
	"zipf|-u zipf"
	"zipf:0.8|-u zipf:0.8"
	"pareto|-u pareto"
	"pareto:0.1|-u pareto:0.1"
	"zoned:80/20:20/80|-u zoned:80/20:20/80"
	"zoned:60/10:30/20:10/70 --center 25|-u zoned:60/10:30/20:10/70 --center 25"
	"const|-u const"
	"const --center 50|-u const --center 50"
	"zipf:1.2 --scatter|-u zipf:1.2 --scatter"
	"pow --center 50 --scatter|-u pow --center 50 --scatter"
)

# One line of the JSON fit: ios dist_ios n_achieved sum_achieved n_intended
# sum_intended p_value ks_d fit_space dof n_achieved_rank sum_achieved_rank
# seed argmax_achieved.
fit_line() {
	jqr '.workloads[0] as $w | $w.results.distribution as $d |
		[$w.results.ios, $d.ios, ($d.achieved | length), ($d.achieved | add),
		 ($d.intended | length), ($d.intended | add), $d.p_value, $d.ks_d,
		 $d.fit_space, $d.dof, (($d.achieved_rank // []) | length),
		 (($d.achieved_rank // [0]) | add), $w.parameters.seed,
		 ($d.achieved | indices(max) | .[0])] | map(tostring) | join(" ")'
}

# check_fit NAME OPTIONS...: the JSON of the last run reports a fit that
# matches the intended distribution.
check_fit() {
	local name=$1 scatter=$2 line ios dios na sa ni si p d space dof nr sr seed top
	line=$(fit_line)
	read -r ios dios na sa ni si p d space dof nr sr seed top <<<"$line"
	if [ -z "$line" ] || [ "$dios" = null ]; then
		check_failed "$name: results.distribution is missing" "$(jqr '.workloads[0].results.distribution')"
		return
	fi
	assert_eq "5000 5000" "$ios $dios" "$name: 5000 I/Os, all counted in the distribution"
	assert_num "$name: 100 achieved shares summing to 1 (sum $sa)" \
		"$na == 100 && $sa > 1 - 1e-6 && $sa < 1 + 1e-6"
	assert_num "$name: 100 intended shares summing to 1 (sum $si)" \
		"$ni == 100 && $si > 1 - 1e-6 && $si < 1 + 1e-6"
	if [ "$dof" = 0 ]; then
		assert_eq null "$p" "$name: no p-value when dof is 0 (one slot)"
	else
		assert_num "$name: chi-square p-value $p > 0.001 on $dof dof" "$p > 0.001"
	fi
	assert_num "$name: KS D $d < 0.03" "$d < 0.03"
	if [ "$scatter" = yes ]; then
		assert_eq rank "$space" "$name: fit_space is rank (before scatter)"
		assert_num "$name: 100 achieved_rank shares summing to 1" \
			"$nr == 100 && $sr > 1 - 1e-6 && $sr < 1 + 1e-6"
	else
		assert_eq offset "$space" "$name: fit_space is offset"
	fi
	assert_eq 7 "$seed" "$name: the seed is reported"
	LAST_TOP=$top
}

section "fit reported in --json, whole device (16384 slots)"
for c in "${CASES[@]}"; do
	name=${c%%|*}
	read -ra opts <<<"${c#*|}"
	scatter=no
	[[ $name == *--scatter* ]] && scatter=yes
	rb --json "${RUN[@]}" "${opts[@]}" "$DEV"
	assert_rc 0 "$name: exits 0"
	[ "$RB_RC" = 0 ] || continue
	check_fit "$name" "$scatter"
	case $name in
	"const") assert_eq 0 "$LAST_TOP" "const: every I/O in slice 0" ;;
	"const --center 50") assert_eq 50 "$LAST_TOP" "const --center 50: every I/O in slice 50" ;;
	"zipf" | "pow" | "powerlaw") assert_eq 0 "$LAST_TOP" "$name: hottest slice is 0" ;;
	"pow --center 50 --scatter")
		top=$(jqr '.workloads[0].results.distribution.achieved_rank | indices(max) | .[0]')
		assert_eq 50 "$top" "$name: hottest rank slice is 50 (the center)"
		;;
	esac
done

section "offsets in the -j 1m -e 32m region on the 8k stride; log agrees with the reported shares"
# slots = (32m - 4k) / 8k + 1 = 4096; slice of slot k = floor(k * 100 / 4096)
for c in "${CASES[@]}"; do
	name=${c%%|*}
	read -ra opts <<<"${c#*|}"
	rb --json "${RUN[@]}" -j 1m -e 32m -s 8k -g 0 --output "$LOG" "${opts[@]}" "$DEV"
	assert_rc 0 "$name (-j 1m -e 32m -s 8k): exits 0"
	[ "$RB_RC" = 0 ] || continue
	bad=$(tail -n +2 "$LOG" | awk -F'\t' -v s=$M -v e=$((33 * M)) -v st=8192 -v bs=4096 '
		{ n++ }
		($5 < s || $5 + bs > e || ($5 - s) % st || $6 != bs) { print "row " n ": " $0; exit }
		END { if (n != 5000) print n " rows, expected 5000" }')
	assert_eq "" "$bad" "$name: 5000 offsets, each 1m + k * 8k with the block inside the region"
	# recount the 100 slices from the log and compare with achieved
	diff=$(paste <(tail -n +2 "$LOG" | awk -F'\t' -v s=$M '
			{ k = ($5 - s) / 8192; c[int(k * 100 / 4096)]++ }
			END { for (i = 0; i < 100; i++) printf "%.10f\n", c[i] / NR }') \
		<(jqr '.workloads[0].results.distribution.achieved[]') |
		awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { print m + 0 }')
	assert_num "$name: achieved shares equal the slices of the logged offsets (max diff $diff)" \
		"$diff < 1e-6"
	case $name in
	"const --center 50")
		assert_eq $((M + 2048 * 8192)) "$(tail -n +2 "$LOG" | cut -f5 | sort -u)" \
			"const --center 50: every I/O at slot 2048 of 4096"
		;;
	"const")
		assert_eq $M "$(tail -n +2 "$LOG" | cut -f5 | sort -u)" \
			"const: every I/O at the region start"
		;;
	esac
done

section "--seed repeats the offsets"
for opts in "-u zipf:0.8" "-u normal -i 20" "-u zoned:80/20:20/80 --scatter"; do
	read -ra o <<<"$opts"
	rb "${RUN[@]}" -g 0 --output "$LOG" "${o[@]}" "$DEV"
	rb "${RUN[@]}" -g 0 --output "$LOG2" "${o[@]}" "$DEV"
	assert_rc 0 "$opts: second run exits 0"
	a=$(tail -n +2 "$LOG" | cut -f5 | sha256sum)
	b=$(tail -n +2 "$LOG2" | cut -f5 | sha256sum)
	assert_eq "$a" "$b" "$opts: same seed, same offsets in the same order"
	assert_match 'seed 7' "$RB_OUT" "$opts: the human output reports seed 7"
	rb -b 4k -d 20000k --seed 8 -g 0 --output "$LOG2" "${o[@]}" "$DEV"
	b=$(tail -n +2 "$LOG2" | cut -f5 | sha256sum)
	assert_ne "$a" "$b" "$opts: another seed, other offsets"
done
# two threads: each thread's own sequence repeats (the 5000 I/Os are shared
# by the threads as they come, so compare the first 2000 of each)
rb "${RUN[@]}" -c 2 -t stateless -g 0 --output "$LOG" -u pow -i 20 "$DEV"
rb "${RUN[@]}" -c 2 -t stateless -g 0 --output "$LOG2" -u pow -i 20 "$DEV"
assert_rc 0 "-c 2: exits 0"
for t in 0 1; do
	a=$(tail -n +2 "$LOG" | awk -F'\t' -v t=$t '$3 == t { print $5 }' | head -n 2000 | sha256sum)
	b=$(tail -n +2 "$LOG2" | awk -F'\t' -v t=$t '$3 == t { print $5 }' | head -n 2000 | sha256sum)
	assert_eq "$a" "$b" "-c 2: thread $t repeats its offsets"
done
a=$(tail -n +2 "$LOG" | awk -F'\t' '$3 == 0 { print $5 }' | head -n 100 | sha256sum)
b=$(tail -n +2 "$LOG" | awk -F'\t' '$3 == 1 { print $5 }' | head -n 100 | sha256sum)
assert_ne "$a" "$b" "-c 2: the two threads draw different offsets"
# the seed is reported even when chosen by rebench
rb --json -b 4k -d 400k -u zipf "$DEV"
assert_match '^[0-9]+$' "$(jqr '.workloads[0].parameters.seed')" "a run without --seed reports the seed it used"

section "human Distribution: line"
rb "${RUN[@]}" -u zipf:1.2 "$DEV"
assert_rc 0 "human zipf:1.2 exits 0"
assert_match '^Distribution: zipf:1\.2 .*chi-square [0-9.]+ on [0-9]+ dof \(p [0-9.e+-]+\), KS D [0-9.]+ over 100 slices$' \
	"$RB_OUT" "zipf:1.2: Distribution line with chi-square, p and KS D"
assert_match 'seed 7' "$RB_OUT" "human output reports the seed"
rb "${RUN[@]}" -u normal -i 20 --center 30 "$DEV"
assert_match '^Distribution: normal \(sigma 20%, center 30%\): chi-square .* KS D [0-9.]+ over 100 slices$' \
	"$RB_OUT" "normal: Distribution line names sigma and center"
rb "${RUN[@]}" -u zipf --scatter "$DEV"
assert_match '^Distribution: zipf.*scattered.*chi-square .*KS D [0-9.]+ over 100 slices \(before scatter\)$' \
	"$RB_OUT" "scatter: the line says the fit is before scatter"
rb "${RUN[@]}" -u const "$DEV"
assert_match '^Distribution: const .*KS D 0\.0000 over 100 slices$' "$RB_OUT" \
	"const: KS D 0 and no chi-square"
rb -w seq -b 4k -d 400k "$DEV"
assert_no_match '^Distribution:' "$RB_OUT" "seq: no Distribution line"

section "pow is the original Rebench's; powerlaw is the power law"
# The share of the 5000 I/Os in the first 1% slice against the closed form,
# within 5 binomial sd (0.027 and 0.029): pow -i 5, the original's
# exponential with its mean at 5% of the region, 1 - e^(-1/5) = 0.1813;
# powerlaw -i 5, U^19, 0.01^(1/19) = 0.7848.  exp is pow's other name.
# -i 50: the tail past the region, e^-2 = 0.135, at its last block.
first_share() { jqr '.workloads[0].results.distribution.achieved[0]'; }
for c in "pow|0.1813|pow" "exp|0.1813|pow" "powerlaw|0.7848|powerlaw"; do
	IFS='|' read -r d want named <<<"$c"
	rb --json "${RUN[@]}" -u "$d" -i 5 "$DEV"
	assert_rc 0 "-u $d -i 5: exits 0"
	got=$(first_share)
	sd=$(awk -v p="$want" 'BEGIN { print sqrt(p * (1 - p) / 5000) }')
	assert_num "-u $d -i 5: $got of the I/Os in the first 1% (expected $want +- 5 sd)" \
		"($got - $want) < 5 * $sd && ($want - $got) < 5 * $sd"
	assert_eq "$named" "$(jqr '.workloads[0].parameters.dist')" "-u $d: JSON names it $named"
done
rb -g 0 --output "$LOG" "${RUN[@]}" -u pow -i 50 "$DEV"
last=$(tail -n +2 "$LOG" | awk -F'\t' -v l=$((64 * M - 4096)) '$5 == l { n++ } END { print n / NR }')
assert_num "-u pow -i 50: $last of the I/Os at the last block (e^-2 = 0.1353 +- 0.024)" \
	"($last - 0.1353) < 0.024 && (0.1353 - $last) < 0.024"

section "-n fields 19-21"
num='^[0-9]+(\.[0-9]+)?$'
for opts in "-u zipf:1.2" "-u uniform" "-u pareto:0.1 --scatter" "-u pow -i 5" "-u powerlaw -i 5"; do
	read -ra o <<<"$opts"
	rb -n "${RUN[@]}" "${o[@]}" "$DEV"
	assert_rc 0 "-n $opts exits 0"
	f19=$(terse_field 19) f20=$(terse_field 20) f21=$(terse_field 21)
	assert_match "$num" "$f19" "-n $opts: field 19 (KS D) is a number ($f19)"
	assert_match "$num" "$f20" "-n $opts: field 20 (p-value) is a number ($f20)"
	assert_match '^[0-9]+$' "$f21" "-n $opts: field 21 (dof) is a number ($f21)"
	nf=$(<<<"$RB_OUT" awk 'NF { print NF; exit }')
	rb --json "${RUN[@]}" "${o[@]}" "$DEV"
	want=$(jqr '.workloads[0].results.distribution | "\(.ks_d) \(.p_value) \(.dof)"')
	read -r jd jp jdof <<<"$want"
	assert_num "-n $opts: fields 19-21 match --json with the same seed ($f19 $f20 $f21 vs $want)" \
		"($f19 - $jd) < 1e-6 && ($jd - $f19) < 1e-6 && ($f20 - $jp) < 1e-6 && ($jp - $f20) < 1e-6 && $f21 == $jdof"
	assert_num "-n $opts: $TF fields ($nf)" "$nf == $TF"
done
rb -n "${RUN[@]}" -u const "$DEV"
assert_eq "0.000000 - 0" "$(terse_field 19) $(terse_field 20) $(terse_field 21)" \
	"-n const: KS D 0, no p-value, dof 0"
rb -n -w seq -b 4k -d 400k "$DEV"
assert_rc 0 "-n -w seq exits 0"
assert_eq "- - -" "$(terse_field 19) $(terse_field 20) $(terse_field 21)" \
	"-n -w seq: fields 19-21 are -"
rb --json -w seq -b 4k -d 400k "$DEV"
assert_eq null "$(jqr '.workloads[0].results.distribution')" "--json -w seq: distribution is null"

section "refusals, with the valid range"
# refuse OPTIONS... -- ERE: exit 1, stderr matches ERE, nothing printed
refuse() {
	local args=() re
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	re=$2
	rb "${args[@]}" -b 4k -d 400k "$DEV"
	assert_rc 1 "${args[*]}: refused with exit 1"
	assert_match "$re" "$RB_ERR" "${args[*]}: message gives the valid range"
}
refuse -u zipf:0 -- 'THETA must be in \(0, 100\]'
refuse -u zipf:-1 -- 'THETA must be in \(0, 100\]'
refuse -u pareto:1.5 -- 'H must be in \(0, 1\)'
refuse -u pareto:0 -- 'H must be in \(0, 1\)'
refuse -i 0 -- 'sigma.*percentage in \(0, 100\]'
refuse -i 101 -- 'sigma.*percentage in \(0, 100\]'
refuse -u powerlaw -i 100 -- 'sigma must be below 100 for powerlaw'
refuse -u pow:5 -- 'its mean is -i/--sigma'
refuse -u zoned:50/50:40/50 -- 'sum to 90%.*must sum to 100'
refuse -u zoned:50/50:50/40 -- 'region shares to 90%.*must sum to 100'
refuse -u zoned:99/99:1/1 -e 8k -- 'zone 2 .*holds no whole block'
refuse -u uniform:3 -- 'takes no parameter'
refuse -u zipf:abc -- 'not a number'
refuse -w seq -u normal -- 'sequential workload has none.*-w rnd'
refuse -w seq --center 10 -- 'sequential workload has none.*-w rnd'
refuse -w seq --scatter -- 'sequential workload has none.*-w rnd'
refuse --center 101 -- 'center.*percentage from 0 to 100'
# a normal narrower than one block is refused on the real region (its
# redraws near an end of the region could otherwise never end)
refuse -u normal -i 0.001 -e 4m -- 'on this region \(1024 blocks\): sigma 0\.001% is narrower than one block; use -i 0\.09'
refuse -u normal -i 1e-20 --center 100 -- 'narrower than one block'
