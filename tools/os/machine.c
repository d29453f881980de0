/* SPDX-License-Identifier: BSD-2-Clause */
/* CPUID and /proc for the `machine` record (tools/os/machine.h). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/os/machine.h"
#include "probe/records_run.h"

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

void os_machine_read(struct os_machine *m)
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

void os_write_machine(struct log *l, const struct os_machine *m)
{
	struct machine_facts f = {
		.family = m->family,
		.model = m->model,
		.stepping = m->stepping,
		.microcode_known = m->microcode >= 0,
		.microcode = m->microcode >= 0 ? (uint64_t)m->microcode : 0,
		.has_hypervisor = m->hypervisor[0] != 0,
		.invariant_tsc = m->invariant_tsc,
		.rdtscp = m->rdtscp,
		.cores = m->cores > 0 ? (uint64_t)m->cores : 0,
		/* unknown (and under 1 MiB, which no system has) is null */
		.memory_mib = m->memory_mib >= 0 ? (uint64_t)m->memory_mib : 0,
	};

	snprintf(f.vendor, sizeof f.vendor, "%s", m->vendor);
	snprintf(f.brand, sizeof f.brand, "%s", m->brand);
	snprintf(f.hypervisor, sizeof f.hypervisor, "%s", m->hypervisor);
	record_machine(l, &f);
}

void os_write_tsc(struct log *l, const struct os_tsc_cal *c, bool invariant)
{
	struct tsc_facts f = {
		.hz = c->hz,
		.source = "clock_monotonic_raw",
		.error_ppm = c->err_ppm,
		.interval_s = c->interval_s,
		.window_ms = (uint64_t)(c->interval_s * 1e3 + 0.5),
		.invariant = invariant,
	};

	tsc_facts_source(&f, "clock_monotonic_raw", c->hz);
	if (c->cpuid15_hz > 0)
		tsc_facts_source(&f, "cpuid15", c->cpuid15_hz);
	if (c->cpuid16_hz > 0)
		tsc_facts_source(&f, "cpuid16", c->cpuid16_hz);
	if (c->hypervisor_hz > 0)
		tsc_facts_source(&f, "hypervisor", c->hypervisor_hz);
	record_tsc_facts(l, &f);
}
