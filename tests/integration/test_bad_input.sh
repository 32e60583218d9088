#!/usr/bin/env bash
# test_bad_input.sh - bad input never runs anything: each case exits 1 with
# a message that names the option or value, prints no results, and leaves
# the device unchanged (write cases carry --yes, so only validation can stop
# them).  Also: a missing file with -e is created and laid out.
. "$(dirname "$0")/../lib/common.sh"

require_loop

DEV=$(make_loop 16M)
SUM=$(dev_sum "$DEV")

# refused WHAT ERE ARGS...: rebench ARGS exits 1, stderr matches ERE, stdout
# is empty, and the device is unchanged.
refused() {
	local what=$1
	assert_refused "$@"
	if [ -n "$RB_OUT" ]; then
		check_failed "$what: no results printed" "stdout: $(<<<"$RB_OUT" head -n 3)"
	fi
	if [ "$(dev_sum "$DEV")" != "$SUM" ]; then
		fail "$what: device unchanged" "the device was written although the input was refused"
	fi
}

section "unknown options and values"
refused "unknown long option" "unknown option '--xyzzy'" -o write --yes --xyzzy -d 300ms "$DEV"
refused "unknown short option" "unknown option '-x'" -o write --yes -x -d 300ms "$DEV"
refused "unknown operation -o frob" "'frob'.*-o/--operation|-o/--operation.*'frob'" --yes -o frob -d 300ms "$DEV"
assert_match 'read, write, trim, rw' "$RB_ERR" "-o frob: message lists the valid operations"
refused "unknown workload -w diagonal" "'diagonal'.*--workload|-w.*diagonal" -o write --yes -w diagonal -d 300ms "$DEV"
assert_match 'rnd, seq' "$RB_ERR" "-w diagonal: message lists rnd and seq"
refused "unknown direction" "-r/--direction" -o write --yes -w seq -r sideways -d 300ms "$DEV"
refused "option without its value" "-b/--block-size needs a value" -o write --yes "$DEV" -b
refused "two targets" "one target per workload" -o write --yes -d 300ms "$DEV" "$DEV"

section "sizes and counts"
refused "-b 0" "-b/--block-size.*'0'|'0'.*-b/--block-size" -o write --yes -b 0 -d 300ms "$DEV"
refused "-b -5 (negative)" "'-5'.*-b/--block-size" -o write --yes -b -5 -d 300ms "$DEV"
refused "-b junk" "'4q'.*-b/--block-size" -o write --yes -b 4q -d 300ms "$DEV"
refused "-b 2g (above the maximum)" "-b/--block-size.*at most" -o write --yes -b 2g -d 300ms "$DEV"
refused "-b 100 on a 512-byte-sector device" "multiple of 512" -o write --yes -b 100 -d 300ms "$DEV"
assert_match '(^|[^-[:alnum:]])-p([^[:alnum:]]|$)' "$RB_ERR" "-b 100: message suggests -p"
assert_match '-b/--block-size' "$RB_ERR" "-b 100: message names -b"
refused "-s 100 (stride not a sector multiple)" "-s/--stride.*multiple of 512" -o write --yes -s 100 -d 300ms "$DEV"
refused "-j 1000 (offset not a sector multiple)" "-j/--offset.*multiple of 512" -o write --yes -j 1000 -d 300ms "$DEV"
refused "-c 0" "-c/--threads" -o write --yes -c 0 -d 300ms "$DEV"
refused "-d 0" "-d/--duration" -o write --yes -d 0 "$DEV"
refused "-d -1" "-d/--duration" -o write --yes -d -1 "$DEV"
refused "-d junk" "-d/--duration" -o write --yes -d soon "$DEV"
refused "-e 0" "-e/--length" -o write --yes -e 0 -d 300ms "$DEV"
refused "--rwmix 150" "--rwmix" -o rw --yes --rwmix 150 -d 300ms "$DEV"
# negative values, each named with its option
for case in "-j -1:-j/--offset" "-s -4k:-s/--stride" "-c -1:-c/--threads" "-z -5:-z/--pause" \
	"-g -1:-g/--sample-step" "-e -1m:-e/--length" "-d -5%:-d/--duration" "-q 0:-q/--queue-depth" \
	"--seed -1:--seed"; do
	args=${case%%:*}
	# shellcheck disable=SC2086
	refused "negative or zero: $args" "'${args#* }'.*${case#*:}" -o write --yes $args -d 300ms "$DEV"
done

section "region"
refused "region beyond the target (-e 32m on 16 MiB)" "region beyond the target.*-e|-e.*beyond" -o write --yes -e 32m -d 300ms "$DEV"
refused "-j 8m -e 9m ends past the target" "beyond the target" -o write --yes -j 8m -e 9m -d 300ms "$DEV"
refused "-j at the end of the target" "-j/--offset.*beyond the end" -o write --yes -j 16m -d 300ms "$DEV"
refused "-j beyond the end of the target" "-j/--offset.*beyond the end" -o write --yes -j 17m -d 300ms "$DEV"
refused "region smaller than one block" "smaller than one block" -o write --yes -b 1m -e 512k -d 300ms "$DEV"
refused "seq stride smaller than the block size" "-s/--stride.*smaller than the block size" \
	-o write --yes -w seq -b 4k -s 1k -d 300ms "$DEV"

section "combinations"
refused "-a with -w rnd" "-a/--append" -o write --yes -a -w rnd -d 300ms "$DEV"
refused "-a with -o read" "-a/--append" -a -w seq -o read -d 300ms "$DEV"
refused "-a on a block device" "-a/--append.*(block device|regular file)" -o write --yes -a -w seq -d 300ms "$DEV"
refused "-r backward with -w rnd" "-r/--direction" -o write --yes -r backward -d 300ms "$DEV"
refused "--rwmix without -o rw" "--rwmix" -o write --yes --rwmix 30 -d 300ms "$DEV"
refused "-q 4 with the stateful engine" "-q/--queue-depth 4" -o write --yes -q 4 -d 300ms "$DEV"
refused "-c 2 with the stateful engine on a shared fd" "-c/--threads 2.*(-l|stateless)" -o write --yes -c 2 -d 300ms "$DEV"
refused "-g 0 without --output" "-g/--sample-step.*--output" -o write --yes -g 0 -d 300ms "$DEV"

# The --output file is an option value too: a path that cannot be written
# must stop the run before any I/O, not after a destructive run.
rb -o write --yes -d 300ms --output /nonexistent/dir/series.tsv "$DEV"
assert_num "--output in a missing directory: refused before running (exit 1 or 2, got $RB_RC)" \
	"$RB_RC == 1 || $RB_RC == 2"
assert_match -- '--output.*/nonexistent/dir/series.tsv' "$RB_ERR" "--output: message names the option and the path"
assert_eq "" "$RB_OUT" "--output: no results printed"
if [ "$(dev_sum "$DEV")" = "$SUM" ]; then
	pass "--output: device unchanged (the write did not run)"
else
	check_failed "--output: device unchanged (the write did not run)"
	SUM=$(dev_sum "$DEV")
fi

section "not yet available"
# Later versions add engines and distributions; until one is available, it
# is refused with "not yet available" and nothing runs.  Once it is, it must
# really run as itself, never silently as another one.  An engine whose
# library was missing at build time is refused with the package to install.
for e in uring mmap paio naio; do
	rb -t "$e" -p -d 200ms --json "$DEV"	# -p: mmap cannot do O_DIRECT
	if [ "$RB_RC" = 0 ]; then
		assert_eq "$e" "$(jqr '.workloads[0].parameters.engine')" "-t $e is available and runs as $e"
	else
		refused "-t $e" "-t/--type.*(not (yet )?available|built without)" -o write --yes -t "$e" -p -d 300ms "$DEV"
	fi
done
rb -t io_uring -d 200ms --json "$DEV"
if [ "$RB_RC" = 0 ]; then
	assert_eq uring "$(jqr '.workloads[0].parameters.engine')" "-t io_uring (fio name) runs the uring engine"
else
	refused "-t io_uring (fio alias)" "not (yet )?available|built without" -o write --yes -t io_uring -d 300ms "$DEV"
fi
refused "-t frob (unknown engine)" "'frob'.*-t/--type" -o write --yes -t frob -d 300ms "$DEV"
assert_match 'stateful' "$RB_ERR" "-t frob: message lists the engines"
for d in zipf normal pareto; do
	rb -u "$d" -d 200ms --json "$DEV"
	if [ "$RB_RC" = 0 ]; then
		assert_eq "$d" "$(jqr '.workloads[0].parameters.dist')" "-u $d is available and runs as $d"
	else
		refused "-u $d" "-u/--dist $d.*not (yet )?available" -o write --yes -u "$d" -d 300ms "$DEV"
	fi
done
refused "-u banana" "'banana'.*-u/--dist" -o write --yes -u banana -d 300ms "$DEV"

section "targets"
refused "missing target (stdin is /dev/null)" "missing target" -d 300ms </dev/null
refused "target that does not exist" "/nonexistent.*No such file or directory" -d 300ms /nonexistent
[ -e /nonexistent ] && check_failed "/nonexistent was not created" || pass "/nonexistent was not created"
refused "a new file without -e" "cannot open $SCRATCH/new\.dat: No such file or directory \(give -e SIZE to create a file of that size\)" \
	-d 300ms "$SCRATCH/new.dat"
refused "a new file in a missing directory" "cannot create $SCRATCH/nodir/x\.dat: its directory $SCRATCH/nodir does not exist; create it first \(mkdir -p $SCRATCH/nodir\)" \
	-e 1m -d 300ms "$SCRATCH/nodir/x.dat"
[ -e "$SCRATCH/nodir" ] && check_failed "the missing directory was not created" || pass "the missing directory was not created"
refused "a character device" "neither a block device nor a regular file" -d 300ms /dev/null
refused "a directory" "neither a block device nor a regular file" -d 300ms "$SCRATCH"

section "stdin lines"
printf '%s\n' "-o write -d 300ms $DEV" "# comment" "" "-b 4k -w sideways $DEV" >"$SCRATCH/spec"
refused "bad value on stdin line 4" "^rebench: stdin line 4: .*sideways" --yes <"$SCRATCH/spec"
printf '%s\n' "-o write -d 300ms $DEV" "-b 100 $DEV" >"$SCRATCH/spec"
refused "bad block size on stdin line 2" "^rebench: stdin line 2: .*multiple of 512" --yes <"$SCRATCH/spec"
printf '%s\n' "-o write -d 300ms $DEV" "-d 300ms /nonexistent" >"$SCRATCH/spec"
refused "missing target file on stdin line 2" "^rebench: stdin line 2: .*No such file or directory" --yes <"$SCRATCH/spec"

section "a missing file with -e is created and laid out"
NEW=$SCRATCH/created.dat
rb -e 4m -d 300ms "$NEW" </dev/null
assert_rc 0 "reading a missing file with -e 4m: exit 0"
[ -f "$NEW" ] && pass "the file exists" || check_failed "the file exists"
assert_eq 4194304 "$(stat -c %s "$NEW" 2>/dev/null)" "the file is 4 MiB"
assert_match '^Warning: .*(created|laid out)' "$RB_OUT" "a warning says the file was created and laid out"
assert_match '^Operations/sec: ' "$RB_OUT" "the read ran"
if cmp -s "$NEW" <(head -c 4194304 /dev/zero); then
	check_failed "the file holds non-zero data"
else
	pass "the file holds non-zero data"
fi
zeros=$(od -An -v -tx1 -w512 "$NEW" | grep -c '^\( 00\)*$')
assert_eq 0 "$zeros" "no 512-byte block of the file is all zeros"
NEW2=$SCRATCH/created2.dat
rb -j 1m -e 1m -b 4k -d 300ms "$NEW2"
assert_rc 0 "a missing file with -j 1m -e 1m: exit 0"
assert_eq 2097152 "$(stat -c %s "$NEW2" 2>/dev/null)" "the file is -j + -e = 2 MiB"
