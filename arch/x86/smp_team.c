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

/* ---- idle waits ------------------------------------------------------------ */

/* On the boot CPU, before any AP starts: the path every AP will take, and the
 * two gates of the hlt path (the wake-up, and the spurious vector each AP's
 * APIC names once it is software-enabled). */
void smp_idle_setup(void)
{
	smp.idle = cpuid(1, 0).ecx >> 3 & 1 ? SMP_IDLE_MWAIT : SMP_IDLE_HLT;
	idt_set_gate(SMP_WAKE_VECTOR, irq_wake_stub);
	idt_set_gate(SMP_SPURIOUS_VECTOR, irq_spurious_stub);
}

/* The wake-up IPI's handler, on the AP that took it (from irq_wake_stub). */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((target("general-regs-only"))) /* the stub saves no SSE state */
#endif
void smp_wake_eoi(void)
{
	lapic_write(&smp.apic, LAPIC_REG_EOI, 0);
}

/* An AP's APIC after INIT is software-disabled and takes no fixed interrupt
 * (SDM vol. 3A, 11.4.7.2): enabled here, every priority accepted. */
static void ap_enable_apic(void)
{
	lapic_write(&smp.apic, LAPIC_REG_TPR, 0);
	lapic_write(&smp.apic, LAPIC_REG_SVR, LAPIC_SVR_ENABLE | SMP_SPURIOUS_VECTOR);
}

/* One wait for work, interrupts off on entry and on return; the caller
 * found work == seen with them off, so an IPI sent since is pending and ends
 * the hlt that follows sti's one-instruction shadow.  Returning is no promise
 * of work (mwait and hlt end for other reasons): the caller looks again. */
static void ap_idle(struct slot *s, uint32_t seen)
{
	if (smp.idle == SMP_IDLE_MWAIT) {
		__asm__ volatile("monitor" : : "a"(&s->work), "c"(0u), "d"(0u) : "memory");
		if (__atomic_load_n(&s->work, __ATOMIC_ACQUIRE) == seen)
			__asm__ volatile("sti; mwait; cli" : : "a"(0u), "c"(0u) : "memory");
	} else {
		__asm__ volatile("sti; hlt; cli" ::: "memory");
	}
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
	ap_enable_apic();
	if (!__atomic_compare_exchange_n(&smp.ho.state[e], &expect, AP_RUNNING, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		ap_park();
	for (;;) {
		uint32_t g = __atomic_load_n(&s->work, __ATOMIC_ACQUIRE);
		if (g == s->done) {
			ap_idle(s, g);
			continue;
		}
		if (e && __atomic_load_n(&smp.deaf_entry, __ATOMIC_ACQUIRE) == e)
			ap_park(); /* fault=ap-deaf: as if no wake-up ever reached it */
		__atomic_store_n(&s->seen, g, __ATOMIC_RELEASE);
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

static void wake(unsigned e)
{
	lapic_ipi(&smp.apic, smp.ho.apic_id[e], ICR_FIXED | SMP_WAKE_VECTOR, smp.cycles_per_us * 100000);
}

/* Posts the work to each listed AP and wakes it (smp.h says why on both
 * paths); returns how many were posted into posted[], and whether the boot
 * CPU is listed. */
static unsigned post(const unsigned *cpus, unsigned n, team_fn fn, void *arg, uint32_t gen, uint16_t *posted,
		     bool *self)
{
	unsigned np = 0;

	*self = false;
	for (unsigned k = 0; k < n; k++) {
		unsigned c = cpus[k], e;
		if (c >= smp.team.count)
			continue;
		if (c == 0) {
			*self = true;
			continue;
		}
		e = smp.team_entry[c];
		if (smp.e[e].dropped || smp.slot[e].work == gen) /* left out, or listed twice */
			continue;
		smp.slot[e].fn = fn;
		smp.slot[e].arg = arg;
		smp.slot[e].cpu = c;
		__atomic_store_n(&smp.slot[e].work, gen, __ATOMIC_RELEASE);
		wake(e);
		posted[np++] = (uint16_t)e;
	}
	return np;
}

unsigned smp_team_run(void *plat, const unsigned *cpus, unsigned n, team_fn fn, void *arg, uint64_t timeout)
{
	uint16_t posted[SMP_MAX_CPUS];
	unsigned np, returned = 0, k;
	uint32_t gen = ++smp.gen;
	uint64_t t0 = rdtsc(), polls = 0, retry = smp.cycles_per_us * 1000 * SMP_WAKE_RETRY_MS, last_wake = t0;
	bool self;

	(void)plat;
	np = post(cpus, n, fn, arg, gen, posted, &self);
	if (self) {
		fn(0, arg);
		returned++;
	}
	for (;;) {
		unsigned left = 0;
		bool rewake = rdtsc() - last_wake > retry;
		for (k = 0; k < np; k++) {
			const struct slot *s = &smp.slot[posted[k]];
			left += __atomic_load_n(&s->done, __ATOMIC_ACQUIRE) != gen;
			if (rewake && __atomic_load_n(&s->seen, __ATOMIC_ACQUIRE) != gen) {
				wake(posted[k]);
				smp.wake_retries++;
			}
		}
		if (rewake)
			last_wake = rdtsc();
		smp_check_fault();
		if (!left || !within(t0, timeout, &polls))
			break;
		__builtin_ia32_pause();
	}
	for (k = 0; k < np; k++) {
		const struct slot *s = &smp.slot[posted[k]];
		if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE) == gen) {
			returned++;
		} else {
			smp.e[posted[k]].dropped = true;
			smp.e[posted[k]].unwoken = __atomic_load_n(&s->seen, __ATOMIC_ACQUIRE) != gen;
		}
	}
	return returned;
}

uint64_t smp_team_tsc(unsigned cpu)
{
	(void)cpu;
	return tsc_ordered();
}

enum smp_idle smp_idle_mode(void) { return smp.idle; }
uint64_t smp_wake_retries(void) { return smp.wake_retries; }

const char *smp_idle_name(enum smp_idle i)
{
	return i == SMP_IDLE_MWAIT ? "mwait" : i == SMP_IDLE_HLT ? "hlt" : NULL;
}

void smp_make_deaf(unsigned cpu)
{
	if (cpu && cpu < smp.team.count)
		__atomic_store_n(&smp.deaf_entry, smp.team_entry[cpu], __ATOMIC_RELEASE);
}

