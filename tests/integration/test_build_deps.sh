#!/usr/bin/env bash
# test_build_deps.sh - a header edit rebuilds what includes that header and
# nothing else (issue 28, build: the compiler's own dependency lists,
# -MMD -MP, instead of every object depending on every header).  Asked of
# make with -n -W (what would it do were the header newer?), so nothing in
# the tree is touched or rebuilt.
. "$(dirname "$0")/../lib/common.sh"

require_cmd make

# would_build HEADER TARGET: the sources make would compile for TARGET
# were HEADER newer, one a line, sorted.  -W goes by the name, and the
# engines name src/X.h as src/engines/../X.h (their #include "../X.h"):
# both names are given.
would_build() {
	make -s -n -C "$TESTS_ROOT" -W "$1" -W "src/engines/../${1#src/}" "$2" 2>/dev/null |
		grep -oE ' -c -o [^ ]+\.o [^ ]+\.c$' | awk '{ print $NF }' | sort
}

# includers HEADER: the sources whose dependency list (OBJ.d) names it
includers() {
	grep -l -E "(^| )(src/engines/\.\./${1#src/}|$1)( |$)" "$TESTS_ROOT"/src/*.d "$TESTS_ROOT"/src/engines/*.d 2>/dev/null |
		sed -e "s|^$TESTS_ROOT/||" -e 's|\.d$|.c|' | sort
}

section "the objects carry their dependency lists"
n_src=$(ls "$TESTS_ROOT"/src/*.c "$TESTS_ROOT"/src/engines/*.c | wc -l)
n_dep=$(ls "$TESTS_ROOT"/src/*.d "$TESTS_ROOT"/src/engines/*.d 2>/dev/null | wc -l)
assert_eq "$n_src" "$n_dep" "a .d per source ($n_src)"
assert_eq "" "$(make -s -n -C "$TESTS_ROOT" rebench 2>/dev/null | grep -E ' -c -o ')" \
	"a built tree: nothing to compile"

section "a header edit rebuilds its includers, and only them"
for h in src/hist.h src/units.h src/report.h src/iokind.h src/syncpol.h; do
	want=$(includers "$h")
	got=$(would_build "$h" rebench)
	assert_ne "" "$want" "$h: some source includes it"
	assert_eq "$want" "$got" "$h: make would compile exactly its $(printf '%s\n' "$want" | grep -c .) includers"
	assert_num "$h: fewer than every source ($(printf '%s\n' "$got" | grep -c .) of $n_src)" \
		"$(printf '%s\n' "$got" | grep -c .) < $n_src"
done
assert_match 'src/hist\.c' "$(would_build src/hist.h rebench)" "hist.h: hist.c itself"
assert_no_match 'src/units\.c' "$(would_build src/hist.h rebench)" "hist.h: not units.c, which does not include it"
assert_match 'src/engines/sync\.c' "$(would_build src/iokind.h rebench)" "iokind.h: an engine that includes it"
