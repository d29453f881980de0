/* SPDX-License-Identifier: BSD-2-Clause */
/* kvm-clock: KVM's paravirtual clock, a page the hypervisor keeps up to date
 * with the TSC's offset and scale, read as Linux's kvm-clock clocksource
 * reads it (probe/pvclock.h).  Present only under KVM with
 * KVM_FEATURE_CLOCKSOURCE2. */
#include "arch/x86/cpu.h"
#include "arch/x86/hypervisor.h"
#include "arch/x86/paging.h"
#include "lib/fmt.h"
#include "lib/util.h"
#include "probe/counter.h"
#include "probe/pvclock.h"

#define MSR_KVM_SYSTEM_TIME_NEW 0x4b564d01u /* the page's physical address | 1 (enable) */
#define KVM_FEATURE_CLOCKSOURCE2 (1u << 3)  /* CPUID base + 1, EAX */

/* The TSC as Linux's pvclock read takes it: lfence; rdtsc, so the TSC is not
 * read before the page's fields. */
static inline __attribute__((always_inline)) uint64_t tsc_ordered_inline(void *ctx)
{
	uint32_t lo, hi;
	(void)ctx;
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* Compiled C, the TSC read inlined: its instruction count is not fixed
 * (insns 0), as the version loop and the shift's sign decide the path. */
static uint64_t kvmclock_read(const struct counter *c)
{
	uint64_t ns;

	pvclock_read((const volatile struct pvclock_vcpu_time_info *)(uintptr_t)c->hw, tsc_ordered_inline, NULL,
		     &ns, NULL);
	return ns;
}

/* Nanoseconds: a rate to measure against the TSC (rated). */
static const struct counter_desc kvmclock_counters[] = {
	{ .name = "kvmclock", .read = kvmclock_read, .insns = 0,
	  .method = "pvclock page: version loop, (lfence; rdtsc - tsc_timestamp) scaled, + system_time",
	  .width = 64, .nominal_hz = 1000000000, .is_counter = true, .rated = true },
};

/* The one struct this part owns: the boot CPU's time page.  It is per vCPU:
 * another CPU reads its own page, or this one only where the page says
 * PVCLOCK_TSC_STABLE_BIT (the note says which). */
static struct kvmclock {
	struct pvclock_vcpu_time_info page __attribute__((aligned(64)));
	bool enabled;
	struct counter c; /* the descriptor as attach filled it */
} kvmclock;

/* Finds KVM in the hypervisor leaves, enables the page through
 * MSR_KVM_SYSTEM_TIME_NEW and checks that the hypervisor filled it. */
static void kvmclock_setup(struct kvmclock *k, struct counter *d, struct counter_state *s)
{
	char first[HYPERVISOR_SIG_LEN + 1], why[COUNTER_TEXT];
	volatile struct pvclock_vcpu_time_info *p = &k->page;
	uint32_t base = hypervisor_base("KVMKVMKVM\0\0\0", first);
	uint64_t addr = (uintptr_t)&k->page;

	counter_from_desc(&d[0], &kvmclock_counters[0]);
	counter_state_init(&s[0]);
	if (!base) {
		hypervisor_absent("KVM", first, why, sizeof why);
		counter_absent(&s[0], why);
		s[0].by_design = true;
		return;
	}
	if (cpuid(base, 0).eax < base + 1 || !(cpuid(base + 1, 0).eax & KVM_FEATURE_CLOCKSOURCE2)) {
		tp_snprintf(why, sizeof why, "KVM without KVM_FEATURE_CLOCKSOURCE2 (CPUID 0x%x EAX bit 3 clear)",
			    base + 1);
		counter_absent(&s[0], why);
		s[0].by_design = true;
		return;
	}
	if (!phys_mapped(addr, sizeof k->page)) { /* identity-mapped, as every static of the image */
		counter_absent(&s[0], "the pvclock page is not identity-mapped");
		return;
	}
	tp_memset((void *)&k->page, 0, sizeof k->page);
	if (!wrmsr_safe(MSR_KVM_SYSTEM_TIME_NEW, addr | 1)) {
		counter_absent(&s[0], "KVM refused MSR_KVM_SYSTEM_TIME_NEW (0x4b564d01): #GP");
		return;
	}
	k->enabled = true;
	d[0].hw = addr;
	/* KVM fills the page before the guest runs on after the wrmsr. */
	if (!p->version && !p->tsc_to_system_mul) {
		counter_absent(&s[0], "KVM left the pvclock page empty after MSR_KVM_SYSTEM_TIME_NEW");
		return;
	}
	tp_snprintf(s[0].note, sizeof s[0].note, "%s, mul %u shift %d",
		    p->flags & PVCLOCK_TSC_STABLE_BIT ? "TSC-stable: one page serves every vCPU"
						      : "not TSC-stable: each vCPU needs its own page",
		    p->tsc_to_system_mul, p->tsc_shift);
}

static void kvmclock_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s)
{
	(void)env;
	kvmclock_setup(&kvmclock, &kvmclock.c, s);
	c[0] = &kvmclock.c;
}

const struct counter_driver kvmclock_driver = {
	.name = "kvm-clock", .counters = kvmclock_counters, .n = 1, .attach = kvmclock_attach,
};
