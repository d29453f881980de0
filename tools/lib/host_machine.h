/* SPDX-License-Identifier: BSD-2-Clause */
/* What CPUID and the kernel say of the machine we run on: the `machine`
 * record of `tickprobe os` (tools/os/machine.h) and the fingerprint
 * `tickprobe doctor` matches logs by. */
#ifndef TOOLS_LIB_HOST_MACHINE_H
#define TOOLS_LIB_HOST_MACHINE_H

#include <stdbool.h>

struct host_machine {
	char vendor[13], brand[49], hypervisor[13]; /* hypervisor "" when none */
	unsigned family, model, stepping;
	bool invariant_tsc, rdtscp, tsc;
	long cores;           /* online CPUs, -1 unknown */
	long long microcode;  /* from /proc/cpuinfo, -1 unknown */
	long long memory_mib; /* -1 unknown */
};

void host_machine_read(struct host_machine *m);

#endif
