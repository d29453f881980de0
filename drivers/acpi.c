/* ACPI discovery: RSDP -> XSDT/RSDT -> FADT (PM timer) and HPET.
 * Freestanding: firmware tables are read through struct acpi_mem with bounded
 * sizes, checked (signature, length, checksum) before any field is believed,
 * and a bad table is reported and skipped so the walk always ends. */
#include <stdarg.h>
#include "drivers/acpi.h"
#include "probe/fmt.h"
#include "probe/json.h"
#include "probe/util.h"

/* FADT offsets (ACPI 6.5 table 5.9). Revision 1 ends after Flags at 116. */
#define FADT_PM_TMR_BLK 76
#define FADT_FLAGS 112
#define FADT_MIN_LEN 116
#define FADT_X_PM_TMR_BLK 208 /* a 12-byte Generic Address Structure */
#define FADT_X_END (FADT_X_PM_TMR_BLK + 12)
#define FLAG_TMR_VAL_EXT (1u << 8)
#define FLAG_HW_REDUCED (1u << 20)

/* HPET table (IA-PC HPET spec 1.0a, table 3). */
#define HPET_BLOCK_ID 36
#define HPET_BASE 40 /* GAS: space id, width, offset, access size, address */
#define HPET_MIN_LEN 52

#define GAS_MEMORY 0
#define GAS_IO 1

/* Table bytes kept for decoding.  The walk is single-threaded and decodes one
 * table at a time, so one buffer is enough; the image has no allocator. */
static uint8_t scratch[ACPI_SCRATCH];

void acpi_info_init(struct acpi_info *info)
{
	tp_memset(info, 0, sizeof *info);
	info->pm_none = "no FADT";
	info->hpet_none = "no table";
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

static bool printable_sig(const uint8_t *s)
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

	if (!printable_sig(h))
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

static void copy_id(char *dst, const uint8_t *src, size_t n)
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

/* ---- single tables -------------------------------------------------------- */

/* A checked FADT; `len` bytes of it are present (at least FADT_MIN_LEN). */
static int fadt_body(const uint8_t *t, size_t len, bool addr_known, uint64_t addr,
		     struct acpi_info *out)
{
	uint32_t flags = tp_le32(t + FADT_FLAGS);
	uint32_t legacy = tp_le32(t + FADT_PM_TMR_BLK);
	uint8_t xspace = 0;
	uint64_t xaddr = 0;

	out->have_fadt = true;
	out->fadt_address_known = addr_known;
	out->fadt_address = addr;
	out->fadt_revision = t[8];
	out->fadt_length = tp_le32(t + 4);
	out->fadt_flags = flags;
	out->hw_reduced = (flags & FLAG_HW_REDUCED) != 0;
	copy_id(out->fadt_oem, t + 10, 6);
	copy_id(out->fadt_oem_table, t + 16, 8);
	out->pm_space = ACPI_SPACE_NONE;
	/* TMR_VAL_EXT alone gives the counter width: the GAS bit width says 32 on
	 * nearly every machine whose timer is 24-bit, and 8 on one VIA board. */
	out->pm_bits = (flags & FLAG_TMR_VAL_EXT) ? 32 : 24;

	/* The X field exists only when the table reaches it: revision 2 FADTs of
	 * 129 and 132 bytes, and revision 1 ones, stop short. */
	if (len >= FADT_X_END && out->fadt_length >= FADT_X_END) {
		xspace = t[FADT_X_PM_TMR_BLK];
		xaddr = tp_le64(t + FADT_X_PM_TMR_BLK + 4);
	}

	if (out->hw_reduced) {
		/* Hardware-reduced platforms have no PM timer even when a legacy
		 * field is left filled in: 7 of 654 real FADTs set the flag, and
		 * 4 of those still say PM_TMR_BLK 0x408. */
		out->pm_none = "HW_REDUCED_ACPI";
		if (legacy)
			acpi_problem(out, "FADT: HW_REDUCED_ACPI set, legacy PM_TMR_BLK 0x%x ignored", legacy);
		if (xaddr)
			acpi_problem(out, "FADT: HW_REDUCED_ACPI set, X_PM_TMR_BLK 0x%llx ignored",
				     (unsigned long long)xaddr);
		return ACPI_USED;
	}

	if (xaddr) {
		if (xspace == GAS_IO && xaddr <= 0xffff) {
			out->pm_space = ACPI_SPACE_IO;
			out->pm_address = xaddr;
		} else if (xspace == GAS_IO) {
			acpi_problem(out, "FADT: X_PM_TMR_BLK I/O port 0x%llx above 0xffff, ignored",
				     (unsigned long long)xaddr);
		} else if (xspace == GAS_MEMORY) {
			out->pm_space = ACPI_SPACE_MMIO;
			out->pm_address = xaddr;
		} else {
			acpi_problem(out, "FADT: X_PM_TMR_BLK in address space %u, ignored", xspace);
		}
		if (out->pm_space == ACPI_SPACE_IO && legacy && legacy != xaddr)
			acpi_problem(out, "FADT: X_PM_TMR_BLK 0x%llx and PM_TMR_BLK 0x%x differ, X used",
				     (unsigned long long)xaddr, legacy);
	}
	if (out->pm_space == ACPI_SPACE_NONE && legacy) {
		if (legacy <= 0xffff) {
			out->pm_space = ACPI_SPACE_IO;
			out->pm_address = legacy;
		} else {
			acpi_problem(out, "FADT: PM_TMR_BLK 0x%x is not an I/O port, ignored", legacy);
		}
	}
	if (out->pm_space == ACPI_SPACE_NONE)
		out->pm_none = "FADT gives no PM timer block";
	return ACPI_USED;
}

static int hpet_body(const uint8_t *t, size_t len, const char *where, struct acpi_info *out)
{
	uint8_t space = t[HPET_BASE];
	uint64_t base = tp_le64(t + HPET_BASE + 4);
	uint32_t id = tp_le32(t + HPET_BLOCK_ID);

	(void)len; /* HPET_MIN_LEN was checked by the caller */
	if (space != GAS_MEMORY || !base) {
		out->bad_tables++;
		if (space != GAS_MEMORY)
			acpi_problem(out, "%s: base in address space %u, not memory, ignored", where, space);
		else
			acpi_problem(out, "%s: base address 0, ignored", where);
		if (!out->have_hpet)
			out->hpet_none = "table invalid";
		return ACPI_BAD;
	}
	if (out->have_hpet) {
		/* Dell ships two tables for one block (0xfed00000 both times);
		 * only a second block elsewhere is worth a word. */
		if (base != out->hpet_address)
			acpi_problem(out, "%s: a second HPET at 0x%llx, not used",
				     where, (unsigned long long)base);
		return ACPI_USED;
	}
	out->have_hpet = true;
	out->hpet_address = base;
	out->hpet_block_id = id;
	out->hpet_vendor = (uint16_t)(id >> 16);
	if (out->hpet_vendor == 0 || out->hpet_vendor == 0xffff)
		acpi_problem(out, "HPET: block id 0x%08x names no PCI vendor, base still used", id);
	return ACPI_USED;
}

/* A table whose header and checksum are good and of which `len` bytes are at t. */
static int decode_checked(const uint8_t *t, size_t len, const char *where,
			  bool addr_known, uint64_t addr, struct acpi_info *out)
{
	if (!tp_memcmp(t, "FACP", 4)) {
		if (out->have_fadt) {
			acpi_problem(out, "%s: a second FADT, ignored (the first is used)", where);
			return ACPI_USED;
		}
		if (tp_le32(t + 4) < FADT_MIN_LEN || len < FADT_MIN_LEN) {
			out->bad_tables++;
			acpi_problem(out, "%s: Length %u too short for PM_TMR_BLK and Flags, ignored",
				     where, tp_le32(t + 4));
			out->pm_none = "FADT damaged";
			return ACPI_BAD;
		}
		return fadt_body(t, len, addr_known, addr, out);
	}
	if (!tp_memcmp(t, "HPET", 4)) {
		out->hpet_tables++;
		if (tp_le32(t + 4) < HPET_MIN_LEN || len < HPET_MIN_LEN) {
			out->bad_tables++;
			acpi_problem(out, "%s: Length %u too short for the base address, ignored",
				     where, tp_le32(t + 4));
			if (!out->have_hpet)
				out->hpet_none = "table damaged";
			return ACPI_BAD;
		}
		return hpet_body(t, len, where, out);
	}
	return ACPI_OTHER;
}

/* A rejected table: count it where it belongs. */
static void rejected(const uint8_t *hdr, size_t avail, const char *where, const char *why,
		     struct acpi_info *out)
{
	reject(out, where, why, avail >= 8 ? hdr : NULL);
	if (avail >= 4 && !tp_memcmp(hdr, "HPET", 4)) {
		out->hpet_tables++;
		if (!out->have_hpet)
			out->hpet_none = "table damaged";
	} else if (avail >= 4 && !tp_memcmp(hdr, "FACP", 4) && !out->have_fadt) {
		out->pm_none = "FADT damaged";
	}
}

static int decode_raw(const uint8_t *t, size_t len, const char *sig, const char *where,
		      struct acpi_info *out)
{
	const char *why = acpi_check_table(t, len, sig);
	char label[24];

	if (!where) {
		const uint8_t *s = len >= 4 ? t : (const uint8_t *)"????";
		if (!tp_memcmp(s, "FACP", 4))
			where = "FADT";
		else if (!tp_memcmp(s, "HPET", 4))
			where = "HPET table";
		else {
			tp_snprintf(label, sizeof label, "table '%.4s'",
				    printable_sig(s) ? (const char *)s : "????");
			where = label;
		}
	}
	if (why) {
		rejected(t, len, where, why, out);
		return ACPI_BAD;
	}
	return decode_checked(t, tp_le32(t + 4), where, false, 0, out);
}

int acpi_decode_fadt(const uint8_t *t, size_t len, struct acpi_info *out)
{
	return decode_raw(t, len, "FACP", NULL, out);
}

int acpi_decode_hpet(const uint8_t *t, size_t len, struct acpi_info *out)
{
	return decode_raw(t, len, "HPET", NULL, out);
}

int acpi_decode_table(const uint8_t *t, size_t len, const char *where, struct acpi_info *out)
{
	return decode_raw(t, len, NULL, where, out);
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

/* One table listed by the root: only FACP and HPET are read past the header. */
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
	if (tp_memcmp(hdr, "FACP", 4) && tp_memcmp(hdr, "HPET", 4))
		return;
	tp_snprintf(where, sizeof where, "%s at 0x%llx", hdr[0] == 'F' ? "FADT" : "HPET table",
		    (unsigned long long)addr);
	why = check_mem_table(m, addr, NULL, hdr);
	if (why) {
		rejected(hdr, sizeof hdr, where, why, out);
		return;
	}
	len = tp_le32(hdr + 4);
	if (len > ACPI_SCRATCH)
		len = ACPI_SCRATCH; /* every field used lies in the first 220 bytes */
	if (rd(m, addr, scratch, len)) {
		rejected(hdr, sizeof hdr, where, R_UNREADABLE, out);
		return;
	}
	decode_checked(scratch, len, where, true, addr, out);
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
	copy_id(out->rsdp_oem, b + 9, 6);
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
	return -1;
}

/* ---- output --------------------------------------------------------------- */

void acpi_json(const struct acpi_info *info, struct json *j)
{
	unsigned i;

	if (info->have_rsdp) {
		json_object_begin(j, "rsdp");
		json_u64(j, "address", info->rsdp_address);
		json_u64(j, "revision", info->rsdp_revision);
		json_str(j, "oem_id", info->rsdp_oem);
		json_object_end(j);
	} else {
		json_null(j, "rsdp");
	}
	json_str(j, "root", info->root == ACPI_ROOT_XSDT ? "xsdt" :
		 info->root == ACPI_ROOT_RSDT ? "rsdt" : NULL);
	if (info->have_fadt) {
		json_object_begin(j, "fadt");
		if (info->fadt_address_known)
			json_u64(j, "address", info->fadt_address);
		else
			json_null(j, "address");
		json_u64(j, "revision", info->fadt_revision);
		json_u64(j, "length", info->fadt_length);
		json_str(j, "oem_id", info->fadt_oem);
		json_str(j, "oem_table_id", info->fadt_oem_table);
		json_bool(j, "hw_reduced", info->hw_reduced);
		json_object_end(j);
	} else {
		json_null(j, "fadt");
	}
	if (info->pm_space != ACPI_SPACE_NONE) {
		json_object_begin(j, "pm_timer");
		json_str(j, "space", info->pm_space == ACPI_SPACE_IO ? "io" : "mmio");
		json_u64(j, "address", info->pm_address);
		json_u64(j, "bits", info->pm_bits);
		json_object_end(j);
	} else {
		json_null(j, "pm_timer");
	}
	if (info->have_hpet) {
		json_object_begin(j, "hpet");
		json_u64(j, "address", info->hpet_address);
		json_u64(j, "block_id", info->hpet_block_id);
		json_u64(j, "vendor", info->hpet_vendor);
		json_u64(j, "tables", info->hpet_tables);
		json_object_end(j);
	} else {
		json_null(j, "hpet");
	}
	json_array_begin(j, "problems");
	for (i = 0; i < info->nproblems; i++)
		json_str(j, NULL, info->problems[i]);
	if (info->problems_dropped) {
		char more[48];
		tp_snprintf(more, sizeof more, "%u more problems not kept", info->problems_dropped);
		json_str(j, NULL, more);
	}
	json_array_end(j);
}

int acpi_summary(const struct acpi_info *info, char *buf, size_t cap)
{
	size_t n = 0;
	int w;

#define PUT(...)                                                              \
	do {                                                                  \
		w = tp_snprintf(buf + (n < cap ? n : cap), n < cap ? cap - n : 0, \
				__VA_ARGS__);                                 \
		n += (size_t)(w > 0 ? w : 0);                                 \
	} while (0)

	if (info->have_rsdp)
		PUT("ACPI: RSDP 0x%llx rev %u \"%s\", %s, FADT %s\n",
		    (unsigned long long)info->rsdp_address, info->rsdp_revision, info->rsdp_oem,
		    info->root == ACPI_ROOT_XSDT ? "XSDT" : info->root == ACPI_ROOT_RSDT ? "RSDT" : "no table list",
		    info->have_fadt ? "found" : "missing");
	if (info->pm_space != ACPI_SPACE_NONE)
		PUT("PM timer: %s 0x%llx, %u-bit\n", info->pm_space == ACPI_SPACE_IO ? "io" : "mmio",
		    (unsigned long long)info->pm_address, info->pm_bits);
	else
		PUT("PM timer: none (%s)\n", info->pm_none ? info->pm_none : "unknown");
	if (info->have_hpet)
		PUT("HPET: 0x%llx, block id 0x%08x (vendor %04x)%s\n",
		    (unsigned long long)info->hpet_address, info->hpet_block_id, info->hpet_vendor,
		    info->hpet_tables > 1 ? ", first of several tables" : "");
	else
		PUT("HPET: none (%s)\n", info->hpet_none ? info->hpet_none : "unknown");
#undef PUT
	return (int)n;
}
