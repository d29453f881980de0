/* SPDX-License-Identifier: BSD-2-Clause */
/* The FADT's reset register and PM1 control blocks, and \_S5 from the DSDT
 * (acpi/acpi_power.c): on the two real table sets of tests/data/acpi/walk
 * (values as `iasl -d` prints them), on real FADTs of tests/data/acpi/linuxhw
 * against expected_power.csv (made with iasl, see tests/data/acpi/README.md),
 * and on synthetic AML that is damaged on purpose. */
#include <stdlib.h>
#include <string.h>
#include "acpi/acpi.h"
#include "tests/unit/check.h"

#define WALK "tests/data/acpi/walk"
#define LINUXHW "tests/data/acpi/linuxhw"

static size_t load(const char *path, uint8_t *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;
	if (!f)
		return 0;
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

/* A fake physical memory holding one table at `base`. */
struct fake {
	uint64_t base;
	const uint8_t *bytes;
	size_t len;
};

static int fake_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct fake *f = ctx;
	if (addr < f->base || addr - f->base > f->len || len > f->len - (addr - f->base))
		return -1;
	memcpy(buf, f->bytes + (addr - f->base), len);
	return 0;
}

static void fix_checksum(uint8_t *t, size_t len)
{
	uint8_t s = 0;
	t[9] = 0;
	for (size_t i = 0; i < len; i++)
		s = (uint8_t)(s + t[i]);
	t[9] = (uint8_t)-s;
}

/* A DSDT of len bytes (header, then 0xa3 NoOps) with aml at offset at. */
static void make_dsdt(uint8_t *t, size_t len, size_t at, const uint8_t *aml, size_t n)
{
	memset(t, 0xa3, len);
	memcpy(t, "DSDT", 4);
	t[4] = (uint8_t)len;
	t[5] = (uint8_t)(len >> 8);
	t[6] = (uint8_t)(len >> 16);
	t[7] = 0;
	t[8] = 2;
	memcpy(t + at, aml, n);
	fix_checksum(t, len);
}

/* acpi_s5_scan() of a DSDT made in t: aml at offset 36, then 8 NoOps. */
static bool scan_dsdt(uint8_t *t, const uint8_t *aml, size_t n, struct acpi_s5 *s5)
{
	make_dsdt(t, 36 + n + 8, 36, aml, n);
	return acpi_s5_scan(t, 36 + n + 8, s5);
}

static void real_tables(void)
{
	static uint8_t buf[1 << 16];
	struct acpi_power pw = { 0 };
	struct acpi_s5 s5 = { 0 };
	size_t n;
	bool found;

	/* Each scan before its check: the order a call's arguments are
	 * evaluated in is unspecified, and the message reads s5 too. */
	n = load(WALK "/fwts01_lenovo_thinkpad_crestline/memory/DSDT_1.bin", buf, sizeof buf);
	found = n == 24564 && acpi_s5_scan(buf, n, &s5);
	check(COND(found) && COND(s5.slp_typ_a == 7) && COND(s5.slp_typ_b == 7) && COND(s5.offset == 13684),
	      "ThinkPad DSDT: \\_S5 Package(3){0x07, 0x07, Zero} at 13684 (n %zu, found %d, %u/%u at %u)", n, s5.found,
	      s5.slp_typ_a, s5.slp_typ_b, s5.offset);
	memset(&s5, 0, sizeof s5);
	n = load(WALK "/lhw03_toshiba_satellite_c70d-b/memory/DSDT_1.bin", buf, sizeof buf);
	found = n == 24383 && acpi_s5_scan(buf, n, &s5);
	check(COND(found) && COND(s5.slp_typ_a == 5) && COND(s5.slp_typ_b == 5) && COND(s5.offset == 3134),
	      "Toshiba DSDT: \\_S5 Package(4){0x05, 0x05, Zero, Zero} at 3134 (found %d, %u/%u at %u)", s5.found,
	      s5.slp_typ_a, s5.slp_typ_b, s5.offset);
	/* Through memory, in pieces: the same answer, and the checksum holds. */
	{
		struct fake f = { 0x9fbf2000, buf, n };
		struct acpi_mem m = { fake_read, &f };
		struct acpi_power p = { .dsdt = 0x9fbf2000 };
		check(COND(acpi_s5_find(&m, &p, &s5)) && COND(s5.slp_typ_a == 5) && COND(s5.offset == 3134),
		      "Toshiba DSDT read through memory in 1 KiB pieces: found, offset %u", s5.offset);
		buf[100] ^= 1;
		check(COND(!acpi_s5_find(&m, &p, &s5)) && COND(strstr(s5.none, "checksum")),
		      "one byte changed: refused (%s)", s5.none);
		buf[100] ^= 1;
	}

	n = load(WALK "/lhw03_toshiba_satellite_c70d-b/memory/FACP_1.bin", buf, sizeof buf);
	acpi_power_fadt(buf, n, &pw);
	check(COND(n == 268) && COND(pw.reset_reg) && COND(pw.reset_space == ACPI_GAS_IO) &&
		      COND(pw.reset_address == 0xb0) && COND(pw.reset_value == 0xfb),
	      "Toshiba FADT rev 5: reset io 0xb0 <- 0xfb (reset %d %u 0x%llx 0x%x)", pw.reset_reg, pw.reset_space,
	      (unsigned long long)pw.reset_address, pw.reset_value);
	check(COND(pw.pm1a_cnt == 0x404) && COND(!pw.pm1b_cnt) && COND(!pw.pm1_none),
	      "Toshiba FADT rev 5: PM1a_CNT 0x404, no PM1b (pm1a 0x%x)", pw.pm1a_cnt);
	check(COND(pw.dsdt == 0x9fbf2000) && COND(pw.smi_cmd == 0xb0) && COND(pw.acpi_enable == 0xa0),
	      "Toshiba FADT rev 5: DSDT 0x9fbf2000, SMI_CMD 0xb0/0xa0");
	n = load(WALK "/fwts01_lenovo_thinkpad_crestline/memory/FACP_1.bin", buf, sizeof buf);
	acpi_power_fadt(buf, n, &pw);
	check(COND(!pw.reset_reg) && COND(strstr(pw.reset_none, "revision 1")) && COND(pw.pm1a_cnt == 0x1004) &&
		      COND(pw.dsdt == 0xbf6d9b6a) && COND(pw.smi_cmd == 0xb2) && COND(pw.acpi_enable == 0xf0),
	      "ThinkPad FADT rev 1: no reset register (%s), PM1a_CNT 0x%x, DSDT 0x%llx", pw.reset_none, pw.pm1a_cnt,
	      (unsigned long long)pw.dsdt);
}

/* expected_power.csv: machine,fadt_rev,reset_sup,reset_space,reset_addr,
 * reset_value,pm1a_cnt,pm1b_cnt,x_pm1a_space,x_pm1a_addr (iasl's hex). */
static void linuxhw(void)
{
	FILE *csv = fopen(LINUXHW "/expected_power.csv", "r");
	char line[512], path[512];
	static uint8_t buf[4096];
	int rows = 0, good = 0, resets = 0;

	if (!csv) {
		check(0, "expected_power.csv opens");
		return;
	}
	while (fgets(line, sizeof line, csv)) {
		char m[200], rev[8], sup[4], rs[8], ra[24], rv[8], a[16], b[16], xs[8], xa[24];
		struct acpi_power pw;
		unsigned long long want_pm1a;
		bool want_reset;
		size_t n;
		if (line[0] == '#' || sscanf(line, "%199[^,],%7[^,],%3[^,],%7[^,],%23[^,],%7[^,],%15[^,],%15[^,],%7[^,],%23[^,\n]",
					     m, rev, sup, rs, ra, rv, a, b, xs, xa) != 10)
			continue;
		snprintf(path, sizeof path, LINUXHW "/%s/FACP.bin", m);
		n = load(path, buf, sizeof buf);
		rows++;
		acpi_power_fadt(buf, n, &pw);
		want_reset = strtoul(rev, NULL, 16) >= 2 && sup[0] == '1' && strtoull(ra, NULL, 16) != 0;
		want_pm1a = strtoul(xs, NULL, 16) == 1 && strtoull(xa, NULL, 16) ? strtoull(xa, NULL, 16)
										 : strtoull(a, NULL, 16);
		if (pw.reset_reg == want_reset && pw.pm1a_cnt == want_pm1a &&
		    (!want_reset || (pw.reset_address == strtoull(ra, NULL, 16) && pw.reset_value == strtoul(rv, NULL, 16) &&
				     pw.reset_space == strtoul(rs, NULL, 16))))
			good++;
		else
			check(0, "%s: reset %d (want %d) 0x%llx, PM1a_CNT 0x%x (want 0x%llx)", m, pw.reset_reg, want_reset,
			      (unsigned long long)pw.reset_address, pw.pm1a_cnt, want_pm1a);
		resets += want_reset;
	}
	fclose(csv);
	check(COND(rows >= 30) && COND(good == rows),
	      "linuxhw: %d of %d FADTs decode as iasl does (%d with a reset register)", good, rows, resets);
}

static void synthetic(void)
{
	static const uint8_t qemu[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00 };
	static const uint8_t root[] = { 0x08, '\\', '_', 'S', '5', '_', 0x12, 0x08, 0x02, 0x0a, 0x06, 0x0a, 0x03 };
	static const uint8_t one[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x05, 0x01, 0x0b, 0x07, 0x05 };
	static const uint8_t big[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x05, 0x02, 0x0a, 0x09, 0x00 };
	static const uint8_t beyond[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x7f, 0x02, 0x00, 0x00 };
	static const uint8_t method[] = { 0x14, 0x08, '_', 'S', '5', '_', 0x00, 0xa4, 0x00 };
	static const uint8_t ref[] = { 0x70, '_', 'S', '5', '_', 0x12, 0x04, 0x02, 0x00, 0x00 };
	static const uint8_t strelem[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x05, 0x02, 0x0d, 'a', 0x00 };
	static const uint8_t twobyte[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x46, 0x00, 0x02, 0x01, 0x00 };
	static const uint8_t cut[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x0a };
	uint8_t t[64];
	struct acpi_s5 s5 = { 0 };

#define SCAN(a) scan_dsdt(t, a, sizeof(a), &s5)
	check(COND(SCAN(qemu)) && COND(s5.slp_typ_a == 0) && COND(s5.slp_typ_b == 0),
	      "QEMU's form Package(4){Zero,...}: 0/0");
	check(COND(SCAN(root)) && COND(s5.slp_typ_a == 6) && COND(s5.slp_typ_b == 3),
	      "Name(\\_S5_, ...) with the root prefix: 6/3");
	check(COND(SCAN(one)) && COND(s5.slp_typ_a == 7) && COND(s5.slp_typ_b == 5), "one WordConst 0x0507: a 7, b 5");
	check(COND(!SCAN(big)) && COND(strstr(s5.none, "above 7")), "SLP_TYP 9: refused (%s)", s5.none);
	check(COND(!SCAN(beyond)) && COND(strstr(s5.none, "beyond")), "PkgLength past the table: refused (%s)",
	      s5.none);
	check(!SCAN(method), "a Method _S5_: no package found (%s)", s5.none);
	check(!SCAN(ref), "_S5_ not after NameOp: not taken");
	check(COND(!SCAN(strelem)) && COND(strstr(s5.none, "integer")), "a String element: refused (%s)", s5.none);
	check(COND(SCAN(twobyte)) && COND(s5.slp_typ_a == 1), "a 2-byte PkgLength: decoded (a %u)", s5.slp_typ_a);
	make_dsdt(t, 36 + sizeof cut, 36, cut, sizeof cut);
	check(!acpi_s5_scan(t, 36 + sizeof cut, &s5), "a package cut by the table's end: refused (%s)", s5.none);
#undef SCAN
	check(COND(acpi_s5_pm1_value(0x1c01, 0) == 0x2001) && COND(acpi_s5_pm1_value(0x0001, 7) == 0x3c01) &&
		      COND(acpi_s5_pm1_value(0x2000, 5) == 0x3400),
	      "PM1_CNT value: SCI_EN kept, SLP_TYP replaced, SLP_EN set");
}

/* A name across every piece boundary of the memory scan is found once. */
static void boundaries(void)
{
	static const uint8_t root[] = { 0x08, '\\', '_', 'S', '5', '_', 0x12, 0x08, 0x02, 0x0a, 0x06, 0x0a, 0x03 };
	static uint8_t t[4000];
	int good = 0, tries = 0;

	for (size_t at = 36; at + sizeof root <= sizeof t; at += (at > 1000 && at < 1040) || (at > 2030 && at < 2070) ? 1 : 97) {
		struct fake f = { 0x100000, t, sizeof t };
		struct acpi_mem m = { fake_read, &f };
		struct acpi_power p = { .dsdt = 0x100000 };
		struct acpi_s5 s5 = { 0 };
		make_dsdt(t, sizeof t, at, root, sizeof root);
		tries++;
		good += acpi_s5_find(&m, &p, &s5) && s5.offset == at + 2 && s5.slp_typ_a == 6 && s5.slp_typ_b == 3;
	}
	check(good == tries, "\\_S5 at %d offsets, those around the 1 KiB piece boundaries included: %d found", tries, good);
	{
		struct fake f = { 0x100000, t, sizeof t };
		struct acpi_mem m = { fake_read, &f };
		struct acpi_power p = { .dsdt = 0x100000 };
		struct acpi_s5 s5 = { 0 };
		memcpy(t, "SSDT", 4);
		check(COND(!acpi_s5_find(&m, &p, &s5)) && COND(strstr(s5.none, "no DSDT")),
		      "an SSDT at the DSDT address: refused");
		p.dsdt = 0x200000;
		check(COND(!acpi_s5_find(&m, &p, &s5)) && COND(strstr(s5.none, "unreadable")),
		      "an unreadable DSDT: refused");
		p.dsdt = 0;
		check(!acpi_s5_find(&m, &p, &s5), "no DSDT address: refused (%s)", s5.none);
	}
}

int main(void)
{
	real_tables();
	linuxhw();
	synthetic();
	boundaries();
	return check_done();
}
