/* SPDX-License-Identifier: BSD-2-Clause */
/* RDPID: IA32_TSC_AUX into a register, the CPU number an OS keeps there
 * (Linux's getcpu() uses it where the CPU has it).  Not a counter: only the
 * cost of the read. */
#include "arch/x86/cpu.h"
#include "lib/fmt.h"
#include "probe/counter.h"

/* The value is whatever the firmware left in IA32_TSC_AUX (0 on QEMU):
 * nobody here numbers the CPUs, and the cost does not depend on it. */
uint64_t rdpid_read(const struct counter *c);
__asm__(".text\n"
	"rdpid_read:\n"
	"	rdpid %rax\n"
	"	ret\n");

static const struct counter_desc rdpid_counters[] = {
	{ .name = "rdpid", .read = rdpid_read, .insns = 1,
	  .method = "rdpid: IA32_TSC_AUX (an OS's CPU number) into a register" },
};

/* The one struct this part owns: the descriptor as attach filled it. */
static struct {
	struct counter c;
} rdpid;

/* Present where CPUID.(EAX=7,ECX=0):ECX[22] says so. */
static void rdpid_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s)
{
	(void)env;
	counter_from_desc(&rdpid.c, &rdpid_counters[0]);
	counter_state_init(&s[0]);
	c[0] = &rdpid.c;
	if (cpuid(0, 0).eax < 7 || !(cpuid(7, 0).ecx >> 22 & 1)) {
		s[0].present = false;
		s[0].by_design = true;
		tp_snprintf(s[0].reason, sizeof s[0].reason, "CPUID.(EAX=7,ECX=0):ECX[22] clear: no RDPID");
	}
}

const struct counter_driver rdpid_driver = {
	.name = "RDPID", .counters = rdpid_counters, .n = 1, .attach = rdpid_attach,
};
