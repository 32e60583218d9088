#!/usr/bin/env bash
# test_fio_defaults.sh - a workload written with fio's spellings takes fio's
# defaults for what its options do not say (issue 27, item 7): no sync
# (fio's sync=none, fsync=0; rebench's own default is O_DSYNC) and the page
# cache (fio's direct=0; rebench's own is O_DIRECT), seen in the flags the
# target is opened with (strace); fio's --sync=1, --fsync=N, --fdatasync=N
# and --end_fsync, and rebench's --sync, -f, -p and --direct=1, say
# otherwise.  The header, -n fields 118-119 and JSON say which policy and
# whose defaults applied; a stdin line inherits the command line's
# spellings.  The --fio export of a fio-spelled line, run by fio, issues the
# same kind of writes (fio's JSON: write and sync counts).  Every run is
# byte-limited: 10 writes of 4 KiB, counted exactly.
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd jq strace fio awk

DEV=$(make_loop 64M)
W=(--yes -d 40k --seed 3)

# opens ARGS...: the flags rebench opened $DEV with for its writes (O_RDWR)
opens() {
	timeout 60 strace -f -e trace=openat -o "$SCRATCH/open.txt" \
		"$REBENCH" "$@" -n "$DEV" </dev/null >/dev/null 2>&1 ||
		fail "rebench under strace: exit $?"
	grep -F "\"$DEV\"" "$SCRATCH/open.txt" | grep -E 'O_RDWR|O_WRONLY' | head -1
}

section "the flags of the open: fio's defaults for a fio-spelled line"
o=$(opens "${W[@]}" --rw=randwrite --bs=4k)
assert_match 'O_RDWR' "$o" "--rw=randwrite --bs=4k: the target is opened for writing"
assert_no_match 'O_DSYNC|O_SYNC' "$o" "--rw=randwrite --bs=4k: no O_DSYNC (fio's sync=none)"
assert_no_match 'O_DIRECT' "$o" "--rw=randwrite --bs=4k: no O_DIRECT (fio's direct=0)"
o=$(opens "${W[@]}" -o write -w rnd -b 4k)
assert_match 'O_DSYNC' "$o" "-o write -w rnd -b 4k (rebench's spellings): O_DSYNC, rebench's default"
assert_match 'O_DIRECT' "$o" "-o write -w rnd -b 4k: O_DIRECT, rebench's default"
o=$(opens "${W[@]}" --rw=randwrite --bs=4k --direct=1)
assert_match 'O_DIRECT' "$o" "--direct=1: O_DIRECT"
assert_no_match 'O_DSYNC|O_SYNC' "$o" "--direct=1: still no sync (fio's direct is apart from sync)"
o=$(opens "${W[@]}" --rw=randwrite --bs=4k --sync=1)
assert_match 'O_SYNC' "$o" "--sync=1: O_SYNC, as fio's sync=1"
o=$(opens "${W[@]}" --rw=randwrite --bs=4k --sync dsync)
assert_match 'O_DSYNC' "$o" "a fio line with rebench's --sync dsync: O_DSYNC"
o=$(opens "${W[@]}" --rw=randwrite -b 4k -p)
assert_no_match 'O_DSYNC|O_SYNC|O_DIRECT' "$o" "--rw with rebench's -b and -p: fio's defaults still (no sync)"

section "fio's flush options: counted by the per-kind counts and strace"
for c in "fsync=1 fsync 10" "fsync=5 fsync 2" "fdatasync=2 fdatasync 5" \
	"fsync=0 fsync 0" "end_fsync fsync 1"; do
	set -- $c
	rb --json "${W[@]}" --rw=randwrite --bs=4k "--$1" "$DEV"
	assert_rc 0 "--$1: exit 0"
	assert_eq "10 $3" "$(jqr ".workloads[0].results.operations | \"\(.write.ios) \(.$2.ios // 0)\"")" \
		"--$1: 10 writes and $3 ${2}s"
done
timeout 60 strace -f -c -o "$SCRATCH/strace.txt" -e trace=fsync,fdatasync \
	"$REBENCH" "${W[@]}" --rw=randwrite --bs=4k --fsync=1 -n "$DEV" </dev/null >/dev/null 2>&1 ||
	fail "--fsync=1 under strace: exit $?"
assert_eq 10 "$(awk '$NF == "fsync" { print $4 }' "$SCRATCH/strace.txt")" \
	"--fsync=1: strace counts 10 fsync calls for the 10 writes"
timeout 60 strace -f -c -o "$SCRATCH/strace.txt" -e trace=fsync,fdatasync \
	"$REBENCH" "${W[@]}" --rw=randwrite --bs=4k -n "$DEV" </dev/null >/dev/null 2>&1 ||
	fail "--rw=randwrite under strace: exit $?"
assert_eq "" "$(awk '$NF ~ /sync$/ { print $NF }' "$SCRATCH/strace.txt")" \
	"--rw=randwrite: strace counts no fsync or fdatasync"
refused() {
	local what=$1
	assert_refused "$@"
	assert_eq "" "$RB_OUT" "$what: nothing printed on stdout"
}
refused "--fsync=x" "--fsync=x: expected a number of writes per fsync" --fsync=x "$DEV"
refused "--end_fsync=2" "--end_fsync=2: expected 1" --end_fsync=2 "$DEV"

section "fio's other defaults: bs=4k, rw=read (sequential), ioengine=psync"
rb --json -d 40k --numjobs=1 "$DEV"
assert_eq "4096 seq stateless read" \
	"$(jqr '.workloads[0].parameters | "\(.block_size) \(.workload) \(.engine) \(.operation)"')" \
	"--numjobs=1 alone: 4 KiB sequential reads with pread (fio's psync)"
rb --json -d 40k --numjobs=1 -b 8k -w rnd -t stateful "$DEV"
assert_eq "8192 rnd stateful" \
	"$(jqr '.workloads[0].parameters | "\(.block_size) \(.workload) \(.engine)"')" \
	"rebench's -b, -w and -t on the line win"

section "the header, -n and JSON say which policy and whose defaults"
rb "${W[@]}" --rw=randwrite --bs=4k "$DEV"
assert_match 'direct IO: off \(fio.s default\).*flush: off \(fio.s default\)\]' "$RB_OUT" \
	"human: flush and direct IO say fio's default"
rb "${W[@]}" --rw=randwrite --bs=4k --fdatasync=4 --direct=1 "$DEV"
assert_match 'direct IO: on, .*flush: fdatasync:4\]' "$RB_OUT" "human: what the line said, no default named"
rb "${W[@]}" -o write -b 4k "$DEV"
assert_match 'direct IO: on, .*flush: on\]' "$RB_OUT" "human: rebench's spellings keep rebench's words"
rb -n "${W[@]}" --rw=randwrite --bs=4k "$DEV"
assert_eq "none fio" "$(terse_field 118) $(terse_field 119)" "-n: fields 118-119 none fio"
rb -n "${W[@]}" -o write -b 4k "$DEV"
assert_eq "dsync rebench" "$(terse_field 118) $(terse_field 119)" "-n: fields 118-119 dsync rebench"
rb -n -d 40k --rw=randread --bs=4k "$DEV"
assert_eq "- fio" "$(terse_field 118) $(terse_field 119)" "-n: a read has no policy (-)"
rb --json "${W[@]}" --rw=randwrite --bs=4k --fsync=2 "$DEV"
assert_eq "fsync:2 true false fio" \
	"$(jqr '.workloads[0].parameters | "\(.sync) \(.flush) \(.direct) \(.defaults)"')" \
	"JSON: sync, flush, direct and defaults"
rb --json "${W[@]}" -o write -b 4k "$DEV"
assert_eq "dsync true true rebench" \
	"$(jqr '.workloads[0].parameters | "\(.sync) \(.flush) \(.direct) \(.defaults)"')" \
	"JSON: rebench's defaults"

section "stdin lines"
printf '%s\n' "-o write -b 4k $DEV" "--rw=randwrite --bs=4k $DEV" \
	"--rw=randwrite --bs=4k --sync dsync --direct=1 $DEV" >"$SCRATCH/lines"
rb -n "${W[@]}" <"$SCRATCH/lines"
assert_rc 0 "three stdin lines: exit 0"
assert_eq "dsync rebench|none fio|dsync fio" \
	"$(<<<"$RB_OUT" awk '$1 != "device" && $17 != "all" { print $118, $119 }' | paste -sd'|')" \
	"each line takes the defaults of its own spellings"
printf '%s\n' "-b 4k $DEV" >"$SCRATCH/line"
rb -n "${W[@]}" --rw=randwrite <"$SCRATCH/line"
assert_eq "none fio" "$(terse_field 118) $(terse_field 119)" \
	"a fio spelling on the command line: its stdin lines take fio's defaults"

section "--fio exports what ran, and fio issues the same writes"
# fio_counts JOBFILE: fio's write and sync counts for the job on $DEV
fio_counts() {
	grep -v '^#' "$1" >"$SCRATCH/run.fio"
	timeout 120 fio --output-format=json "$SCRATCH/run.fio" 2>/dev/null |
		jq -r '.jobs[0] | "\(.write.total_ios) \(.sync.total_ios)"'
}
rb --fio "${W[@]}" --rw=randwrite --bs=4k "$DEV"
printf '%s\n' "$RB_OUT" >"$SCRATCH/none.fio"
assert_eq "direct=0" "$(grep -E '^(direct|sync|fsync|fdatasync|end_fsync)=' "$SCRATCH/none.fio" | paste -sd' ')" \
	"--fio of --rw=randwrite: direct=0 and no sync option, as ran"
assert_eq "10 0" "$(fio_counts "$SCRATCH/none.fio")" "fio runs it: 10 writes, no sync"
rb --fio "${W[@]}" --rw=randwrite --bs=4k --fsync=1 "$DEV"
printf '%s\n' "$RB_OUT" >"$SCRATCH/fsync.fio"
assert_eq "direct=0 fsync=1" "$(grep -E '^(direct|sync|fsync|fdatasync|end_fsync)=' "$SCRATCH/fsync.fio" | paste -sd' ')" \
	"--fio of --fsync=1: direct=0 fsync=1"
# fio (3.33) issues no fsync after the write that ends its io_size: 9 for
# 10 writes, where rebench flushes after each of the 10
read -r fw fs <<<"$(fio_counts "$SCRATCH/fsync.fio")"
assert_eq 10 "$fw" "fio runs the --fsync=1 job: 10 writes"
assert_num "fio runs the --fsync=1 job: an fsync after each write but the last ($fs)" \
	"$fs >= 9 && $fs <= 10"
rb --fio "${W[@]}" --rw=randwrite --bs=4k --sync=1 --direct=1 "$DEV"
assert_eq "direct=1 sync=sync" "$(<<<"$RB_OUT" grep -E '^(direct|sync|fsync|fdatasync)=' | paste -sd' ')" \
	"--fio of --sync=1 --direct=1: direct=1 sync=sync"
