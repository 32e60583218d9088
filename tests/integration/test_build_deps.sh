#!/usr/bin/env bash
# test_build_deps.sh - a header edit rebuilds what includes that header and
# nothing else (issue 28, build: the compiler's own dependency lists,
# -MMD -MP, instead of every object depending on every header).  Asked of
# make with -n -W (what would it do were the header newer?), so nothing in
# the tree is touched or rebuilt.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd make

# would_build HEADER TARGET: the sources make would compile for TARGET
# were HEADER newer, one a line, sorted.  -W goes by the name: every
# source includes a header as LAYER/X.h from src (-Isrc), which the
# compiler lists as src/LAYER/X.h.  -o: the generated src/config.h, which
# make -n cannot know is rewritten only on a change, is taken as current.
would_build() {
	make -s -n -C "$TESTS_ROOT" -o src/config.h -W "$1" "$2" 2>/dev/null |
		grep -oE ' -c -o [^ ]+\.o [^ ]+\.c$' | awk '{ print $NF }' | sort
}

# includers HEADER: the sources whose dependency list (OBJ.d) names it
includers() {
	grep -l -E "(^| )$1( |$)" "$TESTS_ROOT"/src/*/*.d 2>/dev/null |
		sed -e "s|^$TESTS_ROOT/||" -e 's|\.d$|.c|' |
		while read -r c; do [ -f "$TESTS_ROOT/$c" ] && echo "$c"; done | sort
}

section "the objects carry their dependency lists"
n_src=$(ls "$TESTS_ROOT"/src/*/*.c | wc -l)
# (a .d left by a source since moved or removed is not counted)
n_dep=$(for d in "$TESTS_ROOT"/src/*/*.d; do [ -f "${d%.d}.c" ] && echo "$d"; done | wc -l)
assert_eq "$n_src" "$n_dep" "a .d per source ($n_src)"
assert_eq "" "$(make -s -n -C "$TESTS_ROOT" -o src/config.h rebench 2>/dev/null | grep -E ' -c -o ')" \
	"a built tree: nothing to compile"

section "a header edit rebuilds its includers, and only them"
for h in src/core/hist.h src/core/units.h src/report/report.h src/engines/iokind.h src/core/syncpol.h; do
	want=$(includers "$h")
	got=$(would_build "$h" rebench)
	assert_ne "" "$want" "$h: some source includes it"
	assert_eq "$want" "$got" "$h: make would compile exactly its $(<<<"$want" grep -c .) includers"
	assert_num "$h: fewer than every source ($(<<<"$got" grep -c .) of $n_src)" \
		"$(<<<"$got" grep -c .) < $n_src"
done
assert_match 'src/core/hist\.c' "$(would_build src/core/hist.h rebench)" "hist.h: hist.c itself"
assert_no_match 'src/core/units\.c' "$(would_build src/core/hist.h rebench)" "hist.h: not units.c, which does not include it"
assert_match 'src/engines/sync\.c' "$(would_build src/engines/iokind.h rebench)" "iokind.h: an engine that includes it"
