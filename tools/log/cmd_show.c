/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe show LOG… [--json] [--run N]: one machine's results as a table.
 *
 * Per run: the timer table (cost per read in ns, throughput, frequency error,
 * health), then the machine fingerprint, the TSC frequency and its sources,
 * the harness overhead and the ACPI findings.  Damage is stated up front and
 * every problem goes to stderr as FILE:LINE: reason. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/json_out.h"
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/lib/logdir.h"
#include "tools/lib/logschema.h"
#include "tools/lib/logset.h"
#include "tools/log/show_cpus.h"
#include "tools/log/show_watch.h"
#include "tools/lib/verdict.h"
#include "tools/lib/textsafe.h"

enum { OPT_JSON = ARGS_OPT_FIRST, OPT_RUN, OPT_LATEST };

static const struct option show_options[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "run", required_argument, NULL, OPT_RUN },
	{ "latest", no_argument, NULL, OPT_LATEST },
	ARGS_OPTIONS_END
};

static const struct args_spec show_spec = {
	.name = "show",
	.synopsis = "LOG|DIR... [--json] [--run N] [--latest]",
	.help = "  Show the results of each run in LOG as a table (or, with --json, as one\n"
		"  JSON document).  A file with several runs shows each as FILE#N; --run N\n"
		"  picks one.  A DIR stands for every *.log below it; --latest reads only the\n"
		"  newest log of the DIRs given, or of the places a cable-less run leaves its\n"
		"  logs (/boot/efi/tickprobe/logs, tickprobe/logs on a mounted stick).\n"
		"  Problems go to stderr as FILE:LINE: reason.  --json writes the records as\n"
		"  the log has them, a control character as a JSON escape (\\u001b).\n" TS_HELP,
	.longopts = show_options,
	.operand = "LOG",
	.min_operands = 0, /* LOG... or --latest: checked below */
	.max_operands = ARGS_MANY, /* each LOG is read, shown and freed in turn */
};

/* A number member copied as written (exact), or null. */
static void jnum(FILE *o, const struct lr_node *n)
{
	char b[64];
	if (n && n->kind == LR_NUM)
		fputs(fmt_num(b, sizeof b, n, -1), o);
	else
		fputs("null", o);
}

/* A record is valid JSON on its own: embed it as written (exact numbers),
 * but for the bytes and characters that steer a terminal, which go out as
 * JSON escapes. */
static void jrecord(FILE *o, const struct lrun *r, const char *type)
{
	for (size_t i = 0; i < r->nrecs; i++)
		if (r->recs[i].type && !strcmp(r->recs[i].type, type)) {
			ts_json_copy(o, r->recs[i].text, r->recs[i].len);
			return;
		}
	fputs("null", o);
}

static const char *ns(char *b, size_t cap, struct ld_num v)
{
	if (v.state != LD_SET)
		return "-";
	snprintf(b, cap, "%.1f", v.v);
	return b;
}

/* A string member whole, escaped, to stdout; `none` when it is not a string. */
static void put_str(const struct lr_node *n, const char *none)
{
	if (n && lr_str(n))
		ts_write(stdout, n->str, n->len);
	else
		fputs(none, stdout);
}

/* A timer's name as shown (escaped), "?" when it has none. */
static const char *timer_name(char *buf, size_t cap, const struct ld_timer *t)
{
	const char *name = ts_str(buf, cap, ld_str_or(t->name, NULL));
	return name ? name : "?";
}

/* The frequency error column of a timer. */
static void freq_error(char *fr, size_t cap, const struct ld_freq *f)
{
	if (ld_true(f->reference)) {
		snprintf(fr, cap, "reference");
	} else if (f->ppm.state == LD_SET) {
		if (f->err_ppm.state == LD_SET)
			snprintf(fr, cap, "%+.2f +/- %.2f", f->ppm.v, f->err_ppm.v);
		else
			snprintf(fr, cap, "%+.2f", f->ppm.v);
	} else if (f->measured_hz.state == LD_SET && f->measured_hz.v >= 1e3) {
		/* No nominal rate to be off from (the APIC timer's bus clock,
		 * which no CPUID leaf states): the measured rate instead. */
		snprintf(fr, cap, "%.6g MHz", f->measured_hz.v / 1e6);
	} else {
		snprintf(fr, cap, "-");
	}
}

static void timer_line(const struct ld_timer *t, int w)
{
	char b[6][32], fr[48], rps[32], name[160];

	freq_error(fr, sizeof fr, &t->freq);
	if (t->throughput.reads_per_s.state == LD_SET)
		snprintf(rps, sizeof rps, "%.0f", t->throughput.reads_per_s.v);
	else
		snprintf(rps, sizeof rps, "-");
	printf("%-*s %9s %9s %9s %9s %9s %13s %18s  ", w, timer_name(name, sizeof name, t),
	       ns(b[0], 32, t->cost_ns.p50), ns(b[1], 32, t->cost_ns.min), ns(b[2], 32, t->cost_ns.mean),
	       ns(b[3], 32, t->cost_ns.sd), ns(b[4], 32, t->cost_ns.p99), rps, fr);
	if (ld_true(t->healthy))
		fputs("ok", stdout);
	else
		put_str(t->reason.node, "not healthy");
	if (t->note.state == LD_SET) {
		printf("\n%-*s note: ", w, "");
		put_str(t->note.node, "");
	}
	putchar('\n');
}

static void show_timers(const struct lrun *r)
{
	const struct lr_node *n;
	struct ld_timer t;
	struct ld_plan plan;
	char name[160];
	int w = 14; /* the name column fits the longest name (OS logs: "gettimeofday@tsc") */

	for (size_t i = 0; (n = lrun_timer_at(r, i)); i++) {
		ld_decode_timer(n, &t);
		if ((int)strlen(timer_name(name, sizeof name, &t)) > w)
			w = (int)strlen(name);
	}
	printf("%-*s %9s %9s %9s %9s %9s %13s %18s  %s\n", w, "counter", "p50 ns", "min ns", "mean ns",
	       "sd ns", "p99 ns", "reads/s", "freq error ppm", "health");
	for (size_t i = 0; (n = lrun_timer_at(r, i)); i++) {
		ld_decode_timer(n, &t);
		timer_line(&t, w);
	}
	/* Schema 2: counters this machine lacks by design have no timer
	 * record unless counters= named them, only their reason in plan.absent. */
	ld_decode_plan(lrun_first(r, "plan"), &plan);
	for (size_t i = 0; plan.absent.state == LD_SET && i < plan.absent.n; i++) {
		printf("%-*s absent by design: ", w, ts_str(name, sizeof name, ld_plan_absent_name(&plan, i)));
		put_str(ld_plan_absent_at(&plan, i).node, "?");
		putchar('\n');
	}
}

/* A member as text to show: a string escaped, a bool, a number as written. */
static const char *txt(const struct lr_node *n, char *b, size_t cap)
{
	const char *s = lr_str(n);
	if (n && s)
		return ts_strn(b, cap, s, n->len);
	if (n && n->kind == LR_BOOL)
		return n->b ? "yes" : "no";
	if (n && n->kind == LR_NUM)
		return fmt_num(b, cap, n, -1);
	return "unknown";
}

static void show_machine(const struct ld_machine *m)
{
	char b[8][256];

	printf("\nmachine   %s \"%s\"\n", txt(m->cpu_vendor.node, b[0], 256), txt(m->cpu_brand.node, b[1], 256));
	printf("          family %s model %s stepping %s microcode ", txt(m->family.node, b[2], 256),
	       txt(m->model.node, b[3], 256), txt(m->stepping.node, b[4], 256));
	if (m->microcode.state == LD_SET)
		printf("0x%llx\n", (unsigned long long)m->microcode.v);
	else
		printf("unknown\n");
	printf("          hypervisor %s, invariant TSC %s, cores %s\n",
	       m->hypervisor.state == LD_SET ? txt(m->hypervisor.node, b[7], 256) : "none",
	       txt(m->invariant_tsc.node, b[5], 256), txt(m->cores.node, b[6], 256));
}

static void show_tsc(const struct ld_tsc *t)
{
	char b[3][256];

	printf("tsc       ");
	if (t->hz.state == LD_SET)
		printf("%.6f MHz", t->hz.v / 1e6);
	else
		printf("frequency unknown");
	printf(" from %s", txt(t->source.node, b[0], 256));
	if (t->error_ppm.state == LD_SET)
		printf(" (+/- %.1f ppm)", t->error_ppm.v);
	printf("\n");
	for (size_t i = 0; t->sources.state == LD_SET && i < t->sources.n; i++)
		printf("          %-10s %s Hz\n", ts_str(b[2], 256, ld_tsc_sources_name(t, i)),
		       txt(ld_tsc_sources_at(t, i).node, b[1], 256));
}

static void show_acpi(const struct ld_acpi *a)
{
	char b[4][256];

	printf("acpi      root %s; PM timer ", txt(a->root.node, b[0], 256));
	if (a->pm_timer.ld.state == LD_SET && a->pm_timer.address.state == LD_SET)
		printf("%s 0x%llx, %s-bit", txt(a->pm_timer.space.node, b[1], 256),
		       (unsigned long long)a->pm_timer.address.v, txt(a->pm_timer.bits.node, b[2], 256));
	else
		printf("none");
	printf("; HPET ");
	if (a->hpet.ld.state == LD_SET && a->hpet.address.state == LD_SET) {
		printf("0x%llx", (unsigned long long)a->hpet.address.v);
		if (a->hpet.block_id.state == LD_SET)
			printf(" (block id 0x%08llx, %s table(s))", (unsigned long long)a->hpet.block_id.v,
			       txt(a->hpet.tables.node, b[3], 256));
	} else {
		printf("none");
	}
	printf("\n");
	for (size_t i = 0; a->problems.state == LD_SET && i < a->problems.n; i++) {
		fputs("          problem: ", stdout);
		put_str(ld_acpi_problems_at(a, i).node, "?");
		putchar('\n');
	}
}

static void show_rest(const struct lrun *r)
{
	const struct lr_node *m = lrun_first(r, "machine"), *t = lrun_first(r, "tsc");
	const struct lr_node *o = lrun_first(r, "overhead"), *a = lrun_first(r, "acpi");
	struct ld_machine machine;
	struct ld_tsc tsc;
	struct ld_overhead ov;
	struct ld_acpi acpi;
	char b[6][256];

	ld_decode_machine(m, &machine);
	ld_decode_tsc(t, &tsc);
	ld_decode_overhead(o, &ov);
	ld_decode_acpi(a, &acpi);
	if (m)
		show_machine(&machine);
	if (t)
		show_tsc(&tsc);
	if (o) {
		printf("overhead  %s: p50 %s cycles, min %s, mean %s, %s samples, %s subtracted\n",
		       txt(ov.sequence.node, b[0], 256), txt(ov.cycles.p50.node, b[1], 256),
		       txt(ov.cycles.min.node, b[2], 256), txt(ov.cycles.mean.node, b[3], 256),
		       txt(ov.samples.node, b[4], 256), txt(ov.subtracted.node, b[5], 256));
	}
	if (a)
		show_acpi(&acpi);
}

/* What followed the run (end.after, docs/log-format.md), and the series of
 * boots it is one of; nothing for logs that do not say. */
static void show_after(const struct ld_begin *b, const struct ld_end *e)
{
	const struct ld_series *ser = &b->series;
	double i = 0, of = 0;

	if (e->after.state == LD_SET) {
		fputs(", then ", stdout);
		put_str(e->after.node, "");
		if (e->after_via.state == LD_SET) {
			fputs(" (", stdout);
			put_str(e->after_via.node, "");
			fputs(")", stdout);
		}
	}
	if (ld_true(e->after_cancelled))
		printf(" (a key cancelled the countdown)");
	if (e->after_problem.state == LD_SET) {
		fputs("\n  ", stdout);
		put_str(e->after_problem.node, "");
	}
	/* index and of as any number, as before the schema said integers */
	if (ser->id.state == LD_SET && lr_num(ser->index.node, &i) && lr_num(ser->of.node, &of)) {
		fputs("\nseries ", stdout);
		put_str(ser->id.node, "");
		printf(": boot %u of %u", (unsigned)i, (unsigned)of);
		if (e->series.state == LD_SET) {
			fputs(", ", stdout);
			put_str(e->series.node, "");
		}
		if (e->series_stopped.state == LD_SET) {
			fputs(": ", stdout);
			put_str(e->series_stopped.node, "");
		}
	}
}

/* A bare-metal run's verdicts (tools/lib/verdict.h): the TSC, what
 * Linux and FreeBSD would choose, the cheapest correct counter. */
static void show_verdicts(const struct lrun *r)
{
	struct bare_verdict v;
	const char *boot = lrun_boot(r);

	if (!boot || !strcmp(boot, "linux"))
		return;
	bare_verdict(r, &v);
	printf("\nVerdicts:\n");
	bare_verdict_print(stdout, &v, "  ");
}

static void show_text(const struct lrun *r)
{
	struct ld_begin b;
	struct ld_end e;
	char st[160];

	ld_decode_begin(lrun_first(r, "begin"), &b);
	ld_decode_end(lrun_first(r, "end"), &e);
	ts_puts(stdout, r->name);
	printf(": %s", lrun_state(r, st, sizeof st));
	if (b.ld.node) {
		fputs(", tickprobe ", stdout);
		put_str(b.version.node, "?");
		fputs(", boot ", stdout);
		put_str(b.boot.node, "?");
	}
	if (e.status.state == LD_SET) {
		fputs(", status ", stdout);
		put_str(e.status.node, "");
	}
	show_after(&b, &e);
	printf("\n\n");
	show_timers(r);
	show_rest(r);
	show_cpus_text(stdout, r);
	show_watch_text(stdout, r);
	show_verdicts(r);
}

/* A timer's line of --json: its figures, numbers as written. */
static void json_timer(const struct lr_node *n)
{
	struct ld_timer t;

	ld_decode_timer(n, &t);
	const struct {
		const char *name;
		const struct lr_node *node;
	} cols[] = {
		{ "p50_ns", t.cost_ns.p50.node },
		{ "min_ns", t.cost_ns.min.node },
		{ "mean_ns", t.cost_ns.mean.node },
		{ "sd_ns", t.cost_ns.sd.node },
		{ "p99_ns", t.cost_ns.p99.node },
		{ "max_ns", t.cost_ns.max.node },
		{ "reads_per_s", t.throughput.reads_per_s.node },
		{ "freq_ppm", t.freq.ppm.node },
		{ "freq_err_ppm", t.freq.err_ppm.node },
	};
	printf("{\"counter\":");
	json_out_str(stdout, ld_str_or(t.name, NULL));
	printf(",\"healthy\":%s,\"reason\":", ld_true(t.healthy) ? "true" : "false");
	json_out_str(stdout, ld_str_or(t.reason, NULL));
	for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
		printf(",\"%s\":", cols[k].name);
		jnum(stdout, cols[k].node);
	}
	printf("}");
}

static void show_json(const struct lrun *r, int first)
{
	const struct lr_node *t;
	struct ld_plan plan;
	char st[160];

	printf("%s{\"log\":", first ? "" : ",\n");
	json_out_str(stdout, r->name);
	printf(",\"state\":");
	json_out_str(stdout, lrun_state(r, st, sizeof st));
	printf(",\"complete\":%s,\"damaged\":%s,\"problems\":[", r->info.has_end ? "true" : "false",
	       lrun_damaged(r) ? "true" : "false");
	for (size_t i = 0; i < r->nprobs; i++) {
		printf("%s{\"line\":%u,\"reason\":", i ? "," : "", (unsigned)r->probs[i].line);
		json_out_str(stdout, r->probs[i].msg);
		printf("}");
	}
	printf("],\n\"timers\":[");
	for (size_t i = 0; (t = lrun_timer_at(r, i)); i++) {
		printf("%s\n", i ? "," : "");
		json_timer(t);
	}
	/* Counters absent by design, from plan.absent: name -> reason ({} in
	 * schema-1 logs, whose timer records carry them). */
	printf("],\n\"absent\":{");
	ld_decode_plan(lrun_first(r, "plan"), &plan);
	for (size_t i = 0; plan.absent.state == LD_SET && i < plan.absent.n; i++) {
		printf("%s", i ? "," : "");
		json_out_str(stdout, ld_plan_absent_name(&plan, i));
		printf(":");
		json_out_str(stdout, ld_str_or(ld_plan_absent_at(&plan, i), NULL));
	}
	printf("},\n\"begin\":");
	jrecord(stdout, r, "begin");
	printf(",\n\"machine\":");
	jrecord(stdout, r, "machine");
	printf(",\n\"tsc\":");
	jrecord(stdout, r, "tsc");
	printf(",\n\"overhead\":");
	jrecord(stdout, r, "overhead");
	printf(",\n\"acpi\":");
	jrecord(stdout, r, "acpi");
	show_cpus_json(stdout, r);
	show_watch_json(stdout, r);
	if (lrun_boot(r) && strcmp(lrun_boot(r), "linux")) {
		struct bare_verdict v;
		bare_verdict(r, &v);
		printf(",\n\"verdicts\":");
		bare_verdict_json(stdout, &v);
	}
	printf(",\n\"end\":");
	jrecord(stdout, r, "end");
	printf("}");
}

int cmd_show(int argc, char **argv)
{
	int json = 0, status = EXIT_CLEAN, first = 1, c;
	long want = 0;
	bool latest = false;
	struct loglist logs = { 0 };
	struct args a;

	args_start(&a, &show_spec, argc, argv);
	while ((c = args_next(&a)) > 0) {
		if (c == OPT_JSON)
			json = 1;
		else if (c == OPT_LATEST)
			latest = true;
		else if (c == OPT_RUN && args_long(&a, 1, LONG_MAX, &want))
			return EXIT_USAGE;
	}
	if (c == ARGS_STOP)
		return a.status;
	if (!a.noperands && !latest)
		return args_fail(&a, "no LOG given (nor --latest)");
	status = loglist_from_operands(&logs, a.operands, (size_t)a.noperands, latest, "tickprobe show");
	if (json)
		printf("{\"runs\":[\n");
	for (size_t i = 0; i < logs.n; i++) {
		struct logfile f;
		logfile_load(&f, logs.paths[i]);
		logfile_report(&f, stderr, "tickprobe show");
		status = exit_worse(status, f.status);
		if (want && (size_t)want > f.nruns)
			fprintf(stderr, "tickprobe show: %s has %zu run(s), no run %ld\n", f.path, f.nruns, want);
		for (size_t k = 0; k < f.nruns; k++) {
			if ((want && (size_t)want != k + 1) || f.runs[k].info.newer_schema || !f.runs[k].nrecs)
				continue;
			if (json)
				show_json(&f.runs[k], first);
			else {
				if (!first)
					printf("\n");
				show_text(&f.runs[k]);
			}
			first = 0;
		}
		logfile_free(&f);
	}
	if (json)
		printf("\n]}\n");
	loglist_free(&logs);
	return status;
}
