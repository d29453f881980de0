/* SPDX-License-Identifier: BSD-2-Clause */
#include "drivers/rdpid.h"
#include "arch/x86/cpu.h"
#include "lib/fmt.h"

/* The value is whatever the firmware left in IA32_TSC_AUX (0 on QEMU):
 * nobody here numbers the CPUs, and the cost does not depend on it. */
uint64_t rdpid_read(const struct counter *c);
__asm__(".text\n"
	"rdpid_read:\n"
	"	rdpid %rax\n"
	"	ret\n");

void rdpid_setup(struct counter d[RDPID_COUNTERS], struct counter_state s[RDPID_COUNTERS])
{
	counter_describe(&d[0], "rdpid", rdpid_read, 1, "rdpid: IA32_TSC_AUX (an OS's CPU number) into a register");
	counter_state_init(&s[0]);
	if (cpuid(0, 0).eax < 7 || !(cpuid(7, 0).ecx >> 22 & 1)) {
		s[0].present = false;
		s[0].by_design = true;
		tp_snprintf(s[0].reason, sizeof s[0].reason, "CPUID.(EAX=7,ECX=0):ECX[22] clear: no RDPID");
	}
}
