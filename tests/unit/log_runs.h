/* SPDX-License-Identifier: BSD-2-Clause */
/* Realistic runs, written by the probe's own writer (probe/log.c) in schema 1
 * or 2, into memory: the logs test_logread damages and reads back, and the
 * fixture logs it saves for the tool tests. */
#ifndef TESTS_UNIT_LOG_RUNS_H
#define TESTS_UNIT_LOG_RUNS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "probe/hist_codec.h"
#include "lib/json.h"
#include "probe/log.h"

/* ---- a growable byte buffer, the writer's sink ------------------------------ */

struct buf {
	char *p;
	size_t n, cap;
};

static inline void put(struct buf *b, const void *s, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static inline void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static inline void sink(void *ctx, const char *s, size_t n)
{
	put(ctx, s, n);
}

/* ---- realistic runs --------------------------------------------------------- */

struct tdef {
	const char *name;
	int healthy;
	const char *reason;
	double p50; /* ns */
	const double *rounds;
	size_t nrounds;
	int freq;
	const char *clocksource, *call; /* OS-side records only */
};

static const double r_tsc_a[] = { 10.2, 10.4, 10.1, 10.3, 10.2, 10.5, 10.2, 10.3 };
static const double r_tsc_b[] = { 12.1, 12.4, 12.0, 12.3, 12.2, 12.6, 12.2, 12.1 };
static const double r_hpet_a[] = { 520, 530, 510, 525, 515, 528, 522, 519 };
static const double r_hpet_b[] = { 521, 527, 514, 524, 518, 526, 520, 523 };
static const double r_acpi_a[] = { 700, 720, 710, 705, 715, 708, 712, 709 };
static const double r_os_tsc[] = { 25.5, 26.0, 25.1, 25.8, 25.4, 26.2, 25.7, 25.3 };

static void cost(struct json *j, const char *key, double p50, double scale)
{
	json_object_begin(j, key);
	json_fixed(j, "min", p50 * 0.9 * scale, 3);
	json_fixed(j, "p50", p50 * scale, 3);
	json_fixed(j, "mean", p50 * 1.05 * scale, 3);
	json_fixed(j, "sd", p50 * 0.1 * scale, 3);
	json_fixed(j, "p99", p50 * 1.5 * scale, 3);
	json_fixed(j, "p999", p50 * 2 * scale, 3);
	json_fixed(j, "max", p50 * 9 * scale, 3);
	json_object_end(j);
}

/* A histogram or rounds in the form of the log's schema (docs/log-format.md). */
static void hist3(struct json *j, int schema, const uint64_t *v, const uint64_t *c, size_t n)
{
	struct hist_enc e;
	if (schema < 2) {
		json_array_begin(j, "hist");
		for (size_t i = 0; i < n; i++)
			json_pair_u64(j, v[i], c[i]);
		json_array_end(j);
		return;
	}
	hist_enc_begin(&e, j, "hist");
	for (size_t i = 0; i < n; i++)
		hist_enc_add(&e, v[i], c[i]);
	hist_enc_end(&e);
}

static void rounds_of(struct json *j, int schema, const double *v, size_t n)
{
	if (schema < 2) {
		json_array_begin(j, "rounds");
		for (size_t i = 0; i < n; i++) {
			json_object_begin(j, NULL);
			json_fixed(j, "p50", v[i], 3);
			json_fixed(j, "mean", v[i] * 1.02, 3);
			json_object_end(j);
		}
		json_array_end(j);
		return;
	}
	json_object_begin(j, "rounds");
	json_array_begin(j, "p50");
	for (size_t i = 0; i < n; i++)
		json_fixed(j, NULL, v[i], 3);
	json_array_end(j);
	json_array_begin(j, "mean");
	for (size_t i = 0; i < n; i++)
		json_fixed(j, NULL, v[i] * 1.02, 3);
	json_array_end(j);
	json_object_end(j);
}

static void timer(struct log *l, const struct tdef *t, int schema)
{
	/* Bin values as the probe gives them: a log bucket's lower bound. */
	const uint64_t hv[3] = { (uint64_t)(t->p50 * 3), (uint64_t)(t->p50 * 3) + 1,
				 hist_bin_low(hist_bin_of((uint64_t)(t->p50 * 27))) };
	const uint64_t hc[3] = { 600, 390, 10 };
	struct json *j = log_begin(l, "timer");
	json_str(j, "name", t->name);
	json_bool(j, "healthy", t->healthy);
	if (!t->healthy) {
		json_str(j, "reason", t->reason);
		log_end(l);
		return;
	}
	if (t->clocksource) {
		json_str(j, "clocksource", t->clocksource);
		json_str(j, "call", t->call);
	}
	json_str(j, "method", "one read between two serialised TSC reads");
	json_u64(j, "width", 64);
	json_u64(j, "samples", 1000);
	cost(j, "cost_cycles", t->p50, 3.0);
	cost(j, "cost_ns", t->p50, 1.0);
	hist3(j, schema, hv, hc, 3);
	if (schema < 2) { /* schema 2 leaves them to the hist */
		json_array_begin(j, "modes");
		json_pair_u64(j, (uint64_t)(t->p50 * 3), 600);
		json_array_end(j);
	}
	json_u64(j, "clamped", 0);
	json_object_begin(j, "throughput");
	json_u64(j, "reads", 10000);
	json_u64(j, "cycles", (uint64_t)(t->p50 * 30000));
	json_fixed(j, "reads_per_s", 1e9 / t->p50, 1);
	json_object_end(j);
	rounds_of(j, schema, t->rounds, t->nrounds);
	json_object_begin(j, "delta");
	json_u64(j, "min", 1);
	json_u64(j, "granularity", 1);
	json_u64(j, "mode", 30);
	json_u64(j, "mode_count", 500);
	json_u64(j, "max", 900);
	json_u64(j, "backwards", 0);
	json_u64(j, "wraps", 0);
	json_object_end(j);
	json_object_begin(j, "outliers");
	json_array_begin(j, "largest");
	json_u64(j, NULL, (uint64_t)(t->p50 * 27));
	json_array_end(j);
	json_u64(j, "over_10x_p50", 0);
	json_object_end(j);
	if (t->freq) {
		json_object_begin(j, "freq");
		json_u64(j, "nominal_hz", 100000000);
		json_fixed(j, "measured_hz", 100000012.5, 1);
		json_fixed(j, "ppm", 0.125, 3);
		json_fixed(j, "err_ppm", 2.5, 3);
		json_object_end(j);
	} else {
		json_null(j, "freq");
	}
	json_null(j, "smi");
	log_end(l);
}

struct runspec {
	int schema;
	const char *boot, *brand, *hypervisor;
	const struct tdef *timers;
	size_t ntimers;
};

static void write_run(struct buf *b, const struct runspec *s)
{
	static struct log l;
	struct json *j;
	log_init(&l, sink, b);
	j = log_begin(&l, "begin");
	json_u64(j, "schema", (uint64_t)s->schema);
	json_str(j, "version", "0.1.0");
	json_str(j, "boot", s->boot);
	json_str(j, "cmdline", "preset=quick");
	json_object_begin(j, "options");
	json_str(j, "preset", "quick");
	json_u64(j, "rounds", 8);
	json_u64(j, "samples", 1000);
	json_array_begin(j, "counters");
	for (size_t i = 0; i < s->ntimers; i++)
		json_str(j, NULL, s->timers[i].name);
	json_array_end(j);
	json_object_end(j);
	json_array_begin(j, "option_problems");
	json_array_end(j);
	log_end(&l);

	j = log_begin(&l, "machine");
	json_str(j, "cpu_vendor", "GenuineIntel");
	json_str(j, "cpu_brand", s->brand);
	json_u64(j, "family", 6);
	json_u64(j, "model", 85);
	json_u64(j, "stepping", 4);
	json_u64(j, "microcode", 0x2006e05);
	json_str(j, "hypervisor", s->hypervisor);
	json_bool(j, "invariant_tsc", true);
	json_bool(j, "rdtscp", true);
	json_u64(j, "cores", 2);
	json_null(j, "memory_mib");
	log_end(&l);

	j = log_begin(&l, "acpi");
	json_object_begin(j, "rsdp");
	json_u64(j, "address", 0xf5a30);
	json_u64(j, "revision", 0);
	json_str(j, "oem_id", "BOCHS\xe9");
	json_object_end(j);
	json_str(j, "root", "rsdt");
	json_null(j, "fadt");
	json_object_begin(j, "pm_timer");
	json_str(j, "space", "io");
	json_u64(j, "address", 0x608);
	json_u64(j, "bits", 24);
	json_object_end(j);
	json_object_begin(j, "hpet");
	json_u64(j, "address", 0xfed00000);
	json_u64(j, "block_id", 0x8086a201);
	json_u64(j, "vendor", 0x8086);
	json_u64(j, "tables", 1);
	json_object_end(j);
	json_array_begin(j, "problems");
	json_str(j, NULL, "HPET table at 0x7fe14000: bad checksum, ignored");
	json_array_end(j);
	log_end(&l);

	j = log_begin(&l, "tsc");
	json_u64(j, "hz", 2999999000ull);
	json_str(j, "source", "hpet");
	json_object_begin(j, "sources");
	json_u64(j, "hpet", 2999999000ull);
	json_u64(j, "pit", 3000120000ull);
	json_object_end(j);
	json_fixed(j, "error_ppm", 1.5, 2);
	log_end(&l);

	j = log_begin(&l, "overhead");
	json_str(j, "sequence", "lfence;rdtsc..rdtscp;lfence");
	json_u64(j, "samples", 1000);
	json_object_begin(j, "cycles");
	json_u64(j, "min", 24);
	json_u64(j, "p50", 26);
	json_fixed(j, "mean", 26.4, 3);
	json_fixed(j, "sd", 1.2, 3);
	json_u64(j, "p99", 30);
	json_u64(j, "p999", 52);
	json_u64(j, "max", 400);
	json_object_end(j);
	{
		static const uint64_t v[2] = { 24, 26 }, c[2] = { 100, 900 };
		hist3(j, s->schema, v, c, 2);
	}
	json_u64(j, "subtracted", 24);
	log_end(&l);

	for (size_t i = 0; i < s->ntimers; i++)
		timer(&l, &s->timers[i], s->schema);
	log_close(&l, "ok");
}

static const struct tdef timers_a[] = {
	{ "tsc", 1, NULL, 10.2, r_tsc_a, 8, 0, NULL, NULL },
	{ "hpet", 1, NULL, 521, r_hpet_a, 8, 1, NULL, NULL },
	{ "acpi-fast", 1, NULL, 710, r_acpi_a, 8, 1, NULL, NULL },
	{ "i8254", 0, "no PIT: channel 0 never counted", 0, NULL, 0, 0, NULL, NULL },
};
static const struct tdef timers_b[] = {
	{ "tsc", 1, NULL, 12.2, r_tsc_b, 8, 0, NULL, NULL },
	{ "hpet", 1, NULL, 521, r_hpet_b, 8, 1, NULL, NULL },
};
static const struct tdef timers_os[] = {
	{ "clock_gettime-monotonic", 1, NULL, 25.5, r_os_tsc, 8, 0, "tsc", "clock_gettime(CLOCK_MONOTONIC)" },
};
/* a and os as this writer writes them (schema 2), b as the one before (schema 1),
 * a1 the run of a in schema 1: every reader must make the same of a and a1. */
static const struct runspec spec_a = { 2, "bios", "Intel(R) Xeon(R) CPU @ 2.00GHz", "TCGTCGTCGTCG", timers_a, 4 };
static const struct runspec spec_a1 = { 1, "bios", "Intel(R) Xeon(R) CPU @ 2.00GHz", "TCGTCGTCGTCG", timers_a, 4 };
static const struct runspec spec_b = { 1, "uefi", "QEMU Virtual CPU, \"quoted\"", NULL, timers_b, 2 };
static const struct runspec spec_os = { 2, "linux", "Intel(R) Xeon(R) CPU @ 2.00GHz", NULL, timers_os, 1 };
static const struct runspec spec_new = { LOG_SCHEMA + 1, "bios", "x", NULL, timers_b, 2 };

/* A small run for the exhaustive damage loops (every bit of every line). */
static const struct tdef timers_small[] = { { "tsc", 1, NULL, 10.2, r_tsc_a, 3, 0, NULL, NULL } };
static const struct runspec spec_small = { 2, "bios", "cpu", NULL, timers_small, 1 };
static const struct runspec spec_small1 = { 1, "bios", "cpu", NULL, timers_small, 1 };

#endif
