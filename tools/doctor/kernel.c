/* SPDX-License-Identifier: BSD-2-Clause */
/* The running kernel's facts (kernel.h).  The boundaries, and what shows
 * them (docs/doctor.md gives the addresses):
 *   - the watchdog rewrite, "clocksource: Rewrite watchdog code completely"
 *     (commit 763aacf86f1b), reached Linus's tree on 2026-04-14, two days
 *     after 7.0, in the merge window of 7.1; its messages are the surest
 *     sign, since a distribution may carry it in an older kernel;
 *   - tsc=watchdog and tsc=recalibrate came with the clocksource pull for
 *     6.3 (6.1.192 has neither, 6.12.118 both); 7.1 gave tsc=watchdog its
 *     new meaning;
 *   - tsc=reliable and tsc=nowatchdog hold tsc-early too from 5.4 on (commit
 *     63ec58b44fcc, also in the stable kernels of that time). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/doctor/kernel.h"

static const char *const gen_names[] = { "unknown", "4.19-7.0", "2026" };

const char *watchdog_gen_name(enum watchdog_gen g)
{
	return g <= WD_GEN_2026 ? gen_names[g] : "?";
}

bool kernel_at_least(const struct kernel_facts *f, int major, int minor)
{
	if (!f->version_known)
		return false;
	return f->major > major || (f->major == major && f->minor >= minor);
}

static void parse_version(struct kernel_facts *f)
{
	char *end;
	long major = strtol(f->release, &end, 10);
	long minor;

	if (end == f->release || *end != '.' || major <= 0 || major > 99)
		return;
	minor = strtol(end + 1, &end, 10);
	if (minor < 0 || minor > 999)
		return;
	f->major = (int)major;
	f->minor = (int)minor;
	f->version_known = true;
}

static void choose_release(struct kernel_facts *f, const struct klog *k, const struct host_facts *h)
{
	if (k->release[0]) {
		snprintf(f->release, sizeof f->release, "%s", k->release);
		snprintf(f->release_from, sizeof f->release_from, "the log's \"Linux version\" line");
	} else if (h->release[0]) {
		snprintf(f->release, sizeof f->release, "%s", h->release);
		snprintf(f->release_from, sizeof f->release_from, "%s", h->release_from);
	}
	parse_version(f);
}

static void by_messages(struct kernel_facts *f, int gen_2026)
{
	size_t n;

	if (!gen_2026) {
		f->wd = WD_GEN_OLD;
		snprintf(f->wd_why, sizeof f->wd_why, "the log's watchdog messages are in its wording (\"... as "
			 "unstable because the skew is too large\", \"read-back delay\", \"Checking clocksource ... "
			 "synchronization\")");
		return;
	}
	f->wd = WD_GEN_2026;
	n = (size_t)snprintf(f->wd_why, sizeof f->wd_why, "the log's watchdog messages are in its wording (\"... "
			     "unstable due to frequency skew\", \"... inter CPU skew\", \"Watchdog ... read timed out\")");
	if (f->version_known && !kernel_at_least(f, 7, 1) && n < sizeof f->wd_why)
		snprintf(f->wd_why + n, sizeof f->wd_why - n, "; Linux %d.%d did not have it upstream, so this "
			 "kernel carries it back", f->major, f->minor);
}

static void by_version(struct kernel_facts *f)
{
	if (!f->version_known) {
		f->wd = WD_GEN_UNKNOWN;
		snprintf(f->wd_why, sizeof f->wd_why, "the kernel's version is not known (no \"Linux version\" line in "
			 "the log, no release) and no watchdog message shows which it is: the doctor cannot tell "
			 "whether it runs the watchdog rewritten in 2026");
		return;
	}
	if (kernel_at_least(f, 7, 1)) {
		f->wd = WD_GEN_2026;
		snprintf(f->wd_why, sizeof f->wd_why, "Linux %d.%d is 7.1 or later: the rewrite (commit 763aacf86f1b) "
			 "was merged on 2026-04-14, after 7.0, and first released in 7.1-rc1; no watchdog message in "
			 "the log says otherwise", f->major, f->minor);
		return;
	}
	f->wd = WD_GEN_OLD;
	snprintf(f->wd_why, sizeof f->wd_why, "Linux %d.%d is older than 7.1, where the rewritten watchdog first "
		 "came (no watchdog message in the log says otherwise)", f->major, f->minor);
}

void kernel_facts_read(struct kernel_facts *f, const struct klog *k, const struct host_facts *h)
{
	int gen_2026 = klog_watchdog_2026(k);

	memset(f, 0, sizeof *f);
	choose_release(f, k, h);
	if (gen_2026 >= 0)
		by_messages(f, gen_2026);
	else
		by_version(f);
	if (f->wd == WD_GEN_2026)
		f->tsc_watchdog = TSCWD_ENFORCE;
	else if (!f->version_known)
		f->tsc_watchdog = TSCWD_UNKNOWN;
	else if (kernel_at_least(f, 6, 3))
		f->tsc_watchdog = TSCWD_TSC_AS_WATCHDOG;
	else
		f->tsc_watchdog = TSCWD_ABSENT;
	f->recalibrate = f->wd == WD_GEN_2026 || kernel_at_least(f, 6, 3);
	f->early_covered = f->wd == WD_GEN_2026 || kernel_at_least(f, 5, 4);
}
