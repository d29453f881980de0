/* SPDX-License-Identifier: BSD-2-Clause */
/* The x86 platform of the run (probe/platform.h): the glue between the run
 * and the CPU primitives (cpu.h, bracket.S, idt.c, paging.c, machine.c) and
 * the drivers' list (drivers/drivers.c).  Both entry paths (boot/bios.c,
 * boot/efi.c) come here. */
#include "platform/boot_info.h"
#include "arch/x86/bracket.h"
#include "arch/x86/cpu.h"
#include "arch/x86/idt.h"
#include "platform/machine.h"
#include "arch/x86/paging.h"
#include "arch/x86/smp.h"
#include "platform/smp_run.h"
#include "drivers/drivers.h"
#include "drivers/tsc.h"
#include "drivers/uart.h"
#include "lib/fmt.h"
#include "probe/run.h"
#include "lib/util.h"

/* The one struct this part owns: the serial line and the run's exception
 * hook (the counters are their drivers', drivers/drivers.c). */
struct x86_platform {
	const struct boot_info *boot;
	struct platform p;
	struct uart com;
	struct uart channel; /* events=PORT: the host's line (probe/watch_channel.h) */
	platform_exception_fn hook;
	void *hook_ctx;
	struct platform_after after; /* the boot's (boot_info.after), with the serial line's keys */
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

static const struct team *start_cpus(void *ctx, const struct options *o, const struct acpi_info *acpi, double tsc_hz,
				     struct cpus_facts *out)
{
	struct x86_platform *x = ctx;
	smp_run_start(o, x->boot, acpi, tsc_hz, on_ap_exception, out);
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

static void check_cpus(void *ctx, const struct options *o, double tsc_hz, struct team_check_facts *out)
{
	(void)ctx;
	smp_run_check(o, tsc_hz, out);
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
	/* isa-debug-exit, when the VM has one; 0: a reboot or power off follows */
	if (exit_code && machine_is_qemu())
		outb(EXIT_PORT, (uint8_t)exit_code);
}

/* ---- what follows the run: the boot's own, and the serial line's keys ---- */

static bool after_plan(void *ctx, enum options_after what, const struct acpi_info *acpi, char *via, size_t vcap,
		       char *why, size_t wcap)
{
	const struct boot_info *bi = ((struct x86_platform *)ctx)->boot;
	return bi->after->plan && bi->after->plan(bi->after_ctx, what, acpi, via, vcap, why, wcap);
}

static void after_run(void *ctx, enum options_after what, const struct acpi_info *acpi,
		      void (*say)(void *say_ctx, const char *line), void *say_ctx, char *why, size_t wcap)
{
	const struct boot_info *bi = ((struct x86_platform *)ctx)->boot;
	if (bi->after->run)
		bi->after->run(bi->after_ctx, what, acpi, say, say_ctx, why, wcap);
}

static bool after_key(void *ctx)
{
	struct x86_platform *x = ctx;
	if (uart_key(&x->com))
		return true;
	return x->boot->after->key && x->boot->after->key(x->boot->after_ctx);
}

static bool after_series_end(void *ctx, const char *state, const char *stop_why, char *why, size_t wcap)
{
	const struct boot_info *bi = ((struct x86_platform *)ctx)->boot;
	if (!bi->after->series_end) {
		tp_snprintf(why, wcap, "this boot path keeps no series file");
		return false;
	}
	return bi->after->series_end(bi->after_ctx, state, stop_why, why, wcap);
}

/* ---- the host's line for VM events -------------------------------------- */

/* The host's line is not the console: a port the console already drives
 * is refused, since its bytes would be taken from both. */
static bool channel_open(void *ctx, uint16_t port)
{
	struct x86_platform *x = ctx;

	if (x->com.present && x->com.port == port)
		return false;
	return uart_init(&x->channel, port, 115200);
}

static unsigned channel_read(void *ctx, char *buf, unsigned cap)
{
	struct x86_platform *x = ctx;
	return uart_read(&x->channel, buf, cap);
}

static void channel_write(void *ctx, const char *s, size_t n)
{
	struct x86_platform *x = ctx;
	uart_write(&x->channel, s, n);
}

/* ---- the machine and its tables ---------------------------------------- */

static void machine(void *ctx, struct machine_facts *m)
{
	struct x86_platform *x = ctx;
	machine_facts_read(m, x->boot->memory_mib);
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
	if (bi->after)
		x86.after = (struct platform_after){
			.plan = after_plan, .run = after_run, .key = after_key,
			.max_polls_per_s = bi->after->max_polls_per_s, .series_end = after_series_end,
		};
	*p = (struct platform){
		.ctx = &x86,
		.facts = &bi->facts,
		.after = bi->after ? &x86.after : NULL,
		.alloc = alloc,
		.open_consoles = open_consoles,
		.set_exception_hook = set_exception_hook,
		.fault = fault,
		.machine_facts = machine,
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
		.drivers = counter_drivers,
		.n_drivers = n_counter_drivers,
		.start_cpus = start_cpus,
		.check_cpus = check_cpus,
		.rdmsr = rdmsr_safe,
		.has_tsc_adjust = has_tsc_adjust,
		.core_type = core_type,
		.channel_open = channel_open,
		.channel_read = channel_read,
		.channel_write = channel_write,
		.end = end,
		.halt = halt,
	};
	run_probe(p);
}
