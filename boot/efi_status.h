/* SPDX-License-Identifier: BSD-2-Clause */
/* EFI status codes in words, for the problems the UEFI path reports (the
 * log file, boot/efi_log.c; the network, boot/efi_http.c). */
#ifndef BOOT_EFI_STATUS_H
#define BOOT_EFI_STATUS_H

#include <efi.h>

/* Words for st, or NULL for a status without any (the caller then gives
 * the number). */
const char *efi_status_words(EFI_STATUS st);

#endif
