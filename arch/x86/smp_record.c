/* SPDX-License-Identifier: BSD-2-Clause */
/* The `cpus` record: every CPU the firmware listed, in entry order, with what
 * became of it, and for each that runs its topology as its own CPUID tells
 * it (package, core, thread, core type); null where it did not run. */
#include "arch/x86/smp.h"
#include "probe/topology.h"
#include "probe/fmt.h"
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

void smp_record(struct log *l, double tsc_hz, const struct topology *topo, const bool *have, char *line,
		unsigned cap)
{
	struct json *j = log_begin(l, "cpus");
	unsigned n = smp_entries(), started = smp_team()->count, silent = 0;
	double lo = 0, hi = 0;

	json_u64(j, "count", n);
	json_u64(j, "started", started);
	json_str(j, "apic", smp_x2apic() ? "x2apic" : "xapic");
	json_str(j, "problem", smp_problem());
	if (smp_start_code())
		json_u64(j, "start_code", smp_start_code());
	else
		json_null(j, "start_code");
	json_array_begin(j, "list");
	for (unsigned e = 0; e < n; e++) {
		const struct smp_entry *x = smp_entry(e);
		json_object_begin(j, NULL);
		json_u64(j, "apic_id", x->apic_id);
		if (x->cpu == SMP_NO_CPU)
			json_null(j, "cpu");
		else
			json_u64(j, "cpu", x->cpu);
		if (have && x->cpu != SMP_NO_CPU && have[x->cpu]) {
			const struct topology *t = &topo[x->cpu];
			char type[16];
			const char *ct = topology_core_type(t, type);
			json_u64(j, "package", t->package);
			json_u64(j, "core", t->core);
			json_u64(j, "thread", t->thread);
			json_str(j, "core_type", ct);
		} else {
			json_null(j, "package");
			json_null(j, "core");
			json_null(j, "thread");
			json_null(j, "core_type");
		}
		json_str(j, "state", state_name(x->state));
		if (x->state == SMP_RUNNING && tsc_hz > 0) {
			double t = (double)x->startup_cycles * 1e6 / tsc_hz;
			json_fixed(j, "startup_us", t, 1);
			lo = lo == 0 || t < lo ? t : lo;
			hi = t > hi ? t : hi;
		} else
			json_null(j, "startup_us");
		json_u64(j, "sipis", x->sipis);
		if (x->why)
			json_str(j, "why", x->why);
		json_object_end(j);
		silent += x->state == SMP_NO_RESPONSE;
	}
	json_array_end(j);
	log_end(l);
	if (started > 1 && hi > 0)
		tp_snprintf(line, cap, "CPUs: %u listed, %u running (%s), start-up %.1f..%.1f us, %u no response%s%s\n", n,
			    started, smp_x2apic() ? "x2APIC" : "xAPIC", lo, hi, silent,
			    smp_problem() ? "; " : "", smp_problem() ? smp_problem() : "");
	else
		tp_snprintf(line, cap, "CPUs: %u listed, %u running, %u no response%s%s\n", n, started, silent,
			    smp_problem() ? "; " : "", smp_problem() ? smp_problem() : "");
}
