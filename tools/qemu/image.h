/* SPDX-License-Identifier: BSD-2-Clause */
/* The files `tickprobe qemu` boots from: finding the image, the kernel and
 * presets.cfg, reading a preset's options, and making the private copy of the
 * image whose GRUB environment blocks (tickprobe.env: 512 bytes, present
 * twice, in the ISO for GRUB and in the ESP for the UEFI app) say which
 * preset to run and that the menu should not wait. */
#ifndef TOOLS_QEMU_IMAGE_H
#define TOOLS_QEMU_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

#define QEMU_ENV_SIZE 512 /* one GRUB environment block */

/* p is non-NULL and readable by this process. */
bool qemu_readable(const char *p);

/* The first readable of: name beside this program, ../source_rel from there
 * (a build tree), ../share/tickprobe/name, then source_rel (or build/name)
 * from the current directory.  Returns buf holding it, or NULL. */
const char *qemu_locate(const char *name, const char *source_rel, char *buf, size_t cap);

/* presets.cfg (probe/presets.c parses it; its problems go to stderr): writes
 * the command line that preset name boots into out, as the menus do
 * (options_menu_cmdline: "preset=NAME" for a preset this build knows).
 * Returns false when the preset is not there (names listed on stderr). */
bool qemu_preset_options(const char *cfg, const char *name, char *out, size_t cap);

/* One environment block (QEMU_ENV_SIZE bytes at blk) setting tp_preset,
 * tp_timeout and tp_options.  False if it would not fit. */
bool qemu_env_block(char *blk, const char *preset, int timeout, const char *options);

/* Copies image to out_fd, replacing every tickprobe.env block with blk.
 * Returns how many it replaced, or -1 on an I/O error. */
int qemu_patch_copy(const char *image, int out_fd, const char *blk);

#endif
