#!/usr/bin/env bash
# test_total.sh - the "All workloads" total of several stdin workloads run
# together (fio's group reporting), in every format: the human block after
# the workloads' blocks, the -n line marked "all" in field 17, the JSON
# "total" object; ops/s, MB/s, I/Os and bytes are the sums of the
# workloads', latency comes from all their I/Os together (so the total's
# percentiles lie between the workloads' and its min and max are theirs),
# per operation kind too; none with one workload, and none in the --output
# series.  --repeat gives the total its own spread; a sweep, one per point.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

A=$(make_loop 64M)
B=$(make_loop 64M)
SPEC=$SCRATCH/spec
# a random reader and a read/write mix: two kinds in the total
printf '%s\n' "-b 4k $A" "-o rw -b 4k -t stateless $B" >"$SPEC"

section "human: an All workloads block after the two workloads' blocks"
rb -d 500ms -g 100 --seed 3 --yes <"$SPEC"
assert_rc 0 "two stdin workloads exit 0"
assert_eq 2 "$(<<<"$RB_OUT" grep -c '^Benchmarking results for ')" "two workload blocks"
assert_eq 4 "$(<<<"$RB_OUT" grep -cx -- '---')" "four '---' lines: between the workloads, before the total, before each of the two devices"
assert_eq "All workloads: 2, run together" \
	"$(<<<"$RB_OUT" awk 'prev == "---" && !/^Benchmarking/ { print; exit } { prev = $0 }')" \
	"the block after the second '---' is 'All workloads: 2, run together'"
total=$(<<<"$RB_OUT" sed -n '/^All workloads/,$p')
read -r o1 o2 ot <<<"$(<<<"$RB_OUT" sed -nE 's/^Operations\/sec: ([0-9]+) .*/\1/p' | paste -sd' ')"
assert_num "the total's Operations/sec ($ot) is the sum of the workloads' ($o1 + $o2), to the rounding" \
	"($ot - $o1 - $o2) ^ 2 <= 1"
assert_match '^Latency \(us\): min [0-9.]+ avg [0-9.]+ p50 [0-9.]+ p90 [0-9.]+ p99 [0-9.]+ p99\.9 [0-9.]+ max [0-9.]+$' \
	"$total" "the total has the classic latency line"
assert_match '^  read  [0-9]+ I/Os, ' "$total" "the total has a read line"
assert_match '^  write [0-9]+ I/Os, ' "$total" "the total has a write line"
assert_match '^Ops/sec over [0-9]+ intervals? of 100ms: ' "$total" "the total has an interval line"
n1=$(<<<"$RB_OUT" sed -nE 's/^Total: ([0-9]+) I\/Os.*/\1/p' | paste -sd' ')
read -r t1 t2 tt <<<"$n1"
assert_eq $((t1 + t2)) "$tt" "the total's I/Os are the sum of the workloads' ($t1 + $t2)"
assert_match '^Total: [0-9]+ I/Os \([0-9]+ reads, [0-9]+ writes\), [0-9]+ bytes in [0-9.]+ s$' \
	"$total" "the total's Total line counts reads and writes, with no seed"

section "-n: one more line, marked 'all' in field 17"
rb -n -d 500ms --seed 3 --yes <"$SPEC"
assert_rc 0 "-n exits 0"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_eq 3 "$(<<<"$RB_OUT" grep -c .)" "three lines: two workloads, then the total"
assert_eq "$TF $TF $TF" "$(<<<"$RB_OUT" awk '{ printf "%s%d", (NR > 1 ? " " : ""), NF }')" \
	"the total line has a workload line's $TF fields"
assert_eq "3 4 all" "$(<<<"$RB_OUT" awk '{ printf "%s%s", (NR > 1 ? " " : ""), $17 }')" \
	"field 17: the seeds, then 'all' on the total line"
assert_eq "$TV $TV $TV" "$(<<<"$RB_OUT" awk '{ printf "%s%s", (NR > 1 ? " " : ""), $13 }')" \
	"field 13 is the version on every line"
read -r -a w1 <<<"$(sed -n 1p <<<"$RB_OUT")"
read -r -a w2 <<<"$(sed -n 2p <<<"$RB_OUT")"
read -r -a t <<<"$(sed -n 3p <<<"$RB_OUT")"
assert_num "field 1: total ops/s ${t[0]} = ${w1[0]} + ${w2[0]}" "(${t[0]} - ${w1[0]} - ${w2[0]}) ^ 2 <= 0.02 ^ 2"
assert_num "field 2: total MB/s ${t[1]} = ${w1[1]} + ${w2[1]}" "(${t[1]} - ${w1[1]} - ${w2[1]}) ^ 2 <= 0.0002 ^ 2"
assert_eq $((w1[13] + w2[13])) "${t[13]}" "field 14: I/Os add up"
assert_eq $((w1[14] + w2[14])) "${t[14]}" "field 15: bytes add up"
assert_num "field 16: the total's elapsed ${t[15]} is the longest (${w1[15]}, ${w2[15]})" \
	"${t[15]} == (${w1[15]} > ${w2[15]} ? ${w1[15]} : ${w2[15]})"
assert_num "field 6: the total's min latency is the smaller min" \
	"${t[5]} == (${w1[5]} < ${w2[5]} ? ${w1[5]} : ${w2[5]})"
assert_num "field 12: the total's max latency is the larger max" \
	"${t[11]} == (${w1[11]} > ${w2[11]} ? ${w1[11]} : ${w2[11]})"
for i in 7 8 9 10; do
	assert_num "field $((i + 1)): the total's percentile ${t[i]} lies between the workloads' (${w1[i]}, ${w2[i]})" \
		"${t[i]} >= (${w1[i]} < ${w2[i]} ? ${w1[i]} : ${w2[i]}) * 0.99 && ${t[i]} <= (${w1[i]} > ${w2[i]} ? ${w1[i]} : ${w2[i]}) * 1.01"
done
assert_eq "0 - - -" "${t[17]} ${t[18]} ${t[19]} ${t[20]}" "fields 18-21: status 0, no distribution"
# fields 22-33 read, 34-45 write: counts add up, rates are sums
assert_eq "$((w1[21] + w2[21])) $((w1[22] + w2[22])) ${w2[33]} ${w2[34]}" \
	"${t[21]} ${t[22]} ${t[33]} ${t[34]}" "fields 22-23, 34-35: read and write I/Os and bytes add up"
assert_num "field 24: read ops/s ${t[23]} = ${w1[23]} + ${w2[23]}" "(${t[23]} - ${w1[23]} - ${w2[23]}) ^ 2 <= 0.02 ^ 2"
assert_eq "${w2[35]} ${w2[41]}" "${t[35]} ${t[41]}" "fields 36, 42: write ops/s and p99: only the mix writes"
assert_eq "0 - 0 -" "${t[45]} ${t[49]} ${t[57]} ${t[61]}" "fields 46-69: no trims, no fsyncs"

section "--json: a total object beside the workloads"
rb --json -d 500ms --seed 3 --yes <"$SPEC"
assert_rc 0 "--json exits 0"
printf '%s\n' "$RB_OUT" >"$SCRATCH/t.json"
assert_eq "2 complete" "$(jqr '.total | "\(.workloads) \(.status)"')" "total: 2 workloads, complete"
read -r tops sops <<<"$(jqr '"\(.total.results.ops_per_s) \([.workloads[].results.ops_per_s] | add)"')"
assert_num "total.results.ops_per_s ($tops) is the sum of the workloads' ($sops)" "($tops - $sops) ^ 2 <= ($sops * 1e-9) ^ 2"
read -r tmb smb <<<"$(jqr '"\(.total.results.mib_per_s) \([.workloads[].results.mib_per_s] | add)"')"
assert_num "total.results.mib_per_s ($tmb) is the sum ($smb)" "($tmb - $smb) ^ 2 <= ($smb * 1e-9) ^ 2"
assert_eq "$(jqr '[.workloads[].results.ios] | add') $(jqr '[.workloads[].results.bytes] | add') $(jqr '[.workloads[].results.reads] | add') $(jqr '[.workloads[].results.writes] | add')" \
	"$(jqr '.total.results | "\(.ios) \(.bytes) \(.reads) \(.writes)"')" "ios, bytes, reads and writes add up"
assert_eq "$(jqr '[.workloads[].results.latency_us.max] | max') $(jqr '[.workloads[].results.latency_us.min] | min')" \
	"$(jqr '.total.results.latency_us | "\(.max) \(.min)"')" "latency max and min are the workloads' extremes"
assert_eq "$(jqr '[.workloads[].results.operations.read.ios] | add') $(jqr '.workloads[1].results.operations.write.ios')" \
	"$(jqr '.total.results.operations | "\(.read.ios) \(.write.ios)"')" "operations: reads of both, writes of the mix"
read -r tr sr <<<"$(jqr '"\(.total.results.operations.read.ops_per_s) \([.workloads[].results.operations.read.ops_per_s] | add)"')"
assert_num "operations.read.ops_per_s ($tr) is the sum of the workloads' ($sr)" "($tr - $sr) ^ 2 <= ($sr * 1e-9) ^ 2"
assert_eq "$(jqr '.workloads[1].results.operations.write.latency_us.p99')" \
	"$(jqr '.total.results.operations.write.latency_us.p99')" "write latency: only the mix writes, so it is the mix's own"
assert_eq "null null" "$(jqr '.total | "\(.results.distribution) \(.repeat)"')" "no distribution, no repeat"
ivsum=$(jqr '[.workloads[].results.intervals.ios[0]] | add')
assert_eq "$ivsum" "$(jqr '.total.results.intervals.ios[0]')" "the first interval's I/Os add up"

section "one workload: no total"
rb -d 200ms "$A"
assert_no_match '^All workloads' "$RB_OUT" "human: no All workloads block"
rb -n -d 200ms "$A"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_eq 1 "$(<<<"$RB_OUT" grep -c .)" "-n: one line"
rb --json -d 200ms "$A"
assert_eq null "$(jqr '.total')" "--json: total is null"

section "no total in the --output series"
rb -n -d 300ms -g 100 --output "$SCRATCH/s.tsv" --seed 3 --yes <"$SPEC"
assert_rc 0 "two workloads with --output exit 0"
assert_eq "1 2" "$(grep -v '^#' "$SCRATCH/s.tsv" | tail -n +2 | cut -f1 | sort -u | paste -sd' ')" "the series has workloads 1 and 2 only"

section "different sample steps: no common series"
printf '%s\n' "-g 100 $A" "-g 250 $B" >"$SPEC.g"
rb -n -d 500ms <"$SPEC.g"
assert_eq "- - -" "$(sed -n 3p <<<"$RB_OUT" | awk '{ print $3, $4, $5 }')" "-n: fields 3-5 of the total are -"
rb --json -d 500ms <"$SPEC.g"
assert_eq null "$(jqr '.total.results.intervals')" "--json: total intervals null"
rb -d 500ms <"$SPEC.g"
assert_match "^Ops/sec over intervals: none \\(the workloads' sample steps, -g, differ\\)$" "$RB_OUT" "human: says why there are no intervals"

section "--repeat 2: the total's own spread"
rb --json --repeat 2 -d 200ms --seed 3 --yes <"$SPEC"
assert_rc 0 "--repeat 2 --json exits 0"
assert_eq "2 null" "$(jqr '.total.repeat | "\(.runs) \(.seeds)"')" "total.repeat: 2 runs, no seeds of its own"
# the total's block is its own median run: the lower of the two middle
# runs of 2, the slower, whatever the workloads' blocks show
a=$(jqr '.total.repeat.ops_per_s.values | min')
b=$(jqr '.total.results.ops_per_s')
assert_num "the lower of the 2 total ops/s ($a) is the total's reported ops/s ($b)" "($a - $b) ^ 2 <= ($b * 1e-9) ^ 2"
assert_eq "$(jqr '.total.repeat.ops_per_s.values | index(min) + 1') null" "$(jqr '.total.repeat | "\(.shown_run) \(.shown_seed)"')" \
	"total.repeat.shown_run is that run; no seed of its own"
rb -n --repeat 2 -d 200ms --yes <"$SPEC"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
n=$((TF + 27))
assert_eq "$n $n $n" "$(<<<"$RB_OUT" awk '{ printf "%s%d", (NR > 1 ? " " : ""), NF }')" "-n: three lines of $n fields"
assert_eq "all - 2" "$(sed -n 3p <<<"$RB_OUT" | awk -v r=$((TF + 1)) '{ print $17, $82, $r }')" "-n: the total line has no passes (82) and its runs field ($((TF + 1))) is 2"
rb --repeat 2 -d 200ms --yes <"$SPEC"
assert_match '^Over 2 runs \(the figures above are run [12] of 2, the lower of the two middle runs by total ops/s\):$' "$RB_OUT" "human: the total's 'Over 2 runs' block names its run"

section "a sweep: a total per point"
rb -n -b 4k,8k -d 200ms --yes <"$SPEC"
assert_rc 0 "sweep -n exits 0"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_eq "0 0 1 0 0 1" "$(<<<"$RB_OUT" awk '{ printf "%s%d", (NR > 1 ? " " : ""), $17 == "all" }')" \
	"-n: each point's two workload lines, then its total"
assert_eq "4096 4096 4096 8192 8192 8192" "$(<<<"$RB_OUT" awk '{ printf "%s%s", (NR > 1 ? " " : ""), $NF }')" \
	"-n: every line ends with the point's block size"
rb --json -b 4k,8k -d 200ms --yes <"$SPEC"
assert_eq "2 2" "$(jqr '[.sweep.runs[].total.workloads] | map(tostring) | join(" ")')" "--json: each point has its total"
