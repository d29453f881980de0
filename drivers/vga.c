#include "drivers/vga.h"
#include "arch/x86/cpu.h"
#include <stdint.h>

#define COLS 80
#define ROWS 25
#define ATTR 0x07 /* light grey on black */

static volatile uint16_t *const screen = (volatile uint16_t *)0xB8000;
static int row, col;

static void scroll(void)
{
	for (int i = 0; i < (ROWS - 1) * COLS; i++)
		screen[i] = screen[i + COLS];
	for (int i = (ROWS - 1) * COLS; i < ROWS * COLS; i++)
		screen[i] = ATTR << 8 | ' ';
	row = ROWS - 1;
}

static void cursor(void)
{
	uint16_t pos = (uint16_t)(row * COLS + col);
	outb(0x3d4, 0x0f);
	outb(0x3d5, pos & 0xff);
	outb(0x3d4, 0x0e);
	outb(0x3d5, pos >> 8);
}

void vga_init(void)
{
	for (int i = 0; i < ROWS * COLS; i++)
		screen[i] = ATTR << 8 | ' ';
	row = col = 0;
	cursor();
}

void vga_write(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	while (n--) {
		char c = *s++;
		if (c == '\n') {
			col = 0;
			row++;
		} else if (c == '\r') {
			col = 0;
		} else {
			if (col == COLS) {
				col = 0;
				row++;
			}
			if (row == ROWS)
				scroll();
			screen[row * COLS + col++] = (uint16_t)(ATTR << 8 | (uint8_t)c);
		}
		if (row == ROWS)
			scroll();
	}
	cursor();
}
