/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the watch (docs/watch.md) of each log that has one,
 * in a section of its own (id "watch"): the verdict, each clock's rate and
 * drift, two plots over the watch's 32 segments (each clock's rate, each
 * other CPU's TSC offset from the boot CPU's) and the VM events.
 *
 * The plots share one y axis rule: linear and symmetric about zero, unless
 * one line is over 100 times further from zero than the nearest other
 * (an HPET 8,000 ppm off among clocks within 0.1 ppm), when it is a
 * symmetric logarithm, sign(v) * log10(1 + |v| / unit), as the offset plot
 * of the CPUs section does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/report/watch.h"

#define W 760
#define ML 78
#define MR 110
#define MT 14
#define PH 200
#define MB 44
#define MAX_LINES 16 /* lines a plot draws; more CPUs are named in its caption */
#define SEGMENTS 32

struct line {
	char name[48];
	double y[SEGMENTS]; /* NaN: not measured */
};

struct plot {
	double t[SEGMENTS]; /* each segment's end, s */
	size_t n;           /* segments */
	struct line lines[MAX_LINES];
	size_t nlines, more; /* more: lines left out */
	double xmax, span, unit;
	int symlog;
};

static double yf(const struct plot *p, double v)
{
	double f = p->symlog ? (v < 0 ? -1 : 1) * log10(1 + fabs(v) / p->unit) : v;
	return MT + PH / 2.0 - f / p->span * PH / 2.0;
}

static double xf(const struct plot *p, double t)
{
	return ML + t / p->xmax * (W - ML - MR);
}

/* The axis: each line's largest |value|; symlog when they span two decades. */
static void scale(struct plot *p)
{
	double hi = 0, lo = INFINITY;

	for (size_t k = 0; k < p->nlines; k++) {
		double m = 0;
		for (size_t s = 0; s < p->n; s++)
			if (p->lines[k].y[s] == p->lines[k].y[s])
				m = fmax(m, fabs(p->lines[k].y[s]));
		hi = fmax(hi, m);
		if (m > 0)
			lo = fmin(lo, m);
	}
	if (!(hi > 0))
		hi = 1;
	p->symlog = lo < INFINITY && hi / lo > 100;
	p->unit = p->symlog ? lo : 1;
	p->span = p->symlog ? ceil(log10(1 + hi / p->unit)) : hi * 1.1;
	p->xmax = p->n ? fmax(p->t[p->n - 1], 1e-9) : 1;
}

/* A tick at v and -v, with the zero line drawn apart. */
static void tick_pair(FILE *o, const struct plot *p, double v)
{
	char lab[32];

	for (int sign = -1; sign <= 1; sign += 2) {
		double y = yf(p, sign * v);
		rp_tick_text(lab, sizeof lab, sign * v);
		fprintf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eceff4\"/>"
			   "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#444\">%s</text>\n",
			ML, y, W - MR, y, ML - 6, y + 4, lab);
	}
}

static void axes(FILE *o, const struct plot *p, const char *y_title)
{
	char lab[32];

	if (p->symlog) /* every decade above the unit, every other on a tall axis */
		for (int d = 1; d < (int)p->span; d += p->span > 4 ? 2 : 1)
			tick_pair(o, p, p->unit * pow(10, d));
	else
		tick_pair(o, p, p->span / 1.1);
	fprintf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555\"/><text x=\"%d\" y=\"%.1f\" "
		   "text-anchor=\"end\" fill=\"#444\">0</text>\n", ML, yf(p, 0), W - MR, yf(p, 0), ML - 6, yf(p, 0) + 4);
	rp_tick_text(lab, sizeof lab, p->xmax);
	fprintf(o, "<text x=\"%d\" y=\"%d\" fill=\"#444\">0</text><text x=\"%d\" y=\"%d\" fill=\"#444\" "
		   "text-anchor=\"end\">%s s</text>\n", ML, MT + PH + 16, W - MR, MT + PH + 16, lab);
	fprintf(o, "<text x=\"%d\" y=\"%d\" fill=\"#444\" text-anchor=\"middle\">time since the watch began</text>\n",
		(ML + W - MR) / 2, MT + PH + 34);
	fprintf(o, "<text x=\"16\" y=\"%d\" fill=\"#444\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">",
		MT + PH / 2, MT + PH / 2);
	rp_esc(o, y_title);
	fputs(p->symlog ? " (symmetric log)</text>\n" : "</text>\n", o);
}

/* The lines' names at their ends, moved apart to be 13 px at least. */
static void label_rows(const struct plot *p, const double *end_y, double *row)
{
	size_t order[MAX_LINES];

	for (size_t k = 0; k < p->nlines; k++) {
		size_t j = k;
		while (j && end_y[order[j - 1]] > end_y[k]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = k;
	}
	for (size_t j = 0; j < p->nlines; j++) {
		row[order[j]] = end_y[order[j]] + 4;
		if (j && row[order[j]] < row[order[j - 1]] + 13)
			row[order[j]] = row[order[j - 1]] + 13;
	}
}

static void draw(FILE *o, const struct plot *p, const char *cls, const char *title, const char *y_title)
{
	int h = MT + PH + MB;
	double end_y[MAX_LINES], row[MAX_LINES];

	fprintf(o, "<figure>\n<svg class=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		   "font-family=\"system-ui,sans-serif\" font-size=\"12\" style=\"max-width:100%%;height:auto;"
		   "border:1px solid #e0e0e8;background:#fcfcfe\">\n<title>", cls, W, h, W, h);
	rp_esc(o, title);
	fputs("</title>\n", o);
	axes(o, p, y_title);
	for (size_t k = 0; k < p->nlines; k++) {
		const struct line *l = &p->lines[k];
		int pen = 0;
		end_y[k] = yf(p, 0);
		fprintf(o, "<path class=\"line\" data-name=\"");
		rp_esc(o, l->name);
		fprintf(o, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" d=\"", rp_colour(k));
		for (size_t s = 0; s < p->n; s++) {
			if (l->y[s] != l->y[s]) {
				pen = 0;
				continue;
			}
			end_y[k] = yf(p, l->y[s]);
			fprintf(o, "%s%.1f %.1f", pen ? "L" : "M", xf(p, p->t[s]), end_y[k]);
			pen = 1;
		}
		fputs("\"/>\n", o);
	}
	label_rows(p, end_y, row);
	for (size_t k = 0; k < p->nlines; k++) {
		fprintf(o, "<text x=\"%d\" y=\"%.1f\" fill=\"%s\">", W - MR + 6, row[k], rp_colour(k));
		rp_esc(o, p->lines[k].name);
		fputs("</text>\n", o);
	}
	fputs("</svg>\n", o);
}

/* The segments' times and each clock's rates (offsets 0) or each CPU's
 * offsets (1), from the watch_segment records. */
static void load(struct plot *p, const struct lrun *r, int offsets)
{
	memset(p, 0, sizeof *p);
	for (size_t i = 0; i < r->nrecs && p->n < SEGMENTS; i++) {
		struct ld_watch_segment seg;
		const struct ld_list *v;
		if (strcmp(r->recs[i].type, "watch_segment"))
			continue;
		ld_decode_watch_segment(r->recs[i].root, &seg);
		if (seg.t_s.state != LD_SET)
			continue;
		p->t[p->n] = seg.t_s.v;
		v = offsets ? &seg.offset : &seg.ppm;
		for (size_t k = 0; v->state == LD_SET && k < v->n; k++) {
			struct ld_num y =
				offsets ? ld_watch_segment_offset_at(&seg, k) : ld_watch_segment_ppm_at(&seg, k);
			if (k >= MAX_LINES) {
				p->more = k + 1 - MAX_LINES > p->more ? k + 1 - MAX_LINES : p->more;
				continue;
			}
			for (size_t s = p->nlines; s <= k; s++)
				for (size_t j = 0; j < SEGMENTS; j++)
					p->lines[s].y[j] = NAN;
			p->nlines = k + 1 > p->nlines ? k + 1 : p->nlines;
			p->lines[k].y[p->n] = y.state == LD_SET ? y.v : NAN;
		}
		p->n++;
	}
}

/* Line k's name: the clock's (a string), or "CPU N" (a number), from n. */
static void name_line(struct plot *p, size_t k, const struct lr_node *n, const char *prefix)
{
	const char *s = lr_str(n);
	double cpu;

	if (s)
		snprintf(p->lines[k].name, sizeof p->lines[k].name, "%s", s);
	else if (lr_num(n, &cpu))
		snprintf(p->lines[k].name, sizeof p->lines[k].name, "%s%.0f", prefix, cpu);
	else
		snprintf(p->lines[k].name, sizeof p->lines[k].name, "%s?", prefix);
}

static void clock_names(struct plot *p, const struct ld_watch_begin *b)
{
	for (size_t k = 0; k < p->nlines; k++) {
		struct ld_watch_clock_def d;
		ld_watch_begin_clocks_at(b, k, &d);
		name_line(p, k, d.name.node, "");
	}
}

static void cpu_names(struct plot *p, const struct ld_watch *w)
{
	for (size_t k = 0; k < p->nlines; k++) {
		struct ld_watch_cpu c;
		ld_watch_cpus_at(w, k, &c);
		name_line(p, k, c.cpu.node, "CPU ");
	}
}

static void clock_table(FILE *o, const struct ld_watch *w)
{
	fputs("<table><tr><th>clock</th><th class=\"n\">rate, ppm</th><th class=\"n\">&#177; ppm</th>"
	      "<th class=\"n\">drift, ppm/h</th><th class=\"n\">&#177; ppm/h</th><th class=\"n\">steps</th></tr>\n", o);
	for (size_t i = 0; w->clocks.state == LD_SET && i < w->clocks.n; i++) {
		struct ld_watch_clock c;
		ld_watch_clocks_at(w, i, &c);
		fputs("<tr><td>", o);
		rp_value(o, c.name.node, "?");
		fputs("</td><td class=\"n\">", o);
		rp_num(o, c.rate_ppm.node, 3);
		fputs("</td><td class=\"n\">", o);
		rp_num(o, c.u_ppm.node, 4);
		fputs("</td><td class=\"n\">", o);
		rp_num(o, c.drift_ppm_per_h.node, 3);
		fputs("</td><td class=\"n\">", o);
		rp_num(o, c.drift_u_ppm_per_h.node, 3);
		fputs("</td><td class=\"n\">", o);
		rp_num(o, c.steps.node, 0);
		fputs("</td></tr>\n", o);
	}
	fputs("</table>\n<p class=\"dim\">The TSC against its boot calibration; each counter against the "
	      "consensus of the counters.</p>\n", o);
}

static void events(FILE *o, const struct lrun *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nrecs; i++) {
		struct ld_watch_event e;
		if (strcmp(r->recs[i].type, "watch_event"))
			continue;
		if (!n++)
			fputs("<h4>VM events</h4>\n<ul class=\"events\">\n", o);
		ld_decode_watch_event(r->recs[i].root, &e);
		fprintf(o, "<li class=\"%s\">", e.moved.state == LD_SET && e.moved.v ? "bad" : "ok");
		rp_value(o, e.verdict.node, "no verdict");
		fputs("</li>\n", o);
	}
	if (n)
		fputs("</ul>\n", o);
}

static void one(const struct rp_ctx *c, size_t i, struct plot *p)
{
	FILE *o = c->out;
	const struct lrun *r = c->logs[i].run;
	struct ld_watch_begin b;
	struct ld_watch w;

	ld_decode_watch_begin(lrun_first(r, "watch_begin"), &b);
	ld_decode_watch(lrun_first(r, "watch"), &w);
	fprintf(o, "<h3>");
	rp_swatch(o, i);
	fputc(' ', o);
	rp_esc(o, r->name);
	fputs("</h3>\n", o);
	if (b.skipped.state == LD_SET) {
		fputs("<p>Not run: ", o);
		rp_value(o, b.skipped.node, "");
		fputs("</p>\n", o);
		return;
	}
	fputs("<p>", o);
	rp_value(o, w.verdict.node, "No watch record: the run ended before the watch did.");
	fputs("</p>\n", o);
	if (w.ld.state != LD_ABSENT)
		clock_table(o, &w);
	load(p, r, 0);
	clock_names(p, &b);
	scale(p);
	if (p->n)
		draw(o, p, "watch-rates", "each clock's rate over the watch, ppm", "rate, ppm");
	if (p->n)
		fputs("<figcaption>Each segment's rate: the TSC against its boot calibration, each counter against "
		      "the consensus.</figcaption>\n</figure>\n", o);
	load(p, r, 1);
	cpu_names(p, &w);
	scale(p);
	if (p->n && p->nlines) {
		draw(o, p, "watch-offsets", "each CPU's TSC offset from the boot CPU's over the watch", "offset, cycles");
		fprintf(o, "<figcaption>Each other CPU's TSC minus the boot CPU's, measured once a segment");
		if (p->more)
			fprintf(o, "; %zu more CPU(s) not drawn", p->more);
		fputs(".</figcaption>\n</figure>\n", o);
	}
	events(o, r);
}

int rp_has_watch(const struct rp_ctx *c)
{
	for (size_t i = 0; i < c->nlogs; i++)
		if (lrun_first(c->logs[i].run, "watch_begin"))
			return 1;
	return 0;
}

void rp_watch_page(const struct rp_ctx *c)
{
	struct plot *p;

	if (!rp_has_watch(c))
		return;
	p = malloc(sizeof *p);
	if (!p) {
		fprintf(stderr, "tickprobe report: out of memory\n");
		exit(2);
	}
	fputs("<section id=\"watch\">\n<h2>Watch</h2>\n<p>Every clock weighed against the others over minutes "
	      "(docs/watch.md): which one is wrong, how each drifted, how the other CPUs' TSCs moved.</p>\n",
	      c->out);
	for (size_t i = 0; i < c->nlogs; i++)
		if (lrun_first(c->logs[i].run, "watch_begin"))
			one(c, i, p);
	fputs("</section>\n", c->out);
	free(p);
}

int rp_watch_type(const char *type)
{
	return type && (!strcmp(type, "watch_begin") || !strcmp(type, "watch_segment") || !strcmp(type, "watch") ||
			!strcmp(type, "watch_event"));
}
