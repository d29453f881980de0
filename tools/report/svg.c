/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: one inline SVG histogram per counter, every log that
 * measured it overlaid in its own colour, from the timer records' `hist`
 * (cycles and counts, either schema: probe/hist_codec.h).
 *
 * Both axes are logarithmic.  x, because one counter's costs span three to
 * four decades on one machine (TCG: an HPET read is 130 ns at best and 39 us
 * at worst) and machines differ by more: a linear axis would squeeze every
 * read but the slowest into the first few pixels.  y, because the mode holds
 * thousands of reads and the tail single ones.  The x unit is ns when every
 * log involved gives its TSC frequency (so machines at different clock rates
 * line up), else cycles. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/report/html.h"
#include "tools/lib/hist_decode.h"

#define W 920            /* SVG width, px */
#define ML 62            /* left margin: y labels */
#define MR 18
#define PH 190           /* plot height */
#define MB 46            /* bottom: x labels and axis title */
#define ROW 17           /* one legend row */
#define CW 3             /* histogram column width, px: 280 columns */
#define ZW 28            /* the column for reads that cost 0 (below the subtracted overhead) */
#define NAME_SHOW 60     /* bytes of a log's name shown in a legend */

struct series {
	size_t log;                  /* index into c->logs */
	const struct lr_node *timer;
	const struct lr_node *hist;  /* NULL: no histogram (unhealthy, absent, omitted, empty) */
	double scale;                /* cycles -> x unit */
	double *cols;                /* ncols + 1 (the last: zero-cost reads) */
};

static void tick_label(char *b, size_t cap, double v)
{
	if (v >= 1e6)
		snprintf(b, cap, "%gM", v / 1e6);
	else if (v >= 1e4)
		snprintf(b, cap, "%gk", v / 1e3);
	else
		snprintf(b, cap, "%g", v);
}

/* The run's name, its last NAME_SHOW bytes when longer. */
static void short_name(FILE *o, const char *s)
{
	size_t n = strlen(s);
	if (n > NAME_SHOW) {
		fputs("&hellip;", o);
		s += n - NAME_SHOW;
	}
	rp_esc(o, s);
}

/* A timer's p50 in ns or in cycles, as the log has it. */
static bool timer_p50(const struct lr_node *timer, int ns, double *v)
{
	struct ld_timer t;

	ld_decode_timer(timer, &t);
	return lr_num(ns ? t.cost_ns.p50.node : t.cost_cycles.p50.node, v);
}

static void legend_row(FILE *o, const struct rp_ctx *c, const struct series *s, int y, int ns)
{
	struct ld_timer t;
	double v;

	ld_decode_timer(s->timer, &t);

	fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", ML, y - 10,
		rp_colour(s->log));
	fprintf(o, "<text x=\"%d\" y=\"%d\">[%zu] ", ML + 18, y, s->log + 1);
	short_name(o, c->logs[s->log].run->name);
	if (!rp_true(&t.healthy)) {
		fputs(" &#8212; not healthy: ", o);
		rp_value(o, t.reason.node, "no reason given");
	}
	if (timer_p50(s->timer, ns, &v))
		fprintf(o, " &#8212; p50 %.1f %s", v, ns ? "ns" : "cycles");
	if (lr_num(t.samples.node, &v))
		fprintf(o, ", %.0f reads", v);
	if (!s->hist)
		fputs(" (no histogram)", o);
	fputs("</text>\n", o);
}

/* A histogram with at least one bin, or NULL. */
static const struct lr_node *some_hist(const struct lr_node *hs)
{
	struct hist_dec d;
	uint64_t v, n;

	hist_dec_init(&d, hs);
	return hist_dec_next(&d, &v, &n) == 1 ? hs : NULL;
}

/* The next bin, value and count as doubles; 0 at the end of the histogram
 * (or where it turns out malformed: the bins before are drawn). */
static int next_bin(struct hist_dec *d, double *v, double *n)
{
	uint64_t value, count;

	if (hist_dec_next(d, &value, &count) != 1)
		return 0;
	*v = (double)value;
	*n = (double)count;
	return 1;
}

/* One counter's figure: its series and the plot's geometry. */
struct plot {
	struct series s[RP_MAX_LOGS];
	size_t ns, ncols, with_hist;
	int unit_ns, zero;
	double l0, lspan, ymax;
	int top, x0, pw, base, h, D;
};

/* Each log's timer for key, and the x range over every histogram's bins:
 * in ns when every log with a histogram gives its TSC frequency. */
static void gather(const struct rp_ctx *c, const char *key, struct plot *p)
{
	double xmin = INFINITY, xmax = 0, lo, hi, hv, hn;
	struct hist_dec hd;

	p->unit_ns = 1;
	for (size_t j = 0; j < c->nlogs; j++) {
		const struct lr_node *t = lrun_timer_by_key(c->logs[j].run, key), *hs;
		struct series *sr = &p->s[p->ns];
		struct ld_timer timer;
		if (!t)
			continue;
		ld_decode_timer(t, &timer);
		hs = timer.hist.node;
		sr->log = j;
		sr->timer = t;
		sr->cols = NULL;
		sr->hist = some_hist(hs);
		if (sr->hist && !(c->logs[j].hz > 0))
			p->unit_ns = 0;
		p->with_hist += sr->hist != NULL;
		p->ns++;
	}
	for (size_t k = 0; k < p->ns; k++) {
		p->s[k].scale = p->unit_ns ? 1e9 / c->logs[p->s[k].log].hz : 1;
		hist_dec_init(&hd, p->s[k].hist);
		while (next_bin(&hd, &hv, &hn)) {
			hv *= p->s[k].scale;
			if (hv == 0) {
				p->zero = 1;
			} else {
				xmin = hv < xmin ? hv : xmin;
				xmax = hv > xmax ? hv : xmax;
			}
		}
	}
	if (!(xmax > 0)) {
		xmin = 1;
		xmax = 10;
	}
	lo = xmin / 1.3;
	hi = xmax * 1.3;
	if (hi / lo < 10) { /* at least one decade, centred on the data */
		double mid = sqrt(lo * hi);
		lo = mid / sqrt(10);
		hi = mid * sqrt(10);
	}
	p->l0 = log10(lo);
	p->lspan = log10(hi) - p->l0;
	p->x0 = ML + (p->zero ? ZW : 0);
	p->pw = W - MR - p->x0;
	p->ncols = (size_t)p->pw / CW;
}

/* Reads per column of each series, and the figure's height from the most. */
static void columns(struct plot *p)
{
	double hv, hn;
	struct hist_dec hd;

	for (size_t k = 0; k < p->ns; k++) {
		struct series *sr = &p->s[k];
		if (!(sr->cols = calloc(p->ncols + 1, sizeof *sr->cols)))
			continue;
		hist_dec_init(&hd, sr->hist);
		while (next_bin(&hd, &hv, &hn)) {
			size_t col;
			hv *= sr->scale;
			col = hv == 0 ? p->ncols : (size_t)((log10(hv) - p->l0) / p->lspan * (double)p->ncols);
			if (hv != 0 && col >= p->ncols)
				col = p->ncols - 1;
			sr->cols[col] += hn;
			if (sr->cols[col] > p->ymax)
				p->ymax = sr->cols[col];
		}
	}
	p->D = p->ymax > 1 ? (int)ceil(log10(p->ymax) - 1e-9) : 1;
	if (p->D < 1)
		p->D = 1;
	p->top = 8 + ROW * (int)p->ns + 14;
	p->base = p->top + PH;
	p->h = p->base + MB;
}

/* Grid and axes.  A count of c sits at (log10 c + 0.3) / (D + 0.3) of the
 * height, so a single read (log 0) still shows as a 0.3-decade bar. */
static void axes(FILE *o, const struct plot *p)
{
	char lab[32];

	fprintf(o, "<g stroke=\"#e3e3ea\">");
	for (int d = 0; d <= p->D; d++) {
		int y = p->base - (int)((d + 0.3) / (p->D + 0.3) * PH);
		fprintf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", ML, y, W - MR, y);
	}
	fputs("</g>\n<g fill=\"#444\" text-anchor=\"end\">", o);
	for (int d = 0; d <= p->D; d++) {
		int y = p->base - (int)((d + 0.3) / (p->D + 0.3) * PH);
		tick_label(lab, sizeof lab, pow(10, d));
		fprintf(o, "<text x=\"%d\" y=\"%d\">%s</text>", ML - 6, y + 4, lab);
	}
	fputs("</g>\n<g fill=\"#444\" text-anchor=\"middle\">", o);
	for (int d = (int)floor(p->l0); d <= (int)ceil(p->l0 + p->lspan); d++) {
		static const double mant[3] = { 1, 2, 5 };
		for (int m = 0; m < 3; m++) {
			double v = mant[m] * pow(10, d), f = (log10(v) - p->l0) / p->lspan;
			int x;
			if (f < 0 || f > 1)
				continue;
			x = p->x0 + (int)(f * p->pw);
			tick_label(lab, sizeof lab, v);
			fprintf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>"
				   "<text x=\"%d\" y=\"%d\">%s</text>",
				x, p->top, x, p->base + 4, m ? "#f0f0f4" : "#e3e3ea", x, p->base + 17, lab);
		}
	}
	if (p->zero)
		fprintf(o, "<text x=\"%d\" y=\"%d\">0</text>", ML + ZW / 2, p->base + 17);
	fprintf(o, "<text x=\"%d\" y=\"%d\">cost per read, %s (log scale)</text></g>\n", p->x0 + p->pw / 2,
		p->base + 36, p->unit_ns ? "ns" : "cycles");
	fprintf(o, "<text x=\"14\" y=\"%d\" fill=\"#444\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">"
		   "reads (log)</text>\n", p->top + PH / 2, p->top + PH / 2);
	fprintf(o, "<path d=\"M%d %dV%dH%d\" stroke=\"#888\" fill=\"none\"/>\n", ML, p->top, p->base, W - MR);
}

/* Bars: a light fill and a firm top edge per log, so overlaid logs stay
 * readable where their columns coincide. */
static void bars(FILE *o, const struct plot *p)
{
	for (size_t k = 0; k < p->ns; k++) {
		const char *col = rp_colour(p->s[k].log);
		if (!p->s[k].cols || !p->s[k].hist)
			continue;
		for (int pass = 0; pass < 2; pass++) {
			fprintf(o, pass ? "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\" d=\"" :
					  "<path fill=\"%s\" fill-opacity=\"0.3\" d=\"", col);
			for (size_t j = 0; j <= p->ncols; j++) {
				double n = p->s[k].cols[j];
				int x = j == p->ncols ? ML + 6 : p->x0 + (int)(j * CW), w = j == p->ncols ? ZW - 12 : CW;
				int y;
				if (n <= 0)
					continue;
				y = p->base - (int)((log10(n) + 0.3) / (p->D + 0.3) * PH + 0.5);
				if (pass)
					fprintf(o, "M%d %dh%d", x, y, w);
				else
					fprintf(o, "M%d %dV%dh%dV%dZ", x, p->base, y, w, p->base);
			}
			fputs("\"/>\n", o);
		}
	}
}

/* p50 of each log: dashed, labelled at the top, labels staggered. */
static void p50_lines(FILE *o, const struct plot *p)
{
	for (size_t k = 0; k < p->ns; k++) {
		double v, f;
		int x;
		if (!timer_p50(p->s[k].timer, p->unit_ns, &v) || !p->s[k].hist)
			continue;
		f = v > 0 ? (log10(v) - p->l0) / p->lspan : 0;
		if (v <= 0)
			x = ML + ZW / 2;
		else if (f < 0 || f > 1)
			continue;
		else
			x = p->x0 + (int)(f * p->pw);
		fprintf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\" "
			   "stroke-dasharray=\"5 3\"/><text x=\"%d\" y=\"%d\" fill=\"%s\" font-size=\"11\">p50</text>\n",
			x, p->top - 2, x, p->base, rp_colour(p->s[k].log), x + 3, p->top + 10 + 12 * (int)k,
			rp_colour(p->s[k].log));
	}
}

static void one(const struct rp_ctx *c, const char *key)
{
	FILE *o = c->out;
	struct plot *p = calloc(1, sizeof *p);

	if (!p) {
		fputs("<p class=\"bad\">Out of memory: no figure.</p>\n", o);
		return;
	}
	gather(c, key, p);
	columns(p);
	fprintf(o, "<figure>\n<svg class=\"hist\" data-counter=\"");
	rp_esc(o, key);
	fprintf(o, "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		   "role=\"img\" font-family=\"system-ui,sans-serif\" font-size=\"12\">\n<title>",
		W, p->h, W, p->h);
	rp_esc(o, key);
	fputs(": cost per read</title>\n", o);
	for (size_t k = 0; k < p->ns; k++)
		legend_row(o, c, &p->s[k], 8 + ROW * (int)(k + 1) - 4, p->unit_ns);
	axes(o, p);
	bars(o, p);
	p50_lines(o, p);
	if (!p->with_hist)
		fprintf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#b00020\">no histogram in any "
			   "log (see the health column)</text>\n", p->x0 + p->pw / 2, p->top + PH / 2);
	fputs("</svg>\n<figcaption><b>", o);
	rp_key_label(o, key);
	fprintf(o, "</b>: reads per %d-pixel column of cost; dashed lines mark each log's p50.</figcaption>\n"
		   "</figure>\n", CW);
	for (size_t k = 0; k < p->ns; k++)
		free(p->s[k].cols);
	free(p);
}

void rp_histograms(const struct rp_ctx *c)
{
	fputs("<section id=\"distributions\">\n<h2>Distributions</h2>\n<p>One histogram per counter from "
	      "each timer record's <code>hist</code> (cost per read, harness overhead taken off); every log "
	      "that measured the counter is overlaid in its colour. Both axes are logarithmic; the x axis is "
	      "in ns when every log gives its TSC frequency, else in cycles.</p>\n", c->out);
	for (size_t i = 0; i < c->nkeys; i++)
		one(c, c->keys[i]);
	if (!c->nkeys)
		fputs("<p class=\"dim\">No timer records in the logs.</p>\n", c->out);
	fputs("</section>\n", c->out);
}
