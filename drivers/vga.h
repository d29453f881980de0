/* SPDX-License-Identifier: BSD-2-Clause */
/* VGA text mode (80x25 at 0xB8000): the screen on the BIOS path. */
#ifndef DRIVERS_VGA_H
#define DRIVERS_VGA_H

#include <stddef.h>

void vga_init(void);
void vga_write(void *ctx, const char *s, size_t n); /* fits struct console.write */

#endif
