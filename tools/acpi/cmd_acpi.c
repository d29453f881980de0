/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe acpi: the PM timer, HPET and CPUs that the probe will find, decoded
 * from this host's tables (/sys/firmware/acpi/tables) or from dumped table files
 * (`acpidump -b` writes facp.dat, hpet.dat, apic.dat; linuxhw dumps hold FACP.bin).
 * The decoding is acpi/acpi.c, the same code the image runs. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "acpi/acpi.h"
#include "lib/json.h"
#include "probe/records_run.h"
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/lib/textsafe.h"

#define SYSFS_TABLES "/sys/firmware/acpi/tables"

enum { OPT_JSON = ARGS_OPT_FIRST };

static const struct option acpi_options[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	ARGS_OPTIONS_END
};

static const struct args_spec acpi_spec = {
	.name = "acpi",
	.synopsis = "[--json] [FILE|DIR]...",
	.help = "\n"
		"Decode the ACPI tables that locate the PM timer (FADT) and the HPET, and\n"
		"list the CPUs and I/O APICs of the MADT (APIC).\n"
		"With no argument, read this host's tables from " SYSFS_TABLES " (root only).\n"
		"A FILE is one raw table: FACP/HPET/APIC from sysfs, facp.dat/hpet.dat/apic.dat\n"
		"from `acpidump -b`, FACP.bin/HPET.bin/APIC.bin; the signature inside decides.\n"
		"In a DIR, the files whose names start with facp, hpet or apic (any case) are read.\n"
		"\n"
		"  --json   print one JSON object with the members of the log's acpi record\n"
		"           (pm_timer, hpet, madt, problems, ...), then cpus and ioapics\n"
		"\n",
	.exits = "Exit status: 0 clean, 1 usage error, 2 a path could not be read,\n"
		 "3 a table was damaged (reported, not used).\n",
	.longopts = acpi_options,
	.operand = "FILE or DIR",
	.min_operands = 0, /* none: this host's tables */
	.max_operands = ARGS_MANY,
};

/* The last two components of a path: enough to tell FACP.bin files apart. */
static const char *short_name(const char *path)
{
	const char *end = path + strlen(path), *p = end, *slash = NULL;

	while (p > path && p[-1] == '/') {
		p--;
		end--;
	}
	while (p > path) {
		if (p[-1] == '/') {
			if (slash)
				return p;
			slash = p - 1;
		}
		p--;
	}
	return path;
}

/* Read a whole file of at most ACPI_TABLE_MAX bytes.  Returns 0, or -1 with
 * errno set (EFBIG when longer). */
static int slurp(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = ACPI_TABLE_MAX + 1, n = 0, r;
	uint8_t *buf;

	if (!f)
		return -1;
	buf = malloc(cap);
	if (!buf) {
		fclose(f);
		return -1;
	}
	while (n < cap && (r = fread(buf + n, 1, cap - n, f)) > 0)
		n += r;
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		free(buf);
		errno = e ? e : EIO;
		return -1;
	}
	fclose(f);
	if (n > ACPI_TABLE_MAX) {
		free(buf);
		errno = EFBIG;
		return -1;
	}
	*out = buf;
	*len = n;
	return 0;
}

static void say_unreadable(const char *path)
{
	int e = errno;
	char shown[512];
	fprintf(stderr, "tickprobe acpi: %s: %s%s\n", ts_str(shown, sizeof shown, path),
		e == EFBIG ? "longer than 1 MiB, not an ACPI table" : strerror(e),
		e == EACCES && !strncmp(path, SYSFS_TABLES, strlen(SYSFS_TABLES))
			? " (the tables are readable by root only)" : "");
}

/* Returns 0, or EXIT_UNREADABLE. */
static int add_file(const char *path, struct acpi_info *info)
{
	uint8_t *buf;
	size_t len;
	char where[64];
	const char *name = short_name(path);

	if (slurp(path, &buf, &len)) {
		say_unreadable(path);
		return EXIT_UNREADABLE;
	}
	/* Problems hold 96 characters: a long parent name gives way to the file's. */
	if (strlen(name) >= sizeof where && strrchr(name, '/'))
		name = strrchr(name, '/') + 1;
	snprintf(where, sizeof where, "%s", name);
	if (acpi_decode_table(buf, len, where, info) == ACPI_OTHER) {
		char shown[512];
		/* ACPI_OTHER: its signature is printable (acpi_printable_sig). */
		fprintf(stderr, "tickprobe acpi: %s: a '%.4s' table, not FADT, HPET or MADT: skipped\n",
			ts_str(shown, sizeof shown, path), (const char *)buf);
	}
	free(buf);
	return 0;
}

static int table_name(const struct dirent *d)
{
	return !strncasecmp(d->d_name, "facp", 4) || !strncasecmp(d->d_name, "hpet", 4) ||
	       !strncasecmp(d->d_name, "apic", 4);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int add_dir(const char *path, struct acpi_info *info)
{
	struct dirent **list;
	int n, i, rc = 0, files = 0;

	n = scandir(path, &list, table_name, by_name);
	if (n < 0) {
		say_unreadable(path);
		return EXIT_UNREADABLE;
	}
	for (i = 0; i < n; i++) {
		char full[4096];
		struct stat st;
		snprintf(full, sizeof full, "%s/%s", path, list[i]->d_name);
		if (!rc && !stat(full, &st) && S_ISREG(st.st_mode)) {
			files++;
			rc = add_file(full, info);
		}
		free(list[i]);
	}
	free(list);
	if (!rc && !files)
		fprintf(stderr, "tickprobe acpi: %s: no FACP, HPET or APIC table files\n", path);
	return rc;
}

/* The MADT's CPUs and I/O APICs, one per line, in table order. */
static void print_madt(const struct acpi_madt *d)
{
	unsigned i;

	if (!d->present)
		return;
	printf("MADT: revision %u, %u bytes, OEM \"%s\" \"%s\", flags 0x%08x%s, %u entries\n",
	       d->revision, d->length, d->oem, d->oem_table, d->flags,
	       d->pcat_compat ? " (PCAT_COMPAT)" : "", d->entries);
	if (d->lapic_override)
		printf("  local APIC 0x%llx from a type 5 override (table: 0x%08x)\n",
		       (unsigned long long)d->lapic_address, d->lapic_address32);
	printf("CPUs: %u listed (%u disabled entries left out):\n", d->ncpus, d->disabled);
	printf("  %4s %10s %10s  %-14s %s\n", "#", "APIC ID", "UID", "state", "entry");
	for (i = 0; i < d->ncpus; i++) {
		const struct madt_cpu *c = &d->cpus[i];
		printf("  %4u %10u %10u  %-14s %s\n", i, c->apic_id, c->uid,
		       c->enabled ? "enabled" : "online-capable", c->x2apic ? "x2APIC" : "local APIC");
	}
	if (d->cpus_dropped)
		printf("  (%u more not kept)\n", d->cpus_dropped);
	for (i = 0; i < d->nioapics; i++)
		printf("I/O APIC %u: 0x%08x, GSI base %u\n", d->ioapics[i].id, d->ioapics[i].address,
		       d->ioapics[i].gsi_base);
	if (d->count[MADT_IO_APIC] > d->nioapics)
		printf("  (%u more I/O APICs not kept)\n", d->count[MADT_IO_APIC] - d->nioapics);
}

static void print_human(const struct acpi_info *info)
{
	char text[512];
	unsigned i;

	if (info->have_fadt)
		printf("FADT: revision %u, %u bytes, OEM \"%s\" \"%s\", flags 0x%08x\n",
		       info->fadt_revision, info->fadt_length, info->fadt_oem,
		       info->fadt_oem_table, info->fadt_flags);
	acpi_summary(info, text, sizeof text);
	fputs(text, stdout);
	print_madt(&info->madt);
	if (info->nproblems)
		printf("Problems:\n");
	for (i = 0; i < info->nproblems; i++) { /* they name the table files */
		fputs("  ", stdout);
		ts_puts(stdout, info->problems[i]);
		putchar('\n');
	}
	if (info->problems_dropped)
		printf("  (%u more not kept)\n", info->problems_dropped);
}

/* One CPU's members, into an object opened for it. */
static void madt_cpu_json(const struct madt_cpu *c, struct json *j)
{
	json_u64(j, "apic_id", c->apic_id);
	json_u64(j, "uid", c->uid);
	json_bool(j, "enabled", c->enabled);
	json_bool(j, "online_capable", c->online_capable);
	json_bool(j, "x2apic", c->x2apic);
}

static int print_json(const struct acpi_info *info)
{
	/* 256 CPUs of about 80 bytes each, and the acpi members. */
	static char buf[64 * 1024];
	const struct acpi_madt *d = &info->madt;
	struct json j;
	unsigned i;

	json_init(&j, buf, sizeof buf);
	json_object_begin(&j, NULL);
	write_acpi(put_acpi_body(&j), info); /* the log's acpi record's members */
	json_array_begin(&j, "cpus");
	for (i = 0; i < d->ncpus; i++) {
		json_object_begin(&j, NULL);
		madt_cpu_json(&d->cpus[i], &j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_array_begin(&j, "ioapics");
	for (i = 0; i < d->nioapics; i++) {
		json_object_begin(&j, NULL);
		json_u64(&j, "id", d->ioapics[i].id);
		json_u64(&j, "address", d->ioapics[i].address);
		json_u64(&j, "gsi_base", d->ioapics[i].gsi_base);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	if (j.overflow) {
		fprintf(stderr, "tickprobe acpi: JSON output overflowed %zu bytes\n", sizeof buf);
		return -1;
	}
	printf("%s\n", buf);
	return 0;
}

int cmd_acpi(int argc, char **argv)
{
	static struct acpi_info info;
	int json = 0, rc = 0, c;
	struct args a;

	args_start(&a, &acpi_spec, argc, argv);
	while ((c = args_next(&a)) > 0)
		if (c == OPT_JSON)
			json = 1;
	if (c == ARGS_STOP)
		return a.status;

	acpi_info_init(&info);
	if (!a.noperands)
		rc = add_dir(SYSFS_TABLES, &info);
	for (int i = 0; i < a.noperands && !rc; i++) {
		struct stat st;
		const char *path = a.operands[i];
		if (stat(path, &st)) {
			say_unreadable(path);
			rc = EXIT_UNREADABLE;
		} else if (S_ISDIR(st.st_mode)) {
			rc = add_dir(path, &info);
		} else {
			rc = add_file(path, &info);
		}
	}
	if (rc)
		return rc;

	if (json) {
		if (print_json(&info))
			return EXIT_DAMAGED;
	} else {
		print_human(&info);
	}
	return info.bad_tables ? EXIT_DAMAGED : EXIT_CLEAN;
}
