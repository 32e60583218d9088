#!/usr/bin/env bash
# test_doc_links.sh - every relative link in the Markdown documents points
# at a file that exists, and a link with a #fragment at a heading of that
# file (issue 29: the README was split into README.md, docs/guide.md and
# CONTRIBUTING.md, which link into each other by heading).
#
# Links are [text](target) and reference definitions "[name]: target",
# outside code (fenced blocks, lines indented as code, `spans`); a target
# with a scheme (https:, mailto:) is not checked.  A heading's fragment is
# GitHub's: lower case, every character but letters, digits, '_', '-' and
# ' ' dropped, spaces made '-', and -1, -2, ... after a repeated one.
#
# And every program message that sends the reader to a section of the
# manual ("See rebench(1), APPLICATION I/O, Emulate", "see MEMORY in
# rebench(1)", the same for rebench-output(5)) names a section (.SH) the
# page has, and a subsection (.SS) of that section when it names one.
# fast: needs neither root nor a device
. "$(dirname "$0")/../lib/common.sh"

require_cmd awk

# doc_links FILE: "LINE TARGET" per relative link of FILE
doc_links() {
	awk '
	/^ *(```|~~~)/ { fence = !fence; next }
	fence || /^(    |\t)/ { next }
	{
		line = $0
		gsub(/`[^`]*`/, "", line)
		if (match(line, /^ *\[[^]]+\]: *[^ ]+/)) {
			t = substr(line, RSTART, RLENGTH)
			sub(/^[^]]*\]: */, "", t)
			print NR, t
		}
		while (match(line, /\]\([^) ]+( "[^"]*")?\)/)) {
			t = substr(line, RSTART + 2, RLENGTH - 3)
			sub(/ ".*/, "", t)
			line = substr(line, RSTART + RLENGTH)
			print NR, t
		}
	}' "$1" | awk '$2 !~ /^[A-Za-z][A-Za-z0-9+.-]*:/'
}

# doc_anchors FILE: the fragment of every heading of FILE, one a line
doc_anchors() {
	awk '
	/^ *(```|~~~)/ { fence = !fence; next }
	fence || !/^#+ / || /^#######/ { next }
	{
		h = tolower($0)
		sub(/^#+ +/, "", h)
		sub(/ +#+ *$/, "", h)
		gsub(/[^a-z0-9_ -]/, "", h)
		gsub(/ /, "-", h)
		a = h
		if (h in seen)
			a = h "-" seen[h]
		seen[h]++
		print a
	}' "$1"
}

# dead_links ROOT: "FILE:LINE: TARGET: why" for every dead relative link in
# the *.md files under ROOT (none under .git)
dead_links() {
	local root=$1 f line target path frag dir
	find "$root" -name .git -prune -o -name '*.md' -type f -print | sort |
	while IFS= read -r f; do
		dir=$(dirname "$f")
		doc_links "$f" | while read -r line target; do
			path=${target%%#*}
			frag=
			case $target in *'#'*) frag=${target#*#} ;; esac
			if [ -z "$path" ]; then
				path=$f
			else
				path=$dir/$path
			fi
			if [ ! -e "$path" ]; then
				echo "${f#"$root"/}:$line: $target: no such file"
			elif [ -n "$frag" ] && [ "${path%.md}" != "$path" ] &&
			    ! doc_anchors "$path" | grep -qxF -- "$frag"; then
				echo "${f#"$root"/}:$line: $target: no such heading"
			fi
		done
	done
}

# man_refs SRC: "FILE:LINE: PAGE: SECTION[, Subsection]" for each reference
# to a section of rebench(1) or rebench-output(5) in a string of the C
# files under SRC (comments left out: they are not messages)
man_refs() {
	find "$1" -name '*.[ch]' | sort | while IFS= read -r f; do
		awk -v f="$f" '
		{
			line = $0; out = ""
			# the strings of the line, outside comments
			while (line != "") {
				if (incom) {
					if (!(i = index(line, "*/")))
						break
					line = substr(line, i + 2); incom = 0
				} else if (match(line, /\/\*|"([^"\\]|\\.)*"/)) {
					if (substr(line, RSTART, 2) == "/*") {
						line = substr(line, RSTART + 2); incom = 1
					} else {
						out = out substr(line, RSTART + 1, RLENGTH - 2) " "
						line = substr(line, RSTART + RLENGTH)
					}
				} else
					break
			}
			while (match(out, /rebench(\(1\)|-output\(5\)), [A-Z][A-Z\/ ]*[A-Z\/](, [A-Za-z][A-Za-z -]*[a-z])?/)) {
				r = substr(out, RSTART, RLENGTH); out = substr(out, RSTART + RLENGTH)
				page = r; sub(/, .*/, "", page); sub(/^[^,]*, /, "", r)
				print f ":" NR ": " page ": " r
			}
			while (match(out, /[Ss]ee [A-Z][A-Z\/ ]*[A-Z\/] in rebench(\(1\)|-output\(5\))/)) {
				r = substr(out, RSTART + 4, RLENGTH - 4); out = substr(out, RSTART + RLENGTH)
				page = r; sub(/.* in /, "", page); sub(/ in .*/, "", r)
				print f ":" NR ": " page ": " r
			}
		}' "$f"
	done
}

# man_sections PAGE: every "SECTION" (.SH) and "SECTION, Subsection" (.SS)
man_sections() {
	awk '
	/^\.S[HS] / {
		t = $0; sub(/^\.S[HS] +/, "", t); gsub(/"/, "", t)
		gsub(/\\-/, "-", t); gsub(/\\&/, "", t)
		if ($1 == ".SH") { sh = t; print t } else print sh ", " t
	}' "$1"
}

# dead_man_refs SRC MANDIR: each reference of man_refs whose page in
# MANDIR (rebench.1, rebench-output.5) lacks the section, with why
dead_man_refs() {
	local l where page ref file
	man_refs "$1" | while IFS= read -r l; do
		where=${l%%: *}
		page=${l#*: }
		ref=${page#*: }
		page=${page%%: *}
		case $page in
		'rebench(1)') file=$2/rebench.1 ;;
		*) file=$2/rebench-output.5 ;;
		esac
		man_sections "$file" | grep -qxF -- "$ref" ||
			echo "$where: $page has no section \"$ref\""
	done
}

section "the check itself"
# It finds what it is for, in a scratch tree: a missing file, a missing
# heading, a repeated heading's second fragment, and links it must let by.
t=$SCRATCH/docs
mkdir -p "$t/sub" "$t/.git"
cat >"$t/a.md" <<'EOF'
# Top
## It's `--json`: a section
## Twice
## Twice
See [b](sub/b.md#part-one), [twice](#twice-1), [json](#its---json-a-section),
[web](https://example.org/none), [mail](mailto:x@y), [img](sub/pic.png) and
[ref].
`[not a link](nowhere.md)`

    [indented code](nowhere.md)

```
[fenced](nowhere.md)
```
[ref]: sub/b.md
[dead file](sub/none.md) [dead heading](sub/b.md#part-two) [self](#twice-2)
EOF
printf '# B\n## Part one\nBack to [a](../a.md#top).\n' >"$t/sub/b.md"
printf 'x\n' >"$t/sub/pic.png"
printf '[inside .git](none.md)\n' >"$t/.git/c.md"
got=$(dead_links "$t")
want='a.md:16: sub/none.md: no such file
a.md:16: sub/b.md#part-two: no such heading
a.md:16: #twice-2: no such heading'
assert_eq "$want" "$got" "three dead links found, the good ones let by"

# ... and the messages' references to the manual
m=$SCRATCH/man
mkdir -p "$m/src/a" "$m/man"
cat >"$m/src/a/x.c" <<'EOF'
/* a comment is no message: rebench(1), GONE */
	fprintf(stderr, "See rebench(1), APPLICATION I/O, Emulate.\n");
	puts("(see MEMORY in rebench(1)); and rebench-output(5), JSON OUTPUT");
	puts("See rebench(1), FIO SPELLINGS."); /* rebench(1), GONE */
	puts("rebench(1), APPLICATION I/O, Replay; see NOWHERE in rebench-output(5)");
EOF
printf '.TH X 1\n.SH "APPLICATION I/O"\n.SS Emulate\n.SH MEMORY\n.SH OPTIONS\n.SS fio spellings\n.SH FILES\n.SS Replay\n' \
	>"$m/man/rebench.1"
printf '.TH X 5\n.SH JSON OUTPUT\n' >"$m/man/rebench-output.5"
got=$(dead_man_refs "$m/src" "$m/man" | sed "s|^$m/||")
want='src/a/x.c:4: rebench(1) has no section "FIO SPELLINGS"
src/a/x.c:5: rebench(1) has no section "APPLICATION I/O, Replay"
src/a/x.c:5: rebench-output(5) has no section "NOWHERE"'
assert_eq "$want" "$got" "messages naming a missing section or subsection found, the good ones let by"

section "README.md, docs/guide.md, CONTRIBUTING.md and every other *.md"
n=0
for f in README.md docs/guide.md CONTRIBUTING.md; do
	[ -f "$TESTS_ROOT/$f" ] || check_failed "$f is there"
	n=$((n + $(doc_links "$TESTS_ROOT/$f" | wc -l)))
done
assert_num "the three documents have relative links ($n)" "$n >= 20"
dead=$(dead_links "$TESTS_ROOT")
assert_eq "" "$dead" "no dead relative link in any *.md"

section "program messages that send the reader to the manual"
n=$(man_refs "$TESTS_ROOT/src" | wc -l)
assert_num "messages name sections of the manual ($n)" "$n >= 10"
assert_eq "" "$(dead_man_refs "$TESTS_ROOT/src" "$TESTS_ROOT/man" | sed "s|^$TESTS_ROOT/||")" \
	"every section a message names is in rebench(1) or rebench-output(5)"
