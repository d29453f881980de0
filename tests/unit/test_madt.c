/* SPDX-License-Identifier: BSD-2-Clause */
/* acpi/acpi_madt.c against real tables: the MADT of 654 linuxhw machines
 * (every column of expected_madt.csv), the two whole table sets walked from
 * the RSDP, hand-made hostile tables, and `tickprobe acpi`'s MADT output. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "check.h"
#include "acpi_fixture.h"
#include "acpi/acpi.h"
#include "lib/json.h"

#define FWTS01 DATA "/walk/fwts01_lenovo_thinkpad_crestline"
#define LHW03 DATA "/walk/lhw03_toshiba_satellite_c70d-b"
#define LHW DATA "/linuxhw"

enum { MACHINE, REV, LEN, OEM, LAPIC, PCAT, NLAPIC, NX2APIC, NENABLED, NONLINE, NIOAPIC, IDS,
       PROBLEMS, NMADT, OTHER, NCOL };
static const char *const column[NCOL] = { "machine", "madt_rev", "madt_len", "oem", "lapic_addr",
	"pcat_compat", "n_lapic", "n_x2apic", "n_enabled", "n_online_capable", "n_ioapic", "apic_ids",
	"problems", "n_madt", "other_types" };

/* The enabled CPUs of the list, as expected_madt.csv writes them. */
static void enabled_ids(const struct acpi_madt *d, char *s, size_t cap)
{
	size_t n = 0;
	s[0] = 0;
	for (unsigned i = 0; i < d->ncpus && n < cap; i++)
		if (d->cpus[i].enabled)
			n += (size_t)snprintf(s + n, cap - n, "%s%u", n ? " " : "", d->cpus[i].apic_id);
}

static void undefined_types(const struct acpi_madt *d, char *s, size_t cap)
{
	size_t n = 0;
	s[0] = 0;
	for (unsigned i = 0; i < d->undefined_kinds && n < cap; i++)
		n += (size_t)snprintf(s + n, cap - n, "%s0x%02X:%u", n ? " " : "", d->undefined_type[i],
				      d->undefined_count[i]);
}

static bool same_cpus(const struct acpi_madt *x, const struct acpi_madt *y)
{
	if (x->ncpus != y->ncpus)
		return false;
	for (unsigned i = 0; i < x->ncpus; i++) {
		const struct madt_cpu *a = &x->cpus[i], *b = &y->cpus[i];
		if (a->apic_id != b->apic_id || a->uid != b->uid || a->enabled != b->enabled ||
		    a->online_capable != b->online_capable || a->x2apic != b->x2apic)
			return false;
	}
	return true;
}

static bool decode_file(const char *machine, const char *file, struct acpi_info *a)
{
	char path[512];
	size_t len;
	uint8_t *t;

	snprintf(path, sizeof path, LHW "/%s/%s", machine, file);
	if (!(t = slurp(path, &len)))
		return false;
	acpi_decode_table(t, len, NULL, a); /* the signature picks the MADT decoder */
	free(t);
	return true;
}

/* Which column of the row disagrees with the decoded MADT (NCOL: none). */
static int first_mismatch(char **f, const struct acpi_madt *d, unsigned problems_after_first)
{
	char ids[2048], other[128];
	unsigned long long v[NCOL];

	for (int c = REV; c < NCOL; c++)
		v[c] = strtoull(f[c], NULL, 0);
	enabled_ids(d, ids, sizeof ids);
	undefined_types(d, other, sizeof other);
	if (!d->present) return MACHINE;
	if (v[REV] != d->revision) return REV;
	if (v[LEN] != d->length) return LEN;
	if (strcmp(f[OEM], d->oem)) return OEM;
	if (v[LAPIC] != d->lapic_address) return LAPIC;
	if (v[PCAT] != d->pcat_compat) return PCAT;
	if (v[NLAPIC] != d->count[MADT_LOCAL_APIC]) return NLAPIC;
	if (v[NX2APIC] != d->count[MADT_LOCAL_X2APIC]) return NX2APIC;
	if (v[NENABLED] != d->enabled) return NENABLED;
	if (v[NONLINE] != d->online_capable) return NONLINE;
	if (v[NIOAPIC] != d->count[MADT_IO_APIC] || d->nioapics != d->count[MADT_IO_APIC]) return NIOAPIC;
	if (strcmp(f[IDS], ids) || d->ncpus != d->enabled + d->online_capable) return IDS;
	if (!f[PROBLEMS][0] != !problems_after_first) return PROBLEMS;
	if (v[NMADT] != d->tables) return NMADT;
	if (strcasecmp(f[OTHER], other) || d->other_defined) return OTHER;
	return NCOL;
}

static void test_linuxhw(void)
{
	char line[1024], *f[NCOL + 1];
	int rows = 0, good = 0, x2only = 0, both = 0, undefined = 0, two = 0;
	FILE *csv = fopen(LHW "/expected_madt.csv", "r");

	check(csv != NULL, "linuxhw: expected_madt.csv readable");
	if (!csv)
		return;
	if (csv_row(csv, line, f, NCOL + 1) != NCOL || strcmp(f[0], "machine") || strcmp(f[OTHER], "other_types"))
		check(0, "linuxhw: expected_madt.csv header");
	for (int nf; (nf = csv_row(csv, line, f, NCOL + 1)) >= 0;) {
		struct acpi_info a;
		unsigned first;
		int bad;

		if (nf != NCOL) {
			check(0, "linuxhw: malformed row: %.60s", line);
			continue;
		}
		rows++;
		acpi_info_init(&a);
		if (!decode_file(f[MACHINE], "APIC.bin", &a)) {
			check(0, "linuxhw %s: APIC.bin unreadable", f[MACHINE]);
			continue;
		}
		first = a.madt.problems + a.nproblems + a.bad_tables;
		decode_file(f[MACHINE], "APIC2.bin", &a);
		bad = first_mismatch(f, &a.madt, first);
		if (bad == NCOL && a.bad_tables == 0)
			good++;
		else
			check(0, "linuxhw %s: column %s is \"%s\", decoded otherwise (%s)", f[MACHINE], column[bad],
			      bad == NCOL ? "" : f[bad], a.nproblems ? a.problems[0] : "no problem noted");
		x2only += a.madt.count[MADT_LOCAL_X2APIC] && !a.madt.count[MADT_LOCAL_APIC] && bad == NCOL;
		both += a.madt.count[MADT_LOCAL_X2APIC] && a.madt.count[MADT_LOCAL_APIC] && bad == NCOL;
		undefined += f[OTHER][0] && bad == NCOL;
		two += a.madt.tables == 2 && bad == NCOL;
	}
	fclose(csv);
	check(COND(rows == 654) && COND(good == rows), "linuxhw: %d/%d MADTs decode as expected, every column", good,
	      rows);
	check(COND(x2only == 7) && COND(both == 3) && COND(undefined == 4) && COND(two == 4),
	      "linuxhw: right among them: %d x2APIC-only, %d with type 0 and 9, %d with undefined types, "
	      "%d firmwares with two MADTs",
	      x2only, both, undefined, two);

	/* A few of the README's odd machines, field by field. */
	struct acpi_info a;
	acpi_info_init(&a);
	decode_file("desktop_evga_4B645993A72D", "APIC.bin", &a);
	check(COND(a.madt.enabled == 20) && COND(a.madt.disabled == 36 + 56) && COND(a.madt.x2apic_enabled == 0) &&
		      COND(a.madt.undefined == 28) && COND(a.madt.ncpus == 20) && COND(a.madt.nioapics == 5) &&
		      COND(a.madt.ioapics[1].address == 0xfec01000) && COND(a.madt.ioapics[1].gsi_base == 24) &&
		      COND(!a.nproblems),
	      "linuxhw evga: 20 enabled of 112 processor entries, 56 disabled x2APIC 0xFFFFFFFF, 28 type 0x7F skipped");
	acpi_info_init(&a);
	decode_file("server_dell_E5985CCBA349", "APIC.bin", &a);
	check(COND(a.madt.enabled == 80) && COND(a.madt.ncpus == 80) && COND(a.madt.count[MADT_LOCAL_APIC] == 96),
	      "linuxhw server_dell: 80 enabled CPUs of 96 entries, all listed");
	acpi_info_init(&a);
	decode_file("notebook_acer_4F660A23E929", "APIC.bin", &a);
	decode_file("notebook_acer_4F660A23E929", "APIC2.bin", &a);
	check(COND(a.madt.tables == 2) && COND(a.madt.length == 90) && COND(a.madt.ncpus == 1) && COND(!a.nproblems),
	      "linuxhw acer: two MADTs, the first (90 bytes) used; the second's extra CPU is disabled: no note");
}

/* ---- the walk: MADTs found through the RSDT/XSDT in a fake memory ---------- */

static void test_walk(const char *dir, const char *name, unsigned tables, unsigned cpus)
{
	struct fakemem m = { .n = 0 };
	struct acpi_mem mem = { fake_read, &m };
	struct acpi_info a, f;
	char path[512];
	uint64_t rsdp = load_memmap(&m, dir, NULL), at = memmap_addr(dir, "APIC_1.bin");
	size_t len;
	uint8_t *t;

	acpi_info_init(&a);
	int rc = acpi_walk(&mem, rsdp, &a);
	check(COND(rc == 0) && COND(a.madt.present) && COND(a.madt.address_known) && COND(a.madt.address == at) &&
		      COND(a.madt.tables == tables) && COND(a.madt.enabled == cpus) && COND(!a.nproblems),
	      "%s: MADT at 0x%llx walked in place, %u CPUs, %u MADTs listed, no problems", name, (unsigned long long)at,
	      a.madt.enabled, a.madt.tables);
	snprintf(path, sizeof path, "%s/memory/APIC_1.bin", dir);
	acpi_info_init(&f);
	t = slurp(path, &len);
	check(COND(t) && COND(acpi_decode_madt(t, len, &f) == ACPI_USED) && COND(same_cpus(&f.madt, &a.madt)) &&
		      COND(f.madt.entries == a.madt.entries) && COND(f.madt.fingerprint == a.madt.fingerprint),
	      "%s: in memory and from the file, the same MADT", name);
	check(COND(strstr(json_of(&a), "\"madt\":{\"address\":")) && COND(strstr(json_of(&a), "\"tables\":")) &&
		      COND(!strstr(json_of(&a), "\"apic_id\"")),
	      "%s: the acpi record has the madt summary, not the CPU list", name);
	free(t);
	fakemem_release(&m);
}

/* ---- hand-made tables ----------------------------------------------------- */

static uint8_t tb[16384];
static size_t tlen;

static void begin(uint8_t rev)
{
	memset(tb, 0, sizeof tb);
	put32(tb + 36, 0xfee00000);
	put32(tb + 40, 1);
	tb[8] = rev;
	tlen = 44;
}

/* One entry of a hand-made MADT: its bytes, well formed or not. */
struct entry {
	uint8_t b[16];
	size_t n;
};

static void append(struct entry e)
{
	memcpy(tb + tlen, e.b, e.n);
	tlen += e.n;
}

static void end(void)
{
	seal(tb, "APIC", (uint32_t)tlen, tb[8]);
}

/* The whole table in tb: begin()'s header, the entries in order, sealed.
 * MADT(rev, entry, ...) writes the entries out in place. */
static void build(uint8_t rev, const struct entry *e, size_t n)
{
	begin(rev);
	for (size_t i = 0; i < n; i++)
		append(e[i]);
	end();
}

#define MADT(rev, ...) \
	build(rev, (const struct entry[]){ __VA_ARGS__ }, \
	      sizeof((const struct entry[]){ __VA_ARGS__ }) / sizeof(struct entry))

static struct entry raw(const uint8_t *b, size_t n)
{
	struct entry e = { .n = n };
	if (n > sizeof e.b)
		abort(); /* a longer entry needs a larger struct entry */
	memcpy(e.b, b, n);
	return e;
}

static struct entry lapic(uint8_t id, uint8_t uid, uint32_t flags)
{
	struct entry e = { { 0, 8, uid, id }, 8 };
	put32(e.b + 4, flags);
	return e;
}

static struct entry x2apic(uint32_t id, uint32_t uid, uint32_t flags)
{
	struct entry e = { { 9, 16 }, 16 };
	put32(e.b + 4, id);
	put32(e.b + 8, flags);
	put32(e.b + 12, uid);
	return e;
}

static struct entry ioapic(uint8_t id, uint32_t addr, uint32_t gsi)
{
	struct entry e = { { 1, 12, id }, 12 };
	put32(e.b + 4, addr);
	put32(e.b + 8, gsi);
	return e;
}

static struct entry override(uint64_t addr)
{
	struct entry e = { { 5, 12 }, 12 };
	put64(e.b + 4, addr);
	return e;
}

static struct acpi_info a;
#define NOTED(s) has_problem(&a, s)

/* The table in tb, its first n bytes, decoded afresh into a. */
static int decode(size_t n)
{
	acpi_info_init(&a);
	return acpi_decode_madt(tb, n, &a);
}

static void test_hostile(void)
{
	static const uint8_t iso[10] = { 2, 10, 0, 0, 2 }, nmi[6] = { 4, 6, 0xff, 5, 0, 1 };
	static const uint8_t x2nmi[12] = { 10, 12, 5 }, oem[5] = { 0x80, 5, 1, 2, 3 };

	MADT(3, lapic(0, 0, 1), lapic(1, 1, 1), ioapic(2, 0xfec00000, 0), raw(iso, 10), raw(nmi, 6), raw(x2nmi, 12),
	     raw(oem, 5), lapic(2, 2, 1));
	check(COND(decode(tlen) == ACPI_USED) && COND(a.madt.enabled == 3) && COND(a.madt.count[2] == 1) &&
		      COND(a.madt.count[4] == 1) && COND(a.madt.count[10] == 1) && COND(a.madt.undefined == 1) &&
		      COND(a.madt.undefined_type[0] == 0x80) && COND(a.madt.cpus[2].apic_id == 2) && COND(!a.nproblems),
	      "hostile: types 2, 4, 10 counted, an OEM type 0x80 skipped by its length, the CPU after it read");

	MADT(3, lapic(0, 0, 1), raw((const uint8_t[]){ 0, 6, 1, 1, 1, 0 }, 6), lapic(2, 2, 1));
	check(COND(decode(tlen) == ACPI_USED) && COND(a.madt.ncpus == 2) && COND(a.madt.count[0] == 3) &&
		      COND(a.madt.problems == 1) &&
		      COND(NOTED("entry 1 (type 0) at offset 52: length 6, not the spec's 8; skipped")),
	      "hostile: a 6-byte type 0 entry is counted, reported and not used; the walk goes on");
	MADT(3, lapic(0, 0, 1), raw((const uint8_t[]){ 9, 12, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0 }, 12));
	check(COND(decode(tlen) == ACPI_USED) && COND(a.madt.ncpus == 1) && COND(NOTED("length 12, not the spec's 16")),
	      "hostile: a 12-byte x2APIC entry is refused");

	MADT(3, lapic(0, 0, 1), raw((const uint8_t[]){ 0, 0, 0, 0, 0, 0, 0, 0 }, 8), lapic(1, 1, 1));
	check(COND(decode(tlen) == ACPI_USED) && COND(a.madt.ncpus == 1) && COND(a.madt.entries == 1) &&
		      COND(NOTED("entry 1 (type 0) at offset 52: length 0 below 2; walk stopped")),
	      "hostile: a zero-length entry stops the walk (no endless loop), reported");
	MADT(3, lapic(0, 0, 1), raw((const uint8_t[]){ 1, 1 }, 2));
	check(COND(decode(tlen) == ACPI_USED) && COND(NOTED("length 1 below 2")),
	      "hostile: a one-byte entry stops the walk");
	MADT(3, lapic(0, 0, 1), raw((const uint8_t[]){ 9, 16, 0, 0, 1 }, 5));
	check(COND(decode(tlen) == ACPI_USED) && COND(a.madt.ncpus == 1) && COND(a.madt.count[9] == 0) &&
		      COND(NOTED("entry 1 (type 9) at offset 52: length 16 runs past the table end; walk stopped")),
	      "hostile: an entry running past the table end is not read");
	MADT(3, lapic(0, 0, 1), raw((const uint8_t[]){ 0 }, 1));
	check(COND(decode(tlen) == ACPI_USED) && COND(NOTED("1 trailing byte after the last entry")),
	      "hostile: a trailing byte noted");
	MADT(3, lapic(0, 0, 1));
	check(COND(decode(tlen + 12) == ACPI_USED) && COND(NOTED("12 bytes past its Length 52; ignored")) &&
		      COND(a.madt.ncpus == 1),
	      "hostile: a file 12 bytes longer than the Length: noted, the extra bytes not walked");
	check(COND(decode(tlen - 1) == ACPI_BAD) && COND(!a.madt.present) &&
		      COND(!strcmp(a.madt.none, "table damaged")) && COND(NOTED("Length beyond the bytes present")),
	      "hostile: a file shorter than the Length is refused");
	tb[20] ^= 0x40;
	check(COND(decode(tlen) == ACPI_BAD) && COND(!a.madt.present) && COND(a.bad_tables == 1) &&
		      COND(a.madt.tables == 1) && COND(NOTED("MADT: bad checksum, ignored")) &&
		      COND(strstr(json_of(&a), "\"madt\":null")),
	      "hostile: a bad checksum -> refused, madt null in the record");
	begin(3);
	end();
	seal(tb, "APIC", 40, 3);
	check(COND(decode(40) == ACPI_BAD) && COND(NOTED("Length 40 too short")), "hostile: a 40-byte MADT is refused");
	begin(3);
	end();
	check(COND(decode(tlen) == ACPI_USED) && COND(a.madt.entries == 0) && COND(NOTED("no enabled CPU")),
	      "hostile: a MADT with no entries: used, 'no enabled CPU' noted");

	MADT(4, lapic(0, 0, 1), override(0x1fee00000ull), override(0x2fee00000ull), override(0));
	check(COND(decode(tlen) == ACPI_USED) && COND(a.madt.lapic_override) &&
		      COND(a.madt.lapic_address == 0x1fee00000ull) && COND(a.madt.lapic_address32 == 0xfee00000) &&
		      COND(NOTED("a second Local APIC Address Override (0x2fee00000)")) &&
		      COND(NOTED("Override of 0")) && COND(strstr(json_of(&a), "\"lapic_address\":8571060224,")),
	      "hostile: a type 5 override replaces the 32-bit address; a second one and a zero one noted");

	MADT(5, lapic(0, 0, 1), lapic(1, 1, 2), x2apic(300, 7, 2), lapic(2, 2, 0), lapic(3, 3, 3));
	check(COND(decode(tlen) == ACPI_USED) && COND(a.madt.enabled == 2) && COND(a.madt.online_capable == 2) &&
		      COND(a.madt.disabled == 1) && COND(a.madt.ncpus == 4) && COND(!a.nproblems),
	      "hostile: online-capable entries listed as such, disabled ones not");
	check(COND(a.madt.cpus[1].online_capable) && COND(!a.madt.cpus[1].enabled) && COND(a.madt.cpus[3].enabled) &&
		      COND(!a.madt.cpus[3].online_capable),
	      "hostile: Enabled wins over both bits; Online Capable alone is not enabled");
	check(COND(a.madt.cpus[2].x2apic) && COND(a.madt.cpus[2].apic_id == 300) && COND(a.madt.cpus[2].uid == 7),
	      "hostile: an online-capable x2APIC entry keeps its ID and UID");
	check(strstr(json_of(&a), "\"cpus\":2,\"online_capable\":2,\"disabled\":1,") != NULL,
	      "hostile: the JSON counts the enabled, online-capable and disabled entries");

	MADT(3, lapic(1, 0, 1), lapic(1, 1, 0), lapic(1, 2, 1), x2apic(1, 3, 1), x2apic(500, 4, 1), x2apic(500, 5, 1),
	     lapic(0xff, 6, 1));
	check(COND(decode(tlen) == ACPI_USED) && COND(a.madt.enabled == 6) && COND(a.madt.duplicates == 3) &&
		      COND(a.madt.broadcast == 1) && COND(a.madt.ncpus == 2) && COND(a.madt.cpus[0].apic_id == 1) &&
		      COND(a.madt.cpus[1].apic_id == 500),
	      "hostile: duplicate enabled IDs and ID 0xFF counted, not listed");
	check(COND(NOTED("entry 2: APIC ID 1 enabled again")) && COND(NOTED("entry 3: APIC ID 1 enabled again")) &&
		      COND(NOTED("entry 5: APIC ID 500 enabled again")) && COND(!NOTED("entry 1:")),
	      "hostile: each enabled repeat of an ID noted, also across types 0/9; a disabled repeat is not");
	check(NOTED("APIC ID 0xff, the broadcast ID"), "hostile: ID 0xFF noted as the broadcast ID");
}

/* 300 x2APIC CPUs: 4844 bytes, more than the walk's 4 KiB scratch. */
static void test_hostile_many_cpus(void)
{
	begin(4);
	for (uint32_t i = 0; i < 300; i++)
		append(x2apic(0x100 + i, i, 1));
	end();
	check(COND(decode(tlen) == ACPI_USED) && COND(a.madt.enabled == 300) && COND(a.madt.ncpus == MADT_MAX_CPUS) &&
		      COND(a.madt.cpus_dropped == 44) && COND(a.madt.cpus[255].apic_id == 0x1ff) &&
		      COND(a.madt.x2apic_enabled == 300) && COND(NOTED("44 usable CPU entries past the 256 listed")),
	      "hostile: 300 enabled CPUs -> 256 listed in order, 44 counted as not kept, noted");
	begin(5);
	for (uint32_t i = 0; i < 300; i++)
		append(x2apic(i, i, i < 100 ? 2 : 1));
	end();
	int rc = decode(tlen);
	bool order = true;
	for (unsigned i = 0; i < 56; i++)
		order &= a.madt.cpus[i].apic_id == i && a.madt.cpus[i].online_capable;
	for (unsigned i = 56; i < 256; i++)
		order &= a.madt.cpus[i].apic_id == 100 + (i - 56) && a.madt.cpus[i].enabled;
	check(COND(rc == ACPI_USED) && COND(a.madt.ncpus == 256) && COND(a.madt.enabled == 200) && COND(order) &&
		      COND(a.madt.cpus_dropped == 44),
	      "hostile: 100 online-capable then 200 enabled -> all 200 enabled kept, "
	      "56 online-capable, table order");

	/* The 300-CPU table through a walk: RSDP -> RSDT -> MADT in fake memory. */
	static uint8_t p[20], rsdt[40];
	struct fakemem m = { .n = 0 };
	struct acpi_mem mem = { fake_read, &m };
	uint8_t sum = 0;
	memcpy(p, "RSD PTR ", 8);
	put32(p + 16, 0x2000);
	for (int i = 0; i < 20; i++)
		sum += p[i];
	p[8] = -sum; /* revision 0: the 20-byte checksum only */
	put32(rsdt + 36, 0x10000);
	seal(rsdt, "RSDT", 40, 1);
	place(&m, 0xe0000, p, 20);
	place(&m, 0x2000, rsdt, 40);
	place(&m, 0x10000, tb, tlen);
	acpi_info_init(&a);
	check(COND(acpi_walk(&mem, 0xe0000, &a) == 0) && COND(a.madt.present) && COND(a.madt.address == 0x10000) &&
		      COND(a.madt.length == 4844) && COND(a.madt.ncpus == 256) && COND(a.madt.enabled == 200),
	      "hostile: the 4844-byte MADT walked in place from the RSDT, all of it read");
}

/* Two MADTs: the second is compared by CPUs and local APIC address. */
static void test_hostile_two_madts(void)
{
	MADT(3, lapic(0, 0, 1), lapic(1, 1, 1), ioapic(1, 0xfec00000, 0));
	acpi_info_init(&a);
	acpi_decode_madt(tb, tlen, &a);
	MADT(1, lapic(0, 0, 1), lapic(1, 1, 1), lapic(2, 2, 0), ioapic(2, 0xfec00000, 0));
	check(COND(acpi_decode_madt(tb, tlen, &a) == ACPI_USED) && COND(a.madt.tables == 2) &&
		      COND(a.madt.revision == 3) && COND(!a.nproblems),
	      "hostile: a second MADT with the same CPUs: counted, not noted, the first kept");
	MADT(1, lapic(0, 0, 1), lapic(2, 1, 1));
	check(COND(acpi_decode_madt(tb, tlen, &a) == ACPI_USED) && COND(a.madt.tables == 3) &&
		      COND(NOTED("MADT: a second MADT with other CPUs")) && COND(a.madt.ncpus == 2) &&
		      COND(a.madt.cpus[1].apic_id == 1),
	      "hostile: a MADT with other CPUs: noted, not used");
	char text[512];
	acpi_summary(&a, text, sizeof text);
	check(strstr(text, "MADT: 2 CPUs, 1 I/O APIC, local APIC 0xfee00000, first of 3 MADTs\n") != NULL,
	      "hostile: summary line: %s", strstr(text, "MADT") ? strstr(text, "MADT") : text);
	MADT(5, x2apic(0, 0, 1), x2apic(1, 1, 2), x2apic(2, 2, 2), ioapic(1, 0xfec00000, 0), ioapic(2, 0xfec01000, 24));
	decode(tlen);
	acpi_summary(&a, text, sizeof text);
	check(strstr(text, "MADT: 1 CPU (1 x2APIC) + 2 online-capable, 2 I/O APICs, local APIC 0xfee00000\n") != NULL,
	      "hostile: summary line: %s", strstr(text, "MADT") ? strstr(text, "MADT") : text);
}

/* ---- tickprobe acpi --------------------------------------------------------- */

static void test_cli(void)
{
	static char out[65536];
	int rc;

	rc = run("--json " LHW "/convertible_samsung-electronics_85CAC5E8B9EA", out, sizeof out);
	check(COND(rc == 0) && COND(strstr(out, "\"madt\":{\"address\":null,\"revision\":5,")) &&
		      COND(strstr(out, "\"cpus\":[{\"apic_id\":0,\"uid\":")) && COND(strstr(out, "{\"apic_id\":70,")) &&
		      COND(strstr(out, "\"x2apic\":true}]")) && COND(strstr(out, "\"ioapics\":[{\"id\":")),
	      "cli: acpi --json on an x2APIC-only machine -> madt summary, cpus and ioapics lists (exit %d)", rc);
	rc = run(LHW "/server_dell_E5985CCBA349", out, sizeof out);
	check(COND(rc == 0) && COND(strstr(out, "MADT: 80 CPUs, 5 I/O APICs")) &&
		      COND(strstr(out, "CPUs: 80 listed")) && COND(strstr(out, "\n    79 ")),
	      "cli: acpi DIR -> the MADT line and 80 CPU rows (exit %d)", rc);
	rc = run(LHW "/notebook_acer_4F660A23E929/APIC2.bin", out, sizeof out);
	check(COND(rc == 0) && COND(strstr(out, "MADT: revision 1, 104 bytes, OEM \"INTEL\"")),
	      "cli: acpi APIC2.bin -> that one table decoded (exit %d)", rc);
}

int main(int argc, char **argv)
{
	tool_locate(argc ? argv[0] : NULL);
	test_linuxhw();
	test_walk(FWTS01, "walk fwts01", 2, 2);
	test_walk(LHW03, "walk lhw03", 1, 4);
	test_hostile();
	test_hostile_many_cpus();
	test_hostile_two_madts();
	test_cli();
	return check_done();
}
