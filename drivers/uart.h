/* SPDX-License-Identifier: BSD-2-Clause */
/* 16550 UART, polled.  Detects a missing port and never waits on one forever. */
#ifndef DRIVERS_UART_H
#define DRIVERS_UART_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

struct uart {
	uint16_t port;
	uint32_t baud;
	bool present;
	uint32_t dropped; /* bytes given up on after the transmitter stayed busy */
};

/* Probe and program 8N1 at baud.  Returns false (and present = false) when no
 * UART answers at port. */
bool uart_init(struct uart *u, uint16_t port, uint32_t baud);
void uart_write(struct uart *u, const char *s, size_t n);
/* A byte received (taken and dropped): a key typed on the serial console. */
bool uart_key(struct uart *u);
/* The bytes received, up to cap, without waiting; how many. */
unsigned uart_read(struct uart *u, char *buf, unsigned cap);

#endif
