/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe os: what this Linux system's clock calls cost, per clocksource,
 * in the probe's log format (docs/log-format.md, "OS-side records").
 *
 * Unprivileged by default and measuring only the current clocksource; with
 * --switch (root) each available clocksource in turn, the original always put
 * back (tools/os/clocksource.h).  Raw counter reads that need I/O privilege only
 * with --raw-io. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "probe/log.h"
#include "tools/commands.h"
#include "tools/common/progress.h"
#include "tools/common/args.h"
#include "tools/os/bench.h"
#include "tools/os/calls.h"
#include "tools/os/clocksource.h"
#include "tools/os/ctxsw.h"
#include "tools/os/machine.h"
#include "tools/os/raw.h"
#include "tools/os/record.h"
#include "tools/os/run.h"
#include "tools/os/threads.h"

struct opts {
	struct os_params p;
	struct os_cpus cpus;   /* allowed before this process pins itself */
	bool do_switch, raw_io, quick, quiet;
	const char *only;      /* --clocksource */
	const char *root;      /* --sysfs-root */
	const char *out;       /* -o */
	int cal_ms, freq_ms;
};

static int log_fd = 1;
static int log_errno;

static void sink(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	while (n && !log_errno) {
		ssize_t w = write(log_fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			log_errno = errno;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

enum { OPT_ROUNDS = ARGS_OPT_FIRST, OPT_SAMPLES, OPT_QUICK, OPT_SWITCH, OPT_CLOCKSOURCE, OPT_RAW_IO,
       OPT_SYSFS_ROOT, OPT_THREADS, OPT_QUIET };

static const struct option os_options[] = {
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "samples", required_argument, NULL, OPT_SAMPLES },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "switch", no_argument, NULL, OPT_SWITCH },
	{ "clocksource", required_argument, NULL, OPT_CLOCKSOURCE },
	{ "raw-io", no_argument, NULL, OPT_RAW_IO },
	{ "sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	ARGS_OPTIONS_END
};

static const struct args_spec os_spec = {
	.name = "os",
	.synopsis = "[options]",
	.help = "Measures what this Linux system's clock calls cost (clock_gettime, gettimeofday,\n"
		"time), per clocksource, plus raw rdtsc/rdtscp reads and context switches, and\n"
		"writes a tickprobe log (JSON lines) with a summary on stderr.\n\n"
		"  -o FILE            write the log to FILE (default: stdout)\n"
		"  --rounds N         rounds per measurement (default 10; 5 with --quick)\n"
		"  --samples N        calls measured per clock call, over all rounds (default 100000)\n"
		"  --quick            smaller counts everywhere (a fraction of a second)\n"
		"  --switch           measure every available clocksource in turn (root only);\n"
		"                     the original is always put back, also on SIGINT/SIGTERM\n"
		"  --clocksource NAME with --switch: measure only NAME\n"
		"  --raw-io           also read the ACPI PM timer and the HPET directly (root only)\n"
		"  --threads N        also time clock_gettime while 1, 2, 4 ... N threads on as many\n"
		"                     CPUs call it at once (contention), per clocksource\n"
		"  --sysfs-root DIR   read sys/ (clocksources, ACPI tables) under DIR, not / (tests)\n"
		"  -q, --quiet        no progress line (it shows only when stderr is a terminal)\n"
		"  --help             this text\n\n"
		"Without --switch only the current clocksource is measured and nothing is changed.\n",
	.exits = "Exit status: 0 done, 1 usage error or the run could not be completed.\n",
	.shortopts = "o:q",
	.longopts = os_options,
	/* no operands */
};

/* -1 to go on and measure, or the exit status to stop with (after --help,
 * or a usage error said). */
static int parse(int argc, char **argv, struct opts *o)
{
	long rounds = -1, samples = -1, threads = 0;
	struct args args, *a = &args;
	int c;

	memset(o, 0, sizeof *o);
	o->root = "/";
	args_start(a, &os_spec, argc, argv);
	while ((c = args_next(a)) > 0) {
		if (c == OPT_SWITCH)
			o->do_switch = true;
		else if (c == OPT_RAW_IO)
			o->raw_io = true;
		else if (c == OPT_QUICK)
			o->quick = true;
		else if (c == 'q' || c == OPT_QUIET)
			o->quiet = true;
		else if ((c == OPT_ROUNDS && args_long(a, 1, OS_MAX_ROUNDS, &rounds)) ||
			 (c == OPT_SAMPLES && args_long(a, 1, 100000000, &samples)) ||
			 (c == OPT_THREADS && args_long(a, 1, OS_THREADS_MAX, &threads)))
			return EXIT_USAGE;
		else if (c == OPT_CLOCKSOURCE)
			o->only = a->value;
		else if (c == OPT_SYSFS_ROOT && !*(o->root = a->value))
			return args_fail(a, "--sysfs-root wants a directory, not ''");
		else if (c == 'o')
			o->out = a->value;
	}
	if (c == ARGS_STOP)
		return a->status;
	/* Defaults: 1.0 s on a 2-CPU KVM guest on tsc (vDSO calls); --quick 0.15 s. */
	o->p.rounds = o->quick ? 5 : 10;
	o->p.samples = o->quick ? 20000 : 100000;
	o->p.tp_reads = o->quick ? 2000 : 10000;
	o->p.loop_calls = o->quick ? 100000 : 1000000;
	o->p.loop_runs = 10;
	o->p.gap_samples = o->quick ? 100000 : 1000000;
	o->p.vdso_calls = 1000;
	o->p.ctx_batches = o->quick ? 5 : 10;
	o->p.ctx_trips = o->quick ? 200 : 1000;
	o->cal_ms = o->quick ? 50 : 150;
	o->freq_ms = o->quick ? 10 : 50;
	o->p.threads = (int)threads;
	if (rounds > 0)
		o->p.rounds = (int)rounds;
	if (samples > 0)
		o->p.samples = (uint32_t)samples;
	if (o->p.samples < (uint32_t)o->p.rounds)
		return args_fail(a, "--samples %u is fewer than --rounds %d", o->p.samples, o->p.rounds);
	return -1;
}

static bool listed(const struct os_clocksources *cs, const char *name)
{
	for (int i = 0; i < cs->n; i++)
		if (!strcmp(cs->available[i], name))
			return true;
	return false;
}

static void write_begin(struct log *l, int argc, char **argv, const struct opts *o,
			const struct os_clocksources *cs, char (*todo)[OS_CS_NAME], int ntodo, int cpu)
{
	struct utsname u;
	char cmd[1024];
	size_t n = 0;
	struct json *j;

	cmd[0] = 0;
	for (int i = 0; i < argc && n + 2 < sizeof cmd; i++)
		n += (size_t)snprintf(cmd + n, sizeof cmd - n, "%s%s", i ? " " : "", argv[i]);
	if (uname(&u) != 0)
		memset(&u, 0, sizeof u);
	j = log_begin(l, "begin");
	json_u64(j, "schema", LOG_SCHEMA);
	json_str(j, "version", TICKPROBE_VERSION);
	json_str(j, "boot", "linux");
	json_str(j, "cmdline", cmd);
	json_object_begin(j, "kernel");
	json_str(j, "sysname", u.sysname);
	json_str(j, "release", u.release);
	json_str(j, "version", u.version);
	json_str(j, "machine", u.machine);
	json_object_end(j);
	json_array_begin(j, "clocksources");
	for (int i = 0; i < cs->n; i++)
		json_str(j, NULL, cs->available[i]);
	json_array_end(j);
	json_str(j, "current_clocksource", cs->current);
	json_array_begin(j, "measured_clocksources");
	for (int i = 0; i < ntodo; i++)
		json_str(j, NULL, todo[i]);
	json_array_end(j);
	json_bool(j, "switching", o->do_switch);
	json_str(j, "note", o->do_switch ? "each measured clocksource was switched to in turn; the original was put back"
					 : "the current clocksource only (no --switch): nothing was changed");
	json_str(j, "clocksource_problem", cs->problem[0] ? cs->problem : NULL);
	json_object_begin(j, "options");
	json_str(j, "preset", o->quick ? "quick" : "default");
	json_u64(j, "rounds", (uint64_t)o->p.rounds);
	json_u64(j, "samples", o->p.samples);
	json_u64(j, "samples_per_round", o->p.samples / (uint32_t)o->p.rounds);
	json_array_begin(j, "counters");
	for (int i = 0; i < OS_NCALLS; i++)
		json_str(j, NULL, os_calls[i].call);
	json_array_end(j);
	json_bool(j, "switch", o->do_switch);
	json_bool(j, "raw_io", o->raw_io);
	json_str(j, "clocksource", o->only);
	json_str(j, "sysfs_root", o->root);
	json_u64(j, "throughput_reads", o->p.tp_reads);
	json_u64(j, "loop_calls", o->p.loop_calls);
	json_u64(j, "loop_runs", (uint64_t)o->p.loop_runs);
	json_u64(j, "gap_samples", o->p.gap_samples);
	json_u64(j, "vdso_calls", o->p.vdso_calls);
	json_u64(j, "ctxsw_batches", o->p.ctx_batches);
	json_u64(j, "ctxsw_round_trips", o->p.ctx_trips);
	json_i64(j, "cpu", cpu);
	json_u64(j, "threads", (uint64_t)o->p.threads);
	json_object_end(j);
	json_array_begin(j, "option_problems");
	json_array_end(j);
	log_end(l);
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The restore's outcome in words, once. */
static void say_restored(const char *original)
{
	const char *instead = os_cs_restored_instead();

	if (instead[0])
		fprintf(stderr, "tickprobe os: clocksource '%s' can no longer be selected (the kernel replaced it during "
				"the run); the kernel's own choice '%s' is in use, as it would be without this run\n",
			original, instead);
	else
		fprintf(stderr, "tickprobe os: clocksource %s restored\n", original);
}

/* Says why the run stopped, puts the clocksource back, returns 1. */
static int fail(const char *what, const char *original)
{
	char err[OS_CS_PATH + 256];
	bool was = os_cs_switched();

	fprintf(stderr, "tickprobe os: %s\n", what);
	if (os_cs_restore(err, sizeof err) < 0)
		fprintf(stderr, "tickprobe os: %s\n", err);
	else if (was && os_cs_restored_instead()[0])
		say_restored(original);
	else if (was)
		fprintf(stderr, "tickprobe os: clocksource restored\n");
	os_cs_guard_disarm();
	return EXIT_USAGE;
}

/* One clocksource: switched to (with --switch), then measured.  -1 when
 * out of memory. */
static int measure_one(struct log *l, const struct opts *o, struct os_clocksources *cs, const char *name,
		       uint64_t subtract, double hz, int cpu, int *unhealthy)
{
	char err[OS_CS_PATH + 128], cur[OS_CS_NAME];
	const char *skip = NULL;

	if (o->do_switch && (os_cs_read_current(cs, cur, sizeof cur) < 0 || strcmp(cur, name))) {
		os_cs_refresh(cs); /* it may have gone since: tsc-early once tsc is calibrated */
		if (!listed(cs, name)) {
			snprintf(err, sizeof err, "'%s' is no longer an available clocksource: the kernel withdrew it "
				 "during the run", name);
			skip = err;
		} else if (os_cs_switch(cs, name, err, sizeof err) < 0)
			skip = err;
		else {
			struct timespec settle = { 0, 20000000 }; /* 20 ms for the timekeeping switch */
			nanosleep(&settle, NULL);
		}
		if (skip)
			fprintf(stderr, "tickprobe os: %s\n", skip);
	}
	return os_measure_clocksource(l, &o->p, name, skip, subtract, hz, cpu, unhealthy);
}

/* One run of the command: what it measures, and what it has found so far. */
struct session {
	struct opts o;
	struct log lg;
	struct os_clocksources cs;
	char todo[OS_CS_MAX][OS_CS_NAME];
	int ntodo, later[OS_CS_MAX], nlater, cpu, unhealthy;
	struct os_machine m;
	struct os_tsc_cal cal;
	uint64_t subtract;
	struct progress prog;
};

/* The clocksources to measure, from sysfs and the options; -1 to go on, or
 * the exit status. */
static int choose(struct session *s)
{
	struct opts *o = &s->o;
	struct os_clocksources *cs = &s->cs;

	if (os_cs_discover(o->root, cs) < 0) {
		if (o->do_switch) {
			fprintf(stderr, "tickprobe os: %s; cannot switch\n", cs->problem);
			return EXIT_USAGE;
		}
		fprintf(stderr, "tickprobe os: %s; labelling the measurements 'unknown'\n", cs->problem);
		snprintf(cs->current, sizeof cs->current, "unknown");
	} else if (cs->problem[0])
		fprintf(stderr, "tickprobe os: note: %s\n", cs->problem);
	if (o->only && !o->do_switch && strcmp(o->only, cs->current)) {
		fprintf(stderr, "tickprobe os: --clocksource %s needs --switch (the current one is %s)\n", o->only,
			cs->current);
		return EXIT_USAGE;
	}
	if (o->only && o->do_switch && !listed(cs, o->only)) {
		fprintf(stderr, "tickprobe os: --clocksource %s is not available here (available:", o->only);
		for (int i = 0; i < cs->n; i++)
			fprintf(stderr, " %s", cs->available[i]);
		fprintf(stderr, ")\n");
		return EXIT_USAGE;
	}
	if (o->only)
		snprintf(s->todo[s->ntodo++], OS_CS_NAME, "%s", o->only);
	else if (o->do_switch)
		for (int i = 0; i < cs->n; i++)
			snprintf(s->todo[s->ntodo++], OS_CS_NAME, "%s", cs->available[i]);
	else
		snprintf(s->todo[s->ntodo++], OS_CS_NAME, "%s", cs->current);
	return -1;
}

/* rdtsc allowed, the log file open, signals that would kill a restore
 * ignored, the restore guard armed; -1 to go on, or the exit status. */
static int prepare(struct session *s)
{
	int tsc_mode = 0;

	if (prctl(PR_GET_TSC, &tsc_mode, 0, 0, 0) == 0 && tsc_mode != PR_TSC_ENABLE) {
		fprintf(stderr, "tickprobe os: rdtsc is disabled for this process (PR_SET_TSC)\n");
		return EXIT_USAGE;
	}
	if (s->o.out) {
		log_fd = open(s->o.out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (log_fd < 0) {
			fprintf(stderr, "tickprobe os: cannot write %s: %s\n", s->o.out, strerror(errno));
			return EXIT_USAGE;
		}
	}
	/* A closed pipe or a full disk must come back as an error (and a restore),
	 * not kill the process. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	os_cs_guard_arm(&s->cs, isatty(log_fd) ? -1 : log_fd);
	return -1;
}

static void say_plan(const struct session *s)
{
	const struct os_clocksources *cs = &s->cs;

	fprintf(stderr, "tickprobe os: clocksources:");
	for (int i = 0; i < cs->n; i++)
		fprintf(stderr, " %s", cs->available[i]);
	fprintf(stderr, " (current %s)\n", cs->current);
	if (s->o.do_switch)
		fprintf(stderr, "tickprobe os: switching to each of %d in turn; %s is put back at the end\n", s->ntodo,
			cs->current);
	else
		fprintf(stderr, "tickprobe os: measuring the current clocksource (%s) only; --switch (root) measures each\n",
			cs->current);
}

/* The TSC against CLOCK_MONOTONIC_RAW and the bracket's own cost; 0, or -1
 * with why. */
static int calibrate(struct session *s, const char **why)
{
	struct os_dist *ovh;

	os_tsc_calibrate(&s->cal, s->o.cal_ms);
	if (s->cal.hz <= 0)
		return *why = "could not calibrate the TSC against CLOCK_MONOTONIC_RAW", -1;
	os_write_tsc(&s->lg, &s->cal, s->m.invariant_tsc);
	if (!(ovh = os_dist_new()))
		return *why = "out of memory", -1;
	s->subtract = os_overhead(ovh, s->o.p.rounds, s->o.p.samples / (uint32_t)s->o.p.rounds, s->cal.hz);
	os_write_overhead(&s->lg, os_bracket_name(), ovh, s->subtract);
	fprintf(stderr, "TSC %.3f MHz (against CLOCK_MONOTONIC_RAW over %.3f s, +-%.2f ppm); bracket %s: "
			"p50 %llu cycles, min %llu subtracted; pinned to CPU %d\n",
		s->cal.hz / 1e6, s->cal.interval_s, s->cal.err_ppm, os_bracket_name(),
		(unsigned long long)hist_quantile(ovh->h, 500000), (unsigned long long)s->subtract, s->cpu);
	os_dist_free(ovh);
	return 0;
}

/* Raw reads first, before any switch: nothing they do depends on it. */
static void measure_raw(struct session *s)
{
	const struct opts *o = &s->o;
	struct os_raw_line raw[4];
	struct os_raw_opts ro = { o->root, o->raw_io, o->p.rounds, o->p.samples / (uint32_t)o->p.rounds,
				  o->p.tp_reads, s->subtract, s->cal.hz, o->freq_ms };
	int nraw = os_raw_run(&s->lg, &s->m, &ro, raw, &s->unhealthy);

	fprintf(stderr, "\nraw counters from user space\n");
	for (int i = 0; i < nraw; i++) {
		if (raw[i].healthy)
			fprintf(stderr, "  %-10s p50 %.1f ns, mean %.1f ns\n", raw[i].name, raw[i].p50_ns, raw[i].mean_ns);
		else
			fprintf(stderr, "  %-10s skipped: %s\n", raw[i].name, raw[i].reason);
	}
	if (!o->raw_io)
		fprintf(stderr, "  (PM timer and HPET: only with --raw-io, as root)\n");
}

/* Each clocksource chosen, then any that came during the run (tsc, once
 * calibrated, in place of tsc-early).  0; -1 out of memory; 1 the log
 * could not be written. */
static int measure_clocksources(struct session *s)
{
	struct os_clocksources *cs = &s->cs;

	for (int i = 0; i < s->ntodo; i++) {
		if (measure_one(&s->lg, &s->o, cs, s->todo[i], s->subtract, s->cal.hz, s->cpu, &s->unhealthy) < 0)
			return -1;
		if (log_errno)
			return 1;
	}
	if (!s->o.do_switch || s->o.only || os_cs_refresh(cs) != 0)
		return 0;
	for (int i = 0; i < cs->n && s->ntodo < OS_CS_MAX; i++) {
		int k = 0;
		while (k < s->ntodo && strcmp(s->todo[k], cs->available[i]))
			k++;
		if (k < s->ntodo)
			continue;
		snprintf(s->todo[s->ntodo], OS_CS_NAME, "%s", cs->available[i]);
		fprintf(stderr, "\ntickprobe os: clocksource %s appeared during the run: measuring it too\n",
			s->todo[s->ntodo]);
		s->later[s->nlater++] = s->ntodo++;
		if (measure_one(&s->lg, &s->o, cs, s->todo[s->ntodo - 1], s->subtract, s->cal.hz, s->cpu,
				&s->unhealthy) < 0)
			return -1;
		if (log_errno)
			return 1;
	}
	return 0;
}

/* --switch: the original clocksource put back, and the restore record. */
static int restore(struct session *s)
{
	char err[OS_CS_PATH + 256];
	bool ok = os_cs_restore(err, sizeof err) == 0;
	const char *instead = os_cs_restored_instead();
	struct json *j = log_begin(&s->lg, "restore");

	json_str(j, "clocksource", s->cs.current);
	json_bool(j, "ok", ok);
	json_str(j, "now", ok ? (instead[0] ? instead : s->cs.current) : NULL);
	if (ok && instead[0])
		json_str(j, "note", "the original can no longer be selected (the kernel replaced it during the run): "
				    "the override was cleared and the kernel chose");
	json_array_begin(j, "measured_later");
	for (int i = 0; i < s->nlater; i++)
		json_str(j, NULL, s->todo[s->later[i]]);
	json_array_end(j);
	log_end(&s->lg);
	if (!ok) {
		log_close(&s->lg, "failed");
		fprintf(stderr, "\ntickprobe os: %s\n", err);
		os_cs_guard_disarm(); /* already said: not again */
		return EXIT_USAGE;
	}
	fputc('\n', stderr);
	say_restored(s->cs.current);
	return -1;
}

/* Everything after the checks: the records in order, the end. */
static int run(struct session *s, int argc, char **argv)
{
	const char *why = NULL;
	char msg[OS_CS_PATH + 256];
	double t_start = now_s();
	int rc;

	os_machine_read(&s->m);
	os_have_rdtscp = s->m.rdtscp;
	os_cpus_allowed(&s->o.cpus);
	s->o.p.cpus = &s->o.cpus;
	s->cpu = os_pin_self();
	progress_init(&s->prog, "tickprobe os", stderr, s->o.quiet);
	s->o.p.prog = &s->prog;
	log_init(&s->lg, sink, NULL);
	say_plan(s);
	write_begin(&s->lg, argc, argv, &s->o, &s->cs, s->todo, s->ntodo, s->cpu);
	os_write_machine(&s->lg, &s->m);
	if (calibrate(s, &why) < 0)
		return fail(why, s->cs.current);
	if (!log_errno)
		measure_raw(s);
	if (!log_errno && measure_clocksources(s) < 0)
		return fail("out of memory", s->cs.current);
	if (!log_errno && s->o.do_switch && (rc = restore(s)) >= 0)
		return rc;
	if (!log_errno)
		log_close(&s->lg, s->unhealthy ? "ok-absent" : "ok");
	if (log_errno) {
		snprintf(msg, sizeof msg, "cannot write the log%s%s: %s", s->o.out ? " " : "", s->o.out ? s->o.out : "",
			 strerror(log_errno));
		return fail(msg, s->cs.current);
	}
	os_cs_guard_disarm();
	fprintf(stderr, "\nrun time %.1f s; %u records%s%s\n", now_s() - t_start, s->lg.seq, s->o.out ? " in " : "",
		s->o.out ? s->o.out : "");
	if (s->o.out)
		close(log_fd);
	return EXIT_CLEAN;
}

int cmd_os(int argc, char **argv)
{
	static struct session s; /* large: the clocksources, the log writer */
	int rc;

	memset(&s, 0, sizeof s);
	if ((rc = parse(argc, argv, &s.o)) >= 0)
		return rc;
#if !defined(__x86_64__)
	fprintf(stderr, "tickprobe os: x86-64 only\n");
	return EXIT_USAGE;
#endif
	if (s.o.do_switch && geteuid() != 0) {
		fprintf(stderr, "tickprobe os: --switch writes current_clocksource and needs root; "
				"without it the current clocksource is measured\n");
		return EXIT_USAGE;
	}
	if ((rc = choose(&s)) >= 0 || (rc = prepare(&s)) >= 0)
		return rc;
	return run(&s, argc, argv);
}
