#!/usr/bin/env bash
# test_help.sh - --help fits a screen and says where the rest is; --help
# all lists every option: the option table's, the engines' own and the
# modes' own words, each read from the sources here, not from rebench;
# --help TOPIC answers each topic it lists and refuses any other with the
# list; rebench(1)'s OPTIONS is the text `rebench --help roff` generates
# (make man), so --help and the manual cannot disagree.  No root, no
# device, no time.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

SRC=$TESTS_ROOT/src
MAN=$TESTS_ROOT/man/rebench.1

# has_word TEXT NAME: NAME (--x) in TEXT as an option, not part of a longer one
has_word() { <<<"$1" grep -qE -- "$2([^a-z0-9_-]|$)"; }
width_ok() { <<<"$1" awk 'length > 80 { print NR ": " length }'; }

section "--help: one screen, and where the rest is"
rb_ok "--help" --help
assert_eq "" "$([ "$(<<<"$RB_OUT" wc -l)" -le 60 ] || echo over)" \
	"--help: at most 60 lines ($(<<<"$RB_OUT" wc -l))"
assert_eq "" "$(width_ok "$RB_OUT")" "--help: no line over 80 columns"
assert_match '^Usage: rebench \[OPTIONS\] TARGET' "$RB_OUT" "--help: the usage first"
assert_match 'rebench --help all' "$RB_OUT" "--help: names --help all"
assert_match 'rebench --help TOPIC' "$RB_OUT" "--help: names --help TOPIC"
assert_match 'man rebench' "$RB_OUT" "--help: names the manual"
for o in --operation --block-size --type --queue-depth --duration --json --yes; do
	assert_match "^ +(-[a-zA-Z], )?$o( |$)" "$RB_OUT" "--help: $o, a most used option"
done
short=$RB_OUT

section "--help all: every option of the table, the engines and the modes"
rb_ok "--help all" --help all
all=$RB_OUT
assert_eq "" "$(width_ok "$all")" "--help all: no line over 80 columns"
# the names, from the sources: opt_table's entries, the engines' own
# (struct engine_opt), the modes' words (struct mode_opt, less another
# mode's refused words)
table=$(sed -nE "s/^	\{ \"([a-z][a-z0-9-]*)\", (0|'.'), OPT_.*/--\1/p" "$SRC/core/options.c")
engine=$(sed -nE 's/^	\{ "([a-z][a-z0-9-]*)", offsetof\(struct [a-z_]*_opts,.*/--\1/p' "$SRC"/engines/*.c)
mode=$({ grep -hoE '\{ "--[a-z-]+", MODE_(VALUE|LIST|FLAG|PAIR|PASS)' "$SRC"/*/*.c
	grep -hoE '(LOG|FILE)_OPT\("--[a-z-]+"' "$SRC"/*/*.c; } | grep -oE -- '--[a-z-]+')
[ "$(printf '%s\n' $table | wc -l)" -gt 60 ] || fail "too few options read from src/core/options.c"
[ -n "$engine" ] && [ -n "$mode" ] || fail "no engine options or mode words read from src/"
for n in --replay-mode --record-path --allow-partial; do
	assert_match -- "^$n$" "$mode" "the sources' mode words hold $n"
done
names=$("$REBENCH" --help names | sort -u)
missing=
for n in $(printf '%s\n' $table $engine $mode | sort -u); do
	has_word "$all" "$n" || missing+=" $n"
	<<<"$names" grep -qx -- "$n" || missing+=" $n(names)"
done
assert_eq "" "$missing" "--help all lists every option, engine option and mode word"
for n in $table $engine; do
	assert_match "^ +(-[a-zA-Z], )?$n( |$)" "$all" "--help all: an entry for $n" >/dev/null
done

section "--help TOPIC: each topic --help lists, and no other"
topics=$(<<<"$short" sed -n '/TOPIC one of:/,/^The reference/p' |
	sed 's/.*TOPIC one of://; /^The reference/d' | tr ',\n' '  ')
for t in replay sweep output record run workload fio; do
	assert_match "(^| )$t( |$)" "$topics" "--help lists the topic $t"
done
for t in $topics; do
	rb --help "$t"
	assert_rc 0 "--help $t: exit 0"
	assert_ne "" "$RB_OUT" "--help $t: says something"
	assert_eq "" "$(width_ok "$RB_OUT")" "--help $t: no line over 80 columns"
done
rb --help replay
for n in --replay-mode --replay-speed --replay-align; do
	has_word "$RB_OUT" "$n" && pass "--help replay: $n" ||
		check_failed "--help replay: $n" "not in its output"
done
rb --help sweep
assert_match '^Sweeps and studies:' "$RB_OUT" "--help sweep: its group"
assert_match '^ +--repeat N' "$RB_OUT" "--help sweep: --repeat"
rb --help xyzzy
assert_rc 1 "--help xyzzy: refused as bad arguments"
assert_eq "" "$RB_OUT" "--help xyzzy: nothing on stdout"
assert_match '^rebench: --help xyzzy: no such topic; give one of: all, run, probe' \
	"$RB_ERR" "--help xyzzy: the topics listed"

section "rebench(1)'s OPTIONS is the generated text"
gen=$(sed -n '/^\.\\" BEGIN GENERATED: OPTIONS/,/^\.\\" END GENERATED: OPTIONS/p' "$MAN" | sed '1d;$d')
assert_ne "" "$gen" "man/rebench.1 has the markers and text between them"
rb_ok "--help roff" --help roff
if [ "$gen" = "$RB_OUT" ]; then
	pass "man/rebench.1 between the markers is rebench --help roff"
else
	check_failed "man/rebench.1 between the markers is rebench --help roff" \
		"they differ: run make man ($(diff <(printf '%s\n' "$gen") <(printf '%s\n' "$RB_OUT") | head -5 | tr '\n' ' '))"
fi
plain=$(<<<"$gen" sed 's/\\-/-/g')
missing=
for n in $(printf '%s\n' $table $engine $mode | sort -u); do
	has_word "$plain" "$n" || missing+=" $n"
done
assert_eq "" "$missing" "the generated OPTIONS list every option, engine option and mode word"
if command -v groff >/dev/null; then
	assert_eq "" "$(groff -man -ww -z "$MAN" 2>&1 | head -5)" "man/rebench.1: groff warns of nothing"
fi

section "rebench-modeldev(1)'s MODELS is the generated text"
MDMAN=$TESTS_ROOT/man/rebench-modeldev.1
gen=$(sed -n '/^\.\\" BEGIN GENERATED: MODELS/,/^\.\\" END GENERATED: MODELS/p' "$MDMAN" | sed '1d;$d')
assert_match '^\.BI read= TIME$' "$gen" "man/rebench-modeldev.1 has the markers and the keys between them"
if [ -x "$TESTS_ROOT/rebench-modeldev" ]; then
	out=$("$TESTS_ROOT/rebench-modeldev" --help roff)
	if [ "$gen" = "$out" ]; then
		pass "man/rebench-modeldev.1 between the markers is rebench-modeldev --help roff"
	else
		check_failed "man/rebench-modeldev.1 between the markers is rebench-modeldev --help roff" \
			"they differ: run make man ($(diff <(printf '%s\n' "$gen") <(printf '%s\n' "$out") | head -5 | tr '\n' ' '))"
	fi
	out=$("$TESTS_ROOT/rebench-modeldev" --help)
	assert_match '^  read +100us +time to read a page$' "$out" "rebench-modeldev --help lists the keys with their defaults"
fi
if command -v groff >/dev/null; then
	assert_eq "" "$(groff -man -ww -z "$MDMAN" 2>&1 | head -5)" "man/rebench-modeldev.1: groff warns of nothing"
fi
