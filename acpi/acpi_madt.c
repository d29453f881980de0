/* SPDX-License-Identifier: BSD-2-Clause */
/* The MADT decoder: header fields, then the entries from offset 44, each
 * walked by its own length byte.  The table is read through struct acpi_mem,
 * a few bytes at a time, so a MADT of any allowed size is walked in place in
 * the image (no copy: a 300-CPU x2APIC table is 4.8 KiB) and a file is walked
 * through the same code over its buffer.  Freestanding, like acpi/acpi.c. */
#include <stdarg.h>
#include "acpi/acpi.h"
#include "acpi/acpi_internal.h"
#include "lib/crc32.h"
#include "lib/fmt.h"
#include "lib/util.h"

/* Offsets (ACPI 6.5 table 5.19). */
#define MADT_LAPIC_ADDRESS 36
#define MADT_FLAGS 40
#define MADT_ENTRIES 44
#define FLAG_PCAT_COMPAT 1u
#define CPU_ENABLED 1u
#define CPU_ONLINE_CAPABLE 2u
#define ENTRY_READ_MAX 16 /* the longest entry whose fields are read: type 9 */
#define LOCAL_SAPIC_MIN 17 /* type 7 ends in a NUL-terminated UID string */

/* Each x86 entry type's length (ACPI 6.5 5.2.12.2-5.2.12.13); 0: variable. */
static const uint8_t spec_len[MADT_X86_TYPES] = { 8, 12, 10, 8, 6, 12, 16, 0, 16, 16, 12 };

struct walk {
	const struct acpi_mem *m;
	uint64_t base;
	uint32_t len;
	struct acpi_madt *d;    /* NULL: only the fingerprint is wanted */
	struct acpi_info *out;
	const char *where;
	uint64_t lapic;
	uint32_t crc;
	uint8_t seen[32];       /* enabled APIC IDs below 256 */
};

static void problem(struct walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct walk *w, const char *fmt, ...)
{
	char msg[ACPI_PROBLEM_LEN];
	va_list ap;

	va_start(ap, fmt);
	tp_vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	w->d->problems++;
	acpi_problem(w->out, "%s: %s", w->where, msg);
}

static int rd(const struct walk *w, uint32_t off, void *buf, size_t n)
{
	return w->m->read(w->m->ctx, w->base + off, buf, n);
}

/* Enabled IDs seen so far: a bitmap below 256, the list above (an x2APIC
 * ID of 256 or more that did not fit in the list is not compared). */
static bool seen_before(struct walk *w, uint32_t id)
{
	if (id < 256) {
		bool was = (w->seen[id >> 3] >> (id & 7)) & 1;
		w->seen[id >> 3] |= (uint8_t)(1u << (id & 7));
		return was;
	}
	for (unsigned k = 0; k < w->d->ncpus; k++)
		if (w->d->cpus[k].enabled && w->d->cpus[k].apic_id == id)
			return true;
	return false;
}

static void list_cpu(struct acpi_madt *d, const struct madt_cpu *c)
{
	if (d->ncpus < MADT_MAX_CPUS) {
		d->cpus[d->ncpus++] = *c;
		return;
	}
	d->cpus_dropped++;
	if (!c->enabled)
		return;
	/* Full: the last online-capable entry gives way, order kept. */
	for (unsigned k = d->ncpus; k-- > 0;)
		if (!d->cpus[k].enabled) {
			for (; k + 1 < d->ncpus; k++)
				d->cpus[k] = d->cpus[k + 1];
			d->cpus[d->ncpus - 1] = *c;
			return;
		}
}

static void processor(struct walk *w, unsigned i, uint32_t id, uint32_t uid, uint32_t flags, bool x2)
{
	struct madt_cpu c = { id, uid, (flags & CPU_ENABLED) != 0, false, x2 };
	struct acpi_madt *d = w->d;
	uint32_t broadcast = x2 ? 0xffffffffu : 0xffu;

	c.online_capable = !c.enabled && (flags & CPU_ONLINE_CAPABLE);
	if (c.enabled || c.online_capable) {
		uint8_t key[6] = { x2, c.enabled, (uint8_t)id, (uint8_t)(id >> 8), (uint8_t)(id >> 16),
				   (uint8_t)(id >> 24) };
		w->crc = crc32_update(w->crc, key, sizeof key);
	}
	if (!d)
		return;
	if (c.enabled) {
		d->enabled++;
		d->x2apic_enabled += x2;
	} else if (c.online_capable) {
		d->online_capable++;
	} else {
		d->disabled++;
		return;
	}
	if (id == broadcast) {
		d->broadcast += c.enabled;
		problem(w, "entry %u: %s CPU with APIC ID 0x%x, the broadcast ID; not listed", i,
			c.enabled ? "enabled" : "online-capable", id);
		return;
	}
	if (c.enabled && seen_before(w, id)) {
		d->duplicates++;
		problem(w, "entry %u: APIC ID %u enabled again; not listed", i, id);
		return;
	}
	list_cpu(d, &c);
}

static void io_apic(struct walk *w, const uint8_t *e)
{
	struct acpi_madt *d = w->d;

	if (d && d->nioapics < MADT_MAX_IOAPICS)
		d->ioapics[d->nioapics++] = (struct madt_ioapic){ e[2], tp_le32(e + 4), tp_le32(e + 8) };
}

static void lapic_override(struct walk *w, unsigned i, uint64_t a)
{
	struct acpi_madt *d = w->d;

	if (!a) {
		if (d)
			problem(w, "entry %u: Local APIC Address Override of 0; ignored", i);
		return;
	}
	if (d && d->lapic_override) {
		if (a != d->lapic_address)
			problem(w, "entry %u: a second Local APIC Address Override (0x%llx); ignored", i,
				(unsigned long long)a);
		return;
	}
	if (d) {
		d->lapic_override = true;
		d->lapic_address = a;
	}
	w->lapic = a;
}

static void count_type(struct acpi_madt *d, uint8_t type)
{
	unsigned k;

	if (type < MADT_X86_TYPES) {
		d->count[type]++;
		return;
	}
	if (type < MADT_DEFINED_TYPES) {
		d->other_defined++;
		return;
	}
	d->undefined++;
	for (k = 0; k < d->undefined_kinds && d->undefined_type[k] != type; k++)
		;
	if (k == d->undefined_kinds && k < MADT_MAX_UNDEFINED)
		d->undefined_type[d->undefined_kinds++] = type;
	if (k < d->undefined_kinds)
		d->undefined_count[k]++;
}

static bool length_ok(uint8_t type, uint8_t elen)
{
	if (type == MADT_LOCAL_SAPIC)
		return elen >= LOCAL_SAPIC_MIN;
	return type >= MADT_X86_TYPES || elen == spec_len[type];
}

static void entry(struct walk *w, unsigned i, const uint8_t *e)
{
	switch (e[0]) {
	case MADT_LOCAL_APIC:
		processor(w, i, e[3], e[2], tp_le32(e + 4), false);
		break;
	case MADT_LOCAL_X2APIC:
		processor(w, i, tp_le32(e + 4), tp_le32(e + 12), tp_le32(e + 8), true);
		break;
	case MADT_IO_APIC:
		io_apic(w, e);
		break;
	case MADT_LAPIC_OVERRIDE:
		lapic_override(w, i, tp_le64(e + 4));
		break;
	default: /* counted only */
		break;
	}
}

/* Every entry, each checked against the table's end and its type's length.
 * With w->d NULL only w->crc is computed, and nothing is reported. */
static void walk_entries(struct walk *w)
{
	struct acpi_madt *d = w->d;
	uint32_t off = MADT_ENTRIES;
	unsigned i;

	for (i = 0; off < w->len; i++) {
		uint8_t e[ENTRY_READ_MAX];
		uint32_t left = w->len - off;

		if (left < 2 || rd(w, off, e, 2)) {
			if (d)
				problem(w, left < 2 ? "%u trailing byte after the last entry" :
					"entry %u unreadable", left < 2 ? left : i);
			break;
		}
		if (e[1] < 2 || e[1] > left) {
			if (d)
				problem(w, "entry %u (type %u) at offset %u: length %u %s; walk stopped", i,
					e[0], off, e[1], e[1] < 2 ? "below 2" : "runs past the table end");
			break;
		}
		if (d)
			count_type(d, e[0]);
		if (!length_ok(e[0], e[1])) {
			if (d)
				problem(w, "entry %u (type %u) at offset %u: length %u, not the spec's %u; skipped",
					i, e[0], off, e[1], spec_len[e[0]] ? spec_len[e[0]] : LOCAL_SAPIC_MIN);
		} else if (rd(w, off, e, e[1] < ENTRY_READ_MAX ? e[1] : ENTRY_READ_MAX)) {
			if (d)
				problem(w, "entry %u unreadable", i);
			break;
		} else {
			entry(w, i, e);
		}
		off += e[1];
	}
	if (d)
		d->entries = i;
	uint8_t a[8];
	for (int k = 0; k < 8; k++)
		a[k] = (uint8_t)(w->lapic >> (8 * k));
	w->crc = crc32_update(w->crc, a, sizeof a);
}

int acpi_madt_checked(const struct acpi_mem *m, uint64_t base, uint32_t length, size_t present,
		      const char *where, bool addr_known, uint64_t addr, struct acpi_info *out)
{
	struct acpi_madt *d = &out->madt;
	struct walk w = { m, base, length, NULL, out, where, 0, 0, { 0 } };
	uint8_t h[MADT_ENTRIES];

	d->tables++;
	if (length < MADT_ENTRIES || rd(&w, 0, h, sizeof h)) {
		out->bad_tables++;
		acpi_problem(out, "%s: Length %u too short for the Local APIC Address and Flags, ignored",
			     where, length);
		if (!d->present)
			d->none = "table damaged";
		return ACPI_BAD;
	}
	w.lapic = tp_le32(h + MADT_LAPIC_ADDRESS);
	if (d->present) {
		/* Two MADTs: Apple's pair differ only in revision, fwts's ThinkPad
		 * pair in I/O APIC ID and override flags.  Only other CPUs or
		 * another local APIC address are worth a word. */
		walk_entries(&w);
		if (w.crc != d->fingerprint) {
			d->problems++;
			acpi_problem(out, "%s: a second MADT with other CPUs or local APIC address, not used",
				     where);
		}
		return ACPI_USED;
	}
	d->present = true;
	d->none = NULL;
	d->address_known = addr_known;
	d->address = addr;
	d->revision = h[8];
	d->length = length;
	acpi_copy_id(d->oem, h + 10, 6);
	acpi_copy_id(d->oem_table, h + 16, 8);
	d->lapic_address32 = tp_le32(h + MADT_LAPIC_ADDRESS);
	d->lapic_address = d->lapic_address32;
	d->flags = tp_le32(h + MADT_FLAGS);
	d->pcat_compat = (d->flags & FLAG_PCAT_COMPAT) != 0;
	w.d = d;
	if (present > length)
		problem(&w, "%llu bytes past its Length %u; ignored",
			(unsigned long long)(present - length), length);
	walk_entries(&w);
	d->fingerprint = w.crc;
	if (d->cpus_dropped)
		problem(&w, "%u usable CPU entries past the %u listed (enabled ones kept first)",
			d->cpus_dropped, MADT_MAX_CPUS);
	if (!d->enabled)
		problem(&w, "no enabled CPU");
	return ACPI_USED;
}

/* ---- a table in a buffer -------------------------------------------------- */

struct buffer {
	const uint8_t *p;
	size_t len;
};

static int buffer_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	const struct buffer *b = ctx;

	if (addr > b->len || len > b->len - addr)
		return -1;
	tp_memcpy(buf, b->p + addr, len);
	return 0;
}

int acpi_madt_buffer(const uint8_t *t, size_t present, const char *where, bool addr_known,
		     uint64_t addr, struct acpi_info *out)
{
	struct buffer b = { t, present };
	struct acpi_mem m = { buffer_read, &b };
	uint32_t length = present >= 8 ? tp_le32(t + 4) : 0;

	if (length > present)
		length = (uint32_t)present; /* checked tables never get here */
	return acpi_madt_checked(&m, 0, length, present, where, addr_known, addr, out);
}

/* ---- output --------------------------------------------------------------- */

int acpi_madt_summary(const struct acpi_madt *d, char *buf, size_t cap)
{
	unsigned io = d->count[MADT_IO_APIC];
	char x2[24] = "", oc[32] = "", more[32] = "";

	if (!d->present)
		return tp_snprintf(buf, cap, "MADT: none (%s)\n", d->none ? d->none : "unknown");
	/* Short: the probe's screen shows it with the other ACPI lines in 256 bytes. */
	if (d->x2apic_enabled)
		tp_snprintf(x2, sizeof x2, " (%u x2APIC)", d->x2apic_enabled);
	if (d->online_capable)
		tp_snprintf(oc, sizeof oc, " + %u online-capable", d->online_capable);
	if (d->tables > 1)
		tp_snprintf(more, sizeof more, ", first of %u MADTs", d->tables);
	return tp_snprintf(buf, cap, "MADT: %u CPU%s%s%s, %u I/O APIC%s, local APIC 0x%llx%s\n",
			   d->enabled, d->enabled == 1 ? "" : "s", x2, oc, io, io == 1 ? "" : "s",
			   (unsigned long long)d->lapic_address, more);
}
