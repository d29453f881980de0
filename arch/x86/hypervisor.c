/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/x86/hypervisor.h"
#include "arch/x86/cpu.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define LEAF_FIRST 0x40000000u
#define LEAF_STEP 0x100u
#define LEAF_BLOCKS 256u /* 0x40000000 .. 0x4000FF00 */

static void signature(uint32_t leaf, char out[HYPERVISOR_SIG_LEN])
{
	struct cpuid_regs r = cpuid(leaf, 0);
	const uint32_t w[3] = { r.ebx, r.ecx, r.edx };

	for (int i = 0; i < 3; i++)
		for (int b = 0; b < 4; b++)
			out[i * 4 + b] = (char)(w[i] >> (8 * b));
}

uint32_t hypervisor_base(const char *sig, char *first)
{
	char s[HYPERVISOR_SIG_LEN];
	uint32_t found = 0;

	first[0] = 0;
	if (!(cpuid(1, 0).ecx >> 31 & 1))
		return 0;
	signature(LEAF_FIRST, s);
	for (int i = 0; i < HYPERVISOR_SIG_LEN; i++) /* printable, NULs dropped */
		first[i] = (char)(s[i] >= 0x20 && s[i] < 0x7f ? s[i] : 0);
	first[HYPERVISOR_SIG_LEN] = 0;
	for (uint32_t k = 0; k < LEAF_BLOCKS && !found; k++) {
		uint32_t leaf = LEAF_FIRST + k * LEAF_STEP;
		/* A block that does not list at least its own leaf is no block. */
		if (k && cpuid(leaf, 0).eax < leaf)
			continue;
		signature(leaf, s);
		if (!tp_memcmp(s, sig, HYPERVISOR_SIG_LEN))
			found = leaf;
	}
	return found;
}

void hypervisor_absent(const char *name, const char *first, char *buf, unsigned cap)
{
	if (!first[0])
		tp_snprintf(buf, cap, "no hypervisor (CPUID.01H:ECX[31] clear), so no %s", name);
	else
		tp_snprintf(buf, cap, "the hypervisor is %s, not %s", first, name);
}
