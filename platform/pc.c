/* SPDX-License-Identifier: BSD-2-Clause */
/* The x86 platform of the run (probe/platform.h): the glue between the run
 * and the CPU primitives (cpu.h, bracket.S, idt.c, paging.c, machine.c) and
 * the drivers.  Both entry paths (boot/bios.c, boot/efi.c) come here. */
#include "platform/boot_info.h"
#include "arch/x86/bracket.h"
#include "arch/x86/cpu.h"
#include "arch/x86/idt.h"
#include "platform/machine.h"
#include "arch/x86/paging.h"
#include "arch/x86/smp.h"
#include "platform/smp_run.h"
#include "drivers/acpi_pm.h"
#include "drivers/hpet.h"
#include "drivers/hyperv.h"
#include "drivers/i8254.h"
#include "drivers/kvmclock.h"
#include "drivers/lapic_timer.h"
#include "drivers/rdpid.h"
#include "drivers/rtc.h"
#include "drivers/tsc.h"
#include "drivers/uart.h"
#include "probe/run.h"
#include "lib/util.h"

/* The one struct this part owns: the descriptors the drivers fill, the
 * serial line, and the run's exception hook. */
struct x86_platform {
	const struct boot_info *boot;
	struct platform p;
	struct uart com;
	platform_exception_fn hook;
	void *hook_ctx;
	struct counter tsc[TSC_COUNTERS], hpet[HPET_COUNTERS], pm[ACPI_PM_COUNTERS], pit[I8254_COUNTERS];
	struct counter apic[LAPIC_COUNTERS], rtc[RTC_COUNTERS], rdpid[RDPID_COUNTERS];
	struct counter kvm[KVMCLOCK_COUNTERS], hv[HYPERV_COUNTERS];
	struct lapic_timer lapic;
	struct kvmclock kvmclock;
	struct hyperv hyperv;
};

static struct x86_platform x86;

/* ---- consoles, memory, exceptions -------------------------------------- */

static void serial_write(void *ctx, const char *s, size_t n)
{
	struct uart *u = ctx;
	if (u->present)
		uart_write(u, s, n);
}

static unsigned open_consoles(void *ctx, uint16_t port, uint32_t baud, struct console *out, unsigned max)
{
	struct x86_platform *x = ctx;
	unsigned n = 0;

	if (port && n < max && uart_init(&x->com, port, baud))
		out[n++] = (struct console){ "serial", serial_write, &x->com, true, true };
	for (unsigned i = 0; i < x->boot->n_consoles && n < max; i++)
		out[n++] = x->boot->consoles[i];
	return n;
}

static void *alloc(void *ctx, size_t bytes)
{
	struct x86_platform *x = ctx;
	return x->boot->alloc ? x->boot->alloc(x->boot->alloc_ctx, bytes) : NULL;
}

__attribute__((noreturn)) static void halt(void *ctx)
{
	(void)ctx;
	for (;;)
		__asm__ volatile("cli; hlt");
}

static void on_cpu_exception(void *ctx, const struct exception_frame *f)
{
	struct x86_platform *x = ctx;
	struct platform_exception e = {
		.vector = f->vector, .error_code = f->error_code, .rip = f->rip,
		.cr2 = f->vector == 14 ? read_cr2() : 0, .name = exception_name(f->vector),
		.cpu_known = true, .cpu = 0, .apic_id = smp_apic_id(0),
	};
	if (x->hook)
		x->hook(x->hook_ctx, &e);
	halt(x);
}

/* An AP's exception, handed to the boot CPU by arch/x86/smp.c: the boot CPU
 * writes every record. */
static void on_ap_exception(unsigned cpu, uint32_t apic_id, const struct exception_frame *f, uint64_t cr2)
{
	struct platform_exception e = {
		.vector = f->vector, .error_code = f->error_code, .rip = f->rip,
		.cr2 = f->vector == 14 ? cr2 : 0, .name = exception_name(f->vector),
		.cpu_known = cpu != SMP_NO_CPU, .cpu = cpu, .apic_id = apic_id,
	};
	if (x86.hook)
		x86.hook(x86.hook_ctx, &e);
	halt(&x86);
}

static const struct team *start_cpus(void *ctx, struct log *l, const struct options *o, const struct acpi_info *acpi,
				     double tsc_hz, char *line, size_t cap)
{
	struct x86_platform *x = ctx;
	smp_run_start(l, o, x->boot, acpi, tsc_hz, on_ap_exception, line, cap);
	return smp_team();
}

static bool has_tsc_adjust(void)
{
	/* CPUID.(EAX=7,ECX=0):EBX[1]: IA32_TSC_ADJUST (MSR 0x3B) exists. */
	return cpuid(0, 0).eax >= 7 && (cpuid(7, 0).ebx >> 1 & 1);
}

static uint8_t core_type(void *ctx, unsigned cpu)
{
	(void)ctx;
	return smp_run_core_type(cpu);
}

static void check_cpus(void *ctx, struct log *l, const struct options *o, double tsc_hz, char *line, size_t cap)
{
	(void)ctx;
	smp_run_check(l, o, tsc_hz, line, cap);
}

static void set_exception_hook(void *ctx, platform_exception_fn hook, void *hook_ctx)
{
	struct x86_platform *x = ctx;
	x->hook_ctx = hook_ctx;
	x->hook = hook;
}

/* Deliberate faults for the tests of the exception path (option fault=):
 * a non-canonical address is a #GP, an unmapped one a #PF. */
static void fault(void *ctx, const char *kind)
{
	(void)ctx;
	if (tp_streq(kind, "gp"))
		__asm__ volatile("movq 0x8000000000000000, %%rax" : : : "rax", "memory");
	if (tp_streq(kind, "pf"))
		__asm__ volatile("movq 0x7ffffffff000, %%rax" : : : "rax", "memory");
}

static void end(void *ctx, const char *status, unsigned exit_code)
{
	struct x86_platform *x = ctx;
	if (x->boot->at_end)
		x->boot->at_end(x->boot->at_end_ctx, status);
	if (machine_is_qemu())
		outb(EXIT_PORT, (uint8_t)exit_code); /* isa-debug-exit, when the VM has one */
}

/* ---- the machine and its tables ---------------------------------------- */

static void machine(void *ctx, struct log *l, char *line, size_t cap)
{
	struct x86_platform *x = ctx;
	machine_record(l, x->boot->memory_mib, line, cap);
}

/* Tables are read only where the page tables map them, identity. */
static int phys_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (!len || !phys_mapped(addr, len))
		return -1;
	tp_memcpy(buf, (const void *)(uintptr_t)addr, len);
	return 0;
}

static void claims(void *ctx, struct tsc_claims *c)
{
	(void)ctx;
	tsc_claims(c);
}

/* MSR_SMI_COUNT (0x34): SMIs since reset, on Intel cores from Nehalem on.
 * Read through rdmsr_safe, since a CPU without it answers with #GP. */
static bool smi_count(uint64_t *count)
{
	return rdmsr_safe(0x34, count);
}

/* IA32_APERF (0xe8) and IA32_MPERF (0xe7), where CPUID.06H:ECX[0] says the
 * CPU has them.  APERF first, as Linux reads them: the pair is read within
 * a few cycles, against blocks of many thousands. */
static bool aperf_mperf(uint64_t *aperf, uint64_t *mperf)
{
	return rdmsr_safe(0xe8, aperf) && rdmsr_safe(0xe7, mperf);
}

static bool cpu_has_aperf_mperf(void)
{
	return cpuid(0, 0).eax >= 6 && (cpuid(6, 0).ecx & 1);
}

/* ---- the counters' devices ---------------------------------------------- */

static void tsc_dev(void *ctx, const struct acpi_info *a, const struct counter **d, struct counter_state *s)
{
	struct x86_platform *x = ctx;
	(void)a;
	tsc_describe(x->tsc, s);
	for (int i = 0; i < TSC_COUNTERS; i++)
		d[i] = &x->tsc[i];
}

static void hpet_dev(void *ctx, const struct acpi_info *a, const struct counter **d, struct counter_state *s)
{
	struct x86_platform *x = ctx;
	hpet_setup(a->have_hpet ? a->hpet_address : 0, a->hpet_none, x->hpet, s);
	for (int i = 0; i < HPET_COUNTERS; i++)
		d[i] = &x->hpet[i];
}

static void pm_dev(void *ctx, const struct acpi_info *a, const struct counter **d, struct counter_state *s)
{
	struct x86_platform *x = ctx;
	acpi_pm_setup(a->pm_space != ACPI_SPACE_NONE, a->pm_space == ACPI_SPACE_MMIO, a->pm_address, a->pm_bits,
		      a->pm_none ? a->pm_none : "no PM timer in the FADT", x->pm, s);
	for (int i = 0; i < ACPI_PM_COUNTERS; i++)
		d[i] = &x->pm[i];
}

static void pit_dev(void *ctx, const struct acpi_info *a, const struct counter **d, struct counter_state *s)
{
	struct x86_platform *x = ctx;
	(void)a;
	i8254_setup(x->pit, s);
	for (int i = 0; i < I8254_COUNTERS; i++)
		d[i] = &x->pit[i];
}

static void pit_settle(void *ctx)
{
	(void)ctx;
	i8254_reset();
}

/* The APIC timer: the current count read through either mode, and the
 * TSC-deadline writes, each with the timer programmed for it (prepare). */
static void apic_dev(void *ctx, const struct acpi_info *a, const struct counter **d, struct counter_state *s)
{
	struct x86_platform *x = ctx;
	lapic_timer_setup(&x->lapic, a->madt.present ? a->madt.lapic_address : 0, x->apic, s);
	for (int i = 0; i < LAPIC_COUNTERS; i++)
		d[i] = &x->apic[i];
}

static void apic_counting(void *ctx)
{
	struct x86_platform *x = ctx;
	lapic_timer_prepare(&x->lapic, 0);
}

static void apic_deadline(void *ctx)
{
	struct x86_platform *x = ctx;
	lapic_timer_prepare(&x->lapic, 2);
}

static void apic_settle(void *ctx)
{
	struct x86_platform *x = ctx;
	lapic_timer_settle(&x->lapic);
}

static void rtc_dev(void *ctx, const struct acpi_info *a, const struct counter **d, struct counter_state *s)
{
	struct x86_platform *x = ctx;
	(void)a;
	rtc_setup(x->rtc, s);
	for (int i = 0; i < RTC_COUNTERS; i++)
		d[i] = &x->rtc[i];
}

static void rdpid_dev(void *ctx, const struct acpi_info *a, const struct counter **d, struct counter_state *s)
{
	struct x86_platform *x = ctx;
	(void)a;
	rdpid_setup(x->rdpid, s);
	d[0] = &x->rdpid[0];
}

static void kvm_dev(void *ctx, const struct acpi_info *a, const struct counter **d, struct counter_state *s)
{
	struct x86_platform *x = ctx;
	(void)a;
	kvmclock_setup(&x->kvmclock, x->kvm, s);
	d[0] = &x->kvm[0];
}

/* The reference TSC page is a whole page the hypervisor overlays: taken
 * from the run's memory only when Hyper-V offers it, and aligned there. */
static void hv_dev(void *ctx, const struct acpi_info *a, const struct counter **d, struct counter_state *s)
{
	struct x86_platform *x = ctx;
	(void)a;
	hyperv_setup(&x->hyperv, x->hv, s);
	if (x->hyperv.wants_page) {
		uintptr_t raw = (uintptr_t)alloc(x, 2 * HYPERV_PAGE);
		void *page = raw ? (void *)((raw + HYPERV_PAGE - 1) & ~(uintptr_t)(HYPERV_PAGE - 1)) : NULL;
		hyperv_enable_page(&x->hyperv, page, x->hv, s);
	}
	for (int i = 0; i < HYPERV_COUNTERS; i++)
		d[i] = &x->hv[i];
}

static const struct platform_counter tsc_counters[TSC_COUNTERS] = {
	{ .name = "tsc" }, { .name = "rdtscp" }, { .name = "tsc-lfence" },
};
static const struct platform_counter hpet_counters[HPET_COUNTERS] = {
	{ .name = "hpet", .calibrates = "hpet" }, { .name = "hpet64", .rate_from = "hpet" },
};
static const struct platform_counter pm_counters[ACPI_PM_COUNTERS] = {
	{ .name = "acpi-fast", .calibrates = "pm_timer" }, { .name = "acpi-safe", .rate_from = "acpi-fast" },
};
/* The single port accesses leave a latch pending and the byte flip-flop
 * anywhere: channel 0 is programmed again after each.  They are timed to
 * split an i8254 read into its three ISA accesses (over 1 us each on
 * hardware), which their p50 does: 10,000 reads give it, where 100,000
 * would add 0.3 s on hardware and, under TCG, 1-2 KB of single-read tail
 * bins to the log (docs/log-format.md, "Size"). */
static const struct platform_counter pit_counters[I8254_COUNTERS] = {
	{ .name = "i8254", .calibrates = "pit" },
	{ .name = "i8254-inb40", .needs = "i8254", .disturbs = true, .samples_div = 10 },
	{ .name = "i8254-outb43", .needs = "i8254", .disturbs = true, .samples_div = 10 },
	{ .name = "port80", .samples_div = 10 },
};

/* Each mode of the APIC is the only one on some machines; the deadline
 * timer, RDPID and the paravirtual clocks are on some machines only: their
 * drivers say when an absence is by design (counter_state.by_design). */
static const struct platform_counter apic_counters[LAPIC_COUNTERS] = {
	{ .name = "lapic", .rated = true, .disturbs = true, .prepare = apic_counting },
	{ .name = "lapic-x2", .rated = true, .disturbs = true, .prepare = apic_counting },
	{ .name = "tsc-deadline", .disturbs = true, .prepare = apic_deadline },
};
static const struct platform_counter rtc_counters[RTC_COUNTERS] = {
	/* A 1 Hz clock, read in 2 and 26 ISA accesses (2 and 30-50 us on
	 * hardware): its cost, not a fine distribution, is the question. */
	{ .name = "rtc", .rated = true, .samples_div = 10 },
	{ .name = "rtc-time", .rate_from = "rtc", .needs = "rtc", .samples_div = 100 },
};
static const struct platform_counter rdpid_counters[RDPID_COUNTERS] = {
	{ .name = "rdpid" },
};
static const struct platform_counter kvm_counters[KVMCLOCK_COUNTERS] = {
	{ .name = "kvmclock", .rated = true },
};
static const struct platform_counter hv_counters[HYPERV_COUNTERS] = {
	{ .name = "hv-refcount", .rated = true },
	{ .name = "hv-tsc-page", .rated = true },
};

static const struct platform_device devices[] = {
	{ "TSC", tsc_counters, TSC_COUNTERS, tsc_dev, NULL },
	{ "HPET", hpet_counters, HPET_COUNTERS, hpet_dev, NULL },
	{ "PM timer", pm_counters, ACPI_PM_COUNTERS, pm_dev, NULL },
	{ "i8254", pit_counters, I8254_COUNTERS, pit_dev, pit_settle },
	{ "local APIC", apic_counters, LAPIC_COUNTERS, apic_dev, apic_settle },
	{ "CMOS RTC", rtc_counters, RTC_COUNTERS, rtc_dev, NULL },
	{ "RDPID", rdpid_counters, RDPID_COUNTERS, rdpid_dev, NULL },
	{ "kvm-clock", kvm_counters, KVMCLOCK_COUNTERS, kvm_dev, NULL },
	{ "Hyper-V", hv_counters, HYPERV_COUNTERS, hv_dev, NULL },
};

static const struct platform_bracket brackets[] = {
	{ "cpuid-rdtsc/rdtscp-cpuid", bracket_cpuid_rdtscp },
	{ "lfence-rdtsc-lfence", bracket_lfence },
};

void tickprobe_main(const struct boot_info *bi)
{
	struct platform *p = &x86.p;
	bool rdtscp = cpu_has_rdtscp();

	cpu_cli(); /* interrupts stay off: nothing may land inside a bracket */
	x86.boot = bi;
	idt_install(on_cpu_exception, &x86);
	*p = (struct platform){
		.ctx = &x86,
		.boot = bi->boot,
		.boot_services = bi->boot_services,
		.cmdline = bi->cmdline,
		.log_file = bi->log_file,
		.log_volume = bi->log_volume,
		.log_file_problem = bi->log_file_problem,
		.secure_boot_known = bi->secure_boot_known,
		.secure_boot = bi->secure_boot,
		.alloc = alloc,
		.open_consoles = open_consoles,
		.set_exception_hook = set_exception_hook,
		.fault = fault,
		.machine_record = machine,
		.rsdp = bi->rsdp,
		.mem = { phys_read, NULL },
		.clock = {
			.tsc = tsc_ordered,
			.bracket = bracket_lfence,
			.block = bracket_block,
			.empty = bracket_empty_read,
			.bracket_name = "lfence-rdtsc-lfence",
			.smi_count = cpu_is_intel() ? smi_count : NULL,
			.aperf_mperf = cpu_has_aperf_mperf() ? aperf_mperf : NULL,
			.core_clock_none = "none: no APERF/MPERF (CPUID.06H:ECX[0] clear)",
			/* Waiting for a counter's first tick: 2^28 cycles is 67-268 ms
			 * at any TSC from 1 to 4 GHz, over 80000 ticks of the slowest
			 * counter (the PIT, 838 ns).  2^22 reads bound it should the
			 * TSC itself not run: at 8 cycles a read, the fastest seen
			 * (qemu -icount), that is 33 ms. */
			.max_wait_cycles = 1ull << 28,
			.max_wait_loops = 1ull << 22,
		},
		/* Paoloni's bracket needs RDTSCP; the lfence one runs everywhere. */
		.brackets = rdtscp ? brackets : brackets + 1,
		.n_brackets = rdtscp ? 2 : 1,
		.tsc_claims = claims,
		.invariant_tsc = cpu_has_invariant_tsc(),
		.devices = devices,
		.n_devices = sizeof devices / sizeof devices[0],
		.start_cpus = start_cpus,
		.check_cpus = check_cpus,
		.rdmsr = rdmsr_safe,
		.has_tsc_adjust = has_tsc_adjust,
		.core_type = core_type,
		.end = end,
		.halt = halt,
	};
	run_probe(p);
}
