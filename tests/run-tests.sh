#!/usr/bin/env bash
# run-tests.sh - run each test program or script with a timeout and count.
#
# A test exits 0 (pass), 77 (skip, with its reason on stdout/stderr) or
# anything else (fail).  Output of failing and skipped tests is shown; the
# last line is "N passed, N failed, N skipped".
set -u

timeout_s=${TEST_TIMEOUT:-300}
pass=0 fail=0 skip=0
failed=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for t in "$@"; do
	name=${t#./}
	start=$(date +%s)
	if [[ $t == *.sh ]]; then
		timeout --kill-after=10 "$timeout_s" bash "$t" </dev/null >"$log" 2>&1
	else
		timeout --kill-after=10 "$timeout_s" "$t" </dev/null >"$log" 2>&1
	fi
	rc=$?
	secs=$(( $(date +%s) - start ))
	case $rc in
	0)
		pass=$((pass + 1))
		# cmocka prints one line per case; show how many a program ran
		n=$(grep -c '^\[       OK \]' "$log" 2>/dev/null || true)
		if [ "${n:-0}" -gt 0 ]; then
			printf 'PASS  %s (%s cases, %ss)\n' "$name" "$n" "$secs"
		else
			printf 'PASS  %s (%ss)\n' "$name" "$secs"
		fi
		;;
	77)
		skip=$((skip + 1))
		printf 'SKIP  %s: %s\n' "$name" "$(tail -n 1 "$log")"
		;;
	124|137)
		fail=$((fail + 1))
		failed+=("$name")
		printf 'FAIL  %s: timed out after %ss\n' "$name" "$timeout_s"
		sed 's/^/      /' "$log" | tail -n 40
		;;
	*)
		fail=$((fail + 1))
		failed+=("$name")
		printf 'FAIL  %s (exit %s)\n' "$name" "$rc"
		sed 's/^/      /' "$log" | tail -n 60
		;;
	esac
done

if [ ${#failed[@]} -gt 0 ]; then
	printf 'failed: %s\n' "${failed[*]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
