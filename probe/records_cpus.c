/* SPDX-License-Identifier: BSD-2-Clause */
/* The cpus and team_check records (probe/records_cpus.h). */
#include "probe/records_cpus.h"
#include "lib/fmt.h"
#include "probe/log_schema.h"

/* ---- cpus ------------------------------------------------------------------ */

static double startup_us(const struct cpu_fact *x, double tsc_hz)
{
	return x->running && tsc_hz > 0 ? (double)x->startup_cycles * 1e6 / tsc_hz : __builtin_nan("");
}

/* The columns that say who each CPU is: its APIC ID, its index, its place. */
static void id_columns(struct put_cpu_entry_columns cols, const struct cpus_facts *f)
{
	struct put_cpu_entry_apic_id_column apic = put_cpu_entry_apic_id_column_open(cols);
	struct put_cpu_entry_cpu_column cpu;

	for (unsigned e = 0; e < f->count; e++)
		put_cpu_entry_apic_id_column_add(apic, f->cpu[e].apic_id);
	put_cpu_entry_apic_id_column_close(apic);
	cpu = put_cpu_entry_cpu_column_open(cols);
	for (unsigned e = 0; e < f->count; e++) {
		if (f->cpu[e].has_cpu)
			put_cpu_entry_cpu_column_add(cpu, f->cpu[e].cpu);
		else
			put_cpu_entry_cpu_column_add_null(cpu);
	}
	put_cpu_entry_cpu_column_close(cpu);
}

static void place_columns(struct put_cpu_entry_columns cols, const struct cpus_facts *f)
{
	struct put_cpu_entry_package_column package = put_cpu_entry_package_column_open(cols);
	struct put_cpu_entry_core_column core;
	struct put_cpu_entry_thread_column thread;
	struct put_cpu_entry_core_type_column type;

	for (unsigned e = 0; e < f->count; e++) {
		if (f->cpu[e].topo_known)
			put_cpu_entry_package_column_add(package, f->cpu[e].package);
		else
			put_cpu_entry_package_column_add_null(package);
	}
	put_cpu_entry_package_column_close(package);
	core = put_cpu_entry_core_column_open(cols);
	for (unsigned e = 0; e < f->count; e++) {
		if (f->cpu[e].topo_known)
			put_cpu_entry_core_column_add(core, f->cpu[e].core);
		else
			put_cpu_entry_core_column_add_null(core);
	}
	put_cpu_entry_core_column_close(core);
	thread = put_cpu_entry_thread_column_open(cols);
	for (unsigned e = 0; e < f->count; e++) {
		if (f->cpu[e].topo_known)
			put_cpu_entry_thread_column_add(thread, f->cpu[e].thread);
		else
			put_cpu_entry_thread_column_add_null(thread);
	}
	put_cpu_entry_thread_column_close(thread);
	type = put_cpu_entry_core_type_column_open(cols);
	for (unsigned e = 0; e < f->count; e++)
		put_cpu_entry_core_type_column_add(type, f->cpu[e].core_type[0] ? f->cpu[e].core_type : NULL);
	put_cpu_entry_core_type_column_close(type);
}

/* The columns of each CPU's start: its state, its time, its IPIs, and why
 * the few that do not run do not (the column only when some CPU has one). */
static void start_columns(struct put_cpu_entry_columns cols, const struct cpus_facts *f, double tsc_hz)
{
	struct put_cpu_entry_state_column state = put_cpu_entry_state_column_open(cols);
	struct put_cpu_entry_startup_us_column startup;
	struct put_cpu_entry_sipis_column sipis;
	bool any_why = false;

	for (unsigned e = 0; e < f->count; e++)
		put_cpu_entry_state_column_add(state, f->cpu[e].state);
	put_cpu_entry_state_column_close(state);
	startup = put_cpu_entry_startup_us_column_open(cols);
	for (unsigned e = 0; e < f->count; e++)
		put_cpu_entry_startup_us_column_add(startup, startup_us(&f->cpu[e], tsc_hz));
	put_cpu_entry_startup_us_column_close(startup);
	sipis = put_cpu_entry_sipis_column_open(cols);
	for (unsigned e = 0; e < f->count; e++)
		put_cpu_entry_sipis_column_add(sipis, f->cpu[e].sipis);
	put_cpu_entry_sipis_column_close(sipis);
	for (unsigned e = 0; e < f->count; e++)
		any_why |= f->cpu[e].why != NULL;
	if (any_why) {
		struct put_cpu_entry_why_column why = put_cpu_entry_why_column_open(cols);
		for (unsigned e = 0; e < f->count; e++)
			put_cpu_entry_why_column_add(why, f->cpu[e].why);
		put_cpu_entry_why_column_close(why);
	}
}

void record_cpus(struct log *l, const struct cpus_facts *f, double tsc_hz)
{
	struct put_cpus r = put_record_cpus(l);
	struct put_cpu_entry_columns cols;

	put_cpus_count(r, f->count);
	put_cpus_started(r, f->started);
	put_cpus_apic(r, f->x2apic ? "x2apic" : "xapic");
	put_cpus_problem(r, f->problem);
	if (f->start_code)
		put_cpus_start_code(r, f->start_code);
	else
		put_cpus_start_code_null(r);
	/* Columns, one value a CPU (docs/log-format.md, "cpus"): the keys once. */
	cols = put_cpus_list_open(r);
	id_columns(cols, f);
	place_columns(cols, f);
	start_columns(cols, f, tsc_hz);
	put_cpu_entry_columns_close(cols);
	log_end(l);
}

void cpus_line(const struct cpus_facts *f, double tsc_hz, char *line, size_t cap)
{
	double lo = 0, hi = 0;
	unsigned silent = 0;
	const char *sep = f->problem ? "; " : "";
	const char *problem = f->problem ? f->problem : "";

	for (unsigned e = 0; e < f->count; e++) {
		double t = startup_us(&f->cpu[e], tsc_hz);
		if (t == t) {
			lo = lo == 0 || t < lo ? t : lo;
			hi = t > hi ? t : hi;
		}
		silent += f->cpu[e].no_response;
	}
	if (f->started > 1 && hi > 0)
		tp_snprintf(line, cap, "CPUs: %u listed, %u running (%s), start-up %.1f..%.1f us, %u no response%s%s\n",
			    f->count, f->started, f->x2apic ? "x2APIC" : "xAPIC", lo, hi, silent, sep, problem);
	else
		tp_snprintf(line, cap, "CPUs: %u listed, %u running, %u no response%s%s\n", f->count, f->started,
			    silent, sep, problem);
}

/* ---- team_check ------------------------------------------------------------- */

void record_team_check(struct log *l, const struct team_check_facts *f)
{
	struct put_team_check r = put_record_team_check(l);
	struct put_team_check_dropped_list dropped;
	struct put_team_check_unwoken_list unwoken;

	put_team_check_cpus(r, f->cpus);
	put_team_check_returned(r, f->returned);
	put_team_check_count(r, f->count);
	if (f->rdtscp)
		put_team_check_tsc_aux_match(r, f->tsc_aux_match);
	else
		put_team_check_tsc_aux_match_null(r);
	dropped = put_team_check_dropped_open(r);
	for (unsigned i = 0; i < f->n_dropped; i++)
		put_team_check_dropped_add(dropped, f->dropped[i]);
	put_team_check_dropped_close(dropped);
	put_team_check_again_returned(r, f->again_returned);
	put_team_check_again_count(r, f->again_count);
	put_team_check_idle(r, f->idle);
	unwoken = put_team_check_unwoken_open(r);
	for (unsigned i = 0; i < f->n_unwoken; i++)
		put_team_check_unwoken_add(unwoken, f->unwoken[i]);
	put_team_check_unwoken_close(unwoken);
	put_team_check_wake_retries(r, f->wake_retries);
	log_end(l);
}

void team_check_line(const struct team_check_facts *f, char *line, size_t cap)
{
	tp_snprintf(line, cap,
		    "team check: %u of %u CPUs returned, then %u; shared counter %u, then %u; idle CPUs wait in %s%s\n",
		    f->returned, f->cpus, f->again_returned, f->count, f->again_count, f->idle,
		    f->fault_without_cpus ? " (no other CPU runs: fault= raised nothing)" : "");
}
