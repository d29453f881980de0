/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the kernel path over the bare hardware read.
 *
 * Each OS clock call (a `tickprobe os` log) whose clocksource reads a counter
 * that a bare-metal log timed, against that bare read: the rows `tickprobe
 * compare` prints at its end, from the same unit (tools/lib/lineup.h), here as
 * a table.  The section is there only when both kinds of log are given. */
#include "tools/lib/lineup.h"
#include "tools/report/html.h"
#include "tools/report/seeds.h"

int rp_has_lineup(const struct rp_ctx *c)
{
	int os = 0, hw = 0;
	for (size_t j = 0; j < c->nlogs; j++) {
		os |= c->logs[j].os;
		hw |= !c->logs[j].os;
	}
	return os && hw;
}

static void log_cell(FILE *o, const struct rp_ctx *c, size_t j)
{
	fputs("<td>", o);
	rp_swatch(o, j);
	fputs(" ", o);
	rp_esc(o, c->logs[j].run->name);
	fputs("</td>", o);
}

static void row(FILE *o, const struct rp_ctx *c, const struct lineup_row *r)
{
	fputs("<tr data-clocksource=\"", o);
	rp_esc(o, r->clocksource);
	fputs("\" data-counter=\"", o);
	rp_esc(o, r->counter);
	fputs("\"><td>", o);
	rp_esc(o, r->clocksource);
	fputs("</td><td>", o);
	rp_esc(o, r->call ? r->call : "?");
	fputs("</td><td>", o);
	rp_esc(o, r->counter);
	fputs("</td>", o);
	log_cell(o, c, r->os_log);
	log_cell(o, c, r->hw_log);
	if (!r->tested) {
		fprintf(o, "<td class=\"dim\" colspan=\"4\">fewer than 2 rounds (OS %zu, hardware %zu): "
			   "no test</td>", r->os_n, r->hw_n);
	} else {
		/* The overhead with %g, as compare prints it: the two read alike. */
		fprintf(o, "<td class=\"n\">%.1f</td><td class=\"n\">%.1f</td>", r->os_p50, r->hw_p50);
		fprintf(o, "<td class=\"n%s\">%g &plusmn; %g</td><td>%s</td>",
			r->significant ? (r->diff > 0 ? " sig slower" : " sig faster") : "", r->diff, r->err,
			r->significant ? "yes" : "no (n.s.)");
	}
	fputs("</tr>\n", o);
}

void rp_lineup(const struct rp_ctx *c)
{
	FILE *o = c->out;
	const struct lrun *runs[RP_MAX_LOGS];
	struct lineup lu;

	rp_seeds(c); /* the OS logs' per-clocksource figures come first */
	if (!rp_has_lineup(c))
		return;
	for (size_t j = 0; j < c->nlogs; j++)
		runs[j] = c->logs[j].run;
	fprintf(o, "<section id=\"kernel-path\">\n<h2>Kernel path over the bare hardware read</h2>\n"
		   "<p>Each OS clock call against the bare read of the counter its clocksource reads: "
		   "the medians of the per-round p50 values "
		   "(ns), and the overhead, the call's mean minus the read's, at %.1f&nbsp;%% confidence "
		   "(Student's t, as ministat). What the kernel adds on top of one read: the vDSO or "
		   "system call and the conversion to time.</p>\n", c->conf);
	if (lineup_build(runs, c->nlogs, "p50", c->ci, &lu)) {
		fputs("<p class=\"bad\">Out of memory: not lined up.</p>\n</section>\n", o);
		return;
	}
	if (!lu.n) {
		fputs("<p class=\"dim\">No OS clock call in these logs names a clocksource whose counter a "
		      "bare-metal log timed.</p>\n</section>\n", o);
		return;
	}
	fputs("<table><tr><th>clocksource</th><th>call</th><th>hardware counter</th><th>OS log</th>"
	      "<th>hardware log</th><th class=\"n\">OS ns</th><th class=\"n\">hardware ns</th>"
	      "<th class=\"n\">overhead ns</th><th>proven</th></tr>\n", o);
	for (size_t i = 0; i < lu.n; i++)
		row(o, c, &lu.rows[i]);
	fputs("</table>\n</section>\n", o);
	lineup_free(&lu);
}
