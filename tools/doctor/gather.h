/* SPDX-License-Identifier: BSD-2-Clause */
/* What `tickprobe doctor` reads from the running Linux system besides its
 * log: the clocksources in sysfs, the kernel command line, CPUID, DMI; the
 * machine's fingerprint against a bare-metal log's; the bare-metal log
 * itself; and what each clocksource costs. */
#ifndef TOOLS_DOCTOR_GATHER_H
#define TOOLS_DOCTOR_GATHER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "tools/lib/logset.h"
#include "tools/lib/host_machine.h"

#define HOST_CS_MAX 16

struct host_facts {
	char root[512];              /* the --sysfs ROOT, "" for the system's own */
	bool sysfs_ok;
	char current[40];
	char available[HOST_CS_MAX][40];
	int navailable;
	bool cmdline_ok;
	char cmdline[2048];
	char p_tsc[80];              /* the last tsc= value ("" none), as the kernel keeps it */
	char p_clocksource[40];      /* clocksource= */
	bool p_nohpet;
	char p_words[256];           /* those words as given, space-separated */
	struct host_machine m;       /* CPUID and /proc/cpuinfo: the fingerprint */
	bool tsc_known_freq;         /* CPUID leaf 0x15 names the crystal: X86_FEATURE_TSC_KNOWN_FREQ */
	char dmi_vendor[80], dmi_product[80], dmi_bios[80];
	char release[80];            /* ROOT/proc/sys/kernel/osrelease under --sysfs, else uname -r */
	char release_from[560];      /* which of the two, in words */
};

void host_gather(struct host_facts *h, const char *root);
bool host_has_cs(const struct host_facts *h, const char *cs);

/* NULL when the run's `machine` record is this machine's, else why not
 * ("cpu_brand: 'X' here, 'Y' in the log"), in why. */
const char *fingerprint_differs(const struct lrun *r, const struct host_machine *m, char *why, size_t cap);
void fingerprint_json(FILE *o, const struct host_machine *m);

/* The newest bare-metal log in the places a cable-less run leaves them whose
 * fingerprint is this machine's; NULL when none.  *seen counts the logs looked at. */
char *bare_find(const struct host_machine *m, int *seen);

struct cs_cost { char cs[40]; double ns; };
struct host_costs {
	struct cs_cost c[HOST_CS_MAX];
	int n;
	double raw_tsc_ns;           /* the log's user-space rdtsc p50, < 0 none */
	char source[600];            /* where they came from, in words */
};

/* clock_gettime(CLOCK_MONOTONIC)'s p50 per clocksource from a `tickprobe os`
 * log.  Returns 0, or EXIT_UNREADABLE with why. */
int costs_from_log(struct host_costs *c, const char *path, char *why, size_t cap);
/* A short `tickprobe os --quick` (with --switch as root, on root's tree:
 * NULL for /) into a temporary file, then costs_from_log.  Its lines about
 * the switch lock and a restore record are passed on to stderr.  Returns 0,
 * or EXIT_UNREADABLE with why (the child's last word when it failed). */
int costs_measure(struct host_costs *c, const char *root, char *why, size_t cap);
/* `tickprobe os --watch SECONDS` (with --raw-io as root) into tmp, a
 * mkstemp template; its stderr (the watch's lines) is the doctor's.  0, or
 * EXIT_UNREADABLE with why. */
int watch_measure(uint32_t seconds, char *tmp, char *why, size_t cap);
double costs_of(const struct host_costs *c, const char *cs); /* < 0: not measured */

#endif
