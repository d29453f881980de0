/* SPDX-License-Identifier: BSD-2-Clause */
/* Hyper-V's clocks (Hypervisor Top-Level Functional Specification, "Timers"):
 * the partition reference counter, MSR 0x40000020 in 100 ns units
 * ("hv-refcount"), and the reference TSC page that lets a guest compute the
 * same time from the TSC without leaving the guest ("hv-tsc-page").  Also
 * offered by KVM and QEMU with the hv-time enlightenment. */
#ifndef DRIVERS_HYPERV_H
#define DRIVERS_HYPERV_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/counter.h"

#define HYPERV_COUNTERS 2 /* hv-refcount, hv-tsc-page */
#define HYPERV_PAGE 4096

/* The one struct this part owns.  The reference TSC page is the whole 4 KiB
 * page the hypervisor overlays: partition-wide, so one page serves every
 * CPU. */
struct hyperv {
	bool wants_page; /* hyperv_setup found the TSC page offered */
	uint64_t page;   /* its physical address, page-aligned */
};

/* Finds "Microsoft Hv" in the hypervisor leaves and the partition's
 * privileges (leaf 0x40000003 EAX).  When the TSC page is offered,
 * h->wants_page is set: hand a page to hyperv_enable_page next. */
void hyperv_setup(struct hyperv *h, struct counter d[HYPERV_COUNTERS], struct counter_state s[HYPERV_COUNTERS]);
/* Enables the TSC page at page (4 KiB, 4 KiB-aligned, identity-mapped, NULL:
 * no memory) and checks that the hypervisor made it valid. */
void hyperv_enable_page(struct hyperv *h, void *page, struct counter d[HYPERV_COUNTERS],
			struct counter_state s[HYPERV_COUNTERS]);

#endif
