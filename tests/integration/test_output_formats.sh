#!/usr/bin/env bash
# test_output_formats.sh - machine-readable output: the -n line ($TF fields,
# version 5 in field 13, a block of 12 per operation kind from field 22,
# passes in 82, the sync_file_range block in 83-94, durability in 95)
# and the --json document (tool, versions, kernel, target geometry,
# resolved parameters, seed, results, intervals, warnings), their internal
# consistency, the human Total line, and the --output series' per-operation
# ops/s columns.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq sfdisk partx

DEV=$(make_loop 32M)
D4K=$(make_loop 32M 4096)
M=1048576

section "-n line"
rb -n -b 4k --seed 4242 -d 500ms -g 100 "$DEV"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_rc 0 "-n run exits 0"
assert_eq 1 "$(<<<"$RB_OUT" grep -c .)" "exactly one line"
line=$(<<<"$RB_OUT" head -n 1)
read -r -a f <<<"$line"
assert_eq $TF "${#f[@]}" "$TF fields"
nonnum=$(printf '%s\n' "${f[@]:0:33}" | grep -Evx '[0-9]+(\.[0-9]+)?' | head -n 3)
assert_eq "" "$nonnum" "fields 1-33 (through the read block) are non-negative numbers"
assert_eq $TV "${f[12]}" "field 13 is the format version, $TV"
assert_eq 0 "${f[17]}" "field 18 is 0 (not interrupted, no error)"
assert_eq 4242 "${f[16]}" "field 17 is the seed"
assert_eq $((f[13] * 4096)) "${f[14]}" "field 15 (bytes) = field 14 (I/Os) * block size"
assert_num "field 1 (ops/s ${f[0]}) = I/Os / elapsed (${f[13]} / ${f[15]}) within 0.1%" \
	"(${f[0]} - ${f[13]} / ${f[15]}) ^ 2 <= (${f[0]} * 0.001) ^ 2"
assert_num "field 2 (MB/s ${f[1]}) = bytes / 2^20 / elapsed within 0.1%" \
	"(${f[1]} - ${f[14]} / $M / ${f[15]}) ^ 2 <= (${f[1]} * 0.001) ^ 2"
assert_num "field 3 (min ops/s) <= field 4 (max ops/s)" "${f[2]} <= ${f[3]}"
assert_num "latency: min <= p50 <= p90 <= p99 <= p99.9 <= max (fields 6, 8-12)" \
	"${f[5]} <= ${f[7]} && ${f[7]} <= ${f[8]} && ${f[8]} <= ${f[9]} && ${f[9]} <= ${f[10]} && ${f[10]} <= ${f[11]}"
assert_num "latency: min <= avg <= max (fields 6, 7, 12)" "${f[5]} <= ${f[6]} && ${f[6]} <= ${f[11]}"
assert_num "elapsed (field 16) is at least the 0.5 s asked for" "${f[15]} >= 0.5"
# fields 22-33: the reads, here every I/O: the same figures as 1-2, 6-15
assert_eq "${f[13]} ${f[14]} ${f[0]} ${f[1]}" "${f[21]} ${f[22]} ${f[23]} ${f[24]}" \
	"read block: I/Os, bytes, ops/s, MB/s (fields 22-25) = fields 14, 15, 1, 2"
assert_eq "${f[5]} ${f[6]} ${f[7]} ${f[8]} ${f[9]} ${f[10]} ${f[11]}" \
	"${f[25]} ${f[26]} ${f[27]} ${f[28]} ${f[29]} ${f[30]} ${f[32]}" \
	"read block latency: min, avg, p50, p90, p99, p99.9, max (26-31, 33) = fields 6-12"
assert_num "read p99.99 (field 32, ${f[31]}) between p99.9 and max" "${f[31]} >= ${f[30]} && ${f[31]} <= ${f[32]}"
others=$(printf '%s ' "${f[@]:33:48}")
assert_eq "$(printf '0 0 0.00 0.0000 - - - - - - - - %.0s' 1 2 3 4)" "$others" \
	"write, trim, fsync, fdatasync blocks (fields 34-81): 0 I/Os and '-' latency"
assert_eq - "${f[81]}" "field 82 (passes) is - for a random workload"
assert_eq "0 0 0.00 0.0000 - - - - - - - -" "${f[*]:82:12}" \
	"sync_file_range block (fields 83-94): 0 I/Os and '-' latency"
rb -n -o rw -b 4k --seed 4242 -d 1m --yes "$DEV"
assert_rc 0 "-n -o rw exits 0"
read -r -a f <<<"$(<<<"$RB_OUT" head -n 1)"
assert_eq 256 "$((f[21] + f[33]))" "-o rw -d 1m: reads (field 22) + writes (field 34) = 256 I/Os"
assert_eq "$((f[21] * 4096)) $((f[33] * 4096))" "${f[22]} ${f[34]}" "read and write bytes (23, 35) = I/Os * 4k"
assert_num "write latency min <= p50 <= max (fields 38, 40, 45)" "${f[37]} <= ${f[39]} && ${f[39]} <= ${f[44]}"
assert_num "ops/s: read + write (fields 24 + 36) = field 1" "(${f[23]} + ${f[35]} - ${f[0]}) ^ 2 <= 0.02 ^ 2"
rb -n -b 4k -d 1mib "$DEV"
assert_eq 256 "$(terse_field 14)" "-d 1mib -b 4k: field 14 is 256"
# 256 I/Os are too few for stable tail percentiles: the one warning, on
# stderr so the -n line stays alone on stdout
assert_eq "rebench: warning: only 256 I/Os: 0.3 of them lie beyond p99.9 and 2.6 beyond p99; a percentile moves from run to run with fewer than 10 beyond it, so run longer (10000 I/Os for p99.9)" \
	"$RB_ERR" "-n: only the too-few-I/Os warning, on stderr"

section "--json document"
rb --json -b 4k --seed 987654321 -d 1 -g 250 "$DEV"
assert_rc 0 "--json run exits 0"
if <<<"$RB_OUT" jq -e . >/dev/null 2>&1; then
	pass "stdout is one valid JSON document"
else
	fail "stdout is one valid JSON document" "$(<<<"$RB_OUT" head -n 5)"
fi
assert_eq rebench "$(jqr .tool)" ".tool is rebench"
assert_match '^[0-9]+\.[0-9]+' "$(jqr .version)" ".version is a version number"
rb_version=$(setsid -w "$REBENCH" --version </dev/null)
assert_eq "rebench $(jqr .version)" "$rb_version" ".version matches rebench --version"
assert_eq $JV "$(jqr .json_version)" ".json_version is $JV"
assert_eq "$(uname -r)" "$(jqr .kernel)" ".kernel is the running kernel"
assert_eq false "$(jqr .interrupted)" ".interrupted is false"
assert_eq 1 "$(jqr '.workloads | length')" "one workload"

W='.workloads[0]'
assert_eq "$DEV|block device|$(blockdev --getsize64 "$DEV")|512|$(blockdev --getpbsz "$DEV")" \
	"$(jqr "$W.target | \"\\(.path)|\\(.type)|\\(.size)|\\(.logical_sector)|\\(.physical_sector)\"")" \
	"target path, type, size, logical and physical sector"
assert_eq "read|rnd|4096|4096|stateful|1|987654321|1" \
	"$(jqr "$W.parameters | \"\\(.operation)|\\(.workload)|\\(.block_size)|\\(.stride)|\\(.engine)|\\(.threads)|\\(.seed)|\\(.duration_s)\"")" \
	"parameters: operation, workload, block_size, stride, engine, threads, seed, duration_s"
assert_eq "0|$((32 * M))|true|250" \
	"$(jqr "$W.parameters | \"\\(.region_offset)|\\(.region_length)|\\(.direct)|\\(.sample_step_ms)\"")" \
	"parameters: region, direct, sample_step_ms resolved"
missing=$(jqr "$W.parameters | [\"operation\",\"workload\",\"block_size\",\"stride\",\"direction\",\"dist\",\"engine\",\"queue_depth\",\"threads\",\"local_fd\",\"duration\",\"region_offset\",\"region_length\",\"direct\",\"flush\",\"atime\",\"append\",\"sample_step_ms\",\"pause_us\",\"output\",\"seed\",\"line\"] - keys | join(\" \")")
assert_eq "" "$missing" "parameters has every documented key"
assert_eq array "$(jqr "$W.warnings | type")" ".warnings is an array"
# the too-few-I/Os warning depends on the machine's speed (a 1 s run does
# 10k to 20k I/Os on a loop device here): every other warning is a fault
assert_eq 0 "$(jqr "[$W.warnings[] | select(startswith(\"only \") | not)] | length")" \
	"no warnings for a plain read of a device (but a machine-speed too-few-I/Os one)"

read -r ios bytes ops mbs el bs <<<"$(jqr "$W | \"\\(.results.ios) \\(.results.bytes) \\(.results.ops_per_s) \\(.results.mib_per_s) \\(.results.elapsed_s) \\(.parameters.block_size)\"")"
assert_num "results.ios is positive ($ios)" "$ios > 0"
assert_eq "$((ios * bs))" "$bytes" "bytes == ios * block_size"
assert_num "ops_per_s ($ops) == ios / elapsed_s within 0.1%" "($ops - $ios / $el) ^ 2 <= ($ops * 0.001) ^ 2"
assert_num "mib_per_s ($mbs) == bytes / 2^20 / elapsed_s within 0.1%" "($mbs - $bytes / $M / $el) ^ 2 <= ($mbs * 0.001) ^ 2"
assert_eq "$ios 0 0" "$(jqr "$W.results | \"\\(.reads) \\(.writes) \\(.trims)\"")" "reads == ios, no writes or trims"
read -r lmin lavg p50 p90 p99 p999 lmax eb <<<"$(jqr "$W.results.latency_us | \"\\(.min) \\(.avg) \\(.p50) \\(.p90) \\(.p99) \\(.p99_9) \\(.max) \\(.error_bound_pct)\"")"
assert_num "latency_us: min <= p50 <= p90 <= p99 <= p99_9 <= max" \
	"$lmin <= $p50 && $p50 <= $p90 && $p90 <= $p99 && $p99 <= $p999 && $p999 <= $lmax"
assert_num "latency_us: min <= avg <= max, min > 0" "$lmin <= $lavg && $lavg <= $lmax && $lmin > 0"
assert_num "latency_us.error_bound_pct states a bound of about 1% ($eb)" "$eb > 0 && $eb <= 1.6"
assert_eq 250 "$(jqr "$W.results.intervals.step_ms")" "intervals: step_ms 250"
# a run lasts at least its second (load may stretch the I/O that crosses
# the deadline, and the intervals it completes count)
read -r complete el <<<"$(jqr "$W.results | \"\\(.intervals.complete) \\(.elapsed_s)\"")"
assert_num "intervals: at least 4 complete in 1 s ($complete)" "$complete >= 4"
assert_eq "$(calc "int($el * 4 + 1e-9)")" "$complete" "intervals: complete is the 250 ms steps in elapsed_s ($el s)"
assert_eq number "$(jqr "$W.results.intervals.ops_per_s_stddev | type")" "intervals.ops_per_s_stddev is a number"
assert_num "intervals: min <= max ops/s" \
	"$(jqr "$W.results.intervals.ops_per_s_min") <= $(jqr "$W.results.intervals.ops_per_s_max")"
assert_eq null "$(jqr "$W.error")" ".error is null"

section "--json on a 4096-byte-sector device and on a partition"
rb --json -b 4k -d 300ms "$D4K"
assert_eq "4096" "$(jqr "$W.target.logical_sector")" "logical_sector is 4096 on a 4Kn loop device"
PD=$(make_loop 32M)
printf 'label: dos\nstart=2048, size=16384, type=83\n' | sfdisk -q "$PD" || fail "sfdisk $PD failed"
loop_partitions "$PD" || fail "no partition node ${PD}p1 appeared"
rb --json -d 300ms "${PD}p1"
assert_rc 0 "--json on a partition exits 0"
assert_eq "partition|$(basename "$PD")|$M|$((16384 * 512))" \
	"$(jqr "$W.target | \"\\(.type)|\\(.disk)|\\(.partition_start)|\\(.size)\"")" \
	"partition: type, disk, partition_start (1 MiB) and size"

section "--json for a file rebench creates"
rb --json -e 2m -b 4k -d 300ms "$SCRATCH/new.dat"
assert_rc 0 "--json with a new file exits 0"
assert_eq "file|true|$((2 * M))" "$(jqr "$W.target | \"\\(.type)|\\(.created)|\\(.size)\"")" \
	"target type file, created true, size 2 MiB"
assert_match 'created' "$(jqr "$W.warnings[]")" "warnings say the file was created"

# Warnings belong in every output format; -n keeps stdout to its one line.
rb -n -e 1m -d 300ms "$SCRATCH/new-n.dat"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_rc 0 "-n with a new file exits 0"
assert_eq 1 "$(<<<"$RB_OUT" grep -c .)" "-n: stdout is still exactly one line"
assert_eq $TF "$(<<<"$RB_OUT" awk 'NF { print NF; exit }')" "-n: the line has $TF fields"
assert_match 'created' "$RB_ERR" "-n: the created-file warning is reported (on stderr)"

section "--help all and --version"
rb --help all
assert_rc 0 "--help all exits 0"
for o in -o -w -b -s -r -u -i -t -q -c -l -d -j -e -p -f -m -a -g -z -n -y; do
	assert_match "^  $o, --[a-z-]+" "$RB_OUT" "--help lists $o"
done
for o in --rwmix --output --seed --drop-caches --json --yes; do
	assert_match "^ +(-[a-zA-Z], )?$o( |$)" "$RB_OUT" "--help lists $o"
done
assert_match 'Exit status' "$RB_OUT" "--help documents the exit statuses"
rb --version
assert_rc 0 "--version exits 0"
assert_match '^rebench [0-9]+\.[0-9]+' "$RB_OUT" "--version prints 'rebench X.Y'"

section "human Total line"
rb -b 4k -d 2m --seed 55 "$DEV"
assert_match '^Total: 512 I/Os, 2097152 bytes in [0-9.]+ s, seed 55$' "$RB_OUT" \
	"Total: N I/Os, bytes, elapsed and seed"

section "--output series: an ops/s column per kind when a workload mixes kinds"
rb -n -o rw -b 4k -d 1 -g 250 --seed 5 --output "$SCRATCH/mix.tsv" --yes "$DEV"
assert_rc 0 "-o rw --output exits 0"
assert_eq "workload	time_s	ios	ops_per_s	mib_per_s	lat_avg_us	lat_max_us	read_ops_per_s	write_ops_per_s" \
	"$(grep -v '^#' "$SCRATCH/mix.tsv" | head -n 1)" "header: the 7 columns, then read_ops_per_s and write_ops_per_s"
assert_eq 9 "$(grep -v '^#' "$SCRATCH/mix.tsv" | tail -n +2 | awk -F'\t' '{ print NF }' | sort -u)" "every row has 9 columns"
assert_eq "" "$(grep -v '^#' "$SCRATCH/mix.tsv" | tail -n +2 | awk -F'\t' '($8 + $9 - $4) ^ 2 > 0.02 ^ 2 { print NR ": " $0 }')" \
	"on every row, read + write ops/s = ops_per_s"
# An interval's reads are its I/Os times its read share of ops/s (not ops/s
# times 250 ms: on a busy machine an interval can close late).
read -r rsum wsum <<<"$(grep -v '^#' "$SCRATCH/mix.tsv" | tail -n +2 | awk -F'\t' '$4 > 0 { r += $3 * $8 / $4; w += $3 * $9 / $4 } END { printf "%.0f %.0f", r, w }')"
assert_num "the read and write columns hold the run's reads and writes ($rsum of $(terse_field 22), $wsum of $(terse_field 34), within the tail)" \
	"$rsum <= $(terse_field 22) && $wsum <= $(terse_field 34) && $rsum + $wsum >= $(terse_field 14) - 4"
printf '%s\n' "-b 4k $DEV" "-o rw -b 4k $D4K" >"$SCRATCH/mix.spec"
rb -n -d 500ms -g 250 --output "$SCRATCH/mix2.tsv" --yes <"$SCRATCH/mix.spec"
assert_eq "read_ops_per_s write_ops_per_s" "$(grep -v '^#' "$SCRATCH/mix2.tsv" | head -n 1 | cut -f8- | tr '\t' ' ')" \
	"a shared file: the kinds' columns once"
assert_eq "" "$(grep -v '^#' "$SCRATCH/mix2.tsv" | awk -F'\t' 'NR > 1 && $1 == 1 && ($8 != $4 || $9 != "0.00") { print }')" \
	"the reader's rows: its ops/s in the read column, 0.00 writes"
rb -n -b 4k -d 300ms -g 100 --output "$SCRATCH/plain.tsv" "$DEV"
assert_eq 7 "$(grep -v '^#' "$SCRATCH/plain.tsv" | head -n 1 | awk -F'\t' '{ print NF }')" "one kind: the 7 columns only"

section "a short run: what is not known in a few words, no percentile warning"
# 256 I/Os (-d 1mib -b 4k, a count): no complete 1 s interval, no batch
# means, and p99.9 rests on 0.3 I/Os.  The human block says the first two
# in a few words where they are printed; the too-few-I/Os warning, which
# nearly every short run has, is left to -n, --json and --precision; the
# man page explains all three.
# (-g 10s: a loaded machine may stretch the run past a second)
rb -b 4k -d 1mib -g 10s "$DEV"
assert_rc 0 "-b 4k -d 1mib exits 0"
assert_match '^Total: 256 I/Os, ' "$RB_OUT" "256 I/Os"
assert_match '^Ops/sec over intervals: none complete \(run shorter than -g 10s\)$' "$RB_OUT" \
	"human: 'Ops/sec over intervals: none complete (run shorter than -g 10s)'"
assert_match '^Ops/sec 95% interval: unknown \(run too short\)$' "$RB_OUT" \
	"human: 'Ops/sec 95% interval: unknown (run too short)'"
assert_no_match 'needed|a longer run or a shorter|-g sets the interval' "$RB_OUT" "human: no long explanation"
assert_no_match '^Warning: only [0-9]+ I/Os' "$RB_OUT" "human: no too-few-I/Os warning line"
assert_eq "" "$RB_ERR" "human: nothing on stderr"
rb -b 4k,8k -d 1mib "$DEV"
assert_rc 0 "a sweep of two 1 MiB points exits 0"
assert_no_match 'only [0-9]+ I/Os|so did [0-9]+ more' "$RB_ERR" "a sweep's table: no too-few-I/Os warning on stderr"
# --precision asks about precision: there the warning stays.  --delay
# read=2ms bounds the I/Os of a 2 s run to 1000, whatever the machine.
rb -b 4k --precision 5 --max-duration 2 --delay read=2ms "$DEV"
assert_rc 0 "--precision with 2 ms reads exits 0"
assert_match '^Warning: only [0-9]+ I/Os: ' "$RB_OUT" "--precision: the too-few-I/Os warning is there"
MAN=$TESTS_ROOT/man/rebench-output.5
man_text=$(sed -e 's/\\-/-/g' -e 's/\\(+-/+-/g' "$MAN" | tr '\n' ' ')
for phrase in 'unknown (run too short)"; batch means need at least 10 complete intervals' \
	'none complete (run shorter than -g 1s)"; a shorter' \
	'with fewer than 10 of them (below 1,000 I/Os for p99, 10,000 for p99.9) it moves from run to run' \
	'the human block and a sweep'"'"'s table leave it out'; do
	case $man_text in
	*"$phrase"*) pass "rebench-output.5 explains: $phrase" ;;
	*) check_failed "rebench-output.5 explains: $phrase" "not in $MAN" ;;
	esac
done

section "a run shorter than one interval invents no interval figures"
# -g 10s: a loaded machine may stretch a 300 ms run past a second
rb -b 4k -d 300ms -g 10s "$DEV"
assert_match '^Ops/sec over intervals: none complete \(run shorter than -g 10s\)$' \
	"$RB_OUT" "human: says no interval was complete"
assert_no_match 'over 0 intervals' "$RB_OUT" "human: no min/max over 0 intervals"
rb -n -b 4k -d 300ms -g 10s "$DEV"
assert_eq "- - -" "$(terse_field 3) $(terse_field 4) $(terse_field 5)" "-n: fields 3-5 are '-'"
rb --json -b 4k -d 300ms -g 10s "$DEV"
assert_eq "0 null null null" "$(jqr '.workloads[0].results.intervals | "\(.complete) \(.ops_per_s_min) \(.ops_per_s_max) \(.ops_per_s_stddev)"')" \
	"JSON: no complete interval, min, max and stddev null"

section "-d 5m is 5 MiB of data, and rebench says so; 5min is five minutes"
rb -b 4k -d 5m "$DEV"
assert_rc 0 "-d 5m: exit 0"
assert_match '^\[duration: 5m \(5 MiB of data\), ' "$RB_OUT" "the header says 5m is 5 MiB of data"
# once on stderr, before the run, in every format (fio's --runtime=5m
# is five minutes); not among the workload's warnings on stdout
NOTE="^rebench: note: -d 5m is 5 MiB of data \(the original Rebench's byte duration\), not minutes as fio's --runtime=5m; write -d 5min for minutes$"
assert_match "$NOTE" "$RB_ERR" "a note on stderr says how to ask for minutes"
assert_eq 1 "$(<<<"$RB_ERR" grep -c 'not minutes')" "the note: one line on stderr"
assert_no_match 'not minutes' "$RB_OUT" "the note: not on stdout"
rb -n -b 4k -d 5m "$DEV"
assert_eq 1 "$(<<<"$RB_ERR" grep -c 'not minutes')" "-n: the note once on stderr"
assert_no_match 'minutes' "$RB_OUT" "-n: stdout is the machine line alone"
rb --json -b 4k -d 5m "$DEV"
assert_eq 1 "$(<<<"$RB_ERR" grep -c 'not minutes')" "--json: the note once on stderr"
rb -n -b 4k,8k -d 5m "$DEV"
assert_rc 0 "a sweep of 2 points with -d 5m: exit 0"
assert_eq 1 "$(<<<"$RB_ERR" grep -c 'not minutes')" "a sweep of 2 points: the note once"
printf -- '-b 4k -d 5m %s\n-b 8k -d 5m -j 16m %s\n' "$DEV" "$DEV" >"$SCRATCH/two.lines"
rb -n <"$SCRATCH/two.lines"
assert_rc 0 "two workload lines with -d 5m: exit 0"
assert_eq 1 "$(<<<"$RB_ERR" grep -c 'not minutes')" "two workload lines with -d 5m: the note once"
rb -b 4k -d 5m "$DEV"
assert_rc 0 "-d 5m in 4 KiB I/Os: exit 0"
assert_match '^Total: 1280 I/Os, 5242880 bytes' "$RB_OUT" "5 MiB in 4 KiB I/Os"
rb --fio -b 4k -d 5min "$DEV"
assert_rc 0 "--fio -d 5min: exit 0"
assert_match '^runtime=300s$' "$RB_OUT" "-d 5min is 300 seconds"
# (--dry-run: the note comes before any I/O, and 5 GiB of reads would
# run for minutes)
rb --dry-run -b 4k -d 5g -e 1m "$DEV"
assert_rc 0 "--dry-run -d 5g: exit 0"
assert_no_match 'not minutes' "$RB_OUT$RB_ERR" "other byte suffixes need no warning"
