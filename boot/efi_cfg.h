/* The UEFI app's configuration, read from its own directory on the ESP:
 *   presets.cfg    "NAME: OPTIONS" lines and "timeout: N" (the same file the
 *                  GRUB menu is generated from: image/presets.cfg);
 *   tickprobe.env  a 512-byte GRUB environment block with tp_preset,
 *                  tp_timeout and tp_options, which GRUB reads too and which
 *                  `tickprobe qemu` rewrites in a copy of the image to pick a
 *                  preset without a keyboard.
 * Plain C on byte buffers, no firmware calls. */
#ifndef BOOT_EFI_CFG_H
#define BOOT_EFI_CFG_H

#include <stddef.h>

#define CFG_MAX_PRESETS 12
#define CFG_NAME_MAX 24
#define CFG_OPTIONS_MAX 240
#define CFG_TIMEOUT_DEFAULT 5 /* seconds, when neither file names one */

struct efi_preset {
	char name[CFG_NAME_MAX];
	char options[CFG_OPTIONS_MAX];
};

struct efi_cfg {
	struct efi_preset preset[CFG_MAX_PRESETS];
	int count;
	int timeout;                 /* seconds; 0 boots at once, no menu */
	int env_timeout;             /* tp_timeout, or -1: it wins over timeout */
	char want[CFG_NAME_MAX];     /* tp_preset: the preset to boot by default */
	char extra[CFG_OPTIONS_MAX]; /* tp_options: appended to every preset */
};

void cfg_init(struct efi_cfg *c);
void cfg_parse_presets(struct efi_cfg *c, const char *text, size_t n);
void cfg_parse_env(struct efi_cfg *c, const char *text, size_t n);

/* The menu's wait in seconds, after both files. */
int cfg_timeout(const struct efi_cfg *c);

/* Index of the preset booted when nobody chooses: tp_preset if it names one,
 * else the one called "default", else the first; -1 when there are none. */
int cfg_default(const struct efi_cfg *c);

/* The preset's options followed by tp_options, into out (always terminated). */
void cfg_cmdline(const struct efi_cfg *c, int idx, char *out, size_t cap);

#endif
