/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe os: what this Linux system's clock calls cost, per clocksource,
 * in the probe's log format (docs/log-format.md, "OS-side records").
 *
 * Unprivileged by default and measuring only the current clocksource; with
 * --switch (root) each available clocksource in turn, one switcher at a time,
 * the original always put back (tools/os/clocksource.h, tools/os/cs_run.h);
 * --restore puts back what a killed switcher left.  Raw counter reads that
 * need I/O privilege only with --raw-io. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include "probe/log.h"
#include "tools/commands.h"
#include "tools/lib/progress.h"
#include "tools/os/bench.h"
#include "tools/os/calls.h"
#include "tools/os/clocksource.h"
#include "tools/os/cs_run.h"
#include "tools/os/ctxsw.h"
#include "tools/os/machine.h"
#include "tools/os/options.h"
#include "tools/os/raw.h"
#include "tools/os/record.h"
#include "tools/os/run.h"
#include "tools/os/threads.h"
#include "tools/os/watch.h"
#include "tools/os/prometheus.h"
#include "tools/lib/textbuf.h"

/* Where the log goes: stdout or -o's file, and the first write error
 * (0: none), after which nothing more is written. */
struct log_out {
	int fd;
	int err;
	bool keep;        /* --prometheus: a copy of the records kept too */
	struct text copy;
};

static void sink(void *ctx, const char *s, size_t n)
{
	struct log_out *out = ctx;

	if (out->keep)
		text_put(&out->copy, s, n);
	while (n && !out->err) {
		ssize_t w = write(out->fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			out->err = errno;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
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
static int measure_one(struct log *l, const struct os_opts *o, struct os_clocksources *cs, const char *name,
		       uint64_t subtract, double hz, int cpu, int *unhealthy)
{
	char err[OS_CS_PATH + 128], cur[OS_CS_NAME];
	const char *skip = NULL;

	if (o->do_switch && (os_cs_read_current(cs, cur, sizeof cur) < 0 || strcmp(cur, name))) {
		os_cs_refresh(cs); /* it may have gone since: tsc-early once tsc is calibrated */
		if (!os_cs_listed(cs, name)) {
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
	struct os_opts o;
	struct log_out out;
	struct log lg;
	struct os_clocksources cs;
	struct os_cs_run run;      /* --switch: the lock held, the restore record's directory */
	char todo[OS_CS_MAX][OS_CS_NAME];
	int ntodo, later[OS_CS_MAX], nlater, cpu, unhealthy;
	struct host_machine m;
	struct os_tsc_cal cal;
	uint64_t subtract;
	struct progress prog;
};

/* The clocksources to measure, from sysfs and the options; -1 to go on, or
 * the exit status. */
static int choose(struct session *s)
{
	struct os_opts *o = &s->o;
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
	if (!o->do_switch) {
		char note[sizeof cs->problem];
		os_run_peek(o->root, note, sizeof note);
		if (note[0])
			fprintf(stderr, "tickprobe os: note: %s\n", note);
		if (note[0] && !cs->problem[0])
			snprintf(cs->problem, sizeof cs->problem, "%s", note);
	}
	if (o->only && !o->do_switch && strcmp(o->only, cs->current)) {
		fprintf(stderr, "tickprobe os: --clocksource %s needs --switch (the current one is %s)\n", o->only,
			cs->current);
		return EXIT_USAGE;
	}
	if (o->only && o->do_switch && !os_cs_listed(cs, o->only)) {
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
		s->out.fd = open(s->o.out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (s->out.fd < 0) {
			fprintf(stderr, "tickprobe os: cannot write %s: %s\n", s->o.out, strerror(errno));
			return EXIT_USAGE;
		}
	}
	/* A closed pipe or a full disk must come back as an error (and a restore),
	 * not kill the process. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	os_cs_guard_arm(&s->cs, s->o.do_switch ? s->run.dir_fd : -1, isatty(s->out.fd) ? -1 : s->out.fd);
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
	if (s->cal.hz <= 0) {
		*why = "could not calibrate the TSC against CLOCK_MONOTONIC_RAW";
		return -1;
	}
	os_write_tsc(&s->lg, &s->cal, s->m.invariant_tsc);
	if (!(ovh = os_dist_new())) {
		*why = "out of memory";
		return -1;
	}
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
	const struct os_opts *o = &s->o;
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

/* --watch: the live watch (tools/os/watch.h) in place of the measurements;
 * 0, or -1 with why. */
static int watch(struct session *s, const char **why)
{
	static char buf[200];
	struct os_watch_opts wo = { s->o.watch_s, s->o.raw_io, s->o.root, s->cal.hz, s->cal.err_ppm, &s->o.cpus,
				    s->cpu, s->o.watch_fake, s->o.quiet };

	if (os_watch_run(&s->lg, &wo, buf, sizeof buf) < 0) {
		*why = buf;
		return -1;
	}
	return 0;
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
		if (s->out.err)
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
		if (s->out.err)
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
	int rc = -1;

	host_machine_read(&s->m);
	os_have_rdtscp = s->m.rdtscp;
	os_cpus_allowed(&s->o.cpus);
	s->o.p.cpus = &s->o.cpus;
	s->cpu = os_pin_self();
	progress_init(&s->prog, "tickprobe os", stderr, s->o.quiet);
	s->out.keep = s->o.prometheus != NULL;
	s->o.p.prog = &s->prog;
	log_init(&s->lg, sink, &s->out);
	say_plan(s);
	os_write_begin(&s->lg, argc, argv, &s->o, &s->cs, s->todo, s->ntodo, s->cpu);
	os_write_machine(&s->lg, &s->m);
	if (calibrate(s, &why) < 0)
		return fail(why, s->cs.current);
	if (s->o.watch_s && !s->out.err && watch(s, &why) < 0)
		return fail(why, s->cs.current);
	if (!s->o.watch_s && !s->out.err)
		measure_raw(s);
	if (!s->o.watch_s && !s->out.err && measure_clocksources(s) < 0)
		return fail("out of memory", s->cs.current);
	if (!s->out.err && s->o.do_switch && (rc = restore(s)) >= 0)
		return rc;
	if (!s->out.err)
		log_close(&s->lg, s->unhealthy ? "ok-absent" : "ok");
	if (s->out.err) {
		snprintf(msg, sizeof msg, "cannot write the log%s%s: %s", s->o.out ? " " : "", s->o.out ? s->o.out : "",
			 strerror(s->out.err));
		return fail(msg, s->cs.current);
	}
	os_cs_guard_disarm();
	if (s->o.prometheus && os_prometheus_write(s->o.prometheus, s->out.copy.s, s->out.copy.len, msg, sizeof msg)) {
		fprintf(stderr, "tickprobe os: %s\n", msg);
		rc = EXIT_USAGE;
	}
	free(s->out.copy.s);
	fprintf(stderr, "\nrun time %.1f s; %u records%s%s%s%s\n", now_s() - t_start, s->lg.seq, s->o.out ? " in " : "",
		s->o.out ? s->o.out : "", s->o.prometheus && rc != EXIT_USAGE ? "; metrics in " : "",
		s->o.prometheus && rc != EXIT_USAGE ? s->o.prometheus : "");
	if (s->o.out)
		close(s->out.fd);
	return rc == EXIT_USAGE ? EXIT_USAGE : EXIT_CLEAN;
}

/* A restore record whose switcher ended without restoring (the lock is
 * ours, so it is not at work): its original put back, said.  asked: for
 * --restore, where no record is no error.  -1 to go on, or the exit status. */
static int recover(const char *root, const struct os_cs_run *run, bool asked)
{
	static struct os_clocksources cs;
	char why[OS_CS_PATH + 400];
	struct os_cs_record rec;
	int found = os_cs_record_read(run->dir_fd, &rec, why, sizeof why);

	if (found < 0) {
		fprintf(stderr, "tickprobe os: restore record: %s/" OS_CS_RECORD " cannot be used (%s): check "
				"current_clocksource, then remove the file by hand\n", run->dir, why);
		return EXIT_USAGE;
	}
	if (!found) {
		if (asked)
			fprintf(stderr, "tickprobe os: nothing to restore: no restore record in %s\n", run->dir);
		return asked ? EXIT_CLEAN : -1;
	}
	if (os_cs_discover(root, &cs) < 0) {
		fprintf(stderr, "tickprobe os: restore record: process %ld left '%s' to put back, but %s\n", rec.pid,
			rec.original, cs.problem);
		return EXIT_USAGE;
	}
	found = os_cs_recover(&cs, run->dir_fd, rec.original, why, sizeof why);
	fprintf(stderr, "tickprobe os: restore record: process %ld switched the clocksource and ended without "
			"putting it back (killed?); %s\n", rec.pid, why);
	if (found != 0)
		return EXIT_USAGE;
	return asked ? EXIT_CLEAN : -1;
}

/* The run directory open and the lock held; -1 to go on, or the exit status. */
static int take_lock(const struct os_opts *o, struct os_cs_run *run, bool create)
{
	char why[OS_CS_PATH + 400];
	int rc = os_run_open(o->root, create, run, why, sizeof why);

	if (rc == 1) {
		fprintf(stderr, "tickprobe os: nothing to restore: no %s\n", run->dir);
		return EXIT_CLEAN;
	}
	if (rc != 0 || os_run_lock(run, o->lock_wait, why, sizeof why) != 0) {
		fprintf(stderr, "tickprobe os: %s; nothing was switched\n", why);
		os_run_close(run);
		return EXIT_USAGE;
	}
	return -1;
}

int cmd_os(int argc, char **argv)
{
	static struct session s; /* large: the clocksources, the log writer */
	int rc;

	memset(&s, 0, sizeof s);
	s.out.fd = 1;
	s.run.dir_fd = -1;
	s.run.lock_fd = -1;
	if ((rc = os_options_parse(argc, argv, &s.o)) >= 0)
		return rc;
#if !defined(__x86_64__)
	fprintf(stderr, "tickprobe os: x86-64 only\n");
	return EXIT_USAGE;
#endif
	if ((s.o.do_switch || s.o.restore) && geteuid() != 0) {
		fprintf(stderr, "tickprobe os: %s writes current_clocksource and needs root%s\n",
			s.o.restore ? "--restore" : "--switch",
			s.o.restore ? "" : "; without it the current clocksource is measured");
		return EXIT_USAGE;
	}
	if ((s.o.do_switch || s.o.restore) && (rc = take_lock(&s.o, &s.run, s.o.do_switch)) >= 0)
		return rc;
	if (s.o.restore || s.o.do_switch)
		rc = recover(s.o.root, &s.run, s.o.restore);
	if (rc < 0 && (rc = choose(&s)) < 0 && (rc = prepare(&s)) < 0)
		rc = run(&s, argc, argv);
	os_run_close(&s.run);
	return rc;
}
