/* SPDX-License-Identifier: BSD-2-Clause */
/* The `cpus` record: every CPU the firmware listed, in entry order, with what
 * became of it, and for each that runs its topology as its own CPUID tells
 * it (package, core, thread, core type); null where it did not run. */
#include "arch/x86/smp.h"
#include "probe/topology.h"
#include "lib/fmt.h"
#include "probe/log.h"

static const char *state_name(enum smp_state s)
{
	switch (s) {
	case SMP_BSP: return "bsp";
	case SMP_RUNNING: return "running";
	case SMP_NO_RESPONSE: return "no response";
	default: return "disabled";
	}
}

enum { COL_APIC_ID, COL_CPU, COL_PACKAGE, COL_CORE, COL_THREAD, COL_CORE_TYPE, COL_STATE, COL_STARTUP,
       COL_SIPIS, COL_WHY, CPU_COLUMNS };
static const char *const cpu_column[CPU_COLUMNS] = {
	"apic_id", "cpu", "package", "core", "thread", "core_type", "state", "startup_us", "sipis", "why",
};

/* One CPU's value in one column; null where it has none (topology where the
 * CPU did not run, a start-up time where it did not start). */
static void cpu_value(struct json *j, const struct smp_entry *x, int col, double tsc_hz,
		      const struct topology *topo, const bool *have)
{
	const struct topology *t = have && x->cpu != SMP_NO_CPU && have[x->cpu] ? &topo[x->cpu] : NULL;
	char type[16];

	switch (col) {
	case COL_APIC_ID: json_u64(j, NULL, x->apic_id); return;
	case COL_CPU: x->cpu == SMP_NO_CPU ? json_null(j, NULL) : json_u64(j, NULL, x->cpu); return;
	case COL_PACKAGE: t ? json_u64(j, NULL, t->package) : json_null(j, NULL); return;
	case COL_CORE: t ? json_u64(j, NULL, t->core) : json_null(j, NULL); return;
	case COL_THREAD: t ? json_u64(j, NULL, t->thread) : json_null(j, NULL); return;
	case COL_CORE_TYPE: json_str(j, NULL, t ? topology_core_type(t, type) : NULL); return;
	case COL_STATE: json_str(j, NULL, state_name(x->state)); return;
	case COL_STARTUP:
		if (x->state == SMP_RUNNING && tsc_hz > 0)
			json_fixed(j, NULL, (double)x->startup_cycles * 1e6 / tsc_hz, 1);
		else
			json_null(j, NULL);
		return;
	case COL_SIPIS: json_u64(j, NULL, x->sipis); return;
	default: json_str(j, NULL, x->why); return;
	}
}

void smp_record(struct log *l, double tsc_hz, const struct topology *topo, const bool *have, char *line,
		unsigned cap)
{
	struct json *j = log_begin(l, "cpus");
	unsigned n = smp_entries(), started = smp_team()->count, silent = 0;
	double lo = 0, hi = 0;
	bool any_why = false;

	json_u64(j, "count", n);
	json_u64(j, "started", started);
	json_str(j, "apic", smp_x2apic() ? "x2apic" : "xapic");
	json_str(j, "problem", smp_problem());
	if (smp_start_code())
		json_u64(j, "start_code", smp_start_code());
	else
		json_null(j, "start_code");
	/* Columns, one value a CPU (docs/log-format.md, "cpus"): the keys once. */
	for (unsigned e = 0; e < n; e++)
		any_why |= smp_entry(e)->why != NULL;
	json_object_begin(j, "list");
	for (int col = 0; col < CPU_COLUMNS; col++) {
		if (col == COL_WHY && !any_why) /* a reason for the few that did not start */
			continue;
		json_array_begin(j, cpu_column[col]);
		for (unsigned e = 0; e < n; e++)
			cpu_value(j, smp_entry(e), col, tsc_hz, topo, have);
		json_array_end(j);
	}
	json_object_end(j);
	for (unsigned e = 0; e < n; e++) {
		const struct smp_entry *x = smp_entry(e);
		if (x->state == SMP_RUNNING && tsc_hz > 0) {
			double t = (double)x->startup_cycles * 1e6 / tsc_hz;
			lo = lo == 0 || t < lo ? t : lo;
			hi = t > hi ? t : hi;
		}
		silent += x->state == SMP_NO_RESPONSE;
	}
	log_end(l);
	if (started > 1 && hi > 0)
		tp_snprintf(line, cap, "CPUs: %u listed, %u running (%s), start-up %.1f..%.1f us, %u no response%s%s\n", n,
			    started, smp_x2apic() ? "x2APIC" : "xAPIC", lo, hi, silent,
			    smp_problem() ? "; " : "", smp_problem() ? smp_problem() : "");
	else
		tp_snprintf(line, cap, "CPUs: %u listed, %u running, %u no response%s%s\n", n, started, silent,
			    smp_problem() ? "; " : "", smp_problem() ? smp_problem() : "");
}
