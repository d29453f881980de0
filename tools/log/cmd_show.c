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

static const char *ns(char *b, size_t cap, const struct lr_node *t, const char *path)
{
	double v;
	if (!lr_num(lr_path(t, path), &v))
		return "-";
	snprintf(b, cap, "%.1f", v);
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
static const char *timer_name(char *buf, size_t cap, const struct lr_node *t)
{
	const char *name = ts_str(buf, cap, lr_str(lr_get(t, "name")));
	return name ? name : "?";
}

static void show_timers(const struct lrun *r)
{
	const struct lr_node *t;
	char b[6][32], fr[48], rps[32], name[160];
	double v, e;
	int w = 14; /* the name column fits the longest name (OS logs: "gettimeofday@tsc") */

	for (size_t i = 0; (t = lrun_timer_at(r, i)); i++)
		if ((int)strlen(timer_name(name, sizeof name, t)) > w)
			w = (int)strlen(name);
	printf("%-*s %9s %9s %9s %9s %9s %13s %18s  %s\n", w, "counter", "p50 ns", "min ns", "mean ns",
	       "sd ns", "p99 ns", "reads/s", "freq error ppm", "health");
	for (size_t i = 0; (t = lrun_timer_at(r, i)); i++) {
		if (lr_true(lr_path(t, "freq.reference"))) {
			snprintf(fr, sizeof fr, "reference");
		} else if (lr_num(lr_path(t, "freq.ppm"), &v)) {
			if (lr_num(lr_path(t, "freq.err_ppm"), &e))
				snprintf(fr, sizeof fr, "%+.2f +/- %.2f", v, e);
			else
				snprintf(fr, sizeof fr, "%+.2f", v);
		} else if (lr_num(lr_path(t, "freq.measured_hz"), &v) && v >= 1e3) {
			/* No nominal rate to be off from (the APIC timer's bus clock,
			 * which no CPUID leaf states): the measured rate instead. */
			snprintf(fr, sizeof fr, "%.6g MHz", v / 1e6);
		} else {
			snprintf(fr, sizeof fr, "-");
		}
		if (lr_num(lr_path(t, "throughput.reads_per_s"), &v))
			snprintf(rps, sizeof rps, "%.0f", v);
		else
			snprintf(rps, sizeof rps, "-");
		printf("%-*s %9s %9s %9s %9s %9s %13s %18s  ", w, timer_name(name, sizeof name, t),
		       ns(b[0], 32, t, "cost_ns.p50"), ns(b[1], 32, t, "cost_ns.min"),
		       ns(b[2], 32, t, "cost_ns.mean"), ns(b[3], 32, t, "cost_ns.sd"),
		       ns(b[4], 32, t, "cost_ns.p99"), rps, fr);
		if (lr_true(lr_get(t, "healthy")))
			fputs("ok", stdout);
		else
			put_str(lr_get(t, "reason"), "not healthy");
		if (lr_str(lr_get(t, "note"))) {
			printf("\n%-*s note: ", w, "");
			put_str(lr_get(t, "note"), "");
		}
		putchar('\n');
	}
	/* Schema 2: counters this machine lacks by design have no timer
	 * record unless counters= named them, only their reason in plan.absent. */
	t = lr_get(lrun_first(r, "plan"), "absent");
	for (t = t && t->kind == LR_OBJ ? t->child : NULL; t; t = t->next)
		if (t->key) {
			printf("%-*s absent by design: ", w, ts_str(name, sizeof name, t->key));
			put_str(t, "?");
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

static void show_rest(const struct lrun *r)
{
	const struct lr_node *m = lrun_first(r, "machine"), *t = lrun_first(r, "tsc");
	const struct lr_node *o = lrun_first(r, "overhead"), *a = lrun_first(r, "acpi"), *x;
	char b[8][256];
	uint64_t u;
	double v;

	if (m) {
		printf("\nmachine   %s \"%s\"\n", txt(lr_get(m, "cpu_vendor"), b[0], 256),
		       txt(lr_get(m, "cpu_brand"), b[1], 256));
		printf("          family %s model %s stepping %s microcode ", txt(lr_get(m, "family"), b[2], 256),
		       txt(lr_get(m, "model"), b[3], 256), txt(lr_get(m, "stepping"), b[4], 256));
		if (lr_uint(lr_get(m, "microcode"), &u))
			printf("0x%llx\n", (unsigned long long)u);
		else
			printf("unknown\n");
		x = lr_get(m, "hypervisor");
		printf("          hypervisor %s, invariant TSC %s, cores %s\n",
		       lr_str(x) ? txt(x, b[7], 256) : "none", txt(lr_get(m, "invariant_tsc"), b[5], 256),
		       txt(lr_get(m, "cores"), b[6], 256));
	}
	if (t) {
		printf("tsc       ");
		if (lr_num(lr_get(t, "hz"), &v))
			printf("%.6f MHz", v / 1e6);
		else
			printf("frequency unknown");
		printf(" from %s", txt(lr_get(t, "source"), b[0], 256));
		if (lr_num(lr_get(t, "error_ppm"), &v))
			printf(" (+/- %.1f ppm)", v);
		printf("\n");
		x = lr_get(t, "sources");
		for (x = x && x->kind == LR_OBJ ? x->child : NULL; x; x = x->next)
			printf("          %-10s %s Hz\n", ts_str(b[2], 256, x->key), txt(x, b[1], 256));
	}
	if (o) {
		printf("overhead  %s: p50 %s cycles, min %s, mean %s, %s samples, %s subtracted\n",
		       txt(lr_get(o, "sequence"), b[0], 256), txt(lr_path(o, "cycles.p50"), b[1], 256),
		       txt(lr_path(o, "cycles.min"), b[2], 256), txt(lr_path(o, "cycles.mean"), b[3], 256),
		       txt(lr_get(o, "samples"), b[4], 256), txt(lr_get(o, "subtracted"), b[5], 256));
	}
	if (a) {
		x = lr_get(a, "pm_timer");
		printf("acpi      root %s; PM timer ", txt(lr_get(a, "root"), b[0], 256));
		if (x && x->kind == LR_OBJ && lr_uint(lr_get(x, "address"), &u))
			printf("%s 0x%llx, %s-bit", txt(lr_get(x, "space"), b[1], 256), (unsigned long long)u,
			       txt(lr_get(x, "bits"), b[2], 256));
		else
			printf("none");
		x = lr_get(a, "hpet");
		printf("; HPET ");
		if (x && x->kind == LR_OBJ && lr_uint(lr_get(x, "address"), &u)) {
			printf("0x%llx", (unsigned long long)u);
			if (lr_uint(lr_get(x, "block_id"), &u))
				printf(" (block id 0x%08llx, %s table(s))", (unsigned long long)u,
				       txt(lr_get(x, "tables"), b[3], 256));
		} else {
			printf("none");
		}
		printf("\n");
		x = lr_get(a, "problems");
		for (x = x && x->kind == LR_ARR ? x->child : NULL; x; x = x->next) {
			fputs("          problem: ", stdout);
			put_str(x, "?");
			putchar('\n');
		}
	}
}

/* What followed the run (end.after, docs/log-format.md), and the series of
 * boots it is one of; nothing for logs that do not say. */
static void show_after(const struct lr_node *b, const struct lr_node *e)
{
	const struct lr_node *ser = lr_get(b, "series");
	const struct lr_node *via = lr_get(e, "after_via");
	double i = 0, of = 0;

	if (lr_str(lr_get(e, "after"))) {
		fputs(", then ", stdout);
		put_str(lr_get(e, "after"), "");
		if (lr_str(via)) {
			fputs(" (", stdout);
			put_str(via, "");
			fputs(")", stdout);
		}
	}
	if (lr_true(lr_get(e, "after_cancelled")))
		printf(" (a key cancelled the countdown)");
	if (lr_str(lr_get(e, "after_problem"))) {
		fputs("\n  ", stdout);
		put_str(lr_get(e, "after_problem"), "");
	}
	if (lr_str(lr_get(ser, "id")) && lr_num(lr_get(ser, "index"), &i) && lr_num(lr_get(ser, "of"), &of)) {
		fputs("\nseries ", stdout);
		put_str(lr_get(ser, "id"), "");
		printf(": boot %u of %u", (unsigned)i, (unsigned)of);
		if (lr_str(lr_get(e, "series"))) {
			fputs(", ", stdout);
			put_str(lr_get(e, "series"), "");
		}
		if (lr_str(lr_get(e, "series_stopped"))) {
			fputs(": ", stdout);
			put_str(lr_get(e, "series_stopped"), "");
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
	const struct lr_node *b = lrun_first(r, "begin"), *e = lrun_first(r, "end");
	char st[160];
	ts_puts(stdout, r->name);
	printf(": %s", lrun_state(r, st, sizeof st));
	if (b) {
		fputs(", tickprobe ", stdout);
		put_str(lr_get(b, "version"), "?");
		fputs(", boot ", stdout);
		put_str(lr_get(b, "boot"), "?");
	}
	if (lr_str(lr_get(e, "status"))) {
		fputs(", status ", stdout);
		put_str(lr_get(e, "status"), "");
	}
	show_after(b, e);
	printf("\n\n");
	show_timers(r);
	show_rest(r);
	show_cpus_text(stdout, r);
	show_watch_text(stdout, r);
	show_verdicts(r);
}

static void show_json(const struct lrun *r, int first)
{
	const struct lr_node *t;
	char st[160];
	static const char *const cols[][2] = {
		{ "p50_ns", "cost_ns.p50" }, { "min_ns", "cost_ns.min" }, { "mean_ns", "cost_ns.mean" },
		{ "sd_ns", "cost_ns.sd" }, { "p99_ns", "cost_ns.p99" }, { "max_ns", "cost_ns.max" },
		{ "reads_per_s", "throughput.reads_per_s" }, { "freq_ppm", "freq.ppm" },
		{ "freq_err_ppm", "freq.err_ppm" },
	};

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
		printf("%s\n{\"counter\":", i ? "," : "");
		json_out_str(stdout, lr_str(lr_get(t, "name")));
		printf(",\"healthy\":%s,\"reason\":", lr_true(lr_get(t, "healthy")) ? "true" : "false");
		json_out_str(stdout, lr_str(lr_get(t, "reason")));
		for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
			printf(",\"%s\":", cols[k][0]);
			jnum(stdout, lr_path(t, cols[k][1]));
		}
		printf("}");
	}
	/* Counters absent by design, from plan.absent: name -> reason ({} in
	 * schema-1 logs, whose timer records carry them). */
	printf("],\n\"absent\":{");
	t = lr_get(lrun_first(r, "plan"), "absent");
	for (t = t && t->kind == LR_OBJ ? t->child : NULL; t; t = t->next) {
		printf("%s", t == lr_get(lrun_first(r, "plan"), "absent")->child ? "" : ",");
		json_out_str(stdout, t->key);
		printf(":");
		json_out_str(stdout, lr_str(t));
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
