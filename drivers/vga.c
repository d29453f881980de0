/* SPDX-License-Identifier: BSD-2-Clause */
#include "drivers/vga.h"
#include "arch/x86/cpu.h"
#include <stdint.h>

#define COLS 80
#define ROWS 25
#define ATTR 0x07 /* light grey on black */

static volatile uint16_t *const screen = (volatile uint16_t *)0xB8000;
/* The cursor: the one state this part owns. */
static struct {
	int row, col;
} vga;

static void scroll(void)
{
	for (int i = 0; i < (ROWS - 1) * COLS; i++)
		screen[i] = screen[i + COLS];
	for (int i = (ROWS - 1) * COLS; i < ROWS * COLS; i++)
		screen[i] = ATTR << 8 | ' ';
	vga.row = ROWS - 1;
}

static void cursor(void)
{
	uint16_t pos = (uint16_t)(vga.row * COLS + vga.col);
	outb(0x3d4, 0x0f);
	outb(0x3d5, pos & 0xff);
	outb(0x3d4, 0x0e);
	outb(0x3d5, pos >> 8);
}

void vga_init(void)
{
	for (int i = 0; i < ROWS * COLS; i++)
		screen[i] = ATTR << 8 | ' ';
	vga.row = vga.col = 0;
	cursor();
}

void vga_write(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	while (n--) {
		char c = *s++;
		if (c == '\n') {
			vga.col = 0;
			vga.row++;
		} else if (c == '\r') {
			vga.col = 0;
		} else {
			if (vga.col == COLS) {
				vga.col = 0;
				vga.row++;
			}
			if (vga.row == ROWS)
				scroll();
			screen[vga.row * COLS + vga.col++] = (uint16_t)(ATTR << 8 | (uint8_t)c);
		}
		if (vga.row == ROWS)
			scroll();
	}
	cursor();
}
