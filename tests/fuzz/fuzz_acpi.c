/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: the ACPI parser (acpi/acpi.c, acpi/acpi_tables.c) on hostile input.
 *
 * Input: one mode byte, then the rest.
 *   mode & 3 == 0: the rest is one raw table for acpi_decode_table(), and for
 *                  acpi_decode_fadt() / acpi_decode_hpet() by bits 2 and 3.
 *   otherwise      the rest is a fake physical memory, a list of regions
 *                  	u64 address (LE), u32 length (LE), that many bytes
 *                  (the last one cut to what is left);
 *     mode & 3 == 1: acpi_walk() from the first region's address (the RSDP);
 *     mode & 3 == 2: acpi_find_rsdp_bios() (EBDA word at 0x40E, 0xE0000 area),
 *                    then acpi_walk() from what it found;
 *     mode & 3 == 3: both, chained into one info, as a second boot path would.
 * A read succeeds only when one region holds all of it, so tables that run off
 * a region, or sit nowhere, are unreadable, as a hole in physical memory is.
 * Every result then goes through write_acpi() (probe/records_run.h) and acpi_summary() into buffers
 * sized from mode bits 4..7 (small ones to exercise truncation).  The raw
 * table is also scanned as AML for \_S5 (acpi/acpi_power.c); after a walk,
 * a FADT found sends its DSDT address to acpi_s5_find() over the memory. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "acpi/acpi.h"
#include "lib/json.h"
#include "probe/records_run.h"

#define MAX_REGIONS 64

struct region {
	uint64_t base;
	const uint8_t *data;
	size_t len;
};

struct fakemem {
	struct region r[MAX_REGIONS];
	int n;
};

static int fake_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	const struct fakemem *m = ctx;

	for (int i = 0; i < m->n; i++) {
		const struct region *r = &m->r[i];
		/* addr - base, and len against what is left, so no sum wraps. */
		if (addr >= r->base && addr - r->base <= r->len && len <= r->len - (addr - r->base)) {
			memcpy(buf, r->data + (addr - r->base), len);
			return 0;
		}
	}
	return -1;
}

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void layout(struct fakemem *m, const uint8_t *p, size_t n)
{
	m->n = 0;
	while (n >= 12 && m->n < MAX_REGIONS) {
		struct region *r = &m->r[m->n++];
		r->base = le(p, 8);
		r->len = (size_t)le(p + 8, 4);
		p += 12;
		n -= 12;
		if (r->len > n)
			r->len = n;
		r->data = p;
		p += r->len;
		n -= r->len;
	}
}

static void outputs(const struct acpi_info *info, unsigned size_sel)
{
	static const size_t caps[16] = { 0, 1, 2, 7, 16, 33, 64, 100, 128, 200,
					 256, 333, 512, 1024, 2048, 8192 };
	size_t cap = caps[size_sel & 15];
	char *buf = malloc(cap ? cap : 1);
	struct json j;
	int need;

	json_init(&j, buf, cap);
	json_object_begin(&j, NULL);
	write_acpi(put_acpi_body(&j), info);
	json_object_end(&j);
	if (!j.overflow && (j.len > cap || (cap && memchr(buf, 0, j.len))))
		abort(); /* a JSON text has no NUL and fits its buffer */
	need = acpi_summary(info, buf, cap);
	if (need < 0 || (cap && strlen(buf) >= cap))
		abort();
	if (cap && (size_t)need < cap && strlen(buf) != (size_t)need)
		abort(); /* it fitted, so all of it is there */
	free(buf);
}

static uint8_t *dup_region(const uint8_t *p, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);
	memcpy(c, p, n);
	return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct acpi_info info;
	struct fakemem mem;
	struct acpi_mem am = { fake_read, &mem };
	uint8_t mode;

	if (size < 1)
		return 0;
	mode = data[0];
	data++;
	size--;
	acpi_info_init(&info);

	if ((mode & 3) == 0) {
		/* Exactly `size` bytes on the heap, so ASan sees any overread. */
		uint8_t *t = dup_region(data, size);
		acpi_decode_table(t, size, (mode & 0x10) ? "fuzz.dat" : NULL, &info);
		if (mode & 4)
			acpi_decode_fadt(t, size, &info);
		if (mode & 8)
			acpi_decode_hpet(t, size, &info);
		(void)acpi_check_table(t, size, (mode & 0x20) ? "FACP" : NULL);
		{
			struct acpi_s5 s5;
			if (acpi_s5_scan(t, size, &s5) && (s5.slp_typ_a > 7 || s5.slp_typ_b > 7 || s5.offset >= size))
				abort();
		}
		free(t);
		outputs(&info, mode >> 4);
		return 0;
	}

	layout(&mem, data, size);
	/* A heap copy of each region: ASan then catches a read one byte past
	 * it, which the shared input buffer would hide. */
	for (int i = 0; i < mem.n; i++)
		mem.r[i].data = dup_region(mem.r[i].data, mem.r[i].len);
	if ((mode & 3) == 1 || (mode & 3) == 3)
		acpi_walk(&am, mem.n ? mem.r[0].base : 0, &info);
	if ((mode & 3) >= 2) {
		uint64_t rsdp = acpi_find_rsdp_bios(&am, &info);
		acpi_walk(&am, rsdp, &info);
	}
	if (info.nproblems > ACPI_MAX_PROBLEMS)
		abort();
	if (info.power.have_fadt) {
		struct acpi_s5 s5;
		if (acpi_s5_find(&am, &info.power, &s5) && (s5.slp_typ_a > 7 || s5.slp_typ_b > 7))
			abort();
	}
	outputs(&info, mode >> 4);
	for (int i = 0; i < mem.n; i++)
		free((void *)mem.r[i].data);
	return 0;
}
