/* SPDX-License-Identifier: BSD-2-Clause */
/* The i8254 programmable interval timer, and bare ISA port accesses.
 * Channel 0 is programmed to mode 2 (rate generator) with the full 65536
 * count, so it counts down by one per tick and wraps every 54.9 ms, as
 * FreeBSD's i8254 timecounter has it. */
#include "arch/x86/cpu.h"
#include "lib/util.h"
#include "probe/counter.h"

#define I8254_HZ 1193182ull

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

/* Channel 0 back in a known state: after the single-access measurements,
 * which leave a latch pending and the byte flip-flop anywhere. */
static void i8254_reset(void)
{
	outb(PIT_CMD, CMD_CH0_LOHI_MODE2);
	outb(PIT_CH0, 0); /* 0 means 65536 */
	outb(PIT_CH0, 0);
}

/* The single port accesses leave a latch pending and the byte flip-flop
 * anywhere: channel 0 is programmed again after each (settle).  They are
 * timed to split an i8254 read into its three ISA accesses (over 1 us each
 * on hardware), which their p50 does: 10,000 reads give it, where 100,000
 * would add 0.3 s on hardware and, under TCG, 1-2 KB of single-read tail
 * bins to the log (docs/log-format.md, "Size"). */
static const struct counter_desc i8254_counters[] = {
	{ .name = "i8254", .read = i8254_read_latched, .insns = 9,
	  .method = "outb 0x43 latch, inb 0x40 low, high; mode 2, 65536", .width = 16, .nominal_hz = I8254_HZ,
	  .is_counter = true, .calibrates = "pit" },
	{ .name = "i8254-inb40", .read = i8254_read_inb40, .insns = 1, .method = "inb 0x40",
	  .needs = "i8254", .disturbs = true, .samples_div = 10 },
	{ .name = "i8254-outb43", .read = i8254_write_outb43, .insns = 2, .method = "outb 0x43 (latch)",
	  .needs = "i8254", .disturbs = true, .samples_div = 10 },
	{ .name = "port80", .read = port80_read, .insns = 1, .method = "inb 0x80 (an ISA round trip)",
	  .samples_div = 10 },
};
#define I8254_COUNTERS (sizeof i8254_counters / sizeof i8254_counters[0])

/* The one struct this part owns: the descriptors as attach filled them. */
static struct {
	struct counter c[I8254_COUNTERS];
} i8254;

static void i8254_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s)
{
	(void)env;
	i8254_reset();
	for (unsigned i = 0; i < I8254_COUNTERS; i++) {
		counter_from_desc(&i8254.c[i], &i8254_counters[i]);
		counter_state_init(&s[i]);
		c[i] = &i8254.c[i];
	}
}

static void i8254_settle(void *ctx)
{
	(void)ctx;
	i8254_reset();
}

const struct counter_driver i8254_driver = {
	.name = "i8254", .counters = i8254_counters, .n = I8254_COUNTERS, .attach = i8254_attach,
	.settle = i8254_settle,
};
