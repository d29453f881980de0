/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the per-clocksource figures of `tickprobe os` logs,
 * as `tickprobe compare` prints them (tools/lib/seeds.h, lineup.h):
 *
 *   - hardware, user space and the kernel, side by side, for
 *     clock_gettime(MONOTONIC) (with a bare-metal log);
 *   - the contention curves, beside the probe's where it has them;
 *   - the seeds' figures: the calls-per-second loop as ministat prints it,
 *     the five most common gaps, the context-switch rate.
 * A section only when some log is a `tickprobe os` log. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "tools/lib/lineup.h"
#include "tools/lib/seeds.h"
#include "tools/report/html.h"
#include "tools/report/seeds.h"
#include "tools/lib/ministat_print.h"

static void num_td(FILE *o, const struct lr_node *n, int decimals)
{
	fputs("<td class=\"n\">", o);
	rp_num(o, n, decimals);
	fputs("</td>", o);
}

static void split_table(const struct rp_ctx *c, const struct lrun *const *runs)
{
	FILE *o = c->out;
	struct lineup lu;
	bool head = false;

	if (lineup_build(runs, c->nlogs, "p50", c->ci, &lu))
		return;
	for (size_t i = 0; i < lu.n; i++) {
		const struct lineup_row *r = &lu.rows[i];
		if (!r->call || strcmp(r->call, LINEUP_CALL) || !r->tested)
			continue;
		if (!head) {
			fprintf(o,
				"<h3>Hardware, user space and kernel: " LINEUP_CALL "</h3>\n<p>The medians of the "
				"per-round p50 values (ns): the probe's read of the counter with no OS, the same read "
				"from user space (<code>tickprobe os --raw-io</code>), and the call; the kernel's share "
				"is the call's mean minus the read's, at %.1f&nbsp;%% confidence (Student's t).</p>\n"
				"<table><tr><th>clocksource</th><th>counter</th><th>OS log</th><th>hardware log</th>"
				"<th class=\"n\">hardware</th><th class=\"n\">user space</th><th class=\"n\">call</th>"
				"<th class=\"n\">kernel share (call &minus; hardware)</th><th class=\"n\">of the call</th>"
				"<th class=\"n\">call &minus; user space</th></tr>\n",
				c->conf);
			head = true;
		}
		fputs("<tr data-split=\"", o);
		rp_esc(o, r->clocksource);
		fputs("\"><td>", o);
		rp_esc(o, r->clocksource);
		fputs("</td><td>", o);
		rp_esc(o, r->counter);
		fputs("</td><td>", o);
		rp_swatch(o, r->os_log);
		fputs("</td><td>", o);
		rp_swatch(o, r->hw_log);
		fprintf(o, "</td><td class=\"n\">%.1f</td>", r->hw_p50);
		if (r->user_tested)
			fprintf(o, "<td class=\"n\">%.1f</td>", r->user_p50);
		else
			fputs("<td class=\"n dim\">&ndash;</td>", o);
		fprintf(o, "<td class=\"n\">%.1f</td><td class=\"n%s\">%g &plusmn; %g</td><td class=\"n\">%.0f&nbsp;%%</td>",
			r->os_p50, r->significant ? " sig" : "", r->diff, r->err,
			r->os_p50 > 0 ? 100 * (r->os_p50 - r->hw_p50) / r->os_p50 : 0);
		if (r->user_tested)
			fprintf(o, "<td class=\"n\">%g &plusmn; %g</td>", r->user_diff, r->user_err);
		else
			fputs("<td class=\"n dim\">&ndash;</td>", o);
		fputs("</tr>\n", o);
	}
	if (head)
		fputs("</table>\n", o);
	lineup_free(&lu);
}

/* One level's row: the OS threads' figures against the bare-metal readers'. */
static void contention_row(FILE *o, const struct ld_os_level *m, double n, const struct lr_node *hw_level)
{
	struct ld_contention_level hr;

	ld_decode_contention_level(hw_level, &hr);
	fprintf(o, "</td><td class=\"n\">%.0f</td>", n);
	num_td(o, m->p50_ns.node, 1);
	num_td(o, m->p99_ns.node, 1);
	num_td(o, m->reads_per_s.node, 0);
	num_td(o, hr.p50_ns.node, 1);
	num_td(o, hr.p99_ns.node, 1);
	num_td(o, hr.reads_per_s.node, 0);
	fputs("</tr>\n", o);
}

static void contention_table(const struct rp_ctx *c, const struct lrun *const *runs, const struct seeds *s)
{
	FILE *o = c->out;
	bool head = false;

	for (size_t i = 0; i < s->n; i++) {
		struct ld_os_contention oc;
		const struct lr_node *hw = NULL;
		const char *counter = lineup_counter(s->rows[i].clocksource);
		char label[160];
		ld_decode_os_contention(s->rows[i].contention, &oc);
		if (oc.readers.state != LD_SET)
			continue;
		for (size_t h = 0; h < c->nlogs && !hw; h++)
			if (!lineup_is_os(runs[h]))
				hw = lineup_hw_contention(runs[h], counter);
		if (!head) {
			fputs("<h3>Contention</h3>\n<p>n threads on n CPUs calling " LINEUP_CALL " at once, against n "
			      "CPUs reading the counter at once on bare metal (the probe's contention record).</p>\n"
			      "<table><tr><th>clocksource</th><th>counter</th><th class=\"n\">n</th><th class=\"n\">OS "
			      "p50 ns</th><th class=\"n\">OS p99 ns</th><th class=\"n\">OS calls/s</th><th class=\"n\">"
			      "hardware p50 ns</th><th class=\"n\">hardware p99 ns</th><th class=\"n\">hardware "
			      "reads/s</th></tr>\n",
			      o);
			head = true;
		}
		seeds_label(s, i, label, sizeof label);
		for (size_t k = 0; k < oc.readers.n; k++) {
			struct ld_os_level m;
			double n;
			ld_os_contention_readers_at(&oc, k, &m);
			if (!lr_num(m.n.node, &n))
				continue;
			fputs("<tr data-contention=\"", o);
			rp_esc(o, s->rows[i].clocksource);
			fputs("\"><td>", o);
			rp_esc(o, label);
			fputs("</td><td>", o);
			rp_esc(o, counter ? counter : "-");
			contention_row(o, &m, n, lineup_readers_n(hw, n));
		}
	}
	if (head)
		fputs("</table>\n", o);
}

/* The loop's calls/s block exactly as `tickprobe compare` prints it. */
static void rate_block(FILE *o, const struct seeds *s, double conf)
{
	char *text = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&text, &n);

	if (!m)
		return;
	seeds_print(m, s, conf);
	fclose(m);
	if (n) {
		fputs("<pre class=\"mono\" style=\"word-break:normal;white-space:pre\">", o);
		/* rp_esc turns newlines into spaces: a line at a time. */
		for (char *line = text, *end; line && *line; line = end ? end + 1 : NULL) {
			end = strchr(line, '\n');
			rp_esc_n(o, line, end ? (size_t)(end - line) : strlen(line));
			fputc('\n', o);
		}
		fputs("</pre>\n", o);
	}
	free(text);
}

void rp_seeds(const struct rp_ctx *c)
{
	const struct lrun *runs[RP_MAX_LOGS];
	struct seeds s;
	FILE *o = c->out;

	for (size_t j = 0; j < c->nlogs; j++)
		runs[j] = c->logs[j].run;
	if (seeds_build(runs, c->nlogs, &s))
		return;
	if (!s.n) {
		seeds_free(&s);
		return;
	}
	fputs("<section id=\"clocksources\">\n<h2>Per clocksource: the OS logs' own figures</h2>\n", o);
	split_table(c, runs);
	contention_table(c, runs, &s);
	fputs("<h3>The seeds' figures</h3>\n<p>Each clocksource's 10-run loop of clock_gettime(MONOTONIC) "
	      "(calls per second) against the first clocksource, as ministat compares them; the five most common "
	      "gaps between successive results; the context-switch rate.</p>\n", o);
	rate_block(o, &s, c->conf);
	fputs("</section>\n", o);
	seeds_free(&s);
}
