/* SPDX-License-Identifier: BSD-2-Clause */
/* The paravirtual clock readers of probe/pvclock.h against simulated pages:
 * the 64 x 32 and 64 x 64 fixed-point products against a 128-bit reference,
 * whole reads against values worked out by hand, and the hypervisor
 * updating the page in the middle of a read (the TSC callback, which the
 * readers call between their two version or sequence reads, changes the
 * page as the hypervisor would). */
#include <stdint.h>
#include <string.h>
#include "tests/unit/check.h"
#include "probe/pvclock.h"
#include "tests/unit/xorshift.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next(void)
{
	return xorshift64(&rng);
}

/* ---- the arithmetic ------------------------------------------------------ */

static uint64_t ref_scale(uint64_t delta, uint32_t mul, int8_t shift)
{
	uint64_t d = shift < 0 ? delta >> -shift : delta << shift;
	return (uint64_t)(((unsigned __int128)d * mul) >> 32);
}

static void test_scale(void)
{
	static const uint64_t deltas[] = { 0, 1, 0xffffffffull, 0x100000000ull, 0x123456789abcdefull, ~0ull };
	static const uint32_t muls[] = { 0, 1, 0x80000000u, 0xffffffffu, 1717986918u };
	static const int8_t shifts[] = { -32, -5, -1, 0, 1, 2, 31 };
	int bad = 0, n = 0;

	for (size_t a = 0; a < sizeof deltas / sizeof deltas[0]; a++)
		for (size_t b = 0; b < sizeof muls / sizeof muls[0]; b++)
			for (size_t c = 0; c < sizeof shifts / sizeof shifts[0]; c++, n++)
				bad += pvclock_scale(deltas[a], muls[b], shifts[c]) != ref_scale(deltas[a], muls[b], shifts[c]);
	check(!bad, "pvclock_scale: %d edge cases (0, 2^32 - 1, 2^64 - 1, mul 2^32 - 1, shifts -32..31) match the 128-bit product (%d differ)",
	      n, bad);
	bad = 0;
	for (int i = 0; i < 1000000; i++) {
		uint64_t d = next() >> (next() % 64);
		uint32_t m = (uint32_t)next();
		int8_t s = (int8_t)((int)(next() % 64) - 32);
		bad += pvclock_scale(d, m, s) != ref_scale(d, m, s);
	}
	check(!bad, "pvclock_scale: 1,000,000 random deltas, multipliers and shifts match the 128-bit product (%d differ)", bad);
	check(COND(pvclock_scale(12345, 0xffffffffu, 64) == 0) && COND(pvclock_scale(12345, 0xffffffffu, -64) == 0) &&
		      COND(pvclock_scale(12345, 0xffffffffu, 127) == 0),
	      "pvclock_scale: a shift of 64 or more either way (a garbage page) gives 0, not undefined behaviour");
	/* A 2.5 GHz TSC: 0.4 ns a cycle is 0.4 * 2^32 = 1717986918.4. */
	check(pvclock_scale(2500000000ull, 1717986918u, 0) == 999999999,
	      "pvclock_scale: 2.5e9 cycles at 0.4 ns are 999,999,999 ns (the multiplier rounds down)");
	/* Shift -1 halves the delta first; 0.8 * 2^32 = 3435973836.8. */
	check(pvclock_scale(5000000000ull, 3435973836u, -1) == 1999999999,
	      "pvclock_scale: shift -1, mul 0.8: 5e9 cycles are 1,999,999,999 ns");
}

static uint64_t ref_hi64(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }

static void test_mul_hi64(void)
{
	static const uint64_t v[] = { 0, 1, 0xffffffffull, 0x100000000ull, 0x8000000000000000ull, ~0ull,
				      0xfffffffeffffffffull, 0x00000001ffffffffull };
	int bad = 0, n = 0;

	for (size_t a = 0; a < sizeof v / sizeof v[0]; a++)
		for (size_t b = 0; b < sizeof v / sizeof v[0]; b++, n++)
			bad += hv_mul_hi64(v[a], v[b]) != ref_hi64(v[a], v[b]);
	check(!bad, "hv_mul_hi64: %d edge cases (carries between the 32-bit halves included) match the 128-bit product", n);
	bad = 0;
	for (int i = 0; i < 1000000; i++) {
		uint64_t a = next(), b = next();
		bad += hv_mul_hi64(a, b) != ref_hi64(a, b);
	}
	check(!bad, "hv_mul_hi64: 1,000,000 random products match the 128-bit reference (%d differ)", bad);
}

/* ---- KVM pages ------------------------------------------------------------ */

static struct pvclock_vcpu_time_info kvm_page;
static struct {
	uint64_t tsc;       /* what the TSC reads */
	int calls;
	int bump_on;        /* on this call, the hypervisor updates the page */
	int even_on;        /* on this call, an odd version becomes even */
} kvm_sim;

static uint64_t kvm_tsc(void *ctx)
{
	(void)ctx;
	kvm_sim.calls++;
	if (kvm_sim.calls == kvm_sim.bump_on) { /* an update, complete before the version is read again */
		kvm_page.version += 2;
		kvm_page.system_time += 1000000;
		kvm_page.tsc_timestamp += 2500000;
	}
	if (kvm_sim.calls == kvm_sim.even_on)
		kvm_page.version++;
	return kvm_sim.tsc;
}

static void kvm_reset(void)
{
	memset(&kvm_page, 0, sizeof kvm_page);
	memset(&kvm_sim, 0, sizeof kvm_sim);
	kvm_page.version = 4;
	kvm_page.tsc_timestamp = 1000000000000ull;
	kvm_page.system_time = 77000000000ull; /* 77 s after the host's epoch */
	kvm_page.tsc_to_system_mul = 1717986918u; /* 0.4 ns a cycle: 2.5 GHz */
	kvm_page.tsc_shift = 0;
	kvm_page.flags = PVCLOCK_TSC_STABLE_BIT;
	kvm_sim.tsc = kvm_page.tsc_timestamp + 2500000000ull; /* one second after the stamp */
}

static void test_kvm_read(void)
{
	uint64_t ns = 0;
	unsigned tries = 0;
	bool ok;

	kvm_reset();
	ok = pvclock_read(&kvm_page, kvm_tsc, NULL, &ns, &tries);
	check(COND(ok) && COND(tries == 1) && COND(ns == 77000000000ull + 999999999),
	      "pvclock_read: a still page, 1 s of TSC after its stamp: system_time + 999,999,999 ns in one try (%llu, %u tries)",
	      (unsigned long long)ns, tries);

	kvm_reset();
	kvm_sim.bump_on = 1; /* between the first version read and the second */
	ok = pvclock_read(&kvm_page, kvm_tsc, NULL, &ns, &tries);
	/* After the update: stamp + 2.5e6 cycles, system_time + 1 ms; the TSC
	 * is 2.4975e9 cycles past the new stamp: 998,999,999 ns. */
	check(COND(ok) && COND(tries == 2) && COND(ns == 77000000000ull + 1000000 + 998999999) &&
		      COND(kvm_sim.calls == 2),
	      "pvclock_read: the version changes during the read: read again, the new page's value (%llu, %u tries)",
	      (unsigned long long)ns, tries);

	kvm_reset();
	kvm_page.version = 5; /* odd: being updated */
	kvm_sim.even_on = 3;
	ok = pvclock_read(&kvm_page, kvm_tsc, NULL, &ns, &tries);
	check(COND(ok) && COND(tries == 4) && COND(kvm_page.version == 6),
	      "pvclock_read: an odd version is read again until it is even and still (%u tries)", tries);

	kvm_reset();
	kvm_page.version = 7; /* odd for ever: a hypervisor stuck in its update */
	ok = pvclock_read(&kvm_page, kvm_tsc, NULL, &ns, &tries);
	check(COND(!ok) && COND(tries == PVCLOCK_TRIES) && COND(kvm_sim.calls == PVCLOCK_TRIES),
	      "pvclock_read: a version that stays odd ends the read after %d tries, with failure (%u tries)",
	      PVCLOCK_TRIES, tries);

	kvm_reset();
	kvm_page.tsc_shift = -1;
	kvm_page.tsc_to_system_mul = 3435973836u; /* 0.8 ns per two cycles */
	ok = pvclock_read(&kvm_page, kvm_tsc, NULL, &ns, NULL);
	check(COND(ok) && COND(ns == 77000000000ull + 999999999),
	      "pvclock_read: a negative shift, 2.5 GHz as mul 0.8 after halving: the same second");
}

/* ---- Hyper-V pages -------------------------------------------------------- */

static struct hv_ref_tsc_page hv_page;
static struct {
	uint64_t tsc;
	int calls, bump_on, invalidate_on;
	bool always_bump;
} hv_sim;

static uint64_t hv_tsc(void *ctx)
{
	(void)ctx;
	hv_sim.calls++;
	if (hv_sim.calls == hv_sim.bump_on || hv_sim.always_bump) {
		hv_page.sequence++;
		hv_page.offset += 10000; /* 1 ms in 100 ns units */
	}
	if (hv_sim.calls == hv_sim.invalidate_on)
		hv_page.sequence = 0;
	return hv_sim.tsc;
}

static void hv_reset(void)
{
	memset(&hv_page, 0, sizeof hv_page);
	memset(&hv_sim, 0, sizeof hv_sim);
	hv_page.sequence = 3;
	/* 100 ns units from a 2.5 GHz TSC: 1e7 / 2.5e9 = 0.004, as 0.64 fixed
	 * point: floor(0.004 * 2^64) = 73786976294838206. */
	hv_page.scale = 73786976294838206ull;
	hv_page.offset = -5000000; /* half a second behind the TSC's count */
	hv_sim.tsc = 25000000000ull; /* 10 s of TSC */
}

static void test_hv_read(void)
{
	uint64_t t = 0;
	unsigned tries = 0;
	enum hv_tsc_result res;

	hv_reset();
	res = hv_tsc_page_read(&hv_page, hv_tsc, NULL, &t, &tries);
	check(COND(res == HV_TSC_OK) && COND(tries == 1) && COND(t == 100000000 - 1 - 5000000),
	      "hv_tsc_page_read: 10 s of a 2.5 GHz TSC, offset -0.5 s: 94,999,999 x 100 ns in one try (%llu)",
	      (unsigned long long)t);

	hv_reset();
	hv_sim.bump_on = 1;
	res = hv_tsc_page_read(&hv_page, hv_tsc, NULL, &t, &tries);
	check(COND(res == HV_TSC_OK) && COND(tries == 2) && COND(t == 100000000 - 1 - 5000000 + 10000),
	      "hv_tsc_page_read: the sequence changes during the read: read again, the new offset (%llu, %u tries)",
	      (unsigned long long)t, tries);

	hv_reset();
	hv_page.sequence = HV_TSC_SEQUENCE_INVALID;
	res = hv_tsc_page_read(&hv_page, hv_tsc, NULL, &t, &tries);
	check(COND(res == HV_TSC_INVALID) && COND(hv_sim.calls == 0),
	      "hv_tsc_page_read: sequence 0 is invalid: fall back to the MSR, the TSC not even read");
	hv_reset();
	hv_page.sequence = HV_TSC_SEQUENCE_INVALID_OLD;
	res = hv_tsc_page_read(&hv_page, hv_tsc, NULL, &t, &tries);
	check(res == HV_TSC_INVALID, "hv_tsc_page_read: sequence 0xFFFFFFFF (specifications before 2.0) is invalid too");

	hv_reset();
	hv_sim.invalidate_on = 1; /* the page is withdrawn during the read (a migration) */
	res = hv_tsc_page_read(&hv_page, hv_tsc, NULL, &t, &tries);
	check(COND(res == HV_TSC_INVALID) && COND(tries == 2),
	      "hv_tsc_page_read: a page made invalid during the read: the read sees it and falls back (%u tries)",
	      tries);

	hv_reset();
	hv_sim.always_bump = true;
	res = hv_tsc_page_read(&hv_page, hv_tsc, NULL, &t, &tries);
	check(COND(res == HV_TSC_BUSY) && COND(tries == PVCLOCK_TRIES) && COND(hv_sim.calls == PVCLOCK_TRIES),
	      "hv_tsc_page_read: a sequence that changes on every try ends after %d tries, busy", PVCLOCK_TRIES);

	hv_reset();
	hv_page.scale = ~0ull; /* just under 1.0: the TSC itself, in 100 ns units */
	hv_page.offset = 0;
	hv_sim.tsc = ~0ull;
	res = hv_tsc_page_read(&hv_page, hv_tsc, NULL, &t, NULL);
	check(COND(res == HV_TSC_OK) && COND(t == ~0ull - 1),
	      "hv_tsc_page_read: the largest TSC and scale: (2^64-1)^2 >> 64 = 2^64 - 2");
}

int main(void)
{
	test_scale();
	test_mul_hi64();
	test_kvm_read();
	test_hv_read();
	return check_done();
}
