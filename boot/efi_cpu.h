/* SPDX-License-Identifier: BSD-2-Clause */
/* The UEFI path's CPU check (boot/efi_cpu.c): the same needs, and the same
 * plain-text refusal, as the multiboot stub's (boot/cpu_check.S). */
#ifndef BOOT_EFI_CPU_H
#define BOOT_EFI_CPU_H

/* Returns when the CPU has everything the core needs.  Otherwise says what
 * it lacks, with its vendor and family, on the screen and on COM1, ends
 * through the exit device under QEMU (EXIT_CODE_UNSUPPORTED), and halts. */
void efi_cpu_check(void);

#endif
