/* SPDX-License-Identifier: BSD-2-Clause */
/* ACPI discovery: RSDP -> XSDT/RSDT -> FADT (PM timer), HPET and MADT (CPUs).
 * Freestanding: firmware tables are read through struct acpi_mem with bounded
 * sizes, checked (signature, length, checksum) before any field is believed,
 * and a bad table is reported and skipped so the walk always ends.  This file
 * finds and checks the tables; acpi/acpi_tables.c decodes the FADT and the
 * HPET table and writes the results out, acpi/acpi_madt.c the MADT. */
#include <stdarg.h>
#include "acpi/acpi.h"
#include "acpi/acpi_internal.h"
#include "lib/fmt.h"
#include "lib/util.h"

/* Table bytes kept for decoding.  The walk is single-threaded and decodes one
 * table at a time, so one buffer is enough; the image has no allocator. */
static uint8_t scratch[ACPI_SCRATCH];

void acpi_info_init(struct acpi_info *info)
{
	tp_memset(info, 0, sizeof *info);
	info->pm_none = "no FADT";
	info->hpet_none = "no table";
	info->madt.none = "no table";
}

void acpi_problem(struct acpi_info *info, const char *fmt, ...)
{
	va_list ap;

	if (info->nproblems >= ACPI_MAX_PROBLEMS) {
		info->problems_dropped++;
		return;
	}
	va_start(ap, fmt);
	tp_vsnprintf(info->problems[info->nproblems++], ACPI_PROBLEM_LEN, fmt, ap);
	va_end(ap);
}

/* ---- checking ------------------------------------------------------------- */

static const char R_TRUNCATED[] = "truncated header";
static const char R_NOT_TABLE[] = "no table (signature not printable)";
static const char R_SIGNATURE[] = "wrong signature";
static const char R_SHORT[] = "Length below the 36-byte header";
static const char R_LONG[] = "Length above 1 MiB";
static const char R_BEYOND[] = "Length beyond the bytes present";
static const char R_CHECKSUM[] = "bad checksum";
static const char R_UNREADABLE[] = "unreadable";
static const char R_ENTRIES[] = "too many entries";

bool acpi_printable_sig(const uint8_t *s)
{
	for (int i = 0; i < 4; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return false;
	return true;
}

/* Signature and Length of a 36-byte header. */
static const char *check_header(const uint8_t *h, const char *sig)
{
	uint32_t len = tp_le32(h + 4);

	if (!acpi_printable_sig(h))
		return R_NOT_TABLE;
	if (sig && tp_memcmp(h, sig, 4))
		return R_SIGNATURE;
	if (len < ACPI_HEADER_LEN)
		return R_SHORT;
	if (len > ACPI_TABLE_MAX)
		return R_LONG;
	return NULL;
}

static uint8_t sum8(const uint8_t *p, size_t n)
{
	uint8_t s = 0;
	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

const char *acpi_check_table(const uint8_t *t, size_t avail, const char *sig)
{
	const char *why;

	if (avail < ACPI_HEADER_LEN)
		return R_TRUNCATED;
	why = check_header(t, sig);
	if (why)
		return why;
	if (tp_le32(t + 4) > avail)
		return R_BEYOND;
	return sum8(t, tp_le32(t + 4)) ? R_CHECKSUM : NULL;
}

/* "<where>: <why>, ignored", with Length when the reason is about it. */
static void reject(struct acpi_info *out, const char *where, const char *why, const uint8_t *hdr)
{
	out->bad_tables++;
	if (hdr && (why == R_SHORT || why == R_LONG || why == R_BEYOND || why == R_ENTRIES))
		acpi_problem(out, "%s: %s (Length %u), ignored", where, why, tp_le32(hdr + 4));
	else
		acpi_problem(out, "%s: %s, ignored", where, why);
}

void acpi_copy_id(char *dst, const uint8_t *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = (char)((src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : (src[i] ? '?' : 0));
	dst[n] = 0;
	/* Firmware pads with spaces or NULs ("DELL\0\0"): keep the name only. */
	for (i = 0; i < n && dst[i]; i++)
		;
	dst[i] = 0;
	while (i && dst[i - 1] == ' ')
		dst[--i] = 0;
}

/* A rejected table: count it where it belongs. */
void acpi_rejected(const uint8_t *hdr, size_t avail, const char *where, const char *why,
		   struct acpi_info *out)
{
	reject(out, where, why, avail >= 8 ? hdr : NULL);
	if (avail >= 4 && !tp_memcmp(hdr, "HPET", 4)) {
		out->hpet_tables++;
		if (!out->have_hpet)
			out->hpet_none = "table damaged";
	} else if (avail >= 4 && !tp_memcmp(hdr, "FACP", 4) && !out->have_fadt) {
		out->pm_none = "FADT damaged";
	} else if (avail >= 4 && !tp_memcmp(hdr, "APIC", 4)) {
		out->madt.tables++;
		if (!out->madt.present)
			out->madt.none = "table damaged";
	}
}

/* ---- physical memory ------------------------------------------------------ */

static int rd(const struct acpi_mem *m, uint64_t addr, void *buf, size_t len)
{
	return m->read(m->ctx, addr, buf, len);
}

/* Byte sum of len bytes at addr, read in 256-byte pieces so that a table of
 * any allowed size is checked without holding it. */
static int mem_sum(const struct acpi_mem *m, uint64_t addr, uint32_t len, uint8_t *sum)
{
	uint8_t chunk[256];
	uint8_t s = 0;

	while (len) {
		uint32_t n = len < sizeof chunk ? len : (uint32_t)sizeof chunk;
		if (rd(m, addr, chunk, n))
			return -1;
		s = (uint8_t)(s + sum8(chunk, n));
		addr += n;
		len -= n;
	}
	*sum = s;
	return 0;
}

/* Header, Length and checksum of the table at addr; hdr gets its 36 bytes. */
static const char *check_mem_table(const struct acpi_mem *m, uint64_t addr, const char *sig,
				   uint8_t *hdr)
{
	const char *why;
	uint8_t s;

	if (rd(m, addr, hdr, ACPI_HEADER_LEN))
		return R_UNREADABLE;
	why = check_header(hdr, sig);
	if (why)
		return why;
	if (mem_sum(m, addr, tp_le32(hdr + 4), &s))
		return R_BEYOND;
	return s ? R_CHECKSUM : NULL;
}

/* One table listed by the root: only FACP, HPET and APIC are read past the header. */
static void visit(const struct acpi_mem *m, uint64_t addr, const char *list, unsigned i,
		  struct acpi_info *out)
{
	uint8_t hdr[ACPI_HEADER_LEN];
	char where[48];
	const char *why;
	uint32_t len;

	if (rd(m, addr, hdr, ACPI_HEADER_LEN)) {
		acpi_problem(out, "%s entry %u: table at 0x%llx unreadable", list, i,
			     (unsigned long long)addr);
		return;
	}
	if (tp_memcmp(hdr, "FACP", 4) && tp_memcmp(hdr, "HPET", 4) && tp_memcmp(hdr, "APIC", 4))
		return;
	tp_snprintf(where, sizeof where, "%s at 0x%llx",
		    hdr[0] == 'F' ? "FADT" : hdr[0] == 'H' ? "HPET table" : "MADT",
		    (unsigned long long)addr);
	why = check_mem_table(m, addr, NULL, hdr);
	if (why) {
		acpi_rejected(hdr, sizeof hdr, where, why, out);
		return;
	}
	len = tp_le32(hdr + 4);
	if (hdr[0] == 'A') {
		/* Walked in place: its entries are read a few bytes at a time. */
		acpi_madt_checked(m, addr, len, len, where, true, addr, out);
		return;
	}
	if (len > ACPI_SCRATCH)
		len = ACPI_SCRATCH; /* every field used lies in the first 220 bytes */
	if (rd(m, addr, scratch, len)) {
		acpi_rejected(hdr, sizeof hdr, where, R_UNREADABLE, out);
		return;
	}
	acpi_decode_checked(scratch, len, where, true, addr, out);
}

/* Check an RSDT (4-byte entries) or XSDT (8-byte) and visit what it lists.
 * Returns NULL when walked, else why it was refused (nothing visited). */
static const char *walk_root(const struct acpi_mem *m, uint64_t addr, unsigned esize,
			     struct acpi_info *out)
{
	const char *name = esize == 8 ? "XSDT" : "RSDT";
	uint8_t hdr[ACPI_HEADER_LEN];
	const char *why;
	uint32_t n, i;

	if (rd(m, addr, hdr, ACPI_HEADER_LEN))
		return R_UNREADABLE;
	why = check_header(hdr, name);
	if (why)
		return why;
	n = (tp_le32(hdr + 4) - ACPI_HEADER_LEN) / esize;
	if (n > ACPI_ROOT_MAX_ENTRIES)
		return R_ENTRIES;
	why = check_mem_table(m, addr, name, hdr);
	if (why)
		return why;
	if ((tp_le32(hdr + 4) - ACPI_HEADER_LEN) % esize)
		acpi_problem(out, "%s: Length %u is not 36 + %u x entries, tail ignored", name,
			     tp_le32(hdr + 4), esize);
	for (i = 0; i < n; i++) {
		uint8_t e[8];
		uint64_t p;
		if (rd(m, addr + ACPI_HEADER_LEN + (uint64_t)i * esize, e, esize)) {
			acpi_problem(out, "%s entry %u unreadable", name, i);
			continue;
		}
		p = esize == 8 ? tp_le64(e) : tp_le32(e);
		if (p)
			visit(m, p, name, i, out);
	}
	return NULL;
}

/* 2: a good RSDP; 1: good but for its extended checksum; 0: not an RSDP. */
static int rsdp_ok(const struct acpi_mem *m, uint64_t addr)
{
	uint8_t b[36];
	uint32_t len;

	if (rd(m, addr, b, 20) || tp_memcmp(b, "RSD PTR ", 8) || sum8(b, 20))
		return 0;
	if (b[15] < 2)
		return 2;
	if (rd(m, addr, b, 36))
		return 1;
	len = tp_le32(b + 20);
	if (len < 36 || len > ACPI_RSDP_MAX_LEN || rd(m, addr, scratch, len) || sum8(scratch, len))
		return 1;
	return 2;
}

static uint64_t scan(const struct acpi_mem *m, uint64_t base, uint32_t len, uint64_t *fallback,
		     struct acpi_info *info)
{
	for (uint32_t off = 0; off < len; off += 16) {
		uint8_t sig[8];
		int ok;
		if (rd(m, base + off, sig, 8) || tp_memcmp(sig, "RSD PTR ", 8))
			continue;
		ok = rsdp_ok(m, base + off);
		if (ok == 2)
			return base + off;
		if (ok == 1 && !*fallback)
			*fallback = base + off;
		if (ok == 0 && info)
			acpi_problem(info, "\"RSD PTR \" at 0x%llx with a bad checksum, skipped",
				     (unsigned long long)base + off);
	}
	return 0;
}

uint64_t acpi_find_rsdp_bios(const struct acpi_mem *m, struct acpi_info *info)
{
	uint8_t seg[2];
	uint64_t found = 0, fallback = 0;

	/* The BDA word at 0x40E holds the EBDA segment; below 0x400 or at the
	 * 640 KiB hole it is not one (some firmware leaves it 0). */
	if (!rd(m, 0x40e, seg, 2)) {
		uint64_t ebda = (uint64_t)tp_le16(seg) << 4;
		if (ebda >= 0x400 && ebda + 1024 <= 0xa0000)
			found = scan(m, ebda, 1024, &fallback, info);
	}
	if (!found)
		found = scan(m, 0xe0000, 0x20000, &fallback, info);
	/* acpi_walk() reports the bad extended checksum of a fallback. */
	return found ? found : fallback;
}

int acpi_walk(const struct acpi_mem *m, uint64_t rsdp, struct acpi_info *out)
{
	uint8_t b[36];
	uint64_t xsdt = 0, rsdt;
	const char *why;
	int ok;

	out->root = ACPI_ROOT_NONE;
	if (!rsdp) {
		acpi_problem(out, "no RSDP found");
		return -1;
	}
	ok = rsdp_ok(m, rsdp);
	if (!ok || rd(m, rsdp, b, 20)) {
		acpi_problem(out, "RSDP at 0x%llx: not a valid RSDP", (unsigned long long)rsdp);
		return -1;
	}
	out->have_rsdp = true;
	out->rsdp_address = rsdp;
	out->rsdp_revision = b[15];
	acpi_copy_id(out->rsdp_oem, b + 9, 6);
	rsdt = tp_le32(b + 16);
	if (b[15] >= 2 && ok == 1)
		acpi_problem(out, "RSDP at 0x%llx: bad extended checksum, XSDT not trusted",
			     (unsigned long long)rsdp);
	else if (b[15] >= 2 && !rd(m, rsdp, b, 36))
		xsdt = tp_le64(b + 24);

	if (xsdt) {
		why = walk_root(m, xsdt, 8, out);
		if (!why) {
			out->root = ACPI_ROOT_XSDT;
			out->root_address = xsdt;
			return 0;
		}
		out->bad_tables++;
		acpi_problem(out, "XSDT at 0x%llx: %s, using the RSDT", (unsigned long long)xsdt, why);
	}
	if (rsdt) {
		why = walk_root(m, rsdt, 4, out);
		if (!why) {
			out->root = ACPI_ROOT_RSDT;
			out->root_address = rsdt;
			return 0;
		}
		out->bad_tables++;
		acpi_problem(out, "RSDT at 0x%llx: %s, no tables read", (unsigned long long)rsdt, why);
	} else {
		acpi_problem(out, "RSDP at 0x%llx: no RSDT address", (unsigned long long)rsdp);
	}
	if (!out->have_fadt)
		out->pm_none = "no usable RSDT or XSDT";
	if (!out->have_hpet)
		out->hpet_none = "no usable RSDT or XSDT";
	if (!out->madt.present)
		out->madt.none = "no usable RSDT or XSDT";
	return -1;
}
