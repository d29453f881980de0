/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/topology.c on CPUID answers: QEMU 7.2's, recorded (tests/data/cpuid),
 * and tables built from the vendors' documented fields for CPUs this machine
 * cannot be: an Intel hybrid (Alder Lake-S), AMD Zen 1 and Naples, AMD K8/K10,
 * and Intel parts from before leaf 0xB.  Every answer goes through one
 * callback that also counts leaves asked for past the CPU's maximum. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "probe/topology.h"

#define CPUID_DATA "tests/data/cpuid"
#define MAX_RECS 256

struct rec {
	uint32_t leaf, sub, eax, ebx, ecx, edx;
};

/* One CPU's answers: a table, with the fields that differ between the CPUs
 * of one machine set per CPU (as hardware and QEMU do). */
struct view {
	const struct rec *recs;
	unsigned n;
	bool per_cpu;          /* put apic_id into leaf 1, 0xB, 0x1F and 0x8000001E */
	uint32_t apic_id;
	uint32_t smt_ebx;      /* 0xB/0x1F subleaf 0 EBX, when non-zero */
	uint32_t leaf1a_eax;   /* leaf 0x1A EAX, when non-zero */
	int amd_core;          /* 0x8000001E EBX[7:0], when >= 0 */
	int leaf_b_shift_add;  /* added to leaf 0xB's top level shift */
	unsigned past_max;     /* leaves asked for past the maximum */
};

static const struct rec *find(const struct view *v, uint32_t leaf, uint32_t sub)
{
	for (unsigned i = 0; i < v->n; i++)
		if (v->recs[i].leaf == leaf && v->recs[i].sub == sub)
			return &v->recs[i];
	return NULL;
}

static struct cpuid_result answer(void *ctx, uint32_t leaf, uint32_t sub)
{
	struct view *v = ctx;
	const struct rec *top = find(v, leaf & 0x80000000u, 0), *r;
	struct cpuid_result o = { 0, 0, 0, 0 };

	if (leaf != 0x80000000u && (!top || leaf > top->eax)) {
		v->past_max++;
		r = find(v, 0, 0) ? find(v, find(v, 0, 0)->eax, 0) : NULL; /* Intel's answer */
	} else {
		r = find(v, leaf, sub);
	}
	if (r)
		o = (struct cpuid_result){ r->eax, r->ebx, r->ecx, r->edx };
	if (v->per_cpu && r && r->leaf == leaf) {
		if (leaf == 1)
			o.ebx = (o.ebx & 0x00ffffff) | (v->apic_id & 0xff) << 24;
		if ((leaf == 0xb || leaf == 0x1f) && (o.ecx & 0xff00))
			o.edx = v->apic_id;
		if ((leaf == 0xb || leaf == 0x1f) && sub == 0 && v->smt_ebx)
			o.ebx = v->smt_ebx;
		if (leaf == 0xb && sub == 1)
			o.eax += (uint32_t)v->leaf_b_shift_add;
		if (leaf == 0x1a && v->leaf1a_eax)
			o.eax = v->leaf1a_eax;
		if (leaf == 0x8000001e) {
			o.eax = v->apic_id;
			if (v->amd_core >= 0)
				o.ebx = (o.ebx & ~0xffu) | (uint32_t)v->amd_core;
		}
	}
	return o;
}

static struct topology read_as(struct view *v, uint32_t apic_id)
{
	struct topology t;
	v->apic_id = apic_id;
	topology_read(answer, v, &t);
	return t;
}

/* A recording: the "0xLEAF 0xSUB: eax=... ebx=... ecx=... edx=..." lines. */
static unsigned load(const char *name, struct rec *recs)
{
	char path[256], line[256];
	unsigned n = 0;
	FILE *f;

	snprintf(path, sizeof path, CPUID_DATA "/%s", name);
	if (!(f = fopen(path, "r")))
		return 0;
	while (n < MAX_RECS && fgets(line, sizeof line, f)) {
		struct rec *r = &recs[n];
		if (sscanf(line, " 0x%x 0x%x: eax=0x%x ebx=0x%x ecx=0x%x edx=0x%x", &r->leaf, &r->sub,
			   &r->eax, &r->ebx, &r->ecx, &r->edx) == 6)
			n++;
	}
	fclose(f);
	return n;
}

#define SAME(t, P, C, T) ((t).package == (P) && (t).core == (C) && (t).thread == (T))

/* ---- QEMU 7.2, recorded --------------------------------------------------- */

struct qemu_case {
	const char *file;
	unsigned cpus;
	enum topo_source source;
	unsigned smt_bits, package_shift;
	bool node; /* 0x8000001E offered, with TopoExt */
};

static void test_qemu(void)
{
	static const struct qemu_case cases[] = {
		{ "qemu72-tcg-max-smp1.txt", 1, TOPO_LEAF_B, 0, 0, false },
		{ "qemu72-tcg-max-smp8-s2c2t2.txt", 8, TOPO_LEAF_B, 1, 2, false },
		{ "qemu72-tcg-max-smp8-d2c2t2.txt", 8, TOPO_LEAF_B, 1, 3, false },
		{ "qemu72-tcg-qemu64-smp1.txt", 1, TOPO_LEAF_B, 0, 0, false },
		{ "qemu72-tcg-qemu64-smp8-s2c2t2.txt", 8, TOPO_LEAF_B, 1, 2, false },
		{ "qemu72-tcg-skylake-client-smp8-d2c2t2.txt", 8, TOPO_LEAF_1F, 1, 3, false },
		{ "qemu72-tcg-epyc-smp8-c4t2.txt", 8, TOPO_LEAF_B, 1, 3, false },
	};
	static struct rec recs[MAX_RECS];

	for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const struct qemu_case *c = &cases[k];
		struct view v = { recs, load(c->file, recs), false, 0, 0, 0, -1, 0, 0 };
		struct topology t = read_as(&v, 0);
		bool aps = true;

		check(COND(v.n > 30) && COND(t.source == c->source) && COND(!t.problem) && COND(!v.past_max),
		      "qemu %s: boot CPU read via %s, no leaf asked past the maximum", c->file,
		      topology_source_name(t.source));
		check(COND(t.apic_id == 0) && COND(t.apic_id_32) && COND(SAME(t, 0, 0, 0)),
		      "qemu %s: boot CPU is APIC ID 0, package 0, core 0, thread 0", c->file);
		check(COND(t.smt_bits == c->smt_bits) && COND(t.package_shift == c->package_shift) &&
			      COND(t.has_node == c->node),
		      "qemu %s: smt_bits %u, package_shift %u, node level %s", c->file, t.smt_bits, t.package_shift,
		      t.has_node ? "yes" : "no");
		check(COND(!t.hybrid) && COND(topology_core_type(&t, (char[16]){ 0 }) == NULL),
		      "qemu %s: not hybrid, no core type", c->file);
		/* QEMU numbers the APIC IDs densely: thread, then core (and die), then socket. */
		v.per_cpu = true;
		for (uint32_t id = 0; id < c->cpus; id++) {
			t = read_as(&v, id);
			aps &= t.apic_id == id && SAME(t, id >> c->package_shift,
						      (id >> c->smt_bits) & ((1u << (c->package_shift - c->smt_bits)) - 1),
						      id & ((1u << c->smt_bits) - 1)) && !t.problem;
		}
		check(aps, "qemu %s: all %u CPUs split into package/core/thread as -smp laid them out", c->file, c->cpus);
	}

	/* Leaf 0x1F wins over 0xB: the Skylake recording with 0xB's core level moved. */
	struct view v = { recs, load("qemu72-tcg-skylake-client-smp8-d2c2t2.txt", recs), true, 0, 0, 0, -1, 2, 0 };
	struct topology t = read_as(&v, 7);
	check(COND(t.source == TOPO_LEAF_1F) && COND(t.package_shift == 3) && COND(SAME(t, 0, 3, 1)),
	      "qemu skylake: with leaf 0xB disagreeing, 0x1F's levels are used (die folded into core 3)");
	v.recs = recs;
	v.n = load("qemu72-tcg-max-smp8-s2c2t2.txt", recs);
	v.leaf_b_shift_add = 0;
	t = read_as(&v, 6);
	char type[16];
	check(COND(t.apic_id == 6) && COND(SAME(t, 1, 1, 0)) && COND(t.smt_bits == 1) && COND(t.package_shift == 2) &&
		      COND(t.source == TOPO_LEAF_B) && COND(!t.has_node) && COND(!topology_core_type(&t, type)),
	      "qemu max: APIC ID 6 is package 1, core 1, thread 0 by leaf 0xB (SMT 1 bit, package at bit 2), no node, "
	      "no core type");
}

/* ---- Intel hybrid: Alder Lake-S, 8 P-cores with SMT and 4 E-cores ----------- */

/* Leaves 1, 4, 0xB and 0x1F as an ADL-S part reports them (an E-core's 0x1F,
 * x2APIC ID 0x4C, was posted with its leaf 4 on the QEMU list in 2023; the
 * P-core's SMT level says 2 logical processors where the E-core's says 1).
 * Leaf 7 and 0x1A carry only the fields read: EDX[15] Hybrid, and the core
 * type with native model ID 1. */
static const struct rec adl[] = {
	{ 0, 0, 0x20, 0x756e6547, 0x6c65746e, 0x49656e69 },
	{ 1, 0, 0x00090672, 0x00800800, 0x7ffafbff, 0xbfebfbff },
	{ 4, 0, 0xfc004121, 0x01c0003f, 0x0000003f, 0 },
	{ 7, 0, 0, 0, 0, 1u << 15 },
	{ 0xb, 0, 1, 2, 0x100, 0 }, { 0xb, 1, 7, 0x14, 0x201, 0 }, { 0xb, 2, 0, 0, 2, 0 },
	{ 0x1a, 0, 0x40000001, 0, 0, 0 },
	{ 0x1f, 0, 1, 2, 0x100, 0 }, { 0x1f, 1, 7, 0x14, 0x201, 0 }, { 0x1f, 2, 0, 0, 2, 0 },
	{ 0x80000000, 0, 0x80000008, 0, 0, 0 },
	{ 0x80000001, 0, 0, 0, 0x121, 0x2c100800 },
	{ 0x80000008, 0, 0x3027, 0, 0, 0 },
};

static void test_hybrid(void)
{
	struct view v = { adl, sizeof adl / sizeof adl[0], true, 0, 0, 0, -1, 0, 0 };
	unsigned p_ok = 0, e_ok = 0, seen[128] = { 0 }, dup = 0;
	char buf[16];

	/* P-cores: APIC IDs 0,1 8,9 ... 56,57 (8 IDs per core); E-cores 72,74,76,78. */
	for (unsigned c = 0; c < 8; c++)
		for (unsigned th = 0; th < 2; th++) {
			v.smt_ebx = 0;
			v.leaf1a_eax = 0;
			struct topology t = read_as(&v, 8 * c + th);
			const char *type = topology_core_type(&t, buf);
			p_ok += t.source == TOPO_LEAF_1F && SAME(t, 0, 4 * c, th) && t.hybrid && type &&
				!strcmp(type, "P-core") && t.threads_per_core == 2 && t.native_model == 1;
			dup += seen[t.core * 2 + t.thread]++ > 0;
		}
	for (unsigned e = 0; e < 4; e++) {
		v.smt_ebx = 1;
		v.leaf1a_eax = 0x20000001;
		struct topology t = read_as(&v, 72 + 2 * e);
		const char *type = topology_core_type(&t, buf);
		e_ok += SAME(t, 0, 36 + e, 0) && type && !strcmp(type, "E-core") && t.threads_per_core == 1;
		dup += seen[t.core * 2 + t.thread]++ > 0;
	}
	check(COND(p_ok == 16) && COND(e_ok == 4) && COND(dup == 0) && COND(!v.past_max),
	      "hybrid ADL-S: 16 P-core threads (cores 0,4..28, SMT 0/1) and 4 E-cores (cores 36..39), all distinct");
	v.smt_ebx = 1;
	v.leaf1a_eax = 0x20000001;
	struct topology t = read_as(&v, 0x4c);
	check(COND(t.apic_id == 0x4c) && COND(SAME(t, 0, 38, 0)) && COND(t.package_shift == 7) && COND(t.smt_bits == 1),
	      "hybrid ADL-S: the posted E-core (x2APIC 0x4C) is core 38, thread 0, package shift 7");
	v.leaf1a_eax = 0x10000001;
	t = read_as(&v, 0);
	check(!strcmp(topology_core_type(&t, buf), "unknown (0x10)"), "hybrid: an unlisted core type 0x10 is named as such");
	struct rec noleaf1a[sizeof adl / sizeof adl[0]];
	memcpy(noleaf1a, adl, sizeof adl);
	noleaf1a[0].eax = 0x16;
	v.recs = noleaf1a;
	t = read_as(&v, 0);
	check(COND(t.hybrid) && COND(t.core_type == 0) && COND(t.source == TOPO_LEAF_B) && COND(v.past_max == 0),
	      "hybrid flag with leaf 0x1A (and 0x1F) past the maximum: neither asked for, type unknown, 0xB used");
	noleaf1a[3].edx = 0;
	t = read_as(&v, 0);
	check(COND(!t.hybrid) && COND(topology_core_type(&t, buf) == NULL), "no Hybrid flag: core type null");
}

/* ---- AMD: Zen 1 (no leaf 0xB), Naples, K10 and K8 ------------------------- */

/* Ryzen 5 1600-like: 6 cores in two CCX of 3, APIC IDs 0-5 and 8-13,
 * ApicIdCoreIdSize 4, 12 threads; TopoExt in 0x80000001 ECX[22]. */
static const struct rec zen1[] = {
	{ 0, 0, 0xd, 0x68747541, 0x444d4163, 0x69746e65 },
	{ 1, 0, 0x00800f11, 0x000c0800, 0x7ed8320b, 0x178bfbff },
	{ 7, 0, 0, 0x209c01a9, 0, 0 },
	{ 0xb, 0, 0, 0, 0, 0 },
	{ 0x80000000, 0, 0x8000001f, 0x68747541, 0x444d4163, 0x69746e65 },
	{ 0x80000001, 0, 0x00800f11, 0x20000000, 0x35c233ff, 0x2fd3fbff },
	{ 0x80000008, 0, 0x00003030, 0x00000007, 0x0000400b, 0 },
	{ 0x8000001e, 0, 0, 0x00000100, 0x00000000, 0 },
};

static void test_amd(void)
{
	static const uint32_t ids[12] = { 0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13 };
	struct view v = { zen1, sizeof zen1 / sizeof zen1[0], true, 0, 0, 0, -1, 0, 0 };
	unsigned ok = 0;

	for (unsigned i = 0; i < 12; i++) {
		v.amd_core = (int)(ids[i] >> 1);
		struct topology t = read_as(&v, ids[i]);
		ok += t.source == TOPO_AMD_1E && t.apic_id == ids[i] && SAME(t, 0, ids[i] >> 1, ids[i] & 1) &&
		      t.smt_bits == 1 && t.package_shift == 4 && t.threads_per_core == 2 && t.has_node && t.node == 0;
	}
	check(COND(ok == 12) && COND(!v.past_max),
	      "amd zen1: 12 threads via 0x8000001E: cores 0,1,2,4,5,6, SMT 0/1, package shift 4");

	/* A Naples socket 1 CPU: ApicIdCoreIdSize 6, node 5 of 4 per socket. */
	struct rec naples[sizeof zen1 / sizeof zen1[0]];
	memcpy(naples, zen1, sizeof zen1);
	naples[6].ecx = 0x0000603f;
	naples[7].ecx = 0x00000305;
	v.recs = naples;
	v.amd_core = 13;
	struct topology t = read_as(&v, 0x5b);
	check(COND(SAME(t, 1, 13, 1)) && COND(t.node == 5) && COND(t.package_shift == 6),
	      "amd naples: APIC 0x5B -> package 1, core 13, "
	      "thread 1, node 5");

	/* K10 (no TopoExt): 0x80000008 alone; K8: ApicIdCoreIdSize 0, NC 1. */
	naples[5].ecx &= ~(1u << 22);
	naples[6].ecx = 0x00003003;
	t = read_as(&v, 2);
	check(COND(t.source == TOPO_AMD_80000008) && COND(SAME(t, 0, 2, 0)) && COND(t.package_shift == 3) &&
		      COND(!t.has_node),
	      "amd k10: no TopoExt -> 0x80000008: APIC 2 is core 2 of package 0");
	naples[6].ecx = 0x00000001;
	t = read_as(&v, 3);
	check(COND(t.source == TOPO_AMD_80000008) && COND(SAME(t, 1, 1, 0)) && COND(t.package_shift == 1),
	      "amd k8: ApicIdCoreIdSize 0, NC 1 -> 1 core bit: APIC 3 is package 1 core 1");
}

/* ---- Intel before leaf 0xB ------------------------------------------------- */

static const struct rec q6600[] = { /* Core 2 Quad: 4 cores, no SMT, maximum leaf 0xA */
	{ 0, 0, 0xa, 0x756e6547, 0x6c65746e, 0x49656e69 },
	{ 1, 0, 0x000006fb, 0x00040800, 0x0000e3bd, 0xbfebfbff },
	{ 4, 0, 0x0c000121, 0x01c0003f, 0x0000003f, 0x00000001 },
	{ 0xa, 0, 0x07280202, 0x00000001, 0, 0x00000503 }, /* EBX made non-zero: what 0xB would read */
	{ 0x80000000, 0, 0x80000008, 0, 0, 0 },
	{ 0x80000008, 0, 0x00003024, 0, 0, 0 },
};
static const struct rec p4ht[] = { /* Pentium 4 with Hyper-Threading: maximum leaf 2 */
	{ 0, 0, 2, 0x756e6547, 0x6c65746e, 0x49656e69 },
	{ 1, 0, 0x00000f29, 0x00020800, 0x00004400, 0xbfebfbff },
	{ 2, 0, 0x665b5001, 0, 0, 0x007b7040 },
	{ 0x80000000, 0, 0x80000004, 0, 0, 0 },
};
static const struct rec pentium_m[] = { /* no HTT: EBX[23:16] means nothing */
	{ 0, 0, 2, 0x756e6547, 0x6c65746e, 0x49656e69 },
	{ 1, 0, 0x000006d8, 0x00100800, 0x00000180, 0xafe9fbff },
	{ 0x80000000, 0, 0x80000004, 0, 0, 0 },
};

static void test_legacy(void)
{
	struct view v = { q6600, sizeof q6600 / sizeof q6600[0], true, 0, 0, 0, -1, 0, 0 };
	unsigned ok = 0;

	for (uint32_t id = 0; id < 4; id++) {
		struct topology t = read_as(&v, id);
		ok += t.source == TOPO_LEAF_1_4 && SAME(t, 0, id, 0) && t.smt_bits == 0 && t.package_shift == 2 &&
		      !t.apic_id_32;
	}
	check(COND(ok == 4) && COND(v.past_max == 0),
	      "legacy q6600: leaf 1 (4 logical) + leaf 4 (4 cores) -> cores 0..3, "
	      "no SMT; leaf 0xB past the maximum never asked for");
	v = (struct view){ p4ht, sizeof p4ht / sizeof p4ht[0], true, 0, 0, 0, -1, 0, 0 };
	struct topology a = read_as(&v, 6), b = read_as(&v, 7);
	check(COND(SAME(a, 3, 0, 0)) && COND(SAME(b, 3, 0, 1)) && COND(a.smt_bits == 1) &&
		      COND(a.threads_per_core == 2) && COND(!v.past_max),
	      "legacy p4 HT: no leaf 4 -> 1 core of 2 threads; a Xeon DP's APIC 6/7 -> package 3, threads 0/1");
	v = (struct view){ pentium_m, sizeof pentium_m / sizeof pentium_m[0], true, 0, 0, 0, -1, 0, 0 };
	a = read_as(&v, 0);
	check(COND(a.source == TOPO_LEAF_1_4) && COND(a.package_shift == 0) && COND(SAME(a, 0, 0, 0)),
	      "legacy pentium m: HTT clear -> "
	      "one logical processor, EBX[23:16] ignored");
}

/* ---- nonsense ---------------------------------------------------------------- */

static void test_hostile(void)
{
	struct rec r[12] = {
		{ 0, 0, 0xb, 0x756e6547, 0x6c65746e, 0x49656e69 },
		{ 1, 0, 0, 0x05000800, 0, 0 },
	};
	struct view v = { r, 2, false, 0, 0, 0, -1, 0, 0 };
	struct topology t;

	for (unsigned s = 0; s < 10; s++) /* ten levels, never ending: bounded */
		r[2 + s] = (struct rec){ 0xb, s, s == 3 ? 2 : 4 + s, 1, 0x300 | s, 0x12345678 };
	v.n = 12;
	t = read_as(&v, 0);
	check(COND(t.levels == TOPO_MAX_LEVELS) && COND(t.package_shift == 11) && COND(t.problem) &&
		      COND(t.apic_id == 0x12345678) && COND(t.package == 0x12345678u >> 11),
	      "hostile: endless levels read up to %u, decreasing shift and an x2APIC ID "
	      "not matching leaf 1 noted: %s",
	      TOPO_MAX_LEVELS, t.problem ? t.problem : "");
	r[2] = (struct rec){ 0xb, 0, 31, 1, 0x100, 0xffffffff };
	r[3] = (struct rec){ 0xb, 1, 31, 1, 0x000, 0 };
	v.n = 4;
	t = read_as(&v, 0);
	check(COND(t.package_shift == 31) && COND(t.smt_bits == 31) && COND(t.package == 1) && COND(t.core == 0) &&
		      COND(t.thread == 0x7fffffff),
	      "hostile: shift 31 on ID 0xffffffff -> package 1, thread 0x7fffffff (no shift by 32)");
	r[0].eax = 0;
	t = read_as(&v, 0);
	check(COND(t.source == TOPO_NONE) && COND(!v.past_max),
	      "hostile: maximum leaf 0 -> nothing known, nothing asked");
}

int main(void)
{
	test_qemu();
	test_hybrid();
	test_amd();
	test_legacy();
	test_hostile();
	return check_done();
}
