/* SPDX-License-Identifier: BSD-2-Clause */
/* acpi/acpi.c against real tables: 654 linuxhw FADT/HPET sets, two whole
 * table sets walked from the RSDP through a fake physical memory, the fwts
 * corrupted-checksum tables, and `tickprobe acpi` (hand-made damaged tables:
 * test_acpi_synthetic.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "acpi_fixture.h"
#include "acpi/acpi.h"
#include "lib/json.h"

#define FWTS01 DATA "/walk/fwts01_lenovo_thinkpad_crestline"
#define LHW03 DATA "/walk/lhw03_toshiba_satellite_c70d-b"
#define CORRUPT DATA "/corrupt/fwts02_corrupted_checksums"

/* expected.txt: the last "key=value" for key (value up to blank or quote). */
static bool expect_get(const char *dir, const char *key, char *val, size_t cap)
{
	char path[512], line[512];
	size_t kl = strlen(key);
	bool found = false;
	FILE *f;

	snprintf(path, sizeof path, "%s/expected.txt", dir);
	if (!(f = fopen(path, "r")))
		return false;
	while (fgets(line, sizeof line, f)) {
		char *h = strchr(line, '#'), *p;
		if (h)
			*h = 0;
		for (p = line; (p = strstr(p, key)); p++) {
			size_t n = 0;
			if ((p != line && p[-1] != ' ') || p[kl] != '=')
				continue;
			p += kl + 1;
			if (*p == '"')
				for (p++; p[n] && p[n] != '"'; n++)
					;
			else
				while (p[n] && p[n] != ' ' && p[n] != '\n' && p[n] != '\t')
					n++;
			snprintf(val, cap, "%.*s", (int)n, p);
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}

static unsigned long long expect_num(const char *dir, const char *key)
{
	char v[64];
	return expect_get(dir, key, v, sizeof v) ? strtoull(v, NULL, 0) : ~0ull;
}

/* ---- linuxhw -------------------------------------------------------------- */

enum { MACHINE, SOURCE, FREV, FLEN, OEM, PMBLK, PMLEN, FLAGS, VALEXT, HWRED, XSPACE,
       XWIDTH, XADDR, NHPET, HPETID, HPETSPACE, HPETADDR, HPETWIDTH, EPM, EBITS, EHPET, NCOL };

static void decode_machine(const char *m, struct acpi_info *a)
{
	static const char *names[] = { "FACP.bin", "HPET.bin", "HPET2.bin" };
	char path[512];
	acpi_info_init(a);
	for (int i = 0; i < 3; i++) {
		size_t len;
		uint8_t *t;
		snprintf(path, sizeof path, DATA "/linuxhw/%s/%s", m, names[i]);
		if ((t = slurp(path, &len))) {
			if (i == 0)
				acpi_decode_fadt(t, len, a);
			else
				acpi_decode_hpet(t, len, a);
			free(t);
		}
	}
}

static void describe(const struct acpi_info *a, char *pm, char *bits, char *hpet)
{
	if (a->pm_space == ACPI_SPACE_NONE) {
		strcpy(pm, "none");
		bits[0] = 0;
	} else {
		sprintf(pm, "%s:0x%llx", a->pm_space == ACPI_SPACE_IO ? "io" : "mmio",
			(unsigned long long)a->pm_address);
		sprintf(bits, "%u", a->pm_bits);
	}
	if (a->have_hpet)
		sprintf(hpet, "mem:0x%llx", (unsigned long long)a->hpet_address);
	else
		strcpy(hpet, a->hpet_tables ? "invalid" : "none");
}

/* The odd machines the corpus README names: each row that shows the trait is
 * checked; a failing one gets its own FAIL line, the category one PASS line. */
static int odd_bad[7];
#define ODD(i, ok, ...) \
	do { \
		if (!(ok)) { \
			odd_bad[i]++; \
			check(0, __VA_ARGS__); \
		} \
	} while (0)

static void odd_cases(char **f, const struct acpi_info *a, int *seen)
{
	unsigned long long legacy = strtoull(f[PMBLK], NULL, 0), id = strtoull(f[HPETID], NULL, 0);
	unsigned want_bits = atoi(f[VALEXT]) ? 32 : 24;

	if (!strcmp(f[XWIDTH], "8")) {
		seen[0]++;
		ODD(0, a->pm_bits == want_bits && a->pm_space == ACPI_SPACE_IO,
		      "linuxhw %s: X_PM_TMR_BLK width 8 -> %u-bit from TMR_VAL_EXT (got %u)",
		      f[MACHINE], want_bits, a->pm_bits);
	}
	if (!strcmp(f[HWRED], "1") && legacy) {
		char port[48];
		seen[1]++;
		snprintf(port, sizeof port, "PM_TMR_BLK 0x%llx ignored", legacy);
		ODD(1, a->pm_space == ACPI_SPACE_NONE && a->hw_reduced && has_problem(a, "HW_REDUCED_ACPI") &&
		      has_problem(a, port), "linuxhw %s: HW_REDUCED_ACPI with legacy 0x%llx -> no PM timer, noted",
		      f[MACHINE], legacy);
	}
	if (atoi(f[NHPET]) == 2) {
		seen[2]++;
		ODD(2, a->have_hpet && a->hpet_tables == 2 && a->hpet_block_id == id,
		      "linuxhw %s: two HPET tables, the first (block id 0x%llx) used", f[MACHINE], id);
	}
	if (f[HPETID][0] && ((id >> 16) == 0 || (id >> 16) == 0xffff)) {
		seen[3]++;
		ODD(3, a->have_hpet && a->hpet_block_id == id && a->hpet_vendor == (id >> 16) &&
		      has_problem(a, "no PCI vendor"), "linuxhw %s: junk block id 0x%llx kept, base used, noted",
		      f[MACHINE], id);
	}
	if (!strcasecmp(f[HPETADDR], "0x00000000FE800000") || !strcasecmp(f[HPETADDR], "0x00000000FEFF0000")) {
		seen[4]++;
		ODD(4, a->have_hpet && a->hpet_address == strtoull(f[HPETADDR], NULL, 0),
		      "linuxhw %s: HPET base %s", f[MACHINE], f[HPETADDR]);
	}
	if (!strcmp(f[FREV], "4") && f[XADDR][0] && !strtoull(f[XADDR], NULL, 0) && !strcmp(f[XSPACE], "0")) {
		seen[5]++;
		ODD(5, a->pm_space == ACPI_SPACE_IO && a->pm_address == legacy,
		      "linuxhw %s: all-zero X_PM_TMR_BLK -> legacy port 0x%llx", f[MACHINE], legacy);
	}
	if (!strcmp(f[FLEN], "129")) {
		seen[6]++;
		ODD(6, a->pm_space == ACPI_SPACE_IO && a->pm_address == legacy && a->fadt_length == 129,
		      "linuxhw %s: revision %s FADT of 129 bytes -> legacy port 0x%llx", f[MACHINE], f[FREV], legacy);
	}
}

static void test_linuxhw(void)
{
	static const char *odd[] = { "VIA-style 8-bit GAS width", "HW_REDUCED trap", "two HPET tables",
				     "junk HPET block ids", "HPET base 0xFE800000/0xFEFF0000",
				     "all-zero X_PM_TMR_BLK in revision 4", "FADT of 129 bytes" };
	int seen[7] = { 0 }, rows = 0, good = 0;
	char line[1024], *f[NCOL + 1];
	FILE *csv = fopen(DATA "/linuxhw/expected.csv", "r");

	check(csv != NULL, "linuxhw: expected.csv readable");
	if (!csv)
		return;
	if (csv_row(csv, line, f, NCOL + 1) != NCOL || strcmp(f[0], "machine"))
		check(0, "linuxhw: expected.csv header");
	for (int nf; (nf = csv_row(csv, line, f, NCOL + 1)) >= 0;) {
		struct acpi_info a;
		char pm[64], bits[8], hpet[64];
		if (nf != NCOL) {
			check(0, "linuxhw: malformed row: %.60s", line);
			continue;
		}
		rows++;
		decode_machine(f[MACHINE], &a);
		describe(&a, pm, bits, hpet);
		bool ok = !strcasecmp(pm, f[EPM]) && !strcmp(bits, f[EBITS]) && !strcasecmp(hpet, f[EHPET]) &&
			  a.have_fadt && a.bad_tables == 0 && a.hpet_tables == (unsigned)atoi(f[NHPET]) &&
			  (!a.have_hpet || a.hpet_block_id == strtoull(f[HPETID], NULL, 0));
		if (ok)
			good++;
		else
			check(0, "linuxhw %s: got %s/%s/%s (%u tables), expected %s/%s/%s (%s)", f[MACHINE],
			      pm, bits, hpet, a.hpet_tables, f[EPM], f[EBITS], f[EHPET], f[NHPET]);
		odd_cases(f, &a, seen);
	}
	fclose(csv);
	check(COND(rows > 0) && COND(good == rows), "linuxhw: %d/%d machines decode as expected", good, rows);
	for (int i = 0; i < 7; i++)
		check(COND(seen[i] > 0) && COND(!odd_bad[i]), "linuxhw: odd case '%s': %d/%d machines right", odd[i],
		      seen[i] - odd_bad[i], seen[i]);
}

/* ---- walk: RSDP -> XSDT/RSDT -> FADT/HPET over fake memory ---------------- */

static void test_walk(const char *dir, const char *name)
{
	struct fakemem m = { .n = 0 };
	struct acpi_mem mem = { fake_read, &m };
	struct acpi_info a;
	char v[64], line[512], path[512];
	unsigned long long fadt_at = 0, fadt_len;
	uint64_t rsdp = load_memmap(&m, dir, NULL);
	FILE *f;

	/* The FADT the XSDT lists ("xsdt.entry[N]=0x... -> FACP"). */
	snprintf(path, sizeof path, "%s/expected.txt", dir);
	if ((f = fopen(path, "r"))) {
		while (fgets(line, sizeof line, f))
			if (!strncmp(line, "xsdt.entry[", 11) && strstr(line, "-> FACP"))
				fadt_at = strtoull(strchr(line, '=') + 1, NULL, 0);
		fclose(f);
	}
	fadt_len = expect_num(dir, "facp_via_xsdt.length");
	if (fadt_len == ~0ull)
		fadt_len = expect_num(dir, "fadt.length");

	acpi_info_init(&a);
	check(COND(rsdp) && COND(rsdp == expect_num(dir, "rsdp.physical_address")), "%s: RSDP at 0x%llx per memmap",
	      name, (unsigned long long)rsdp);
	check(COND(acpi_walk(&mem, rsdp, &a) == 0) && COND(a.root == ACPI_ROOT_XSDT), "%s: walked the XSDT", name);
	check(COND(a.rsdp_revision == expect_num(dir, "rsdp.revision")) &&
		      COND(expect_get(dir, "rsdp.oem_id", v, sizeof v)) && COND(!strcmp(a.rsdp_oem, v)),
	      "%s: RSDP revision %u, OEM \"%s\"", name, a.rsdp_revision, a.rsdp_oem);
	check(COND(a.have_fadt) && COND(fadt_at) && COND(a.fadt_address == fadt_at) && COND(a.fadt_length == fadt_len),
	      "%s: the XSDT's FADT at 0x%llx (%llu bytes) used", name, fadt_at, fadt_len);
	check(COND(a.pm_space == ACPI_SPACE_IO) &&
		      COND(a.pm_address == expect_num(dir, "derived.linux_pm_timer_ioport")) &&
		      COND(a.pm_bits == expect_num(dir, "derived.pm_timer_counter_bits")),
	      "%s: PM timer io 0x%llx, %u-bit", name, (unsigned long long)a.pm_address, a.pm_bits);
	check(COND(a.have_hpet) && COND(a.hpet_address == expect_num(dir, "hpet.base.address")) &&
		      COND(a.hpet_block_id == expect_num(dir, "hpet.event_timer_block_id")) &&
		      COND(a.hpet_vendor == expect_num(dir, "derived.hpet.pci_vendor_id")) &&
		      COND(a.hpet_tables == expect_num(dir, "hpet.table_count")),
	      "%s: HPET 0x%llx, block id 0x%08x, vendor %04x", name, (unsigned long long)a.hpet_address,
	      a.hpet_block_id, a.hpet_vendor);
	check(COND(a.nproblems == 0) && COND(a.bad_tables == 0), "%s: no problems (%u: %s)", name, a.nproblems,
	      a.nproblems ? a.problems[0] : "");
	check(COND(strstr(json_of(&a), "\"root\":\"xsdt\"")) && COND(strstr(json_of(&a), "\"rsdp\":{\"address\":")),
	      "%s: JSON names the root and the RSDP", name);
	fakemem_release(&m);
}

/* ---- acpi_find_rsdp_bios ------------------------------------------------- */

static void test_find_rsdp(void)
{
	static uint8_t bda[256], low[0x20000], ebda[1024];
	struct fakemem m = { .n = 0 };
	struct acpi_mem mem = { fake_read, &m };
	struct acpi_info a;
	size_t len;
	uint8_t *rsdp = slurp(FWTS01 "/RSDP.bin", &len);

	check(COND(rsdp) && COND(len == 36), "find: fwts01 RSDP.bin read");
	if (!rsdp)
		return;
	place(&m, 0x400, bda, sizeof bda);
	place(&m, 0xe0000, low, sizeof low);
	acpi_info_init(&a);
	check(acpi_find_rsdp_bios(&mem, &a) == 0, "find: nothing in empty memory");

	memcpy(low + 0x17240, rsdp, 36);
	memcpy(low + 0x100, rsdp, 36);
	low[0x100 + 8] ^= 1; /* a decoy with a bad checksum, met first */
	acpi_info_init(&a);
	check(COND(acpi_find_rsdp_bios(&mem, &a) == 0xf7240) && COND(has_problem(&a, "0xe0100")),
	      "find: RSDP at 0xf7240 in the 0xE0000 area, decoy at 0xe0100 skipped");

	/* EBDA segment 0x9fc0 */
	bda[0x0e] = 0xc0;
	bda[0x0f] = 0x9f;
	place(&m, 0x9fc00, ebda, sizeof ebda);
	memcpy(ebda + 0x30, rsdp, 36);
	acpi_info_init(&a);
	check(acpi_find_rsdp_bios(&mem, &a) == 0x9fc30, "find: the EBDA copy at 0x9fc30 comes first");
	ebda[0x30 + 33] ^= 0x55; /* reserved byte: only the extended checksum breaks */
	acpi_info_init(&a);
	check(acpi_find_rsdp_bios(&mem, &a) == 0xf7240, "find: a valid RSDP beats one with a bad extended checksum");
	low[0x17240 + 8] ^= 1;
	acpi_info_init(&a);
	check(acpi_find_rsdp_bios(&mem, &a) == 0x9fc30, "find: with no valid one, the bad-extended one is returned");
	check(COND(acpi_walk(&mem, 0x9fc30, &a) < 0) && COND(has_problem(&a, "bad extended checksum")) &&
		      COND(a.have_rsdp) && COND(a.root == ACPI_ROOT_NONE) && COND(has_problem(&a, "RSDT at 0x")),
	      "find: its XSDT is not trusted, the RSDT is tried (absent here)");
	free(rsdp);
}

/* ---- corrupt/ ------------------------------------------------------------ */

static void test_corrupt(void)
{
	static const char *files[] = { "FACP_bad_checksum.bin", "HPET_bad_checksum.bin", "XSDT_bad_checksum.bin" };
	struct fakemem m = { .n = 0 };
	struct acpi_mem mem = { fake_read, &m };
	struct acpi_info a;
	char path[512];
	size_t len;
	uint8_t *t, *rsdp;

	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof path, CORRUPT "/%s", files[i]);
		t = slurp(path, &len);
		acpi_info_init(&a);
		const char *why = t ? acpi_check_table(t, len, NULL) : "missing";
		int rc = t ? acpi_decode_table(t, len, files[i], &a) : 0;
		check(COND(why) && COND(!strcmp(why, "bad checksum")) && COND(rc == ACPI_BAD) &&
			      COND(has_problem(&a, "bad checksum")) && COND(a.pm_space == ACPI_SPACE_NONE) &&
			      COND(!a.have_hpet) && COND(!a.have_fadt) && COND(a.bad_tables == 1),
		      "corrupt: %s rejected: %s", files[i], why ? why : "accepted");
		free(t);
	}

	/* Only what corrupt/ holds: its RSDP, the bad XSDT, FADT and HPET at the
	 * addresses of the same dump in fwts01's memmap.  No RSDT exists there. */
	uint64_t at_rsdp = memmap_addr(FWTS01, "RSDP_1.bin"), at_xsdt = memmap_addr(FWTS01, "XSDT_1.bin");
	uint64_t at_fadt = memmap_addr(FWTS01, "FACP_2.bin"), at_hpet = memmap_addr(FWTS01, "HPET_1.bin");
	uint64_t at_rsdt = memmap_addr(FWTS01, "RSDT_1.bin");
	char xsdt_bad[64], rsdt_gone[64], fadt_bad[64], hpet_bad[64];

	rsdp = slurp(CORRUPT "/RSDP.bin", &len);
	check(COND(rsdp) && COND(len == 36) && COND(at_rsdp) && COND(at_xsdt) && COND(at_fadt) && COND(at_hpet) &&
		      COND(at_rsdt),
	      "corrupt: RSDP.bin read, fwts01 addresses known");
	if (!rsdp)
		return;
	snprintf(xsdt_bad, sizeof xsdt_bad, "XSDT at 0x%llx: bad checksum", (unsigned long long)at_xsdt);
	snprintf(rsdt_gone, sizeof rsdt_gone, "RSDT at 0x%llx: unreadable", (unsigned long long)at_rsdt);
	snprintf(fadt_bad, sizeof fadt_bad, "FADT at 0x%llx: bad checksum, ignored", (unsigned long long)at_fadt);
	snprintf(hpet_bad, sizeof hpet_bad, "HPET table at 0x%llx: bad checksum, ignored", (unsigned long long)at_hpet);
	place(&m, at_rsdp, rsdp, len);
	place_file(&m, at_xsdt, CORRUPT "/XSDT_bad_checksum.bin");
	place_file(&m, at_fadt, CORRUPT "/FACP_bad_checksum.bin");
	place_file(&m, at_hpet, CORRUPT "/HPET_bad_checksum.bin");
	acpi_info_init(&a);
	check(COND(acpi_walk(&mem, at_rsdp, &a) < 0) && COND(a.root == ACPI_ROOT_NONE) && COND(a.have_rsdp) &&
		      COND(has_problem(&a, xsdt_bad)) && COND(has_problem(&a, rsdt_gone)) &&
		      COND(a.pm_space == ACPI_SPACE_NONE) && COND(!a.have_hpet),
	      "corrupt: bad XSDT and no RSDT -> no tables, said so");
	check(COND(strstr(json_of(&a), "\"pm_timer\":null")) && COND(strstr(json_of(&a), "\"hpet\":null")) &&
		      COND(strstr(json_of(&a), "\"root\":null")),
	      "corrupt: JSON has null pm_timer, hpet, root");

	/* The whole fwts01 memory with the bad XSDT over the good one: RSDT wins. */
	fakemem_release(&m);
	load_memmap(&m, FWTS01, NULL);
	place_file(&m, at_xsdt, CORRUPT "/XSDT_bad_checksum.bin");
	acpi_info_init(&a);
	check(COND(acpi_walk(&mem, at_rsdp, &a) == 0) && COND(a.root == ACPI_ROOT_RSDT) &&
		      COND(has_problem(&a, "using the RSDT")) && COND(a.have_fadt) &&
		      COND(a.fadt_address == memmap_addr(FWTS01, "FACP_1.bin")) &&
		      COND(a.fadt_length == expect_num(FWTS01, "facp_via_rsdt.length")) &&
		      COND(a.pm_address == expect_num(FWTS01, "facp_via_rsdt.pm_tmr_blk")) && COND(a.pm_bits == 24) &&
		      COND(a.have_hpet),
	      "corrupt: bad XSDT -> fell back to the RSDT and the FADT it lists");

	/* A good XSDT listing the bad FADT and HPET: both refused, walk completes. */
	fakemem_release(&m);
	load_memmap(&m, FWTS01, NULL);
	place_file(&m, at_fadt, CORRUPT "/FACP_bad_checksum.bin");
	place_file(&m, at_hpet, CORRUPT "/HPET_bad_checksum.bin");
	acpi_info_init(&a);
	check(COND(acpi_walk(&mem, at_rsdp, &a) == 0) && COND(a.root == ACPI_ROOT_XSDT) && COND(a.bad_tables == 2) &&
		      COND(has_problem(&a, fadt_bad)) && COND(has_problem(&a, hpet_bad)) && COND(!a.have_fadt) &&
		      COND(!a.have_hpet) && COND(a.hpet_tables == 1),
	      "corrupt: bad FADT and HPET listed by a good XSDT refused");
	fakemem_release(&m);
	free(rsdp);
}

/* ---- tickprobe acpi ------------------------------------------------------- */

/* The first machine of expected.csv whose row satisfies want(). */
static bool pick(bool (*want)(char **), char *line, char **f)
{
	FILE *csv = fopen(DATA "/linuxhw/expected.csv", "r");
	bool found = false;

	if (!csv)
		return false;
	for (int nf; !found && (nf = csv_row(csv, line, f, NCOL + 1)) >= 0;)
		found = nf == NCOL && want(f);
	fclose(csv);
	return found;
}

static bool want_trap(char **f) { return !strcmp(f[HWRED], "1") && strtoull(f[PMBLK], NULL, 0); }
static bool want_two(char **f) { return !strcmp(f[NHPET], "2"); }
static bool want_none(char **f) { return !strcmp(f[NHPET], "0"); }
static bool want_32(char **f) { return !strcmp(f[EBITS], "32"); }

/* A table file whose name carries a terminal escape: the problem that
 * names it shows the name escaped (tools/lib/textsafe.h), never raw. */
static void hostile_name(char *out, size_t cap)
{
	char dir[] = "/tmp/tickprobe-acpi.XXXXXX", file[128];
	FILE *t;
	int rc;

	if (!mkdtemp(dir)) {
		check(0, "cli: no temporary directory");
		return;
	}
	snprintf(file, sizeof file, "%s/FACP\x1b]0;PWNED\a", dir);
	if ((t = fopen(file, "wb"))) {
		fputs("FACP", t);
		fclose(t);
	}
	rc = run(dir, out, cap);
	check(COND(rc == 3) && COND(!strchr(out, 0x1b)) && COND(!strchr(out, 0x07)) &&
		      COND(strstr(out, "FACP\\x1b]0;PWNED\\x07: truncated")),
	      "cli: a table file named with an escape sequence: the name shown escaped, exit %d", rc);
	remove(file);
	rmdir(dir);
}

static void test_cli(void)
{
	static bool (*const wants[])(char **) = { want_trap, want_two, want_none, want_32 };
	static char out[16384];
	char line[1024], *f[NCOL + 1], args[600], pm[160], hp[160];

	check(access(tool, X_OK) == 0, "cli: %s built", tool);
	for (unsigned i = 0; i < sizeof wants / sizeof wants[0]; i++) {
		if (!pick(wants[i], line, f)) {
			check(0, "cli: no linuxhw machine for case %u", i);
			continue;
		}
		if (!strcmp(f[EPM], "none"))
			snprintf(pm, sizeof pm, "\"pm_timer\":null");
		else
			snprintf(pm, sizeof pm, "\"pm_timer\":{\"space\":\"io\",\"address\":%llu,\"bits\":%s}",
				 strtoull(f[EPM] + 3, NULL, 16), f[EBITS]);
		if (!strcmp(f[EHPET], "none"))
			snprintf(hp, sizeof hp, "\"hpet\":null");
		else
			snprintf(hp, sizeof hp, "\"hpet\":{\"address\":%llu,\"block_id\":%llu,",
				 strtoull(f[EHPET] + 4, NULL, 16), strtoull(f[HPETID], NULL, 0));
		snprintf(args, sizeof args, "--json " DATA "/linuxhw/%s", f[MACHINE]);
		int rc = run(args, out, sizeof out);
		check(COND(rc == 0) && COND(strstr(out, pm)) && COND(strstr(out, hp)) &&
			      COND(strstr(out, "\"problems\":[")),
		      "cli: acpi --json %s -> exit %d, %s, %s", f[MACHINE], rc, pm, hp);
	}
	snprintf(args, sizeof args, DATA "/linuxhw/%s/FACP.bin " DATA "/linuxhw/%s/HPET.bin", f[MACHINE], f[MACHINE]);
	check(COND(run(args, out, sizeof out) == 0) && COND(strstr(out, "PM timer: io ")) &&
		      COND(strstr(out, "HPET: 0x")),
	      "cli: acpi FACP.bin HPET.bin -> human summary");
	int rc = run("--json " CORRUPT, out, sizeof out);
	check(COND(rc == 3) && COND(strstr(out, "\"pm_timer\":null")) && COND(strstr(out, "\"hpet\":null")) &&
		      COND(strstr(out, "FACP_bad_checksum.bin: bad checksum")),
	      "cli: acpi --json corrupt/ -> exit %d, damage said", rc);
	check(run(DATA "/no/such/dir", out, sizeof out) == 2, "cli: missing path -> exit 2");
	hostile_name(out, sizeof out);
	check(run("--bogus", out, sizeof out) == 1, "cli: unknown option -> exit 1");
	check(COND(run("--help", out, sizeof out) == 0) && COND(strstr(out, "usage: tickprobe acpi")),
	      "cli: --help -> exit 0");
}

int main(int argc, char **argv)
{
	tool_locate(argc ? argv[0] : NULL);

	test_linuxhw();
	test_walk(FWTS01, "walk fwts01");
	test_walk(LHW03, "walk lhw03");
	test_find_rsdp();
	test_corrupt();
	test_cli();
	return check_done();
}
