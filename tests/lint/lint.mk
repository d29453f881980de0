# SPDX-License-Identifier: BSD-2-Clause
# Static analysis (included by the Makefile), kept apart from the tests of
# `make check`: it reads the tree, it runs nothing of it.
#
#   make lint         every step below, each one run even when one before it
#                     failed; a summary line per step, and failure if any
#                     step found anything
#   make lint-c       clang-tidy (.clang-tidy) and cppcheck (tests/lint/
#                     cppcheck.supp) over every C file of the image and the
#                     host command, LINT_JOBS at a time; LINT_CHANGED=1:
#                     clang-tidy on the files changed since upstream only;
#                     the comma operators fail the step too, unless
#                     COMMA_LINT=warn, which only lists them (tests/lint/lint.sh)
#   make lint-comma   tests/lint/comma.sh: the comma operators of the C
#                     that lint-c does not read (the unit tests, the fuzz
#                     harnesses, the benchmarks, image/'s build tools), by
#                     the compiler's -Wcomma alone; COMMA_LINT as for lint-c
#   make lint-shape   tests/lint/shape.py: paths named in comments exist, no
#                     function over 100 lines, no include circle, every script
#                     test sources tests/lib/check.sh first, commit subjects,
#                     a unit check joining conditions names each in COND(),
#                     no statement behind a (void) cast and a comma
#   make lint-tree    tests/lint/tree.sh: nothing reaches outside the tree,
#                     every source file names its licence
#   make lint-format  tests/lint/format.sh: clang-format (.clang-format) on the
#                     lines changed since upstream
#   make lint-sh      tests/lint/shellcheck.sh: shellcheck (.shellcheckrc) on
#                     every shell script
#   make man-lint     mandoc -Tlint on the manual pages, run by `make lint`
#                     when man/man.mk is there to define it
#
# The steps' own tests (each must still catch a planted fault) are
# tests/lint/test_lint.sh and test_shape.sh, which `make check` runs.
#
# Each C file is checked with the flags it is built with: the compile
# database is written from KERNEL_CFLAGS, EFI_CFLAGS, CORE_CFLAGS and
# HOST_CFLAGS on every run, so a new file or flag is picked up without
# touching this file.

LINT_DIR  := $(BUILD)/lint
LINT_SRC  := $(wildcard boot/*.c arch/x86/*.c platform/*.c drivers/*.c lib/*.c acpi/*.c probe/*.c tools/*.c tools/*/*.c)
LINT_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# LINT_CHANGED=1: clang-tidy on the files changed since upstream only
# (tests/lint/changed.sh); cppcheck, cheap, on every file still.
LINT_TIDY_SRC = $(if $(LINT_CHANGED),$(shell sh tests/lint/changed.sh $(LINT_SRC)),$(LINT_SRC))
LINT_COMMA_SRC := $(wildcard image/*.c tests/unit/*.c tests/fuzz/*.c tests/bench/*.c)
LINT_STEPS := lint-c lint-comma lint-shape lint-tree lint-format lint-sh $(if $(wildcard man/man.mk),man-lint)

# -DTICKPROBE_VERSION carries shell quotes; tests/lint/compdb.sh adds it back.
lint_flags = $(filter-out -DTICKPROBE_VERSION=%,$(1))

.PHONY: lint lint-c lint-comma lint-shape lint-tree lint-format lint-sh
lint: deps
	@failed=""; \
	for step in $(LINT_STEPS); do \
		start=$$(date +%s); \
		$(MAKE) --no-print-directory $$step || failed="$$failed $$step"; \
		echo "lint: $$step: $$(( $$(date +%s) - start )) s"; \
	done; \
	if [ -n "$$failed" ]; then echo "lint: failed:$$failed" >&2; exit 1; fi; \
	echo "lint: every step passed ($(LINT_STEPS))"

lint-c:
	@mkdir -p $(LINT_DIR)
	@sh tests/lint/compdb.sh $(LINT_DIR)/compile_commands.json $(VERSION) \
		"$(call lint_flags,$(KERNEL_CFLAGS))" "$(call lint_flags,$(EFI_CFLAGS))" "$(call lint_flags,$(CORE_CFLAGS))" \
		"$(call lint_flags,$(HOST_CFLAGS))" -- $(LINT_SRC)
	@sh tests/lint/lint.sh $(LINT_DIR) $(LINT_JOBS) $(LINT_TIDY_SRC)

lint-comma:
	@sh tests/lint/comma.sh $(FUZZ_CC) $(LINT_JOBS) "$(filter-out -Werror,$(call lint_flags,$(HOST_CFLAGS)))" \
		$(LINT_COMMA_SRC)

lint-shape:
	@python3 tests/lint/shape.py all .

lint-tree:
	@sh tests/lint/tree.sh all .

lint-format:
	@sh tests/lint/format.sh

lint-sh:
	@sh tests/lint/shellcheck.sh .
