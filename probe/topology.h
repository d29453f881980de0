/* SPDX-License-Identifier: BSD-2-Clause */
/* Where the calling CPU sits: its APIC ID split into package, core and
 * thread (SMT) IDs, and on hybrid parts its core type, from CPUID alone.
 * Platform-free: CPUID is a function given by the caller, so the image runs
 * this on each CPU with the instruction and the tests run it on recordings.
 *
 * The method, first that applies:
 *  1. leaf 0x1F, then leaf 0xB (Intel SDM vol. 2A, CPUID; AMD Zen 2 and
 *     later have 0xB): the x2APIC ID and, per level, the bits to shift it
 *     right to reach the next level.  The SMT level's shift gives the
 *     thread bits, the last level's the package; every level between (core,
 *     module, tile, die) is folded into the core ID, which is therefore
 *     unique within the package.
 *  2. AMD/Hygon with TopoExt: 0x8000001E (extended APIC ID, core ID,
 *     threads per core, node ID) and 0x80000008 ECX[15:12] ApicIdCoreIdSize
 *     for the package bits (Zen 1 has no leaf 0xB).
 *  3. AMD/Hygon without TopoExt (K8 to K10): 0x80000008 ECX only.
 *  4. leaf 1 EBX[23:16] (logical processors per package, when EDX[28] HTT)
 *     with leaf 4 EAX[31:26] + 1 (cores per package): Intel before Nehalem.
 * No leaf above the maximum that leaf 0 or 0x80000000 reports is asked
 * for: Intel answers such a leaf with the highest basic leaf's data.
 *
 * Core type: leaf 0x1A EAX[31:24] when CPUID.7.0:EDX[15] (Hybrid) is set:
 * 0x20 Intel Atom ("E-core"), 0x40 Intel Core ("P-core"). */
#ifndef PROBE_TOPOLOGY_H
#define PROBE_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>


struct cpuid_result {
	uint32_t eax, ebx, ecx, edx;
};

/* CPUID with EAX = leaf and ECX = subleaf, on the calling CPU.  On x86:
 *	static struct cpuid_result real_cpuid(void *ctx, uint32_t leaf, uint32_t sub)
 *	{
 *		struct cpuid_regs r = cpuid(leaf, sub);
 *		(void)ctx;
 *		return (struct cpuid_result){ r.eax, r.ebx, r.ecx, r.edx };
 *	}
 * then topology_read(real_cpuid, NULL, &t) on each CPU. */
typedef struct cpuid_result (*topo_cpuid_fn)(void *ctx, uint32_t leaf, uint32_t subleaf);

enum topo_source {
	TOPO_NONE = 0,    /* no leaf 1: nothing known */
	TOPO_LEAF_1F,     /* V2 extended topology */
	TOPO_LEAF_B,      /* extended topology */
	TOPO_AMD_1E,      /* 0x8000001E with 0x80000008 */
	TOPO_AMD_80000008,
	TOPO_LEAF_1_4,    /* leaf 1 and leaf 4 (or leaf 1 alone) */
};

/* Leaf 0x1A EAX[31:24]. */
#define TOPO_CORE_ATOM 0x20
#define TOPO_CORE_CORE 0x40

#define TOPO_MAX_LEVELS 8 /* subleaves of 0x1F/0xB read; real CPUs use 2..5 */

struct topology {
	enum topo_source source;
	uint32_t apic_id;       /* the 32-bit x2APIC / extended APIC ID, else the 8-bit initial one */
	bool apic_id_32;        /* apic_id came from 0x1F, 0xB or 0x8000001E */
	uint32_t package, core, thread;
	unsigned smt_bits;      /* APIC ID bits of the thread within its core */
	unsigned package_shift; /* APIC ID bits below the package (core and thread) */
	unsigned threads_per_core; /* as the CPU reports it for its own core; 0 if not said */
	unsigned levels;        /* valid levels of 0x1F/0xB */
	bool has_node;
	uint32_t node;          /* AMD 0x8000001E ECX[7:0] */
	bool hybrid;            /* CPUID.7.0:EDX[15] */
	uint8_t core_type;      /* leaf 0x1A EAX[31:24]; 0 when not hybrid or not said */
	uint32_t native_model;  /* leaf 0x1A EAX[23:0] */
	const char *problem;    /* an inconsistency seen (NULL: none), for the log */
};

/* Fill t for the CPU that fn runs CPUID on. */
void topology_read(topo_cpuid_fn fn, void *ctx, struct topology *t);

/* "cpuid_1f", "cpuid_b", "amd_8000001e", "amd_80000008", "cpuid_1_4", "none":
 * for a person (the tests' messages). */
const char *topology_source_name(enum topo_source s);

/* "P-core", "E-core", "unknown (0xNN)" written into buf (16 bytes), or NULL
 * when the CPU is not hybrid. */
const char *topology_core_type(const struct topology *t, char *buf);


#endif
