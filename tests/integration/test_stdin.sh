#!/usr/bin/env bash
# test_stdin.sh - stdin mode: no TARGET, one workload per stdin line, all
# run concurrently; command-line options are defaults for every line;
# comments and blank lines are skipped; human blocks are separated by '---',
# -n prints one line per workload, --json one entry per workload with its
# line number (and each format their total after them: test_total.sh); a
# bad line is reported by number and nothing runs.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq

A=$(make_loop 32M)
B=$(make_loop 32M 4096)
SPEC=$SCRATCH/spec

cat >"$SPEC" <<EOF
# three workloads, two devices
-b 4k -w seq $A

  -b 8k -w rnd $B   # a trailing comment
	-b 4k -d 300ms $B
EOF

section "human output: one block per line, '---' between them"
rb -d 500ms <"$SPEC"
assert_rc 0 "three stdin workloads exit 0"
assert_eq 3 "$(<<<"$RB_OUT" grep -c '^Benchmarking results for ')" "three result blocks"
assert_eq 5 "$(<<<"$RB_OUT" grep -cx -- '---')" "five '---' separator lines (between the workloads, before the All workloads block, before each of the two devices)"
# the workloads' blocks: everything before the total
wl_out=$(<<<"$RB_OUT" sed '/^All workloads/,$d')
assert_eq "$A $B $B" "$(<<<"$RB_OUT" sed -n 's/^Benchmarking results for \[\([^]]*\)\].*/\1/p' | paste -sd' ')" \
	"blocks come in line order"
params=$(<<<"$RB_OUT" grep '^\[duration')
assert_eq "500ms 500ms 300ms" "$(<<<"$params" sed 's/^\[duration: \([^,]*\),.*/\1/' | paste -sd' ')" \
	"command-line -d 500ms is the default; a line's own -d 300ms wins"
assert_eq "4k 8k 4k" "$(<<<"$params" sed 's/.*block size: \([^,]*\),.*/\1/' | paste -sd' ')" \
	"each block has its line's block size"
assert_eq "seq rnd rnd" "$(<<<"$params" sed 's/.*workload: \([^,]*\),.*/\1/' | paste -sd' ')" \
	"each block has its line's workload"
assert_eq 3 "$(<<<"$wl_out" grep -c '^Operations/sec: ')" "three Operations/sec lines"
# each block is complete: header, params, ops, latency, in that order
assert_eq "" "$(<<<"$wl_out" awk '
	/^Benchmarking/ { if (state && state != 4) print "block " n " incomplete"; n++; state = 1; next }
	/^\[duration/ { if (state != 1) print "params out of order"; state = 2; next }
	/^Operations\/sec/ { if (state != 2) print "ops out of order"; state = 3; next }
	/^Latency \(us\):/ { if (state != 3) print "latency out of order"; state = 4; next }
	END { if (state != 4) print "last block incomplete" }')" "every block has its lines in the classic order"

section "-n: one line per workload, then the total"
rb -d 500ms -n <"$SPEC"
assert_rc 0 "stdin mode with -n exits 0"
assert_eq 2 "$(<<<"$RB_OUT" awk '$1 == "device"' | wc -l)" "a device line for each of the two devices"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_eq 4 "$(<<<"$RB_OUT" grep -c .)" "exactly four lines: three workloads and their total"
assert_eq $TF "$(<<<"$RB_OUT" awk '{ print NF }' | sort -u)" "each line has $TF fields"
assert_eq "all" "$(<<<"$RB_OUT" awk 'END { print $17 }')" "the last line is the total (field 17 'all')"
assert_eq "" "$(<<<"$RB_OUT" grep -- '---')" "no separators in -n output"

section "--json: one workload entry per line, with line numbers"
rb -d 1 --json <"$SPEC"
assert_rc 0 "stdin mode with --json exits 0"
assert_eq 3 "$(jqr '.workloads | length')" "workloads array has three entries"
assert_eq "2 4 5" "$(jqr '[.workloads[].parameters.line] | map(tostring) | join(" ")')" \
	"line numbers count comment and blank lines (2, 4, 5)"
assert_eq "4096 8192 4096" "$(jqr '[.workloads[].parameters.block_size] | map(tostring) | join(" ")')" \
	"block sizes per line"
assert_eq "$A $B $B" "$(jqr '[.workloads[].target.path] | join(" ")')" "targets per line"
assert_eq "1 1 0.3" "$(jqr '[.workloads[].parameters.duration_s] | map(tostring) | join(" ")')" \
	"durations: default 1 s from the command line, 0.3 s where the line says so"
read -r e0 e1 e2 <<<"$(jqr '[.workloads[].results.elapsed_s] | map(tostring) | join(" ")')"
# lower bounds only: load stretches a run's last I/O; how close the runs
# end to their durations, and that the three take the longest one's time
# and not the sum, bench/crosscheck.sh prints (that they run at once is
# checked below, by the devices)
assert_num "1 s workloads each ran at least 1 s ($e0, $e1)" "$e0 >= 0.99 && $e1 >= 0.99"
assert_num "the 300 ms workload ran at least 300 ms ($e2)" "$e2 >= 0.29"
assert_eq 3 "$(jqr '[.workloads[].parameters.seed] | unique | length')" "each workload has its own seed"

section "the lines run at the same time"
# Told by the devices, not by a clock: once the run has started, each of two
# lines on its own device makes reads there before either line ends (an
# hour); lines run one after the other would leave B idle for the hour.
printf -- '-w rnd -d 1h %s\n-w rnd -d 1h %s\n' "$A" "$B" >"$SCRATCH/both"
STDIN_FILE=$SCRATCH/both spawn_ready
ra=$(reads_of "$A")
rbb=$(reads_of "$B")
if wait_until eval '[ "$(reads_of "$A")" -gt "$ra" ] && [ "$(reads_of "$B")" -gt "$rbb" ]'; then
	pass "both lines read their devices at once"
else
	check_failed "both lines read their devices at once" "reads on $A since ready: $(($(reads_of "$A") - ra)), on $B: $(($(reads_of "$B") - rbb))"
fi
interrupt_after 0
assert_eq 130 "$BG_RC" "the hour-long pair ends at the interrupt (exit 130)"

section "seeds"
printf '%s\n' "-b 4k $A" "-b 4k --seed 7 $B" "-b 4k $B" >"$SPEC.seed"
rb -d 300ms --seed 100 --json <"$SPEC.seed"
assert_rc 0 "stdin mode with --seed exits 0"
assert_eq 7 "$(jqr '.workloads[1].parameters.seed')" "a seed given on a line is used as it is"
assert_eq 3 "$(jqr '[.workloads[].parameters.seed] | unique | length')" \
	"a command-line --seed still gives concurrent workloads distinct seeds"
assert_eq 100 "$(jqr '.workloads[0].parameters.seed')" "the first line gets the command-line seed"

section "stdin from a pipe, same device on two lines"
rb -d 300ms -n < <(printf '%s\n' "-w seq -b 4k $A" "-w rnd -b 4k $A")
assert_rc 0 "two workloads on one device from a pipe exit 0"
RB_OUT=$(<<<"$RB_OUT" awk '$1 != "device"')	# the device lines: test_device_counters.sh
assert_eq 3 "$(<<<"$RB_OUT" grep -c .)" "two -n lines and their total"

section "shared --output file"
TS=$SCRATCH/series.tsv
printf '%s\n' "-b 4k $A" "-b 4k $B" >"$SPEC.out"
rb -d 600ms -g 200 --output "$TS" <"$SPEC.out"
assert_rc 0 "two workloads writing one time series exit 0"
assert_eq $'1\n2' "$(grep -v '^#' "$TS" | tail -n +2 | cut -f1 | sort -u)" "the workload column tells both workloads apart"

section "two lines creating one new file"
NEWF=$SCRATCH/shared-new.dat
printf '%s\n' "-e 2m -b 4k $NEWF" "-e 4m -b 4k -w seq $NEWF" >"$SPEC.new"
rb -d 300ms --json <"$SPEC.new"
assert_rc 0 "two lines naming one missing file exit 0"
assert_eq $((4 * 1048576)) "$(stat -c %s "$NEWF" 2>/dev/null)" "the file is created large enough for both regions (4 MiB)"
assert_num "both workloads did I/O" "$(jqr '.workloads[0].results.ios') > 0 && $(jqr '.workloads[1].results.ios') > 0"

section "a bad line stops everything before any I/O"
sumA=$(dev_sum "$A")
printf '%s\n' "-o write -d 300ms $A" "-b 4k $B" "-b 4k -o frob $B" >"$SPEC.bad"
rb --yes <"$SPEC.bad"
assert_rc 1 "unknown value on line 3: exit 1"
assert_match '^rebench: stdin line 3: .*frob' "$RB_ERR" "error names stdin line 3 and the value"
assert_match -- '-o|--operation' "$RB_ERR" "error names the option"
assert_eq "" "$RB_OUT" "no results printed"
assert_eq "$sumA" "$(dev_sum "$A")" "the write on line 1 did not run (checksum unchanged)"

printf '%s\n' "-o write -d 300ms $A" "-b 4k $B" "-b 4k -e 64m $B" >"$SPEC.bad"
rb --yes <"$SPEC.bad"
assert_rc 1 "region beyond the target on line 3: exit 1"
assert_match '^rebench: stdin line 3: ' "$RB_ERR" "error names stdin line 3"
assert_eq "$sumA" "$(dev_sum "$A")" "the write on line 1 did not run (checksum unchanged)"

printf '%s\n' "-o write -d 300ms $A" "# comment" "-b 1k $B" >"$SPEC.bad"
rb --yes <"$SPEC.bad"
assert_rc 1 "block size not a multiple of 4096 on line 3: exit 1"
assert_match '^rebench: stdin line 3: .*multiple of 4096' "$RB_ERR" "error names stdin line 3 and the sector size"
assert_eq "$sumA" "$(dev_sum "$A")" "the write on line 1 did not run (checksum unchanged)"

printf '%s\n' "-o write -d 300ms $A" "-b 4k $B" "-b 4k --bogus $B" >"$SPEC.bad"
rb --yes <"$SPEC.bad"
assert_rc 1 "unknown option on line 3: exit 1"
assert_match '^rebench: stdin line 3: .*--bogus' "$RB_ERR" "error names stdin line 3 and the option"
assert_eq "$sumA" "$(dev_sum "$A")" "the write on line 1 did not run (checksum unchanged)"

printf '%s\n' "-o write -d 300ms $A" "-b 4k $B" "-b 4k $A $B" >"$SPEC.bad"
rb --yes <"$SPEC.bad"
assert_rc 1 "two targets on line 3: exit 1"
assert_match '^rebench: stdin line 3: ' "$RB_ERR" "error names stdin line 3"
assert_eq "$sumA" "$(dev_sum "$A")" "the write on line 1 did not run (checksum unchanged)"

printf '%s\n' "-d 300ms $B" "--yes -o write -d 300ms $A" >"$SPEC.bad"
rb <"$SPEC.bad"
assert_rc 1 "--yes on a workload line (a whole-run option): exit 1"
assert_match '^rebench: stdin line 2: .*(-y/)?--yes' "$RB_ERR" "error names stdin line 2 and --yes"
assert_eq "$sumA" "$(dev_sum "$A")" "the write did not run (checksum unchanged)"

section "empty stdin"
printf '%s\n' "# only a comment" "" >"$SPEC.empty"
rb -d 300ms <"$SPEC.empty"
assert_rc 1 "stdin with only comments and blank lines: exit 1"
assert_match 'missing target' "$RB_ERR" "message says missing target"

section "stdin holding data with a TARGET on the command line"
# Workload lines on stdin are read only without a TARGET: a file or a pipe
# holding data beside a TARGET is refused (exit 1) before anything runs,
# rather than its lines being silently ignored.
sumA=$(dev_sum "$A") sumB=$(dev_sum "$B")
printf '%s\n' "-o write -b 4k $B" >"$SPEC.lines"
rb --yes -o write -d 300ms "$A" <"$SPEC.lines"
assert_rc 1 "a file of stdin lines with a TARGET: exit 1"
assert_match "^rebench: stdin is a file holding data, and a TARGET \($A\) is given on the command line: .*give the TARGET on each stdin line.*or redirect stdin from /dev/null" \
	"$RB_ERR" "a file on stdin with a TARGET: the message names the rule and both ways out"
assert_eq "" "$RB_OUT" "a file on stdin with a TARGET: nothing printed"
assert_eq "$sumA $sumB" "$(dev_sum "$A") $(dev_sum "$B")" \
	"a file on stdin with a TARGET: neither the TARGET nor the line's target was written"
# a FIFO filled before rebench starts: this shell holds it open read-write,
# so the line is in the pipe when rebench looks (no race)
mkfifo "$SCRATCH/fifo"
exec 3<>"$SCRATCH/fifo"
printf '%s\n' "-o write -b 4k $B" >&3
rb --yes -o write -d 300ms "$A" <"$SCRATCH/fifo"
assert_rc 1 "a FIFO holding a line, with a TARGET: exit 1"
assert_match "^rebench: stdin is a pipe or FIFO holding data, and a TARGET" "$RB_ERR" \
	"a FIFO holding a line, with a TARGET: refused"
assert_eq "$sumA $sumB" "$(dev_sum "$A") $(dev_sum "$B")" \
	"a FIFO holding a line, with a TARGET: nothing written"
exec 3>&-
# nothing to read: /dev/null, an empty file, a pipe nothing was written to
rb -n -b 4k -d 40k "$A" </dev/null
assert_rc 0 "</dev/null with a TARGET runs"
: >"$SCRATCH/empty"
rb -n -b 4k -d 40k "$A" <"$SCRATCH/empty"
assert_rc 0 "an empty file on stdin with a TARGET runs"
mkfifo "$SCRATCH/fifo2"
exec 4<>"$SCRATCH/fifo2"
rb -n -b 4k -d 40k "$A" <"$SCRATCH/fifo2"
assert_rc 0 "an empty pipe on stdin with a TARGET runs (nothing to ignore yet)"
exec 4>&-
