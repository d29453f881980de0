/* SPDX-License-Identifier: BSD-2-Clause */
#include "platform/smp_run.h"
#include "arch/x86/cpu.h"
#include "lib/fmt.h"
#include "probe/topology.h"
#include "lib/util.h"

/* What this part keeps of the run: each running CPU's topology, as the CPU
 * itself tells it through CPUID.  16 KB for 256 CPUs, from the boot path's
 * allocator: as static data the EFI binary would carry it (gnu-efi folds
 * .bss into the file). */
struct cpu_topology {
	struct topology topo[SMP_MAX_CPUS];
	bool have[SMP_MAX_CPUS];
	struct team_place place[SMP_MAX_CPUS]; /* the same, for the team's users */
};
static struct {
	struct cpu_topology *t; /* NULL: none read */
} smp_run;

static struct cpuid_result real_cpuid(void *ctx, uint32_t leaf, uint32_t sub)
{
	struct cpuid_regs r = cpuid(leaf, sub);
	(void)ctx;
	return (struct cpuid_result){ r.eax, r.ebx, r.ecx, r.edx };
}

static void read_topology(unsigned cpu, void *arg)
{
	(void)arg;
	if (cpu < SMP_MAX_CPUS && smp_run.t) {
		struct topology *t = &smp_run.t->topo[cpu];
		topology_read(real_cpuid, NULL, t);
		smp_run.t->place[cpu] = (struct team_place){ t->package, t->core, t->thread, t->source != TOPO_NONE };
		smp_run.t->have[cpu] = true;
	}
}

uint8_t smp_run_core_type(unsigned cpu)
{
	const struct cpu_topology *t = smp_run.t;
	return t && cpu < SMP_MAX_CPUS && t->have[cpu] && t->topo[cpu].hybrid ? t->topo[cpu].core_type : 0;
}

/* The MADT's processors in table order: the enabled and online-capable ones
 * the parser kept (acpi/acpi_madt.c drops duplicates and broadcast IDs). */
static unsigned madt_cpus(const struct acpi_info *acpi, struct smp_cpu_desc *out, unsigned max, const char **why)
{
	const struct acpi_madt *m = &acpi->madt;
	unsigned n = 0;

	*why = NULL;
	if (!m->present) {
		*why = m->none ? m->none : "no MADT";
		return 0;
	}
	for (unsigned i = 0; i < m->ncpus && n < max; i++)
		out[n++] = (struct smp_cpu_desc){ .apic_id = m->cpus[i].apic_id, .enabled = m->cpus[i].enabled };
	if (!n)
		*why = "the MADT lists no processor";
	return n;
}

static const char *state_name(enum smp_state s)
{
	switch (s) {
	case SMP_BSP: return "bsp";
	case SMP_RUNNING: return "running";
	case SMP_NO_RESPONSE: return "no response";
	default: return "disabled";
	}
}

/* Every CPU listed, with what became of it and, for each that ran, its
 * place as its own CPUID tells it. */
static void cpus_facts(struct cpus_facts *f)
{
	const struct cpu_topology *t = smp_run.t;
	unsigned n = smp_entries();

	f->count = n < f->max ? n : f->max;
	f->started = smp_team()->count;
	f->x2apic = smp_x2apic();
	f->problem = smp_problem();
	f->start_code = smp_start_code();
	for (unsigned e = 0; e < f->count; e++) {
		const struct smp_entry *x = smp_entry(e);
		struct cpu_fact *c = &f->cpu[e];
		const struct topology *topo = t && x->cpu != SMP_NO_CPU && t->have[x->cpu] ? &t->topo[x->cpu] : NULL;
		const char *type = NULL;

		*c = (struct cpu_fact){ .apic_id = x->apic_id,
					.has_cpu = x->cpu != SMP_NO_CPU,
					.cpu = x->cpu,
					.state = state_name(x->state),
					.running = x->state == SMP_RUNNING,
					.no_response = x->state == SMP_NO_RESPONSE,
					.startup_cycles = x->startup_cycles,
					.sipis = x->sipis,
					.why = x->why };
		if (topo) {
			c->topo_known = true;
			c->package = topo->package;
			c->core = topo->core;
			c->thread = topo->thread;
			type = topology_core_type(topo, c->core_type);
		}
		if (type != c->core_type)
			tp_snprintf(c->core_type, sizeof c->core_type, "%s", type ? type : "");
	}
}

void smp_run_start(const struct options *o, const struct boot_info *bi, const struct acpi_info *acpi, double tsc_hz,
		   void (*on_ap_exception)(unsigned, uint32_t, const struct exception_frame *, uint64_t),
		   struct cpus_facts *out)
{
	struct smp_cpu_desc found[SMP_MAX_CPUS];
	struct smp_config cfg = {
		.low_area = bi->low_area, .low_area_bytes = bi->low_area_bytes,
		.stack_area = bi->ap_stacks, .stack_area_bytes = bi->ap_stacks_bytes,
		.tsc_hz = tsc_hz, .off = o->smp_off, .ghost = o->ghost_cpu_set, .ghost_apic_id = o->ghost_cpu,
		.on_ap_exception = on_ap_exception,
	};
	unsigned n = madt_cpus(acpi, found, SMP_MAX_CPUS, &cfg.list_why);

	for (unsigned i = 0; i < SMP_MAX_CPUS; i++)
		if (options_wants_cpu(o, i))
			cfg.wanted[i / 8] |= (uint8_t)(1u << (i % 8));
	smp_start(&cfg, found, n);
	if (bi->alloc && !smp_run.t)
		smp_run.t = bi->alloc(bi->alloc_ctx, sizeof *smp_run.t);
	{ /* each running CPU reads its own topology: 1 s bound, at 10 GHz when the rate is unknown */
		struct team *t = smp_team();
		unsigned all[SMP_MAX_CPUS];
		for (unsigned i = 0; i < t->count; i++)
			all[i] = i;
		t->run(t->plat, all, t->count, read_topology, NULL, (uint64_t)(tsc_hz > 0 ? tsc_hz : 1e10));
		if (smp_run.t)
			t->place = smp_run.t->place;
	}
	cpus_facts(out);
}

struct tally {
	uint32_t ran, aux_match;
	unsigned gp_cpu;   /* fault=ap-gp: this CPU raises #GP; SMP_NO_CPU: none */
	unsigned hang_cpu; /* fault=ap-hang: this CPU never returns */
	bool rdtscp;
};

static void count_in(unsigned cpu, void *arg)
{
	struct tally *t = arg;
	uint32_t aux = ~0u;
	if (cpu == t->gp_cpu)
		__asm__ volatile("movq 0x8000000000000000, %%rax" : : : "rax", "memory");
	if (cpu == t->hang_cpu)
		for (;;)
			__builtin_ia32_pause();
	if (t->rdtscp)
		__asm__ volatile("rdtscp" : "=c"(aux) : : "rax", "rdx");
	__atomic_fetch_add(&t->ran, 1, __ATOMIC_RELAXED);
	if (aux == cpu)
		__atomic_fetch_add(&t->aux_match, 1, __ATOMIC_RELAXED);
}

void smp_run_check(const struct options *o, double tsc_hz, struct team_check_facts *out)
{
	struct team *t = smp_team();
	bool ap_gp = tp_streq(o->fault, "ap-gp"), ap_hang = tp_streq(o->fault, "ap-hang");
	bool ap_deaf = tp_streq(o->fault, "ap-deaf");
	struct tally tally = { 0, 0, ap_gp && t->count > 1 ? 1 : SMP_NO_CPU, ap_hang && t->count > 1 ? 1 : SMP_NO_CPU,
			       cpu_has_rdtscp() };
	/* 1 s; at 10 GHz when the TSC rate is unknown, so never short. */
	uint64_t bound = (uint64_t)(tsc_hz > 0 ? tsc_hz : 1e10);
	unsigned all[SMP_MAX_CPUS], returned, again;
	uint32_t first, first_aux;

	for (unsigned i = 0; i < t->count; i++)
		all[i] = i;
	if (ap_deaf)
		smp_make_deaf(1);
	returned = t->run(t->plat, all, t->count, count_in, &tally, bound);
	/* Once more: a CPU that did not return is left out now, and a late
	 * return of the first run must not count in the second. */
	first = tally.ran;
	first_aux = tally.aux_match;
	tally.ran = 0;
	again = t->run(t->plat, all, t->count, count_in, &tally, bound);
	out->cpus = t->count;
	out->returned = returned;
	out->count = first;
	out->rdtscp = tally.rdtscp;
	out->tsc_aux_match = first_aux;
	out->again_returned = again;
	out->again_count = tally.ran;
	out->n_dropped = 0;
	out->n_unwoken = 0;
	for (unsigned e = 0; e < smp_entries(); e++) {
		if (smp_entry(e)->dropped && out->n_dropped < TEAM_MAX_CPUS)
			out->dropped[out->n_dropped++] = smp_entry(e)->cpu;
		if (smp_entry(e)->unwoken && out->n_unwoken < TEAM_MAX_CPUS)
			out->unwoken[out->n_unwoken++] = smp_entry(e)->cpu;
	}
	out->idle = smp_idle_name(smp_idle_mode());
	out->wake_retries = smp_wake_retries();
	out->fault_without_cpus = (ap_gp || ap_hang || ap_deaf) && t->count < 2;
}
