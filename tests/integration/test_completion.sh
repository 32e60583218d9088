#!/usr/bin/env bash
# test_completion.sh - completion/rebench.bash, and make install of it.
#
# The script is sourced in this shell and its function called as bash
# would call it (COMP_WORDS, COMP_CWORD; COMPREPLY read back): engine names
# after -t, --type and --type=; the options, the same set as rebench --help
# lists; distributions, operations, workloads and directions that rebench
# takes; suites after --suite; block devices and files for the TARGET; and
# make install DESTDIR=... installing it where bash-completion looks, and
# make uninstall removing it.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd make
SCRIPT=$TESTS_ROOT/completion/rebench.bash
[ -f "$SCRIPT" ] || fail "completion/rebench.bash is missing"
# shellcheck source=../../completion/rebench.bash
. "$SCRIPT"
export REBENCH_WORKLOADS=$TESTS_ROOT/workloads

# comp WORD... : COMPREPLY for the last word, sorted, one line.
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_rebench
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort -u | paste -sd' '
}

sorted() { tr ' ' '\n' | sed '/^$/d' | sort -u | paste -sd' '; }

section "registered for rebench"
assert_match "_rebench rebench$" "$(complete -p rebench 2>&1)" "complete -F _rebench rebench"

section "engine names after -t, --type and --type="
# the engines this build can run, as rebench --engines lists them
ENGINES=$("$REBENCH" --engines | awk '
	/^[^ ]/ { if (n != "") print n; n = $1; next }
	/not available/ { n = "" }
	END { if (n != "") print n }' | sorted)
assert_match "stateful" "$ENGINES" "rebench --engines lists stateful"
assert_eq "$ENGINES" "$(comp "$REBENCH" -t "")" "rebench -t <TAB>: every engine of --engines"
assert_eq "$ENGINES" "$(comp "$REBENCH" --type "")" "rebench --type <TAB>"
assert_eq "stateful stateless" "$(comp "$REBENCH" -b 4k -t stat)" "rebench -t stat<TAB>"
assert_eq "$ENGINES" "$(comp "$REBENCH" --type = "")" "rebench --type=<TAB> (split at =)"
assert_eq "--type=stateful --type=stateless" "$(comp "$REBENCH" --type=stat)" \
	"rebench --type=stat<TAB> (one word)"

section "options: the same set as rebench --help all"
HELP=$("$REBENCH" --help all)
LONG=$(<<<"$HELP" grep -oE '^ +(-[[:alnum:]], +)?--[[:alnum:]][[:alnum:]-]*' |
	grep -oE -- '--[[:alnum:]-]+$' | sorted)
SHORT=$(<<<"$HELP" grep -oE '^ +-[[:alnum:]],' | grep -oE -- '-[[:alnum:]]' | sorted)
assert_match -- "--suite" "$LONG" "--help lists --suite"
assert_eq "$LONG" "$(comp "$REBENCH" --)" "rebench --<TAB>: every long option of --help"
assert_eq "$(printf '%s %s' "$LONG" "$SHORT" | sorted)" "$(comp "$REBENCH" -)" \
	"rebench -<TAB>: every long and short option of --help"
assert_eq "--suite" "$(comp "$REBENCH" --su)" "rebench --su<TAB>"
assert_eq "" "$(comp "$REBENCH" -b "")" "no completion for a size (-b <TAB>)"

section "values: distributions, operations, workloads, directions"
DISTS=$(comp "$REBENCH" -u "")
assert_eq "$(<<<"$HELP" awk '/--dist /{ w = 1; next } w { sub(/.*one of: */, ""); gsub(/, */, " "); print; exit }' | sorted)" \
	"$DISTS" "rebench -u <TAB>: the distributions of --help"
F=$SCRATCH/f
for d in $DISTS; do
	rb -u "$d" --fio -e 1m -d 1 "$F"
	assert_no_match "invalid value" "$RB_ERR" "rebench takes -u $d"
done
assert_eq "read rw trim write" "$(comp "$REBENCH" -o "")" "rebench -o <TAB>"
assert_eq "rnd seq" "$(comp "$REBENCH" --workload "")" "rebench --workload <TAB>"
assert_eq "backward forward" "$(comp "$REBENCH" -r "")" "rebench -r <TAB>"
for v in "-o read" "-o write" "-o trim" "-o rw" "-w rnd" "-w seq" "-r forward" "-r backward"; do
	case $v in -w*) seq=() ;; *) seq=(-w seq) ;; esac
	# shellcheck disable=SC2086
	rb $v "${seq[@]}" --fio -e 1m -d 1 "$F"
	assert_rc 0 "rebench takes $v"
done
assert_eq "noreuse normal random sequential" "$(comp "$REBENCH" --fadvise "")" "rebench --fadvise <TAB>"
for v in normal sequential random noreuse; do
	rb --fadvise "$v" -p --fio -e 1m -d 1 "$F"
	assert_rc 0 "rebench takes --fadvise $v"
done

section "suites after --suite, files for a path"
assert_eq "list quick" "$(comp "$REBENCH" --suite "")" "rebench --suite <TAB>: the suites and list"
mkdir -p "$SCRATCH/s" && : >"$SCRATCH/s/mine.suite"
assert_eq "$SCRATCH/s/mine.suite" "$(comp "$REBENCH" --suite "$SCRATCH/s/mi")" \
	"rebench --suite PATH<TAB>: files"

section "the TARGET: block devices and files"
: >"$SCRATCH/target.img"
assert_eq "$SCRATCH/target.img" "$(comp "$REBENCH" -b 4k "$SCRATCH/tar")" "a file"
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && [ -e /dev/loop-control ]; then
	DEV=$(make_loop 1M)
	assert_match "(^| )$DEV( |$)" "$(comp "$REBENCH" -b 4k /dev/loo)" \
		"rebench -b 4k /dev/loo<TAB>: the attached loop device $DEV"
	assert_match "(^| )$DEV( |$)" "$(comp "$REBENCH" "")" "rebench <TAB>: devices too"
else
	log "not root: the block device check is left out"
fi

section "make install DESTDIR=... installs it, make uninstall removes it"
DEST=$SCRATCH/dest
OUT=$(make -s -C "$TESTS_ROOT" install DESTDIR="$DEST" PREFIX=/usr 2>&1)
assert_eq 0 "$?" "make install DESTDIR=$DEST PREFIX=/usr"
INST=$DEST/usr/share/bash-completion/completions/rebench
if [ -f "$INST" ]; then
	pass "installed as share/bash-completion/completions/rebench"
	assert_eq "$(file_sum "$SCRIPT")" "$(file_sum "$INST")" "the same script"
	assert_eq 644 "$(stat -c %a "$INST")" "mode 644"
else
	check_failed "installed as share/bash-completion/completions/rebench" "$OUT" \
		"$(cd "$DEST" 2>/dev/null && find . | head -20)"
fi
assert_match "^ +$DEST/usr/share/rebench/workloads/quick\.suite$" \
	"$(env -u REBENCH_WORKLOADS "$DEST/usr/bin/rebench" --suite list 2>&1)" \
	"the installed rebench finds the installed quick.suite"
assert_eq "list quick" "$(env -u REBENCH_WORKLOADS bash -c '. "$1"
	COMP_WORDS=("$2" --suite ""); COMP_CWORD=2; _rebench
	printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd" "' - "$INST" "$DEST/usr/bin/rebench")" \
	"the installed completion, for the installed rebench: its suites"
OUT=$(make -s -C "$TESTS_ROOT" uninstall DESTDIR="$DEST" PREFIX=/usr 2>&1)
assert_eq 0 "$?" "make uninstall"
assert_eq "" "$(find "$DEST" -type f)" "make uninstall leaves no file"
