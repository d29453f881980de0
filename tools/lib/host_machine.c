/* SPDX-License-Identifier: BSD-2-Clause */
/* What CPUID and the kernel say of this machine (host_machine.h). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/lib/host_machine.h"

static void regs_str(char *out, const unsigned *r, int n)
{
	memcpy(out, r, (size_t)n * 4);
	out[n * 4] = 0;
}

static void trim(char *s)
{
	char *p = s;
	size_t n;

	while (*p == ' ')
		p++;
	memmove(s, p, strlen(p) + 1);
	n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = 0;
}

static long long microcode(void)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "microcode", 9)) {
			char *c = strchr(line, ':');
			if (c)
				v = strtoll(c + 1, NULL, 0);
			break;
		}
	fclose(f);
	return v;
}

void host_machine_read(struct host_machine *m)
{
	unsigned a, b, c, d, max = 0, xmax;
	long pages, psize;

	memset(m, 0, sizeof *m);
	if (__get_cpuid(0, &max, &b, &c, &d)) {
		unsigned v[3] = { b, d, c };
		regs_str(m->vendor, v, 3);
	}
	if (max >= 1) {
		__cpuid_count(1, 0, a, b, c, d);
		unsigned base_f = (a >> 8) & 0xf, base_m = (a >> 4) & 0xf;
		m->stepping = a & 0xf;
		m->family = base_f == 0xf ? base_f + ((a >> 20) & 0xff) : base_f;
		m->model = (base_f == 0x6 || base_f == 0xf) ? (((a >> 16) & 0xf) << 4) + base_m : base_m;
		m->tsc = d & (1u << 4);
		if (c & (1u << 31)) {
			unsigned r[3];
			__cpuid_count(0x40000000, 0, a, r[0], r[1], r[2]);
			regs_str(m->hypervisor, r, 3);
			if (!m->hypervisor[0])
				strcpy(m->hypervisor, "unknown");
		}
	}
	__cpuid(0x80000000, xmax, b, c, d);
	if (xmax >= 0x80000001) {
		__cpuid(0x80000001, a, b, c, d);
		m->rdtscp = d & (1u << 27);
	}
	if (xmax >= 0x80000004) {
		unsigned r[12];
		for (unsigned i = 0; i < 3; i++)
			__cpuid(0x80000002 + i, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
		regs_str(m->brand, r, 12);
		trim(m->brand);
	}
	if (xmax >= 0x80000007) {
		__cpuid(0x80000007, a, b, c, d);
		m->invariant_tsc = d & (1u << 8);
	}
	m->cores = sysconf(_SC_NPROCESSORS_ONLN);
	m->microcode = microcode();
	pages = sysconf(_SC_PHYS_PAGES);
	psize = sysconf(_SC_PAGESIZE);
	m->memory_mib = pages > 0 && psize > 0 ? (long long)pages * psize / (1024 * 1024) : -1;
}
