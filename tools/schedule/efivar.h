/* SPDX-License-Identifier: BSD-2-Clause */
/* UEFI boot variables through efivarfs, for `tickprobe schedule`: the
 * EFI_LOAD_OPTION of a Boot#### entry (UEFI 2.10, section 3.1.3), its
 * device path (section 10.3: a hard drive media node, a file path node, the
 * end node), and reading, writing and deleting the variables.
 *
 * An efivarfs file is the variable's 4-byte attribute word, then its data.
 * The directory is /sys/firmware/efi/efivars on a real system; a test gives
 * an ordinary directory and gets the same bytes. */
#ifndef TOOLS_SCHEDULE_EFIVAR_H
#define TOOLS_SCHEDULE_EFIVAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EFI_GLOBAL_GUID "8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define EFIVAR_NV_BS_RT 7u       /* NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS */
#define LOAD_OPTION_ACTIVE 1u
#define EFIVAR_MAX 4096          /* more than any Boot#### this code writes or reads */
#define EFI_TEXT_MAX 512         /* description, path and options, as ASCII */

/* A GPT partition as the hard drive media node names it. */
struct efi_partition {
	uint32_t number;  /* 1-based, as in the GPT */
	uint64_t start;   /* first LBA */
	uint64_t size;    /* in LBAs */
	uint8_t guid[16]; /* the partition's unique GUID, in the GPT's byte order */
};

struct load_option {
	uint32_t attributes;
	char description[EFI_TEXT_MAX];
	bool has_partition;         /* the path starts with a GPT hard drive node */
	struct efi_partition part;
	char path[EFI_TEXT_MAX];    /* the file path node: "\EFI\tickprobe\tickprobe.efi" */
	char options[EFI_TEXT_MAX]; /* the optional data as UCS-2 text; "" if none or not text */
};

/* The load option's bytes into out: 0 if they do not fit cap, or if a
 * text holds anything but printable ASCII.  options may be "" (no data). */
size_t load_option_encode(uint8_t *buf, size_t cap, uint32_t attributes, const char *description,
			  const struct efi_partition *p, const char *path, const char *options);
/* false when buf is no well-formed load option (lengths that do not add up,
 * a description with no end). */
bool load_option_decode(const uint8_t *buf, size_t n, struct load_option *o);

/* "8be4df61-93ca-11d2-..." text of a GPT GUID (mixed endian) into 37 bytes. */
void efi_guid_text(const uint8_t g[16], char out[37]);

/* NAME-GUID files of dir.  Each returns 0, or an errno value (why has the
 * message).  A read gives the data without the attribute word. */
int efivar_read(const char *dir, const char *name, uint8_t *data, size_t cap, size_t *len, uint32_t *attrs);
int efivar_write(const char *dir, const char *name, uint32_t attrs, const uint8_t *data, size_t n, char *why,
		 size_t cap);
int efivar_delete(const char *dir, const char *name, char *why, size_t cap);

/* The Boot#### numbers present in dir, ascending, at most cap; returns how many. */
size_t efivar_boot_entries(const char *dir, uint16_t *nums, size_t cap);

#endif
