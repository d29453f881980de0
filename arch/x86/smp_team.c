/* SPDX-License-Identifier: BSD-2-Clause */
/* The other CPUs at work: each AP's mailbox loop, the team operation of
 * probe/team.h, and an AP's exception handed over to the boot CPU. */
#include "arch/x86/smp_internal.h"
#include "arch/x86/bracket.h"
#include "arch/x86/msr.h"

/* An AP's exception, seen from one of the boot CPU's waits: the hook ends the run. */
void smp_check_fault(void)
{
	unsigned fe;
	if (smp.fault_reported || !__atomic_load_n(&smp.fault_ready, __ATOMIC_ACQUIRE))
		return;
	smp.fault_reported = true;
	fe = smp.fault_entry;
	if (smp.on_ap_exception)
		smp.on_ap_exception(smp.e[fe].cpu, smp.ho.apic_id[fe], &smp.fault_frame, smp.fault_cr2);
}

/* ---- the APs' side ---------------------------------------------------- */

void ap_main(unsigned e)
{
	struct slot *s = &smp.slot[e];
	uint32_t expect = AP_ARRIVED;
	unsigned aux = SMP_NO_CPU;

	__asm__ volatile("fninit");
	__asm__ volatile("ldmxcsr %0" : : "m"(smp.mxcsr));
	if (smp.has_pat)
		msr_write(MSR_PAT, smp.pat);
	if (!__atomic_compare_exchange_n(&smp.ho.state[e], &expect, AP_RUNNING, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		ap_park();
	for (;;) {
		uint32_t g = __atomic_load_n(&s->work, __ATOMIC_ACQUIRE);
		if (g == s->done) {
			__builtin_ia32_pause();
			continue;
		}
		/* rdtscp then says which CPU read the TSC (its ECX), as Linux
		 * arranges it; the team index is known from the first work on. */
		if (smp.has_rdtscp && s->cpu != aux)
			msr_write(MSR_TSC_AUX, aux = s->cpu);
		s->fn(s->cpu, s->arg);
		__atomic_store_n(&s->done, g, __ATOMIC_RELEASE);
	}
}

void smp_exception_filter(const struct exception_frame *f)
{
	uint32_t id, zero = 0;
	unsigned e;

	if (!smp.started || (id = lapic_id(&smp.apic)) == smp.ho.apic_id[0])
		return;
	e = smp_find_entry(id);
	if (e != SMP_NO_CPU &&
	    __atomic_compare_exchange_n(&smp.fault_claimed, &zero, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		smp.fault_entry = e;
		smp.fault_frame = *f;
		smp.fault_cr2 = read_cr2();
		__atomic_store_n(&smp.fault_ready, 1, __ATOMIC_RELEASE);
	}
	ap_park();
}

/* ---- the team operation -------------------------------------------------- */

unsigned smp_team_run(void *plat, const unsigned *cpus, unsigned n, team_fn fn, void *arg, uint64_t timeout)
{
	uint16_t posted[SMP_MAX_CPUS];
	unsigned np = 0, returned = 0, k;
	uint32_t gen = ++smp.gen;
	uint64_t t0 = rdtsc(), polls = 0;
	bool self = false;

	(void)plat;
	for (k = 0; k < n; k++) {
		unsigned c = cpus[k], e;
		if (c >= smp.team.count)
			continue;
		if (c == 0) {
			self = true;
			continue;
		}
		e = smp.team_entry[c];
		if (smp.e[e].dropped || smp.slot[e].work == gen) /* left out, or listed twice */
			continue;
		smp.slot[e].fn = fn;
		smp.slot[e].arg = arg;
		smp.slot[e].cpu = c;
		__atomic_store_n(&smp.slot[e].work, gen, __ATOMIC_RELEASE);
		posted[np++] = (uint16_t)e;
	}
	if (self) {
		fn(0, arg);
		returned++;
	}
	for (;;) {
		unsigned left = 0;
		for (k = 0; k < np; k++)
			left += __atomic_load_n(&smp.slot[posted[k]].done, __ATOMIC_ACQUIRE) != gen;
		smp_check_fault();
		if (!left || !within(t0, timeout, &polls))
			break;
		__builtin_ia32_pause();
	}
	for (k = 0; k < np; k++) {
		if (__atomic_load_n(&smp.slot[posted[k]].done, __ATOMIC_ACQUIRE) == gen)
			returned++;
		else
			smp.e[posted[k]].dropped = true;
	}
	return returned;
}

uint64_t smp_team_tsc(unsigned cpu)
{
	(void)cpu;
	return tsc_ordered();
}

