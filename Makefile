# gamepart: top-level build.  `make help` lists the targets.
#
# Build products go to build/ (ignored by git).  Slow products (kernels, the
# Wine prefix) are also kept in a cache folder outside the clone, keyed by a
# hash of their inputs: $GAMEPART_CACHE, else $XDG_CACHE_HOME/gamepart, else
# ~/.cache/gamepart.

SHELL := /bin/bash
# The system's programs come first: make deps installs them and the guests
# run them.  A shim that a user's PATH puts before them (pyenv's python3
# costs half a second of CPU a start, /usr/bin/python3 a twentieth) would
# stand in for them in every test and every vmrun.
export PATH := /usr/sbin:/usr/bin:/sbin:/bin:$(PATH)
BUILD := build
TESTS := game-layout-tests
MINGW_CC := x86_64-w64-mingw32-gcc
# A guest keeps about one host core busy under TCG (make check: 554 s of
# CPU in 300 s with two at once): run as many test files at once as there
# are cores.  Tests share only read-only build products.
PROVE_JOBS ?= $(shell nproc)
# Each file runs through rig/run-test, which, given $GAMEPART_TIMES,
# keeps its time, its TAP and its guests' boot and test seconds there;
# scripts/test-times makes build/report/test-times.md of them.
PROVE_ONE := prove --exec $(TESTS)/rig/run-test --timer
PROVE := $(PROVE_ONE) -j$(PROVE_JOBS)
# $(call longest_first,FILES): FILES, the longest first by the times of
# the runs before (rig/run-test keeps them in $(DURATIONS)), so that
# prove's slots end together rather than one waiting on a long file
# started last.  Only the order changes (not prove's --state, which
# would also run every file its state remembers).
DURATIONS := $(CURDIR)/$(BUILD)/report/durations
longest_first = $(PROVE) $$(scripts/longest-first $(DURATIONS) $(1))
TIMES := $(BUILD)/report/times
# The guest tests' vmrun calls go to booted guests that stay up
# (rig/vmpool) rather than booting one each.  A test file alternates
# kernels (stock, then patched; check-full's third pass has four), so
# the pool keeps up to a guest of each kernel for each of prove's slots;
# one idle for a minute is stopped (its timer ticks cost CPU under TCG).
POOL_GUESTS ?= $(shell echo $$(($(PROVE_JOBS) * 4)))
POOLED := $(TESTS)/rig/vmpool --guests $(POOL_GUESTS) --
# $(call timed,PHASE): the environment of a timed phase of a run.
timed = GAMEPART_TIMES=$(CURDIR)/$(TIMES)/$(1) GAMEPART_DURATIONS=$(DURATIONS)
# After a phase that failed, the table so far, then the failure.
times_then_fail = || { scripts/test-times $(TIMES); exit 1; }

.PHONY: list-tests help deps deps-tool kernel kernels kernels-debug kernels-distro \
	e2fsprogs fstests unicode-tables wine-prefix windows-progs \
	progs guest tool tool-asan tool-series install install-bin install-units deb sysext demo check check-host check-guest \
	check-full check-fstests e2fsprogs-deb bench bench-check bench-encodings bench-kernel bench-convert bench-e2fsck bench-plan kernel-series-check e2fsprogs-series-check e2fsprogs-upstream-check e2fsprogs-debian-check clean

help:
	@echo 'make demo        provision a casefold image, boot the patched kernel, show it'
	@echo 'make check       every host and guest test, TAP summary (installs deps)'
	@echo 'make check-full  check, plus the debug kernel and the heavy tests'
	@echo 'make check-fstests  upstream'"'"'s fstests on the stock and the patched kernel (groups casefold, rename, whiteout, dir)'
	@echo 'make list-tests  the test files of each group (quick, guest, slow, full, asan, fstests)'
	@echo 'make bench       Wine and native lookups, +F against case-sensitive, patched against stock: build/report/'
	@echo 'make bench-check time gamepart check against a bare walk, offline and online'
	@echo 'make bench-encodings  the same on the patched kernels, in each encoding of the series'
	@echo 'make bench-kernel  lookups in plain and +F directories, stock against patched kernel'
	@echo 'make bench-convert gamepart convert of 100,000 files against mv and cp -a'
	@echo 'make bench-plan  planning a migration of 10^4 and 10^5 names (convert, import), against BASE'"'"'s gamepart'
	@echo 'make bench-e2fsck  e2fsck of 10^6 casefolded entries (indexed, small directories) and a repair of 10^5, stock against patched e2fsprogs'
	@echo 'make kernel-series-check  every prefix of the series builds, checkpatch --strict clean'
	@echo 'make e2fsprogs-series-check  every prefix of the e2fsprogs series builds and passes its test suite'
	@echo 'make e2fsprogs-upstream-check UPSTREAM=DIR  the series'"'"' first patches on upstream e2fsprogs (a clone in DIR)'
	@echo 'make e2fsprogs-debian-check  whether Debian has an e2fsprogs update the series must be rebased on'
	@echo 'make deps        install the build and test dependencies with apt'
	@echo 'make deps-tool   install only what make tool and make install need'
	@echo 'make tool        build/bin/gamepart (make tool-asan: build/asan/gamepart)'
	@echo 'make tool-series build/series/gamepart: linked with the e2fsprogs series'"'"' libext2fs, folds its encodings'
	@echo '                 (ASan/UBSan; build/series/plain/gamepart without them)'
	@echo 'make deb         build/deb/gamepart.deb: the Debian package, lintian-clean'
	@echo 'make sysext      build/sysext/gamepart.raw: a systemd-sysext image, for a read-only /usr'
	@echo 'make install     gamepart, its man pages, udev rule and units under $$(DESTDIR)$$(PREFIX)'
	@echo 'make kernel-NAME build/kernel-NAME/bzImage: a kernel of kernel-patches/kernels (6.1-patched, ...)'
	@echo 'make kernels     the kernels every guest test boots ($(TEST_KERNELS))'
	@echo 'make kernels-debug kernels-distro  the debug ($(DEBUG_KERNELS)) and distribution-like ($(DISTRO_KERNELS)) ones'
	@echo 'make kernel      build/kernel-$(DEFAULT_KERNEL): the one the demo boots'
	@echo 'make unicode-tables  build/unicode: fs/unicode'"'"'s tables made again by the series'"'"' generator, each profile'
	@echo 'make e2fsprogs   build/e2fsprogs/sbin: Debian'"'"'s e2fsprogs + e2fsprogs-patches/series, its test suite passed'
	@echo 'make e2fsprogs-deb  build/e2fsprogs-deb: the same as Debian packages (+gamepart<date>), for a system to install'
	@echo 'make fstests     build/fstests: fstests from ../shared/fstests + fstests-patches/series (make check-full runs it)'
	@echo 'make clean       remove build/ (the cache folder is kept)'

deps:
	@scripts/install-deps all

# What building and installing the tool and the units needs, and no more.
deps-tool:
	@scripts/install-deps tool

# The guest kernels are the rows of kernel-patches/kernels, by class:
# "test" (every guest test), "debug" (check-full's second pass),
# "distro" (configured as distributions ship them: check-full, bench).
# make kernel-NAME builds one; each asks the build script, which answers
# from the cache when nothing it depends on has changed.
kernels_of = $(shell . scripts/lib.sh && kernels_of $(1))
TEST_KERNELS := $(call kernels_of,test)
DEBUG_KERNELS := $(call kernels_of,debug)
DISTRO_KERNELS := $(call kernels_of,distro)
DEFAULT_KERNEL := $(shell . scripts/lib.sh && default_kernel)

kernel-%: deps
	@scripts/build-kernel $* $(BUILD)/kernel-$*

# The patched kernel of the demo and the one-kernel benchmarks.
kernel: kernel-$(DEFAULT_KERNEL)
kernels: $(addprefix kernel-,$(TEST_KERNELS))
kernels-debug: $(addprefix kernel-,$(DEBUG_KERNELS))
kernels-distro: $(addprefix kernel-,$(DISTRO_KERNELS))

# Debian's e2fsprogs source with e2fsprogs-patches/series, built only
# once its own test suite passes.  Tests call these programs by their
# path; the system's e2fsprogs stays the one on PATH.
e2fsprogs: deps
	@scripts/build-e2fsprogs $(BUILD)/e2fsprogs

# The same as Debian packages (e2fsprogs, libext2fs2, ...), for a system
# to install; after make e2fsprogs, whose test suite run they rely on.
e2fsprogs-deb: e2fsprogs
	@scripts/build-e2fsprogs-deb $(BUILD)/e2fsprogs-deb

# fstests (xfstests), the unmodified copy in ../shared/fstests with
# fstests-patches/series applied, built and cached by a hash of every
# input: build/fstests, whose ./check the guest test
# tests/kernel/fstests-casefold.t runs (make check-full).
fstests: deps
	@scripts/build-fstests $(BUILD)/fstests

# fs/unicode's tables made again from Debian's Unicode data by the
# series' mkutf8data, one per profile, and a reader of each (seconds:
# made again whenever the series or the reader changes).
UNICODE_INPUTS := scripts/build-unicode-tables kernel-patches/series $(wildcard kernel-patches/*.patch) \
	$(wildcard $(TESTS)/unicode/*.c $(TESTS)/unicode/shim/linux/*.h)
$(BUILD)/unicode/utf8-dump-shipped: $(UNICODE_INPUTS)
	@scripts/build-unicode-tables $(BUILD)/unicode

unicode-tables: deps
	@$(MAKE) --no-print-directory $(BUILD)/unicode/utf8-dump-shipped

wine-prefix: deps
	@scripts/build-wine-prefix $(BUILD)/wine/prefix

# Windows programs the Wine tests and benches run, cross-built with mingw-w64.
WINDOWS_SRC := $(wildcard $(TESTS)/windows/*.c)
WINDOWS_EXE := $(patsubst $(TESTS)/windows/%.c,$(BUILD)/wine/bin/%.exe,$(WINDOWS_SRC))

$(BUILD)/wine/bin/%.exe: $(TESTS)/windows/%.c
	@mkdir -p $(@D)
	$(MINGW_CC) -municode -O2 -Wall -Wextra -Werror -o $@ $<

windows-progs: deps
	@$(MAKE) --no-print-directory $(WINDOWS_EXE)

# Small C programs the guest tests run (stress, open by handle, renameat2,
# lookup timing, a tree's manifest, a wait on systemd's jobs), built for
# the host, which is the guest's root.
PROGS_SRC := $(wildcard $(TESTS)/progs/*.c)
PROGS_BIN := $(patsubst $(TESTS)/progs/%.c,$(BUILD)/progs/%,$(PROGS_SRC))

$(BUILD)/progs/%: $(TESTS)/progs/%.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -o $@ $< $(PROG_LIBS)

$(BUILD)/progs/tree-manifest: PROG_LIBS := -lcrypto
$(BUILD)/progs/wait-for-jobs: PROG_LIBS := -lsystemd

progs: deps
	@$(MAKE) --no-print-directory $(PROGS_BIN)

PREFIX ?= /usr/local
DESTDIR ?=

tool: deps-tool
	@$(MAKE) --no-print-directory -C partition-tool O=$(CURDIR)/$(BUILD)/bin

tool-asan: deps-tool
	@$(MAKE) --no-print-directory -C partition-tool O=$(CURDIR)/$(BUILD)/asan SANITIZE=1

# gamepart linked with the libext2fs of e2fsprogs-patches (statically):
# what a system whose e2fsprogs carries the series runs.  It folds the
# encodings the series adds, which the system's libext2fs cannot; their
# tests use it, under ASan and UBSan, and the units' test of provisioning
# in those encodings runs the plain build (series/plain), as a system
# would, since LeakSanitizer's ptrace is not in the units' system calls.
tool-series: deps-tool e2fsprogs
	@$(MAKE) --no-print-directory -C partition-tool O=$(CURDIR)/$(BUILD)/series SANITIZE=1 \
		E2FSPROGS=$(CURDIR)/$(BUILD)/e2fsprogs
	@$(MAKE) --no-print-directory -C partition-tool O=$(CURDIR)/$(BUILD)/series/plain \
		E2FSPROGS=$(CURDIR)/$(BUILD)/e2fsprogs

SYSCONFDIR ?= /etc
LIBEXECDIR ?= $(PREFIX)/lib/gamepart
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
UNITS := systemd-units
UNIT_HELPERS := config.sh gamepart-udev-match gamepart-mount gamepart-provision gamepart-report \
	gamepart-library
subst_paths = sed -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
	-e 's|@SBINDIR@|$(PREFIX)/sbin|g'

install: tool install-bin install-units

# The gamepart that make tool built (into $(BUILD)/bin) and its man page;
# debian/rules builds it itself and calls this and install-units.
install-bin:
	install -D -m 755 $(BUILD)/bin/gamepart $(DESTDIR)$(PREFIX)/sbin/gamepart
	install -D -m 644 partition-tool/gamepart.8 $(DESTDIR)$(PREFIX)/share/man/man8/gamepart.8

# The udev rule, the units, their helpers, configuration and man page.
install-units:
	install -D -m 644 $(UNITS)/gamepart.conf.5 $(DESTDIR)$(PREFIX)/share/man/man5/gamepart.conf.5
	install -d $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(SYSTEMDUNITDIR)
	for f in $(UNIT_HELPERS); do \
		$(subst_paths) $(UNITS)/libexec/$$f >$(DESTDIR)$(LIBEXECDIR)/$$f && \
		chmod 755 $(DESTDIR)$(LIBEXECDIR)/$$f || exit 1; \
	done
	chmod 644 $(DESTDIR)$(LIBEXECDIR)/config.sh
	$(subst_paths) $(UNITS)/61-gamepart.rules.in >$(DESTDIR)$(UDEVRULESDIR)/61-gamepart.rules
	for u in gamepart-mount@.service gamepart-provision@.service gamepart-report.service \
		gamepart-library@.service; do \
		$(subst_paths) $(UNITS)/$$u.in >$(DESTDIR)$(SYSTEMDUNITDIR)/$$u || exit 1; \
	done
	install -m 644 $(UNITS)/gamepart-report.timer $(DESTDIR)$(SYSTEMDUNITDIR)/
	@# The configuration is the administrator's once installed.
	test -e $(DESTDIR)$(SYSCONFDIR)/gamepart.conf || \
		install -D -m 644 $(UNITS)/gamepart.conf $(DESTDIR)$(SYSCONFDIR)/gamepart.conf
	@echo 'then: systemctl daemon-reload; udevadm control --reload;' \
		'and for the weekly report: systemctl enable --now gamepart-report.timer'

# The Debian package of the tree (debian/), lintian-clean: build/deb/gamepart.deb.
deb: deps
	@scripts/build-deb $(BUILD)/deb

# The systemd-sysext image, for a read-only /usr: build/sysext/gamepart.raw
# (squashfs) and build/sysext/gamepart/ (the same, a directory).
sysext: deps tool
	@scripts/build-sysext $(BUILD)/sysext

# Everything a guest test may use.
guest: kernels wine-prefix windows-progs progs \
	tool tool-asan tool-series e2fsprogs unicode-tables deb sysext

demo: kernel tool wine-prefix windows-progs
	@$(TESTS)/demo/demo

# Test files live by subject in $(TESTS)/tests/<subject>/ and each names
# its groups on a "# groups:" line near its top (see $(TESTS)/README.md):
#   quick  runs on the host alone, in seconds
#   guest  boots guests
#   slow   a guest test of minutes, started first, so that prove's slots
#          end together instead of one long test running alone at the end
#   full   heavy: make check-full only
#   asan   runs the gamepart under test: make check gives it the
#          ASan/UBSan build (make check-full also valgrind, if quick)
#   fstests  upstream's fstests in guests: make check-fstests (those
#          also in full, check-full too)
TEST_FILES := $(sort $(wildcard $(TESTS)/tests/*/*.t))
# $(call group,NAME): the test files in group NAME.
group = $(shell . scripts/lib.sh && files_in_group $(1) $(TEST_FILES))
FULL_TESTS := $(call group,full)
QUICK_TESTS := $(call group,quick)
ASAN_TESTS := $(filter-out $(FULL_TESTS),$(call group,asan))
SLOW_TESTS := $(filter-out $(FULL_TESTS),$(call group,slow))
GUEST_TESTS := $(SLOW_TESTS) $(filter-out $(FULL_TESTS) $(SLOW_TESTS),$(call group,guest))
# The guest tests whose "# kernels:" line asks for each kernel of a run,
# or each patched one (kernels_for_test in scripts/lib.sh): those that
# the debug kernels run again.  "=", so that only check-full runs grep.
PER_KERNEL_TESTS = $(shell grep -l -E '^\# kernels:.*\<(each|patched)\>' $(GUEST_TESTS) $(FULL_TESTS))

check-host: tool tool-asan tool-series e2fsprogs unicode-tables
	GAMEPART=$(CURDIR)/$(BUILD)/asan/gamepart $(PROVE) $(filter $(ASAN_TESTS),$(QUICK_TESTS))
	$(PROVE) $(QUICK_TESTS)

check-guest: guest
	$(PROVE) $(GUEST_TESTS)

# The quick asan tests run under ASan/UBSan first; then, in one prove
# and one pool of guests, every quick test (the asan ones again, with the
# plain build) and every guest test, the asan ones with the sanitizer
# build (rig/run-test picks it): one run, so that no slot waits for a
# phase's last file.  The asan guest tests are not run twice.
ASAN_GAMEPART := $(CURDIR)/$(BUILD)/asan/gamepart
check: guest
	@rm -rf $(TIMES)
	$(call timed,1-asan-host) GAMEPART=$(ASAN_GAMEPART) $(PROVE) $(filter $(ASAN_TESTS),$(QUICK_TESTS)) $(times_then_fail)
	$(call timed,2-main) GAMEPART_GUEST_ASAN=$(ASAN_GAMEPART) $(POOLED) $(call longest_first,$(QUICK_TESTS) $(GUEST_TESTS)) $(times_then_fail)
	@scripts/test-times $(TIMES)

# check, plus: the quick asan tests under valgrind, the heavy variants
# and the full tests (on the test and distribution-like kernels; among
# them the e2fsprogs packages installed in a guest, and fstests), then every
# per-kernel guest test on the debug kernel.
check-full: guest kernels-debug kernels-distro e2fsprogs-deb fstests
	@rm -rf $(TIMES)
	$(call timed,1-asan-host) GAMEPART=$(ASAN_GAMEPART) $(PROVE) $(filter $(ASAN_TESTS),$(QUICK_TESTS)) $(times_then_fail)
	@mkdir -p $(BUILD)/valgrind
	@printf '#!/bin/sh\nexec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --suppressions=%s "%s" "$$@"\n' \
		$(CURDIR)/$(TESTS)/data/libext2fs.valgrind $(CURDIR)/$(BUILD)/bin/gamepart >$(BUILD)/valgrind/gamepart
	@chmod +x $(BUILD)/valgrind/gamepart
	$(call timed,2-valgrind) GAMEPART=$(CURDIR)/$(BUILD)/valgrind/gamepart $(PROVE) $(filter $(ASAN_TESTS),$(QUICK_TESTS)) $(times_then_fail)
	$(call timed,3-full) GAMEPART_FULL=1 GAMEPART_KERNELS="$(TEST_KERNELS) $(DISTRO_KERNELS)" GAMEPART_GUEST_ASAN=$(ASAN_GAMEPART) $(POOLED) $(call longest_first,$(QUICK_TESTS) $(GUEST_TESTS) $(FULL_TESTS)) $(times_then_fail)
	@# The debug kernels one test at a time: two KASAN guests (of two vCPUs each, when it
	@# was seen) on two cores boot slowly enough to trip the RCU stall detector in ACPI's
	@# set-up, and tests that boot a guest of their own (--fresh, --systemd) would boot one
	@# beside a pooled guest.  The pool still saves the boots.
	$(call timed,4-debug) GAMEPART_FULL=1 GAMEPART_KERNELS="$(DEBUG_KERNELS)" $(POOLED) $(PROVE_ONE) $(PER_KERNEL_TESTS) $(times_then_fail)
	@scripts/test-times $(TIMES)

# Upstream's fstests (make fstests) on the kernels of class test, each
# file in a slot of one pool: the casefold set, which check-full also
# runs on every kernel, and the rename, whiteout and dir set, about
# seven minutes a kernel under TCG, too long for check-full.
check-fstests: kernels fstests
	@rm -rf $(TIMES)
	$(call timed,fstests) $(POOLED) $(call longest_first,$(call group,fstests)) $(times_then_fail)
	@scripts/test-times $(TIMES)

# The test files of each group, as the targets above read them, then
# each guest test with the kernels it boots in a run of KERNELS (by
# default make check's): "make list-tests KERNELS='6.1-stock 6.1-patched
# 6.12-stock 6.12-patched'" shows what a new version's rows would add.
KERNELS ?= $(TEST_KERNELS)
list-tests:
	@. scripts/lib.sh; for g in quick guest slow full asan fstests; do \
		printf '%s:' $$g; \
		files_in_group $$g $(TEST_FILES) | sed 's/^/ /' | tr -d '\n'; \
		echo; \
	done
	@echo "kernels of a run of: $(KERNELS)"
	@GAMEPART_KERNELS="$(KERNELS)" bash -c '. scripts/lib.sh; \
		for f in $(GUEST_TESTS) $(FULL_TESTS) $(filter-out $(FULL_TESTS),$(call group,fstests)); do \
			wanted=$$(test_header "$$f" kernels); \
			printf "  %-60s %-12s %s\n" "$${f#$(TESTS)/tests/}" "$${wanted:-(none)}" \
				"$$([ "$$wanted" = own ] && echo "(builds its own)" || kernels_for_test "$$f" | xargs)"; \
		done'

# A benchmark, not a test: it prints a table of ratios and fails only when
# something breaks, never on a time.
$(BUILD)/bench/ext2-walk: $(TESTS)/bench/ext2-walk.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -O2 -g -Wall -Wextra -Werror \
		$$(pkg-config --cflags ext2fs com_err) -o $@ $< $$(pkg-config --libs ext2fs com_err)

bench-check: kernel tool
	@$(MAKE) --no-print-directory $(BUILD)/bench/ext2-walk
	@$(TESTS)/bench/bench-check

bench: kernels kernels-distro progs wine-prefix windows-progs
	@$(TESTS)/bench/bench-lookups

# The same on the patched kernels, on a filesystem of each encoding.
bench-encodings: kernels kernels-distro e2fsprogs progs wine-prefix windows-progs
	@$(TESTS)/bench/bench-lookups --encodings

bench-kernel: kernels kernels-distro progs
	@$(TESTS)/bench/bench-lookups --native

bench-convert: kernel tool progs
	@$(TESTS)/bench/bench-convert

bench-e2fsck: e2fsprogs
	@$(TESTS)/bench/bench-e2fsck

# BASE=REV: the commit whose gamepart this one is timed against.
bench-plan: kernel tool
	@$(TESTS)/bench/bench-plan $(BASE)

# Not part of check: it builds the kernel in six configurations per patch
# (hours on two cores).  FROM=N starts at the prefix before patch N,
# WHOLE=1 builds the whole series only, CONFIGS=a,b a part of the matrix,
# SEED=N another random configuration (see the script's header).
kernel-series-check: deps
	@scripts/kernel-series-check $(if $(WHOLE),--whole) $(if $(FROM),--from $(FROM)) \
		$(if $(CONFIGS),--configs $(CONFIGS)) $(if $(SEED),--seed $(SEED))

# Not part of check either: about four minutes a patch.
# FROM=K starts at the prefix of K patches (those before it unchanged).
e2fsprogs-series-check: deps
	@scripts/e2fsprogs-series-check $(if $(FROM),--from $(FROM))

e2fsprogs-upstream-check: deps
	@test -n "$(UPSTREAM)" || { echo 'usage: make e2fsprogs-upstream-check UPSTREAM=DIR (a clone of upstream e2fsprogs)'; exit 2; }
	@scripts/e2fsprogs-upstream-check $(if $(FROM),--from $(FROM)) "$(UPSTREAM)" $(N) $(REF)

# Whether a Debian stable or security update of e2fsprogs is newer than
# the source the series is built on (exit status 1, with the rebase).
e2fsprogs-debian-check: deps
	@scripts/e2fsprogs-debian-check

clean:
	rm -rf $(BUILD)
