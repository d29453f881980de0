/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: the MADT decoder (acpi/acpi_madt.c) on hostile entries.
 *
 * Input: one mode byte, one repeat byte, then a MADT (header and entries).
 *   mode bit 0: set the header's Length to the input's size
 *   mode bit 1: fix the checksum, so the entry walk is reached without the
 *               fuzzer having to find a byte sum of 0
 *   mode bit 2: decode it a second time into the same info (the two-MADT path)
 *   mode bit 3: also walk it in place from an RSDP and RSDT in a fake memory
 *   mode bits 4..7: the size of the output buffers (small ones truncate)
 *   repeat: the entries from offset 44 are laid out 1 + (repeat & 0x7f) times
 *           over, so an input of 1 KiB can list more CPUs than the list
 *           holds; with bit 7 set every type 0 and 9 entry found by walking
 *           the lengths then gets the next APIC ID, so the copies do not
 *           merely repeat IDs (which the decoder flags and drops).
 * Invariants on the result are checked after each decode. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "acpi/acpi.h"
#include "lib/json.h"
#include "probe/records_run.h"

#define MAX_TABLE (64 * 1024)

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void renumber(uint8_t *t, size_t len)
{
	uint32_t next = 0;

	for (size_t off = 44; off + 2 <= len && t[off + 1] >= 2 && t[off + 1] <= len - off; off += t[off + 1]) {
		if (t[off] == 0 && t[off + 1] >= 4)
			t[off + 3] = (uint8_t)(next++ % 0xff);
		else if (t[off] == 9 && t[off + 1] >= 8)
			put32(t + off + 4, next++);
	}
}

static void invariants(const struct acpi_info *info)
{
	const struct acpi_madt *d = &info->madt;
	unsigned usable = 0;

	if (info->nproblems > ACPI_MAX_PROBLEMS || d->ncpus > MADT_MAX_CPUS ||
	    d->nioapics > MADT_MAX_IOAPICS || d->undefined_kinds > MADT_MAX_UNDEFINED)
		abort();
	if (!d->present)
		return;
	if (d->enabled + d->online_capable + d->disabled >
	    d->count[MADT_LOCAL_APIC] + d->count[MADT_LOCAL_X2APIC])
		abort(); /* every processor entry is counted once */
	if (d->ncpus + d->cpus_dropped + d->duplicates + d->broadcast > d->enabled + d->online_capable)
		abort();
	for (unsigned i = 0; i < d->ncpus; i++) {
		const struct madt_cpu *c = &d->cpus[i];
		if (c->enabled == c->online_capable)
			abort(); /* a listed CPU is one or the other */
		usable += c->enabled;
		if (!c->x2apic && c->apic_id > 0xfe)
			abort();
	}
	if (usable > d->enabled || d->x2apic_enabled > d->enabled)
		abort();
}

static void outputs(const struct acpi_info *info, unsigned size_sel)
{
	static const size_t caps[16] = { 0, 1, 2, 7, 16, 33, 64, 100, 128, 200,
					 256, 333, 512, 1024, 4096, 32768 };
	size_t cap = caps[size_sel & 15];
	char *buf = malloc(cap ? cap : 1);
	struct json j;
	int need;

	json_init(&j, buf, cap);
	json_object_begin(&j, NULL);
	write_acpi(put_acpi_body(&j), info);
	json_array_begin(&j, "cpus");
	for (unsigned i = 0; i < info->madt.ncpus; i++) {
		const struct madt_cpu *c = &info->madt.cpus[i];
		json_object_begin(&j, NULL);
		json_u64(&j, "apic_id", c->apic_id);
		json_u64(&j, "uid", c->uid);
		json_bool(&j, "enabled", c->enabled);
		json_bool(&j, "online_capable", c->online_capable);
		json_bool(&j, "x2apic", c->x2apic);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	if (!j.overflow && (j.len > cap || (cap && memchr(buf, 0, j.len))))
		abort();
	need = acpi_summary(info, buf, cap);
	if (need < 0 || (cap && strlen(buf) >= cap) || (cap && (size_t)need < cap && strlen(buf) != (size_t)need))
		abort();
	free(buf);
}

struct region {
	uint64_t base;
	const uint8_t *data;
	size_t len;
};

static int fake_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	const struct region *r = ctx;

	for (; r->data; r++)
		if (addr >= r->base && addr - r->base <= r->len && len <= r->len - (addr - r->base)) {
			memcpy(buf, r->data + (addr - r->base), len);
			return 0;
		}
	return -1;
}

static void walk(const uint8_t *t, size_t len, struct acpi_info *info)
{
	uint8_t rsdp[20] = "RSD PTR ", *rsdt = calloc(1, 40);
	struct region r[4] = { { 0xe0000, rsdp, 20 }, { 0x1000, rsdt, 40 }, { 0x100000, t, len }, { 0, NULL, 0 } };
	struct acpi_mem m = { fake_read, r };
	uint8_t s = 0;

	put32(rsdp + 16, 0x1000);
	for (int i = 0; i < 20; i++)
		s = (uint8_t)(s + rsdp[i]);
	rsdp[8] = (uint8_t)-s;
	memcpy(rsdt, "RSDT", 4);
	put32(rsdt + 4, 40);
	put32(rsdt + 36, 0x100000);
	s = 0;
	for (int i = 0; i < 40; i++)
		s = (uint8_t)(s + rsdt[i]);
	rsdt[9] = (uint8_t)-s;
	acpi_info_init(info);
	acpi_walk(&m, 0xe0000, info);
	free(rsdt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct acpi_info *info = malloc(sizeof *info);
	uint8_t mode, repeat, *t;
	size_t len, body;

	if (size < 2 || !info) {
		free(info);
		return 0;
	}
	mode = data[0];
	repeat = data[1];
	data += 2;
	size -= 2;
	body = size > 44 ? size - 44 : 0;
	len = size + body * (repeat & 0x7f);
	if (len > MAX_TABLE) {
		len = size;
		body = 0;
	}
	/* Exactly len bytes on the heap, so ASan sees any read past the table. */
	t = malloc(len ? len : 1);
	memcpy(t, data, size);
	for (size_t off = size; body && off + body <= len; off += body)
		memcpy(t + off, data + 44, body);
	if (repeat & 0x80)
		renumber(t, len);
	if (len >= 8 && (mode & 1))
		put32(t + 4, (uint32_t)len);
	if (len >= 10 && (mode & 2)) {
		/* Over the header's Length, as the checker sums it. */
		size_t n = (size_t)t[4] | (size_t)t[5] << 8 | (size_t)t[6] << 16 | (size_t)t[7] << 24;
		uint8_t s = 0;
		t[9] = 0;
		for (size_t i = 0; i < len && i < n; i++)
			s = (uint8_t)(s + t[i]);
		t[9] = (uint8_t)-s;
	}
	acpi_info_init(info);
	acpi_decode_madt(t, len, info);
	invariants(info);
	if (mode & 4) {
		acpi_decode_table(t, len, "second.dat", info);
		invariants(info);
	}
	outputs(info, mode >> 4);
	if (mode & 8) {
		walk(t, len, info);
		invariants(info);
		outputs(info, mode >> 4);
	}
	free(t);
	free(info);
	return 0;
}
