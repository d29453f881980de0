/* SPDX-License-Identifier: BSD-2-Clause */
/* kvm-clock: KVM's paravirtual clock, a page the hypervisor keeps up to date
 * with the TSC's offset and scale, read as Linux's kvm-clock clocksource
 * reads it (probe/pvclock.h).  Present only under KVM with
 * KVM_FEATURE_CLOCKSOURCE2. */
#ifndef DRIVERS_KVMCLOCK_H
#define DRIVERS_KVMCLOCK_H

#include <stdbool.h>
#include "probe/counter.h"
#include "probe/pvclock.h"

#define KVMCLOCK_COUNTERS 1

/* The one struct this part owns: the boot CPU's time page.  It is per vCPU:
 * another CPU reads its own page, or this one only where the page says
 * PVCLOCK_TSC_STABLE_BIT (the note says which). */
struct kvmclock {
	struct pvclock_vcpu_time_info page __attribute__((aligned(64)));
	bool enabled;
};

/* Finds KVM in the hypervisor leaves, enables the page through
 * MSR_KVM_SYSTEM_TIME_NEW and checks that the hypervisor filled it. */
void kvmclock_setup(struct kvmclock *k, struct counter d[KVMCLOCK_COUNTERS],
		    struct counter_state s[KVMCLOCK_COUNTERS]);

#endif
