#!/bin/sh
# layers.sh [SRC] - check the include rule of the source tree
# (CONTRIBUTING.md, Source layout).  Each folder of src is a layer, ranked:
#   5 cli   4 study trace hosts advise characterize   3 report stats
#   2 core target gen   1 engines
# An include goes to a lower rank or within its rank, never up.  A module
# is X.c with its X.h; no chain of includes leads from a module back to
# itself (an include circle).  Prints each violation, then a summary line
# "layers: N upward, N circles"; exits 1 when there is any
# (tests/integration/test_layers.sh holds the known ones to a list that
# may only shrink).
# src/config.h (generated, no layer) may be included from anywhere.
src=${1:-src}
cd "$src" || exit 2
out=$(find . -name '*.[ch]' | sed 's|^\./||' | sort |
while read -r f; do
	grep -h '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		sed -e 's/^[^"]*"//' -e 's/".*//' |
		while read -r inc; do printf '%s %s\n' "$f" "$inc"; done
done | awk '
function layer(p) { sub(/\/.*/, "", p); return p }
function rank(l) {
	if (l == "cli") return 5
	if (l == "study" || l == "trace" || l == "hosts" || l == "advise" ||
	    l == "characterize") return 4
	if (l == "report" || l == "stats") return 3
	if (l == "core" || l == "target" || l == "gen") return 2
	if (l == "engines") return 1
	return -1
}
function module(p) { sub(/\.[ch]$/, "", p); return p }
{
	from = $1; to = $2
	if (to == "config.h") next
	# an include relative to the file (trace/preload: "preload.h") or from src
	if (index(to, "/") == 0) { d = from; sub(/[^\/]*$/, "", d); to = d to }
	rf = rank(layer(from)); rt = rank(layer(to))
	if (rf < 0 || rt < 0) { printf "unknown layer: %s includes %s\n", from, to; bad++ }
	else if (rt > rf) {
		printf "upward: %s (%s) includes %s (%s)\n", from, layer(from), to, layer(to)
		up++
	}
	a = module(from); b = module(to)
	if (a != b && !((a SUBSEP b) in edge)) { edge[a, b] = 1; out[a] = out[a] " " b }
	mods[a] = 1; mods[b] = 1
}
END {
	# a circle: two modules each reachable from the other
	for (m in mods) {
		delete seen; n = 0; q[n++] = m
		for (i = 0; i < n; i++) {
			k = split(out[q[i]], nx, " ")
			for (j = 1; j <= k; j++)
				if (!(nx[j] in seen)) { seen[nx[j]] = 1; q[n++] = nx[j] }
		}
		for (r in seen) reach[m, r] = 1
	}
	for (m in mods) {
		if (m in done) continue
		c = m
		for (r in mods)
			if (r != m && ((m SUBSEP r) in reach) && ((r SUBSEP m) in reach)) {
				c = c " " r; done[r] = 1
			}
		if (c != m) { print "circle: " c; circ++ }
	}
	printf "~layers: %d upward, %d circles\n", up, circ
	exit (up + circ + bad > 0)
}' | while read -r kind rest; do
	# one line a violation, sorted, the members of a circle too
	case $kind in
	circle:) printf 'circle: %s\n' "$(printf '%s\n' $rest | sort | tr '\n' ' ' | sed 's/ $//; s/ / <-> /g')" ;;
	*) printf '%s %s\n' "$kind" "$rest" ;;
	esac
done | sort | sed 's/^~//')
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q '^layers: 0 upward, 0 circles$'

