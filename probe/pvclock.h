/* SPDX-License-Identifier: BSD-2-Clause */
/* The paravirtual clock pages, read: KVM's pvclock (struct
 * pvclock_vcpu_time_info, Linux Documentation/virt/kvm/x86/msr.rst,
 * MSR_KVM_SYSTEM_TIME_NEW) and Hyper-V's reference TSC page (the Hypervisor
 * Top-Level Functional Specification, "Partition Reference TSC Mechanism").
 *
 * Plain C with the TSC read handed in, so that the host tests run the very
 * code the image runs against simulated pages, the hypervisor's update in
 * the middle of a read included (tests/unit/test_pvclock.c).  The readers
 * are inline: in the image the TSC read is inlined into them and the read
 * costs what a guest kernel's read costs (Linux's vDSO reads these pages in
 * compiled C too).  Header only: the readers are all there is. */
#ifndef PROBE_PVCLOCK_H
#define PROBE_PVCLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* ---- KVM ------------------------------------------------------------------ */

/* The guest's page, as the hypervisor writes it: 32 bytes, 4-byte aligned
 * at least.  version is odd while the hypervisor updates the rest. */
struct pvclock_vcpu_time_info {
	uint32_t version;
	uint32_t pad0;
	uint64_t tsc_timestamp;     /* the TSC when system_time was right */
	uint64_t system_time;       /* nanoseconds */
	uint32_t tsc_to_system_mul; /* 32.32 fixed point: ns per (shifted) TSC cycle */
	int8_t tsc_shift;           /* applied to the TSC delta before the multiply */
	uint8_t flags;
	uint8_t pad[2];
};
/* Every field at its natural alignment, so no packing is needed for the ABI. */
_Static_assert(sizeof(struct pvclock_vcpu_time_info) == 32, "the pvclock ABI is 32 bytes");
_Static_assert(__builtin_offsetof(struct pvclock_vcpu_time_info, tsc_to_system_mul) == 24, "mul at 24");
_Static_assert(__builtin_offsetof(struct pvclock_vcpu_time_info, flags) == 29, "flags at 29");

#define PVCLOCK_TSC_STABLE_BIT 0x01 /* the same clock on every vCPU: one page serves all */

/* A version that stays odd, or changes on every try, ends the read after
 * this many tries: it is never waited on without bound. */
#define PVCLOCK_TRIES 64

/* ((delta shifted by shift) * mul) >> 32, with the 64 x 32 -> 96-bit product
 * taken in two halves (no 128-bit type: the image is freestanding). */
static inline uint64_t pvclock_scale(uint64_t delta, uint32_t mul, int8_t shift)
{
	uint64_t lo, hi;

	/* A page's shift is -32..31 in practice; one past 63 would be
	 * undefined in C, and a page that says so is garbage: 0. */
	if (shift <= -64 || shift >= 64)
		delta = 0;
	else if (shift < 0)
		delta >>= -shift;
	else
		delta <<= shift;
	lo = (delta & 0xffffffffu) * mul; /* < 2^64 */
	hi = (delta >> 32) * mul;         /* < 2^64 */
	return hi + (lo >> 32);           /* (hi << 32 + lo) >> 32, whose top 32 bits are dropped */
}

typedef uint64_t (*pvclock_tsc_fn)(void *ctx);

/* A load the hypervisor may have changed since the last one: a function, so
 * that no reader (a static checker included) takes two loads for one. */
static inline uint32_t pvclock_load32(const volatile uint32_t *a) { return *a; }

/* Nanoseconds from the page: the version read, then the fields and the TSC,
 * then the version again; a read that saw an odd version or two different
 * ones is taken again.  Returns false after PVCLOCK_TRIES tries (*ns is then
 * the last value computed); *tries (may be NULL) gets the tries used. */
static inline __attribute__((always_inline)) bool
pvclock_read(const volatile struct pvclock_vcpu_time_info *p, pvclock_tsc_fn tsc, void *ctx, uint64_t *ns,
	     unsigned *tries)
{
	bool ok = false;
	unsigned k;

	for (k = 1; k <= PVCLOCK_TRIES && !ok; k++) {
		uint32_t v = pvclock_load32(&p->version);
		__asm__ volatile("" ::: "memory"); /* the fields after the version */
		uint64_t stamp = p->tsc_timestamp, base = p->system_time;
		uint32_t mul = p->tsc_to_system_mul;
		int8_t shift = p->tsc_shift;
		uint64_t now = tsc(ctx);
		*ns = base + pvclock_scale(now - stamp, mul, shift);
		__asm__ volatile("" ::: "memory");
		ok = !(v & 1) && pvclock_load32(&p->version) == v;
	}
	if (tries)
		*tries = k - 1;
	return ok;
}

/* ---- Hyper-V ------------------------------------------------------------ */

/* The reference TSC page: time in 100 ns units is
 * ((tsc * scale) >> 64) + offset, scale being 0.64 fixed point. */
struct hv_ref_tsc_page {
	uint32_t sequence;
	uint32_t reserved;
	uint64_t scale;
	int64_t offset;
};
_Static_assert(sizeof(struct hv_ref_tsc_page) == 24 && __builtin_offsetof(struct hv_ref_tsc_page, offset) == 16,
	       "the reference TSC page's fields at 0, 8 and 16");

/* The sequence values that say the page is not to be used: 0 in the current
 * specification, 0xFFFFFFFF in versions before 2.0 (Windows Server 2012). */
#define HV_TSC_SEQUENCE_INVALID 0u
#define HV_TSC_SEQUENCE_INVALID_OLD 0xffffffffu

/* (a * b) >> 64 in four 32 x 32 products. */
static inline uint64_t hv_mul_hi64(uint64_t a, uint64_t b)
{
	uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu); /* < 3 * 2^32 */

	return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

enum hv_tsc_result {
	HV_TSC_OK,      /* *t100ns holds the time */
	HV_TSC_INVALID, /* the page says: use the reference counter MSR instead */
	HV_TSC_BUSY,    /* the sequence changed on every one of PVCLOCK_TRIES tries */
};

static inline __attribute__((always_inline)) enum hv_tsc_result
hv_tsc_page_read(const volatile struct hv_ref_tsc_page *p, pvclock_tsc_fn tsc, void *ctx, uint64_t *t100ns,
		 unsigned *tries)
{
	enum hv_tsc_result res = HV_TSC_BUSY;
	unsigned k;

	for (k = 1; k <= PVCLOCK_TRIES; k++) {
		uint32_t seq = pvclock_load32(&p->sequence);
		if (seq == HV_TSC_SEQUENCE_INVALID || seq == HV_TSC_SEQUENCE_INVALID_OLD) {
			res = HV_TSC_INVALID;
			break;
		}
		__asm__ volatile("" ::: "memory");
		uint64_t scale = p->scale;
		int64_t offset = p->offset;
		uint64_t now = tsc(ctx);
		*t100ns = hv_mul_hi64(now, scale) + (uint64_t)offset;
		__asm__ volatile("" ::: "memory");
		if (pvclock_load32(&p->sequence) == seq) {
			res = HV_TSC_OK;
			break;
		}
	}
	if (tries)
		*tries = k > PVCLOCK_TRIES ? PVCLOCK_TRIES : k;
	return res;
}

#endif
