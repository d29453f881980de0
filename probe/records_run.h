/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's records that describe the machine rather than measure it
 * (docs/log-format.md): the head of begin, machine and acpi; one writer for
 * the image and for `tickprobe os`, which fill in the same facts. */
#ifndef PROBE_RECORDS_RUN_H
#define PROBE_RECORDS_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "acpi/acpi.h"
#include "probe/log.h"
#include "probe/log_schema.h"

/* What CPUID (and the firmware, or the kernel) say about the machine. */
struct machine_facts {
	char vendor[13];
	char brand[49];
	unsigned family, model, stepping;
	bool microcode_known;
	uint64_t microcode;
	bool has_hypervisor; /* CPUID.01H:ECX[31] */
	char hypervisor[16]; /* its signature */
	bool invariant_tsc, rdtscp;
	uint64_t cores;      /* 0: unknown */
	uint64_t memory_mib; /* 0: unknown */
	/* The image's own members, written only when firmware is set. */
	bool firmware;
	bool aperf_mperf;
	char rtc_time[24]; /* "" when the RTC gave no date */
};

/* The begin record's first members, the same on both sides: schema,
 * version, boot, boot_services (NULL: not written), cmdline.  The caller
 * writes its own members next, then ends the record (log_end). */
struct put_begin record_begin_head(struct log *l, const char *boot, const char *boot_services, const char *cmdline);

void record_machine(struct log *l, const struct machine_facts *m);
/* "CPU: Intel(R) … (GenuineIntel, family 6 model 85 stepping 7), hypervisor KVMKVMKVM\n" */
void machine_facts_line(const struct machine_facts *m, char *line, size_t cap);

/* The TSC's rate: the value chosen and every source's. */
#define TSC_FACTS_SOURCES 24
struct tsc_facts {
	double hz; /* NaN: unknown */
	const char *source;
	unsigned n_sources;
	struct {
		const char *name;
		double hz;
	} sources[TSC_FACTS_SOURCES];
	double error_ppm;  /* NaN: unknown (the CPU's word only) */
	double interval_s; /* tickprobe os: the window; NaN: not written */
	uint64_t window_ms;
	bool invariant;
};

/* One more source; false when there is no room. */
bool tsc_facts_source(struct tsc_facts *t, const char *name, double hz);
void record_tsc_facts(struct log *l, const struct tsc_facts *t);

/* The acpi record's members into a (begun) acpi record or the like:
 * rsdp, root, fadt, pm_timer, hpet, madt (a summary: the CPU list is in
 * info->madt.cpus), problems. */
void write_acpi(struct put_acpi a, const struct acpi_info *info);
void record_acpi(struct log *l, const struct acpi_info *info);

#endif
