/* SPDX-License-Identifier: BSD-2-Clause */
#include "drivers/uart.h"
#include "arch/x86/cpu.h"

#define UART_CLOCK 115200 /* divisor base: the 1.8432 MHz crystal / 16 */
#define THR 0
#define DLL 0
#define IER 1
#define DLM 1
#define FCR 2
#define LCR 3
#define MCR 4
#define LSR 5
#define SCR 7
#define RBR 0 /* the receive buffer, where the transmit one is */
#define LSR_DR 0x01
#define LSR_THRE 0x20
#define MCR_LOOP 0x10

/* At 9600 baud a byte takes 1.04 ms; a port read costs about 1 us on real
 * ISA-decoded hardware, so 200000 polls cover 200 ms: a wedged or absent
 * transmitter costs a bounded delay per byte and the byte is dropped.  After
 * 16 drops in a row the port is declared gone, so a run cannot slow to a
 * crawl on a dead UART. */
#define TX_POLLS 200000
#define DEAD_AFTER 16

bool uart_init(struct uart *u, uint16_t port, uint32_t baud)
{
	uint16_t div;

	u->port = port;
	u->baud = baud;
	u->present = false;
	u->dropped = 0;
	if (!baud || baud > UART_CLOCK || UART_CLOCK % baud)
		return false;
	/* An absent port floats to 0xFF: the scratch register must hold two
	 * different patterns, and loopback must echo. */
	outb(port + SCR, 0x5a);
	if (inb(port + SCR) != 0x5a)
		return false;
	outb(port + SCR, 0xa5);
	if (inb(port + SCR) != 0xa5)
		return false;

	div = (uint16_t)(UART_CLOCK / baud);
	outb(port + IER, 0x00);
	outb(port + LCR, 0x80); /* divisor latch */
	outb(port + DLL, div & 0xff);
	outb(port + DLM, div >> 8);
	outb(port + LCR, 0x03); /* 8N1 */
	outb(port + FCR, 0x07); /* FIFO on, cleared */
	outb(port + MCR, MCR_LOOP | 0x0b);
	/* Three tries, each byte different: a byte the firmware's own console
	 * driver left in flight (OVMF writes COM1 until it hands over) can land
	 * in the receiver once, and must not cost the whole run its serial log. */
	for (int t = 0;; t++) {
		uint8_t b = (uint8_t)(0xae + t);
		outb(port + FCR, 0x07);
		outb(port + THR, b);
		for (int i = 0; i < TX_POLLS; i++)
			if (inb(port + LSR) & LSR_DR)
				break;
		if (inb(port + RBR) == b)
			break;
		if (t == 2)
			return false;
	}
	outb(port + MCR, 0x0b); /* DTR, RTS, OUT2: normal operation */
	u->present = true;
	return true;
}

static void put(struct uart *u, char c)
{
	for (int i = 0; i < TX_POLLS; i++) {
		if (inb(u->port + LSR) & LSR_THRE) {
			outb(u->port + THR, (uint8_t)c);
			u->dropped = 0;
			return;
		}
	}
	if (++u->dropped >= DEAD_AFTER)
		u->present = false;
}

void uart_write(struct uart *u, const char *s, size_t n)
{
	while (n-- && u->present) {
		if (*s == '\n')
			put(u, '\r'); /* terminals want CRLF; readers strip the CR */
		put(u, *s++);
	}
}

bool uart_key(struct uart *u)
{
	if (!u->present || !(inb(u->port + LSR) & LSR_DR))
		return false;
	(void)inb(u->port + RBR);
	return true;
}

unsigned uart_read(struct uart *u, char *buf, unsigned cap)
{
	unsigned n = 0;

	while (u->present && n < cap && (inb(u->port + LSR) & LSR_DR))
		buf[n++] = (char)inb(u->port + RBR);
	return n;
}
