/* SPDX-License-Identifier: BSD-2-Clause */
/* Starting the other CPUs, and their mailboxes (the design is in smp.h).
 *
 * Why all APs are started together, not one after another (Linux before 6.5
 * did one at a time; memtest86+ and Linux since 6.5 start them in parallel):
 * the 10 ms after INIT and the arrival bound are then paid once, not once per
 * CPU (2.6 s at 256 CPUs, and 256 s for 256 missing ones at a 1 s bound).  The
 * trampoline writes nothing shared and each AP claims only its own entry, so
 * arriving together is safe; each AP's start-up time is still its own: from
 * its first STARTUP IPI to the boot CPU seeing it in its mailbox loop.
 *
 * Why UEFI uses this same INIT-SIPI-SIPI and not EFI_MP_SERVICES_PROTOCOL:
 * one start-up on both boot paths, measured the same way; MP services runs a
 * procedure on firmware stacks, GDT and IDT, and tracks non-blocking work
 * through a timer event, which needs the interrupts the probe keeps off.  The
 * cost: once INIT has reset them, the firmware no longer owns its APs, so
 * nothing may call MP services afterwards.  The probe never does, and never
 * returns to the firmware (it halts or exits QEMU at the end). */
#include "arch/x86/smp_internal.h"
#include "arch/x86/msr.h"
#include "lib/util.h"

_Static_assert(SMP_MAX_CPUS == AP_MAX_CPUS, "one limit for C and the trampoline");

#define CR0_PE (1u << 0)
#define CR0_MP (1u << 1)
#define CR0_ET (1u << 4)
#define CR0_NE (1u << 5)
#define CR0_WP (1u << 16)
#define CR0_AM (1u << 18)
#define CR0_PG (1u << 31)
#define CR4_PAE (1u << 5)
#define CR4_PGE (1u << 7)
#define CR4_OSFXSR (1u << 9)
#define CR4_OSXMMEXCPT (1u << 10)
#define CR4_LA57 (1u << 12)
#define PTE_TABLE 0x3ull  /* present, writable */
#define PDE_2M 0x83ull    /* present, writable, 2 MiB page */
#define ESR_ERRORS 0xefu  /* all but bit 4, as Linux and memtest86+ read it */
#define TEXT(x) #x
#define NUMBER(x) TEXT(x)

extern const char ap_trampoline_start[], ap_trampoline_end[], ap_trampoline_data[], ap_entry64[];

struct tr_data {
	uint64_t gdt[4];
	uint16_t gdt_limit;
	uint32_t gdt_base;
	uint16_t pad0;
	uint32_t jmp32_offset;
	uint16_t jmp32_sel, pad1;
	uint32_t jmp64_offset;
	uint16_t jmp64_sel, pad2;
	uint32_t cr3, cr4, cr0, efer;
	uint64_t real_cr3, entry, handover;
} __attribute__((packed));
_Static_assert(offsetof(struct tr_data, gdt_limit) == TRD_GDTR && offsetof(struct tr_data, jmp32_offset) == TRD_JMP32 &&
	       offsetof(struct tr_data, jmp64_offset) == TRD_JMP64 && offsetof(struct tr_data, cr3) == TRD_CR3 &&
	       offsetof(struct tr_data, cr4) == TRD_CR4 && offsetof(struct tr_data, cr0) == TRD_CR0 &&
	       offsetof(struct tr_data, efer) == TRD_EFER && offsetof(struct tr_data, real_cr3) == TRD_REAL_CR3 &&
	       offsetof(struct tr_data, entry) == TRD_ENTRY && offsetof(struct tr_data, handover) == TRD_HANDOVER &&
	       sizeof(struct tr_data) == TRD_SIZE, "trampoline data block");

/* ---- bounded waits ------------------------------------------------------ */

struct smp smp;

static uint64_t us(uint64_t n) { return n * smp.cycles_per_us; }

static void delay(uint64_t cycles)
{
	uint64_t t0 = rdtsc(), polls = 0;
	while (within(t0, cycles, &polls))
		__builtin_ia32_pause();
}

/* ---- the table of CPUs --------------------------------------------------- */

unsigned smp_find_entry(uint32_t apic_id)
{
	for (unsigned e = 0; e < smp.n; e++)
		if (smp.ho.apic_id[e] == apic_id)
			return e;
	return SMP_NO_CPU;
}

static void add_entry(uint32_t apic_id, const char *why)
{
	unsigned e = smp.n++;
	smp.ho.apic_id[e] = apic_id;
	smp.e[e] = (struct smp_entry){ .apic_id = apic_id, .state = SMP_DISABLED, .cpu = SMP_NO_CPU, .why = why };
}

static void build_table(const struct smp_config *cfg, const struct smp_cpu_desc *cpus, unsigned n, uint32_t bsp)
{
	smp.n = 0;
	add_entry(bsp, NULL);
	smp.e[0].state = SMP_BSP;
	smp.e[0].cpu = 0;
	for (unsigned i = 0; i < n && smp.n < SMP_MAX_CPUS; i++)
		if (smp_find_entry(cpus[i].apic_id) == SMP_NO_CPU) /* the boot CPU, or listed twice */
			add_entry(cpus[i].apic_id, cpus[i].enabled ? NULL : "not enabled in the MADT");
	if (cfg->ghost && smp.n < SMP_MAX_CPUS && smp_find_entry(cfg->ghost_apic_id) == SMP_NO_CPU)
		add_entry(cfg->ghost_apic_id, NULL);
}

/* ---- the trampoline and its page tables ---------------------------------- */

static uint64_t read_cr(int which)
{
	uint64_t v = 0;
	if (which == 0)
		__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	else if (which == 3)
		__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	else
		__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

struct pool {
	uint64_t root, next, end;
	int top_shift; /* 48 with LA57 (5 levels), else 39 */
};

/* Entry i of the page table at physical (= virtual) address table. */
static volatile uint64_t *pte(uint64_t table, uint64_t i)
{
	return (volatile uint64_t *)(uintptr_t)table + i;
}

/* Identity-maps the 2 MiB page holding addr, taking tables from the pool. */
static bool map_2m(struct pool *p, uint64_t addr)
{
	uint64_t t = p->root;
	for (int shift = p->top_shift; shift > 21; shift -= 9) {
		volatile uint64_t *entry = pte(t, addr >> shift & 511);
		if (!(*entry & 1)) {
			if (p->next + 4096 > p->end)
				return false;
			tp_memset((void *)(uintptr_t)p->next, 0, 4096);
			*entry = p->next | PTE_TABLE;
			p->next += 4096;
		}
		t = *entry & 0x000ffffffffff000ull;
	}
	*pte(t, addr >> 21 & 511) = (addr & ~0x1fffffull) | PDE_2M;
	return true;
}

/* Copies the trampoline into the low area and fills its data block; returns
 * the STARTUP vector (the page number), or 0 with *why set. */
static unsigned set_up_trampoline(const struct smp_config *cfg, const char **why)
{
	uint64_t lo = cfg->low_area < 0x1000 ? 0x1000 : (cfg->low_area + 0xfff) & ~0xfffull;
	uint64_t cr4 = read_cr(4), efer = msr_read(MSR_EFER);
	struct pool p = { .root = lo + 4096, .next = lo + 8192, .end = lo + SMP_LOW_BYTES };
	struct tr_data *d;

	if (!cfg->low_area_bytes) {
		*why = "no memory below 1 MiB was reserved for the start-up code";
		return 0;
	}
	/* 0xa0000 up is video memory and ROM: a STARTUP vector must point at RAM. */
	if (lo + SMP_LOW_BYTES > cfg->low_area + cfg->low_area_bytes || lo + SMP_LOW_BYTES > 0xa0000) {
		*why = "the memory reserved below 1 MiB is too small for the start-up code";
		return 0;
	}
	tp_memcpy((void *)(uintptr_t)lo, ap_trampoline_start,
		  (size_t)((uintptr_t)ap_trampoline_end - (uintptr_t)ap_trampoline_start));
	d = (struct tr_data *)(uintptr_t)(lo + ((uintptr_t)ap_trampoline_data - (uintptr_t)ap_trampoline_start));
	d->gdt_base += (uint32_t)lo;
	d->jmp32_offset += (uint32_t)lo;
	d->jmp64_offset += (uint32_t)lo;
	d->cr4 = CR4_PAE | CR4_OSFXSR | CR4_OSXMMEXCPT | (uint32_t)(cr4 & (CR4_PGE | CR4_LA57));
	/* EM, TS, CD and NW clear: SSE on, caches on. */
	d->cr0 = (uint32_t)(read_cr(0) & (CR0_MP | CR0_ET | CR0_NE | CR0_WP | CR0_AM)) | CR0_MP | CR0_PE | CR0_PG;
	/* NXE as on the boot CPU: its page tables may hold NX bits, reserved without it. */
	d->efer = EFER_LME | (uint32_t)(efer & EFER_NXE);
	d->real_cr3 = read_cr(3);
	d->entry = (uintptr_t)ap_entry64;
	d->handover = (uintptr_t)&smp.ho;
	p.top_shift = (cr4 & CR4_LA57) ? 48 : 39;
	tp_memset((void *)(uintptr_t)p.root, 0, 4096);
	if (!map_2m(&p, lo) || !map_2m(&p, (uintptr_t)ap_entry64)) {
		*why = "the start-up page tables do not fit the low area";
		return 0;
	}
	d->cr3 = (uint32_t)p.root;
	smp.start_code = lo;
	return (unsigned)(lo >> 12);
}

static void set_up_handover(const struct smp_config *cfg)
{
	__asm__ volatile("sgdt %0" : "=m"(smp.ho.gdtr.limit), "=m"(smp.ho.gdtr.base));
	__asm__ volatile("sidt %0" : "=m"(smp.ho.idtr.limit), "=m"(smp.ho.idtr.base));
	__asm__ volatile("mov %%cs, %0" : "=r"(smp.ho.cs));
	__asm__ volatile("mov %%ds, %0" : "=r"(smp.ho.ds));
	__asm__ volatile("mov %%ss, %0" : "=r"(smp.ho.ss));
	__asm__ volatile("stmxcsr %0" : "=m"(smp.mxcsr));
	smp.ho.apic_base = smp.apic.base;
	smp.ho.stacks = cfg->stack_area;
	smp.ho.stack_bytes = SMP_AP_STACK_BYTES;
	smp.ho.count = smp.n;
	smp.has_pat = cpuid(1, 0).edx >> 16 & 1;
	smp.has_rdtscp = cpu_has_rdtscp();
	if (smp.has_pat)
		smp.pat = msr_read(MSR_PAT);
}

/* ---- INIT, STARTUP, arrival ---------------------------------------------- */

static bool pending(unsigned e)
{
	return smp.e[e].state == SMP_NO_RESPONSE && !smp.e[e].why;
}

static void mark_running(unsigned e)
{
	smp.e[e].state = SMP_RUNNING;
	smp.e[e].startup_cycles = rdtsc() - smp.first_sipi[e];
}

static void send_init(uint32_t apic_id)
{
	lapic_ipi(&smp.apic, apic_id, ICR_INIT | ICR_LEVEL_ASSERT | ICR_TRIGGER_LEVEL, us(100000));
}

/* The boot CPU stops waiting for entry e: abandoned unless it made it. */
static void give_up(unsigned e, const char *why)
{
	uint32_t s = __atomic_load_n(&smp.ho.state[e], __ATOMIC_ACQUIRE);
	while (s == AP_STARTING || s == AP_ARRIVED)
		if (__atomic_compare_exchange_n(&smp.ho.state[e], &s, AP_ABANDONED, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			smp.e[e].why = why;
			send_init(smp.ho.apic_id[e]);
			return;
		}
	if (s == AP_RUNNING)
		mark_running(e);
}

/* Waits up to max_cycles for every pending entry to be RUNNING. */
static void await_arrivals(uint64_t max_cycles)
{
	uint64_t t0 = rdtsc(), polls = 0;
	for (;;) {
		unsigned left = 0;
		for (unsigned e = 1; e < smp.n; e++)
			if (pending(e)) {
				if (__atomic_load_n(&smp.ho.state[e], __ATOMIC_ACQUIRE) == AP_RUNNING)
					mark_running(e);
				else
					left++;
			}
		smp_check_fault();
		if (!left || !within(t0, max_cycles, &polls))
			return;
		__builtin_ia32_pause();
	}
}

static void start_pending(unsigned vector)
{
	const struct lapic *a = &smp.apic;
	uint64_t ipi_bound = us(100000); /* the ICR must go idle within 100 ms (Linux's bound) */
	unsigned e;

	lapic_esr(a);
	for (e = 1; e < smp.n; e++)
		if (pending(e) && !lapic_ipi(a, smp.ho.apic_id[e], ICR_INIT | ICR_LEVEL_ASSERT | ICR_TRIGGER_LEVEL, ipi_bound))
			give_up(e, "INIT not sent: the ICR stayed busy");
	delay(us(10000));
	/* The level de-assert only matters to the oldest integrated APICs; the
	 * x2APIC has no such message. */
	if (!a->x2apic)
		for (e = 1; e < smp.n; e++)
			if (pending(e))
				lapic_ipi(a, smp.ho.apic_id[e], ICR_INIT | ICR_TRIGGER_LEVEL, ipi_bound);
	for (int round = 0; round < 2; round++) {
		for (e = 1; e < smp.n; e++) {
			uint32_t esr;
			/* The second STARTUP only for a CPU that has not arrived: one
			 * that has would ignore it anyway (it is past wait-for-SIPI). */
			if (!pending(e) || __atomic_load_n(&smp.ho.state[e], __ATOMIC_ACQUIRE) != AP_STARTING)
				continue;
			lapic_esr(a);
			if (!smp.first_sipi[e])
				smp.first_sipi[e] = rdtsc();
			smp.e[e].sipis++;
			if (!lapic_ipi(a, smp.ho.apic_id[e], ICR_STARTUP | vector, ipi_bound))
				give_up(e, "STARTUP not sent: the ICR stayed busy");
			else if ((esr = lapic_esr(a) & ESR_ERRORS) != 0)
				give_up(e, esr & 0x4 ? "STARTUP not accepted (ESR send accept error)"
						     : "STARTUP failed (ESR error)");
		}
		await_arrivals(us(200));
	}
	await_arrivals(us(SMP_ARRIVAL_MS * 1000ull));
	for (e = 1; e < smp.n; e++)
		if (pending(e))
			give_up(e, "no response within " NUMBER(SMP_ARRIVAL_MS) " ms of its STARTUP IPI");
}

/* ---- start-up ---------------------------------------------------------- */

unsigned smp_start(const struct smp_config *cfg, const struct smp_cpu_desc *cpus, unsigned n)
{
	const char *apic_why = lapic_init(&smp.apic);
	const char *why = apic_why;
	uint32_t bsp = apic_why ? cpuid(1, 0).ebx >> 24 : lapic_id(&smp.apic);
	unsigned vector = 0, e, want = 0, k = 0;

	smp.cycles_per_us = cfg->tsc_hz > 0 ? (uint64_t)(cfg->tsc_hz / 1e6) + 1 : 10000;
	smp.on_ap_exception = cfg->on_ap_exception;
	build_table(cfg, cpus, n, bsp);
	for (e = 1; e < smp.n; e++)
		if (!smp.e[e].why && !cfg->off && cfg->wanted[e / 8] >> (e % 8) & 1)
			want++;
	if (!why && want && cfg->stack_area_bytes < SMP_AP_STACK_BYTES)
		why = "no memory was reserved for the other CPUs' stacks";
	if (!why && want)
		vector = set_up_trampoline(cfg, &why);
	smp.problem = want ? why : n ? NULL : cfg->list_why;
	for (e = 1; e < smp.n; e++) {
		struct smp_entry *x = &smp.e[e];
		if (x->why)
			continue;
		if (cfg->off)
			x->why = "smp=off";
		else if (!(cfg->wanted[e / 8] >> (e % 8) & 1))
			x->why = "not in cpus=";
		else if (why)
			x->why = why;
		else if (x->apic_id > lapic_max_dest(&smp.apic))
			x->why = "APIC ID above 0xfe: an xAPIC cannot name it";
		else if ((uint64_t)e * SMP_AP_STACK_BYTES > cfg->stack_area_bytes)
			x->why = "no stack reserved for it";
		else {
			x->state = SMP_NO_RESPONSE; /* until it arrives */
			smp.ho.state[e] = AP_STARTING;
		}
	}
	if (!apic_why) {
		set_up_handover(cfg);
		smp_idle_setup();
		smp.started = true;
		idt_set_cpu_filter(smp_exception_filter);
		if (vector)
			start_pending(vector);
	}
	for (e = 0; e < smp.n; e++)
		if (smp.e[e].state == SMP_BSP || smp.e[e].state == SMP_RUNNING) {
			smp.e[e].cpu = k;
			smp.team_entry[k++] = (uint16_t)e;
		}
	smp.team = (struct team){ .count = k, .run = smp_team_run, .tsc = smp_team_tsc, .plat = &smp };
	if (smp.has_rdtscp)
		msr_write(MSR_TSC_AUX, 0);
	return k;
}

/* ---- what others read -------------------------------------------------- */

unsigned smp_entries(void) { return smp.n; }
const struct smp_entry *smp_entry(unsigned e) { return e < smp.n ? &smp.e[e] : NULL; }
const char *smp_problem(void) { return smp.problem; }
uint64_t smp_start_code(void) { return smp.start_code; }
bool smp_x2apic(void) { return smp.apic.x2apic; }
struct team *smp_team(void) { return &smp.team; }

uint32_t smp_apic_id(unsigned cpu)
{
	if (!smp.n)
		return cpu == 0 ? cpuid(1, 0).ebx >> 24 : ~0u;
	return cpu < smp.team.count ? smp.ho.apic_id[smp.team_entry[cpu]] : ~0u;
}
