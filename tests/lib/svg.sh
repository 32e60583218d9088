# svg.sh - read a gnuplot SVG back as a reader sees it: its texts, where
# they are, and checks on them.  Source it after common.sh (pass and
# check_failed come from there).

# texts FILE: every text of an SVG, one a line (tspans joined).
texts() {
	python3 - "$1" <<'PY'
import html, re, sys
svg = open(sys.argv[1]).read()
for t in re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S):
    print(html.unescape(re.sub(r"<[^>]+>", "", t)).strip())
PY
}

# text_pos FILE: "X<TAB>Y<TAB>TEXT" for every text of an SVG.
text_pos() {
	python3 - "$1" <<'PY'
import html, re, sys
svg = open(sys.argv[1]).read()
for x, y, t in re.findall(r'<g transform="translate\(([\d.]+),([\d.]+)\)[^"]*"[^>]*>\s*<text[^>]*>(.*?)</text>', svg, re.S):
    print("%s\t%s\t%s" % (x, y, html.unescape(re.sub(r"<[^>]+>", "", t)).strip()))
PY
}

# count_text FILE TEXT: how many texts of the SVG are exactly TEXT.
count_text() { texts "$1" | grep -cxF -- "$2" || true; }

# has_text FILE TEXT WHAT: the SVG has a text that is exactly TEXT.
has_text() {
	if texts "$1" | grep -xF -- "$2" >/dev/null; then
		pass "$3: \"$2\""
	else
		check_failed "$3: \"$2\"" "$(texts "$1" 2>&1 | head -n 40)"
	fi
}

# has_match FILE ERE WHAT: a text of the SVG matches ERE.
has_match() {
	if texts "$1" | grep -E -- "$2" >/dev/null; then
		pass "$3: /$2/"
	else
		check_failed "$3: /$2/" "$(texts "$1" 2>&1 | head -n 40)"
	fi
}

# no_match FILE ERE WHAT: no text of the SVG matches ERE.
no_match() {
	local hit
	hit=$(texts "$1" | grep -E -- "$2" | head -n 3)
	if [ -z "$hit" ]; then
		pass "$3: no /$2/"
	else
		check_failed "$3: no /$2/" "$hit"
	fi
}
