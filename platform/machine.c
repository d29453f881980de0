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

void machine_record(struct log *l, uint64_t memory_mib, char *line, size_t cap)
{
	struct cpuid_regs r0 = cpuid(0, 0), r1 = cpuid(1, 0);
	uint32_t regs[12];
	char vendor[13], brand[49], hv[13], rtc[24];
	unsigned family, model, stepping;
	uint64_t ucode = 0, cores = 0;
	bool have_ucode, have_hv = r1.ecx >> 31 & 1;
	struct json *j;

	regs[0] = r0.ebx, regs[1] = r0.edx, regs[2] = r0.ecx;
	regs_to_chars(vendor, regs, 3);
	brand[0] = 0;
	if (cpuid(0x80000000, 0).eax >= 0x80000004) {
		for (uint32_t k = 0; k < 3; k++) {
			struct cpuid_regs b = cpuid(0x80000002 + k, 0);
			regs[k * 4] = b.eax, regs[k * 4 + 1] = b.ebx, regs[k * 4 + 2] = b.ecx, regs[k * 4 + 3] = b.edx;
		}
		regs_to_chars(brand, regs, 12);
		trim(brand);
	}
	/* Display family and model, with the extended fields where the SDM
	 * says they apply (family 6 and 15). */
	family = r1.eax >> 8 & 0xf;
	model = r1.eax >> 4 & 0xf;
	stepping = r1.eax & 0xf;
	if (family == 0xf)
		family += r1.eax >> 20 & 0xff;
	if (family == 0x6 || family >= 0xf)
		model |= (r1.eax >> 16 & 0xf) << 4;
	have_ucode = rdmsr_safe(MSR_UCODE_REV, &ucode);
	if (have_ucode && cpu_is_intel())
		ucode >>= 32;
	if (have_hv) {
		struct cpuid_regs h = cpuid(0x40000000, 0);
		regs[0] = h.ebx, regs[1] = h.ecx, regs[2] = h.edx;
		regs_to_chars(hv, regs, 3);
		trim(hv);
	}
	/* Logical processors in the package: leaf 0xB's core level where it
	 * exists, else leaf 1 EBX[23:16] when the HTT flag says it is valid. */
	if (r0.eax >= 0xb && cpuid(0xb, 1).ebx & 0xffff)
		cores = cpuid(0xb, 1).ebx & 0xffff;
	else if (r1.edx >> 28 & 1)
		cores = r1.ebx >> 16 & 0xff;

	j = log_begin(l, "machine");
	json_str(j, "cpu_vendor", vendor);
	json_str(j, "cpu_brand", brand);
	json_u64(j, "family", family);
	json_u64(j, "model", model);
	json_u64(j, "stepping", stepping);
	if (have_ucode)
		json_u64(j, "microcode", ucode);
	else
		json_null(j, "microcode");
	json_str(j, "hypervisor", have_hv ? hv : NULL);
	json_bool(j, "invariant_tsc", cpu_has_invariant_tsc());
	json_bool(j, "rdtscp", cpu_has_rdtscp());
	if (cores)
		json_u64(j, "cores", cores);
	else
		json_null(j, "cores");
	if (memory_mib)
		json_u64(j, "memory_mib", memory_mib);
	else
		json_null(j, "memory_mib");
	/* The core clock's counters (null core_clock in the timer records when
	 * false), and the RTC's date: when the log was made, to within the
	 * firmware's idea of the time. */
	json_bool(j, "aperf_mperf", r0.eax >= 6 && (cpuid(6, 0).ecx & 1));
	json_str(j, "rtc_time", rtc_now(rtc, sizeof rtc) ? rtc : NULL);
	log_end(l);
	tp_snprintf(line, cap, "CPU: %s (%s, family %u model %u stepping %u)%s%s\n", brand[0] ? brand : "?",
		    vendor, family, model, stepping, have_hv ? ", hypervisor " : "", have_hv ? hv : "");
}
