/* SPDX-License-Identifier: BSD-2-Clause */
/* The local APIC timer (Intel SDM Vol. 3A 11.5.4 "APIC Timer"; 10.5.4 in
 * older editions): the cost of reading its current count, through the xAPIC
 * MMIO page ("lapic") or the x2APIC MSR ("lapic-x2"), and the cost of arming
 * and disarming the TSC-deadline timer ("tsc-deadline"). */
#include "acpi/acpi.h"
#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "lib/fmt.h"
#include "lib/hwregs.h"
#include "lib/util.h"
#include "probe/counter.h"

#define MSR_APIC_BASE 0x1b
#define APIC_BASE_EXTD (1ull << 10) /* x2APIC mode */
#define APIC_BASE_EN (1ull << 11)   /* the APIC is enabled */
#define APIC_BASE_ADDR 0x000ffffffffff000ull

#define LVT_MASKED (1u << 16)
#define LVT_PERIODIC (1u << 17)          /* bits 18:17 = 01b */
#define LVT_TSC_DEADLINE (2u << 17)      /* bits 18:17 = 10b */
/* Never delivered (the entry is masked and interrupts are off); a vector
 * below 16 would be an illegal-vector error in the ESR. */
#define LVT_VECTOR 0xef
#define DIVIDE_BY_1 0xb                  /* bits 3,1,0 = 1,1,1 */
#define INITIAL_MAX 0xffffffffu

/* The current count runs down from the initial count and, periodic, reloads
 * it at zero.  The reads return it inverted (NOT), so the value runs up as
 * the delta, monotonicity and rate checks expect of every counter, and a
 * reload is an ordinary 32-bit wrap (one tick short: the period is 2^32 - 1
 * ticks at this initial count). */
uint64_t lapic_read_xapic(const struct counter *c);
uint64_t lapic_read_x2apic(const struct counter *c);
/* Arm the TSC-deadline timer 2^63 - 1 cycles ahead (a century at 3 GHz:
 * never reached), then disarm it with 0: the two writes a tickless kernel
 * makes when it reprograms its next event and cancels it. */
uint64_t tsc_deadline_write(const struct counter *c);
/* One instruction a line, as an assembler listing reads. */
/* clang-format off */
__asm__(".text\n"
	"lapic_read_xapic:\n"
	"	mov (%rdi), %rax\n" /* counter.hw: the APIC page */
	"	mov " HW_STR(LAPIC_REG_CURRENT) "(%rax), %eax\n"
	"	not %eax\n"
	"	ret\n"
	"lapic_read_x2apic:\n"
	"	mov $" HW_STR(X2APIC_MSR_CURRENT) ", %ecx\n" /* the current count */
	"	rdmsr\n"
	"	not %eax\n"
	"	ret\n"
	"tsc_deadline_write:\n"
	"	mov $" HW_STR(MSR_TSC_DEADLINE) ", %ecx\n"
	"	mov $0xffffffff, %eax\n"
	"	mov $0x7fffffff, %edx\n"
	"	wrmsr\n"
	"	xor %eax, %eax\n"
	"	xor %edx, %edx\n"
	"	wrmsr\n"
	"	ret\n");
/* clang-format on */

static void apic_counting(void *ctx);
static void apic_deadline(void *ctx);

/* Each mode of the APIC is the only one on some machines, and the deadline
 * timer is on some machines only: attach says when an absence is by design
 * (counter_state.by_design).  The rate is the core crystal's where CPUID
 * 0x15 gives it (attach), else measured against the TSC (rated).  Every
 * read programs the timer (prepare), which settle puts back. */
static const struct counter_desc lapic_counters[] = {
	{ .name = "lapic", .read = lapic_read_xapic, .insns = 3, .width = 32, .is_counter = true,
	  .rated = true, .disturbs = true, .prepare = apic_counting },
	{ .name = "lapic-x2", .read = lapic_read_x2apic, .insns = 3, .width = 32, .is_counter = true,
	  .rated = true, .disturbs = true, .prepare = apic_counting },
	{ .name = "tsc-deadline", .read = tsc_deadline_write, .insns = 7,
	  .method = "wrmsr 0x6e0 (IA32_TSC_DEADLINE) = 2^63-1, then 0: arm and disarm; LVT masked",
	  .disturbs = true, .prepare = apic_deadline },
};
#define LAPIC_COUNTERS (sizeof lapic_counters / sizeof lapic_counters[0])

/* The one struct this part owns: the APIC's mode and base, the timer
 * registers of the CPU being programmed as they were before (put back by
 * lapic_timer_settle), and the methods, which say how the timer was
 * programmed.  One CPU programs it at a time. */
static struct lapic_timer {
	bool usable;   /* an enabled local APIC this driver can program */
	bool x2;       /* in x2APIC mode: registers through MSRs 0x800.. */
	bool deadline; /* CPUID offers the TSC-deadline mode */
	bool touched;  /* programmed since the firmware's registers were last put back */
	bool armed;    /* in TSC-deadline mode, by lapic_timer_prepare */
	uint64_t base; /* xAPIC: the MMIO page, from IA32_APIC_BASE */
	uint32_t lvt, initial, divide; /* before the first prepare since the last settle */
	char method[2][COUNTER_TEXT];
	struct counter c[LAPIC_COUNTERS]; /* the descriptors as attach filled them */
} lapic;

static uint32_t apic_get(const struct lapic_timer *t, unsigned reg)
{
	return t->x2 ? (uint32_t)rdmsr(X2APIC_MSR(reg)) : mmio_read32(t->base + reg);
}

static void apic_put(const struct lapic_timer *t, unsigned reg, uint32_t v)
{
	if (t->x2)
		wrmsr(X2APIC_MSR(reg), v);
	else
		mmio_write32(t->base + reg, v);
}

/* madt_base: the MADT's Local APIC address (a type 5 override's when there
 * is one), 0 for none: compared with IA32_APIC_BASE, which is what the CPU
 * decodes, and noted when it differs. */
static void lapic_timer_setup(struct lapic_timer *t, uint64_t madt_base, struct counter *d, struct counter_state *s)
{
	struct cpuid_regs r1 = cpuid(1, 0);
	uint32_t max = cpuid(0, 0).eax;
	bool x2_offered = r1.ecx >> 21 & 1, arat = max >= 6 && (cpuid(6, 0).eax >> 2 & 1);
	uint64_t apic_base = 0;
	const char *why = NULL;
	char buf[COUNTER_TEXT];

	tp_memset(t, 0, sizeof *t);
	t->deadline = r1.ecx >> 24 & 1;
	/* The programming, in the methods: it is part of what was measured. */
	tp_snprintf(t->method[0], sizeof t->method[0],
		    "MMIO load, base + 0x390, inverted; periodic, /1, masked; ARAT %s",
		    arat ? "yes" : "no");
	tp_snprintf(t->method[1], sizeof t->method[1],
		    "rdmsr 0x839, inverted; periodic, /1, masked; ARAT %s",
		    arat ? "yes" : "no");
	for (unsigned i = 0; i < LAPIC_COUNTERS; i++) {
		counter_from_desc(&d[i], &lapic_counters[i]);
		counter_state_init(&s[i]);
	}
	d[0].method = t->method[0];
	d[1].method = t->method[1];

	if (!(r1.edx >> 9 & 1)) {
		for (unsigned i = 0; i < LAPIC_COUNTERS; i++)
			counter_not_here(&s[i], "CPUID.01H:EDX[9] clear: no local APIC");
		return;
	}
	if (!rdmsr_safe(MSR_APIC_BASE, &apic_base))
		why = "IA32_APIC_BASE (MSR 0x1b) cannot be read";
	else if (!(apic_base & APIC_BASE_EN))
		why = "the local APIC is disabled (IA32_APIC_BASE bit 11 clear)";
	if (why) {
		for (unsigned i = 0; i < LAPIC_COUNTERS; i++)
			counter_absent(&s[i], why);
		return;
	}
	t->x2 = apic_base & APIC_BASE_EXTD;
	t->base = apic_base & APIC_BASE_ADDR;
	/* The timer's clock is the core crystal where CPUID 0x15 ECX gives it
	 * (SDM, "APIC Timer"): 24 or 25 MHz on hardware, 1 GHz under KVM.
	 * Elsewhere the bus clock, which no CPUID leaf states: measured only. */
	if (max >= 0x15 && cpuid(0x15, 0).ecx)
		d[0].nominal_hz = d[1].nominal_hz = cpuid(0x15, 0).ecx;

	if (t->x2) {
		counter_not_here(&s[0], "the APIC is in x2APIC mode (IA32_APIC_BASE bit 10): its MMIO page does not answer");
	} else if (!phys_mapped(t->base, 4096)) {
		tp_snprintf(buf, sizeof buf, "APIC page at 0x%llx cannot be reached: outside this boot's memory map",
			    (unsigned long long)t->base);
		counter_absent(&s[0], buf);
	} else if (mmio_read32(t->base + LAPIC_REG_VERSION) == 0xffffffffu) {
		tp_snprintf(buf, sizeof buf, "APIC page at 0x%llx reads all-ones: nothing answers",
			    (unsigned long long)t->base);
		counter_absent(&s[0], buf);
	}
	d[0].hw = t->base;
	if (madt_base && madt_base != t->base) {
		tp_snprintf(buf, sizeof buf, "the MADT says 0x%llx, IA32_APIC_BASE 0x%llx: the MSR's is read",
			    (unsigned long long)madt_base, (unsigned long long)t->base);
		tp_memcpy(s[0].note, buf, sizeof s[0].note);
		tp_memcpy(s[1].note, buf, sizeof s[1].note);
	}
	if (!x2_offered)
		counter_not_here(&s[1], "CPUID.01H:ECX[21] clear: no x2APIC");
	/* Switching to x2APIC is one way only: back to xAPIC goes through a
	 * disabled APIC, which loses its state (SDM, "x2APIC State
	 * Transitions"), and the MMIO page stops answering at once, under the
	 * firmware's feet.  The mode is the firmware's. */
	else if (!t->x2)
		counter_not_here(&s[1], "x2APIC offered, but the firmware left xAPIC mode: not switched (the MMIO page would stop)");
	if (!t->deadline)
		counter_not_here(&s[2], "CPUID.01H:ECX[24] clear: no TSC-deadline timer");
	t->usable = s[0].present || s[1].present;
	if (!t->usable) {
		if (s[2].present)
			counter_absent(&s[2], "the APIC's registers cannot be reached: its timer cannot be put in TSC-deadline mode");
		return;
	}
}

/* The registers as they are on the CPU about to be programmed, kept for
 * lapic_timer_settle: each CPU has its own timer, and the per-CPU and
 * core-type measurements program the timer of whichever CPU runs them. */
static void keep_registers(struct lapic_timer *t)
{
	if (t->touched)
		return;
	t->lvt = apic_get(t, LAPIC_REG_LVT_TIMER);
	t->initial = apic_get(t, LAPIC_REG_INITIAL);
	t->divide = apic_get(t, LAPIC_REG_DIVIDE);
}

/* Counter k's timer state: periodic and counting for the current count (0,
 * 1), TSC-deadline mode for the deadline writes (2).  Always masked. */
static void lapic_timer_prepare(struct lapic_timer *t, unsigned k)
{
	if (!t->usable)
		return;
	if (k == 2) {
		if (!t->deadline)
			return;
		keep_registers(t);
		t->touched = t->armed = true;
		apic_put(t, LAPIC_REG_LVT_TIMER, LVT_MASKED | LVT_TSC_DEADLINE | LVT_VECTOR);
		/* SDM, "TSC-Deadline Mode": the LVT write must be seen before
		 * the first IA32_TSC_DEADLINE write, which is no memory access. */
		mfence();
		return;
	}
	keep_registers(t);
	t->touched = true;
	t->armed = false; /* leaving TSC-deadline mode disarms it (SDM, "TSC-Deadline Mode") */
	apic_put(t, LAPIC_REG_DIVIDE, DIVIDE_BY_1);
	apic_put(t, LAPIC_REG_LVT_TIMER, LVT_MASKED | LVT_PERIODIC | LVT_VECTOR);
	apic_put(t, LAPIC_REG_INITIAL, INITIAL_MAX); /* starts the count */
}

/* The timer registers back as the last prepare found them on this CPU, the
 * deadline disarmed. */
static void lapic_timer_settle(struct lapic_timer *t)
{
	/* Untouched, the firmware's timer is left exactly as it runs. */
	if (!t->usable || !t->touched)
		return;
	if (t->armed)
		wrmsr(MSR_TSC_DEADLINE, 0);
	t->touched = t->armed = false;
	apic_put(t, LAPIC_REG_DIVIDE, t->divide);
	apic_put(t, LAPIC_REG_LVT_TIMER, t->lvt);
	apic_put(t, LAPIC_REG_INITIAL, t->initial);
}

static void apic_counting(void *ctx)
{
	(void)ctx;
	lapic_timer_prepare(&lapic, 0);
}

static void apic_deadline(void *ctx)
{
	(void)ctx;
	lapic_timer_prepare(&lapic, 2);
}

static void lapic_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s)
{
	const struct acpi_info *a = env->acpi;

	lapic_timer_setup(&lapic, a->madt.present ? a->madt.lapic_address : 0, lapic.c, s);
	for (unsigned i = 0; i < LAPIC_COUNTERS; i++)
		c[i] = &lapic.c[i];
}

static void lapic_settle(void *ctx)
{
	(void)ctx;
	lapic_timer_settle(&lapic);
}

const struct counter_driver lapic_timer_driver = {
	.name = "local APIC", .counters = lapic_counters, .n = LAPIC_COUNTERS, .attach = lapic_attach,
	.settle = lapic_settle,
};
