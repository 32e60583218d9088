#!/usr/bin/env bash
# test_package.sh - the Debian package (issue 34): make deb builds
# rebench_VERSION_ARCH.deb from a copy of the tree (the tree and its built
# binaries untouched), at the version of src/report/version.h and
# debian/changelog; lintian finds no error or warning in it; installed with
# dpkg --root into a scratch root, its rebench, rebench-modeldev, interposer,
# suites, plots, study scripts, manual pages and bash completion work
# without the clone; dpkg -r removes every file.  REBENCH_DEB=FILE tests
# that .deb instead of building one (make check-package).
# slow: builds the package (about 20 s of CPU)
. "$(dirname "$0")/../lib/common.sh"

require_cmd dpkg-buildpackage dh dpkg-deb dpkg-parsechangelog
require_loop
S=$SCRATCH

section "one version: src/report/version.h and debian/changelog"
V=$(sed -n 's/^#define REBENCH_VERSION "\(.*\)"/\1/p' "$TESTS_ROOT/src/report/version.h")
assert_match '^[0-9]+\.[0-9]+\.[0-9]+$' "$V" "version.h has a version ($V)"
assert_eq "$V" "$(dpkg-parsechangelog -l "$TESTS_ROOT/debian/changelog" -S Version)" \
	"debian/changelog's version is version.h's"
ARCH=$(dpkg --print-architecture)

section "make deb: the package, from a copy of the tree"
if [ -n "${REBENCH_DEB:-}" ]; then
	DEB=$REBENCH_DEB
	log "testing $DEB (REBENCH_DEB), not building one"
else
	(cd "$TESTS_ROOT" && dpkg-checkbuilddeps) >"$S/bdeps" 2>&1 ||
		skip "the package's build dependencies are missing (make deps): $(tail -n 1 "$S/bdeps")"
	tree_state() {
		git -C "$TESTS_ROOT" status --porcelain 2>/dev/null
		stat -c '%n %s %Y' "$TESTS_ROOT"/rebench "$TESTS_ROOT"/librebench-record.so \
			"$TESTS_ROOT"/rebench-modeldev 2>/dev/null
	}
	tree_state >"$S/tree.before"
	# (a make of its own: not make check's jobserver, whose descriptors
	# common.sh closed; the Makefile asks for parallel=CPUs)
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -s -C "$TESTS_ROOT" deb DEB_OUT="$S/deb" >"$S/build.out" 2>&1
	rc=$?
	assert_eq 0 "$rc" "make deb DEB_OUT=... exits 0"
	[ "$rc" = 0 ] || fail "make deb failed" "$(tail -n 20 "$S/build.out")"
	DEB=$S/deb/rebench_${V}_$ARCH.deb
	assert_match "^deb: $S/deb/rebench_${V}_$ARCH\.deb\$" "$(<"$S/build.out")" "make deb says where the .deb is"
	tree_state >"$S/tree.after"
	assert_eq "$(<"$S/tree.before")" "$(<"$S/tree.after")" \
		"the tree is as it was: git status and its built binaries unchanged"
	assert_eq "" "$(ls "$S/deb" | grep -v '^rebench\(-dbgsym\)\?_'"$V"'_'"$ARCH"'\.\(deb\|buildinfo\|changes\)$')" \
		"DEB_OUT holds the package files and nothing else (the copy is removed)"
fi
[ -f "$DEB" ] || fail "no package at $DEB"

section "the package's fields"
f() { dpkg-deb -f "$DEB" "$1"; }
assert_eq "rebench $V $ARCH" "$(f Package) $(f Version) $(f Architecture)" "Package, Version, Architecture"
for lib in libaio1 liburing2 libgsl libfuse3-3; do
	assert_match "(^|, )$lib" "$(f Depends)" "Depends on $lib"
done
assert_match 'gnuplot' "$(f Recommends)" "Recommends gnuplot"
assert_match '(^|, )fio($|,)' "$(f Suggests)" "Suggests fio"

if command -v lintian >/dev/null; then
	section "lintian: no error, no warning that is not overridden"
	lintian "$DEB" >"$S/lintian.out" 2>&1
	assert_eq 0 "$?" "lintian exits 0"
	assert_no_match '^[EW]: ' "$(<"$S/lintian.out")" "lintian reports no error and no warning"
else
	log "lintian is not installed (make deps): its checks are left out"
fi

section "dpkg --root: installed into a scratch root"
R=$S/root
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" && : >"$R/var/lib/dpkg/status"
# the root's dpkg database is empty: the libraries it depends on are the
# machine's (--force-depends), and the log stays in the scratch dir
dpkg() { command dpkg --root="$R" --log="$S/dpkg.log" "$@"; }
dpkg --force-depends -i "$DEB" >"$S/dpkg.out" 2>&1
assert_eq 0 "$?" "dpkg --root -i exits 0"
for p in usr/bin/rebench usr/bin/rebench-modeldev usr/lib/rebench/librebench-record.so \
	usr/share/man/man1/rebench.1.gz usr/share/man/man1/rebench-modeldev.1.gz \
	usr/share/man/man5/rebench-output.5.gz usr/share/bash-completion/completions/rebench \
	usr/share/rebench/plots/latency.gp usr/share/rebench/workloads/quick.suite \
	usr/share/rebench/workloads/model-device.sh usr/share/doc/rebench/copyright; do
	assert_eq yes "$([ -f "$R/$p" ] && echo yes)" "installs /$p"
done
B=$R/usr/bin/rebench

section "the installed binaries run"
assert_eq "rebench $V" "$("$B" --version 2>&1)" "rebench --version says $V"
out=$("$B" --help 2>&1)
assert_eq 0 "$?" "rebench --help exits 0"
assert_match '^Usage: rebench' "$out" "rebench --help prints the usage"
out=$("$R/usr/bin/rebench-modeldev" --help 2>&1)
assert_eq 0 "$?" "rebench-modeldev --help exits 0"
assert_match 'ssd' "$out" "rebench-modeldev --help names the ssd model"

section "a read on a loop device, with the installed binary"
DEV=$(make_loop 16M)
REBENCH=$B
rb -d 100k "$DEV"
assert_rc 0 "rebench -d 100k $DEV exits 0"
assert_match '^Total: 200 I/Os, 102400 bytes' "$RB_OUT" "200 reads of 512 bytes"

section "what it finds beside itself: interposer, suites (plots: REBENCH_PLOTS)"
rm -f "$S/f"
"$B" --record "$S/rec.log" -- dd if=/dev/zero of="$S/f" bs=4k count=4 status=none >"$S/rec.out" 2>&1
assert_eq 0 "$?" "--record finds ../lib/rebench/librebench-record.so from the scratch root"
assert_eq 4 "$(grep -c " write 1 $S/f " "$S/rec.log")" "the recording holds dd's four writes"
rb --suite list
assert_match "^ +$R/usr/share/rebench/workloads/quick\.suite\$" "$RB_OUT" \
	"--suite list finds quick in ../share/rebench/workloads"
# plots are looked up beside the binary, then in /usr/share/rebench/plots
# (the DATADIR it was built for), which a scratch root is not
if command -v gnuplot >/dev/null; then
	REBENCH_PLOTS=$R/usr/share/rebench/plots rb -d 100k -g 0 --output "$S/lat.tsv" --plot "$S/lat.png" "$DEV"
	assert_rc 0 "--plot draws with the installed plots/ (REBENCH_PLOTS)"
	assert_match '^[0-9]+ [0-9]+$' "$(png_size "$S/lat.png")" "the plot is a PNG"
fi

section "the study scripts find the installed rebench, plots and modeldev"
out=$(PATH=$R/usr/bin:$PATH bash -c '. "$1"; unset REBENCH REBENCH_PLOTS
	rebench_locate latency.gp && modeldev_locate && echo "$rebench|$plots|$modeldev"' _ \
	"$R/usr/share/rebench/workloads/lib-locate.sh" 2>&1)
assert_eq "$B|$R/usr/share/rebench/workloads/../plots|$R/usr/bin/rebench-modeldev" "$out" \
	"lib-locate.sh: rebench and rebench-modeldev on the PATH, plots/ beside workloads/"
if [ -c /dev/fuse ]; then
	MD=$R/usr/share/rebench/workloads/model-device.sh
	MDEV=$(PATH=$R/usr/bin:$PATH "$MD" up --size 16m ssd: 2>"$S/md.err")
	assert_eq 0 "$?" "the installed model-device.sh up starts the installed rebench-modeldev"
	if [ -b "$MDEV" ]; then
		printf '%s\t%s\n' "$MDEV" "$(losetup -nO BACK-FILE "$MDEV")" >>"$SCRATCH/.models"
		rb -d 100k "$MDEV"
		assert_rc 0 "rebench reads the model SSD"
		PATH=$R/usr/bin:$PATH "$MD" down "$MDEV"
		assert_eq 0 "$?" "model-device.sh down"
	fi
fi

section "manual pages and bash completion"
for m in man1/rebench.1 man5/rebench-output.5 man1/rebench-modeldev.1; do
	if command -v man >/dev/null; then
		out=$(MANWIDTH=80 man -l "$R/usr/share/man/$m.gz" 2>&1)
		assert_eq 0 "$?" "man -l $m.gz exits 0"
		assert_match "^NAME" "$out" "man -l $m.gz renders its NAME section"
	fi
done
out=$(bash -c '. "$1" && complete -p rebench' _ "$R/usr/share/bash-completion/completions/rebench" 2>&1)
assert_match 'complete .* rebench$' "$out" "the completion file completes rebench"

section "dpkg -r: every file gone"
dpkg -r rebench >"$S/dpkg.out" 2>&1
assert_eq 0 "$?" "dpkg --root -r exits 0"
assert_eq "" "$(find "$R" -mindepth 1 -not -path "$R/var" -not -path "$R/var/lib" -not -path "$R/var/lib/dpkg*")" \
	"nothing of the package is left in the root"
