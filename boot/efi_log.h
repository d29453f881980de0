/* SPDX-License-Identifier: BSD-2-Clause */
/* The log file on the UEFI path: a console (probe/platform.h) that saves
 * every record line, as the serial line gets it, to \tickprobe\logs\NNNN.log
 * on a FAT volume, so that a machine with no COM port keeps its results on
 * the stick it booted from.
 *
 * NNNN is one more than the highest number already there (0000 on a new
 * stick): no log is ever overwritten.  Each record is written and flushed
 * (EFI_FILE_PROTOCOL.Flush) as it comes, so a hang or a reset keeps what was
 * measured up to then; the readers call such a file truncated. */
#ifndef BOOT_EFI_LOG_H
#define BOOT_EFI_LOG_H

#include <efi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EFI_LOG_DIR L"\\tickprobe\\logs"
#define EFI_LOG_MAX_NUMBER 9999
/* Below this much free space a volume counts as full: a default log is about
 * 15 KB under QEMU, and real machines' wider histograms make it larger. */
#define EFI_LOG_MIN_FREE (128u * 1024u)

struct efi_log {
	EFI_FILE_HANDLE file; /* NULL: no file (problem says why) */
	EFI_HANDLE handle;    /* its volume's handle (the series file goes there too) */
	char path[32];        /* "\tickprobe\logs\0003.log" */
	char volume[160];     /* the volume, in words */
	char problem[224];    /* why there is no file, or why writing it stopped */
	bool busy;            /* inside a firmware call: an exception there must not write again */
	bool stopped;         /* a write failed: no more writes, problem says why */
	uint64_t records, bytes;
	uint64_t open_cycles; /* TSC cycles spent finding the volume and creating the file */
	uint64_t cycles;      /* TSC cycles spent in Write and Flush */
};

/* Opens the next free log file: on the volume the app was loaded from
 * (loaded_from: the loaded image's DeviceHandle, or NULL) or, when that one
 * cannot be written, on the first writable volume that holds \EFI.  False,
 * with problem set, when neither works. */
bool efi_log_open(struct efi_log *log, EFI_HANDLE loaded_from);

/* A console's write (records only): one record line, flushed. */
void efi_log_write(void *ctx, const char *s, size_t n);

/* Closes the file (the end record is in it by then); safe to call twice. */
void efi_log_close(struct efi_log *log);

#endif
