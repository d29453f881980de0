/* SPDX-License-Identifier: BSD-2-Clause */
#include "drivers/i8254.h"
#include "arch/x86/cpu.h"
#include "lib/util.h"

#define PIT_CH0 0x40
#define PIT_CMD 0x43
#define CMD_CH0_LOHI_MODE2 0x34 /* channel 0, low then high byte, mode 2, binary */

/* The full timecounter read: latch channel 0 (command 0x00), then the low and
 * high byte of the latched count.  The count runs down; negating it gives a
 * counter that runs up, which is what the delta and frequency checks expect.
 * Bruce Evans measured each of these three ISA accesses at 703-1317 ns. */
uint64_t i8254_read_latched(const struct counter *c);
uint64_t i8254_read_inb40(const struct counter *c);
uint64_t i8254_write_outb43(const struct counter *c);
uint64_t port80_read(const struct counter *c);
__asm__(".text\n"
	"i8254_read_latched:\n"
	"	xor %eax, %eax\n"
	"	out %al, $0x43\n"
	"	in $0x40, %al\n"
	"	mov %eax, %ecx\n"
	"	in $0x40, %al\n"
	"	mov %al, %ch\n"
	"	mov %ecx, %eax\n"
	"	neg %eax\n"
	"	and $0xffff, %eax\n"
	"	ret\n"
	"i8254_read_inb40:\n"
	"	in $0x40, %al\n"
	"	ret\n"
	"i8254_write_outb43:\n"
	"	xor %eax, %eax\n"
	"	out %al, $0x43\n"
	"	ret\n"
	/* Port 0x80 is the POST-code port: every PC decodes it, reading it has
	 * no effect, and it is the classic one-ISA-access delay. */
	"port80_read:\n"
	"	in $0x80, %al\n"
	"	ret\n");

void i8254_reset(void)
{
	outb(PIT_CMD, CMD_CH0_LOHI_MODE2);
	outb(PIT_CH0, 0); /* 0 means 65536 */
	outb(PIT_CH0, 0);
}

void i8254_setup(struct counter d[I8254_COUNTERS], struct counter_state s[I8254_COUNTERS])
{
	struct counter *full = &d[0];

	i8254_reset();
	counter_describe(full, "i8254", i8254_read_latched, 9,
		 "outb 0x43 latch, inb 0x40 low, high; mode 2, 65536");
	full->mask = 0xffff;
	full->width = 16;
	full->nominal_hz = I8254_HZ;
	full->is_counter = true;
	counter_describe(&d[1], "i8254-inb40", i8254_read_inb40, 1, "inb 0x40");
	counter_describe(&d[2], "i8254-outb43", i8254_write_outb43, 2, "outb 0x43 (latch)");
	counter_describe(&d[3], "port80", port80_read, 1, "inb 0x80 (an ISA round trip)");
	for (int i = 0; i < I8254_COUNTERS; i++)
		counter_state_init(&s[i]);
}
