#!/usr/bin/env bash
# test_workloads.sh - workload shapes on a 512-byte-sector loop device:
# seq forward/backward with strides, rnd within a -j/-e region, threads with
# a shared or local descriptor, pause, page cache I/O, durations in bytes
# and %, the -g sample step, the --output time series and per-I/O log, and
# --seed reproducibility.  Offsets are checked in the -g 0 per-I/O log.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

DEV=$(make_loop 64M)
LOG=$SCRATCH/io.tsv
TS=$SCRATCH/series.tsv
IO_HEADER=$'workload\ttime_s\tthread\top\toffset\tsize\tlatency_us'
TS_HEADER=$'workload\ttime_s\tios\tops_per_s\tmib_per_s\tlat_avg_us\tlat_max_us'
M=1048576

# Column N of the per-I/O log, without the header, one value a line.
log_col() { tail -n +2 "$LOG" | cut -f"$1"; }
log_rows() { tail -n +2 "$LOG" | wc -l; }

# seq_expect START STRIDE SLOTS COUNT [backward]: the offsets a sequential
# workload visits, wrapping at the region's ends.
seq_expect() {
	local start=$1 stride=$2 slots=$3 count=$4 dir=${5:-forward} i k
	for ((i = 0; i < count; i++)); do
		if [ "$dir" = backward ]; then
			k=$((slots - 1 - i % slots))
		else
			k=$(( i % slots ))
		fi
		echo $((start + k * stride))
	done
}

section "seq forward, exact offsets (-j 1m -e 64k, -b 4k, 20 I/Os)"
rb -w seq -b 4k -j 1m -e 64k -d 80k -g 0 --output "$LOG" "$DEV"
assert_rc 0 "seq forward run exits 0"
assert_match '^\[.*workload: seq.*region: 1m\+64k\]$' "$RB_OUT" "parameter line shows seq and the region"
assert_eq "$IO_HEADER" "$(head -n 1 "$LOG")" "per-I/O log header"
assert_eq "$(seq_expect $M 4096 16 20)" "$(log_col 5)" \
	"offsets go up by the block size and wrap to the region start"
assert_eq 20 "$(log_rows)" "-d 80k with -b 4k logs exactly 20 I/Os"

section "seq backward"
rb -w seq -r backward -b 4k -j 1m -e 64k -d 80k -g 0 --output "$LOG" "$DEV"
assert_rc 0 "seq backward run exits 0"
assert_match 'direction: backward' "$RB_OUT" "parameter line shows the direction"
assert_eq "$(seq_expect $M 4096 16 20 backward)" "$(log_col 5)" \
	"offsets go down from the last block and wrap to the region end"

section "seq with stride > block size"
# slots = (64k - 4k) / 16k + 1 = 4
rb -w seq -b 4k -s 16k -j 1m -e 64k -d 32k -g 0 --output "$LOG" "$DEV"
assert_rc 0 "seq -s 16k -b 4k exits 0"
assert_match 'stride: 16k' "$RB_OUT" "parameter line shows the stride"
assert_eq "$(seq_expect $M 16384 4 8)" "$(log_col 5)" \
	"offsets advance by the stride, leaving gaps, and wrap"
assert_eq "4096" "$(log_col 6 | sort -u)" "every I/O is one block long"
rb -w seq -r backward -b 4k -s 16k -j 1m -e 64k -d 32k -g 0 --output "$LOG" "$DEV"
assert_eq "$(seq_expect $M 16384 4 8 backward)" "$(log_col 5)" \
	"backward with a stride visits the same slots in reverse"

section "rnd inside a -j/-e region, offsets aligned to the stride"
rb -w rnd -b 4k -s 64k -j 2m -e 4m -d 2m -g 0 --output "$LOG" "$DEV"
assert_rc 0 "rnd -s 64k -j 2m -e 4m exits 0"
n=$(log_rows)
assert_eq 512 "$n" "-d 2m with -b 4k logs exactly 512 I/Os"
bad=$(log_col 5 | awk -v s=$((2 * M)) -v e=$((6 * M)) -v st=65536 -v bs=4096 \
	'($1 < s || $1 + bs > e || ($1 - s) % st) { print; exit }')
assert_eq "" "$bad" "every offset is region start + k * stride, and the block ends inside the region"
distinct=$(log_col 5 | sort -u | wc -l)
assert_num "random offsets spread over the 64 slots ($distinct distinct)" "$distinct >= 48"
assert_eq "4096" "$(log_col 6 | sort -u)" "sizes equal the block size"
assert_eq "read" "$(log_col 4 | sort -u)" "op column says read"

section "region as % of the target"
rb -j 25% -e 50% -d 300ms --json "$DEV"
assert_rc 0 "-j 25% -e 50% exits 0"
assert_eq "$((16 * M)) $((32 * M))" \
	"$(jqr '.workloads[0].parameters | "\(.region_offset) \(.region_length)"')" \
	"region resolves to 16 MiB + 32 MiB of the 64 MiB device"

section "threads: -c 2 -t stateless (shared fd) and -c 2 -l (stateful, local fds)"
rb -c 2 -t stateless -d 500ms -g 0 --output "$LOG" --json "$DEV"
assert_rc 0 "-c 2 -t stateless exits 0"
assert_eq "2 stateless false" \
	"$(jqr '.workloads[0].parameters | "\(.threads) \(.engine) \(.local_fd)"')" \
	"JSON shows 2 threads, stateless engine, shared fd"
assert_eq $'0\n1' "$(log_col 3 | sort -u)" "both threads did I/O"
assert_eq "$(jqr '.workloads[0].results.ios')" "$(log_rows)" "per-I/O log has one row per I/O of both threads"
rb -c 2 -l -d 500ms --json "$DEV"
assert_rc 0 "-c 2 -l (stateful, one fd per thread) exits 0"
assert_eq "2 stateful true" \
	"$(jqr '.workloads[0].parameters | "\(.threads) \(.engine) \(.local_fd)"')" \
	"JSON shows 2 threads, stateful engine, local fds"
rb -c 2 -l -d 300ms "$DEV"
assert_match '^\[duration: 300ms, threads: 2, .*IO type: stateful.*local fd' "$RB_OUT" \
	"human parameter line shows threads: 2 and local fd"
rb -c 3 -t stateless -w seq -b 4k -d 3m -n "$DEV"
assert_eq 768 "$(terse_field 14)" "-d 3m -b 4k over 3 threads does exactly 768 I/Os in total"

section "-z pause"
rb -z 2000 -d 600ms --json "$DEV"
assert_rc 0 "-z 2000 exits 0"
ops=$(jqr '.workloads[0].results.ops_per_s')
ios=$(jqr '.workloads[0].results.ios')
assert_num "a 2 ms pause after each I/O caps ops/s at 500 (got $ops, $ios I/Os)" "$ops <= 500 && $ios >= 1"
assert_eq 2000 "$(jqr '.workloads[0].parameters.pause_us')" "JSON pause_us is 2000"
# Think time is part of the run: a timed run lasts its duration, and its
# rate is I/Os over that duration.  -z 500ms -d 1: I/Os at 0 s and 0.5 s,
# never a third (each pause is at least 500 ms); a second only if the first
# took less than the pause, which load decides.
rb -z 500ms -d 1 --json "$DEV"
assert_rc 0 "-z 500ms -d 1 exits 0"
read -r ios el ops <<<"$(jqr '.workloads[0].results | "\(.ios) \(.elapsed_s) \(.ops_per_s)"')"
assert_num "-z 500ms -d 1: elapsed_s covers the 1 s run, trailing pause included (got $el)" "$el >= 0.99"
assert_num "-z 500ms -d 1: one or two I/Os (got $ios)" "$ios >= 1 && $ios <= 2"
assert_num "-z 500ms -d 1: ops_per_s is I/Os over the whole second ($ios / $el, got $ops)" \
	"($ops - $ios / $el) ^ 2 <= ($ops * 0.001) ^ 2 && $ops <= 2.2"
# A pause longer than what is left of the duration ends at the deadline: an
# hour's pause not cut would outlast RB_TIMEOUT, which rb counts as a failed
# check (bench/crosscheck.sh prints how close to 1 s the run ends).
rb -z 1h -d 1 --json "$DEV"
assert_rc 0 "-z 1h -d 1 exits 0: it stops at the 1 s deadline, not after the hour's pause"
read -r ios el ops <<<"$(jqr '.workloads[0].results | "\(.ios) \(.elapsed_s) \(.ops_per_s)"')"
assert_eq 1 "$ios" "-z 1h -d 1: one I/O, then the pause to the deadline"
assert_num "-z 1h -d 1: elapsed_s is at least the 1 s run (got $el)" "$el >= 0.99"
assert_num "-z 1h -d 1: ops_per_s reflects 1 I/O per second, not one I/O's latency ($ios I/Os in $el s, $ops ops/s)" \
	"$ops <= 1.5"

section "-p paged I/O"
rb -p -d 300ms "$DEV"
assert_rc 0 "-p exits 0"
assert_match 'direct IO: off' "$RB_OUT" "parameter line says direct IO: off"
rb -p -b 100 -d 300ms --json "$DEV"
assert_rc 0 "-p lifts the sector multiple requirement (-b 100 accepted)"
assert_eq "false 100" "$(jqr '.workloads[0].parameters | "\(.direct) \(.block_size)"')" \
	"JSON shows direct false and block_size 100"

section "option spellings and flags"
for args in "-i 10" "-m" "--drop-caches" "-u uniform" "-t psync" "-t sync" "-q 1" "-pf" "-b4k" "--block-size=4k" "-w seq -r forward"; do
	# shellcheck disable=SC2086
	rb $args -d 200ms -n "$DEV"
	assert_rc 0 "rebench $args is accepted"
done
rb -b4k -d 200ms --json "$DEV"
assert_eq 4096 "$(jqr '.workloads[0].parameters.block_size')" "-b4k gives a 4096-byte block"
rb -t psync -d 200ms --json "$DEV"
assert_eq stateless "$(jqr '.workloads[0].parameters.engine')" "-t psync (fio name) is the stateless engine"

section "duration in bytes and in %"
rb -d 1m -b 4k -n "$DEV"
assert_rc 0 "-d 1m -b 4k -n exits 0"
assert_eq 256 "$(terse_field 14)" "-d 1m with -b 4k: -n field 14 (I/Os) is 256"
assert_eq 1048576 "$(terse_field 15)" "-n field 15 (bytes) is 1 MiB"
rb -d 1m -b 4k --json "$DEV"
assert_eq "256 256" "$(jqr '.workloads[0] | "\(.results.ios) \(.parameters.duration_ios)"')" \
	"--json results.ios and parameters.duration_ios are 256"
rb -d 50% -e 8m -b 64k --json "$DEV"
assert_rc 0 "-d 50% -e 8m -b 64k exits 0"
assert_eq 64 "$(jqr '.workloads[0].results.ios')" "50% of an 8 MiB region in 64 KiB blocks is 64 I/Os"
assert_eq "50%" "$(jqr '.workloads[0].parameters.duration')" "JSON duration is 50%"

section "-g sample step"
rb -g 100 -d 1 --json "$DEV"
assert_rc 0 "-g 100 -d 1 exits 0"
read -r complete el < <(jqr '.workloads[0].results | "\(.intervals.complete) \(.elapsed_s)"')
# a run lasts at least its second; load may stretch the I/O that crosses
# the deadline, and the intervals it completes count
assert_num "at least 10 complete 100 ms intervals in 1 s (got $complete)" "$complete >= 10"
assert_eq "$(calc "int($el * 10 + 1e-9)")" "$complete" "complete is the 100 ms steps in elapsed_s ($el s)"
assert_eq 100 "$(jqr '.workloads[0].results.intervals.step_ms')" "intervals.step_ms is 100"
# The series leaves out a tail shorter than a tenth of a step; a timed run
# ends with the one I/O that crossed the deadline, so at most that is missing.
ios=$(jqr '.workloads[0].results.ios')
sum=$(jqr '[.workloads[0].results.intervals.ios[]] | add')
assert_num "interval I/O counts add up to results.ios, but for a short tail ($sum of $ios)" \
	"$ios - $sum >= 0 && $ios - $sum <= 1"
read -r ivmin ivmax < <(jqr '.workloads[0].results.intervals | "\(.ops_per_s_min) \(.ops_per_s_max)"')
# (a 100 ms interval may hold no I/O when the machine stalls the thread)
assert_num "interval 0 <= min <= max ops/s" "$ivmin <= $ivmax && $ivmin >= 0"
rb -g 100 -d 1 "$DEV"
assert_match '^Ops/sec over [0-9]+ intervals of 100ms: min [0-9]+ max [0-9]+ stddev [0-9.]+$' "$RB_OUT" \
	"human interval line reports 100ms intervals"
assert_num "human: at least 10 of them in 1 s" \
	"$(<<<"$RB_OUT" sed -n 's/^Ops\/sec over \([0-9]*\) intervals.*/\1/p') >= 10"

section "--output time series (TSV)"
rb -g 200 -d 1 --output "$TS" --json "$DEV"
assert_rc 0 "-g 200 --output FILE exits 0"
assert_eq "$TS_HEADER" "$(grep -v '^#' "$TS" | head -n 1)" "time series header, after the comment lines"
rows=$(grep -v "^#" "$TS" | tail -n +2 | wc -l)
read -r complete series < <(jqr '.workloads[0].results.intervals | "\(.complete) \(.ios | length)"')
assert_num "at least 5 rows for 1 s in 200 ms steps (got $rows)" "$rows >= 5"
assert_num "a row per complete interval, and one for a tail ($rows rows, $complete complete)" \
	"$rows == $series && ($rows == $complete || $rows == $complete + 1)"
assert_eq "7" "$(grep -v "^#" "$TS" | tail -n +2 | awk -F'\t' '{ print NF }' | sort -u)" "every row has 7 tab-separated columns"
assert_eq "1" "$(grep -v "^#" "$TS" | tail -n +2 | cut -f1 | sort -u)" "workload column is 1"
ios=$(jqr '.workloads[0].results.ios')
sum=$(grep -v "^#" "$TS" | tail -n +2 | awk -F'\t' '{ s += $3 } END { print s }')
assert_num "ios column adds up to results.ios, but for a short tail ($sum of $ios)" \
	"$ios - $sum >= 0 && $ios - $sum <= 1"
assert_eq "$(jqr '.workloads[0].results.intervals.ios | map(tostring) | join(" ")')" \
	"$(grep -v "^#" "$TS" | tail -n +2 | cut -f3 | paste -sd' ')" "ios column equals the JSON intervals.ios series"
assert_eq "" "$(grep -v "^#" "$TS" | tail -n +2 | awk -F'\t' 'NR > 1 && $2 <= prev { print "not increasing at " NR } { prev = $2 }')" \
	"time_s increases row by row"
assert_eq "" "$(grep -v "^#" "$TS" | tail -n +2 | awk -F'\t' '$2 <= 1.0 + 1e-9 {
	r = $3 / 0.2; if ((r - $4) ^ 2 > 0.01 + (r * 1e-6) ^ 2) print "row " NR ": " $3 " I/Os, " $4 " ops/s" }')" \
	"ops_per_s = ios / 0.2 s for full intervals"
assert_eq "" "$(grep -v "^#" "$TS" | tail -n +2 | awk -F'\t' '$7 + 0.001 < $6 { print "row " NR }')" \
	"lat_max_us >= lat_avg_us in every row"

section "-g 0 per-I/O log over a timed run"
rb -g 0 --output "$LOG" -b 4k -j 4m -e 8m -s 8k -d 500ms --json "$DEV"
assert_rc 0 "-g 0 --output exits 0"
ios=$(jqr '.workloads[0].results.ios')
assert_eq "$ios" "$(log_rows)" "one row per I/O ($ios)"
bad=$(log_col 5 | awk -v s=$((4 * M)) -v e=$((12 * M)) -v st=8192 -v bs=4096 \
	'($1 < s || $1 + bs > e || ($1 - s) % st) { print; exit }')
assert_eq "" "$bad" "every offset is a multiple of the stride from -j and inside the region"
assert_eq "4096" "$(log_col 6 | sort -u)" "every size equals the block size"
assert_eq "" "$(tail -n +2 "$LOG" | awk -F'\t' 'NR > 1 && $2 < prev { print "row " NR } { prev = $2 }')" \
	"rows are in completion-time order"
assert_eq "" "$(log_col 7 | awk '$1 <= 0 { print }')" "every latency is positive"

section "--seed reproducibility"
rb --seed 1234 -g 0 --output "$LOG" -b 4k -d 400k --json "$DEV"
assert_rc 0 "--seed 1234 run exits 0"
assert_eq 1234 "$(jqr '.workloads[0].parameters.seed')" "JSON reports seed 1234"
first=$(log_col 5)
assert_eq 100 "$(<<<"$first" wc -l)" "-d 400k -b 4k logs 100 I/Os"
rb --seed 1234 -g 0 --output "$LOG" -b 4k -d 400k "$DEV"
assert_match 'seed 1234$' "$RB_OUT" "human Total line reports seed 1234"
assert_eq "$first" "$(log_col 5)" "the same seed gives the same offset sequence"
rb --seed 1235 -g 0 --output "$LOG" -b 4k -d 400k "$DEV"
assert_ne "$first" "$(log_col 5)" "another seed gives another offset sequence"
rb -g 0 --output "$LOG" -b 4k -d 400k --json "$DEV"
s1=$(jqr '.workloads[0].parameters.seed')
rb -g 0 --output "$LOG" -b 4k -d 400k --json "$DEV"
assert_ne "$s1" "$(jqr '.workloads[0].parameters.seed')" "without --seed each run draws a new seed"
