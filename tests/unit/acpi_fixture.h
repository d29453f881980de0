/* SPDX-License-Identifier: BSD-2-Clause */
/* What the ACPI unit tests share: reading the real tables of tests/data/acpi,
 * a fake physical memory to lay them out in, the CSV of expected values,
 * sealing hand-made tables, and running `tickprobe acpi`.  Include it once per
 * test program, after check.h. */
#ifndef TESTS_ACPI_FIXTURE_H
#define TESTS_ACPI_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include "acpi/acpi.h"
#include "lib/json.h"
#include "probe/records_run.h"

#define DATA "tests/data/acpi"

/* Each program uses a part of these. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		b = malloc((size_t)n + 1);
		if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
			free(b);
			b = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return b;
}

static bool has_problem(const struct acpi_info *a, const char *s)
{
	for (unsigned i = 0; i < a->nproblems; i++)
		if (strstr(a->problems[i], s))
			return true;
	return false;
}

static const char *json_of(const struct acpi_info *a)
{
	static char buf[8192];
	struct json j;
	json_init(&j, buf, sizeof buf);
	json_object_begin(&j, NULL);
	write_acpi(put_acpi_body(&j), a);
	json_object_end(&j);
	return j.overflow ? "overflow" : buf;
}

/* ---- fake physical memory: later regions hide earlier ones ---------------- */

struct region { uint64_t addr; size_t len; uint8_t *data; bool owned; };
struct fakemem { struct region r[64]; int n; };

static int fake_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct fakemem *m = ctx;
	for (int i = m->n - 1; i >= 0; i--)
		if (addr >= m->r[i].addr && addr + len <= m->r[i].addr + m->r[i].len) {
			memcpy(buf, m->r[i].data + (addr - m->r[i].addr), len);
			return 0;
		}
	return -1;
}

static void place(struct fakemem *m, uint64_t addr, uint8_t *data, size_t len)
{
	if (m->n < 64)
		m->r[m->n++] = (struct region){ addr, len, data, false };
}

/* A region whose bytes the fake memory frees when released. */
static void place_owned(struct fakemem *m, uint64_t addr, uint8_t *data, size_t len)
{
	if (m->n < 64)
		m->r[m->n++] = (struct region){ addr, len, data, true };
	else
		free(data);
}

static void fakemem_release(struct fakemem *m)
{
	for (int i = 0; i < m->n; i++)
		if (m->r[i].owned)
			free(m->r[i].data);
	m->n = 0;
}

static bool place_file(struct fakemem *m, uint64_t addr, const char *path)
{
	size_t len;
	uint8_t *d = slurp(path, &len);
	if (d)
		place_owned(m, addr, d, len);
	return d != NULL;
}

/* The address memmap.txt gives a file, 0 if not listed. */
static uint64_t memmap_addr(const char *dir, const char *file)
{
	char path[512], line[256], name[64];
	unsigned long long addr, found = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/memory/memmap.txt", dir);
	if (!(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%llx %*u %*s %63s", &addr, name) == 2 && !strcmp(name, file))
			found = addr;
	fclose(f);
	return found;
}

static const char *short_dir(const char *dir)
{
	const char *s = strrchr(dir, '/');
	return s ? s + 1 : dir;
}

/* Lay out every file of DIR/memory/memmap.txt; returns the RSDP's address. */
static uint64_t load_memmap(struct fakemem *m, const char *dir, const char *only_missing)
{
	char path[512], line[256], sig[16], file[64];
	unsigned long long addr, rsdp = 0;
	unsigned len;
	int laid = 0, bad = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/memory/memmap.txt", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%llx %u %15s %63s", &addr, &len, sig, file) == 4) {
			size_t got;
			uint8_t *d;
			if (only_missing && !strcmp(file, only_missing))
				continue;
			snprintf(path, sizeof path, "%s/memory/%s", dir, file);
			d = slurp(path, &got);
			if (!d || got != len) {
				bad++;
				check(0, "%s: %s is not %u bytes", dir, file, len);
			}
			if (d) {
				place_owned(m, addr, d, got);
				laid++;
			}
			if (!strcmp(sig, "RSDP"))
				rsdp = addr;
		}
	fclose(f);
	check(COND(laid > 0) && COND(!bad), "%s: %d tables laid out in fake memory", short_dir(dir), laid);
	return rsdp;
}

/* Split one CSV line in place; "..." fields may hold commas and "" quotes. */
static int csv_split(char *s, char **field, int max)
{
	int n = 0;
	while (n < max) {
		char *out = s;
		field[n++] = s;
		if (*s == '"') {
			for (s++; *s; s++) {
				if (*s == '"' && s[1] == '"') {
					*out++ = '"';
					s++;
				} else if (*s == '"') {
					s++;
					break;
				} else {
					*out++ = *s;
				}
			}
		} else {
			while (*s && *s != ',' && *s != '\n' && *s != '\r')
				*out++ = *s++;
		}
		if (*s != ',') {
			*out = 0;
			break;
		}
		*out = 0;
		s++;
	}
	return n;
}

/* One row into line (1024 bytes) and its fields; -1 at the end.  Some OEM ids
 * hold NUL bytes ("DELL\0\0") and lines end in CRLF: NULs become '?'. */
static int csv_row(FILE *csv, char *line, char **field, int max)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n = getline(&buf, &cap, csv);

	if (n < 0) {
		free(buf);
		return -1;
	}
	if (n > 1023)
		n = 1023;
	for (ssize_t i = 0; i < n; i++)
		line[i] = buf[i] ? buf[i] : '?';
	line[n] = 0;
	free(buf);
	return csv_split(line, field, max);
}

static void seal(uint8_t *t, const char *sig, uint32_t len, uint8_t rev)
{
	uint8_t s = 0;
	memcpy(t, sig, 4);
	t[4] = len;
	t[5] = len >> 8;
	t[6] = len >> 16;
	t[7] = len >> 24;
	t[8] = rev;
	memcpy(t + 10, "TPTEST", 6);
	t[9] = 0;
	for (uint32_t i = 0; i < len; i++)
		s += t[i];
	t[9] = -s;
}

static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = v >> (8 * i); }
static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* ---- tickprobe acpi ------------------------------------------------------- */

static char tool[512];

static int run(const char *args, char *out, size_t cap)
{
	char cmd[1024];
	size_t n = 0;
	FILE *f;
	int st;

	snprintf(cmd, sizeof cmd, "'%s' acpi %s 2>/dev/null", tool, args);
	if (!(f = popen(cmd, "r")))
		return -1;
	n = fread(out, 1, cap - 1, f);
	out[n] = 0;
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The tool sits next to the tests directory: BUILD/tests/test_x -> BUILD/tickprobe. */
static void tool_locate(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
	snprintf(tool, sizeof tool, "%.*s/../tickprobe", slash ? (int)(slash - argv0) : 1,
		 slash ? argv0 : ".");
}

#pragma GCC diagnostic pop

#endif
