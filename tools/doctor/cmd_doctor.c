/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe doctor: is this machine's TSC really unreliable, and what should
 * the kernel use?  Reads the kernel's story (its log, sysfs, the command
 * line, CPUID), the hardware's (a bare-metal log of this machine) and the
 * cost (a short `tickprobe os`), and concludes (tools/doctor/conclude.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "probe/options.h"
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/doctor/doctor.h"
#include "tools/doctor/output.h"

enum { OPT_KLOG = ARGS_OPT_FIRST, OPT_SYSFS, OPT_BARE, OPT_SAME, OPT_NOMEASURE, OPT_OSLOG, OPT_JSON, OPT_WATCH,
       OPT_WATCH_LOG };

static const struct option doctor_options[] = {
	{ "kernel-log", required_argument, NULL, OPT_KLOG },
	{ "sysfs", required_argument, NULL, OPT_SYSFS },
	{ "bare", required_argument, NULL, OPT_BARE },
	{ "same-machine", no_argument, NULL, OPT_SAME },
	{ "no-measure", no_argument, NULL, OPT_NOMEASURE },
	{ "os-log", required_argument, NULL, OPT_OSLOG },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "watch", required_argument, NULL, OPT_WATCH },
	{ "watch-log", required_argument, NULL, OPT_WATCH_LOG },
	ARGS_OPTIONS_END
};

static const struct args_spec doctor_spec = {
	.name = "doctor",
	.synopsis = "[--bare LOG [--same-machine]] [--kernel-log FILE] [--os-log LOG | --no-measure]\n"
		    "                        [--watch DURATION | --watch-log LOG] [--sysfs ROOT] [--json]",
	.help = "  Is this machine's TSC really unreliable, and what clocksource should Linux use?\n"
		"  Reads the kernel's story (its log, in the wordings of Linux 4.19 to 7.0 and of the\n"
		"  watchdog rewritten in 2026 (7.1): watchdog marks with their reference and the\n"
		"  kernel's own skew in ppm, inter-CPU skew, slow reference reads, TSC_ADJUST writes,\n"
		"  tsc=unstable, failed TSC sync checks, switches; the kernel's version and so which\n"
		"  watchdog it runs; the current and available clocksources; /proc/cmdline; CPUID), the\n"
		"  hardware's (a bare-metal tickprobe log of this machine: TSC sync between CPUs, the\n"
		"  TSC timed against the HPET, PM timer and PIT, which names the clock that is off, the\n"
		"  invariant-TSC flag) and the cost (a short `tickprobe os --quick`, every clocksource\n"
		"  when run as root), then says:\n"
		"    the TSC verdict: reliable, unreliable or unknown (no bare-metal log), with evidence,\n"
		"    and whether the kernel blamed the TSC for its reference's drift;\n"
		"    the cause, the clocksource to use and the kernel parameters this kernel has\n"
		"    (tsc=nowatchdog, tsc=reliable, hpet=disable, tsc=recalibrate, tsc=watchdog, ...),\n"
		"    each with its reason, and the measured gain.\n"
		"  Kernel parameters go in GRUB_CMDLINE_LINUX in /etc/default/grub; then update-grub.\n"
		"\n"
		"  --bare LOG       the bare-metal log (default: the newest on the ESP or a stick whose\n"
		"                   machine fingerprint is this machine's); checked the same way\n"
		"  --same-machine   use --bare LOG although its fingerprint differs (after a firmware\n"
		"                   update changed the microcode, say); the output says so\n"
		"  --kernel-log FILE  the kernel log (dmesg, /dev/kmsg or journalctl -k text);\n"
		"                   default /dev/kmsg, else the syslog buffer\n"
		"  --os-log LOG     the costs from a `tickprobe os` log instead of measuring\n"
		"  --no-measure     no cost measurement\n"
		"  --watch DURATION which clock is wrong, from a live watch of every clock for DURATION\n"
		"                   (`tickprobe os --watch`, with --raw-io as root: docs/watch.md); a\n"
		"                   bare-metal log's own watch (watch=) is read without it.  Either\n"
		"                   takes the place of the bare log's 20-100 ms calibration\n"
		"  --watch-log LOG  the same from a `tickprobe os --watch` log already made\n"
		"  --sysfs ROOT     read ROOT/sys/…, ROOT/proc/cmdline and ROOT/proc/sys/kernel/osrelease\n"
		"                   (a fake tree, for tests); the cost is measured on that tree too\n"
		"  --json           one JSON object (docs/doctor.md)\n",
	.exits = "Exit status: 0 nothing to do, 4 a change is recommended, 5 the hardware or its firmware\n"
		 "is at fault, 1 usage error, 2 input unreadable (a log missing or damaged beyond use,\n"
		 "another machine's bare log).\n",
	.longopts = doctor_options,
};

struct doctor_opts {
	const char *klog, *sysfs, *bare, *oslog, *watch_log;
	uint32_t watch_s;
	bool same, no_measure, json;
};

static int read_args(int argc, char **argv, struct doctor_opts *o)
{
	struct args a;
	int c;

	memset(o, 0, sizeof *o);
	args_start(&a, &doctor_spec, argc, argv);
	while ((c = args_next(&a)) > 0) {
		if (c == OPT_KLOG)
			o->klog = a.value;
		else if (c == OPT_SYSFS)
			o->sysfs = a.value;
		else if (c == OPT_BARE)
			o->bare = a.value;
		else if (c == OPT_SAME)
			o->same = true;
		else if (c == OPT_NOMEASURE)
			o->no_measure = true;
		else if (c == OPT_OSLOG)
			o->oslog = a.value;
		else if (c == OPT_JSON)
			o->json = true;
		else if (c == OPT_WATCH && !options_duration(a.value, &o->watch_s))
			return args_fail(&a, "--watch wants a duration up to 24h (90, 90s, 10m, 2h), not '%s'", a.value);
		else if (c == OPT_WATCH_LOG)
			o->watch_log = a.value;
	}
	if (c == ARGS_STOP)
		return a.status;
	if (o->oslog && o->no_measure)
		return args_fail(&a, "--os-log and --no-measure exclude each other");
	if (o->same && !o->bare)
		return args_fail(&a, "--same-machine applies to --bare LOG");
	if (o->watch_s && o->watch_log)
		return args_fail(&a, "--watch and --watch-log exclude each other");
	return -1;
}

struct bare_state {
	struct logfile f;
	bool loaded;
	const char *path;          /* --bare's, or found's */
	char *found;               /* the log found in the default places */
	char note[400];            /* the override, or where it was found */
	struct bare_verdict v;
	struct clock_attribution attr; /* which clock is wrong, from its calibration */
};

/* The bare-metal log: given, or found.  0, or EXIT_UNREADABLE said on stderr. */
static int load_bare(const struct doctor_opts *o, const struct host_facts *h, struct bare_state *b)
{
	char why[300];
	const struct lrun *r;
	const char *boot;
	int seen = 0;

	if (!o->bare)
		b->found = bare_find(&h->m, &seen);
	b->path = o->bare ? o->bare : b->found;
	if (!b->path) {
		snprintf(b->note, sizeof b->note, "no bare-metal log of this machine in the places a run leaves "
			 "them (%d log%s looked at)", seen, seen == 1 ? "" : "s");
		return 0;
	}
	if (logfile_load(&b->f, b->path) == EXIT_UNREADABLE || !b->f.nruns) {
		fprintf(stderr, "tickprobe doctor: %s: %s\n", b->path, b->f.nruns ? b->f.why : "no tickprobe run in it");
		logfile_free(&b->f);
		return EXIT_UNREADABLE;
	}
	b->loaded = true;
	if (b->f.status == EXIT_DAMAGED)
		logfile_report(&b->f, stderr, "tickprobe doctor");
	r = &b->f.runs[b->f.nruns - 1];
	boot = lrun_boot(r);
	if (boot && !strcmp(boot, "linux")) {
		fprintf(stderr, "tickprobe doctor: %s is a `tickprobe os` log, not a bare-metal one (give it as --os-log)\n",
			b->path);
		return EXIT_UNREADABLE;
	}
	if (fingerprint_differs(r, &h->m, why, sizeof why)) {
		if (!o->same) {
			fprintf(stderr, "tickprobe doctor: %s is not this machine's: %s (--same-machine to use it anyway)\n",
				b->path, why);
			return EXIT_UNREADABLE;
		}
		snprintf(b->note, sizeof b->note, "used with --same-machine although %s", why);
	} else {
		snprintf(b->note, sizeof b->note, "this machine's (fingerprint: CPU vendor, brand, family, model, "
			 "stepping, microcode, hypervisor, cores)");
	}
	bare_verdict(r, &b->v);
	attribution_from_bare(r, &b->attr);
	attribution_from_watch(r, &b->attr); /* a watch over minutes, where the run had one */
	return 0;
}

/* --watch or --watch-log: which clock is wrong, from a live watch.  0, or
 * EXIT_UNREADABLE said on stderr. */
static int live_watch(const struct doctor_opts *o, struct clock_attribution *a, bool *have)
{
	char why[400], tmp[] = "/tmp/tickprobe-doctor-watch-XXXXXX";
	const char *path = o->watch_log;
	struct logfile f;
	int rc = 0;

	*have = false;
	if (!o->watch_s && !o->watch_log)
		return 0;
	if (o->watch_s && watch_measure(o->watch_s, tmp, why, sizeof why)) {
		fprintf(stderr, "tickprobe doctor: --watch: %s\n", why);
		return EXIT_UNREADABLE;
	}
	if (o->watch_s)
		path = tmp;
	if (logfile_load(&f, path) == EXIT_UNREADABLE || !f.nruns) {
		fprintf(stderr, "tickprobe doctor: %s: %s\n", path, f.nruns ? f.why : "no tickprobe run in it");
		rc = EXIT_UNREADABLE;
	} else if (!attribution_from_watch(&f.runs[f.nruns - 1], a)) {
		fprintf(stderr, "tickprobe doctor: %s has no watch record (`tickprobe os --watch` makes one)\n", path);
		rc = EXIT_UNREADABLE;
	}
	*have = rc == 0;
	logfile_free(&f);
	if (o->watch_s)
		unlink(tmp);
	return rc;
}

static int get_costs(const struct doctor_opts *o, struct host_costs *c)
{
	char why[400];
	int rc;

	memset(c, 0, sizeof *c);
	c->raw_tsc_ns = -1;
	if (o->no_measure) {
		snprintf(c->source, sizeof c->source, "not measured (--no-measure)");
		return 0;
	}
	rc = o->oslog ? costs_from_log(c, o->oslog, why, sizeof why) : costs_measure(c, o->sysfs, why, sizeof why);
	if (rc && o->oslog) {
		fprintf(stderr, "tickprobe doctor: --os-log %s\n", why);
		return EXIT_UNREADABLE;
	}
	if (rc) {
		fprintf(stderr, "tickprobe doctor: the cost was not measured: %s\n", why);
		c->n = 0;
		snprintf(c->source, sizeof c->source, "not measured: %s", why);
	}
	return 0;
}

int cmd_doctor(int argc, char **argv)
{
	struct doctor_opts o;
	struct host_facts h;
	struct klog k;
	struct bare_state b;
	struct host_costs costs;
	struct conclusion c;
	struct doctor_inputs in;
	struct doctor_report rep;
	struct kernel_facts kf;
	struct clock_attribution live;
	bool have_live = false;
	char why[400];
	int rc = read_args(argc, argv, &o);

	if (rc >= 0)
		return rc;
	host_gather(&h, o.sysfs);
	if (klog_load(&k, o.klog, why, sizeof why) != 0) {
		fprintf(stderr, "tickprobe doctor: %s\n", why);
		return EXIT_UNREADABLE;
	}
	memset(&b, 0, sizeof b);
	if ((rc = load_bare(&o, &h, &b)) != 0 || (rc = live_watch(&o, &live, &have_live)) != 0 ||
	    (rc = get_costs(&o, &costs)) != 0)
		goto out;
	kernel_facts_read(&kf, &k, &h);
	in = (struct doctor_inputs){ .k = &k, .h = &h, .kf = &kf, .bare = b.loaded ? &b.v : NULL,
				     .bare_path = b.loaded ? b.path : NULL,
				     .attr = have_live ? &live : b.loaded ? &b.attr : NULL,
				     .costs = &costs };
	doctor_conclude(&in, &c);
	rep = (struct doctor_report){ .in = &in, .c = &c, .bare_note = b.note,
				      .override = strstr(b.note, "--same-machine") != NULL };
	if (o.json)
		doctor_print_json(stdout, &rep);
	else
		doctor_print_text(stdout, &rep);
	rc = c.exit_status;
out:
	if (b.loaded)
		logfile_free(&b.f);
	free(b.found);
	klog_free(&k);
	return rc;
}
