# rebench - precision I/O profiler for block devices and files.
#
#   make            build ./rebench, librebench-record.so (--record) and
#                   rebench-modeldev (model devices, when libfuse3-dev is there)
#   make deps       install missing Debian packages (root), or print the line
#   make check      unit tests (ASan + UBSan) and integration tests, JOBS at
#                   a time (default: the CPU count plus one), each under TEST_TIMEOUT s
#   make check-fast the unit tests and the integration tests that need neither
#                   root nor a device (tests/README.md)
#   make crosscheck ops/s and latency against fio, --emulate against a slow
#                   loop device, the time a signal takes to stop a run
#                   (timing: never fails on load)
#   make install    PREFIX=/usr/local DESTDIR= honoured (binary, man pages,
#                   plots, workloads and suites, bash completion)
#   make deb        the Debian package debian/out/rebench_VERSION_ARCH.deb
#   make check-package  make deb, lintian on it, tests/integration/test_package.sh

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man/man1
MAN5DIR ?= $(PREFIX)/share/man/man5
DATADIR ?= $(PREFIX)/share/rebench
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
LIBDIR  ?= $(PREFIX)/lib

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Wshadow -Wno-missing-field-initializers -pthread
# a call to a function no header declared is an error: its int return would
# cut a 64-bit result (a header moved by a reshaping, the unit tests too)
CFLAGS  += -Werror=implicit-function-declaration
CPPFLAGS += -D_GNU_SOURCE -DREBENCH_DATADIR='"$(DATADIR)"'
CPPFLAGS += -DREBENCH_LIBDIR='"$(LIBDIR)/rebench"'
LDLIBS  += -pthread -lgsl -lgslcblas -lm

# Optional libraries: each removes one engine (or --verify xxh64) when
# missing, never the build.
# scripts/config.sh decides them once per make into src/config.h (HAVE_LIBAIO,
# HAVE_LIBURING and the libraries to link), rewriting it only when it
# changes; a command-line WITH_LIBURING=no, WITH_LIBAIO=no or
# WITH_LIBXXHASH=no still wins.
# It runs when the build does, not when make reads this file, so that
# `make deps check` compiles after deps has installed the libraries.
CONFIG := src/config.h
CONFIG_LIBS = $(shell sed -n 's/^\#define REBENCH_CONFIG_LIBS "\(.*\)"/\1/p' $(CONFIG))
ENGINES = stateful stateless mmap paio $(if $(findstring -laio,$(CONFIG_LIBS)),naio) \
	$(if $(findstring -luring,$(CONFIG_LIBS)),uring)
LDLIBS += -lrt

# Sources by layer (CONTRIBUTING.md, Source layout): src/LAYER/*.c.  Everything but
# main.c is built once into librebench.a, which the binary, the benches
# and (built again with sanitizers) the unit tests link.
CPPFLAGS += -Isrc
SRCS := $(wildcard src/*/*.c)
OBJS := $(SRCS:.c=.o)
MAIN_OBJ := src/cli/main.o
LIB_OBJS := $(filter-out $(MAIN_OBJ),$(OBJS))

# Debian packages: build, tests, plots, cross-checks and benchmarks.  Tests
# install nothing: what one needs is here (openssh-server: test_hosts' fake
# hosts; valgrind: make bench's instructions per I/O).
DEPS := build-essential libgsl-dev liburing-dev libaio-dev libcmocka-dev \
	gnuplot-nox fio jq util-linux fdisk e2fsprogs pkg-config time \
	sqlite3 strace openssh-server openssh-client procps python3 libfuse3-dev groff-base \
	debhelper lintian valgrind libxxhash-dev

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=tests/unit/bin/%)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LIB_SRCS := $(filter-out $(MAIN_OBJ:.o=.c),$(SRCS))
SAN_OBJS := $(LIB_SRCS:src/%.c=tests/unit/obj/%.o)
SAN_LIB := tests/unit/librebench-san.a
# -O0 -g1: the unit programs' build is a minute of make check's CPU, their
# run a quarter of that; -O1 -g made the build 69 s of CPU and the run 14,
# -O0 -g1 48 and 19 (and the sanitizers' reports keep their lines).
SAN_CFLAGS = $(CPPFLAGS) -std=gnu11 -O0 -g1 -Wall -Wextra -Werror=implicit-function-declaration \
	-Wno-missing-field-initializers -pthread $(SAN_FLAGS)

.PHONY: FORCE all deps check check-fast unit integration install uninstall clean demo bench crosscheck \
	deb check-package

all: rebench librebench-record.so rebench-modeldev

$(CONFIG): FORCE
	@CC='$(CC)' WITH_LIBAIO='$(WITH_LIBAIO)' WITH_LIBURING='$(WITH_LIBURING)' WITH_LIBXXHASH='$(WITH_LIBXXHASH)' \
		sh scripts/config.sh $@
FORCE:

librebench.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

rebench: $(MAIN_OBJ) librebench.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(MAIN_OBJ) librebench.a $(LDLIBS) $(CONFIG_LIBS)
	@echo "rebench: engines built: $(ENGINES)$(if $(findstring -laio,$(CONFIG_LIBS)),, (naio needs libaio-dev))$(if $(findstring -luring,$(CONFIG_LIBS)),, (uring needs liburing-dev))"

# The interposer of --record (rebench(1), APPLICATION I/O): a shared object
# of its own that links nothing of rebench.
# delay.c (its waits, --delay) is built into both.
librebench-record.so: $(wildcard src/trace/preload/*.c) src/core/delay.c src/trace/preload/preload.h src/trace/trace_calls.h src/core/delay.h src/engines/iokind.h
	$(CC) $(CPPFLAGS) -U_FORTIFY_SOURCE $(CFLAGS) $(LDFLAGS) -fPIC -shared -fvisibility=hidden -o $@ $(filter %.c,$^) -ldl

# The model device's daemon (tools/modeldev, rebench-modeldev(1)): a FUSE
# file system, so it needs libfuse3; without it nothing else is missing, and
# make says so instead of failing (make deps installs it).  It shares
# rebench's calibrated waits and unit parser.
MODELDEV_SRCS := $(wildcard tools/modeldev/*.c) src/core/delay.c src/core/units.c
rebench-modeldev: $(MODELDEV_SRCS) tools/modeldev/model.h src/core/delay.h src/core/units.h
	@if pkg-config --exists fuse3; then \
		echo "$(CC) ... -o $@ $(MODELDEV_SRCS) -lfuse3"; \
		$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $$(pkg-config --cflags fuse3) -o $@ \
			$(MODELDEV_SRCS) $$(pkg-config --libs fuse3) -lm; \
	else \
		echo "rebench-modeldev: not built: it needs libfuse3-dev (make deps); workloads/model-device.sh cannot run without it"; \
	fi

# Programs the integration tests run (under --record).
tests/progs/%: tests/progs/%.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< -pthread

# Each object depends on the headers it includes, as the compiler lists
# them (-MMD into OBJ.d, -MP: a deleted header is no error): a header edit
# rebuilds only what includes it.  An object without its .d (a tree built
# before the lists) is rebuilt once to get one.
DEPFLAGS = -MMD -MP
DEPFILES := $(OBJS:.o=.d) $(SAN_OBJS:.o=.d) $(UNIT_BINS:=.d)
$(DEPFILES):

$(OBJS): %.o: %.c %.d | $(CONFIG)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(CFLAGS) -c -o $@ $<

deps:
	@missing=""; for p in $(DEPS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all installed"; \
	elif [ "$$(id -u)" = 0 ]; then \
		echo "deps: installing$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else echo "deps: missing packages; run: sudo apt-get install -y$$missing"; exit 1; fi

# Unit tests link the library built with sanitizers: each source compiled
# once into tests/unit/obj (compiling every source for every test took
# most of make check's first ten minutes).
# (kept: not intermediates for make to delete after the link)
.SECONDARY: $(SAN_OBJS)
$(SAN_OBJS): tests/unit/obj/%.o: src/%.c tests/unit/obj/%.d | $(CONFIG)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(SAN_LIB): $(SAN_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(UNIT_BINS): tests/unit/bin/%: tests/unit/%.c $(SAN_LIB) tests/unit/bin/%.d
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) $(DEPFLAGS) -MF $@.d -MT $@ -o $@ $< $(SAN_LIB) -lcmocka $(LDLIBS) $(CONFIG_LIBS)

unit: $(UNIT_BINS)

# The tiers (tests/README.md): a script with a line "# fast" needs neither
# root nor a device; one with "# serial" runs alone after the others.
TEST_PROGS := tests/progs/record_calls tests/progs/record_random tests/progs/record_dup2
FAST_TESTS = $(shell grep -lE '^\# fast(:|$$)' tests/integration/*.sh)

# The long scripts first, the short unit programs filling in after them.
# What the scripts run is built JOBS at a time, after make deps when both
# are asked; the sanitizer build of the unit programs (a minute of CPU) is
# the first job of the run, beside the scripts, so that no core waits on
# it alone.  (JOBS: the CPU count plus one, as tests/run-tests.sh.)
CHECK_JOBS = $(or $(JOBS),$(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 ))))
CHECK_BUILD = rebench librebench-record.so rebench-modeldev $(TEST_PROGS)
CHECK_RUN = JOBS='$(CHECK_JOBS)' tests/run-tests.sh --build '$(MAKE) -j$(CHECK_JOBS) unit'

check:
	@$(MAKE) -j$(CHECK_JOBS) $(CHECK_BUILD)
	@$(CHECK_RUN) tests/integration/*.sh $(UNIT_BINS)

check-fast:
	@$(MAKE) -j$(CHECK_JOBS) $(CHECK_BUILD)
	@$(CHECK_RUN) $(FAST_TESTS) $(UNIT_BINS)

# rebench(1)'s OPTIONS between its markers, from the option table
# (rebench --help roff); tests/integration/test_help.sh fails when they
# differ.
.PHONY: man
man: rebench rebench-modeldev
	./rebench --help roff >man/.options.roff
	awk '/^\.\\" END GENERATED: OPTIONS/ { skip = 0 } !skip; \
	     /^\.\\" BEGIN GENERATED: OPTIONS/ { while ((getline l <"man/.options.roff") > 0) print l; skip = 1 }' \
		man/rebench.1 >man/.rebench.1.new
	rm -f man/.options.roff
	mv man/.rebench.1.new man/rebench.1
	if [ -x rebench-modeldev ]; then \
		./rebench-modeldev --help roff >man/.models.roff && \
		awk '/^\.\\" END GENERATED: MODELS/ { skip = 0 } !skip; \
		     /^\.\\" BEGIN GENERATED: MODELS/ { while ((getline l <"man/.models.roff") > 0) print l; skip = 1 }' \
			man/rebench-modeldev.1 >man/.rebench-modeldev.1.new && \
		mv man/.rebench-modeldev.1.new man/rebench-modeldev.1; \
		rm -f man/.models.roff; \
	fi

install: rebench librebench-record.so rebench-modeldev
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(MAN5DIR) \
		$(DESTDIR)$(DATADIR)/plots $(DESTDIR)$(DATADIR)/workloads \
		$(DESTDIR)$(COMPLETIONDIR)
	install -m 755 rebench $(DESTDIR)$(BINDIR)/rebench
	if [ -f rebench-modeldev ]; then install -m 755 rebench-modeldev $(DESTDIR)$(BINDIR)/rebench-modeldev; fi
	install -D -m 755 librebench-record.so $(DESTDIR)$(LIBDIR)/rebench/librebench-record.so
	install -m 644 man/rebench.1 $(DESTDIR)$(MANDIR)/rebench.1
	install -m 644 man/rebench-output.5 $(DESTDIR)$(MAN5DIR)/rebench-output.5
	install -m 644 man/rebench-modeldev.1 $(DESTDIR)$(MANDIR)/rebench-modeldev.1
	install -m 644 plots/* $(DESTDIR)$(DATADIR)/plots/
	cp -R workloads/. $(DESTDIR)$(DATADIR)/workloads/
	install -m 644 completion/rebench.bash $(DESTDIR)$(COMPLETIONDIR)/rebench

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/rebench $(DESTDIR)$(BINDIR)/rebench-modeldev $(DESTDIR)$(MANDIR)/rebench.1 \
		$(DESTDIR)$(MANDIR)/rebench-modeldev.1 \
		$(DESTDIR)$(MAN5DIR)/rebench-output.5 \
		$(DESTDIR)$(COMPLETIONDIR)/rebench
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(LIBDIR)/rebench

clean:
	rm -f rebench rebench-modeldev $(OBJS) $(OBJS:.o=.d) librebench.a $(CONFIG) librebench-record.so tests/progs/record_calls \
		tests/progs/record_random tests/progs/record_dup2
	rm -rf tests/unit/bin tests/unit/obj $(SAN_LIB)
	rm -f bench/bareloop bench/distbench bench/clockbench bench/digestbench

# The Debian package (debian/): dpkg-buildpackage -us -uc -b in a copy of
# the tree's sources (git ls-files: tracked and new files, none of the
# built ones) in DEB_OUT/src, so that the tree's ./rebench and objects are
# left as they are; rebench_VERSION_ARCH.deb lands in DEB_OUT (debian/out,
# which git ignores).  debian/rules refuses a debian/changelog whose version
# is not src/report/version.h's.  check-package: lintian on the build and
# on a source package made beside it (no error, no warning that
# debian/*lintian-overrides does not explain), then test_package.sh
# installs that .deb in a scratch root and runs it.
DEB_OUT ?= debian/out
VERSION := $(shell sed -n 's/^\#define REBENCH_VERSION "\(.*\)"/\1/p' src/report/version.h)
DEB_ARCH = $(shell dpkg --print-architecture)
DEB_BASE = $(DEB_OUT)/rebench_$(VERSION)_$(DEB_ARCH)
DEB_PARALLEL = $(if $(findstring parallel=,$(DEB_BUILD_OPTIONS)),,parallel=$(shell nproc 2>/dev/null || echo 1))

# $(call deb_copy,DIR): the tree's sources into DIR, afresh
define deb_copy
	@[ -n "$(strip $(DEB_OUT))" ] || { echo "deb: DEB_OUT is empty"; exit 1; }
	rm -rf $(1)
	mkdir -p $(1)
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		git ls-files -z -co --exclude-standard | \
			tar -c --null -T - --ignore-failed-read -f -; \
	else tar -c --exclude=./debian/out -f - .; fi | tar -x -C $(1)
endef

deb:
	@command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null || \
		{ echo "deb: needs dpkg-dev and debhelper (make deps)"; exit 1; }
	$(call deb_copy,$(DEB_OUT)/src)
	cd $(DEB_OUT)/src && DEB_BUILD_OPTIONS="$(DEB_PARALLEL) $(DEB_BUILD_OPTIONS)" \
		dpkg-buildpackage -us -uc -b
	rm -rf $(DEB_OUT)/src
	@echo "deb: $(DEB_BASE).deb"

check-package: deb
	$(call deb_copy,$(DEB_OUT)/rebench-$(VERSION))
	cd $(DEB_OUT) && dpkg-source -b rebench-$(VERSION)
	rm -rf $(DEB_OUT)/rebench-$(VERSION)
	lintian --fail-on error,warning $(DEB_BASE).changes $(DEB_OUT)/rebench_$(VERSION).dsc
	REBENCH_DEB=$(abspath $(DEB_BASE).deb) tests/run-tests.sh tests/integration/test_package.sh

# Is rebench ever the bottleneck?  Ratios against fio and a bare loop.
bench/bareloop: bench/bareloop.c src/gen/prng.h $(CONFIG)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(CONFIG_LIBS)

bench/distbench: bench/distbench.c librebench.a
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< librebench.a $(LDLIBS) $(CONFIG_LIBS)

# What --verify's checksums cost a 4 KiB block (bench/digestbench.c).
bench/digestbench: bench/digestbench.c librebench.a
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< librebench.a $(LDLIBS) $(CONFIG_LIBS)

# clock_gettime against a calibrated TSC (bench/clockbench.c says why).
bench/clockbench: bench/clockbench.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< -pthread

bench: rebench librebench-record.so rebench-modeldev bench/bareloop bench/distbench bench/clockbench bench/digestbench
	bench/run.sh
	bash bench/instructions.sh
	bench/digestbench
	bash bench/modeldev.sh
	bash bench/crosscheck.sh
	bash bench/emulate.sh
	bash bench/stop_times.sh

# Timing against fio: prints a table, flags disagreements, never fails on
# load (the exact agreements are in make check: test_fio_exact.sh).
crosscheck: rebench librebench-record.so
	bash bench/crosscheck.sh
	bash bench/emulate.sh
	bash bench/stop_times.sh

# A demonstration on a scratch loop device (root).
demo: rebench
	scripts/demo.sh

-include $(wildcard $(DEPFILES))
