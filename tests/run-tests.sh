#!/usr/bin/env bash
# run-tests.sh - run test programs and scripts, JOBS at a time, each with a
# time limit, and count.  (After liburing's runtests-parallel.)
#
#	tests/run-tests.sh [-j JOBS] [--build COMMAND] TEST...
#
# A test exits 0 (pass), 77 (skip, its reason the last line of its output)
# or anything else (fail); one still running after TEST_TIMEOUT seconds
# (default 600, a hang guard: the slowest test took 223 s under stress-ng)
# is killed and fails.  Tests run JOBS at a time (-j, else $JOBS, else the
# CPU count plus one); a script with a line "# slow" starts before the
# others, one with a line "# serial" runs after them, alone
# (tests/README.md says which need to).  --build COMMAND (make check's
# sanitizer build of the unit tests) runs as the first job, beside the
# scripts: the programs among the TESTs start once it has succeeded, and
# fail unrun if it fails.  A line per test as it ends; after
# the run, the output of each failed test whole, the slowest tests, and as
# the last line "N passed, N failed, N skipped".
set -u

timeout_s=${TEST_TIMEOUT:-600}
# one more test than CPUs: a test waits (on ssh, on a run's duration, on a
# timeout it checks) for a third of its time, and on 2 cores make check
# took 7m13s at 3 jobs against 8m30s at 2 (7m22s at 4)
jobs=${JOBS:-$(( $(nproc 2>/dev/null || echo 1) + 1 ))}
build=
while [ $# -ge 2 ]; do
	case $1 in
	-j) jobs=$2 ;;
	--build) build=$2 ;;
	*) break ;;
	esac
	shift 2
done
case $jobs in '' | *[!0-9]* | 0) echo "run-tests.sh: JOBS must be a positive number, not '$jobs'" >&2; exit 2 ;; esac

pass=0 fail=0 skip=0
failed=()
dir=$(mktemp -d /tmp/rebench-tests.XXXXXX) || exit 1

# python3 found through a version manager's shim (pyenv's runs about 40
# processes, 0.35 s a call on the 2-core test machine) costs more than the
# check it serves: the tests find first a python3 that execs the
# interpreter the shim chose (asked once), with -S: they import only the
# standard library, and a .pth start-up hook in site-packages cost 0.25 s
# a call there.  A program, not a shell function: a test's "python3 ... &"
# must give $! the interpreter's own pid, for kill and cleanup.
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || py=
if [ -x "$py" ] && [[ $py != *"'"* ]]; then
	mkdir -p "$dir/bin"
	printf "#!/bin/sh\nexec '%s' -S \"\$@\"\n" "$py" >"$dir/bin/python3"
	chmod +x "$dir/bin/python3"
	export PATH="$dir/bin:$PATH"
fi
names=("$@")
declare -A job_of=()	# pid -> index in names

# An interrupted run stops the tests it started: each runs under a timeout
# in a process group of its own, which a TERM to the timeout ends.
stop_all() {
	local pid
	for pid in "${!job_of[@]}"; do
		pkill -TERM -P "$pid" 2>/dev/null
	done
	wait
}
trap 'rm -rf "$dir"' EXIT
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM

# has_marker WORD TEST: the script has a line "# WORD" or "# WORD: WHY".
has_marker() { [[ $2 == *.sh ]] && grep -qE "^# $1(:|\$)" "$2"; }

# The scripts marked "# slow" start first, the rest in the order given:
# started last, a long test would run on alone while a core idles.
slow=() rest=()
for t in "${names[@]}"; do
	if has_marker slow "$t"; then slow+=("$t"); else rest+=("$t"); fi
done
names=("${slow[@]}" "${rest[@]}")

# timed I COMMAND...: COMMAND's output in $dir/I.log, "STATUS MS CPU_MS"
# in $dir/I.rc (CPU: user + system of all it waited for, from bash's
# `times`; a daemon it never reaped is not counted).  Run in a subshell of
# its own, so `times` counts this COMMAND alone.
timed() {
	local i=$1 t0 rc cpu
	shift
	t0=$(date +%s%N)
	"$@" </dev/null >"$dir/$i.log" 2>&1
	rc=$?
	times >"$dir/$i.cpu"	# a builtin in this shell: a pipe would fork
	cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%d", t * 1000 }' "$dir/$i.cpu")
	echo "$rc $(( ($(date +%s%N) - t0) / 1000000 )) ${cpu:-0}" >"$dir/$i.rc"
}

# run_one I: the test or the build, under a time limit.  timeout makes a
# process group of its own: a limit kills all the test started, and only
# that.  setsid first: a session of its own, with no controlling terminal,
# so no rebench a test starts can ask on /dev/tty (and rb need not start
# each under setsid).
run_one() {
	local t=${names[$1]} to=(setsid timeout --kill-after=10 "$timeout_s")
	if [ "$1" = "$bi" ]; then
		timed "$1" "${to[@]}" bash -c "$t"
	elif [[ $t == *.sh ]]; then
		timed "$1" "${to[@]}" bash "$t"
	else
		timed "$1" "${to[@]}" "$t"
	fi
}

# report I: the line of a test that ended; its output kept if it failed.
report() {
	local i=$1 name=${names[$1]#./} rc ms cpu secs csecs n log=$dir/$1.log
	read -r rc ms cpu <"$dir/$i.rc" 2>/dev/null || { rc=lost ms=0 cpu=0; }
	secs=$(( (ms + 500) / 1000 )) csecs=$(( (cpu + 500) / 1000 ))
	if [ "$i" = "$bi" ]; then
		if [ "$rc" = 0 ]; then
			built=ok
			printf 'BUILT %s (%ss, CPU %ss)\n' "$name" "$secs" "$csecs"
		else
			built=failed
			fail=$((fail + 1))
			failed+=("$i")
			printf 'FAIL  build: %s (exit %s, %ss)\n' "$name" "$rc" "$secs"
		fi
		return
	fi
	printf '%s %s %s\n' "$ms" "${name##*/}" "$cpu" >>"$dir/times"
	case $rc in
	0)
		pass=$((pass + 1))
		# cmocka prints one line per case; show how many a program ran
		n=$(grep -c '^\[       OK \]' "$log" 2>/dev/null || true)
		if [ "${n:-0}" -gt 0 ]; then
			printf 'PASS  %s (%s cases, %ss, CPU %ss)\n' "$name" "$n" "$secs" "$csecs"
		else
			printf 'PASS  %s (%ss, CPU %ss)\n' "$name" "$secs" "$csecs"
		fi
		;;
	77)
		skip=$((skip + 1))
		printf 'SKIP  %s: %s\n' "$name" "$(tail -n 1 "$log")"
		;;
	124 | 137)
		fail=$((fail + 1))
		failed+=("$i")
		printf 'FAIL  %s: timed out after %ss\n' "$name" "$timeout_s"
		echo "timed out after ${timeout_s}s (TEST_TIMEOUT)" >>"$log"
		;;
	*)
		fail=$((fail + 1))
		failed+=("$i")
		printf 'FAIL  %s (exit %s, %ss)\n' "$name" "$rc" "$secs"
		;;
	esac
}

# reap: wait for any running test to end and report it.
reap() {
	local pid
	wait -n -p pid
	[ -n "${pid:-}" ] || return
	report "${job_of[$pid]}"
	unset "job_of[$pid]"
}

start() {
	run_one "$1" &
	job_of[$!]=$1
}

# not_built I: a program the build did not make, counted as failed.
not_built() {
	fail=$((fail + 1))
	failed+=("$1")
	printf 'FAIL  %s: not run, the build failed\n' "${names[$1]#./}"
	echo "not run: the build (--build) failed" >"$dir/$1.log"
}

# the build first, as the last of names; the programs wait for it
bi=${#names[@]} built=
if [ -n "$build" ]; then
	names+=("$build")
	start "$bi"
else
	built=ok
fi
serial=()
for ((i = 0; i < bi; i++)); do
	if has_marker serial "${names[$i]}"; then
		serial+=("$i")
		continue
	fi
	if [[ ${names[$i]} != *.sh ]]; then
		while [ -z "$built" ]; do reap; done
		[ "$built" = ok ] || { not_built "$i"; continue; }
	fi
	while [ "${#job_of[@]}" -ge "$jobs" ]; do reap; done
	start "$i"
done
while [ "${#job_of[@]}" -gt 0 ]; do reap; done
for i in "${serial[@]}"; do
	start "$i"
	reap
done

for i in "${failed[@]}"; do
	printf '\n---- %s: output\n' "${names[$i]#./}"
	sed 's/^/      /' "$dir/$i.log"
done
if [ -s "$dir/times" ]; then
	printf '\nslowest (wall, CPU): %s\n' "$(sort -rn "$dir/times" | head -n 10 |
		awk '{ printf "%s%s %.0fs %.0fs", (NR > 1 ? ", " : ""), $2, $1 / 1000, $3 / 1000 }')"
	awk '{ w += $1; c += $3 } END { printf "tests: %.0f s of wall time, %.0f s of CPU (JOBS=%s)\n", w / 1000, c / 1000, jobs }' jobs="$jobs" "$dir/times"
fi
if [ ${#failed[@]} -gt 0 ]; then
	printf 'failed:'
	for i in "${failed[@]}"; do printf ' %s' "${names[$i]#./}"; done
	printf '\n'
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
