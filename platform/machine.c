/* SPDX-License-Identifier: BSD-2-Clause */
#include "platform/machine.h"
#include "arch/x86/cpu.h"
#include "drivers/rtc.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define MSR_UCODE_REV 0x8b /* IA32_BIOS_SIGN_ID on Intel, PATCH_LEVEL on AMD */

static void regs_to_chars(char *out, const uint32_t *regs, int n)
{
	for (int i = 0; i < n; i++)
		for (int b = 0; b < 4; b++)
			out[i * 4 + b] = (char)(regs[i] >> (8 * b));
	out[n * 4] = 0;
}

static void trim(char *s)
{
	size_t n = tp_strlen(s), start = 0;
	while (n && s[n - 1] == ' ')
		s[--n] = 0;
	while (s[start] == ' ')
		start++;
	if (start)
		tp_memcpy(s, s + start, n - start + 1);
}

bool machine_is_qemu(void)
{
	char sig[4];
	outw(0x510, 0); /* FW_CFG_SIGNATURE */
	for (int i = 0; i < 4; i++)
		sig[i] = (char)inb(0x511);
	return !tp_memcmp(sig, "QEMU", 4);
}

void machine_facts_read(struct machine_facts *m, uint64_t memory_mib)
{
	struct cpuid_regs r0 = cpuid(0, 0), r1 = cpuid(1, 0);
	uint32_t regs[12];
	uint64_t ucode = 0;

	tp_memset(m, 0, sizeof *m);
	regs[0] = r0.ebx;
	regs[1] = r0.edx;
	regs[2] = r0.ecx;
	regs_to_chars(m->vendor, regs, 3);
	if (cpuid(0x80000000, 0).eax >= 0x80000004) {
		for (uint32_t k = 0; k < 3; k++) {
			struct cpuid_regs b = cpuid(0x80000002 + k, 0);
			regs[k * 4] = b.eax;
			regs[k * 4 + 1] = b.ebx;
			regs[k * 4 + 2] = b.ecx;
			regs[k * 4 + 3] = b.edx;
		}
		regs_to_chars(m->brand, regs, 12);
		trim(m->brand);
	}
	/* Display family and model, with the extended fields where the SDM
	 * says they apply (family 6 and 15). */
	m->family = r1.eax >> 8 & 0xf;
	m->model = r1.eax >> 4 & 0xf;
	m->stepping = r1.eax & 0xf;
	if (m->family == 0xf)
		m->family += r1.eax >> 20 & 0xff;
	if (m->family == 0x6 || m->family >= 0xf)
		m->model |= (r1.eax >> 16 & 0xf) << 4;
	m->microcode_known = rdmsr_safe(MSR_UCODE_REV, &ucode);
	m->microcode = m->microcode_known && cpu_is_intel() ? ucode >> 32 : ucode;
	m->has_hypervisor = r1.ecx >> 31 & 1;
	if (m->has_hypervisor) {
		struct cpuid_regs h = cpuid(0x40000000, 0);
		regs[0] = h.ebx;
		regs[1] = h.ecx;
		regs[2] = h.edx;
		regs_to_chars(m->hypervisor, regs, 3);
		trim(m->hypervisor);
	}
	m->invariant_tsc = cpu_has_invariant_tsc();
	m->rdtscp = cpu_has_rdtscp();
	/* Logical processors in the package: leaf 0xB's core level where it
	 * exists, else leaf 1 EBX[23:16] when the HTT flag says it is valid. */
	if (r0.eax >= 0xb && cpuid(0xb, 1).ebx & 0xffff)
		m->cores = cpuid(0xb, 1).ebx & 0xffff;
	else if (r1.edx >> 28 & 1)
		m->cores = r1.ebx >> 16 & 0xff;
	m->memory_mib = memory_mib;
	m->firmware = true;
	m->aperf_mperf = r0.eax >= 6 && (cpuid(6, 0).ecx & 1);
	if (!rtc_now(m->rtc_time, sizeof m->rtc_time))
		m->rtc_time[0] = 0;
}
