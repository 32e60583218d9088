#!/usr/bin/env bash
# test_passes.sh - a sequential workload's passes over its region, said in
# every format and exact by hand: data I/Os / slots (for one block size,
# bytes / (slots * bs)), or bytes / span for sizes that vary without -s;
# summed over threads.  A run that wrapped (more than one pass) has the
# honesty warning (human "Warning:", JSON warnings, stderr with -n; a
# sweep says it once and counts the rest); -n has the count in field 82
# (version 4), --json as results.passes with pass_ios and pass_bytes.  Byte-
# limited runs only, so every count is exact and no timing matters.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

DEV=$(make_loop 256M)
WRAP='the sequential run wrapped: it went over its 256 MiB region'

section "-w seq -b 1m -d 600m on 256 MiB: 600 / 256 = 2.34375 passes"
rb -w seq -b 1m -d 600m --seed 1 "$DEV"
assert_rc 0 "human run exits 0"
assert_match "^Warning: $WRAP 2\.34 times \(600 I/Os, 256 a pass\), so every pass after the first went to blocks already used" \
	"$RB_OUT" "human: the Warning line says it wrapped, 2.34 times, 600 I/Os of 256 a pass"
rb -n -w seq -b 1m -d 600m --seed 1 "$DEV"
assert_rc 0 "-n run exits 0"
read -r -a f <<<"$(<<<"$RB_OUT" head -n 1)"
assert_eq "$TF $TV 600 2.343750" "${#f[@]} ${f[12]} ${f[13]} ${f[81]:-none}" \
	"-n: $TF fields, version $TV (field 13), 600 I/Os (field 14), passes 2.343750 (field 82)"
assert_match "^rebench: warning: $WRAP 2\.34 times \(600 I/Os, 256 a pass\)" "$RB_ERR" \
	"-n: the warning goes to stderr"
rb --json -w seq -b 1m -d 600m --seed 1 "$DEV"
assert_rc 0 "--json run exits 0"
assert_eq "$JV 2.34375 256 268435456 629145600" \
	"$(jqr '"\(.json_version) \(.workloads[0].results | "\(.passes) \(.pass_ios) \(.pass_bytes) \(.bytes)")"')" \
	"JSON: json_version $JV; results.passes 2.34375, pass_ios 256, pass_bytes 268435456, bytes 629145600"
assert_eq true "$(jqr '.workloads[0].results | .passes * .pass_bytes == .bytes and .passes * .pass_ios == .ios')" \
	"JSON: passes x pass_bytes = bytes, passes x pass_ios = ios"
assert_eq 1 "$(jqr "[.workloads[0].warnings[] | select(startswith(\"$WRAP 2.34 times\"))] | length")" \
	"JSON: the warning is in warnings[]"

section "the per-I/O log shows the wraps the count implies"
rb -w seq -b 1m -d 600m -g 0 --output "$SCRATCH/fwd.tsv" --seed 1 "$DEV"
assert_rc 0 "forward run with -g 0 --output exits 0"
assert_eq "600 2 0 0 0" \
	"$(awk -F'\t' 'NR > 1 { n++; if (n > 1 && $5 < prev) w++; prev = $5; if (n == 1) a = $5; if (n == 257) b = $5; if (n == 513) c = $5 }
		END { print n, w, a, b, c }' "$SCRATCH/fwd.tsv")" \
	"forward: 600 I/Os, 2 jumps back to 0 (at I/O 257 and 513): 2 wraps, the third pass partial"
rb -w seq -r backward -b 1m -d 600m -g 0 --output "$SCRATCH/bwd.tsv" --seed 1 "$DEV"
assert_rc 0 "backward run with -g 0 --output exits 0"
assert_eq "600 2 267386880" \
	"$(awk -F'\t' 'NR > 1 { n++; if (n > 1 && $5 > prev) w++; prev = $5; if (n == 1) a = $5 } END { print n, w, a }' "$SCRATCH/bwd.tsv")" \
	"backward: starts at the last slot (255 MiB), 2 jumps up to it again: 2 wraps"
rb --json -w seq -r backward -b 1m -d 600m --seed 1 "$DEV"
assert_eq "2.34375 256" "$(jqr '.workloads[0].results | "\(.passes) \(.pass_ios)"')" \
	"backward: the same 2.34375 passes of 256 I/Os"
assert_match "^$WRAP 2\.34 times" "$(jqr '.workloads[0].warnings[]')" "backward: the warning too"

section "threads: their passes add up"
rb --json -w seq -b 1m -d 600m -c 4 -t stateless --seed 1 "$DEV"
assert_rc 0 "-c 4 exits 0"
assert_eq "600 2.34375" "$(jqr '.workloads[0].results | "\(.ios) \(.passes)"')" \
	"-c 4 -d 600m: 600 I/Os in all, 2.34375 passes (summed over the threads)"
assert_match "\(600 I/Os, 256 a pass; the 4 threads' passes added\)" "$(jqr '.workloads[0].warnings[]')" \
	"-c 4: the warning says the threads' passes are added"
rb --json -w seq -b 1m -d 100% -c 4 -t stateless --seed 1 "$DEV"
assert_eq "256 1 0" "$(jqr '.workloads[0] | "\(.results.ios) \(.results.passes) \([.warnings[] | select(test("wrapped"))] | length)"')" \
	"-c 4 -d 100%: 256 I/Os, exactly 1 pass, no wrap warning"

section "gaps, and sizes that vary"
# -s 2m: slots = (256 MiB - 1 MiB) / 2 MiB + 1 = 128; 300 I/Os
rb --json -w seq -b 1m -s 2m -d 300m --seed 1 "$DEV"
assert_eq "300 128 134217728 2.34375" "$(jqr '.workloads[0].results | "\(.ios) \(.pass_ios) \(.pass_bytes) \(.passes)"')" \
	"-s 2m -b 1m -d 300m: 300 I/Os over 128 slots of 1 MiB: 2.34375 passes"
# no -s: a contiguous stream; slots = (256 MiB - 8 KiB) / 4 KiB + 1 = 65535,
# span = 65534 * 4 KiB + 8 KiB = 256 MiB
rb --json -w seq -b 4k/50:8k/50 -d 600m --seed 1 "$DEV"
assert_rc 0 "size mix exits 0"
assert_eq "null 268435456" "$(jqr '.workloads[0].results | "\(.pass_ios) \(.pass_bytes)"')" \
	"-b 4k/50:8k/50: no I/Os per pass (sizes vary), 268435456 bytes a pass (the span)"
assert_eq true "$(jqr '.workloads[0].results | (.passes - .bytes / 268435456) | fabs < 1e-9')" \
	"-b 4k/50:8k/50: passes = bytes / span"
assert_match "^$WRAP 2\.34 times \([0-9]+ bytes, 268435456 a pass\)" "$(jqr '.workloads[0].warnings[]')" \
	"size mix: the warning counts bytes"

section "no wrap, no warning; random workloads have no passes"
rb --json -w seq -b 1m -d 128m --seed 1 "$DEV"
assert_eq "0.5 0" "$(jqr '.workloads[0] | "\(.results.passes) \([.warnings[] | select(test("wrapped"))] | length)"')" \
	"-d 128m: half a pass, no wrap warning"
rb -n -b 1m -d 600m --seed 1 "$DEV"
assert_eq "$TF - -" "$(<<<"$RB_OUT" awk -v d=$TD 'NF { print NF, $82, $d; exit }')" \
	"-n of a random read workload: field 82 (passes) and $TD (durability) are -"
assert_no_match 'wrapped' "$RB_ERR" "a random workload never wraps"
rb --json -b 1m -d 600m --seed 1 "$DEV"
assert_eq "null null null" "$(jqr '.workloads[0].results | "\(.passes) \(.pass_ios) \(.pass_bytes)"')" \
	"JSON of a random workload: passes, pass_ios and pass_bytes null"

section "the total of stdin workloads has no passes; --repeat says it once"
printf '%s\n' "-w seq -b 1m -d 600m $DEV" "-w seq -b 1m -d 300m $DEV" >"$SCRATCH/spec"
rb -n --seed 1 <"$SCRATCH/spec"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_rc 0 "two stdin workloads exit 0"
assert_eq "2.343750 1.171875 -" "$(<<<"$RB_OUT" awk 'NF { printf "%s%s", n++ ? " " : "", $82 }')" \
	"-n: each workload's passes, and - on the total's line"
rb -w seq -b 1m -d 600m --repeat 2 --seed 1 "$DEV"
assert_rc 0 "--repeat 2 exits 0"
assert_eq 1 "$(<<<"$RB_OUT" grep -c "^Warning: $WRAP")" \
	"--repeat 2: the shown run's wrap warning, once"
rb -n -w seq -b 1m -d 600m --repeat 2 --seed 1 "$DEV"
assert_eq "$((TF + 27)) 2.343750 - 2" "$(<<<"$RB_OUT" awk -v d=$TD -v r=$((TF + 1)) 'NF { print NF, $82, $d, $r; exit }')" \
	"--repeat 2 -n: $TF + 27 fields, passes in 82, durability in $TD (- for reads), the runs after it"

section "a sweep: said once, the others counted"
rb -n -w seq -b 1m,2m,4m -d 600m --seed 1 "$DEV"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_rc 0 "sweep exits 0"
assert_eq "1048576 2.343750,2097152 2.343750,4194304 2.343750" \
	"$(<<<"$RB_OUT" awk 'NF { printf "%s%s %s", n++ ? "," : "", $NF, $82 }')" \
	"-n: each line ends with its block size; field 82 the passes (600m is 2.34 passes at any size)"
assert_eq 1 "$(<<<"$RB_ERR" grep -c "$WRAP")" "the wrap warning once"
assert_match '^rebench: warning: 2 more workload runs of this sweep wrapped as well' "$RB_ERR" \
	"then a count of the other runs that wrapped"
