#!/usr/bin/env bash
# test_flush_apart.sh - a --sync policy's flushes are not I/Os of the
# headline: ops/s, MB/s, latency and Total count the data I/Os (fio's IOPS
# counts no flush); the flushes have their own line and counts; the
# write+flush latency is each write from its start to the end of the flush
# that made it durable (the original Rebench's operation); and a timed run
# issues every flush its writes are owed, floor(W/N), even the last write's,
# after the clock stops.  Counts only: nothing here depends on timing.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq strace

DEV=$(make_loop 64M)
W=(-o write -b 4k -y)

# Fields of the -n line: 14 the headline's I/Os, 34 writes, 58 fsyncs, 70
# fdatasyncs (the per-kind blocks of 12 from field 22, in enum io_kind
# order), then the write+flush block.
WFL=$((TF - 9))		# its count of writes: TERSE_FIELD_DURABLE
END=$TF			# flushes issued after the clock stopped

section "the headline counts writes, not writes and flushes"
rb "${W[@]}" --sync fdatasync:1 -d 300ms -n "$DEV"
assert_rc 0 "a timed fdatasync:1 run exits 0"
read -r -a f <<<"$RB_OUT"
assert_eq "$TF" "${#f[@]}" "-n: $TF fields"
assert_ne 0 "${f[33]}" "-n: some writes (field 34)"
assert_eq "${f[33]}" "${f[13]}" "-n: field 14, the headline's I/Os, counts the writes only"
assert_eq "${f[33]}" "${f[69]}" "-n: as many fdatasyncs (field 70) as writes: the last write's too"
assert_eq "${f[33]}" "${f[$((WFL - 1))]}" "-n: the write+flush latency covers every write"
assert_num "-n: ops/s x elapsed is the writes (field 1 x field 16 = field 14)" \
	"${f[0]} * ${f[15]} > ${f[13]} - 1 && ${f[0]} * ${f[15]} < ${f[13]} + 1"
assert_num "-n: the write+flush minimum is at least a write's and a flush's minimum" \
	"${f[$WFL]} >= ${f[37]} + ${f[73]} - 0.002"
assert_num "-n: the write+flush maximum is at least the longest flush's" \
	"${f[$((WFL + 7))]} >= ${f[80]} - 0.002"
assert_match '^[01]$' "${f[$((END - 1))]}" "-n: 0 or 1 flush after the clock stopped (field $END)"

rb "${W[@]}" --sync fdatasync:1 -d 300ms "$DEV"
assert_rc 0 "the human block exits 0"
writes=$(<<<"$RB_OUT" sed -nE 's/^Total: ([0-9]+) I\/Os and ([0-9]+) flushes.*/\1/p')
flushes=$(<<<"$RB_OUT" sed -nE 's/^Total: ([0-9]+) I\/Os and ([0-9]+) flushes.*/\2/p')
assert_ne "" "$writes" "human: Total says the I/Os and the flushes apart"
assert_eq "$writes" "$flushes" "human: as many flushes as writes"
assert_match "^Flushes: $flushes fdatasync, [0-9]+/sec; latency \(us\): min" "$RB_OUT" \
	"human: the flushes' own line"
assert_match "^Write\+flush latency \(us\): min [0-9.]+ .* \($writes writes, each from its start to the end of the flush" \
	"$RB_OUT" "human: the write+flush latency line"
assert_no_match '^  write ' "$RB_OUT" "human: one data kind: the headline is its line"

rb "${W[@]}" --sync fdatasync:1 -d 300ms --json "$DEV"
assert_rc 0 "--json exits 0"
R='.workloads[0].results'
assert_eq "$(jqr "$R.operations.write.ios")" "$(jqr "$R.ios")" "JSON: ios is the writes"
assert_eq "$(jqr "$R.operations.fdatasync.ios")" "$(jqr "$R.flushes")" "JSON: flushes is the fdatasyncs"
assert_eq "$(jqr "$R.ios")" "$(jqr "$R.flushes")" "JSON: a flush for every write"
assert_eq "$(jqr "$R.ios")" "$(jqr "$R.write_flush_latency_us.writes")" \
	"JSON: write_flush_latency_us covers every write"
assert_eq "$(jqr "$R.ios")" "$(jqr "$R.latency_hist.count")" "JSON: latency_hist holds the writes only"
assert_eq false "$(jqr "$R.flushes_in_ios")" "JSON: flushes_in_ios false"

section "floor(W/N) flushes, as strace counts them"
for n in 1 3; do
	for e in stateless stateful; do
		rb "${W[@]}" -t "$e" --sync "fdatasync:$n" -d 300ms -n "$DEV"
		read -r -a f <<<"$RB_OUT"
		assert_eq "$((f[33] / n))" "${f[69]}" "-t $e fdatasync:$n: floor(${f[33]}/$n) fdatasyncs"
	done
	strace -f -qq -e trace=pwrite64,write,fdatasync -o "$SCRATCH/st.$n" \
		"$REBENCH" "${W[@]}" -t stateless --sync "fdatasync:$n" -d 300ms -n "$DEV" \
		>"$SCRATCH/out.$n" 2>/dev/null </dev/null ||
		fail "fdatasync:$n under strace: exit $?"
	read -r -a f <"$SCRATCH/out.$n"
	pw=$(grep -c 'pwrite64(' "$SCRATCH/st.$n")
	fd=$(grep -c 'fdatasync(' "$SCRATCH/st.$n")
	assert_eq "${f[33]} ${f[69]}" "$pw $fd" "strace: fdatasync:$n: the -n counts are the calls made ($pw pwrite64, $fd fdatasync)"
	assert_eq "$((pw / n))" "$fd" "strace: fdatasync:$n: floor($pw/$n) = $fd"
done
for e in "uring -q 1" "naio -q 1" "paio -q 1" "uring -q 4"; do
	# shellcheck disable=SC2086
	rb "${W[@]}" -t $e --sync fsync:1 -d 300ms -n "$DEV"
	read -r -a f <<<"$RB_OUT"
	assert_eq "${f[33]}" "${f[57]}" "-t $e fsync:1: as many fsyncs as writes (${f[33]})"
	assert_eq "${f[33]}" "${f[13]}" "-t $e: the headline counts the writes"
done

section "where the write+flush latency is not measured"
rb "${W[@]}" -t uring -q 4 --sync fdatasync:1 -d 200ms --json "$DEV"
assert_eq null "$(jqr "$R.write_flush_latency_us")" \
	"-q 4: a flush beside writes in flight: not measured (null)"
rb "${W[@]}" -t uring -q 4 --sync fdatasync:1 -d 200ms -n "$DEV"
read -r -a f <<<"$RB_OUT"
assert_eq "0 -" "${f[$((WFL - 1))]} ${f[$WFL]}" "-n: 0 writes and '-' where it is not measured"
rb "${W[@]}" -d 200ms "$DEV"
assert_no_match '^(Flushes|Write\+flush)' "$RB_OUT" "O_DSYNC writes: no flush line (each write is durable on return)"

section "a workload that only flushes has its flushes as its I/Os"
rb -o fsync -y -d 200ms --json "$DEV"
assert_rc 0 "-o fsync exits 0"
assert_ne 0 "$(jqr "$R.ios")" "JSON: some fsyncs"
assert_eq "$(jqr "$R.operations.fsync.ios")" "$(jqr "$R.ios")" "JSON: ios is the fsyncs"
assert_eq true "$(jqr "$R.flushes_in_ios")" "JSON: flushes_in_ios true"

section "mixes: the data kinds each have a line, the flushes theirs"
rb -o read/50:write/50 -b 4k -y --sync fdatasync:2 -d 300ms -n "$DEV"
read -r -a f <<<"$RB_OUT"
assert_eq "$((f[21] + f[33]))" "${f[13]}" "-n: the headline is the reads and the writes"
assert_eq "$((f[33] / 2))" "${f[69]}" "-n: floor(W/2) fdatasyncs"
rb -o read/50:write/50 -b 4k -y --sync fdatasync:2 -d 300ms "$DEV"
assert_match '^  read +[0-9]+ I/Os' "$RB_OUT" "human: the reads' line"
assert_match '^  write +[0-9]+ I/Os' "$RB_OUT" "human: the writes' line"
assert_match '^Flushes: [0-9]+ fdatasync' "$RB_OUT" "human: the flushes' line"
assert_match '^Total: [0-9]+ I/Os \([0-9]+ reads, [0-9]+ writes\) and [0-9]+ flushes' "$RB_OUT" \
	"human: Total with each data kind and the flushes apart"

section "the interval series and --output count data I/Os"
rb "${W[@]}" --sync fdatasync:1 -d 400ms -g 100ms --output "$SCRATCH/s.tsv" -n "$DEV"
read -r -a f <<<"$RB_OUT"
sum=$(grep -v '^#' "$SCRATCH/s.tsv" | awk -F'\t' 'NR > 1 && $1 == 1 { n += $3 } END { print n + 0 }')
assert_num "TSV: the intervals' I/Os add up to at most the writes ($sum of ${f[33]})" \
	"$sum <= ${f[33]} && $sum >= ${f[33]} * 0.5"
assert_match 'fdatasync_ops_per_s' "$(grep -v '^#' "$SCRATCH/s.tsv" | head -n 1)" "TSV: the flushes have a column of their own"

