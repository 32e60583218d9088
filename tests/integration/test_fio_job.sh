#!/usr/bin/env bash
# test_fio_job.sh - rebench --fio prints an fio job file for the resolved
# workloads and runs nothing: for every engine, operation, seq/rnd, strides,
# backward, every distribution, threads, batches, think time, regions in
# bytes and %, durations as time, bytes and %, stdin mode and file targets,
# it exits 0, `fio --parse-only` accepts the file without a word, and the
# settings carry the exact resolved values; what fio cannot express is a
# "# not expressible in fio:" comment.  fio run on a few of the files
# (write_iolog) issues the same offsets as rebench (-g 0 --output) for
# sequential strides, backward I/O and random strides.  Sweeps and --fio
# with --json, -n, --probe or --plot are refused; no I/O is done (device
# checksum unchanged with -o write, no file created for a missing target);
# a write to a mounted device is printed with a warning, in the job and on
# stderr.
# slow: about half a minute or more; started first
. "$(dirname "$0")/../lib/common.sh"

require_loop
require_cmd fio jq cksum

DEV=$(make_loop 64M)
SIZE=67108864
JOBF=$SCRATCH/job.fio
NOTE='# not expressible in fio: '

have_engine() { ! "$REBENCH" --engines | grep -A1 "^$1 " | grep -q 'not available'; }

# job WHAT ARGS...: rebench --fio ARGS exits 0 and prints a job file, in
# JOB and $JOBF, and kept for parse_jobs.
PARSED=()	# "FILE WHAT" of each job file, for parse_jobs
job() {
	local what=$1
	shift
	rb --fio "$@"
	assert_rc 0 "$what: rebench --fio exits 0"
	JOB=$RB_OUT
	printf '%s\n' "$JOB" >"$JOBF"
	cp "$JOBF" "$SCRATCH/job-${#PARSED[@]}.fio"
	PARSED+=("$SCRATCH/job-${#PARSED[@]}.fio $what")
}

# parse_jobs: fio --parse-only accepts every job file of job() with no
# output.  One fio for all (its start-up calibrates the CPU clock, 0.2 s of
# CPU a call here); when it says anything, each file again on its own, to
# name the ones it is about.
parse_jobs() {
	local files=() p out rc
	for p in "${PARSED[@]}"; do files+=("${p%% *}"); done
	if out=$(fio --parse-only "${files[@]}" 2>&1) && [ -z "$out" ]; then
		for p in "${PARSED[@]}"; do pass "${p#* }: fio --parse-only accepts the job file silently"; done
		return
	fi
	for p in "${PARSED[@]}"; do
		out=$(fio --parse-only "${p%% *}" 2>&1)
		rc=$?
		if [ "$rc" = 0 ] && [ -z "$out" ]; then
			pass "${p#* }: fio --parse-only accepts the job file silently"
		else
			check_failed "${p#* }: fio --parse-only accepts the job file silently" \
				"exit $rc: $out" "$(head -n 40 "${p%% *}")"
		fi
	done
}

# has WHAT LINE...: each LINE is, exactly, a line of the job file.
has() {
	local what=$1 l
	shift
	for l in "$@"; do
		if <<<"$JOB" grep -Fxq -- "$l"; then
			pass "$what: $l"
		else
			check_failed "$what: has the line '$l'" "$(<<<"$JOB" grep -v '^#' | head -n 40)"
		fi
	done
}

# lacks WHAT ERE: no line of the job matches ERE.
lacks() { assert_no_match "$2" "$JOB" "$1: no line matches /$2/"; }

# noted WHAT ERE: a "not expressible" comment matching ERE.
noted() { assert_match "^$NOTE.*$2" "$JOB" "$1: commented as not expressible: /$2/"; }

# section NAME: the lines of [NAME], without its header.
job_section() { <<<"$JOB" awk -v s="[$1]" '$0 == s { on = 1; next } /^\[/ { on = 0 } on'; }

# ---------------------------------------------------------------- defaults

section "the default workload"
job "default" -b 4k "$DEV"
assert_match "^# fio job file from rebench [0-9][^:]*: rebench --fio -b 4k $DEV\$" "$JOB" "header names rebench's version and its command line"
assert_eq 2 "$(<<<"$JOB" grep -c '^\[')" "two sections: [global] and one job"
assert_eq "[global]" "$(<<<"$JOB" grep -m1 '^\[')" "[global] comes first"
has "default" "[job1]" "thread=1" "group_reporting=1" "allrandrepeat=1" "fadvise_hint=0" \
	"invalidate=0" "lat_percentiles=1" "filename=$DEV" "ioengine=sync" "direct=1" \
	"rw=randread" "bs=4096" "random_distribution=random" "blockalign=4096" \
	"norandommap=1" "offset=0" "size=$SIZE" "time_based=1" "runtime=10s"
noted "default" "lseek before every I/O"
lacks "default: reads are not O_DSYNC" '^sync='
lacks "default: one job, no numjobs" '^numjobs='
lacks "default: no io_size with a time limit" '^io_size='
lacks "default: sync engines have no iodepth" '^iodepth'

# ---------------------------------------------------------------- engines

section "engines"
job "stateless" -t stateless -b 4k "$DEV"
has "stateless" "ioengine=psync"
lacks "stateless: no lseek comment" 'lseek'
job "mmap" -t mmap -p -b 4k "$DEV"
has "mmap" "ioengine=mmap" "direct=0"
job "mmap write" -t mmap -p -o write -b 4k "$DEV"
has "mmap write" "ioengine=mmap" "fsync=1" "sync=dsync"
noted "mmap write" "msync"
job "mmap write -f" -t mmap -p -f -o write -b 4k "$DEV"
lacks "mmap write -f: no fsync" '^fsync='
job "paio" -t paio -q 4 -b 4k "$DEV"
has "paio" "ioengine=posixaio" "iodepth=4" "iodepth_batch_submit=1" \
	"iodepth_batch_complete_min=1" "iodepth_batch_complete_max=4"
noted "paio" "lio_listio"
if have_engine naio; then
	job "naio" -t naio -q 32 --batch 8 -b 4k "$DEV"
	has "naio" "ioengine=libaio" "iodepth=32" "iodepth_batch_submit=8" \
		"iodepth_batch_complete_min=8" "iodepth_batch_complete_max=32"
else
	log "naio not built: its checks are left out"
fi
if have_engine uring; then
	job "uring" -t uring -q 16 -b 4k "$DEV"
	has "uring" "ioengine=io_uring" "fixedbufs=1" "registerfiles=1" "iodepth=16" \
		"iodepth_batch_submit=1" "iodepth_batch_complete_max=16"
	lacks "uring: no sqthread_poll without --sqpoll" '^sqthread_poll'
	job "uring --sqpoll" -t uring --sqpoll -q 8 -b 4k "$DEV"
	has "uring --sqpoll" "sqthread_poll=1"
else
	log "uring not built: its checks are left out"
fi

# ---------------------------------------------------------------- operations

section "operations, seq and rnd"
for w in rnd seq; do
	for op in read write trim rw; do
		case $w/$op in
		rnd/rw) rw=randrw ;; seq/rw) rw=rw ;;
		rnd/*) rw=rand$op ;; *) rw=$op ;;
		esac
		job "-o $op -w $w" -o $op -w $w -b 4k "$DEV"
		has "-o $op -w $w" "rw=$rw"
		case $op in
		write | rw) has "-o $op -w $w: O_DSYNC writes" "sync=dsync" "scramble_buffers=0" ;;
		*) lacks "-o $op -w $w: not O_DSYNC" '^sync=' ;;
		esac
	done
done
job "-o rw --rwmix 70" -o rw --rwmix 70 -b 4k "$DEV"
has "-o rw --rwmix 70" "rwmixread=70" "unified_rw_reporting=both"
noted "-o rw" "read-or-write draw for every I/O"
job "-o rw --rwmix 70.5" -o rw --rwmix 70.5 -b 4k "$DEV"
noted "--rwmix 70.5" "--rwmix 70.5"
job "-o write -f" -o write -f -b 4k "$DEV"
lacks "-f: no O_DSYNC" '^sync='
job "-o write -p" -o write -p -b 4k "$DEV"
has "-p" "direct=0" "sync=dsync"

FILE=$SCRATCH/data.img
dd if=/dev/urandom of="$FILE" bs=1M count=4 status=none
job "-o trim on a file" -o trim -b 4k "$FILE"
has "-o trim on a file" "ioengine=falloc" "rw=randtrim" "filename=$FILE"
job "a file target" -b 4k "$FILE"
noted "a file target" "O_NOATIME"
job "a file target with -m" -m -b 4k "$FILE"
lacks "-m: no O_NOATIME comment" 'O_NOATIME'
job "-a" -o write -w seq -a -p -b 4k "$FILE"
noted "-a" "O_APPEND"

# ---------------------------------------------------------------- strides

section "strides and direction"
job "seq stride 16k" -w seq -b 4k -s 16k "$DEV"
slots=$(( (SIZE - 4096) / 16384 + 1 ))
has "seq stride 16k" "rw=read:12288" "size=$(( (slots - 1) * 16384 + 4096 ))"
assert_match "^# size=$(( (slots - 1) * 16384 + 4096 )), not the region's $SIZE bytes" "$JOB" "seq stride 16k: the size is explained"
job "seq stride = bs" -w seq -b 64k "$DEV"
has "seq stride = bs" "rw=read" "bs=65536" "size=$SIZE"
job "rnd stride 8k" -b 4k -s 8k "$DEV"
has "rnd stride 8k" "blockalign=8192" "size=$SIZE"
job "rnd stride 8k, odd region" -b 4k -s 8k -j 1m -e 1004k "$DEV"
has "rnd stride 8k, odd region" "offset=1048576" "size=$(( ((1028096 - 4096) / 8192 + 1) * 8192 ))"
job "rnd stride below bs" -b 8k -s 4k "$DEV"
has "rnd stride below bs" "blockalign=4096" "size=$SIZE"
job "backward" -w seq -r backward -b 4k -j 1m -e 1m "$DEV"
has "backward" "rw=read:-8192" "offset=1048576" "size=$(( 1048576 + 4096 ))"
job "backward stride 8k" -w seq -r backward -b 4k -s 8k -j 1m -e 1m "$DEV"
has "backward stride 8k" "rw=read:-12288" "size=$(( 128 * 8192 + 4096 ))"
job "backward to the end" -w seq -r backward -b 4k "$DEV"
has "backward to the end" "size=$SIZE"
noted "backward to the end" "last block of the region"

# ---------------------------------------------------------------- distributions

section "distributions"
job "zipf" -b 4k -u zipf:1.2 "$DEV"
has "zipf" "random_distribution=zipf:1.2:0" "blockalign=4096"
noted "zipf" "rank order"
job "zipf --center 50" -b 4k -u zipf:1.2 --center 50 "$DEV"
has "zipf --center 50" "random_distribution=zipf:1.2:0.5"
job "zipf --scatter" -b 4k -u zipf:1.2 --scatter "$DEV"
noted "zipf --scatter" "--scatter"
job "zipf:1" -b 4k -u zipf:1 "$DEV"
has "zipf:1" "random_distribution=zipf:1.001:0"
noted "zipf:1" "theta 1"
job "zipf with a stride" -b 4k -s 8k -u zipf:1.2 "$DEV"
has "zipf with a stride" "blockalign=4096"
noted "zipf with a stride" "-s 8192"
job "pareto" -b 4k -u pareto:0.3 "$DEV"
has "pareto" "random_distribution=pareto:0.3:0"
job "powerlaw" -b 4k -u powerlaw -i 20 "$DEV"
has "powerlaw" "random_distribution=pareto:0.275508041:0"
job "pow" -b 4k -u pow -i 20 "$DEV"
# fio has no exponential: its CDF 1 - e^(-r/20) at r = 1..100% of the
# region, rounded to whole percentages, as zones (a zone ends where the
# rounded CDF rises; the flat tail joins the last)
want=$(awk 'BEGIN { for (r = 1; r <= 100; r++) {
		c = r == 100 ? 100 : int(100 * (1 - exp(-r / 20)) + 0.5)
		if (c == p) continue
		z = z ":" (c - p) "/" (r - f); p = c; f = r }
	print "random_distribution=zoned" z }')
has "pow" "$want"
<<<"$JOB" grep -v '^#' >"$SCRATCH/pow.fio"
assert_eq "" "$(fio --parse-only "$SCRATCH/pow.fio" 2>&1)" "pow: fio --parse-only accepts its zones"
noted "pow" "an exponential; fio has none"
job "normal -i 5" -b 4k -u normal -i 5 "$DEV"
has "normal -i 5" "random_distribution=normal:0"
noted "normal -i 5" "normal distribution with sd 5%"
job "normal -i 10" -b 4k -u normal -i 10 "$DEV"
has "normal -i 10" "random_distribution=normal:19.15"
job "zoned" -b 4k -u zoned:80/20:20/80 "$DEV"
has "zoned" "random_distribution=zoned:80/20:20/80"
noted "zoned" "zone edges"
job "zoned, edges on blocks" -b 4k -e 400k -u zoned:80/20:20/80 "$DEV"
lacks "zoned on 100 blocks: edges agree" 'zone edges'
job "zoned, fractions" -b 4k -u zoned:60.5/10:39.5/90 "$DEV"
has "zoned, fractions" "random_distribution=zoned:61/10:39/90"
noted "zoned, fractions" "whole percentages"
job "zoned --center" -b 4k -u zoned:80/20:20/80 --center 10 "$DEV"
noted "zoned --center" "--center 10%"
job "const" -b 4k -u const "$DEV"
has "const" "offset=0" "size=4096" "random_distribution=random"
job "const --center 50" -b 4k -u const --center 50 "$DEV"
has "const --center 50" "offset=$(( SIZE / 2 ))" "size=4096"

# ---------------------------------------------------------------- threads, pause

section "threads, batches, think time"
job "-c 4" -t stateless -c 4 -b 4k "$DEV"
has "-c 4" "numjobs=4" "thread=1" "group_reporting=1"
noted "-c 4" "shared by the 4 threads"
job "-c 4 -l" -t stateless -c 4 -l -b 4k "$DEV"
lacks "-l: no shared fd comment" 'shared by'
job "seq -c 2" -w seq -t stateless -c 2 -b 4k "$DEV"
noted "seq -c 2" "thread i of 2"
job "-z 250" -z 250 -b 4k "$DEV"
has "-z 250" "thinktime=250"
job "-z 1500ns" -z 1500ns -b 4k "$DEV"
has "-z 1500ns" "thinktime=2"
noted "-z 1500ns" "-z 1500ns"

# ---------------------------------------------------------------- regions, durations

section "regions and durations"
job "region in bytes" -j 1m -e 10m -b 4k "$DEV"
has "region in bytes" "offset=1048576" "size=10485760"
job "region in %" -j 25% -e 50% -b 4k "$DEV"
has "region in %" "offset=$(( SIZE / 4 ))" "size=$(( SIZE / 2 ))"
job "-d 3" -d 3 -b 4k "$DEV"
has "-d 3" "time_based=1" "runtime=3s"
job "-d 500ms" -d 500ms -b 4k "$DEV"
has "-d 500ms" "runtime=500ms"
job "-d 8m" -d 8m -b 4k "$DEV"
has "-d 8m" "io_size=8388608"
lacks "-d 8m: not time based" '^(time_based|runtime)='
job "-d 50%" -d 50% -e 8m -b 4k "$DEV"
has "-d 50%" "io_size=4194304" "size=8388608"
job "-d 1m over 3 threads" -d 1m -t stateless -c 3 -b 4k "$DEV"
has "-d 1m over 3 threads" "io_size=$(( 256 / 3 * 4096 ))" "numjobs=3"
noted "-d 1m over 3 threads" "256 I/Os split over 3 threads"
job "--seed" --seed 42 -b 4k "$DEV"
has "--seed" "randseed=42"
job "--warmup" --warmup 500ms -b 4k "$DEV"
has "--warmup" "ramp_time=500ms"
job "--drop-caches" --drop-caches -b 4k "$DEV"
has "--drop-caches" "invalidate=1"
noted "--drop-caches" "--drop-caches"

# ---------------------------------------------------------------- stdin

section "stdin mode: one job per line, all together"
printf '%s\n' "-b 4k $DEV" "# a comment" "-w seq -b 64k -o write $DEV" >"$SCRATCH/spec"
job "stdin" --seed 100 --yes <"$SCRATCH/spec"
assert_eq "[global] [job1] [job3]" "$(<<<"$JOB" grep '^\[' | paste -sd' ')" "sections [global], [job1], [job3] (named after their lines)"
assert_match '^# 2 workloads from stdin' "$JOB" "the header says the jobs come from stdin"
assert_eq "filename=$DEV" "$(job_section global | grep '^filename=')" "the common target is in [global]"
assert_eq "rw=randread" "$(job_section job1 | grep '^rw=')" "[job1] reads at random"
assert_eq "rw=write" "$(job_section job3 | grep '^rw=')" "[job3] writes sequentially"
assert_eq "randseed=100 randseed=101" "$(<<<"$JOB" grep '^randseed=' | paste -sd' ')" "each line's own seed"
assert_eq "new_group=1 new_group=1" "$(<<<"$JOB" grep '^new_group=' | paste -sd' ')" "each job reports apart (new_group)"
lacks "stdin: no stonewall (the jobs run together)" '^stonewall'

# ---------------------------------------------------------------- same offsets

# offsets_match WHAT MODE ARGS...: rebench (-g 0 --output) and fio (the job,
# write_iolog) issue the same offsets: MODE "seq" the same sequence, "set"
# the same distinct offsets.
offsets_match() {
	local what=$1 mode=$2 a b
	shift 2
	job "$what" "$@"
	printf 'write_iolog=%s\n' "$SCRATCH/fio.iolog" >>"$JOBF"
	rm -f "$SCRATCH/fio.iolog"
	if ! timeout -k 5 60 fio "$JOBF" >"$SCRATCH/fio.out" 2>&1; then
		check_failed "$what: fio runs the job" "$(tail -n 5 "$SCRATCH/fio.out")"
		return
	fi
	rb -g 0 --output "$SCRATCH/rb.tsv" "$@"
	assert_rc 0 "$what: rebench runs it"
	a=$(awk 'NR > 1 { print $5 }' "$SCRATCH/rb.tsv")
	b=$(awk '$3 == "read" || $3 == "write" { print $4 }' "$SCRATCH/fio.iolog")
	if [ "$mode" = set ]; then
		a=$(<<<"$a" sort -nu)
		b=$(<<<"$b" sort -nu)
	fi
	assert_ne "" "$a" "$what: rebench logged its offsets"
	assert_eq "$a" "$b" "$what: fio's offsets are rebench's ($mode, $(<<<"$a" wc -l) offsets)"
}

section "fio does the same I/O"
offsets_match "seq stride 12k" seq -w seq -b 4k -s 12k -j 64k -e 100k -d 160k "$DEV"
offsets_match "backward stride 8k" seq -w seq -r backward -b 4k -s 8k -j 64k -e 64k -d 160k "$DEV"
offsets_match "rnd stride 8k, odd region" set -b 4k -s 8k -j 64k -e 36k -d 2m "$DEV"

# ---------------------------------------------------------------- refusals, no I/O

section "refusals"
assert_refused "a sweep" 'sweep' --fio -b 4k,8k "$DEV"
assert_eq "" "$RB_OUT" "a refused sweep prints no job"
assert_refused "--fio --json" '--fio.*--json' --fio --json "$DEV"
assert_refused "--fio -n" '--fio.*-n' --fio -n "$DEV"
assert_refused "--fio --probe" '--fio.*--probe' --fio --probe "$DEV"
assert_refused "--fio --plot" '--fio.*--plot' --fio --plot "$SCRATCH/p.png" "$DEV"
assert_refused "a bad block size is still checked" 'block-size|-b' --fio -b 1000 "$DEV"

section "no I/O"
sum=$(dev_sum "$DEV")
job "-o write, no --yes" -o write -w seq -b 1m -d 2 "$DEV"
job "-o write --yes" -o write -b 4k -d 2 --yes "$DEV"
job "-o trim --yes" -o trim -b 4k -d 2 --yes "$DEV"
assert_eq "$sum" "$(dev_sum "$DEV")" "the device is unchanged (no write, no trim ran)"
if command -v mkfs.ext2 >/dev/null 2>&1; then
	M=$(make_loop 16M)
	mkfs.ext2 -q -F "$M" >/dev/null 2>&1 || fail "mkfs.ext2 $M failed"
	mount_dev "$M" "$SCRATCH/mnt"
	job "-o write on a mounted device" -o write -b 4k "$M"
	assert_match "warning: --fio: $M is in use" "$RB_ERR" "a device in use: rebench warns on stderr"
	assert_match "^# WARNING: $M is in use .*rebench refuses to write to it" "$JOB" "a device in use: the job says rebench would refuse"
else
	log "mkfs.ext2 missing: the device-in-use check is left out"
fi
job "a missing file with -e" -e 1m -b 4k "$SCRATCH/new.dat"
assert_eq "no" "$([ -e "$SCRATCH/new.dat" ] && echo yes || echo no)" "the missing file is not created"
assert_match '# .*new.dat does not exist' "$JOB" "the job says rebench would create the file"

section "fio --parse-only accepts every job file above"
parse_jobs
