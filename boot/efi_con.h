/* SPDX-License-Identifier: BSD-2-Clause */
/* The EFI console without serial duplication, and the preset menu.
 *
 * OVMF (and most EDK2 firmware) mirrors ConOut to COM1, and the core writes
 * COM1 itself, so text for a person must go to a text output that is not a
 * serial terminal: the graphics console (the handle that carries both
 * SIMPLE_TEXT_OUTPUT and GRAPHICS_OUTPUT and is not the ConOut splitter). */
#ifndef BOOT_EFI_CON_H
#define BOOT_EFI_CON_H

#include <efi.h>
#include <stddef.h>
#include "probe/presets.h"

/* The text output that reaches a screen and no serial line, or NULL:
 *  - the graphics console, when there is one;
 *  - else ConOut itself, when no text output is a serial terminal;
 *  - else NULL (headless with a serial console: the serial log has it all). */
SIMPLE_TEXT_OUTPUT_INTERFACE *efi_find_screen(void);

/* Fits struct boot_info.screen_write; ctx is the SIMPLE_TEXT_OUTPUT_INTERFACE. */
void efi_screen_write(void *ctx, const char *s, size_t n);

/* Shows the presets and the problems found in presets.cfg and tickprobe.env
 * on out (boot/efi.c passes ConOut, so that the menu reaches a serial
 * terminal too: only the countdown line is redrawn each second, so the
 * entries cross the serial line once) and waits up to presets_timeout() seconds; keys 1..9 pick and boot,
 * Up/Down move, Enter boots, any key stops the countdown.  With no menu to
 * show, the problems go to ConOut.  Returns the chosen index
 * (presets_default() when nobody chose). */
int efi_menu(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const struct presets *c);

#endif
