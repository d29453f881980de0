/* SPDX-License-Identifier: BSD-2-Clause */
/* What follows the run on the UEFI path (probe/platform.h, struct
 * platform_after): ResetSystem(EfiResetCold) to reboot,
 * ResetSystem(EfiResetShutdown) to power off, ConIn for the key that cancels
 * the countdown, and the series file \tickprobe\series (probe/series.h) on
 * the log volume for runs=N. */
#ifndef BOOT_EFI_AFTER_H
#define BOOT_EFI_AFTER_H

#include <efi.h>
#include "probe/platform.h"
#include "probe/series.h"

struct efi_after {
	EFI_HANDLE volume; /* the log file's volume: the series file goes there */
	struct series_file file;
	unsigned index;    /* this boot in the series, 1..of; 0: none */
	char problem[224];
};

extern const struct platform_after efi_after;

/* At start, once the log file is open (volume: its volume; NULL: no log
 * file, log_path: its path): reads the series file, decides this boot's
 * place (probe/series.h) and writes the file before the run.  Fills *out
 * and *problem (NULL: nothing to say). */
void efi_series_start(struct efi_after *a, EFI_HANDLE volume, const char *log_path, unsigned runs,
		      struct platform_series *out, const char **problem);

#endif
