# SPDX-License-Identifier: BSD-2-Clause
# tickprobe: one Makefile for the image, the host tool and the tests.
#
#   make            host tool (build/tickprobe) and the image (build/tickprobe.img)
#   make image      build/tickprobe.img: hybrid BIOS/UEFI, USB (dd) and CD
#   make netboot    build/netboot/: the probe to serve over TFTP or HTTP, for
#                   PXE on BIOS (GRUB) and PXE or HTTP boot on UEFI
#   make run        build, boot the default preset in QEMU, print the results
#   make check      every test: host unit tests, then QEMU boot tests, 2 at a time
#   make check-fast the unit tests, the lint steps' own tests, the quick -kernel boots
#   make lint       the static analysis: clang-tidy, cppcheck, the tree's shape,
#                   clang-format on changed lines, shellcheck (tests/lint/lint.mk)
#   make install PREFIX=/usr/local
#   make deb        build/tickprobe_VERSION_amd64.deb (debian/, dpkg-buildpackage)
#   make sign KEY=db.key CERT=db.crt
#                   BOOTX64.EFI signed for Secure Boot with your key, and the
#                   image carrying it: build/tickprobe-signed.img
#
# Sources are found by wildcard: a new file in probe/, acpi/, drivers/,
# platform/, arch/x86/, tools/ or tests/unit/ is built without touching this
# file.

VERSION := 0.1.0
BUILD   := build
PREFIX  ?= /usr/local
CC      ?= cc

# --- host side: what runs in both (lib/, acpi/, probe/) compiled hosted ------
# libcore.a holds the folders built into the image too; libtools.a the host's
# own (tools/lib/ and every tools/<part>/).
HOST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -I. -I$(abspath $(BUILD))/gen -fno-math-errno \
	-DTICKPROBE_VERSION='"$(VERSION)"' $(EXTRA_CFLAGS)
HOST_LDLIBS := -lm -lsqlite3 -lz -lmicrohttpd
# Only the collector loads libmicrohttpd (tools/collect/exec.c says why):
# the command, and its static build, link without it.
TOOL_LDLIBS := $(filter-out -lmicrohttpd,$(HOST_LDLIBS))

CORE_SRC  := $(wildcard lib/*.c) $(wildcard acpi/*.c) $(wildcard probe/*.c)
TOOLS_SRC := $(filter-out tools/tickprobe.c tools/tickprobe-collect.c,$(wildcard tools/*.c tools/*/*.c))
TEST_SRC  := $(wildcard tests/unit/test_*.c)

CORE_HOST_OBJ  := $(CORE_SRC:%.c=$(BUILD)/host/%.o)
TOOLS_HOST_OBJ := $(TOOLS_SRC:%.c=$(BUILD)/host/%.o)
TEST_BINS      := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)

# --- the image side: one 64-bit core, two entries ---------------------------
# The core (arch/x86, platform, drivers, lib, acpi, probe) is compiled once,
# position-independent as the GNU-EFI application must be, and linked into
# both entries: the multiboot kernel, a static link at 1 MiB, takes the same
# objects (the linker resolves their few GOT slots), so both boot paths run
# the same machine code for every read they time.  Each entry's own boot code
# is compiled for it alone.
IMAGE_COMMON := -std=gnu11 -O2 -g -Wall -Wextra -Werror -I. -I$(abspath $(BUILD))/gen -ffreestanding \
	-fno-stack-protector -fno-builtin -fno-math-errno -mno-red-zone \
	-fno-asynchronous-unwind-tables -DTICKPROBE_VERSION='"$(VERSION)"' $(EXTRA_CFLAGS)
CORE_CFLAGS   := $(IMAGE_COMMON) -fpic
KERNEL_CFLAGS := $(IMAGE_COMMON) -fno-pic -fno-pie -mcmodel=small
EFI_CFLAGS    := $(IMAGE_COMMON) -fpic -fshort-wchar -I/usr/include/efi -I/usr/include/efi/x86_64

# A folder says where its code runs: these are the image's, whole.
CORE_IMAGE_SRC := $(wildcard arch/x86/*.c) $(wildcard arch/x86/*.S) $(wildcard platform/*.c) \
	$(wildcard drivers/*.c) $(CORE_SRC)
KERNEL_SRC := boot/multiboot.S boot/cpu_check.S $(wildcard boot/bios*.c)
EFI_SRC    := $(wildcard boot/efi*.c)

CORE_IMAGE_OBJ := $(patsubst %,$(BUILD)/core/%.o,$(basename $(CORE_IMAGE_SRC)))
KERNEL_OBJ := $(patsubst %,$(BUILD)/kernel/%.o,$(basename $(KERNEL_SRC))) $(CORE_IMAGE_OBJ)
EFI_OBJ    := $(patsubst %,$(BUILD)/efi/%.o,$(basename $(EFI_SRC))) $(CORE_IMAGE_OBJ)

EFI_LDS  := /usr/lib/elf_x86_64_efi.lds
EFI_CRT0 := /usr/lib/crt0-efi-x86_64.o

.PHONY: all image tool kernel efi run check check-fast unit install deps clean bench lint sign netboot
all: tool image

tool: $(BUILD)/tickprobe $(BUILD)/tickprobe-collect
kernel: $(BUILD)/tickprobe.elf32
efi: $(BUILD)/BOOTX64.EFI
image: $(BUILD)/tickprobe.img

# --- host objects ------------------------------------------------------------
$(BUILD)/host/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/host/libcore.a: $(CORE_HOST_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/host/libtools.a: $(TOOLS_HOST_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/tickprobe: $(BUILD)/host/tools/tickprobe.o $(BUILD)/host/libtools.a $(BUILD)/host/libcore.a
	$(CC) $(HOST_CFLAGS) -o $@ $^ $(TOOL_LDLIBS)

$(BUILD)/tickprobe-collect: $(BUILD)/host/tools/tickprobe-collect.o $(BUILD)/host/libtools.a $(BUILD)/host/libcore.a
	$(CC) $(HOST_CFLAGS) -o $@ $^ $(HOST_LDLIBS)

# The same command linked -static, for the initramfs of `tickprobe qemu
# --linux` (the guest has no C library).  Debian's libsqlite3-dev and
# zlib1g-dev ship the static libraries; --no-warnings hides the linker's note
# that SQLite's dlopen (unused here) would want the host's glibc at run time.
all: $(BUILD)/tickprobe-static
$(BUILD)/tickprobe-static: $(BUILD)/host/tools/tickprobe.o $(BUILD)/host/libtools.a $(BUILD)/host/libcore.a
	$(CC) $(HOST_CFLAGS) -static -Wl,--no-warnings -o $@ $^ $(TOOL_LDLIBS)

# Compiled and linked in one step; -MMD -MP writes the headers each test
# includes (tests/unit/sim_counter.h, probe/*.h) to $@.d, so editing one
# rebuilds the tests that use it.  A test's own source is compiled -O0,
# quicker: the code under test is the libraries', built as the command is
# (and glibc's fortification needs -O, so its define goes with it).
UNIT_CFLAGS = $(filter-out -O2 -D_FORTIFY_SOURCE=%,$(HOST_CFLAGS)) -O0
$(BUILD)/tests/%: tests/unit/%.c tests/unit/check.h $(BUILD)/host/libtools.a $(BUILD)/host/libcore.a
	@mkdir -p $(dir $@)
	$(CC) $(UNIT_CFLAGS) -MMD -MP -o $@ $< $(BUILD)/host/libtools.a $(BUILD)/host/libcore.a $(HOST_LDLIBS)

# --- the image's core, and the multiboot kernel -----------------------------
$(BUILD)/core/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/core/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/kernel/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/kernel/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tickprobe.elf: $(KERNEL_OBJ) boot/kernel.ld
	$(CC) -nostdlib -static -no-pie -Wl,--build-id=none -Wl,-z,max-page-size=0x1000 \
		-T boot/kernel.ld -o $@ $(KERNEL_OBJ) -lgcc

# qemu -kernel and GRUB's `multiboot` both take an ELF32: the 64-bit code
# rides inside it, entered through the 32-bit stub.
$(BUILD)/tickprobe.elf32: $(BUILD)/tickprobe.elf
	objcopy -O elf32-i386 $< $@

# --- GNU-EFI application -----------------------------------------------------
$(BUILD)/efi/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(EFI_CFLAGS) -MMD -MP -c $< -o $@

# --no-undefined: a shared link otherwise leaves a missing core function as a
# null call.  The section check: gnu-efi's script folds .bss into .data, but a
# section it does not name (.bss.*, .rodata.* of other shapes) would land
# outside the kept list below and vanish from the PE without a word.
$(BUILD)/tickprobe-efi.so: $(EFI_OBJ)
	ld -shared -Bsymbolic -nostdlib -znocombreloc --no-undefined -T $(EFI_LDS) -o $@ \
		$(EFI_CRT0) $(EFI_OBJ) -L/usr/lib -lefi -lgnuefi \
		$$($(CC) -print-libgcc-file-name)
	@readelf -SW $@ | awk '/^ *\[ *[0-9]+\]/ { sub(/^ *\[ *[0-9]+\] */, ""); if ($$0 ~ / [WAX]*A[WAX]* /) print $$1 }' | \
		grep -vxE '\.text|\.sdata|\.data|\.dynamic|\.dynsym|\.dynstr|\.rela?(\..*)?|\.reloc|\.hash|\.gnu\.hash|\.eh_frame|\.note\.gnu\.build-id' | \
		{ if read s; then echo "$@: section $$s is not copied into the EFI image" >&2; rm -f $@; exit 1; fi; }

$(BUILD)/BOOTX64.EFI: $(BUILD)/tickprobe-efi.so
	objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
		-j .rela -j .rel.* -j .rela.* -j .reloc --target efi-app-x86_64 \
		--subsystem=10 $< $@

# --- the presets: image/presets.cfg, read at build time ------------------------
# build/mkgrubcfg (probe/presets.c's parser) writes the GRUB menu and the table
# of presets compiled into probe/options.c (-I above); it is built from its
# sources directly, as the libraries that hold options.c need its output.
PRESETS_TABLE := $(BUILD)/gen/presets_table.h
MKGRUBCFG_SRC := image/mkgrubcfg.c probe/presets.c lib/fmt.c

$(BUILD)/mkgrubcfg: $(MKGRUBCFG_SRC) probe/presets.h lib/fmt.h lib/util.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -o $@ $(MKGRUBCFG_SRC)

$(PRESETS_TABLE): image/presets.cfg $(BUILD)/mkgrubcfg
	@mkdir -p $(dir $@)
	$(BUILD)/mkgrubcfg --table image/presets.cfg >$@.tmp && mv $@.tmp $@

$(BUILD)/host/probe/options.o $(BUILD)/core/probe/options.o lint-c: $(PRESETS_TABLE)

# --- the log's schema: probe/log_schema.def -------------------------------------
# build/mkschema (image/mkschema.c, on the schema's host decoder) prints the
# member tables of docs/log-format.md and tests/lib/log_schema.json, the list
# the Python checkers read; `make schema` writes both afresh after an edit of
# the schema, and tests/integrity/test_logschema.sh fails while either
# differs from a fresh print.
MKSCHEMA := $(BUILD)/mkschema

$(MKSCHEMA): image/mkschema.c $(BUILD)/host/libtools.a $(BUILD)/host/libcore.a
	$(CC) $(HOST_CFLAGS) -o $@ $^ $(TOOL_LDLIBS)

unit-build: $(MKSCHEMA)

.PHONY: schema
schema: $(MKSCHEMA)
	$(MKSCHEMA) docs docs/log-format.md >$(BUILD)/log-format.md.tmp && mv $(BUILD)/log-format.md.tmp docs/log-format.md
	$(MKSCHEMA) json >$(BUILD)/log_schema.json.tmp && mv $(BUILD)/log_schema.json.tmp tests/lib/log_schema.json

# --- the image ---------------------------------------------------------------
$(BUILD)/tickprobe.img: $(BUILD)/tickprobe.elf32 $(BUILD)/BOOTX64.EFI $(BUILD)/mkgrubcfg image/mkimage.sh image/grub.cfg image/presets.cfg
	sh image/mkimage.sh $(BUILD)

# --- the network boot tree ------------------------------------------------------
# image/mknetboot.sh: BOOTX64.EFI with presets.cfg and tickprobe.cfg, and GRUB's
# PXE tree (grub-mknetdir) with the image's menu; rebuilt whole each time, as
# it is a copy of files already built.  NETBOOT_SERVER=A.B.C.D builds the TFTP
# server's address into GRUB's core.0, for labs behind a proxy DHCP
# (docs/netboot.md).
NETBOOT_SERVER ?=
netboot: $(BUILD)/tickprobe.elf32 $(BUILD)/BOOTX64.EFI $(BUILD)/mkgrubcfg
	NETBOOT_SERVER=$(NETBOOT_SERVER) sh image/mknetboot.sh $(BUILD)

# --- Secure Boot: the application signed with the user's own key ----------------
# For a key enrolled in the firmware's db, or as a MOK through shim (docs/usb.md,
# "Secure Boot").  KEY: a PEM private key; CERT: its PEM X.509 certificate.
# sbverify checks the signature against CERT before the image is made.
SIGNED_EFI := $(BUILD)/BOOTX64-signed.EFI
SIGNED_IMG := $(BUILD)/tickprobe-signed.img

sign: $(BUILD)/BOOTX64.EFI $(BUILD)/tickprobe.elf32 $(BUILD)/mkgrubcfg image/mkimage.sh image/grub.cfg image/presets.cfg
	@if [ -z "$(KEY)" ] || [ -z "$(CERT)" ]; then \
		echo "make sign: give KEY=PRIVATE-KEY.pem CERT=CERTIFICATE.pem (docs/usb.md, Secure Boot)" >&2; exit 1; fi
	@command -v sbsign >/dev/null 2>&1 || { echo "make sign: sbsign not found: apt-get install sbsigntool" >&2; exit 1; }
	sbsign --key "$(KEY)" --cert "$(CERT)" --output $(SIGNED_EFI) $(BUILD)/BOOTX64.EFI
	sbverify --cert "$(CERT)" $(SIGNED_EFI)
	sh image/mkimage.sh $(BUILD) $(SIGNED_EFI) $(SIGNED_IMG)

# --- running and testing -----------------------------------------------------
# deps: the Debian packages of every test group, or of TEST_GROUPS's.
deps:
	@sh tests/deps.sh $(TEST_GROUPS)

run: deps all
	$(BUILD)/tickprobe qemu -o $(BUILD)/run.log && $(BUILD)/tickprobe show $(BUILD)/run.log

# unit-build: the host command (test_acpi runs it) and every unit test;
# unit: also run them, one "name: N passed, N failed" line each, failing on
# any failure.  check builds them only: tests/run.sh runs each once, with the
# script tests.
.PHONY: unit-build
unit-build: $(BUILD)/tickprobe $(TEST_BINS)

unit: unit-build
	@sh tests/run.sh $(BUILD) unit

# check: every test, the script tests JOBS at a time (default: the CPUs + 1),
# longest first (tests/run.sh); TEST_GROUPS="GROUP ...": only those groups'
# tests, and only their packages checked (tests/deps.sh).  check-fast: the
# unit tests, tests/lint/ (the lint steps' canaries) and the quick -kernel
# boots (tests/boot/test_kernel.sh, tests/boots.cfg's group "fast"), for the
# edit-build-test loop.  The static analysis is `make lint`'s.
# The build before the tests uses every CPU unless make was given -j itself:
# a plain `make check` would otherwise spend the whole build on one core.
CHECK_BUILD = $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 2)) \
	all unit-build
# A whole check also makes here what only some tests use (the sanitizers'
# build, the fuzz harnesses where clang is, the soak's sender): in the same
# make as the rest, every CPU stays busy, and no test waits on the lock of
# another's build (tests/fuzz/test_*.sh and test_collect_soak.sh then find
# theirs made).  When that build fails, the main build runs again alone, and
# the test that needs the broken part says why.
CHECK_EXTRA = sanitize $(BUILD)/bench/collect_send $(if $(shell command -v $(FUZZ_CC) 2>/dev/null),$(FUZZ_BINS))

check: deps
	$(if $(TEST_GROUPS),$(CHECK_BUILD),$(CHECK_BUILD) -k $(CHECK_EXTRA) || $(CHECK_BUILD))
	TEST_GROUPS="$(TEST_GROUPS)" sh tests/run.sh $(BUILD)

check-fast:
	@sh tests/deps.sh fast unit
	$(CHECK_BUILD)
	sh tests/run.sh $(BUILD) fast

bench: all
	sh tests/bench/boot.sh $(BUILD)

install: $(BUILD)/tickprobe $(BUILD)/tickprobe-collect
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/tickprobe $(DESTDIR)$(PREFIX)/lib/tickprobe
	install -m 755 $(BUILD)/tickprobe $(DESTDIR)$(PREFIX)/bin/tickprobe
	# `tickprobe collect` runs it from PREFIX/lib/tickprobe (tools/collect/exec.c).
	install -m 755 $(BUILD)/tickprobe-collect $(DESTDIR)$(PREFIX)/lib/tickprobe/
	install -m 644 image/presets.cfg $(DESTDIR)$(PREFIX)/share/tickprobe/
	for f in tickprobe.img tickprobe.elf32 grub-menu.cfg; do \
		if [ -f $(BUILD)/$$f ]; then install -m 644 $(BUILD)/$$f $(DESTDIR)$(PREFIX)/share/tickprobe/; fi; \
	done
	# The static build that `tickprobe qemu --linux` puts in its guest's initramfs.
	if [ -f $(BUILD)/tickprobe-static ]; then install -d $(DESTDIR)$(PREFIX)/lib/tickprobe && \
		install -m 755 $(BUILD)/tickprobe-static $(DESTDIR)$(PREFIX)/lib/tickprobe/; fi
	if [ -f $(BUILD)/BOOTX64.EFI ]; then install -m 644 $(BUILD)/BOOTX64.EFI $(DESTDIR)$(PREFIX)/share/tickprobe/tickprobe.efi; fi
	# The network boot tree, when `make netboot` has built it: a TFTP root as it is.
	if [ -d $(BUILD)/netboot ]; then rm -rf $(DESTDIR)$(PREFIX)/share/tickprobe/netboot && \
		cp -R $(BUILD)/netboot $(DESTDIR)$(PREFIX)/share/tickprobe/netboot; fi
	# The manual pages (man/man.mk).
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 644 $(MAN1_PAGES) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(MAN7_PAGES) $(DESTDIR)$(MANDIR)/man7/

clean:
	rm -rf $(BUILD)

# --- the Debian package --------------------------------------------------------
# make deb: BUILD/tickprobe_VERSION_amd64.deb, from debian/ by dpkg-buildpackage
# in a copy of this tree under BUILD/deb (whose own build/ starts clean), so that
# neither this tree's build/ nor its parent directory is written; the log is
# BUILD/deb/build.log.  The copy includes uncommitted edits.  A deb newer than
# every packaged source is not rebuilt.  BUILD/grub-menu.cfg is the menu
# /etc/grub.d/25_tickprobe prints (mkgrubcfg --grub-d); HOST_HARDENING is
# Debian's flags for the host command (debian/rules), never for the image.
# The package build is a build of its own: without this make's MAKEFLAGS,
# through which a DEB_BUILD_OPTIONS given on this command line would reach
# debian/rules and replace the parallel=N set here.
DEB := $(BUILD)/tickprobe_$(VERSION)_amd64.deb
DEB_SRC = $(shell find Makefile README.md LICENSE acpi arch boot debian docs drivers image lib man platform probe tools -type f 2>/dev/null)
DEB_PARALLEL ?= 2
HOST_CFLAGS += $(HOST_HARDENING)

.PHONY: deb
deb: $(DEB)

$(BUILD)/grub-menu.cfg: image/presets.cfg $(BUILD)/mkgrubcfg
	$(BUILD)/mkgrubcfg --grub-d image/presets.cfg >$@.tmp && mv $@.tmp $@

$(DEB): $(DEB_SRC)
	@v=$$(dpkg-parsechangelog -l debian/changelog -S Version) && [ "$$v" = "$(VERSION)" ] || { \
		echo "deb: debian/changelog is at version $$v, the Makefile at $(VERSION): add an entry (dch -v $(VERSION))" >&2; exit 1; }
	rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb/tickprobe-$(VERSION)
	tar -cf - --exclude=./$(BUILD) --exclude=./.git . | tar -xf - -C $(BUILD)/deb/tickprobe-$(VERSION)
	cd $(BUILD)/deb/tickprobe-$(VERSION) && env -u MAKEFLAGS -u MAKELEVEL \
		DEB_BUILD_OPTIONS="parallel=$(DEB_PARALLEL) $(DEB_BUILD_OPTIONS)" \
		dpkg-buildpackage -us -uc -b >../build.log 2>&1 || { tail -n 40 ../build.log >&2; exit 1; }
	cp $(BUILD)/deb/tickprobe_$(VERSION)_amd64.deb $@
	@echo "deb: $@: $$(wc -c <$@) bytes"

# Fuzzing (libFuzzer), sanitizer runs of the unit tests, and static checks.
-include tests/fuzz/fuzz.mk
-include tests/lint/lint.mk
# The manual pages: man-lint, man-markdown, and what install installs.
include man/man.mk

# Files only, and not BUILD/deb: make deb's copy of the tree has a build of
# its own, and an unpacked package has /etc/grub.d.
-include $(shell find $(BUILD) -path $(BUILD)/deb -prune -o -name '*.d' -type f -print 2>/dev/null)
