/* SPDX-License-Identifier: BSD-2-Clause */
/* The UEFI path's CPU check, the counterpart of boot/cpu_check.S.  Firmware
 * that starts BOOTX64.EFI runs in long mode with SSE on (UEFI 2.10, 2.3.4:
 * x64 platforms), so long mode, PAE, the FPU, SSE and SSE2 are there; what the
 * core needs beyond that, the TSC above all (every measurement is timed with
 * it), is not promised by the specification.  The same list as the multiboot
 * stub is checked, in the same words, so a refusal reads the same on both
 * paths. */
#include <efi.h>
#include <efilib.h>
#include "arch/x86/cpu.h"
#include "platform/machine.h"
#include "boot/efi_con.h"
#include "boot/efi_cpu.h"
#include "drivers/uart.h"
#include "probe/exit_status.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define COM1 0x3f8
#define BAUD 115200

/* CPUID.01H:EDX (reg 0) and CPUID.80000001H:EDX (reg 1), in
 * boot/cpu_check.S's order and words. */
static const struct { unsigned reg, bit; const char *name; } needs[] = {
	{ 1, 29, "64-bit long mode" }, { 0, 6, "PAE" }, { 0, 4, "TSC" }, { 0, 5, "MSRs" },
	{ 0, 0, "FPU" }, { 0, 8, "CMPXCHG8B" }, { 0, 15, "CMOV" }, { 0, 24, "FXSR" },
	{ 0, 25, "SSE" }, { 0, 26, "SSE2" },
};

/* The message, or 0 bytes when nothing is missing. */
static int refusal(char *out, size_t cap)
{
	struct cpuid_regs r0 = cpuid(0, 0), r1 = r0.eax >= 1 ? cpuid(1, 0) : (struct cpuid_regs){ 0 };
	uint32_t top = cpuid(0x80000000, 0).eax, regs[2], vendor[4] = { r0.ebx, r0.edx, r0.ecx, 0 };
	unsigned base = r1.eax >> 8 & 0xf, family = base, model = r1.eax >> 4 & 0xf;
	int n, missing = 0, line = 0;
	size_t i;

	regs[0] = r1.edx;
	regs[1] = top - 0x80000001u <= 0xfffeu ? cpuid(0x80000001, 0).edx : 0;
	n = tp_snprintf(out, cap, "tickprobe: this CPU cannot run tickprobe: it lacks ");
	for (i = 0; i < sizeof needs / sizeof needs[0]; i++) {
		if (regs[needs[i].reg] >> needs[i].bit & 1)
			continue;
		/* A name that would pass column 78 starts an indented line (80
		 * columns on screen, less ", " or "."). */
		if (missing++ && n - line + tp_strlen(needs[i].name) > 76) {
			n += tp_snprintf(out + n, cap - (size_t)n, ",\n  ");
			line = n - 2;
		} else if (missing > 1) {
			n += tp_snprintf(out + n, cap - (size_t)n, ", ");
		}
		n += tp_snprintf(out + n, cap - (size_t)n, "%s", needs[i].name);
	}
	if (!missing)
		return 0;
	if (base == 0xf)
		family += r1.eax >> 20 & 0xff;
	if (base == 0x6 || base == 0xf)
		model += r1.eax >> 12 & 0xf0;
	n += tp_snprintf(out + n, cap - (size_t)n,
			 ".\ntickprobe: CPU vendor %s, family %u, model %u, stepping %u\n"
			 "tickprobe: it needs an x86-64 CPU with long mode, PAE, TSC, MSRs, FPU,\n"
			 "tickprobe: CMPXCHG8B, CMOV, FXSR, SSE and SSE2. Nothing was measured.\n"
			 "tickprobe: halted. Power off or reset when done.\n",
			 (const char *)vendor, family, model, r1.eax & 0xf);
	return n;
}

void efi_cpu_check(void)
{
	char text[600];
	int n = refusal(text, sizeof text);
	SIMPLE_TEXT_OUTPUT_INTERFACE *screen;
	struct uart com1;

	if (n <= 0)
		return;
	if (n > (int)sizeof text - 1)
		n = sizeof text - 1;
	/* The screen through a text output that is not mirrored to COM1
	 * (boot/efi_con.h), and COM1 directly: the line then crosses the serial
	 * port once, where the firmware mirrors ConOut to it or not. */
	if ((screen = efi_find_screen()))
		efi_screen_write(screen, text, (size_t)n);
	/* Interrupts off first, as the core runs (boot/efi.c, efi_alloc): the
	 * firmware's serial console polls COM1 from its timer tick and could
	 * take the byte of the UART's loopback check. */
	cpu_cli();
	if (uart_init(&com1, COM1, BAUD))
		uart_write(&com1, text, (size_t)n);
	if (machine_is_qemu())
		outb(EXIT_PORT, EXIT_CODE_UNSUPPORTED);
	for (;;)
		__asm__ volatile("cli; hlt");
}
