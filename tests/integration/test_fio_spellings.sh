#!/usr/bin/env bash
# test_fio_spellings.sh - what a fio user types: fio's option names where
# rebench means the same (--bs, --iodepth, --numjobs, --runtime, --size,
# --offset, --rw/--readwrite with each of fio's modes, --ioengine,
# --rwmixread, --direct, --filename, --name, --ramp_time, --thinktime and
# the flags rebench always has) give the same workload as rebench's own
# options: the same `rebench --fio` job file, on the command line and on
# stdin lines, and the same sweep table; where fio means otherwise they are
# refused with the reason, or noted.  Unknown options and values get "did
# you mean" (the stdin line named); --help fits 80 columns and groups the
# options under headings.  No I/O but the small sweeps (byte-limited, so
# deterministic) on a scratch file.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd fio

IMG=$(make_image 16M)

# body ARGS...: rebench --fio ARGS on the image; BODY is the job file
# without the header line that quotes the command line.
body() {
	rb --fio --seed 7 "$@" "$IMG"
	BODY=$(<<<"$RB_OUT" grep -v '^# fio job file from rebench')
}

# A line with a fio spelling takes fio's defaults for what it does not say
# (the page cache, no sync, 4 KiB sequential reads with psync:
# test_fio_defaults.sh); in rebench's words, which the options after them
# override:
FIODEF="-p --sync none -b 4k -w seq -t stateless"

# same WHAT "FIO ARGS" "REBENCH ARGS": both give the same job file, the
# rebench side with fio's defaults ($FIODEF) said.
same() {
	local what=$1 a b rc_a
	# shellcheck disable=SC2086
	body $2
	a=$BODY rc_a=$RB_RC
	# shellcheck disable=SC2086
	body $FIODEF $3
	b=$BODY
	if [ "$rc_a" = 0 ] && [ "$RB_RC" = 0 ] && [ -n "$a" ] && [ "$a" = "$b" ]; then
		pass "$what: '$2' is '$3'"
	else
		check_failed "$what: '$2' is '$3'" "exit $rc_a and $RB_RC" \
			"$(diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") | head -n 20)"
	fi
}

# has WHAT "ARGS" LINE...: the job file of rebench --fio ARGS has each LINE.
has() {
	local what=$1 job l
	# shellcheck disable=SC2086
	body $2
	job=$BODY
	shift 2
	for l in "$@"; do
		if <<<"$job" grep -Fxq -- "$l"; then
			pass "$what: $l"
		else
			check_failed "$what: has the line '$l'" "$(<<<"$job" grep -v '^#' | head -n 30)"
		fi
	done
}

# refused WHAT ERE ARGS...: exit 1, stderr matches ERE, nothing on stdout.
refused() {
	local what=$1
	assert_refused "$@"
	assert_eq "" "$RB_OUT" "$what: nothing printed on stdout"
}

section "each alias sets rebench's option"
same "--bs" "--bs=4k" "-b 4k"
same "--bs, a space" "--bs 64k" "-b 64k"
same "--bs with fio's bssplit form" "--bs=4k/25:64k/75" "-b 4k/25:64k/75"
same "--iodepth" "-t uring --iodepth=32" "-t uring -q 32"
same "--numjobs" "--numjobs=4" "-c 4 -l"
same "--runtime, seconds" "--runtime=30" "-d 30"
same "--runtime, fio's minutes" "--runtime=2m" "-d 120"
same "--runtime, ms" "--runtime=1500ms" "-d 1500ms"
same "--size" "--size=8m" "-e 8m"
same "--size, a percentage" "--size=50%" "-e 50%"
FIODEF="" same "--offset (rebench's own name too: rebench's defaults)" "--offset=4m" "-j 4m"
same "--ioengine" "--ioengine=libaio" "-t naio"
same "--ioengine psync" "--ioengine=psync" "-t stateless"
same "--rwmixread" "--rw=randrw --rwmixread=70" "-o rw -w rnd --rwmix 70"
same "--direct=0" "--direct=0" "-p"
FIODEF="--sync none -b 4k -w seq -t stateless" same "--direct=1" "-p --direct=1" ""
same "--ramp_time" "--ramp_time=2" "--warmup 2"
same "--ramp-time ('-' for '_')" "--ramp-time=2" "--warmup 2"
same "--thinktime" "--thinktime=50" "-z 50"
same "flags rebench always has" "--time_based --thread --group_reporting --norandommap --name=job1" ""
has "--bs" "--bs=4k" "bs=4096"
has "--iodepth" "-t uring --iodepth=32" "iodepth=32"
has "--numjobs" "-t stateless --numjobs=4" "numjobs=4"
has "--runtime=1m" "--runtime=1m" "time_based=1" "runtime=60s"
has "--size" "--size=8m -b 4k" "size=8388608"
has "--ioengine" "--ioengine=io_uring" "ioengine=io_uring"

section "--rw and --readwrite: every fio mode"
for m in read:read:seq write:write:seq trim:trim:seq randread:read:rnd \
	randwrite:write:rnd randtrim:trim:rnd rw:rw:seq readwrite:rw:seq randrw:rw:rnd; do
	IFS=: read -r mode op wl <<<"$m"
	same "--rw=$mode" "--rw=$mode" "-o $op -w $wl"
	same "--readwrite=$mode" "--readwrite=$mode" "-o $op -w $wl"
done
has "--rw=randread" "--rw=randread" "rw=randread"
has "--rw=read is sequential, as in fio" "--rw=read" "rw=read"
has "--rw=randrw: 50% reads, fio's default" "--rw=randrw" "rw=randrw" "rwmixread=50"

section "a whole fio command line"
rb --fio --seed 7 --name=r --filename="$IMG" --rw=randread --bs=4k --iodepth=32 \
	--ioengine=libaio --direct=1 --numjobs=2 --runtime=30 --time_based --group_reporting
A=$(<<<"$RB_OUT" grep -v '^# fio job file')
assert_rc 0 "fio's spellings of a whole job: exit 0"
body -o read -w rnd -b 4k -q 32 -t naio -c 2 -l -d 30
B=$BODY
assert_eq "$B" "$A" "fio's spellings of a whole job: the job rebench's options give"
assert_eq "" "$RB_ERR" "fio's spellings of a whole job: no note (--time_based, no --size)"
printf '%s\n' "$A" >"$SCRATCH/job.fio"
out=$(fio --parse-only "$SCRATCH/job.fio" 2>&1)
assert_eq "" "$out" "fio --parse-only accepts the job"

section "stdin lines"
printf '%s\n' "--bs=4k --rw=randread $IMG" "--rw=write --size=8m -d 1s $IMG" \
	"--numjobs=2 --iodepth=8 -t uring $IMG" >"$SCRATCH/fio.lines"
printf '%s\n' "$FIODEF -b 4k -o read -w rnd $IMG" "$FIODEF -o write -w seq -e 8m -d 1s $IMG" \
	"$FIODEF -c 2 -l -q 8 -t uring $IMG" >"$SCRATCH/own.lines"
rb --fio --seed 7 <"$SCRATCH/fio.lines"
A=$(<<<"$RB_OUT" grep -v '^# fio job file')
assert_rc 0 "stdin lines in fio's spellings: exit 0"
rb --fio --seed 7 <"$SCRATCH/own.lines"
B=$(<<<"$RB_OUT" grep -v '^# fio job file')
assert_eq "$B" "$A" "stdin lines in fio's spellings: the jobs rebench's options give"
rb --fio --seed 7 --bs=8k --rw=randwrite <<<"$IMG"
A=$(<<<"$RB_OUT" grep -v '^# fio job file')
rb --fio --seed 7 $FIODEF -b 8k -o write -w rnd <<<"$IMG"
B=$(<<<"$RB_OUT" grep -v '^# fio job file')
assert_eq "$B" "$A" "fio's spellings on the command line are defaults for stdin lines"

section "sweeps through aliases"
rb --bs=4k..16k*2 -d 64k --seed 1 "$IMG"
assert_rc 0 "--bs=4k..16k*2 sweeps: exit 0"
assert_eq "block-size" "$(<<<"$RB_OUT" awk -F'\t' 'NR == 1 { print $1 }')" \
	"--bs sweep: the table's column is -b's"
assert_eq "4096:16 8192:8 16384:4" \
	"$(<<<"$RB_OUT" awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ios") c = i; next } { printf "%s%s:%s", s, $1, $c; s = " " }')" \
	"--bs sweep: 4k, 8k, 16k, each 64 KiB of I/O"
rb --numjobs=1,2 -t stateless -d 64k --seed 1 "$IMG"
assert_rc 0 "--numjobs=1,2 sweeps: exit 0"
assert_eq "1 2" "$(<<<"$RB_OUT" awk -F'\t' 'NR > 1 { printf "%s%s", s, $1; s = " " }')" \
	"--numjobs sweep: threads 1 and 2"
refused "--runtime range" "--runtime=1..3/1: .*list" --runtime=1..3/1 "$IMG"
refused "--size range" "--size \(-e/--length\)" --size=4m..8m/4m "$IMG"
refused "--rw list" "--rw=read,write: .*-o read,write -w" --rw=read,write "$IMG"

section "where fio means something else"
refused "--bs=4k,8k (fio's read,write sizes)" "--bs=4k,8k: in fio a comma gives reads, writes" --bs=4k,8k "$IMG"
refused "--runtime=0 (fio's no limit)" "--runtime=0: .*no time limit" --runtime=0 "$IMG"
refused "--runtime=1g (not a time)" "'1g' for --runtime \(-d/--duration\)" --runtime=1g "$IMG"
refused "--rw=read:4k" "--rw=read:4k: .*-s/--stride" --rw=read:4k "$IMG"
refused "--rw=trimwrite" "trimwrite.*no rebench form" --rw=trimwrite "$IMG"
refused "--direct=2" "--direct=2" --direct=2 "$IMG"
refused "--time_based=0" "--time_based=0: .*-d 100%" --time_based=0 "$IMG"
refused "--filename=a:b (files that do not exist)" "a \\(file 1 of 2\\): No such file or directory; a list of files \\(several TARGETs, or --filename a:b\\) names files that exist" --filename=a:b
refused "a second --name (fio's second job)" "--name=b: a second --name" --name=a --bs=4k --name=b "$IMG"
refused "--iodepth=0, named both ways" "'0' for --iodepth \(-q/--queue-depth\)" --iodepth=0 "$IMG"
printf '%s\n' "--ramp_time=1 $IMG" >"$SCRATCH/ramp.lines"
rb <"$SCRATCH/ramp.lines"
assert_rc 1 "--ramp_time on a stdin line: exit 1"
assert_match "stdin line 1: --ramp_time \(--warmup\) applies to the whole run" "$RB_ERR" \
	"--ramp_time on a stdin line: refused as run-wide"
rb --fio --size=8m "$IMG"
assert_rc 0 "--size without -d: exit 0"
assert_match "note: --size is the region's length .*-d 100%" "$RB_ERR" "--size without -d: a note says -d decides"
rb --fio --size=8m -d 100% "$IMG"
assert_eq "" "$RB_ERR" "--size with -d: no note"
rb --fio --rw=read --numjobs=2 "$IMG"
assert_match "note: --numjobs 2 with sequential I/O" "$RB_ERR" "--numjobs with --rw=read: a note on the start offsets"

section "did you mean"
refused "--blocksize" "unknown option '--blocksize'; did you mean --block-size\?" --blocksize 4k "$IMG"
refused "--block_size" "did you mean --block-size\?" --block_size=4k "$IMG"
refused "--iodpeth" "did you mean --iodepth\?" --iodpeth=4 "$IMG"
refused "--dur" "did you mean --duration\?" --dur 5 "$IMG"
refused "--xyzzy: nothing near" "unknown option '--xyzzy'; see rebench --help" --xyzzy "$IMG"
refused "-o randread" "'randread' is fio's --rw spelling: rebench says -o read -w rnd" -o randread "$IMG"
refused "-o randrw" "-o rw -w rnd" -o randrw "$IMG"
refused "-w random" "expected one of rnd, seq; did you mean rnd\?" -w random "$IMG"
refused "-w sequential" "did you mean seq\?" -w sequential "$IMG"
refused "-u random" "did you mean uniform \(fio's random_distribution=random\)\?" -u random "$IMG"
refused "-u zipfian" "did you mean zipf\?" -u zipfian "$IMG"
refused "-t iouring" "did you mean io_uring\?" -t iouring "$IMG"
refused "--rw=randomread" "did you mean randread\?" --rw=randomread "$IMG"
refused "-bs=4k (one dash)" "long options take two dashes: --bs=4k" -bs=4k "$IMG"
refused "--bssplit (fio, no alias)" "for fio's bssplit, give the split to -b/--block-size" --bssplit=4k/50:8k/50 "$IMG"
refused "--rwmixwrite (fio, no alias)" "--rwmix=70" --rwmixwrite=30 "$IMG"
printf '%s\n' "-b 4k $IMG" "-w seq $IMG" "--blocksize=8k $IMG" >"$SCRATCH/typo.lines"
rb --fio <"$SCRATCH/typo.lines"
assert_rc 1 "a misspelt option on stdin line 3: exit 1"
assert_match "^rebench: stdin line 3: unknown option '--blocksize=8k'; did you mean --block-size\?" "$RB_ERR" \
	"a misspelt option on stdin line 3: the line is named"
assert_eq "" "$RB_OUT" "a misspelt option on stdin line 3: no job printed"
printf '%s\n' "-b 4k $IMG" "-o randread $IMG" >"$SCRATCH/typo.lines"
rb --fio <"$SCRATCH/typo.lines"
assert_match "^rebench: stdin line 2: invalid value 'randread' for -o/--operation: .*-o read -w rnd" "$RB_ERR" \
	"fio's mode given to -o on stdin line 2: the line is named"

section "--help all"
rb --help all
assert_rc 0 "--help all: exit 0"
assert_eq "" "$(<<<"$RB_OUT" awk 'length > 80 { print NR ": " length }')" \
	"--help: no line over 80 columns"
assert_eq "Workload options:|Engine options:|Run options:|Many files:|Output options:|Safety options:|Data verification:|Sweeps and studies:|Advisors:|Many hosts:|The modes' own words (rebench MODE --help where it takes one):|fio spellings (the same meaning; see rebench(1), OPTIONS, fio spellings):" \
	"$(<<<"$RB_OUT" grep -E '^[A-Za-z].*:$' | grep -v '^Examples:$' | paste -sd'|')" \
	"--help: the headings, in order"
for o in --bs --iodepth --numjobs --runtime --size --rw --readwrite --ioengine; do
	assert_match "^  $o[= ]" "$RB_OUT" "--help lists $o under fio spellings"
done
# every option once, under one heading
dups=$(<<<"$RB_OUT" sed '/^The modes/,/^fio spellings/d' | grep -oE '^  (-[a-zA-Z], |    )--[a-z-]+' | sort | uniq -d)
assert_eq "" "$dups" "--help: no option listed twice"
wl=$(<<<"$RB_OUT" sed -n '/^Workload options:/,/^Engine options:/p')
assert_match "^  -b, --block-size" "$wl" "--help: -b under Workload"
sf=$(<<<"$RB_OUT" sed -n '/^Safety options:/,/^Sweeps and studies:/p')
assert_match "^  -y, --yes" "$sf" "--help: --yes under Safety"
