/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe os's options and its begin record (see options.h). */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/os/calls.h"
#include "tools/os/cs_run.h"
#include "tools/os/options.h"
#include "probe/options.h"
#include "probe/records_run.h"

enum { OPT_ROUNDS = ARGS_OPT_FIRST, OPT_SAMPLES, OPT_QUICK, OPT_SWITCH, OPT_CLOCKSOURCE, OPT_RAW_IO,
       OPT_SYSFS_ROOT, OPT_THREADS, OPT_QUIET, OPT_WATCH, OPT_WATCH_FAKE, OPT_PROMETHEUS, OPT_RESTORE,
       OPT_LOCK_WAIT };

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
	{ "watch", required_argument, NULL, OPT_WATCH },
	{ "watch-fake", required_argument, NULL, OPT_WATCH_FAKE },
	{ "prometheus", required_argument, NULL, OPT_PROMETHEUS },
	{ "restore", no_argument, NULL, OPT_RESTORE },
	{ "lock-wait", required_argument, NULL, OPT_LOCK_WAIT },
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
		"                     the original is always put back, also on any signal that\n"
		"                     would end the run; one switcher at a time (a lock in\n"
		"                     /run/tickprobe), and a restore record there that the next\n"
		"                     switcher or --restore uses after a SIGKILL\n"
		"  --restore          only put back the clocksource that a switcher killed before\n"
		"                     it could restore left in use (its restore record), then\n"
		"                     exit (root only); nothing to do: exit 0\n"
		"  --lock-wait S      --switch and --restore wait up to S seconds (default 30; 0:\n"
		"                     not at all) while another switcher runs, then refuse\n"
		"  --clocksource NAME with --switch: measure only NAME\n"
		"  --raw-io           also read the ACPI PM timer and the HPET directly (root only)\n"
		"  --threads N        also time clock_gettime while 1, 2, 4 ... N threads on as many\n"
		"                     CPUs call it at once (contention), per clocksource\n"
		"  --watch DURATION   in place of the measurements, weigh every clock against the\n"
		"                     others for DURATION (90, 90s, 10m, 2h; at most 24h): the TSC,\n"
		"                     CLOCK_MONOTONIC_RAW and, with --raw-io, the PM timer and the\n"
		"                     HPET, each read every 0.5 s, and each other CPU's TSC offset\n"
		"                     once in every 1/32 of DURATION.  It sleeps between reads: about\n"
		"                     0.1 ms of one CPU every 0.5 s, and a few ms on each CPU once a\n"
		"                     1/32 (the ping-pong), so a production server can run it\n"
		"  --watch-fake NAME:PPM[,NAME:PPM]\n"
		"                     with --watch, more clocks that are CLOCK_MONOTONIC_RAW run PPM\n"
		"                     off (tests: clocks with a known answer)\n"
		"  --prometheus FILE  also write the run's figures as metrics for node_exporter's textfile\n"
		"                     collector (the directory it reads), replacing FILE\n"
		"                     whole: the current clocksource, clock_gettime's cost per\n"
		"                     clocksource, the TSC's rate, a watch's rates and drifts\n"
		"  --sysfs-root DIR   read sys/ (clocksources, ACPI tables) and keep run/tickprobe\n"
		"                     (the lock, the restore record) under DIR, not / (tests)\n"
		"  -q, --quiet        no progress line (it shows only when stderr is a terminal)\n"
		"  --help             this text\n\n"
		"Without --switch only the current clocksource is measured and nothing is changed.\n",
	.exits = "Exit status: 0 done, 1 usage error or the run could not be completed.\n",
	.shortopts = "o:q",
	.longopts = os_options,
	/* no operands */
};

int os_options_parse(int argc, char **argv, struct os_opts *o)
{
	long rounds = -1, samples = -1, threads = 0;
	struct args args, *a = &args;
	int c;

	memset(o, 0, sizeof *o);
	o->root = "/";
	o->lock_wait = OS_LOCK_WAIT_DEFAULT;
	args_start(a, &os_spec, argc, argv);
	while ((c = args_next(a)) > 0) {
		if (c != OPT_RESTORE && c != OPT_LOCK_WAIT && c != OPT_SYSFS_ROOT && c != 'q' && c != OPT_QUIET)
			o->others++;
		o->lock_wait_given |= c == OPT_LOCK_WAIT;
		if (c == OPT_RESTORE)
			o->restore = true;
		else if (c == OPT_SWITCH)
			o->do_switch = true;
		else if (c == OPT_RAW_IO)
			o->raw_io = true;
		else if (c == OPT_QUICK)
			o->quick = true;
		else if (c == 'q' || c == OPT_QUIET)
			o->quiet = true;
		else if ((c == OPT_ROUNDS && args_long(a, 1, OS_MAX_ROUNDS, &rounds)) ||
			 (c == OPT_SAMPLES && args_long(a, 1, 100000000, &samples)) ||
			 (c == OPT_THREADS && args_long(a, 1, OS_THREADS_MAX, &threads)) ||
			 (c == OPT_LOCK_WAIT && args_double(a, 0, 3600, &o->lock_wait)))
			return EXIT_USAGE;
		else if (c == OPT_CLOCKSOURCE)
			o->only = a->value;
		else if (c == OPT_SYSFS_ROOT && !*(o->root = a->value))
			return args_fail(a, "--sysfs-root wants a directory, not ''");
		else if (c == 'o')
			o->out = a->value;
		else if (c == OPT_WATCH && !options_duration(a->value, &o->watch_s))
			return args_fail(a, "--watch wants a duration up to 24h (90, 90s, 10m, 2h), not '%s'", a->value);
		else if (c == OPT_WATCH_FAKE)
			o->watch_fake = a->value;
		else if (c == OPT_PROMETHEUS && !*(o->prometheus = a->value))
			return args_fail(a, "--prometheus wants a file");
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
	if (o->watch_s && o->do_switch)
		return args_fail(a, "--watch watches the clocks as they are: it does not go with --switch");
	if (o->watch_fake && !o->watch_s)
		return args_fail(a, "--watch-fake goes with --watch");
	if (o->restore && o->others)
		return args_fail(a, "--restore goes alone (with --sysfs-root and --lock-wait only)");
	if (o->lock_wait_given && !o->do_switch && !o->restore)
		return args_fail(a, "--lock-wait goes with --switch or --restore");
	return -1;
}

/* begin.options: tickprobe os's options in force. */
static void begin_options(struct put_begin b, const struct os_opts *o, int cpu)
{
	struct put_begin_options opts = put_begin_options_open(b);
	struct put_begin_options_counters_list counters;

	put_begin_options_preset(opts, o->quick ? "quick" : "default");
	put_begin_options_rounds(opts, (uint64_t)o->p.rounds);
	put_begin_options_samples(opts, o->p.samples);
	put_begin_options_samples_per_round(opts, o->p.samples / (uint32_t)o->p.rounds);
	counters = put_begin_options_counters_open(opts);
	for (int i = 0; i < OS_NCALLS; i++)
		put_begin_options_counters_add(counters, os_calls[i].call);
	put_begin_options_counters_close(counters);
	put_begin_options_do_switch(opts, o->do_switch);
	put_begin_options_raw_io(opts, o->raw_io);
	put_begin_options_clocksource(opts, o->only);
	put_begin_options_sysfs_root(opts, o->root);
	put_begin_options_throughput_reads(opts, o->p.tp_reads);
	put_begin_options_loop_calls(opts, o->p.loop_calls);
	put_begin_options_loop_runs(opts, (uint64_t)o->p.loop_runs);
	put_begin_options_gap_samples(opts, o->p.gap_samples);
	put_begin_options_vdso_calls(opts, o->p.vdso_calls);
	put_begin_options_ctxsw_batches(opts, o->p.ctx_batches);
	put_begin_options_ctxsw_round_trips(opts, o->p.ctx_trips);
	put_begin_options_cpu(opts, cpu);
	put_begin_options_threads(opts, (uint64_t)o->p.threads);
	put_begin_options_close(opts);
}

/* The kernel and its clocksources. */
static void begin_kernel(struct put_begin b, const struct os_clocksources *cs, char (*todo)[OS_CS_NAME], int ntodo)
{
	struct utsname u;
	struct put_kernel k = put_begin_kernel_open(b);
	struct put_begin_clocksources_list all;
	struct put_begin_measured_clocksources_list measured;

	if (uname(&u) != 0)
		memset(&u, 0, sizeof u);
	put_kernel_sysname(k, u.sysname);
	put_kernel_release(k, u.release);
	put_kernel_version(k, u.version);
	put_kernel_machine(k, u.machine);
	put_kernel_close(k);
	all = put_begin_clocksources_open(b);
	for (int i = 0; i < cs->n; i++)
		put_begin_clocksources_add(all, cs->available[i]);
	put_begin_clocksources_close(all);
	put_begin_current_clocksource(b, cs->current);
	measured = put_begin_measured_clocksources_open(b);
	for (int i = 0; i < ntodo; i++)
		put_begin_measured_clocksources_add(measured, todo[i]);
	put_begin_measured_clocksources_close(measured);
}

void os_write_begin(struct log *l, int argc, char **argv, const struct os_opts *o,
		    const struct os_clocksources *cs, char (*todo)[OS_CS_NAME], int ntodo, int cpu)
{
	char cmd[1024];
	size_t n = 0;
	struct put_begin b;

	cmd[0] = 0;
	for (int i = 0; i < argc && n + 2 < sizeof cmd; i++)
		n += (size_t)snprintf(cmd + n, sizeof cmd - n, "%s%s", i ? " " : "", argv[i]);
	b = record_begin_head(l, "linux", NULL, cmd);
	begin_kernel(b, cs, todo, ntodo);
	put_begin_switching(b, o->do_switch);
	put_begin_note(b, o->do_switch ? "each measured clocksource was switched to in turn; the original was put back"
				       : "the current clocksource only (no --switch): nothing was changed");
	put_begin_clocksource_problem(b, cs->problem[0] ? cs->problem : NULL);
	begin_options(b, o, cpu);
	put_begin_option_problems_close(put_begin_option_problems_open(b));
	log_end(l);
}
