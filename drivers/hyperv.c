/* SPDX-License-Identifier: BSD-2-Clause */
/* Hyper-V's clocks (Hypervisor Top-Level Functional Specification, "Timers"):
 * the partition reference counter, MSR 0x40000020 in 100 ns units
 * ("hv-refcount"), and the reference TSC page that lets a guest compute the
 * same time from the TSC without leaving the guest ("hv-tsc-page").  Also
 * offered by KVM and QEMU with the hv-time enlightenment. */
#include "arch/x86/cpu.h"
#include "arch/x86/hypervisor.h"
#include "arch/x86/paging.h"
#include "lib/fmt.h"
#include "probe/counter.h"
#include "probe/pvclock.h"
#include "lib/util.h"

#define HV_X64_MSR_TIME_REF_COUNT 0x40000020u
#define HV_X64_MSR_REFERENCE_TSC 0x40000021u /* bits 63:12 the page's frame, bit 0 enable */
#define PRIV_TIME_REF_COUNT (1u << 1)         /* AccessPartitionReferenceCounter */
#define PRIV_REFERENCE_TSC (1u << 9)          /* AccessPartitionReferenceTsc */
#define HYPERV_PAGE 4096

uint64_t hv_refcount_read(const struct counter *c);
__asm__(".text\n"
	"hv_refcount_read:\n"
	"	mov $0x40000020, %ecx\n"
	"	rdmsr\n"
	"	shl $32, %rdx\n"
	"	or %rdx, %rax\n"
	"	ret\n");

static inline __attribute__((always_inline)) uint64_t tsc_ordered_inline(void *ctx)
{
	uint32_t lo, hi;
	(void)ctx;
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* As Linux's read_hv_clock_tsc(): the page, and the MSR when the page says
 * it is not valid (after a migration, say).  Compiled C: insns 0. */
static uint64_t hv_tsc_page_read_fn(const struct counter *c)
{
	uint64_t t = 0;

	if (hv_tsc_page_read((const volatile struct hv_ref_tsc_page *)(uintptr_t)c->hw, tsc_ordered_inline, NULL,
			     &t, NULL) == HV_TSC_INVALID)
		t = hv_refcount_read(c);
	return t;
}

/* 100 ns units, a rate to measure against the TSC (rated). */
static const struct counter_desc hyperv_counters[] = {
	{ .name = "hv-refcount", .read = hv_refcount_read, .insns = 4,
	  .method = "rdmsr 0x40000020 (partition reference counter, 100 ns)", .width = 64, .nominal_hz = 10000000,
	  .is_counter = true, .rated = true },
	{ .name = "hv-tsc-page", .read = hv_tsc_page_read_fn, .insns = 0,
	  .method = "reference TSC page: sequence loop, ((lfence; rdtsc) * scale) >> 64, + offset", .width = 64,
	  .nominal_hz = 10000000, .is_counter = true, .rated = true },
};
#define HYPERV_COUNTERS (sizeof hyperv_counters / sizeof hyperv_counters[0])

/* The one struct this part owns.  The reference TSC page is the whole 4 KiB
 * page the hypervisor overlays: partition-wide, so one page serves every
 * CPU. */
static struct hyperv {
	bool wants_page; /* hyperv_setup found the TSC page offered */
	uint64_t page;   /* its physical address, page-aligned */
	struct counter c[HYPERV_COUNTERS]; /* the descriptors as attach filled them */
} hyperv;

/* Finds "Microsoft Hv" in the hypervisor leaves and the partition's
 * privileges (leaf 0x40000003 EAX).  When the TSC page is offered,
 * h->wants_page is set: hand a page to hyperv_enable_page next. */
static void hyperv_setup(struct hyperv *h, struct counter *d, struct counter_state *s)
{
	char first[HYPERVISOR_SIG_LEN + 1], why[COUNTER_TEXT];
	uint32_t base = hypervisor_base("Microsoft Hv", first), priv;
	uint64_t v;

	h->wants_page = false;
	h->page = 0;
	counter_from_desc(&d[0], &hyperv_counters[0]);
	counter_from_desc(&d[1], &hyperv_counters[1]);
	counter_state_init(&s[0]);
	counter_state_init(&s[1]);
	if (!base) {
		hypervisor_absent("Microsoft Hv", first, why, sizeof why);
		counter_not_here(&s[0], why);
		counter_not_here(&s[1], why);
		return;
	}
	if (cpuid(base, 0).eax < base + 3) {
		counter_not_here(&s[0], "Hyper-V lists no partition privileges (leaf 0x40000003)");
		counter_not_here(&s[1], s[0].reason);
		return;
	}
	priv = cpuid(base + 3, 0).eax;
	if (!(priv & PRIV_TIME_REF_COUNT))
		counter_not_here(&s[0], "Hyper-V without AccessPartitionReferenceCounter (CPUID 0x40000003 EAX[1] clear)");
	else if (!rdmsr_safe(HV_X64_MSR_TIME_REF_COUNT, &v))
		counter_absent(&s[0], "Hyper-V offers the reference counter, but rdmsr 0x40000020 faults");
	if (!(priv & PRIV_REFERENCE_TSC))
		counter_not_here(&s[1], "Hyper-V without AccessPartitionReferenceTsc (CPUID 0x40000003 EAX[9] clear)");
	else
		h->wants_page = true;
}

/* Enables the TSC page at page (4 KiB, 4 KiB-aligned, identity-mapped, NULL:
 * no memory) and checks that the hypervisor made it valid. */
static void hyperv_enable_page(struct hyperv *h, void *page, struct counter *d, struct counter_state *s)
{
	uint64_t addr = (uintptr_t)page, msr = 0;
	const volatile struct hv_ref_tsc_page *p = page;
	char why[COUNTER_TEXT];

	if (!h->wants_page)
		return;
	if (!page || addr % HYPERV_PAGE || !phys_mapped(addr, HYPERV_PAGE)) {
		counter_absent(&s[1], "no identity-mapped page for the reference TSC page");
		return;
	}
	tp_memset(page, 0, HYPERV_PAGE);
	/* The reserved bits 11:1 are kept as they are. */
	if (!rdmsr_safe(HV_X64_MSR_REFERENCE_TSC, &msr) ||
	    !wrmsr_safe(HV_X64_MSR_REFERENCE_TSC, addr | (msr & 0xffe) | 1)) {
		counter_absent(&s[1], "Hyper-V refused HV_X64_MSR_REFERENCE_TSC (0x40000021): #GP");
		return;
	}
	h->page = addr;
	d[1].hw = addr;
	if (p->sequence == HV_TSC_SEQUENCE_INVALID || p->sequence == HV_TSC_SEQUENCE_INVALID_OLD) {
		tp_snprintf(why, sizeof why, "the reference TSC page stayed invalid (sequence 0x%x): reads would be the MSR's",
			    p->sequence);
		counter_absent(&s[1], why);
		return;
	}
	tp_snprintf(s[1].note, sizeof s[1].note, "sequence %u, scale 0x%llx, offset %lld", p->sequence,
		    (unsigned long long)p->scale, (long long)p->offset);
}

/* The reference TSC page is taken from the run's memory only when Hyper-V
 * offers it, and aligned there. */
static void hyperv_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s)
{
	hyperv_setup(&hyperv, hyperv.c, s);
	if (hyperv.wants_page) {
		uintptr_t raw = env->alloc ? (uintptr_t)env->alloc(env->ctx, 2 * HYPERV_PAGE) : 0;
		void *page = raw ? (void *)((raw + HYPERV_PAGE - 1) & ~(uintptr_t)(HYPERV_PAGE - 1)) : NULL;
		hyperv_enable_page(&hyperv, page, hyperv.c, s);
	}
	for (unsigned i = 0; i < HYPERV_COUNTERS; i++)
		c[i] = &hyperv.c[i];
}

const struct counter_driver hyperv_driver = {
	.name = "Hyper-V", .counters = hyperv_counters, .n = HYPERV_COUNTERS, .attach = hyperv_attach,
};
