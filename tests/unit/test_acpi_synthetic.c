/* SPDX-License-Identifier: BSD-2-Clause */
/* acpi/acpi.c against hand-made tables: each damaged one way (a bad length,
 * an absurd count, a wrong address space), decoded alone and walked from a
 * fake RSDP; real tables are test_acpi.c's. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "acpi_fixture.h"
#include "acpi/acpi.h"

/* ---- hand-made tables ---------------------------------------------------- */

/* A 244-byte revision 3 FADT. */
static void fadt(uint8_t *t, uint32_t legacy, uint32_t flags, uint8_t xspace, uint64_t xaddr)
{
	memset(t, 0, 244);
	put32(t + 76, legacy);
	put32(t + 112, flags);
	t[208] = xspace;
	t[209] = 32;
	put64(t + 212, xaddr);
	seal(t, "FACP", 244, 3);
}

static void hpet(uint8_t *t, uint8_t space, uint64_t base, uint32_t id)
{
	memset(t, 0, 56);
	put32(t + 36, id);
	t[40] = space;
	put64(t + 44, base);
	seal(t, "HPET", 56, 1);
}

/* A FADT decoded into a, from a's first state. */
static int fadt_decode(struct acpi_info *a, const uint8_t *t, size_t n)
{
	acpi_info_init(a);
	return acpi_decode_fadt(t, n, a);
}

/* A table decoded into a, from a's first state. */
static int decode(struct acpi_info *a, const uint8_t *t, size_t n)
{
	acpi_info_init(a);
	return acpi_decode_table(t, n, NULL, a);
}

static void test_synthetic(void)
{
	static uint8_t t[4096];
	struct acpi_info a;
	char text[256];

	fadt(t, 0x808, 1u << 8, 0, 0xfe00d008);
	check(COND(decode(&a, t, 244) == ACPI_USED) && COND(a.pm_space == ACPI_SPACE_MMIO) &&
		      COND(a.pm_address == 0xfe00d008) && COND(a.pm_bits == 32) &&
		      COND(strstr(json_of(&a), "\"pm_timer\":{\"space\":\"mmio\",\"address\":4261466120,\"bits\":32}")),
	      "synthetic: memory-space X_PM_TMR_BLK -> mmio 0xfe00d008, 32-bit");
	acpi_summary(&a, text, sizeof text);
	check(COND(strstr(text, "PM timer: mmio 0xfe00d008, 32-bit\n")) &&
		      COND(strstr(text, "HPET: none (no table)\n")),
	      "synthetic: summary lines");
	fadt(t, 0x808, 0, 2, 0xcf8);
	check(COND(decode(&a, t, 244) == ACPI_USED) && COND(a.pm_space == ACPI_SPACE_IO) &&
		      COND(a.pm_address == 0x808) && COND(has_problem(&a, "address space 2")),
	      "synthetic: X_PM_TMR_BLK in PCI config space -> legacy 0x808, noted");
	fadt(t, 0x808, 0, 1, 0x12345);
	check(COND(decode(&a, t, 244) == ACPI_USED) && COND(a.pm_address == 0x808) &&
		      COND(has_problem(&a, "above 0xffff")),
	      "synthetic: X I/O port above 0xffff -> legacy, noted");
	fadt(t, 0x808, 0, 1, 0x408);
	check(COND(decode(&a, t, 244) == ACPI_USED) && COND(a.pm_address == 0x408) &&
		      COND(has_problem(&a, "differ, X used")),
	      "synthetic: X and legacy ports differ -> X, noted");
	fadt(t, 0, 1u << 20, 1, 0x408);
	check(COND(decode(&a, t, 244) == ACPI_USED) && COND(a.pm_space == ACPI_SPACE_NONE) &&
		      COND(has_problem(&a, "X_PM_TMR_BLK 0x408 ignored")),
	      "synthetic: HW_REDUCED with an X block -> none, noted");
	fadt(t, 0, 0, 0, 0);
	check(COND(decode(&a, t, 244) == ACPI_USED) && COND(a.pm_space == ACPI_SPACE_NONE) &&
		      COND(!strcmp(a.pm_none, "FADT gives no PM timer block")),
	      "synthetic: FADT with no timer block -> none");

	fadt(t, 0x808, 0, 1, 0x808);
	check(COND(decode(&a, t, 30) == ACPI_BAD) && COND(has_problem(&a, "truncated")),
	      "synthetic: 30 bytes -> truncated header");
	check(COND(decode(&a, t, 200) == ACPI_BAD) &&
		      COND(has_problem(&a, "Length beyond the bytes present (Length 244)")),
	      "synthetic: Length 244 with 200 bytes present -> refused");
	seal(t, "FACP", 20, 3);
	check(COND(decode(&a, t, 244) == ACPI_BAD) && COND(has_problem(&a, "below the 36-byte header")),
	      "synthetic: Length 20 -> refused");
	seal(t, "FACP", 100, 3);
	check(COND(decode(&a, t, 244) == ACPI_BAD) && COND(has_problem(&a, "Length 100 too short")),
	      "synthetic: 100-byte FADT -> refused");
	put32(t + 4, 0x7ffffff0);
	check(COND(decode(&a, t, 244) == ACPI_BAD) && COND(has_problem(&a, "above 1 MiB")),
	      "synthetic: Length 0x7ffffff0 -> refused");
	memset(t, 0xff, 64);
	check(COND(decode(&a, t, 64) == ACPI_BAD) && COND(has_problem(&a, "not printable")),
	      "synthetic: 0xff bytes -> not a table");
	hpet(t, 0, 0xfed00000, 0x8086a201);
	check(COND(fadt_decode(&a, t, 56) == ACPI_BAD) && COND(has_problem(&a, "wrong signature")),
	      "synthetic: an HPET table given as FADT -> wrong signature");

	hpet(t, 1, 0xfed00000, 0x8086a201);
	check(COND(decode(&a, t, 56) == ACPI_BAD) && COND(!a.have_hpet) && COND(a.hpet_tables == 1) &&
		      COND(has_problem(&a, "not memory")),
	      "synthetic: HPET base in I/O space -> invalid");
	hpet(t, 0, 0, 0x8086a201);
	check(COND(decode(&a, t, 56) == ACPI_BAD) && COND(!a.have_hpet) && COND(has_problem(&a, "base address 0")),
	      "synthetic: HPET base 0 -> invalid");
	seal(t, "HPET", 44, 1);
	check(COND(decode(&a, t, 56) == ACPI_BAD) && COND(has_problem(&a, "too short")),
	      "synthetic: 44-byte HPET -> refused");
}

/* A walk: RSDP rev 2 -> XSDT with an absurd entry count; RSDT lists an
 * unreadable table, the FADT, and 20 damaged HPETs. */
static void test_synthetic_walk(void)
{
	static uint8_t t[4096], x[4096], r[64], p[36], rsdt[36 + 4 * 22];
	struct fakemem m = { .n = 0 };
	struct acpi_mem mem = { fake_read, &m };
	struct acpi_info a;

	fadt(t, 0x608, 0, 0, 0);
	hpet(x, 0, 0xfed00000, 0x8086a201);
	x[9] ^= 1;
	memset(r, 0, sizeof r);
	put32(rsdt + 36, 0x5000);
	put32(rsdt + 40, 0x1000);
	for (int i = 0; i < 20; i++)
		put32(rsdt + 44 + 4 * i, 0x2000);
	seal(rsdt, "RSDT", sizeof rsdt, 1);
	seal(r, "XSDT", 36, 1);
	put32(r + 4, 36 + 8 * 100000); /* 100000 entries: refused before its checksum */
	memset(p, 0, sizeof p);
	memcpy(p, "RSD PTR ", 8);
	p[15] = 2;
	put32(p + 16, 0x3000);
	put32(p + 20, 36);
	put64(p + 24, 0x4000);
	/* The checksum of the first 20 bytes (at 8), then of all 36 (at 32). */
	for (int i = 0; i < 2; i++) {
		int n = i ? 36 : 20;
		int at = i ? 32 : 8;
		int s = 0;
		for (int k = 0; k < n; k++)
			s += p[k];
		p[at] = -s;
	}
	place(&m, 0xe0000, p, 36);
	place(&m, 0x1000, t, 244);
	place(&m, 0x2000, x, 56);
	place(&m, 0x3000, rsdt, sizeof rsdt);
	place(&m, 0x4000, r, sizeof r);
	acpi_info_init(&a);
	check(acpi_find_rsdp_bios(&mem, &a) == 0xe0000, "synthetic: built RSDP found at 0xe0000");
	check(COND(acpi_walk(&mem, 0xe0000, &a) == 0) && COND(a.root == ACPI_ROOT_RSDT) &&
		      COND(has_problem(&a, "too many entries")),
	      "synthetic: absurd XSDT -> refused, RSDT walked");
	check(COND(has_problem(&a, "table at 0x5000 unreadable")) && COND(a.pm_address == 0x608),
	      "synthetic: RSDT's unreadable entry reported, its FADT still read");
	check(COND(a.hpet_tables == 20) && COND(!a.have_hpet), "synthetic: 20 bad HPETs counted, none used");
	check(COND(a.nproblems == ACPI_MAX_PROBLEMS) && COND(a.problems_dropped > 0) &&
		      COND(strstr(json_of(&a), "more problems not kept")),
	      "synthetic: the problems kept are bounded, the rest counted and said in the JSON");
	p[32] ^= 1;
	acpi_info_init(&a);
	check(COND(acpi_walk(&mem, 0xe0000, &a) == 0) && COND(a.root == ACPI_ROOT_RSDT) &&
		      COND(has_problem(&a, "bad extended checksum")),
	      "synthetic: RSDP with a bad extended checksum -> RSDT only");
	p[8] ^= 1;
	acpi_info_init(&a);
	check(COND(acpi_walk(&mem, 0xe0000, &a) < 0) && COND(!a.have_rsdp) && COND(has_problem(&a, "not a valid RSDP")),
	      "synthetic: RSDP with a bad checksum -> refused");
}

int main(void)
{
	test_synthetic();
	test_synthetic_walk();
	return check_done();
}
