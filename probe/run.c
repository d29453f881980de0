/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's sequence, its consoles, its beginning and its end.  The counters'
 * part (setup, checks) is in run_counters.c, the measuring part (calibration,
 * bracket, plan, measurements) in run_measure.c. */
#include "probe/run.h"
#include "probe/exit_status.h"
#include "probe/log_schema.h"
#include "probe/records_run.h"
#include "lib/fmt.h"
#include "lib/util.h"

/* ---- consoles ---------------------------------------------------------- */

/* The log's sink: every console that takes records. */
static void records_out(void *ctx, const char *s, size_t n)
{
	struct run *r = ctx;
	for (unsigned i = 0; i < r->n_consoles; i++)
		if (r->consoles[i].records)
			r->consoles[i].write(r->consoles[i].ctx, s, n);
}

void run_text(struct run *r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = tp_vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof buf)
		n = sizeof buf - 1;
	for (unsigned i = 0; i < r->n_consoles; i++)
		if (r->consoles[i].text)
			r->consoles[i].write(r->consoles[i].ctx, buf, (size_t)n);
}

void run_option_problem(struct run *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n_problems >= RUN_MAX_PROBLEMS)
		return;
	va_start(ap, fmt);
	tp_vsnprintf(r->problems[r->n_problems++], RUN_PROBLEM_LEN, fmt, ap);
	va_end(ap);
}

/* ---- the end: run_finish is in run_after.c -------------------------------- */

static void on_exception(void *ctx, const struct platform_exception *e)
{
	struct run *r = ctx;
	struct put_exception x = put_record_exception(r->log);

	put_exception_vector(x, e->vector);
	put_exception_name(x, e->name);
	put_exception_error_code(x, e->error_code);
	put_exception_rip(x, e->rip);
	put_exception_cr2(x, e->cr2);
	put_exception_step(x, r->step);
	if (e->cpu_known)
		put_exception_cpu(x, e->cpu);
	else
		put_exception_cpu_null(x);
	put_exception_apic_id(x, e->apic_id);
	log_end(r->log);
	run_text(r, "tickprobe: CPU exception %s (vector %llu, error 0x%llx) at rip 0x%llx on CPU %d (APIC ID %u) "
		    "during: %s\n", e->name, (unsigned long long)e->vector, (unsigned long long)e->error_code,
		 (unsigned long long)e->rip, e->cpu_known ? (int)e->cpu : -1, e->apic_id, r->step);
	run_finish(r, "failed");
}

/* ---- the first steps ----------------------------------------------------- */

static void open_consoles(struct run *r)
{
	const struct platform *p = r->p;

	r->n_consoles = p->open_consoles(p->ctx, r->opt->serial_port, r->opt->baud, r->consoles, PLATFORM_MAX_CONSOLES);
	for (unsigned i = 0; i < r->n_consoles; i++)
		if (tp_streq(r->consoles[i].name, "serial"))
			r->serial_open = true;
}

/* Why runs=N gives no series here, or NULL. */
static const char *series_problem(const struct run *r)
{
	if (r->p->facts->series_problem)
		return r->p->facts->series_problem;
	if (r->opt->runs > 1 && !r->p->facts->series.of)
		return "a series of boots needs a UEFI boot that writes its log file: one run";
	return NULL;
}

/* begin.series: this boot's place in a series of boots (runs=N). */
static void begin_series(struct run *r, struct put_begin b)
{
	const struct platform_series *s = &r->p->facts->series;

	if (s->of) {
		struct put_series o = put_begin_series_open(b);
		put_series_id(o, s->id);
		put_series_index(o, s->index);
		put_series_of(o, s->of);
		put_series_close(o);
	} else if (series_problem(r)) {
		put_begin_series_null(b);
		put_begin_series_problem(b, series_problem(r));
	}
}

/* begin.options: the options in force. */
static void begin_options(struct run *r, struct put_begin b)
{
	const struct options *o = r->opt;
	struct put_begin_options opts = put_begin_options_open(b);
	struct put_begin_options_counters_list counters;
	struct put_serial_line serial;
	int wanted = 0;

	put_begin_options_preset(opts, o->preset);
	put_begin_options_rounds(opts, o->rounds);
	put_begin_options_samples(opts, o->samples);
	put_begin_options_raw_samples(opts, o->raw_samples);
	put_begin_options_calib_ms(opts, o->calib_ms);
	if (o->slow_rates_off) /* absent: the 1 Hz counters' rates were timed */
		put_begin_options_slow_rates(opts, false);
	/* The counters in force: those named and known, or all. */
	counters = put_begin_options_counters_open(opts);
	for (unsigned i = 0; i < r->n; i++)
		wanted += r->counters[i].wanted;
	if (o->n_counters && wanted < (int)r->n) {
		for (unsigned i = 0; i < r->n; i++)
			if (r->counters[i].wanted)
				put_begin_options_counters_add(counters, r->counters[i].desc->name);
	} else {
		put_begin_options_counters_add(counters, "all");
	}
	put_begin_options_counters_close(counters);
	serial = put_begin_options_serial_open(opts);
	put_serial_line_port(serial, o->serial_port);
	put_serial_line_baud(serial, o->baud);
	put_serial_line_close(serial);
	put_begin_options_after(opts, options_after_name(o->after));
	put_begin_options_after_s(opts, o->after_s);
	put_begin_options_runs(opts, o->runs);
	if (o->watch_s) /* absent: no watch */
		put_begin_options_watch_s(opts, o->watch_s);
	put_begin_options_close(opts);
}

/* Where the records are kept besides the serial line (docs/log-format.md). */
static void begin_outputs(struct run *r, struct put_begin b)
{
	const struct platform *p = r->p;

	put_begin_log_file(b, p->facts->log_file);
	if (p->facts->log_file && p->facts->log_volume)
		put_begin_log_volume(b, p->facts->log_volume);
	put_begin_log_file_problem(b, p->facts->log_file ? NULL : p->facts->log_file_problem);
	put_begin_net(b, p->facts->net);
	put_begin_net_problem(b, p->facts->net_problem);
	if (p->facts->secure_boot_known)
		put_begin_secure_boot(b, p->facts->secure_boot);
	else
		put_begin_secure_boot_null(b);
	begin_series(r, b);
}

static void record_begin(struct run *r)
{
	const struct options *o = r->opt;
	/* A boot's command line is at most 1 KiB (boot/bios.c); a token word
	 * shown grows by at most 7 bytes. */
	char cmdline[1536];
	struct put_begin b;
	struct put_begin_option_problems_list problems;

	options_cmdline_shown(r->p->facts->cmdline, cmdline, sizeof cmdline);
	b = record_begin_head(r->log, r->p->facts->boot, r->p->facts->boot_services, cmdline);
	begin_options(r, b);
	problems = put_begin_option_problems_open(b);
	for (int i = 0; i < o->n_problems; i++)
		put_begin_option_problems_add(problems, o->problems[i]);
	for (int i = 0; i < r->n_problems; i++)
		put_begin_option_problems_add(problems, r->problems[i]);
	put_begin_option_problems_close(problems);
	begin_outputs(r, b);
	log_end(r->log);
	for (int i = 0; i < o->n_problems; i++)
		run_text(r, "tickprobe: %s\n", o->problems[i]);
	for (int i = 0; i < r->n_problems; i++)
		run_text(r, "tickprobe: %s\n", r->problems[i]);
	if (r->p->facts->log_file)
		run_text(r, "tickprobe: the log is saved as %s on %s\n", r->p->facts->log_file,
			 r->p->facts->log_volume ? r->p->facts->log_volume : "the boot volume");
	else if (r->p->facts->log_file_problem)
		run_text(r, "tickprobe: no log file: %s\n", r->p->facts->log_file_problem);
	if (r->p->facts->net)
		run_text(r, "tickprobe: the records are also sent to %s\n", r->p->facts->net);
	if (r->p->facts->net_problem)
		run_text(r, "tickprobe: network: %s\n", r->p->facts->net_problem);
	if (r->p->facts->series.of)
		run_text(r, "tickprobe: series %s: boot %u of %u\n",
			 r->p->facts->series.id ? r->p->facts->series.id : "?", r->p->facts->series.index,
			 r->p->facts->series.of);
	if (series_problem(r))
		run_text(r, "tickprobe: runs=%u: %s\n", o->runs, series_problem(r));
}

static void step_machine(struct run *r)
{
	struct machine_facts m;
	char line[160];

	r->step = "machine";
	r->p->machine_facts(r->p->ctx, &m);
	record_machine(r->log, &m);
	machine_facts_line(&m, line, sizeof line);
	run_text(r, "%s", line);
}

static void step_acpi(struct run *r)
{
	const struct platform *p = r->p;
	struct acpi_info *a = &r->acpi;
	uint64_t rsdp = p->facts->rsdp;
	char buf[256];

	r->step = "ACPI discovery";
	acpi_info_init(a);
	if (!rsdp)
		rsdp = acpi_find_rsdp_bios(&p->mem, a);
	if (rsdp)
		acpi_walk(&p->mem, rsdp, a);
	else
		acpi_problem(a, "no RSDP found%s", p->facts->rsdp ? "" : " in the EBDA or 0xE0000-0xFFFFF");
	record_acpi(r->log, a);
	acpi_summary(a, buf, sizeof buf);
	run_text(r, "%s", buf);
	for (unsigned i = 0; i < a->nproblems; i++)
		run_text(r, "ACPI: %s\n", a->problems[i]);
}

/* The steps after the begin record, in order.  The other CPUs start only
 * after the boot CPU's own table: a CPU waiting for work spins, and under
 * TCG on a 2-core host four spinning vCPUs doubled the boot CPU's HPET p50
 * (100 to 780 ns). */
static void (*const run_steps[])(struct run *r) = {
	step_machine,       step_acpi, run_counters_setup, run_counters_check, run_calibrate, run_rates,
	run_choose_bracket, run_plan,  run_measure,        run_cpus_start,     run_cpus_measure, run_watch,
};

/* The big buffers, from the platform: none of them is static data. */
static bool get_buffers(struct run *r)
{
	const struct platform *p = r->p;

	r->log = p->alloc(p->ctx, sizeof *r->log);
	r->cost = p->alloc(p->ctx, sizeof *r->cost);
	r->round = p->alloc(p->ctx, sizeof *r->round);
	r->raw = p->alloc(p->ctx, RUN_MAX_RAW * sizeof *r->raw);
	r->delta_values = p->alloc(p->ctx, RUN_DELTA_READS * sizeof *r->delta_values);
	return r->log && r->cost && r->round && r->raw && r->delta_values;
}

void run_probe(const struct platform *p)
{
	struct run *r = p->alloc(p->ctx, sizeof *r);

	if (!r) { /* not even the run's own state: say so where the screen is */
		struct console c[PLATFORM_MAX_CONSOLES];
		static const char msg[] = "tickprobe: no memory for the run; nothing measured\n";
		unsigned n = p->open_consoles(p->ctx, 0, 0, c, PLATFORM_MAX_CONSOLES);
		for (unsigned i = 0; i < n; i++)
			c[i].write(c[i].ctx, msg, sizeof msg - 1);
		p->end(p->ctx, "failed", EXIT_CODE_FAILED);
		p->halt(p->ctx);
	}
	r->p = p;
	r->step = "starting";
	r->clock = p->clock;
	r->opt = p->facts->opt;
	open_consoles(r);
	if (!get_buffers(r)) {
		r->log = NULL;
		run_finish(r, "failed");
	}
	p->set_exception_hook(p->ctx, on_exception, r);
	log_init(r->log, records_out, r);

	run_text(r, "\ntickprobe %s: %s boot, preset %s, %u reads x %u rounds per counter\n", TICKPROBE_VERSION,
		 p->facts->boot, r->opt->preset, r->opt->samples / r->opt->rounds, r->opt->rounds);
	if (r->opt->serial_port && !r->serial_open)
		run_text(r, "tickprobe: no UART answers at 0x%x: results on screen only\n", r->opt->serial_port);
	run_counters_select(r);
	record_begin(r);
	for (unsigned i = 0; i < sizeof run_steps / sizeof run_steps[0]; i++)
		run_steps[i](r);
	run_finish(r, r->some_absent ? "ok-absent" : "ok");
}
