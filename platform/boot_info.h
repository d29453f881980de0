/* SPDX-License-Identifier: BSD-2-Clause */
/* What an entry path (boot/) hands to the shared core, and the core's entry.
 * The BIOS and UEFI paths differ only in how they fill this in;
 * platform/pc.c turns it into the run's platform (probe/platform.h). */
#ifndef PLATFORM_BOOT_INFO_H
#define PLATFORM_BOOT_INFO_H

#include <stddef.h>
#include <stdint.h>
#include "probe/exit_status.h"
#include "probe/platform.h"

#define BOOT_MAX_CONSOLES 3

struct boot_info {
	/* What the run reads (probe/platform.h): the boot, the options, where
	 * the records go, Secure Boot, the series, the RSDP.  The entry path
	 * parses the options into facts.opt, once. */
	struct boot_facts facts;
	uint64_t memory_mib;       /* 0 when unknown */
	/* Outputs besides the serial line, which the core opens itself: the
	 * screen (VGA text on BIOS, the EFI console on UEFI), a log file.  None
	 * may also reach the serial port. */
	struct console consoles[BOOT_MAX_CONSOLES];
	unsigned n_consoles;
	/* Zeroed memory for the run's buffers, or NULL when there is none. */
	void *(*alloc)(void *ctx, size_t bytes);
	void *alloc_ctx;
	/* For the other CPUs (arch/x86/smp.c): a physical range below 1 MiB for
	 * their start-up code (SMP_LOW_BYTES; 0 when none could be had), and room
	 * for their stacks.  Both stay reserved for the whole run. */
	uint64_t low_area, low_area_bytes;
	uint64_t ap_stacks, ap_stacks_bytes;
	/* What may follow the run (probe/platform.h, struct platform_after),
	 * called with after_ctx; NULL: the machine halts.  The serial line's
	 * keys are added to its key() here. */
	const struct platform_after *after;
	void *after_ctx;
	/* Called once at the very end with the final status (UEFI: to leave the
	 * screen readable).  May be NULL. */
	void (*at_end)(void *ctx, const char *status);
	void *at_end_ctx;
};

/* Runs the probe and never returns: it exits QEMU through isa-debug-exit
 * when it finds QEMU, and otherwise halts with the results on screen. */
__attribute__((noreturn)) void tickprobe_main(const struct boot_info *bi);

#endif
