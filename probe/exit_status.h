/* SPDX-License-Identifier: BSD-2-Clause */
/* How a run's end reaches QEMU, in one place for the probe that writes it and
 * for `tickprobe qemu`, which reads it back.
 *
 * The probe writes its status to isa-debug-exit (port 0xf4), and QEMU exits
 * with (value << 1) | 1: 0x10, 0x11, 0x12 and 0x13 become 33, 35, 37 and 39.
 * 0 never means success, since a triple fault under -no-reboot exits 0 too.
 * EXIT_CODE_UNSUPPORTED comes before any run: the CPU lacks what the image
 * needs (long mode, PAE, SSE2 ...), and boot/cpu_check.S (multiboot) or
 * boot/efi.c (UEFI) said so in plain text.  This header is included by
 * assembly too: #defines only. */
#ifndef PROBE_EXIT_STATUS_H
#define PROBE_EXIT_STATUS_H

#define EXIT_CODE_OK 0x10
#define EXIT_CODE_OK_ABSENT 0x11
#define EXIT_CODE_FAILED 0x12
#define EXIT_CODE_UNSUPPORTED 0x13

#define EXIT_PORT 0xf4
#define QEMU_EXIT_STATUS(code) (((code) << 1) | 1)
#define QEMU_EXIT_OK QEMU_EXIT_STATUS(EXIT_CODE_OK)
#define QEMU_EXIT_OK_ABSENT QEMU_EXIT_STATUS(EXIT_CODE_OK_ABSENT)
#define QEMU_EXIT_FAILED QEMU_EXIT_STATUS(EXIT_CODE_FAILED)
#define QEMU_EXIT_UNSUPPORTED QEMU_EXIT_STATUS(EXIT_CODE_UNSUPPORTED)

#endif
