/* The BIOS path after the 32-bit stub: read the multiboot information, point
 * the screen at VGA text, and hand over to the shared core. */
#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/run.h"
#include "drivers/vga.h"

#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002
#define MBI_MEMORY (1u << 0)
#define MBI_CMDLINE (1u << 2)
#define MBI_MMAP (1u << 6)
#define MMAP_RAM 1 /* type 1: available RAM */

/* The run's buffers: about 820 KiB (log buffer, two histograms, raw samples,
 * delta reads) and the run itself.  In .bss, which the ELF loader zeroes, so
 * the kernel file does not carry it. */
#define ARENA_BYTES (1024u * 1024u)

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

/* The one struct this part owns. */
static struct {
	struct boot_info bi;
	size_t used;
	uint8_t arena[ARENA_BYTES] __attribute__((aligned(64)));
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

static void *arena_alloc(void *ctx, size_t bytes)
{
	void *p;

	(void)ctx;
	bytes = (bytes + 63) & ~(size_t)63;
	if (bytes > ARENA_BYTES - bios.used)
		return NULL;
	p = bios.arena + bios.used;
	bios.used += bytes;
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

	bi->boot = "bios";
	bi->consoles[0] = (struct console){ "screen", vga_write, NULL, false, true };
	bi->n_consoles = 1;
	bi->alloc = arena_alloc;
	bi->at_end = at_end;
	bi->log_file_problem = "BIOS boot: the firmware offers no file system to write; "
			       "the records go to the serial port (COM1) only";
	if (magic == MULTIBOOT_BOOTLOADER_MAGIC) {
		const struct multiboot_info *mbi = (const void *)(uintptr_t)mbi_addr;
		if (mbi->flags & MBI_CMDLINE)
			bi->cmdline = options_of((const char *)(uintptr_t)mbi->cmdline);
		bi->memory_mib = memory_mib(mbi);
	}
	vga_init();
	tickprobe_main(bi);
}
