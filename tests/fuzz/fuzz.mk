# SPDX-License-Identifier: BSD-2-Clause
# Fuzzing and sanitizer runs (included by the Makefile).
#
#   make fuzz [FUZZ_SECONDS=N]   build every libFuzzer harness (clang), then run
#                                each for N seconds (default 60); fails on any
#                                crash, leak, timeout or undefined behaviour
#   make fuzz-build              only build them, into $(BUILD)/fuzz/
#   make sanitize                the unit tests built with ASan + UBSan into
#                                $(BUILD)/asan/tests/ (tests/fuzz/test_sanitize.sh
#                                runs them as part of make check); the collector
#                                so built is $(BUILD)/asan/tickprobe-collect
#
# The harnesses and everything they call are compiled here with clang and the
# sanitizers: the gcc-built $(BUILD)/host/*.a carry no coverage instrumentation.
# Seeds are made from tests/data and a real QEMU log into
# $(BUILD)/fuzz/seeds/ (never into the tree); tests/fuzz/corpus/ holds only
# small hand-written seeds and the inputs of past crashes (regress-*).  New
# inputs found while fuzzing go to $(BUILD)/fuzz/corpus/<harness>/ and are kept
# between runs.  A crash leaves its input as $(BUILD)/fuzz/crash-<harness>-*;
# replay it with `$(BUILD)/fuzz/fuzz_<harness> FILE`, and once fixed copy it to
# tests/fuzz/corpus/<harness>/regress-<what> so every later run tries it.

FUZZ_CC        ?= clang
FUZZ_SECONDS   ?= 60
FUZZ_DIR       := $(BUILD)/fuzz
FUZZ_HARNESSES := acpi collect logread madt ministat options presets
FUZZ_DATA      := tests/data
FUZZ_SANITIZE  := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS    := -std=gnu11 -g -O1 -Wall -Wextra -I. -I$(abspath $(BUILD))/gen -fno-math-errno -fno-omit-frame-pointer \
	-DTICKPROBE_VERSION='"$(VERSION)"' $(FUZZ_SANITIZE)
# What the harnesses reach: the core, tools/lib (the log loader, the store's
# importer) and the stat input reader; the collector's handling of requests
# and datagrams and its table (all but its threads, sockets and
# libmicrohttpd: http.c, syslog.c).
FUZZ_COLLECT_SRC := $(addprefix tools/collect/,boots.c boots_events.c boots_file.c datagram.c finish.c net.c \
	record.c request.c sender.c spool.c)
FUZZ_LIB_SRC   := $(CORE_SRC) $(wildcard tools/lib/*.c) tools/stat/input.c $(FUZZ_COLLECT_SRC)
FUZZ_LIB_OBJ   := $(FUZZ_LIB_SRC:%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_BINS      := $(FUZZ_HARNESSES:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_STAMP     := $(FUZZ_DIR)/seeds/.stamp

.PHONY: fuzz fuzz-build fuzz-seeds sanitize

fuzz-build: $(FUZZ_BINS) $(FUZZ_STAMP)
fuzz-seeds: $(FUZZ_STAMP)

fuzz: fuzz-build
	sh tests/fuzz/run_fuzz.sh $(BUILD) $(FUZZ_SECONDS) $(FUZZ_HARNESSES)

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

# options.c holds presets.cfg's table (the Makefile's PRESETS_TABLE).
$(FUZZ_DIR)/obj/probe/options.o: $(PRESETS_TABLE)

$(FUZZ_DIR)/libfuzzcore.a: $(FUZZ_LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DIR)/libfuzzcore.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_DIR)/libfuzzcore.a -lm $(FUZZ_LDLIBS)

# The collector's harness stores what it imports in SQLite, deflated.
$(FUZZ_DIR)/fuzz_collect: FUZZ_LDLIBS := -lsqlite3 -lz -lpthread

# A real capture: the quick preset, without the RTC's rate (timed over its
# seconds' edges), boots in well under a second under TCG.
# Skipped without an image, the host command or QEMU, as are the writer's
# fixture logs without the unit test binary.  They are not prerequisites
# (fuzz-build must not build the image); seeds made before they existed are
# made again once they do.
FUZZ_SEEDS_STALE := $(if $(wildcard $(BUILD)/tickprobe.elf32),$(if $(wildcard $(FUZZ_DIR)/qemu-seed.log),,x))$(if \
	$(wildcard $(BUILD)/tests/test_logread),$(if $(wildcard $(FUZZ_DIR)/fixtures/*),,x))

.PHONY: fuzz-seeds-stale
$(FUZZ_STAMP): tests/fuzz/mkseeds.py image/presets.cfg $(wildcard $(FUZZ_DATA)/acpi/linuxhw/*.csv) \
		$(if $(FUZZ_SEEDS_STALE),fuzz-seeds-stale)
	@rm -rf $(FUZZ_DIR)/seeds $(FUZZ_DIR)/fixtures $(FUZZ_DIR)/qemu-seed.log
	@mkdir -p $(FUZZ_DIR)/seeds $(FUZZ_DIR)/fixtures
	@if [ -f $(BUILD)/tickprobe.elf32 ] && [ -x $(BUILD)/tickprobe ] && command -v qemu-system-x86_64 >/dev/null 2>&1; then \
		$(BUILD)/tickprobe qemu -q --kernel=$(BUILD)/tickprobe.elf32 --preset quick --options slow_rates=off --timeout 60 \
			-o $(FUZZ_DIR)/qemu-seed.log </dev/null >/dev/null 2>&1 || \
			echo "fuzz seeds: tickprobe qemu exited $$?, its log used as is" >&2; \
	fi
	@if [ -x $(BUILD)/tests/test_logread ]; then \
		$(BUILD)/tests/test_logread --fixtures $(FUZZ_DIR)/fixtures >/dev/null 2>&1 || \
			echo "fuzz seeds: no fixture logs" >&2; \
	fi
	@python3 tests/fuzz/mkseeds.py $(FUZZ_DIR)/seeds $(FUZZ_DATA) \
		$(FUZZ_DIR)/qemu-seed.log $(FUZZ_DIR)/fixtures
	@touch $@

# ---- the unit tests under ASan + UBSan ------------------------------------------
# gcc's own libasan/libubsan; -Werror is left out because instrumented code
# draws warnings (-Wmaybe-uninitialized, -Wstringop-*) the plain build does not.
# -g1: the line tables, all a report's stack needs, at less compile time than
# -g.  The code under test gets -O1 (the soak test loads the collector); the
# unit tests' own sources -O0, quicker to compile: the sanitizers catch as
# much there.
SAN_CC     ?= $(CC)
SAN_DIR    := $(BUILD)/asan
SAN_CFLAGS := $(filter-out -Werror -O2 -g,$(HOST_CFLAGS)) -g1 -O1 -fno-omit-frame-pointer $(FUZZ_SANITIZE)
SAN_TEST_CFLAGS := $(filter-out -O1,$(SAN_CFLAGS)) -O0
SAN_LIB_OBJ := $(CORE_SRC:%.c=$(SAN_DIR)/%.o) $(TOOLS_SRC:%.c=$(SAN_DIR)/%.o)
SAN_TESTS  := $(TEST_SRC:tests/unit/%.c=$(SAN_DIR)/tests/%)

$(SAN_DIR)/probe/options.o: $(PRESETS_TABLE)

# test_acpi runs the tool it sits beside ($(SAN_DIR)/tests/../tickprobe), so
# the command line is checked under the sanitizers too.
sanitize: $(SAN_TESTS) $(SAN_DIR)/tickprobe $(SAN_DIR)/tickprobe-collect

$(SAN_DIR)/tickprobe: tools/tickprobe.c $(SAN_DIR)/libsan.a
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $< $(SAN_DIR)/libsan.a $(HOST_LDLIBS)

# The collector under the sanitizers, and the fast sender beside it, for the
# soak test (tests/net/test_collect_soak.sh); the sender is built plain, as
# tests/bench/collect.sh uses it: it must not be what limits the collector.
$(SAN_DIR)/tickprobe-collect: tools/tickprobe-collect.c $(SAN_DIR)/libsan.a
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $< $(SAN_DIR)/libsan.a $(HOST_LDLIBS)

$(BUILD)/bench/collect_send: tests/bench/collect_send.c lib/crc32.c lib/crc32.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -o $@ tests/bench/collect_send.c lib/crc32.c -lpthread

$(SAN_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(SAN_CC) $(SAN_CFLAGS) -MMD -MP -c $< -o $@

$(SAN_DIR)/libsan.a: $(SAN_LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(SAN_DIR)/tests/%: tests/unit/%.c tests/unit/check.h $(SAN_DIR)/libsan.a
	@mkdir -p $(dir $@)
	$(SAN_CC) $(SAN_TEST_CFLAGS) -o $@ $< $(SAN_DIR)/libsan.a $(HOST_LDLIBS)
