/* SPDX-License-Identifier: BSD-2-Clause */
/* How a run's end reaches QEMU, in one place for the probe that writes it and
 * for `tickprobe qemu`, which reads it back.
 *
 * The probe writes its status to isa-debug-exit (port 0xf4), and QEMU exits
 * with (value << 1) | 1: 0x10, 0x11 and 0x12 become 33, 35 and 37.  0 never
 * means success, since a triple fault under -no-reboot exits 0 too. */
#ifndef PROBE_EXIT_STATUS_H
#define PROBE_EXIT_STATUS_H

#define EXIT_CODE_OK 0x10
#define EXIT_CODE_OK_ABSENT 0x11
#define EXIT_CODE_FAILED 0x12

#define EXIT_PORT 0xf4
#define QEMU_EXIT_STATUS(code) (((code) << 1) | 1)
#define QEMU_EXIT_OK QEMU_EXIT_STATUS(EXIT_CODE_OK)
#define QEMU_EXIT_OK_ABSENT QEMU_EXIT_STATUS(EXIT_CODE_OK_ABSENT)
#define QEMU_EXIT_FAILED QEMU_EXIT_STATUS(EXIT_CODE_FAILED)

#endif
