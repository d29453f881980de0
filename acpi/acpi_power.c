/* SPDX-License-Identifier: BSD-2-Clause */
/* The FADT's reset register and PM1 control blocks, and \_S5 from the DSDT
 * (acpi/acpi_power.h). */
#include "acpi/acpi_power.h"
#include "acpi/acpi.h"
#include "lib/util.h"

/* FADT offsets (ACPI 6.5, table 5.9). */
#define FADT_DSDT 40
#define FADT_SMI_CMD 48
#define FADT_ACPI_ENABLE 52
#define FADT_PM1A_CNT 64
#define FADT_PM1B_CNT 68
#define FADT_FLAGS 112
#define FADT_RESET_REG 116 /* a 12-byte GAS: space, width, offset, access, address at +4 */
#define FADT_RESET_VALUE 128
#define FADT_X_DSDT 140
#define FADT_X_PM1A_CNT 172
#define FADT_X_PM1B_CNT 184
#define FLAG_RESET_REG_SUP (1u << 10)
#define FLAG_HW_REDUCED (1u << 20)

/* AML (ACPI 6.5, 20.2). */
#define AML_ZERO 0x00
#define AML_ONE 0x01
#define AML_NAME 0x08
#define AML_BYTE 0x0a
#define AML_WORD 0x0b
#define AML_DWORD 0x0c
#define AML_PACKAGE 0x12
#define AML_ROOT 0x5c
#define SLP_TYP_MAX 7

/* The DSDT is scanned in pieces of STEP bytes, each read with OVERLAP more:
 * a match (at most 23 bytes: NameOp '\' "_S5_" PackageOp, a 4-byte
 * PkgLength, NumElements and two 5-byte DWord elements) that starts in one
 * piece ends inside what was read of it. */
#define STEP 1024u
#define OVERLAP 32u

static bool fits(size_t len, uint64_t off, uint64_t need)
{
	return off <= len && need <= len - off;
}

/* A GAS address as an I/O port when it is one: 1..0xffff in I/O space. */
static uint16_t gas_port(const uint8_t *gas)
{
	uint64_t a = tp_le64(gas + 4);
	return gas[0] == ACPI_GAS_IO && a && a <= 0xffff ? (uint16_t)a : 0;
}

static void fadt_reset(const uint8_t *t, size_t len, uint32_t flen, uint32_t flags, struct acpi_power *pw)
{
	const uint8_t *g = t + FADT_RESET_REG;

	if (t[8] < 2 || flen <= FADT_RESET_VALUE || !fits(len, FADT_RESET_REG, FADT_RESET_VALUE + 1 - FADT_RESET_REG)) {
		pw->reset_none = "FADT revision 1 or too short for RESET_REG";
	} else if (!(flags & FLAG_RESET_REG_SUP)) {
		pw->reset_none = "FADT flag RESET_REG_SUP clear";
	} else if (!tp_le64(g + 4)) {
		pw->reset_none = "FADT RESET_REG address 0";
	} else if (g[0] != ACPI_GAS_IO && g[0] != ACPI_GAS_MEMORY && g[0] != ACPI_GAS_PCI) {
		pw->reset_none = "FADT RESET_REG in an address space other than I/O, memory or PCI";
	} else if (g[0] == ACPI_GAS_IO && tp_le64(g + 4) > 0xffff) {
		pw->reset_none = "FADT RESET_REG I/O port above 0xffff";
	} else {
		pw->reset_reg = true;
		pw->reset_space = g[0];
		pw->reset_width = g[1];
		pw->reset_address = tp_le64(g + 4);
		pw->reset_value = t[FADT_RESET_VALUE];
	}
}

void acpi_power_fadt(const uint8_t *t, size_t len, struct acpi_power *pw)
{
	uint32_t flen = tp_le32(t + 4), flags = tp_le32(t + FADT_FLAGS);
	uint32_t a = tp_le32(t + FADT_PM1A_CNT), b = tp_le32(t + FADT_PM1B_CNT);

	tp_memset(pw, 0, sizeof *pw);
	if (len > flen)
		len = flen;
	pw->have_fadt = true;
	pw->hw_reduced = (flags & FLAG_HW_REDUCED) != 0;
	fadt_reset(t, len, flen, flags, pw);
	pw->smi_cmd = tp_le32(t + FADT_SMI_CMD) <= 0xffff ? (uint16_t)tp_le32(t + FADT_SMI_CMD) : 0;
	pw->acpi_enable = t[FADT_ACPI_ENABLE];
	pw->dsdt = tp_le32(t + FADT_DSDT);
	if (fits(len, FADT_X_DSDT, 8) && tp_le64(t + FADT_X_DSDT))
		pw->dsdt = tp_le64(t + FADT_X_DSDT);
	/* The X_ blocks, where the table has them and they name a port. */
	pw->pm1a_cnt = a <= 0xffff ? (uint16_t)a : 0;
	pw->pm1b_cnt = b <= 0xffff ? (uint16_t)b : 0;
	if (fits(len, FADT_X_PM1A_CNT, 12) && gas_port(t + FADT_X_PM1A_CNT))
		pw->pm1a_cnt = gas_port(t + FADT_X_PM1A_CNT);
	if (fits(len, FADT_X_PM1B_CNT, 12) && gas_port(t + FADT_X_PM1B_CNT))
		pw->pm1b_cnt = gas_port(t + FADT_X_PM1B_CNT);
	if (pw->hw_reduced)
		pw->pm1_none = "HW_REDUCED_ACPI: no PM1 control block (sleep registers are not supported here)";
	else if (!pw->pm1a_cnt)
		pw->pm1_none = "the FADT gives no PM1a_CNT I/O port";
}

/* One package element at p (n bytes left): an integer constant. */
static bool element(const uint8_t *p, size_t n, uint32_t *v, size_t *used)
{
	if (!n)
		return false;
	switch (p[0]) {
	case AML_ZERO:
		*v = 0;
		*used = 1;
		return true;
	case AML_ONE:
		*v = 1;
		*used = 1;
		return true;
	case AML_BYTE:
		if (n < 2)
			return false;
		*v = p[1];
		*used = 2;
		return true;
	case AML_WORD:
		if (n < 3)
			return false;
		*v = tp_le16(p + 1);
		*used = 3;
		return true;
	case AML_DWORD:
		if (n < 5)
			return false;
		*v = tp_le32(p + 1);
		*used = 5;
		return true;
	default: return false;
	}
}

/* The package whose PackageOp is at p; n bytes are in the buffer, table_left
 * in the table from p on.  NULL when it decodes, else why not. */
static const char *package(const uint8_t *p, size_t n, uint64_t table_left, struct acpi_s5 *s5)
{
	size_t k, extra, at, used;
	uint32_t pkg_len, a, b;

	if (n < 3)
		return "\\_S5 package cut short";
	extra = p[1] >> 6;
	if (n < 3 + extra)
		return "\\_S5 package cut short";
	pkg_len = extra ? p[1] & 0x0fu : p[1] & 0x3fu;
	for (k = 0; k < extra; k++)
		pkg_len |= (uint32_t)p[2 + k] << (4 + 8 * k);
	if (pkg_len < 2 + extra || pkg_len > table_left - 1)
		return "\\_S5 PkgLength beyond the table";
	at = 2 + extra; /* NumElements */
	if (!p[at])
		return "\\_S5 package is empty";
	if (!element(p + at + 1, n - at - 1, &a, &used) || at + 1 + used > 1 + (size_t)pkg_len)
		return "\\_S5's first element is not an integer constant";
	b = a;
	if (p[at] >= 2 && !element(p + at + 1 + used, n - at - 1 - used, &b, &k))
		return "\\_S5's second element is not an integer constant";
	if (p[at] == 1 && a > 0xff) { /* one integer: SLP_TYPa in byte 0, SLP_TYPb in byte 1 */
		b = a >> 8 & 0xff;
		a &= 0xff;
	}
	if (a > SLP_TYP_MAX || b > SLP_TYP_MAX)
		return "\\_S5 SLP_TYP above 7";
	s5->slp_typ_a = (uint8_t)a;
	s5->slp_typ_b = (uint8_t)b;
	return NULL;
}

/* Matches whose name starts in [from, limit) of buf (n bytes, table_left of
 * the table from buf on); base is buf's offset in the table. */
static bool scan_piece(const uint8_t *buf, size_t n, uint64_t table_left, size_t from, size_t limit,
		       uint32_t base, struct acpi_s5 *s5)
{
	for (size_t i = from ? from : 1; i < limit && i + 5 <= n; i++) {
		const char *why;
		if (buf[i] != '_' || buf[i + 1] != 'S' || buf[i + 2] != '5' || buf[i + 3] != '_')
			continue;
		if (!(buf[i - 1] == AML_NAME || (i >= 2 && buf[i - 1] == AML_ROOT && buf[i - 2] == AML_NAME)))
			continue; /* a reference to _S5_, or the name inside other data */
		if (buf[i + 4] != AML_PACKAGE) {
			s5->none = "\\_S5 is named, but not as a package";
			continue;
		}
		why = package(buf + i + 4, n - i - 4, table_left - i - 4, s5);
		if (!why) {
			s5->found = true;
			s5->offset = base + (uint32_t)i;
			s5->none = NULL;
			return true;
		}
		s5->none = why;
	}
	return false;
}

bool acpi_s5_scan(const uint8_t *aml, size_t len, struct acpi_s5 *s5)
{
	tp_memset(s5, 0, sizeof *s5);
	s5->none = "no \\_S5 package in the DSDT";
	return scan_piece(aml, len, len, 1, len, 0, s5);
}

static uint8_t sum8(const uint8_t *p, size_t n)
{
	uint8_t s = 0;
	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

bool acpi_s5_find(const struct acpi_mem *m, const struct acpi_power *pw, struct acpi_s5 *s5)
{
	uint8_t buf[STEP + OVERLAP];
	uint32_t len, off;
	uint8_t sum = 0;
	bool found = false;

	tp_memset(s5, 0, sizeof *s5);
	s5->none = "no \\_S5 package in the DSDT";
	if (!pw->dsdt) {
		s5->none = "the FADT gives no DSDT address";
		return false;
	}
	if (m->read(m->ctx, pw->dsdt, buf, ACPI_HEADER_LEN)) {
		s5->none = "the DSDT is unreadable";
		return false;
	}
	len = tp_le32(buf + 4);
	if (tp_memcmp(buf, "DSDT", 4) || len < ACPI_HEADER_LEN || len > ACPI_TABLE_MAX) {
		s5->none = "the DSDT address holds no DSDT (signature or Length)";
		return false;
	}
	/* Each piece is read from 2 bytes before its own (NameOp '\' precede
	 * the name), its own STEP bytes are summed and scanned for names. */
	for (off = 0; off < len; off += STEP) {
		uint32_t base = off ? off - 2 : 0, lead = off - base;
		uint32_t n = len - base < STEP + OVERLAP ? len - base : STEP + OVERLAP;
		uint32_t own = len - off < STEP ? len - off : STEP;
		if (m->read(m->ctx, pw->dsdt + base, buf, n)) {
			s5->none = "the DSDT is unreadable";
			return false;
		}
		sum = (uint8_t)(sum + sum8(buf + lead, own));
		if (!found)
			found = scan_piece(buf, n, len - base, lead, lead + own, base, s5);
	}
	if (sum) {
		s5->found = false;
		s5->none = "the DSDT's checksum is bad";
		return false;
	}
	return found;
}

uint16_t acpi_s5_pm1_value(uint16_t current, uint8_t slp_typ)
{
	return (uint16_t)((current & ~(ACPI_PM1_SLP_TYP_MASK | ACPI_PM1_SLP_EN)) | (uint16_t)(slp_typ & 7u) << 10 |
			  ACPI_PM1_SLP_EN);
}
