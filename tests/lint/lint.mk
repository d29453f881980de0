# SPDX-License-Identifier: BSD-2-Clause
# Static checks (included by the Makefile).
#
#   make lint      clang-tidy (.clang-tidy) and cppcheck (tests/lint/cppcheck.supp)
#                  over every C file of the image and the host command; prints
#                  the findings and fails on any.  LINT_JOBS checkers at a time;
#                  LINT_CHANGED=1: clang-tidy on the changed files only.
#
# Each file is checked with the flags it is built with: the compile database
# is written from KERNEL_CFLAGS, EFI_CFLAGS and HOST_CFLAGS on every run, so
# a new file or flag is picked up without touching this file.

LINT_DIR  := $(BUILD)/lint
LINT_SRC  := $(wildcard boot/*.c arch/x86/*.c platform/*.c drivers/*.c lib/*.c acpi/*.c probe/*.c tools/*.c tools/*/*.c)
LINT_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# LINT_CHANGED=1 (make check-fast): clang-tidy on the files changed since
# upstream only (tests/lint/changed.sh); cppcheck, cheap, on every file still.
LINT_TIDY_SRC = $(if $(LINT_CHANGED),$(shell sh tests/lint/changed.sh $(LINT_SRC)),$(LINT_SRC))

# -DTICKPROBE_VERSION carries shell quotes; tests/lint/compdb.sh adds it back.
lint_flags = $(filter-out -DTICKPROBE_VERSION=%,$(1))

lint:
	@mkdir -p $(LINT_DIR)
	@sh tests/lint/compdb.sh $(LINT_DIR)/compile_commands.json $(VERSION) \
		"$(call lint_flags,$(KERNEL_CFLAGS))" "$(call lint_flags,$(EFI_CFLAGS))" \
		"$(call lint_flags,$(HOST_CFLAGS))" -- $(LINT_SRC)
	@sh tests/lint/lint.sh $(LINT_DIR) $(LINT_JOBS) $(LINT_TIDY_SRC)
