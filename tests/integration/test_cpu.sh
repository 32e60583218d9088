#!/usr/bin/env bash
# test_cpu.sh - the CPU a run used (fio's "cpu: usr= sys= ctx="), from
# getrusage(RUSAGE_THREAD) of each worker thread over the measured run: user
# and system seconds, CPU microseconds per data I/O, voluntary and
# involuntary context switches, per thread and in total, in the human
# "CPU:" line, -n fields 113-117, JSON results.cpu and the sweep table's
# cpu_us_io.  Checked for consistency (per I/O = (usr + sys) / I/Os, the
# threads add up to the total, two workloads add up to All workloads) and
# against the process's own rusage as /usr/bin/time sees it (the threads
# are part of the process: their CPU cannot exceed it).  Counts, not
# timings: byte-limited runs, no threshold on any time.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq
require_cmd /usr/bin/time

A=$(make_loop 64M)
B=$(make_loop 64M)

section "JSON: results.cpu with two threads, and the process's own rusage"
# 20000 reads of 4 KiB with O_DIRECT, 10000 per thread: a count, not a time
out=$SCRATCH/cpu.json
timeout -k 5 "$RB_TIMEOUT" /usr/bin/time -f '%U %S' -o "$SCRATCH/time" \
	"$REBENCH" --json -t stateless -c 2 -d 80000k -b 4k --seed 5 "$A" >"$out" 2>"$SCRATCH/err"
assert_eq 0 "$?" "the run exits 0"
RB_OUT=$(<"$out")
assert_eq 20000 "$(jqr '.workloads[0].results.ios')" "20000 I/Os"
cpu=$(jqr '.workloads[0].results.cpu | [.user_s, .system_s, .us_per_io, .ctx_voluntary, .ctx_involuntary, (.threads | length)] | @tsv')
read -r usr sys per vol invol nthreads <<<"$cpu"
assert_eq 2 "$nthreads" "results.cpu.threads: one entry per thread (-c 2)"
assert_num "usr + sys > 0 ($usr + $sys)" "$usr + $sys > 0"
assert_num "us_per_io $per = (usr + sys) * 1e6 / 20000 I/Os" \
	"($per - ($usr + $sys) * 1e6 / 20000) ^ 2 < 1e-6"
assert_num "voluntary context switches are counted ($vol)" "$vol >= 0"
assert_eq "$(jqr '[.workloads[0].results.cpu.threads[].user_s * 1e6 | round] | add')" \
	"$(jqr '.workloads[0].results.cpu.user_s * 1e6 | round')" "the threads' user time adds up to the total's"
assert_eq "$(jqr '[.workloads[0].results.cpu.threads[].system_s * 1e6 | round] | add')" \
	"$(jqr '.workloads[0].results.cpu.system_s * 1e6 | round')" "the threads' system time adds up to the total's"
assert_eq "$(jqr '[.workloads[0].results.cpu.threads[].ctx_voluntary] | add') $(jqr '[.workloads[0].results.cpu.threads[].ctx_involuntary] | add')" \
	"$vol $invol" "the threads' context switches add up to the total's"
read -r pu ps <"$SCRATCH/time"
# The kernel splits each task's run time into user and system from tick
# samples, the process's and each thread's separately (cputime_adjust):
# only their sum is exact, so the process's user time alone may come out
# below its threads' (0.01 s against 0.017 s seen under load).  The sum
# is compared.  /usr/bin/time prints 2 decimals a figure, cut, not
# rounded (GNU time: ms / 10), so each loses up to 0.00999 s: allow that
# for both, nothing more.
assert_num "the process's CPU time ($pu + $ps s) is not below the threads' ($usr + $sys s)" \
	"$pu + $ps + 0.02 >= $usr + $sys"

section "human: a CPU line per workload and for All workloads"
printf '%s\n' "-t stateless -b 4k $A" "-t stateless -b 4k -c 2 $B" >"$SCRATCH/spec"
rb -d 16000k --seed 3 --yes <"$SCRATCH/spec"
assert_rc 0 "two stdin workloads exit 0"
assert_eq 3 "$(<<<"$RB_OUT" grep -cE '^CPU: usr [0-9]+\.[0-9]{3} s, sys [0-9]+\.[0-9]{3} s, [0-9]+\.[0-9] us per I/O; [0-9]+ voluntary and [0-9]+ involuntary context switches \([0-9]+ threads?\)$')" \
	"three CPU lines: each workload's and the total's"
assert_eq "(1 thread) (2 threads) (3 threads)" \
	"$(<<<"$RB_OUT" sed -nE 's/^CPU: .*(\([0-9]+ threads?\))$/\1/p' | paste -sd' ')" \
	"their thread counts: 1, 2, and 3 in all"

section "-n: fields 113-117, consistent with each other and adding up in the total"
rb -n -d 16000k --seed 3 --yes <"$SCRATCH/spec"
assert_rc 0 "-n exits 0"
lines=$(<<<"$RB_OUT" awk '$1 != "device"')
assert_eq "$TF $TF $TF" "$(<<<"$lines" awk '{ printf "%s%d", (NR > 1 ? " " : ""), NF }')" \
	"every workload line and the total's have $TF fields"
while read -r n u s p v i ios; do
	assert_num "line $n: field 115 ($p) = (113 + 114) * 1e6 / $ios I/Os, to the rounding" \
		"($p - ($u + $s) * 1e6 / $ios) ^ 2 < 0.0006 ^ 2 + (1e-6 * 1e6 / $ios) ^ 2"
done < <(<<<"$lines" awk '{ print NR, $113, $114, $115, $116, $117, $14 }')
read -r -a w1 <<<"$(sed -n 1p <<<"$lines")"
read -r -a w2 <<<"$(sed -n 2p <<<"$lines")"
read -r -a t <<<"$(sed -n 3p <<<"$lines")"
assert_num "field 113: the total's user time ${t[112]} = ${w1[112]} + ${w2[112]}" "(${t[112]} - ${w1[112]} - ${w2[112]}) ^ 2 < 1e-12"
assert_num "field 114: the total's system time ${t[113]} = ${w1[113]} + ${w2[113]}" "(${t[113]} - ${w1[113]} - ${w2[113]}) ^ 2 < 1e-12"
assert_eq "$((w1[115] + w2[115])) $((w1[116] + w2[116]))" "${t[115]} ${t[116]}" \
	"fields 116-117: the context switches add up"

section "a sweep's table: a cpu_us_io column"
rb -t stateless -b 4k,8k -d 8000k --seed 3 "$A"
assert_rc 0 "the sweep exits 0"
col=$(<<<"$RB_OUT" awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cpu_us_io") c = i; print c + 0; exit }')
assert_num "the header has cpu_us_io (column $col)" "$col > 0"
assert_eq 2 "$(<<<"$RB_OUT" awk -F'\t' -v c="$col" 'NR > 1 && $c ~ /^[0-9]+\.[0-9][0-9][0-9]$/' | wc -l)" \
	"each point's row has a number there"

