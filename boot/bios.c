/* The BIOS path after the 32-bit stub: read the multiboot information, point
 * the screen at VGA text, and hand over to the shared core. */
#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/run.h"
#include "arch/x86/smp.h"
#include "boot/bios_low.h"
#include "drivers/vga.h"

#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002
#define MBI_MEMORY (1u << 0)
#define MBI_CMDLINE (1u << 2)

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper; /* KiB below 1 MiB, KiB above 1 MiB */
	uint32_t boot_device;
	uint32_t cmdline;
};

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

void bios_entry(uint32_t magic, uint32_t mbi_addr);

/* The other CPUs' stacks: 4 MiB of .bss, which costs the ELF file nothing. */
static uint8_t ap_stacks[SMP_STACK_AREA_BYTES] __attribute__((aligned(4096)));

void bios_entry(uint32_t magic, uint32_t mbi_addr)
{
	struct boot_info bi = { .boot = "bios", .screen_write = vga_write };

	if (magic == MULTIBOOT_BOOTLOADER_MAGIC) {
		const struct multiboot_info *mbi = (const void *)(uintptr_t)mbi_addr;
		if (mbi->flags & MBI_CMDLINE)
			bi.cmdline = options_of((const char *)(uintptr_t)mbi->cmdline);
		if (mbi->flags & MBI_MEMORY)
			bi.memory_mib = (mbi->mem_upper + 1024ull) / 1024;
		if ((bi.low_area = bios_low_area(mbi_addr, SMP_LOW_BYTES)))
			bi.low_area_bytes = SMP_LOW_BYTES;
	}
	bi.ap_stacks = (uintptr_t)ap_stacks;
	bi.ap_stacks_bytes = sizeof ap_stacks;
	vga_init();
	tickprobe_main(&bi);
}
