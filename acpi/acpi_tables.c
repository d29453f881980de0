/* SPDX-License-Identifier: BSD-2-Clause */
/* ACPI table decoders and output: the FADT (PM timer) and the HPET table
 * (the MADT has acpi/acpi_madt.c),
 * from a checked table in a buffer (acpi/acpi.c finds and checks them in
 * memory; `tickprobe acpi` and the tests hand in files), and the acpi_info
 * they fill written out as the log's JSON members or as human lines.
 * Freestanding, like the walk: no field is believed past the Length given. */
#include "acpi/acpi.h"
#include "acpi/acpi_internal.h"
#include "lib/fmt.h"
#include "lib/util.h"

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
	acpi_copy_id(out->fadt_oem, t + 10, 6);
	acpi_copy_id(out->fadt_oem_table, t + 16, 8);
	acpi_power_fadt(t, len, &out->power);
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
int acpi_decode_checked(const uint8_t *t, size_t len, const char *where,
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
	if (!tp_memcmp(t, "APIC", 4))
		return acpi_madt_buffer(t, len, where, addr_known, addr, out);
	return ACPI_OTHER;
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
		else if (!tp_memcmp(s, "APIC", 4))
			where = "MADT";
		else {
			tp_snprintf(label, sizeof label, "table '%.4s'",
				    acpi_printable_sig(s) ? (const char *)s : "????");
			where = label;
		}
	}
	if (why) {
		acpi_rejected(t, len, where, why, out);
		return ACPI_BAD;
	}
	if (!tp_memcmp(t, "APIC", 4)) /* it notes bytes past the Length */
		return acpi_madt_buffer(t, len, where, false, 0, out);
	return acpi_decode_checked(t, tp_le32(t + 4), where, false, 0, out);
}

int acpi_decode_fadt(const uint8_t *t, size_t len, struct acpi_info *out)
{
	return decode_raw(t, len, "FACP", NULL, out);
}

int acpi_decode_hpet(const uint8_t *t, size_t len, struct acpi_info *out)
{
	return decode_raw(t, len, "HPET", NULL, out);
}

int acpi_decode_madt(const uint8_t *t, size_t len, struct acpi_info *out)
{
	return decode_raw(t, len, "APIC", NULL, out);
}

int acpi_decode_table(const uint8_t *t, size_t len, const char *where, struct acpi_info *out)
{
	return decode_raw(t, len, NULL, where, out);
}

/* ---- output --------------------------------------------------------------- */

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
	w = acpi_madt_summary(&info->madt, buf + (n < cap ? n : cap), n < cap ? cap - n : 0);
	n += (size_t)(w > 0 ? w : 0);
#undef PUT
	return (int)n;
}
