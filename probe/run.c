/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's sequence, its consoles, its beginning and its end.  The counters'
 * part (setup, checks) is in run_counters.c, the measuring part (calibration,
 * bracket, plan, measurements) in run_measure.c. */
#include "probe/run.h"
#include "probe/exit_status.h"
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
	struct json *j = log_begin(r->log, "exception");

	json_u64(j, "vector", e->vector);
	json_str(j, "name", e->name);
	json_u64(j, "error_code", e->error_code);
	json_u64(j, "rip", e->rip);
	json_u64(j, "cr2", e->cr2);
	json_str(j, "step", r->step);
	if (e->cpu_known)
		json_u64(j, "cpu", e->cpu);
	else
		json_null(j, "cpu");
	json_u64(j, "apic_id", e->apic_id);
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

	r->n_consoles = p->open_consoles(p->ctx, r->opt.serial_port, r->opt.baud, r->consoles, PLATFORM_MAX_CONSOLES);
	for (unsigned i = 0; i < r->n_consoles; i++)
		if (tp_streq(r->consoles[i].name, "serial"))
			r->serial_open = true;
}

/* Why runs=N gives no series here, or NULL. */
static const char *series_problem(const struct run *r)
{
	if (r->p->series_problem)
		return r->p->series_problem;
	if (r->opt.runs > 1 && !r->p->series.of)
		return "a series of boots needs a UEFI boot that writes its log file: one run";
	return NULL;
}

/* begin.series: this boot's place in a series of boots (runs=N). */
static void record_series(struct run *r, struct json *j)
{
	const struct platform_series *s = &r->p->series;

	if (s->of) {
		json_object_begin(j, "series");
		json_str(j, "id", s->id);
		json_u64(j, "index", s->index);
		json_u64(j, "of", s->of);
		json_object_end(j);
	} else if (series_problem(r)) {
		json_null(j, "series");
		json_str(j, "series_problem", series_problem(r));
	}
}

static void record_begin(struct run *r)
{
	const struct options *o = &r->opt;
	/* A boot's command line is at most 1 KiB (boot/bios.c); a token word
	 * shown grows by at most 7 bytes. */
	char cmdline[1536];
	struct json *j = log_begin(r->log, "begin");
	int wanted = 0;

	options_cmdline_shown(r->p->cmdline, cmdline, sizeof cmdline);

	json_u64(j, "schema", LOG_SCHEMA);
	json_str(j, "version", TICKPROBE_VERSION);
	json_str(j, "boot", r->p->boot);
	if (r->p->boot_services)
		json_str(j, "boot_services", r->p->boot_services);
	json_str(j, "cmdline", cmdline);
	json_object_begin(j, "options");
	json_str(j, "preset", o->preset);
	json_u64(j, "rounds", o->rounds);
	json_u64(j, "samples", o->samples);
	json_u64(j, "raw_samples", o->raw_samples);
	json_u64(j, "calib_ms", o->calib_ms);
	if (o->slow_rates_off) /* absent: the 1 Hz counters' rates were timed */
		json_bool(j, "slow_rates", false);
	/* The counters in force: those named and known, or all. */
	json_array_begin(j, "counters");
	for (unsigned i = 0; i < r->n; i++)
		wanted += r->counters[i].wanted;
	if (o->n_counters && wanted < (int)r->n) {
		for (unsigned i = 0; i < r->n; i++)
			if (r->counters[i].wanted)
				json_str(j, NULL, r->counters[i].desc->name);
	} else {
		json_str(j, NULL, "all");
	}
	json_array_end(j);
	json_object_begin(j, "serial");
	json_u64(j, "port", o->serial_port);
	json_u64(j, "baud", o->baud);
	json_object_end(j);
	json_str(j, "after", options_after_name(o->after));
	json_u64(j, "after_s", o->after_s);
	json_u64(j, "runs", o->runs);
	if (o->watch_s) /* absent: no watch */
		json_u64(j, "watch_s", o->watch_s);
	json_object_end(j);
	json_array_begin(j, "option_problems");
	for (int i = 0; i < o->n_problems; i++)
		json_str(j, NULL, o->problems[i]);
	for (int i = 0; i < r->n_problems; i++)
		json_str(j, NULL, r->problems[i]);
	json_array_end(j);
	/* Where the records are kept besides the serial line (docs/log-format.md). */
	json_str(j, "log_file", r->p->log_file);
	if (r->p->log_file && r->p->log_volume)
		json_str(j, "log_volume", r->p->log_volume);
	json_str(j, "log_file_problem", r->p->log_file ? NULL : r->p->log_file_problem);
	json_str(j, "net", r->p->net);
	json_str(j, "net_problem", r->p->net_problem);
	if (r->p->secure_boot_known)
		json_bool(j, "secure_boot", r->p->secure_boot);
	else
		json_null(j, "secure_boot");
	record_series(r, j);
	log_end(r->log);
	for (int i = 0; i < o->n_problems; i++)
		run_text(r, "tickprobe: %s\n", o->problems[i]);
	for (int i = 0; i < r->n_problems; i++)
		run_text(r, "tickprobe: %s\n", r->problems[i]);
	if (r->p->log_file)
		run_text(r, "tickprobe: the log is saved as %s on %s\n", r->p->log_file,
			 r->p->log_volume ? r->p->log_volume : "the boot volume");
	else if (r->p->log_file_problem)
		run_text(r, "tickprobe: no log file: %s\n", r->p->log_file_problem);
	if (r->p->net)
		run_text(r, "tickprobe: the records are also sent to %s\n", r->p->net);
	if (r->p->net_problem)
		run_text(r, "tickprobe: network: %s\n", r->p->net_problem);
	if (r->p->series.of)
		run_text(r, "tickprobe: series %s: boot %u of %u\n", r->p->series.id ? r->p->series.id : "?",
			 r->p->series.index, r->p->series.of);
	if (series_problem(r))
		run_text(r, "tickprobe: runs=%u: %s\n", o->runs, series_problem(r));
}

static void step_machine(struct run *r)
{
	char line[160];

	r->step = "machine";
	line[0] = 0;
	r->p->machine_record(r->p->ctx, r->log, line, sizeof line);
	run_text(r, "%s", line);
}

static void step_acpi(struct run *r)
{
	const struct platform *p = r->p;
	struct acpi_info *a = &r->acpi;
	uint64_t rsdp = p->rsdp;
	char buf[256];

	r->step = "ACPI discovery";
	acpi_info_init(a);
	if (!rsdp)
		rsdp = acpi_find_rsdp_bios(&p->mem, a);
	if (rsdp)
		acpi_walk(&p->mem, rsdp, a);
	else
		acpi_problem(a, "no RSDP found%s", p->rsdp ? "" : " in the EBDA or 0xE0000-0xFFFFF");
	struct json *j = log_begin(r->log, "acpi");
	acpi_json(a, j);
	log_end(r->log);
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
	options_parse(&r->opt, p->cmdline);
	open_consoles(r);
	if (!get_buffers(r)) {
		r->log = NULL;
		run_finish(r, "failed");
	}
	p->set_exception_hook(p->ctx, on_exception, r);
	log_init(r->log, records_out, r);

	run_text(r, "\ntickprobe %s: %s boot, preset %s, %u reads x %u rounds per counter\n", TICKPROBE_VERSION,
		 p->boot, r->opt.preset, r->opt.samples / r->opt.rounds, r->opt.rounds);
	if (r->opt.serial_port && !r->serial_open)
		run_text(r, "tickprobe: no UART answers at 0x%x: results on screen only\n", r->opt.serial_port);
	run_counters_select(r);
	record_begin(r);
	for (unsigned i = 0; i < sizeof run_steps / sizeof run_steps[0]; i++)
		run_steps[i](r);
	run_finish(r, r->some_absent ? "ok-absent" : "ok");
}
