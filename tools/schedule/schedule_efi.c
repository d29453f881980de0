/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe schedule` through the firmware: a Boot#### entry and BootNext
 * (steps.h).  Written straight to efivarfs, as efibootmgr would, without
 * its habit of putting a new entry first in BootOrder. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "tools/commands.h"
#include "tools/schedule/efivar.h"
#include "tools/schedule/esp.h"
#include "tools/schedule/steps.h"

#define ENTRIES_MAX 512

bool efi_present(const struct schedule *s)
{
	struct stat st;
	return stat(s->efivars, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_ours(const struct load_option *o)
{
	return !strcasecmp(o->path, SCHEDULE_APP_PATH);
}

static bool read_option(const struct schedule *s, uint16_t num, struct load_option *o)
{
	uint8_t buf[EFIVAR_MAX];
	char name[16];
	size_t n;
	uint32_t attrs;

	snprintf(name, sizeof name, "Boot%04X", num);
	return efivar_read(s->efivars, name, buf, sizeof buf, &n, &attrs) == 0 && load_option_decode(buf, n, o);
}

int efi_boot_next(const struct schedule *s)
{
	uint8_t buf[8];
	size_t n;
	uint32_t attrs;
	if (efivar_read(s->efivars, "BootNext", buf, sizeof buf, &n, &attrs) != 0 || n != 2)
		return -1;
	return buf[0] | buf[1] << 8;
}

/* BootOrder as "0001,0000" text, for the steps; "(none)" when unset. */
static void boot_order_text(const struct schedule *s, char *out, size_t cap)
{
	uint8_t buf[EFIVAR_MAX];
	size_t n, k = 0;
	uint32_t attrs;

	snprintf(out, cap, "(none)");
	if (efivar_read(s->efivars, "BootOrder", buf, sizeof buf, &n, &attrs) != 0 || !n)
		return;
	for (size_t i = 0; i + 1 < n && k + 6 < cap; i += 2)
		k += (size_t)snprintf(out + k, cap - k, "%s%04X", i ? "," : "", buf[i] | buf[i + 1] << 8);
}

/* Our entry's number (the first whose file is the app), or a free one. */
static uint16_t pick_entry(const struct schedule *s, bool *created)
{
	uint16_t nums[ENTRIES_MAX], pick = 0;
	size_t n = efivar_boot_entries(s->efivars, nums, ENTRIES_MAX);
	struct load_option o;

	for (size_t i = 0; i < n; i++)
		if (read_option(s, nums[i], &o) && is_ours(&o)) {
			*created = false;
			return nums[i];
		}
	for (size_t i = 0; i < n && nums[i] == pick; i++) /* nums ascending: the lowest gap */
		pick++;
	*created = true;
	return pick;
}

static void hd_text(const struct efi_partition *p, char *out, size_t cap)
{
	char g[37];
	efi_guid_text(p->guid, g);
	snprintf(out, cap, "HD(%u,GPT,%s,0x%llx,0x%llx)", p->number, g, (unsigned long long)p->start,
		 (unsigned long long)p->size);
}

static int write_u16(const struct schedule *s, const char *name, unsigned v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
	char why[512];
	if (s->dry_run)
		return 0;
	if (efivar_write(s->efivars, name, EFIVAR_NV_BS_RT, b, 2, why, sizeof why)) {
		fprintf(stderr, "tickprobe schedule: %s\n", why);
		return EXIT_UNREADABLE;
	}
	return 0;
}

static int delete_var(const struct schedule *s, const char *name)
{
	char why[512];
	if (s->dry_run)
		return 0;
	if (efivar_delete(s->efivars, name, why, sizeof why)) {
		fprintf(stderr, "tickprobe schedule: %s\n", why);
		return EXIT_UNREADABLE;
	}
	return 0;
}

/* The ESP, the app on it and its partition; false having said why. */
static bool find_app(const struct schedule *s, struct esp *e)
{
	char why[PATH_MAX + 200], app[PATH_MAX + 40];
	struct stat st;

	memset(e, 0, sizeof *e);
	if (!esp_mount(e->dir, sizeof e->dir, s->esp, why, sizeof why) ||
	    !esp_partition(e, s->disk, s->partition, why, sizeof why)) {
		fprintf(stderr, "tickprobe schedule: %s\n", why);
		return false;
	}
	snprintf(app, sizeof app, "%s/EFI/tickprobe/tickprobe.efi", e->dir);
	if (stat(app, &st) != 0) {
		fprintf(stderr, "tickprobe schedule: %s: %s; the package's postinst copies it there (sudo "
				"dpkg-reconfigure tickprobe once the ESP is mounted)\n", app, strerror(errno));
		return false;
	}
	return true;
}

int efi_arrange(const struct schedule *s, const char *options, struct sched_record *r)
{
	uint8_t buf[EFIVAR_MAX];
	char name[16], hd[128], order[256], why[512];
	struct esp e;
	bool created;
	uint16_t num;
	int before, status;
	size_t n;

	if (!find_app(s, &e))
		return EXIT_UNREADABLE;
	num = pick_entry(s, &created);
	n = load_option_encode(buf, sizeof buf, LOAD_OPTION_ACTIVE, SCHEDULE_DESCRIPTION, &e.part, SCHEDULE_APP_PATH,
			       options);
	if (!n) {
		fprintf(stderr, "tickprobe schedule: the boot entry for options '%s' does not fit\n", options);
		return EXIT_USAGE;
	}
	before = efi_boot_next(s);
	state_put(r, "method", "efi");
	state_put(r, "efivars", "%s", s->efivars);
	state_put(r, "entry", "%04X", num);
	state_put(r, "entry_created", "%s", created ? "yes" : "no");
	if (before >= 0)
		state_put(r, "boot_next_before", "%04X", (unsigned)before);
	else
		state_put(r, "boot_next_before", "%s", "");
	if ((status = state_write(s, r)))
		return status;
	snprintf(name, sizeof name, "Boot%04X", num);
	hd_text(&e.part, hd, sizeof hd);
	step(s, "write %s (%s, %zu bytes): \"%s\" %s/%s, options \"%s\"", name,
	     created ? "a new entry" : "tickprobe's entry, reused", n, SCHEDULE_DESCRIPTION, hd, SCHEDULE_APP_PATH,
	     options);
	if (!s->dry_run && efivar_write(s->efivars, name, EFIVAR_NV_BS_RT, buf, n, why, sizeof why)) {
		fprintf(stderr, "tickprobe schedule: %s\n", why);
		return EXIT_UNREADABLE;
	}
	boot_order_text(s, order, sizeof order);
	step(s, "write BootNext: %04X (the next boot only; BootOrder is left as it is: %s)", num, order);
	return write_u16(s, "BootNext", num);
}

/* A Boot#### number as the state file keeps it: 1 to 4 hex digits. */
static bool parse_entry(const char *text, unsigned *num)
{
	char *end;
	unsigned long v = strtoul(text, &end, 16);
	if (end == text || *end || end - text > 4)
		return false;
	*num = (unsigned)v;
	return true;
}

enum entry_kind { ENTRY_ABSENT, ENTRY_OURS, ENTRY_OTHER, ENTRY_GARBLED };

static enum entry_kind entry_kind(const struct schedule *s, unsigned num)
{
	uint8_t buf[EFIVAR_MAX];
	struct load_option o;
	char name[16];
	size_t n;
	uint32_t attrs;
	int e;

	snprintf(name, sizeof name, "Boot%04X", num);
	e = efivar_read(s->efivars, name, buf, sizeof buf, &n, &attrs);
	if (e == ENOENT)
		return ENTRY_ABSENT;
	if (e || !load_option_decode(buf, n, &o))
		return ENTRY_GARBLED;
	return is_ours(&o) ? ENTRY_OURS : ENTRY_OTHER;
}

/* An entry schedule made: removed while it is still tickprobe's, or the
 * remains of a write that failed half-way. */
static int drop_made_entry(const struct schedule *s, unsigned num)
{
	char name[16];
	enum entry_kind k = entry_kind(s, num);

	snprintf(name, sizeof name, "Boot%04X", num);
	if (k == ENTRY_ABSENT) {
		step(s, "nothing to remove: %s is not there (never written, or removed since)", name);
		return 0;
	}
	if (k == ENTRY_OTHER) {
		step(s, "keep %s: it is no longer tickprobe's entry (made again by someone since)", name);
		return 0;
	}
	step(s, "remove %s (schedule made it%s)", name, k == ENTRY_GARBLED ? "; a write of it failed half-way" : "");
	return delete_var(s, name);
}

int efi_cancel(const struct schedule *s, const struct sched_record *r)
{
	char entry[16], created[8], before[16], name[16];
	int next = efi_boot_next(s), status = 0;
	unsigned num, b;

	if (!record_get(r, "entry", entry, sizeof entry) || !parse_entry(entry, &num)) {
		fprintf(stderr, "tickprobe schedule: the record names no boot entry\n");
		return EXIT_UNREADABLE;
	}
	record_get(r, "entry_created", created, sizeof created);
	record_get(r, "boot_next_before", before, sizeof before);
	snprintf(name, sizeof name, "Boot%04X", num);
	if (next != (int)num) {
		step(s, "leave BootNext: it does not name %s (the scheduled boot has happened, BootNext was changed "
			"since, or it was never written)", name);
	} else if (before[0] && parse_entry(before, &b)) {
		step(s, "write BootNext: %04X (what it was before)", b);
		status = write_u16(s, "BootNext", b);
	} else {
		step(s, "remove BootNext");
		status = delete_var(s, "BootNext");
	}
	if (!strcmp(created, "yes"))
		status = status ? status : drop_made_entry(s, num);
	else
		step(s, "keep %s (it was there before schedule)", name);
	return status;
}

/* BootOrder without num, written only when it held num. */
static int drop_from_order(const struct schedule *s, unsigned num)
{
	uint8_t buf[EFIVAR_MAX], out[EFIVAR_MAX];
	size_t n, k = 0;
	uint32_t attrs;
	char why[512];

	if (efivar_read(s->efivars, "BootOrder", buf, sizeof buf, &n, &attrs) != 0)
		return 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		if ((unsigned)(buf[i] | buf[i + 1] << 8) != num) {
			out[k++] = buf[i];
			out[k++] = buf[i + 1];
		}
	if (k == n)
		return 0;
	step(s, "write BootOrder without %04X", num);
	if (!s->dry_run && efivar_write(s->efivars, "BootOrder", attrs, out, k, why, sizeof why)) {
		fprintf(stderr, "tickprobe schedule: %s\n", why);
		return EXIT_UNREADABLE;
	}
	return 0;
}

/* Whether BootOrder lists num. */
static bool in_order(const struct schedule *s, unsigned num)
{
	uint8_t buf[EFIVAR_MAX];
	size_t n;
	uint32_t attrs;

	if (efivar_read(s->efivars, "BootOrder", buf, sizeof buf, &n, &attrs) != 0)
		return false;
	for (size_t i = 0; i + 1 < n; i += 2)
		if ((unsigned)(buf[i] | buf[i + 1] << 8) == num)
			return true;
	return false;
}

int efi_sweep(const struct schedule *s, int *found)
{
	uint16_t nums[ENTRIES_MAX];
	size_t n = efivar_boot_entries(s->efivars, nums, ENTRIES_MAX);
	int status = 0, next = efi_boot_next(s);

	for (size_t i = 0; i < n; i++) {
		char name[16];
		if (entry_kind(s, nums[i]) != ENTRY_OURS)
			continue;
		snprintf(name, sizeof name, "Boot%04X", nums[i]);
		if (next == nums[i]) {
			step(s, "remove BootNext (it names %s, tickprobe's entry)", name);
			status = delete_var(s, "BootNext") ? EXIT_UNREADABLE : status;
			++*found;
		}
		if (in_order(s, nums[i])) {
			step(s, "keep %s: it is in BootOrder, where schedule never puts an entry", name);
			continue;
		}
		step(s, "remove %s (tickprobe's entry, outside BootOrder: one schedule made)", name);
		status = delete_var(s, name) ? EXIT_UNREADABLE : status;
		++*found;
	}
	return status;
}

int efi_uninstall(const struct schedule *s)
{
	uint16_t nums[ENTRIES_MAX];
	size_t n = efivar_boot_entries(s->efivars, nums, ENTRIES_MAX);
	struct load_option o;
	int status = 0, next = efi_boot_next(s);

	for (size_t i = 0; i < n; i++) {
		char name[16];
		if (!read_option(s, nums[i], &o) || !is_ours(&o))
			continue;
		snprintf(name, sizeof name, "Boot%04X", nums[i]);
		if (next == nums[i]) {
			step(s, "remove BootNext (it names %s)", name);
			status = delete_var(s, "BootNext") ? EXIT_UNREADABLE : status;
		}
		status = drop_from_order(s, nums[i]) ? EXIT_UNREADABLE : status;
		step(s, "remove %s (\"%s\" %s)", name, o.description, o.path);
		status = delete_var(s, name) ? EXIT_UNREADABLE : status;
	}
	return status;
}
