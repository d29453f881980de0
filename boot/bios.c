/* SPDX-License-Identifier: BSD-2-Clause */
/* The BIOS path after the 32-bit stub: read the multiboot information, point
 * the screen at VGA text, and hand over to the shared core. */
#include <stdbool.h>
#include <stdint.h>
#include "platform/boot_info.h"
#include "arch/x86/smp.h"
#include "boot/bios_low.h"
#include "boot/bios_power.h"
#include "drivers/vga.h"
#include "lib/util.h"
#include "probe/options.h"

#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002
#define MBI_MEMORY (1u << 0)
#define MBI_CMDLINE (1u << 2)
#define MBI_MMAP (1u << 6)
#define MMAP_RAM 1 /* type 1: available RAM */

/* The run's buffers come from the RAM above the kernel: the log buffer,
 * histograms, raw samples (about 820 KiB), the other CPUs' stacks (4 MiB)
 * and, with many CPUs, a 91.6 KB histogram for each contention reader.
 * Below 4 GiB, the identity map's end.  At least 1 MiB of it, or the run
 * says it has no memory. */
#define HEAP_LIMIT (1ull << 32)
#define HEAP_MIN (1024u * 1024u)

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper; /* KiB below 1 MiB, KiB above 1 MiB */
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
};

/* One memory map entry; size counts the bytes after itself. */
struct multiboot_mmap {
	uint32_t size;
	uint64_t base, len;
	uint32_t type;
} __attribute__((packed));

extern char kernel_end[]; /* boot/kernel.ld: the end of the loaded kernel */

/* The one struct this part owns. */
static struct {
	struct boot_info bi;
	uint64_t heap, heap_end; /* free RAM above the kernel: [heap, heap_end) */
	/* The command line, copied: QEMU's -kernel loader puts it just above the
	 * kernel, in what becomes the heap. */
	char cmdline[1024];
	struct options opt; /* the boot's options, parsed once: boot_info.facts.opt */
} bios;

/* `qemu -kernel` puts the kernel's path before the options
 * ("build/tickprobe.elf32 preset=quick"); GRUB 2's `multiboot` passes only
 * what follows the path.  Options are name=value words, so a first word
 * without '=' is the path: skip it. */
static const char *options_of(const char *cmdline)
{
	const char *p = cmdline, *word;
	bool has_equals = false;

	while (*p == ' ')
		p++;
	for (word = p; *p && *p != ' '; p++)
		has_equals |= *p == '=';
	if (has_equals)
		return word;
	while (*p == ' ')
		p++;
	return p;
}

/* RAM in MiB: the memory map's available RAM (type 1), every range of it.
 * mem_upper stops at the first hole above 1 MiB, which on a PC is the PCI
 * window below 4 GiB: a 6 GiB machine would say 3071 MiB.  mem_upper only
 * when there is no map. */
static uint64_t memory_mib(const struct multiboot_info *mbi)
{
	uint64_t bytes = 0;

	if (mbi->flags & MBI_MMAP) {
		uint32_t off = 0;
		while (off + sizeof(struct multiboot_mmap) <= mbi->mmap_length) {
			const struct multiboot_mmap *e = (const void *)(uintptr_t)(mbi->mmap_addr + off);
			if (e->type == MMAP_RAM)
				bytes += e->len;
			off += e->size + 4;
		}
		if (bytes)
			return (bytes + (1u << 19)) >> 20;
	}
	if (mbi->flags & MBI_MEMORY)
		return (mbi->mem_upper + 1024ull) / 1024;
	return 0;
}

/* The RAM range the kernel ends in (memory map type 1; mem_upper without a
 * map): the heap is the rest of it, up to 4 GiB.  The multiboot information
 * and the loaders' own data lie below 1 MiB (QEMU: 0x9000, GRUB: 0x10000),
 * below the kernel. */
/* The end of the RAM range holding addr: the memory map's type-1 range,
 * or 1 MiB + mem_upper without a map; 0 when nothing says. */
static uint64_t ram_end_above(const struct multiboot_info *mbi, uint64_t addr)
{
	if (mbi && mbi->flags & MBI_MMAP) {
		for (uint32_t off = 0; off + sizeof(struct multiboot_mmap) <= mbi->mmap_length;) {
			const struct multiboot_mmap *e = (const void *)(uintptr_t)(mbi->mmap_addr + off);
			if (e->type == MMAP_RAM && e->base <= addr && e->base + e->len > addr)
				return e->base + e->len;
			off += e->size + 4;
		}
		return 0;
	}
	if (mbi && mbi->flags & MBI_MEMORY)
		return 0x100000ull + mbi->mem_upper * 1024ull;
	return 0;
}

static void heap_init(const struct multiboot_info *mbi)
{
	uint64_t start = ((uint64_t)(uintptr_t)kernel_end + 4095) & ~4095ull;
	uint64_t end = ram_end_above(mbi, start);

	if (end > HEAP_LIMIT)
		end = HEAP_LIMIT;
	if (end > start && end - start >= HEAP_MIN) {
		bios.heap = start;
		bios.heap_end = end;
	}
}

static void *heap_alloc(void *ctx, size_t bytes)
{
	uint64_t at = (bios.heap + 63) & ~63ull;
	void *p = (void *)(uintptr_t)at;

	(void)ctx;
	if (!bios.heap || bytes > bios.heap_end - at)
		return NULL;
	bios.heap = at + bytes;
	tp_memset(p, 0, bytes); /* RAM above the kernel holds whatever was there */
	return p;
}

/* The screen's last words: where the log went, and how to keep it (lines
 * under 80 columns, VGA text's width). */
static void at_end(void *ctx, const char *status)
{
	static const char where[] =
		"\ntickprobe (BIOS): the log went to the serial port (COM1) and this screen only.\n"
		"To keep it: a null-modem cable from COM1 to another computer running\n"
		"  tickprobe capture /dev/ttyUSB0 -o pc.log\n"
		"or boot this stick on UEFI, which saves it as \\tickprobe\\logs\\NNNN.log.\n";
	(void)ctx;
	(void)status;
	vga_write(NULL, where, sizeof where - 1);
}

void bios_entry(uint32_t magic, uint32_t mbi_addr);

void bios_entry(uint32_t magic, uint32_t mbi_addr)
{
	struct boot_info *bi = &bios.bi;

	bi->facts.boot = "bios";
	bi->consoles[0] = (struct console){ "screen", vga_write, NULL, false, true };
	bi->n_consoles = 1;
	bi->alloc = heap_alloc;
	bi->at_end = at_end;
	bi->after = &bios_after;
	bi->facts.log_file_problem = "BIOS boot: the firmware offers no file system to write; "
				     "the records go to the serial port (COM1) only";
	if (magic == MULTIBOOT_BOOTLOADER_MAGIC) {
		const struct multiboot_info *mbi = (const void *)(uintptr_t)mbi_addr;
		if (mbi->flags & MBI_CMDLINE) {
			const char *c = options_of((const char *)(uintptr_t)mbi->cmdline);
			size_t n = tp_strlen(c);
			n = n < sizeof bios.cmdline - 1 ? n : sizeof bios.cmdline - 1;
			tp_memcpy(bios.cmdline, c, n);
			bi->facts.cmdline = bios.cmdline;
		}
		bi->memory_mib = memory_mib(mbi);
		heap_init(mbi);
		if ((bi->low_area = bios_low_area(mbi_addr, SMP_LOW_BYTES)))
			bi->low_area_bytes = SMP_LOW_BYTES;
	}
	/* net= is shared with the UEFI path, which sends the records; here
	 * nothing can, and the begin record and the screen say so. */
	options_parse(&bios.opt, bi->facts.cmdline);
	bi->facts.opt = &bios.opt;
	if (bios.opt.net_given)
		bi->facts.net_problem = "the BIOS path has no network stack (GRUB hands over none): "
					"the log goes to serial and the screen only";
	if ((bi->ap_stacks = (uintptr_t)heap_alloc(NULL, SMP_STACK_AREA_BYTES)))
		bi->ap_stacks_bytes = SMP_STACK_AREA_BYTES;
	vga_init();
	tickprobe_main(bi);
}
