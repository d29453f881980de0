/* SPDX-License-Identifier: BSD-2-Clause */
/* The report's page frame: the header (what the page is, when it was made,
 * every log given and its integrity, with the reader's problems), the
 * sections in the order of the table below, one part per machine, the
 * footer; built in memory and written in one go.  `tickprobe report`
 * (cmd_report.c) and the fleet page's machine pages (fleet.c) both use it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "tools/lib/exit_codes.h"
#include "tools/lib/lineup.h"
#include "tools/report/cpus.h"
#include "tools/report/html.h"
#include "tools/report/watch.h"

/* Problems listed per run before "… and N more": a capture of line noise can
 * hold thousands, and the page must stay readable (stderr has them all). */
#define RP_MAX_PROBS 40

static int has_comparisons(const struct rp_ctx *c) { return c->nlogs > 1; }
static int has_cpus(const struct rp_ctx *c) { return rp_cpus_multi(c) >= 2; }

/* The sections, in page order.  Each writes itself, or nothing where it has
 * nothing to say; shown says whether the header links to it (NULL: always). */
static const struct {
	const char *id, *label;
	int (*shown)(const struct rp_ctx *c);
	void (*write)(const struct rp_ctx *c);
} sections[] = {
	{ "summary", "summary", NULL, rp_summary },
	{ "distributions", "distributions", NULL, rp_histograms },
	{ "comparisons", "comparisons", has_comparisons, rp_compare },
	{ "kernel-path", "kernel path", rp_has_lineup, rp_lineup },
	{ "cpus", "CPUs", has_cpus, rp_cpus_page },
	{ "watch", "watch", rp_has_watch, rp_watch_page },
};

static const char css[] =
	"body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1220px;"
	"padding:16px 24px;color:#1a1a1a;background:#fff}"
	"h1{font-size:24px;margin:4px 0}h2{font-size:19px;margin:28px 0 8px;border-bottom:2px solid #ccd;"
	"padding-bottom:3px}h3{font-size:15px;margin:16px 0 6px}"
	"table{border-collapse:collapse;margin:6px 0 12px}th,td{border:1px solid #d4d4dc;padding:3px 7px;"
	"vertical-align:top;text-align:left}th{background:#eef0f5;font-weight:600}"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
	"table.kv th{width:190px}"
	".sw{display:inline-block;width:11px;height:11px;margin-right:4px;border-radius:2px;"
	"vertical-align:-1px}"
	".ok{color:#106b21}.bad{color:#b00020}.dim{color:#666}.mono{font-family:ui-monospace,monospace;"
	"font-size:12px;word-break:break-all}"
	".banner{border:2px solid #b00020;background:#fff0f0;padding:8px 12px;margin:10px 0}"
	".sig{font-weight:700}.slower{background:#fde2e2}.faster{background:#dff5e3}"
	"ul.probs{margin:2px 0;padding-left:18px}ul.probs li{font-family:ui-monospace,monospace;font-size:12px}"
	"figure{margin:8px 0 18px}figcaption{font-size:13px;color:#444}"
	"svg.hist{max-width:100%;height:auto;border:1px solid #e0e0e8;background:#fcfcfe}"
	"nav a{margin-right:12px}section.run{margin-top:12px}td b,.nw{white-space:nowrap}";

const char *rp_css(void) { return css; }

static void run_row(const struct rp_ctx *c, size_t i)
{
	FILE *o = c->out;
	const struct lrun *r = c->logs[i].run;
	struct ld_begin b;
	struct ld_end e;
	char st[200];
	size_t k;

	ld_decode_begin(lrun_first(r, "begin"), &b);
	ld_decode_end(lrun_first(r, "end"), &e);

	fprintf(o, "<tr><td>");
	rp_swatch(o, i);
	fprintf(o, "</td><td><a href=\"#run%zu\">", i + 1);
	rp_esc(o, r->name);
	fprintf(o, "</a></td><td>");
	rp_value(o, b.boot.node, "?");
	fprintf(o, "</td><td>");
	rp_value(o, b.version.node, "?");
	fprintf(o, "</td><td>");
	rp_value(o, e.status.node, "(no end record)");
	fprintf(o, "</td><td class=\"%s\">", lrun_damaged(r) ? "bad" : "ok");
	rp_esc(o, lrun_state(r, st, sizeof st));
	fprintf(o, "</td><td class=\"n\">%llu / %llu</td><td>", (unsigned long long)r->info.good,
		(unsigned long long)r->info.excluded);
	if (!r->nprobs)
		fputs("none", o);
	else
		fputs("<ul class=\"probs\">", o);
	for (k = 0; k < r->nprobs && k < RP_MAX_PROBS; k++) {
		fputs("<li>", o);
		if (r->probs[k].line)
			fprintf(o, "line %u: ", (unsigned)r->probs[k].line);
		rp_esc(o, r->probs[k].msg);
		fputs("</li>", o);
	}
	if (r->nprobs > RP_MAX_PROBS)
		fprintf(o, "<li>&hellip; and %zu more (tickprobe show lists them all)</li>",
			r->nprobs - RP_MAX_PROBS);
	if (r->nprobs)
		fputs("</ul>", o);
	fputs("</td></tr>\n", o);
}

/* Files that gave no usable run, and problems outside any run. */
static void file_rows(const struct rp_ctx *c)
{
	FILE *o = c->out;
	for (size_t f = 0; f < c->nfiles; f++) {
		const struct logfile *lf = &c->files[f];
		int used = 0;
		for (size_t j = 0; j < c->nlogs; j++)
			for (size_t k = 0; k < lf->nruns; k++)
				used |= c->logs[j].run == &lf->runs[k];
		if (used && !lf->nprobs)
			continue;
		fputs("<tr><td></td><td>", o);
		rp_esc(o, lf->path);
		fputs("</td><td colspan=\"3\"></td><td class=\"bad\">", o);
		if (!used) {
			fputs("not used: ", o);
			rp_esc(o, lf->why[0] ? lf->why : "no usable run");
		} else {
			fputs("outside any run", o);
		}
		fputs("</td><td></td><td>", o);
		if (lf->nprobs)
			fputs("<ul class=\"probs\">", o);
		for (size_t k = 0; k < lf->nprobs && k < RP_MAX_PROBS; k++) {
			fprintf(o, "<li>line %u: ", (unsigned)lf->probs[k].line);
			rp_esc(o, lf->probs[k].msg);
			fputs("</li>", o);
		}
		if (lf->nprobs > RP_MAX_PROBS)
			fprintf(o, "<li>&hellip; and %zu more</li>", lf->nprobs - RP_MAX_PROBS);
		fputs(lf->nprobs ? "</ul></td></tr>\n" : "</td></tr>\n", o);
	}
}

static void rp_head(const struct rp_ctx *c)
{
	FILE *o = c->out;
	size_t damaged = 0, unread = 0;

	for (size_t j = 0; j < c->nlogs; j++)
		damaged += lrun_damaged(c->logs[j].run) != 0;
	for (size_t f = 0; f < c->nfiles; f++)
		unread += c->files[f].status == EXIT_UNREADABLE;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", o);
	rp_esc(o, c->title);
	fprintf(o, "</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n<h1>", css);
	rp_esc(o, c->title);
	fputs("</h1>\n<p>What one read of each hardware time counter costs (TSC, HPET, ACPI PM timer, "
	      "i8254 PIT; and, from <code>tickprobe os</code> logs, the operating system's clock calls), "
	      "as measured by tickprobe. Costs are per read with the measuring harness's own overhead "
	      "taken off. Comparisons use Student's t on the per-round medians, as ministat does.</p>\n", o);
	fprintf(o, "<p class=\"dim\">Generated %s by tickprobe %s from %zu log%s (%zu run%s); "
		   "confidence level %.1f&nbsp;%%.</p>\n",
		c->generated, TICKPROBE_VERSION, c->nfiles, c->nfiles == 1 ? "" : "s", c->nlogs,
		c->nlogs == 1 ? "" : "s", c->conf);
	if (damaged || unread) {
		fputs("<div class=\"banner\" id=\"damage\"><b>Not every log is intact.</b> ", o);
		if (damaged)
			fprintf(o, "%zu run%s %s damaged or incomplete: the numbers below come only from "
				   "records that passed their checksum; the problems are listed per log. ",
				damaged, damaged == 1 ? "" : "s", damaged == 1 ? "is" : "are");
		if (unread)
			fprintf(o, "%zu file%s could not be used at all.", unread, unread == 1 ? "" : "s");
		fputs("</div>\n", o);
	}
	fputs("<h2 id=\"logs\">Logs</h2>\n<table><tr><th>log</th><th>file / run</th><th>boot</th>"
	      "<th>tickprobe</th><th>end status</th><th>integrity</th><th class=\"n\">records good / "
	      "excluded</th><th>reader's problems</th></tr>\n", o);
	for (size_t j = 0; j < c->nlogs; j++)
		run_row(c, j);
	file_rows(c);
	fputs("</table>\n<nav>Sections: ", o);
	for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++)
		if (!sections[s].shown || sections[s].shown(c))
			fprintf(o, "<a href=\"#%s\">%s</a>", sections[s].id, sections[s].label);
	for (size_t j = 0; j < c->nlogs; j++)
		fprintf(o, "<a href=\"#run%zu\">machine [%zu]</a>", j + 1, j + 1);
	fputs("</nav>\n</header>\n", o);
}

static void rp_foot(const struct rp_ctx *c)
{
	fprintf(c->out, "<footer><p class=\"dim\">tickprobe %s. This page is self-contained: no "
			"network, no scripts.</p></footer>\n</body>\n</html>\n",
		TICKPROBE_VERSION);
}

void rp_now_text(char *buf, size_t cap)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;
	char *end;
	if (sde && *sde) {
		long long v = strtoll(sde, &end, 10);
		if (!*end && v >= 0)
			t = (time_t)v;
	}
	if (gmtime_r(&t, &tm))
		strftime(buf, cap, "%Y-%m-%d %H:%M:%S UTC", &tm);
	else
		snprintf(buf, cap, "unknown time");
}

int rp_write_file(const char *path, const char *data, size_t n)
{
	struct stat st;
	char *tmp;
	FILE *f;
	int ok;

	if (!strcmp(path, "-"))
		return fwrite(data, 1, n, stdout) == n && fflush(stdout) == 0 ? 0 : -1;
	/* Not a regular file (/dev/null, a pipe, a terminal): write it in place.
	 * Renaming a finished page over it would replace the device itself. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		f = fopen(path, "wb");
		if (!f)
			return -1;
		ok = fwrite(data, 1, n, f) == n;
		ok &= fclose(f) == 0;
		return ok ? 0 : -1;
	}
	tmp = malloc(strlen(path) + 32);
	if (!tmp)
		return -1;
	sprintf(tmp, "%s.tmp%ld", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f) {
		free(tmp);
		return -1;
	}
	ok = fwrite(data, 1, n, f) == n;
	ok &= fclose(f) == 0;
	ok = ok && rename(tmp, path) == 0;
	if (!ok)
		remove(tmp);
	free(tmp);
	return ok ? 0 : -1;
}

static void collect(struct rp_ctx *c, struct logfile *files, size_t nfiles)
{
	const struct lrun *runs[RP_MAX_LOGS];
	c->nlogs = lineup_runs(files, nfiles, runs, RP_MAX_LOGS);
	for (size_t j = 0; j < c->nlogs; j++) {
		struct rp_log *l = &c->logs[j];
		struct ld_tsc tsc;
		l->run = runs[j];
		l->os = lineup_is_os(runs[j]);
		ld_decode_tsc(lrun_first(runs[j], "tsc"), &tsc);
		l->hz = tsc.hz.state == LD_SET && tsc.hz.v > 0 ? tsc.hz.v : 0;
	}
	/* Counters in order of first appearance, keyed as compare keys them. */
	for (size_t j = 0; j < c->nlogs; j++) {
		const struct lr_node *t;
		for (size_t i = 0; (t = lrun_timer_at(c->logs[j].run, i)) && c->nkeys < RP_MAX_KEYS; i++) {
			char k[RP_KEY_LEN];
			size_t q;
			lrun_timer_key(t, k, sizeof k);
			for (q = 0; q < c->nkeys && strcmp(c->keys[q], k); q++)
				;
			if (q == c->nkeys)
				snprintf(c->keys[c->nkeys++], RP_KEY_LEN, "%s", k);
		}
	}
}

/* The page of one set of runs, built in memory: -1 when no run has records. */
int rp_render(struct logfile *files, size_t nfiles, const char *title, double conf, int ci, char **page,
	      size_t *npage, size_t *ncounters)
{
	static struct rp_ctx c; /* large: the runs, keys and their names */
	static char when[64];    /* c.generated points here */

	memset(&c, 0, sizeof c);
	c.title = title;
	c.conf = conf;
	c.ci = ci;
	c.files = files;
	c.nfiles = nfiles;
	collect(&c, files, nfiles);
	if (!c.nlogs)
		return -1;
	rp_now_text(when, sizeof when);
	c.generated = when;
	*page = NULL;
	c.out = open_memstream(page, npage);
	if (!c.out) {
		fprintf(stderr, "tickprobe report: out of memory\n");
		exit(EXIT_UNREADABLE);
	}
	rp_head(&c);
	for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++)
		sections[s].write(&c);
	for (size_t j = 0; j < c.nlogs; j++)
		rp_machine(&c, j);
	rp_foot(&c);
	if (fclose(c.out) != 0) {
		fprintf(stderr, "tickprobe report: out of memory\n");
		exit(EXIT_UNREADABLE);
	}
	if (ncounters)
		*ncounters = c.nkeys;
	return (int)c.nlogs;
}
