/* SPDX-License-Identifier: BSD-2-Clause */
/* CPUID topology: see probe/topology.h for the method.  Field positions are
 * from the Intel SDM vol. 2A (CPUID leaves 1, 4, 7, 0xB, 0x1A, 0x1F) and
 * AMD's APM vol. 3 (CPUID Fn8000_0001, Fn8000_0008, Fn8000_001E). */
#include "probe/topology.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define LEAF1_EDX_HTT (1u << 28)
#define LEAF7_EDX_HYBRID (1u << 15)
#define EXT1_ECX_TOPOEXT (1u << 22)
#define LEVEL_SMT 1

struct query {
	topo_cpuid_fn fn;
	void *ctx;
	uint32_t max_basic, max_ext;
};

/* A leaf past the maximum reads as zeros, whatever the CPU would say. */
static struct cpuid_result ask(const struct query *q, uint32_t leaf, uint32_t sub)
{
	uint32_t max = leaf >= 0x80000000u ? q->max_ext : q->max_basic;

	if (leaf > max || (leaf >= 0x80000000u && max < 0x80000000u))
		return (struct cpuid_result){ 0, 0, 0, 0 };
	return q->fn(q->ctx, leaf, sub);
}

/* The smallest b with 2^b >= n. */
static unsigned bits_for(uint32_t n)
{
	unsigned b = 0;

	while (b < 32 && (1ull << b) < n)
		b++;
	return b;
}

static uint32_t field(uint32_t id, unsigned lo, unsigned hi)
{
	if (lo >= 32)
		return 0;
	id >>= lo;
	return hi - lo >= 32 ? id : id & (uint32_t)((1ull << (hi - lo)) - 1);
}

static void split(struct topology *t)
{
	if (t->smt_bits > t->package_shift)
		t->smt_bits = t->package_shift;
	t->thread = field(t->apic_id, 0, t->smt_bits);
	t->core = field(t->apic_id, t->smt_bits, t->package_shift);
	t->package = field(t->apic_id, t->package_shift, 64);
}

/* Leaf 0x1F or 0xB.  False when the CPU does not have it. */
static bool extended(const struct query *q, uint32_t leaf, uint32_t initial_id, struct topology *t)
{
	struct cpuid_result r = ask(q, leaf, 0);
	unsigned prev = 0;

	/* SDM: the leaf is not there when subleaf 0 says 0 logical processors. */
	if ((r.ebx & 0xffff) == 0)
		return false;
	t->smt_bits = 0;
	t->package_shift = 0;
	for (unsigned sub = 0; sub < TOPO_MAX_LEVELS; sub++) {
		struct cpuid_result l = sub ? ask(q, leaf, sub) : r;
		unsigned type = (l.ecx >> 8) & 0xff, shift = l.eax & 0x1f;
		if (!type)
			break;
		if (shift < prev)
			t->problem = "topology level shifts decrease; the largest used";
		if (type == LEVEL_SMT) {
			t->smt_bits = shift;
			t->threads_per_core = l.ebx & 0xffff;
		}
		if (shift > t->package_shift)
			t->package_shift = shift;
		prev = shift;
		t->levels++;
	}
	if (!t->levels)
		return false;
	t->source = leaf == 0x1f ? TOPO_LEAF_1F : TOPO_LEAF_B;
	t->apic_id = r.edx;
	t->apic_id_32 = true;
	if ((r.edx & 0xff) != initial_id)
		t->problem = "x2APIC ID and leaf 1's initial APIC ID disagree";
	split(t);
	return true;
}

/* Package bits from 0x80000008 ECX: ApicIdCoreIdSize, or from NC when 0. */
static unsigned amd_package_shift(const struct query *q)
{
	uint32_t ecx = ask(q, 0x80000008, 0).ecx;
	unsigned size = (ecx >> 12) & 0xf;

	return size ? size : bits_for((ecx & 0xff) + 1);
}

static bool amd(const struct query *q, uint32_t initial_id, struct topology *t)
{
	bool topoext = ask(q, 0x80000001, 0).ecx & EXT1_ECX_TOPOEXT;

	if (q->max_ext < 0x80000008)
		return false;
	t->package_shift = amd_package_shift(q);
	if (topoext && q->max_ext >= 0x8000001e) {
		struct cpuid_result r = ask(q, 0x8000001e, 0);
		t->source = TOPO_AMD_1E;
		t->apic_id = r.eax;
		t->apic_id_32 = true;
		t->threads_per_core = ((r.ebx >> 8) & 0xff) + 1;
		t->smt_bits = bits_for(t->threads_per_core);
		split(t);
		t->core = r.ebx & 0xff; /* AMD's own core ID, as Linux takes it */
		return true;
	}
	t->source = TOPO_AMD_80000008;
	t->apic_id = initial_id;
	t->threads_per_core = 1;
	split(t);
	return true;
}

/* Leaf 1 with leaf 4: Intel's method before leaf 0xB. */
static void legacy(const struct query *q, struct cpuid_result l1, struct topology *t)
{
	uint32_t logical = (l1.edx & LEAF1_EDX_HTT) ? (l1.ebx >> 16) & 0xff : 1, cores = 1;

	if (!logical)
		logical = 1;
	if (q->max_basic >= 4) {
		struct cpuid_result l4 = ask(q, 4, 0);
		if (l4.eax & 0x1f) /* a cache is described: the count is valid */
			cores = (l4.eax >> 26) + 1;
	}
	if (cores > logical) {
		t->problem = "leaf 4 counts more cores than leaf 1 logical processors";
		cores = logical;
	}
	t->source = TOPO_LEAF_1_4;
	t->apic_id = l1.ebx >> 24;
	t->package_shift = bits_for(logical);
	t->smt_bits = bits_for(logical / cores);
	t->threads_per_core = logical / cores;
	split(t);
}

static bool vendor_is(const struct cpuid_result *r0, const char *v)
{
	uint8_t s[12];

	for (int i = 0; i < 4; i++) {
		s[i] = (uint8_t)(r0->ebx >> (8 * i));
		s[4 + i] = (uint8_t)(r0->edx >> (8 * i));
		s[8 + i] = (uint8_t)(r0->ecx >> (8 * i));
	}
	return !tp_memcmp(s, v, 12);
}

void topology_read(topo_cpuid_fn fn, void *ctx, struct topology *t)
{
	struct query q = { fn, ctx, 0, 0 };
	struct cpuid_result r0 = fn(ctx, 0, 0), l1;
	bool amd_like = vendor_is(&r0, "AuthenticAMD") || vendor_is(&r0, "HygonGenuine");
	uint32_t initial;

	tp_memset(t, 0, sizeof *t);
	q.max_basic = r0.eax;
	q.max_ext = fn(ctx, 0x80000000u, 0).eax;
	if (q.max_ext < 0x80000000u || q.max_ext > 0x8000ffffu)
		q.max_ext = 0; /* no extended leaves */
	if (q.max_basic < 1)
		return;
	l1 = ask(&q, 1, 0);
	initial = l1.ebx >> 24;
	if (q.max_basic >= 7 && (ask(&q, 7, 0).edx & LEAF7_EDX_HYBRID)) {
		t->hybrid = true;
		if (q.max_basic >= 0x1a) {
			uint32_t a = ask(&q, 0x1a, 0).eax;
			t->core_type = (uint8_t)(a >> 24);
			t->native_model = a & 0xffffff;
		}
	}
	if (amd_like && q.max_ext >= 0x8000001e && (ask(&q, 0x80000001, 0).ecx & EXT1_ECX_TOPOEXT)) {
		t->has_node = true;
		t->node = ask(&q, 0x8000001e, 0).ecx & 0xff;
	}
	if (extended(&q, 0x1f, initial, t) || extended(&q, 0xb, initial, t))
		return;
	if (amd_like && amd(&q, initial, t))
		return;
	legacy(&q, l1, t);
}

const char *topology_source_name(enum topo_source s)
{
	switch (s) {
	case TOPO_LEAF_1F: return "cpuid_1f";
	case TOPO_LEAF_B: return "cpuid_b";
	case TOPO_AMD_1E: return "amd_8000001e";
	case TOPO_AMD_80000008: return "amd_80000008";
	case TOPO_LEAF_1_4: return "cpuid_1_4";
	default: return "none";
	}
}

const char *topology_core_type(const struct topology *t, char *buf)
{
	if (!t->hybrid)
		return NULL;
	if (t->core_type == TOPO_CORE_CORE)
		return "P-core";
	if (t->core_type == TOPO_CORE_ATOM)
		return "E-core";
	tp_snprintf(buf, 16, "unknown (0x%02x)", t->core_type);
	return buf;
}
