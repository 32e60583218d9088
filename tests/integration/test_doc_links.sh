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

section "README.md, docs/guide.md, CONTRIBUTING.md and every other *.md"
n=0
for f in README.md docs/guide.md CONTRIBUTING.md; do
	[ -f "$TESTS_ROOT/$f" ] || check_failed "$f is there"
	n=$((n + $(doc_links "$TESTS_ROOT/$f" | wc -l)))
done
assert_num "the three documents have relative links ($n)" "$n >= 20"
dead=$(dead_links "$TESTS_ROOT")
assert_eq "" "$dead" "no dead relative link in any *.md"
