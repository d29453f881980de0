/* The run, shared by both entry paths: consoles, options, exceptions, the
 * machine and its ACPI tables, then each counter checked, calibrated and
 * measured, every result logged as soon as it exists.  The method itself is
 * in probe/measure.c; the devices are in drivers/. */
#include "arch/x86/run.h"
#include "arch/x86/bracket.h"
#include "arch/x86/cpu.h"
#include "arch/x86/idt.h"
#include "arch/x86/machine.h"
#include "arch/x86/smp.h"
#include "arch/x86/smp_run.h"
#include "drivers/acpi.h"
#include "drivers/acpi_pm.h"
#include "drivers/hpet.h"
#include "drivers/i8254.h"
#include "drivers/tsc.h"
#include "drivers/uart.h"
#include "probe/fmt.h"
#include "probe/log.h"
#include "probe/calibrate.h"
#include "probe/measure.h"
#include "probe/options.h"
#include "probe/records.h"
#include "probe/util.h"

#define MAX_RAW 100000u
#define DELTA_READS 16384u

enum { C_TSC, C_RDTSCP, C_TSC_LFENCE, C_HPET, C_HPET64, C_ACPI_FAST, C_ACPI_SAFE, C_I8254,
       C_INB40, C_OUTB43, C_PORT80, N_COUNTERS };

static const struct boot_info *boot;
static struct options opt;
static struct uart com;
static struct log log;
static const char *step = "starting";
static bool some_absent;

static struct counter counters[N_COUNTERS];
static struct measure_result result;
static struct hist cost, round_hist;
static uint32_t raw[MAX_RAW];
static uint64_t delta_values[DELTA_READS];
static struct acpi_info acpi;

static struct probe_clock clock = {
	.tsc = tsc_ordered,
	.bracket = bracket_cpuid_rdtscp,
	.block = bracket_block,
	.empty = bracket_empty_read,
	.bracket_name = "cpuid-rdtsc/rdtscp-cpuid",
	/* Waiting for a counter's first tick: 2^28 cycles is 67-268 ms at any
	 * TSC from 1 to 4 GHz, over 80000 ticks of the slowest counter (the PIT,
	 * 838 ns).  2^22 reads bound it should the TSC itself not run: at 8
	 * cycles a read, the fastest seen (qemu -icount), that is 33 ms. */
	.max_wait_cycles = 1ull << 28,
	.max_wait_loops = 1ull << 22,
};

/* MSR_SMI_COUNT (0x34): SMIs since reset, on Intel cores from Nehalem on.
 * Read through rdmsr_safe, since a CPU without it answers with #GP. */
static bool smi_count(uint64_t *count)
{
	return rdmsr_safe(0x34, count);
}

/* ---- consoles ---------------------------------------------------------- */

static void serial_sink(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	if (com.present)
		uart_write(&com, s, n);
}

__attribute__((format(printf, 1, 2))) static void text(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = tp_vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof buf)
		n = sizeof buf - 1;
	serial_sink(NULL, buf, (size_t)n);
	if (boot->screen_write)
		boot->screen_write(boot->screen_ctx, buf, (size_t)n);
}

/* ---- the end ----------------------------------------------------------- */

__attribute__((noreturn)) static void finish(const char *status)
{
	uint8_t code = status[0] == 'f' ? EXIT_CODE_FAILED
		     : tp_streq(status, "ok") ? EXIT_CODE_OK : EXIT_CODE_OK_ABSENT;

	log_close(&log, status);
	text("tickprobe: run ended, status %s, %llu bytes of records\n", status,
	     (unsigned long long)log.bytes);
	if (boot->at_end)
		boot->at_end(boot->screen_ctx, status);
	if (machine_is_qemu())
		outb(EXIT_PORT, code); /* isa-debug-exit, when the VM has one */
	text("tickprobe: halted. The results stay on screen; power off or reset when done.\n");
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* An exception on any CPU: the boot CPU's own, or an AP's handed over by
 * arch/x86/smp.c (the boot CPU writes every record). */
__attribute__((noreturn)) static void record_exception(unsigned cpu, uint32_t apic_id,
							const struct exception_frame *f, uint64_t cr2)
{
	struct json *j = log_begin(&log, "exception");
	json_u64(j, "vector", f->vector);
	json_str(j, "name", exception_name(f->vector));
	json_u64(j, "error_code", f->error_code);
	json_u64(j, "rip", f->rip);
	json_u64(j, "cr2", f->vector == 14 ? cr2 : 0);
	json_str(j, "step", step);
	if (cpu == SMP_NO_CPU)
		json_null(j, "cpu");
	else
		json_u64(j, "cpu", cpu);
	json_u64(j, "apic_id", apic_id);
	log_end(&log);
	text("tickprobe: CPU exception %s (vector %llu, error 0x%llx) at rip 0x%llx on CPU %d (APIC ID %u) during: %s\n",
	     exception_name(f->vector), (unsigned long long)f->vector, (unsigned long long)f->error_code,
	     (unsigned long long)f->rip, cpu == SMP_NO_CPU ? -1 : (int)cpu, apic_id, step);
	finish("failed");
}

static void on_exception(const struct exception_frame *f)
{
	record_exception(0, smp_apic_id(0), f, f->vector == 14 ? read_cr2() : 0);
}

/* Deliberate faults for the tests of the exception path (option fault=). */
static void maybe_fault(void)
{
	if (tp_streq(opt.fault, "gp"))
		__asm__ volatile("movq 0x8000000000000000, %%rax" : : : "rax", "memory");
	if (tp_streq(opt.fault, "pf"))
		__asm__ volatile("movq 0x7ffffffff000, %%rax" : : : "rax", "memory");
}

/* ---- records of the machine ------------------------------------------- */

static void record_begin(void)
{
	struct json *j = log_begin(&log, "begin");
	json_u64(j, "schema", LOG_SCHEMA);
	json_str(j, "version", TICKPROBE_VERSION);
	json_str(j, "boot", boot->boot);
	if (boot->boot_services)
		json_str(j, "boot_services", boot->boot_services);
	json_str(j, "cmdline", boot->cmdline ? boot->cmdline : "");
	json_object_begin(j, "options");
	json_str(j, "preset", opt.preset);
	json_u64(j, "rounds", opt.rounds);
	json_u64(j, "samples", opt.samples);
	json_u64(j, "raw_samples", opt.raw_samples);
	json_u64(j, "calib_ms", opt.calib_ms);
	json_array_begin(j, "counters");
	for (int i = 0; i < opt.n_counters; i++)
		json_str(j, NULL, opt.counters[i]);
	if (!opt.n_counters)
		json_str(j, NULL, "all");
	json_array_end(j);
	json_object_begin(j, "serial");
	json_u64(j, "port", opt.serial_port);
	json_u64(j, "baud", opt.baud);
	json_object_end(j);
	json_object_end(j);
	json_array_begin(j, "option_problems");
	for (int i = 0; i < opt.n_problems; i++)
		json_str(j, NULL, opt.problems[i]);
	json_array_end(j);
	log_end(&log);
	for (int i = 0; i < opt.n_problems; i++)
		text("tickprobe: %s\n", opt.problems[i]);
}

static int phys_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	/* Identity-mapped below 4 GiB on both paths; ACPI tables live there. */
	if (addr >= (1ull << 32) || addr + len > (1ull << 32) || addr + len < addr)
		return -1;
	tp_memcpy(buf, (const void *)(uintptr_t)addr, len);
	return 0;
}

static void discover_acpi(void)
{
	struct acpi_mem mem = { phys_read, NULL };
	char buf[256];
	uint64_t rsdp = boot->rsdp;

	step = "ACPI discovery";
	acpi_info_init(&acpi);
	if (!rsdp)
		rsdp = acpi_find_rsdp_bios(&mem, &acpi);
	if (rsdp)
		acpi_walk(&mem, rsdp, &acpi);
	else
		acpi_problem(&acpi, "no RSDP found%s", boot->rsdp ? "" : " in the EBDA or 0xE0000-0xFFFFF");
	struct json *j = log_begin(&log, "acpi");
	acpi_json(&acpi, j);
	log_end(&log);
	acpi_summary(&acpi, buf, sizeof buf);
	text("%s", buf);
	for (unsigned i = 0; i < acpi.nproblems; i++)
		text("ACPI: %s\n", acpi.problems[i]);
}

/* ---- counters ---------------------------------------------------------- */

/* The test hook behind option stuck=NAME: a read that never changes. */
static uint64_t stuck_read(const struct counter *c)
{
	return c->mask & 0x1234;
}

static void set_up_counters(void)
{
	const char *pm_why = acpi.pm_none ? acpi.pm_none : "no PM timer in the FADT";
	tsc_describe(&counters[C_TSC], &counters[C_RDTSCP], &counters[C_TSC_LFENCE]);
	hpet_setup(acpi.have_hpet ? acpi.hpet_address : 0, acpi.hpet_none, &counters[C_HPET], &counters[C_HPET64]);
	acpi_pm_setup(acpi.pm_space != ACPI_SPACE_NONE, acpi.pm_space == ACPI_SPACE_MMIO,
		      acpi.pm_address, acpi.pm_bits, pm_why, &counters[C_ACPI_FAST], &counters[C_ACPI_SAFE]);
	i8254_setup(&counters[C_I8254], &counters[C_INB40], &counters[C_OUTB43], &counters[C_PORT80]);
	for (int i = 0; i < N_COUNTERS; i++)
		if (opt.stuck[0] && tp_streq(opt.stuck, counters[i].name)) {
			counters[i].read = stuck_read;
			text("tickprobe: stuck=%s: its reads now return a constant\n", opt.stuck);
		}
}

/* A counter is checked when it is to be measured, and also when something
 * else needs it healthy: the TSC calibrators (HPET, PM timer, PIT) always,
 * and the PIT for the single port accesses, which are timed only on a PIT
 * that works. */
static bool wanted_or_needed(int i)
{
	return options_wants_counter(&opt, counters[i].name) || i == C_HPET || i == C_ACPI_FAST || i == C_I8254;
}

static void check_counters(void)
{
	for (int i = 0; i < N_COUNTERS; i++) {
		struct counter *c = &counters[i];
		if (!wanted_or_needed(i))
			continue;
		step = c->name;
		if (!counter_check(c, &clock))
			text("%-13s skipped: %s\n", c->name, c->reason);
		else if (c->note[0])
			text("%-13s note: %s\n", c->name, c->note);
	}
	/* A port counter whose counter is broken is not worth timing alone. */
	if (!counters[C_I8254].healthy && counters[C_I8254].present)
		for (int i = C_INB40; i <= C_OUTB43; i++) {
			counters[i].healthy = false;
			tp_snprintf(counters[i].reason, sizeof counters[i].reason, "i8254: %s", counters[C_I8254].reason);
		}
	i8254_reset();
}

/* ---- the TSC frequency ------------------------------------------------- */

static struct calibrator calibrators[] = {
	{ .c = &counters[C_HPET], .source = "hpet" },
	{ .c = &counters[C_ACPI_FAST], .source = "pm_timer" },
	{ .c = &counters[C_I8254], .source = "pit" },
};
#define N_CALIBRATORS (int)(sizeof calibrators / sizeof calibrators[0])

/* The calibrator that times the same device as counter i, or NULL. */
static const struct calibrator *calibrator_of(int i)
{
	static const int device[N_COUNTERS] = {
		[C_HPET] = C_HPET, [C_HPET64] = C_HPET, [C_ACPI_FAST] = C_ACPI_FAST,
		[C_ACPI_SAFE] = C_ACPI_FAST, [C_I8254] = C_I8254,
	};
	for (int k = 0; k < N_CALIBRATORS; k++)
		if (device[i] && calibrators[k].c == &counters[device[i]])
			return &calibrators[k];
	return NULL;
}

static void say(const char *line) { text("%s\n", line); }

static struct tsc_choice calibrate(void)
{
	struct tsc_claims claims;
	struct tsc_choice t;

	step = "TSC calibration";
	tsc_claims(&claims);
	/* A window of calib_ms at a TSC of up to 5 GHz, four times over, plus the
	 * first-tick bound: a counter that stops mid-window ends it. */
	clock.max_wait_cycles = opt.calib_ms * 5000000ull * 4 + (1ull << 28);
	clock.max_wait_loops = clock.max_wait_cycles / 8;
	t = tsc_calibrate(calibrators, N_CALIBRATORS, &claims, &clock, opt.calib_ms, say);
	clock.max_wait_cycles = 1ull << 28;
	clock.max_wait_loops = 1ull << 22;
	record_tsc(&log, &t, calibrators, N_CALIBRATORS, &claims, opt.calib_ms, cpu_has_invariant_tsc());
	if (t.hz <= 0)
		text("TSC: frequency unknown (no counter calibrates it, no CPUID leaf states it): costs in cycles only\n");
	else if (t.err_ppm >= 0)
		text("TSC: %.0f Hz from %s (error %.2f ppm)\n", t.hz, t.source, t.err_ppm);
	else
		text("TSC: %.0f Hz from %s (no counter to check it against)\n", t.hz, t.source);
	return t;
}

/* ---- the harness overhead ---------------------------------------------- */

/* Both brackets are measured with an empty body; the one whose per-round
 * minimum holds stillest wins (ties: the smaller minimum), because the
 * minimum is what gets subtracted from every sample.  Paoloni's sequence
 * needs RDTSCP; the lfence one runs everywhere. */
static uint64_t choose_bracket(double tsc_hz)
{
	static const struct {
		uint64_t (*fn)(counter_read_fn, const struct counter *);
		const char *name;
	} brackets[] = { { bracket_cpuid_rdtscp, "cpuid-rdtsc/rdtscp-cpuid" },
			 { bracket_lfence, "lfence-rdtsc-lfence" } };
	struct overhead_candidate cand[2];
	struct counter empty = { .name = "empty", .read = bracket_empty_read, .present = true };
	int n = 0, best = 0, chosen_k = 1;

	step = "harness overhead";
	for (int k = cpu_has_rdtscp() ? 0 : 1; k < 2; k++) {
		uint64_t lo = ~0ull, hi = 0;
		clock.bracket = brackets[k].fn;
		measure_counter(&empty, &clock, 0, opt.samples, opt.rounds, &cost, &round_hist, NULL, 0, &result);
		for (uint32_t r = 0; r < result.rounds; r++) {
			lo = result.round_min[r] < lo ? result.round_min[r] : lo;
			hi = result.round_min[r] > hi ? result.round_min[r] : hi;
		}
		cand[n] = (struct overhead_candidate){ brackets[k].name, cost.min, hist_quantile(&cost, 500000), hi - lo };
		if (n == 0 || cand[n].round_min_spread < cand[best].round_min_spread ||
		    (cand[n].round_min_spread == cand[best].round_min_spread && cand[n].min < cand[best].min)) {
			best = n;
			chosen_k = k;
		}
		n++;
	}
	clock.bracket = brackets[chosen_k].fn;
	clock.bracket_name = brackets[chosen_k].name;
	if (chosen_k == 0 && n == 2) /* the histogram in hand is the other bracket's */
		measure_counter(&empty, &clock, 0, opt.samples, opt.rounds, &cost, &round_hist, NULL, 0, &result);
	record_overhead(&log, clock.bracket_name, &cost, cand[best].min, tsc_hz, cand, n);
	text("harness overhead: %s, min %llu cycles, p50 %llu, subtracted %llu\n", clock.bracket_name,
	     (unsigned long long)cost.min, (unsigned long long)hist_quantile(&cost, 500000),
	     (unsigned long long)cand[best].min);
	return cand[best].min;
}

/* The time the measurements will take, from a short block of reads of each
 * counter: printed before the long part starts, so a person at the screen
 * knows what to expect (an i8254 read is 3-5 us on real hardware, so its
 * 100000 reads alone take about half a second). */
static void record_plan(double tsc_hz)
{
	struct json *j = log_begin(&log, "plan");
	double total = 0;

	json_object_begin(j, "estimate_s");
	for (int i = 0; i < N_COUNTERS; i++) {
		struct counter *c = &counters[i];
		uint64_t bare, bracketed = clock.tsc();
		double s;
		if (!c->healthy || !options_wants_counter(&opt, c->name) || tsc_hz <= 0)
			continue;
		for (int k = 0; k < 256; k++)
			clock.bracket(c->read, c);
		bracketed = clock.tsc() - bracketed;
		bare = bracket_block(c->read, c, 256);
		/* the bracketed samples, then the throughput block and the delta reads */
		s = ((double)bracketed * opt.samples + (double)bare * (10000 + DELTA_READS)) / 256.0 / tsc_hz;
		json_fixed(j, c->name, s, 3);
		total += s;
	}
	json_object_end(j);
	json_fixed(j, "total_s", total, 3);
	log_end(&log);
	text("measuring: about %.1f s for %u reads of each counter\n", total, opt.samples);
	if (tp_streq(opt.preset, "default") && total > 10.0)
		text("tickprobe: this machine's counters are slow: the default preset will take over 10 s\n");
}

/* ---- measuring ---------------------------------------------------------- */

static void measure_one(int i, const struct tsc_choice *tsc, uint64_t subtract)
{
	struct counter *c = &counters[i];
	struct freq_check f;
	char row[160];

	frequency_check(c, calibrator_of(i), tsc, &f);
	if (!c->healthy) {
		some_absent = true;
		record_timer(&log, c, NULL, NULL, NULL, tsc->hz, 0);
		table_row(row, sizeof row, c, NULL, NULL, tsc->hz);
		text("%s", row);
		return;
	}
	step = c->name;
	measure_counter(c, &clock, subtract, opt.samples, opt.rounds, &cost, &round_hist, raw,
			opt.raw_samples < MAX_RAW ? opt.raw_samples : MAX_RAW, &result);
	if (c->is_counter) {
		measure_deltas(c, delta_values, opt.samples < DELTA_READS ? opt.samples : DELTA_READS,
			       &round_hist, &result.delta);
		result.delta_valid = true;
	}
	if (i == C_INB40 || i == C_OUTB43)
		i8254_reset();
	record_timer(&log, c, &result, &cost, &f, tsc->hz, opt.samples);
	if (result.n_raw)
		record_samples(&log, c->name, raw, result.n_raw);
	table_row(row, sizeof row, c, &result, &cost, tsc->hz);
	text("%s", row);
}

/* An AP's exception, handed to the boot CPU by arch/x86/smp.c. */
static void on_ap_exception(unsigned cpu, uint32_t apic_id, const struct exception_frame *f, uint64_t cr2)
{
	record_exception(cpu, apic_id, f, cr2);
}

void tickprobe_main(const struct boot_info *bi)
{
	struct tsc_choice tsc;
	uint64_t subtract;
	char line[160];

	cpu_cli(); /* interrupts stay off: nothing may land inside a bracket */
	boot = bi;
	options_parse(&opt, bi->cmdline);
	if (opt.serial_port)
		uart_init(&com, opt.serial_port, opt.baud);
	idt_install(on_exception);
	if (cpu_is_intel())
		clock.smi_count = smi_count;
	log_init(&log, serial_sink, NULL);

	text("\ntickprobe %s: %s boot, preset %s, %u reads x %u rounds per counter\n", TICKPROBE_VERSION,
	     bi->boot, opt.preset, opt.samples / opt.rounds, opt.rounds);
	if (opt.serial_port && !com.present)
		text("tickprobe: no UART answers at 0x%x: results on screen only\n", opt.serial_port);
	record_begin();
	step = "machine";
	machine_record(&log, bi->memory_mib, line, sizeof line);
	text("%s", line);
	discover_acpi();
	set_up_counters();

	check_counters();
	tsc = calibrate();
	{ /* the other CPUs: two steps, to move with the run sequence as they are */
		struct acpi_mem mem = { phys_read, NULL };
		step = "starting the other CPUs";
		smp_run_start(&log, &opt, bi, &mem, &acpi, tsc.hz, on_ap_exception, line, sizeof line);
		text("%s", line);
		step = "team check";
		smp_run_check(&log, &opt, tsc.hz, line, sizeof line);
		text("%s", line);
	}
	subtract = choose_bracket(tsc.hz);
	record_plan(tsc.hz);

	table_header(line, sizeof line);
	text("%s", line);
	for (int i = 0; i < N_COUNTERS; i++) {
		if (!options_wants_counter(&opt, counters[i].name))
			continue;
		measure_one(i, &tsc, subtract);
		if (i == 0)
			maybe_fault();
	}
	finish(some_absent ? "ok-absent" : "ok");
}
