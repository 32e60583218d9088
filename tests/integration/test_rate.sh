#!/usr/bin/env bash
# test_rate.sh - --rate and --arrival (issue 32, section 2): an open-loop
# schedule, the latency from each I/O's intended start, the rate met or
# not, and the refusals.
#
# No check rests on how fast this machine is: the rate is a schedule, and
# the figures held to it are the schedule's (the intended starts: I/Os - 1
# over the time from the first to the last, which the loop computes from
# the schedule and not from the clock), counts of I/Os, and ratios that a
# model device makes large:
#   - on a loop device over a file (fast: the page cache), --rate 1000 for
#     1000 I/Os is scheduled at 1000 ops/s within 1%, with 1 thread and
#     with 4 (each 250 ops/s, interleaved), and the I/Os really started
#     that fast within 10% (their submissions: a busy machine delays a few,
#     not the whole second);
#   - on a model SSD of one channel and 2 ms reads (500 ops/s at most),
#     --rate 1000 falls behind: the queue a client on the schedule would
#     see grows with the run, so the latency from the intended start of a
#     run three times as long (600 I/Os against 200) has a p99 at least 2
#     times as high (3 expected), while the latency from submission, the
#     device's 2 ms, does not grow with it (its p50 by less than half as
#     much, its p99, which a busy machine moves by several ms, by less);
#     the rate is said not met, in the warning and in JSON;
#   - --arrival poisson over 2000 I/Os: the schedule's mean rate within
#     10% of the asked one (its standard error is 2.2%);
#   - --latency-target p99<20ms on that model: the search's steps (the
#     first as fast as it goes went), each step held exactly when
#     its rate was met and its p99 within the bound, the result the highest
#     rate that held;
#   - every bad input refused before any I/O, exit 1, with its message.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq awk
require_rebench

# rate FIELD: the last JSON's workloads[0].results.rate.FIELD
rate() { jqr ".workloads[0].results.rate.$1"; }

FAST=$(make_loop 64M)

section "fixed rate on a fast device"
rb_ok "--rate 1000, 1000 I/Os" --json --rate 1000 -b 4k -d 4000k --seed 1 "$FAST"
assert_eq 1000 "$(rate ios)" "1000 I/Os on the schedule"
assert_eq 1000 "$(jqr '.workloads[0].results.ios')" "1000 I/Os done"
assert_num "scheduled $(rate scheduled) ops/s within 1% of 1000" \
	"$(rate scheduled) >= 990 && $(rate scheduled) <= 1010"
assert_num "started $(rate submitted) ops/s within 10% of 1000" \
	"$(rate submitted) >= 900 && $(rate submitted) <= 1100"
assert_eq fixed "$(rate arrival)" "arrival fixed by default"
assert_num "intended p99 >= submission p99 (a late I/O waits longer)" \
	"$(rate intended_latency_us.p99) >= $(jqr '.workloads[0].results.latency_us.p99') * 0.99"

rb_ok "--rate 1000 -c 4" --json --rate 1000 -c 4 -t stateless -b 4k -d 4000k --seed 1 "$FAST"
assert_eq 1000 "$(rate ios)" "4 threads: 1000 I/Os on the schedule"
assert_num "4 threads: scheduled $(rate scheduled) ops/s within 1% of 1000" \
	"$(rate scheduled) >= 990 && $(rate scheduled) <= 1010"
assert_num "4 threads: each thread 4 ms apart ($(rate interval_us) us)" \
	"$(rate interval_us) == 4000"

rb_ok "--rate 4m/s -b 4k: 1024 ops/s" --json --rate 4m/s -b 4k -d 400k "$FAST"
assert_num "4 MiB/s of 4 KiB asked as $(rate asked) ops/s" "$(rate asked) == 1024"
assert_eq 4194304 "$(rate asked_bytes_per_s)" "asked_bytes_per_s"

rb_ok "human output" --rate 2k -b 4k -d 400k "$FAST"
assert_match '^Rate: asked 2000 ops/s \(fixed arrival\), scheduled 2000\.0' "$RB_OUT" "human: the Rate line"
assert_match '^Latency from the intended start \(us\): min' "$RB_OUT" "human: the intended-start latency line"
assert_match '^Late starts: [0-9]+ of 100 I/Os' "$RB_OUT" "human: the late starts"

# a time-bound run lasts its -d: the schedule's last start falls short of
# the end, and the thread idles until then, so every interval is whole
rb_ok "--rate 1000 -d 300ms -g 100ms" --json --rate 1000 -b 4k -d 300ms -g 100ms "$FAST"
assert_num "elapsed $(jqr '.workloads[0].results.elapsed_s') s: at least the 300 ms asked" \
	"$(jqr '.workloads[0].results.elapsed_s') >= 0.3"
assert_eq 3 "$(jqr '.workloads[0].results.intervals.complete')" "3 whole intervals of 100 ms"
assert_eq 300 "$(rate ios)" "300 I/Os on the schedule"

rb_ok "-n: the rate line" -n --rate 1000 -b 4k -d 400k --seed 1 "$FAST"
RL=$(grep '^rate ' <<<"$RB_OUT")
assert_eq 19 "$(wc -w <<<"$RL")" "-n: the rate line has 19 fields"
assert_match '^rate 1 1000\.00 [0-9.]+ [0-9.]+ (met|not-met) fixed 100 [0-9]+ ' "$RL" "-n: workload, asked, scheduled, achieved, met, arrival, I/Os"
assert_eq 1 "$(grep -c '^[0-9]' <<<"$RB_OUT")" "-n: the workload line still one"
rb_ok "-n without --rate: no rate line" -n -b 4k -d 400k "$FAST"
assert_no_match '^rate ' "$RB_OUT" "-n: no rate line without --rate"

rb_ok "no --rate: nothing of it" --json -b 4k -d 400k "$FAST"
assert_eq null "$(jqr '.workloads[0].results.rate')" "JSON: no rate without --rate"
rb_ok "no --rate: human" -b 4k -d 400k "$FAST"
assert_no_match '^Rate:|intended start' "$RB_OUT" "human: no rate lines without --rate"

section "poisson arrivals"
rb_ok "--arrival poisson, 2000 I/Os" --json --rate 2000 --arrival poisson -b 4k -d 8000k --seed 7 "$FAST"
assert_eq poisson "$(rate arrival)" "arrival poisson"
assert_eq 2000 "$(rate ios)" "2000 I/Os on the schedule"
assert_num "poisson: scheduled $(rate scheduled) ops/s within 10% of 2000" \
	"$(rate scheduled) >= 1800 && $(rate scheduled) <= 2200"
assert_num "poisson: not the fixed schedule (exactly 2000)" \
	"$(rate scheduled) != 2000"

section "a rate the device cannot keep"
SSD=$(make_model --size 32m ssd:read=2ms,channels=1)
model_snap "$SSD"
rb_ok "--rate 1000 on 2 ms reads, 200 I/Os" --json --rate 1000 -b 4k -d 800k --seed 3 "$SSD"
assert_eq 200 "$(model_delta "$SSD" requests.read)" "the model served the 200 reads"
i1=$(rate intended_latency_us.p99)
s1=$(jqr '.workloads[0].results.latency_us.p99')
m1=$(jqr '.workloads[0].results.latency_us.p50')
assert_eq false "$(rate met)" "short run: rate.met false"
assert_eq true "$(rate behind)" "short run: the schedule fell behind"
assert_num "short run: achieved $(rate achieved) ops/s below the 500 the model can do" "$(rate achieved) < 510"
assert_match 'the rate was not met' "$(jqr '.workloads[0].warnings[]')" "JSON warning: rate not met"
rb_ok "--rate 1000 on 2 ms reads, 600 I/Os" --json --rate 1000 -b 4k -d 2400k --seed 3 "$SSD"
i2=$(rate intended_latency_us.p99)
s2=$(jqr '.workloads[0].results.latency_us.p99')
m2=$(jqr '.workloads[0].results.latency_us.p50')
assert_num "intended-start p99 grows with the run: $i1 -> $i2 us (>= 2x)" "$i2 >= 2 * $i1"
# the latency from submission is the model's 2 ms and what a busy machine
# adds to it: its p50 stays at 2.1 ms, but its p99 of 200 I/Os (their
# second slowest) moved from 2.1 to 12.5 ms between runs on this project's
# shared machine (load 8 to 10 on 2 CPUs from other jobs, more under
# stress-ng --cpu 2), so it is held only to growing less than the latency
# from the intended start does, and the p50 to less than half of that
assert_num "submission p99 grows less than the intended one: $s1 -> $s2 us" \
	"$s2 / $s1 < $i2 / $i1"
assert_num "submission p50 does not grow with it: $m1 -> $m2 us" \
	"$m2 / $m1 - 1 <= 0.5 * ($i2 / $i1 - 1)"
assert_num "intended p99 $i2 us far above the device's 2 ms" "$i2 > 20000"
rb_ok "human warning" --rate 1000 -b 4k -d 200k "$SSD"
assert_match 'NOT met' "$RB_OUT" "human: the Rate line says NOT met"
assert_match 'Warning: the rate was not met: asked 1000 ops/s' "$RB_OUT$RB_ERR" "human: the warning"

section "bad input, refused before any I/O"
model_snap "$SSD"
assert_refused "--rate 0" "--rate: a rate of 0" --rate 0 "$SSD"
assert_refused "--rate -5" "a rate is above 0" --rate -5 "$SSD"
assert_refused "--rate abc" "invalid value 'abc' for --rate" --rate abc "$SSD"
assert_refused "--rate 20m" "above the 10000000 I/Os a second" --rate 20m "$SSD"
assert_refused "--rate 100m/s -b 512 -c 1: interval below 100 ns" "above the 10000000 that rebench's schedule can keep" --rate 100g/s -b 512 "$SSD"
assert_refused "--arrival without --rate" "--arrival poisson: .*no --rate was given" --arrival poisson "$SSD"
assert_refused "--rate SIZE/s below a block a second" "less than one block of 4096 bytes a second" --rate 1k/s -b 4k "$SSD"
assert_refused "--rate with an async engine" "synchronous engines only, not by naio" --rate 1000 -t naio "$SSD"
assert_refused "--rate with -z" "think time has no place" --rate 1000 -z 10 "$SSD"
assert_refused "--rate SIZE/s with a size mix" "with a size mix" --rate 1m/s -b 4k/50:8k/50 "$SSD"
assert_eq 0 "$(model_delta "$SSD" requests.read)" "no read reached the model"


section "--latency-target on the model (2 ms reads, 500 ops/s at most)"
# Deterministic service at fixed arrivals queues nothing below 500 ops/s,
# so a bound of 10 x the service time holds up to near the most the model
# does; what a busy machine adds to a step of a few dozen I/Os moves where
# the search ends, so the checks are the search's own logic, and that the
# rate it finds is at least half of as fast as the model went
rb_ok "--latency-target p99<20ms" --json --latency-target 'p99<20ms' -b 4k -d 500ms --seed 5 "$SSD"
lt() { jqr ".latency_target.$1"; }
assert_eq null "$(lt 'steps[0].asked')" "step 0 runs without a rate"
assert_num "step 1 asks step 0's $(lt max_ops_per_s) ops/s" \
	"$(lt 'steps[1].asked') == $(lt max_ops_per_s)"
assert_eq true "$(jqr '[.latency_target.steps[] | .held == (.rate_met and .intended_us <= 20000)] | all')" \
	"every step held exactly when its rate was met and its intended p99 was within 20 ms"
assert_eq "$(jqr '[.latency_target.steps[] | select(.held and .asked != null) | .asked] | max')" "$(lt rate)" \
	"the result is the highest rate that held"
assert_ne null "$(lt rate)" "a rate was found"
assert_num "the rate found, $(lt rate) ops/s, at least half of the $(lt max_ops_per_s) the model did (deterministic service: near all of it expected)" \
	"$(lt rate) >= 0.5 * $(lt max_ops_per_s)"
log "latency target: $(lt rate) ops/s of at most $(lt max_ops_per_s), p99 from the intended start $(lt rate_intended_us) us"
rb_ok "--latency-target, human" --latency-target 'p99<20ms' -b 4k -d 300ms --seed 5 "$SSD"
assert_match '^Result: ' "$RB_OUT" "human: the result line"
assert_match '^ +0 +\(no rate\)' "$RB_OUT" "human: step 0 without a rate"
model_snap "$SSD"
assert_refused "--latency-target without a bound" "expected a percentile and a bound" --latency-target p99 "$SSD"
assert_refused "--latency-target without a percentile" "expected a percentile and a bound" --latency-target '<2ms' "$SSD"
assert_refused "--latency-target without a unit" "not a time above 0 with its unit" --latency-target 'p99<2' "$SSD"
assert_refused "--latency-target p100" "not a number above 0 and below 100" --latency-target 'p100<2ms' "$SSD"
assert_refused "--latency-target with --rate" "the search sets the rate of each step itself" --latency-target 'p99<2ms' --rate 100 "$SSD"
assert_refused "--latency-target with an async engine" "synchronous engines only" --latency-target 'p99<2ms' -t naio "$SSD"
assert_refused "--latency-target with a sweep" "no place in it" --latency-target 'p99<2ms' -b 4k,8k "$SSD"
assert_refused "--latency-target with -d in bytes" "each step is a time" --latency-target 'p99<2ms' -d 1m "$SSD"
assert_eq 0 "$(model_delta "$SSD" requests.read)" "no read reached the model"
