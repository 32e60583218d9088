# shellcheck shell=bash
# lib-units.sh - sizes in the study scripts' plot titles written as the
# reports and the plots' axes write them (about.gpi's iec(), rebench's
# fmt_size_exact): in the largest of KiB, MiB, GiB and TiB that divides
# them exactly, else in bytes.  A size typed as rebench takes it (256m,
# 1g, 4k, 4096: k, m, g, t are powers of 1024) prints as 256 MiB, 1 GiB,
# 4 KiB, 4 KiB; 1536 as 1536 B.

# iec_size SIZE: SIZE as above on stdout; SIZE printed unchanged when it
# is not a size (a title is no place to fail).
iec_size() {
	awk -v s="$1" 'BEGIN {
		if (match(s, /^[0-9]+(\.[0-9]+)?[kKmMgGtT]?[bB]?$/) == 0) { printf "%s", s; exit }
		sub(/[bB]$/, "", s)
		u = tolower(substr(s, length(s)))
		n = s + 0
		if (u == "k") n *= 1024; else if (u == "m") n *= 1024 ^ 2
		else if (u == "g") n *= 1024 ^ 3; else if (u == "t") n *= 1024 ^ 4
		if (n != int(n)) { printf "%s", s; exit }
		split("KiB MiB GiB TiB", name, " ")
		for (k = 4; k >= 1; k--)
			if (n >= 1024 ^ k && n % (1024 ^ k) == 0) { printf "%d %s", n / 1024 ^ k, name[k]; exit }
		printf "%d B", n
	}'
}
