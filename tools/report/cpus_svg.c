/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the offset plot and the contention curves as inline
 * SVG (tools/report/cpus.h).
 *
 * Offsets: a pair's offset and its uncertainty can differ by five decades on
 * one machine (under TCG a CPU measured 408 us +/- 150 ns off and another
 * 10 ms +/- 12 ms), so past two decades of spread the y axis is symmetric
 * logarithmic: sign(v) * log10(1 + |v|), zero at zero, every decade the
 * same height; an error bar keeps its ends, drawn through that mapping.
 *
 * Contention: readers 1, 2, 4 … N on a log2 x axis (each doubling one step);
 * y logarithmic when the costs span more than a decade (p99 under contention
 * is often 10x p50), else linear from 0. */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "tools/report/cpus.h"

#define W 760          /* SVG width, px */
#define ML 78          /* left margin: y labels */
#define MR 90          /* right margin: the counters' names */
#define MT 14
#define PH 220         /* plot height */
#define MB 44          /* bottom: x labels and axis title */
#define ROW 17         /* a legend row */
#define BAD "#b00020"
#define SVG_STYLE "max-width:100%%;height:auto;border:1px solid #e0e0e8;background:#fcfcfe" /* in format strings */

void rp_tick_text(char *b, size_t cap, double v)
{
	double a = fabs(v);
	if (a >= 1e9)
		snprintf(b, cap, "%gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(b, cap, "%gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(b, cap, "%gk", v / 1e3);
	else
		snprintf(b, cap, "%g", v);
}

/* ---- offsets -------------------------------------------------------------- */

struct yaxis {
	int symlog;
	double span;   /* linear: |v| <= span; symlog: decades */
	double step;   /* linear: between ticks */
	int top, base; /* pixel rows of +span and -span */
};

static double ymap(const struct yaxis *a, double v)
{
	double f = a->symlog ? (v < 0 ? -1 : 1) * log10(1 + fabs(v)) : v;
	double mid = (a->top + a->base) / 2.0;
	return mid - f / a->span * (a->base - a->top) / 2.0;
}

/* Pairs against CPU 0 (all of them in boot mode; ref 0 in matrix mode). */
static int against_boot(const struct ld_tsc_pair *p)
{
	return p->ref.state == LD_ABSENT || (p->ref.state == LD_SET && !p->ref.v);
}

/* The pairs against CPU 0, and the range of their offsets: *hi the largest
 * |offset| + uncertainty, *lo the smallest non-zero max(|offset|, uncertainty). */
static size_t offsets_range(const struct smp_view *v, double *lo, double *hi)
{
	const struct lr_node *p;
	size_t n = 0;
	double x;
	int64_t off;
	uint64_t u;

	*lo = INFINITY;
	*hi = 0;
	for (size_t i = 0; (p = smp_pair_at(v, i)); i++) {
		struct ld_tsc_pair pair;
		ld_decode_tsc_pair(p, &pair);
		if (!against_boot(&pair))
			continue;
		n++;
		if (!smp_pair_offset(p, &off, &u))
			continue;
		x = fabs((double)off) + (double)u;
		*hi = x > *hi ? x : *hi;
		x = fabs((double)off) > (double)u ? fabs((double)off) : (double)u;
		if (x > 0)
			*lo = x < *lo ? x : *lo;
	}
	return n;
}

void rp_svg_offsets(FILE *o, const struct smp_view *v, const char *colour)
{
	const struct lr_node *p;
	size_t n, k = 0;
	double lo, hi;
	int64_t off;
	uint64_t u;
	struct yaxis a = { .top = MT + 6, .base = MT + 6 + PH };
	int pw = W - ML - 24, h = MT + 6 + PH + MB, step;
	char lab[32];

	n = offsets_range(v, &lo, &hi);
	if (!n)
		return;
	if (!(hi > 0))
		hi = 1;
	a.symlog = lo < INFINITY && hi / lo > 100;
	if (a.symlog) {
		a.span = ceil(log10(1 + hi));
	} else { /* ticks at 1, 2 or 5 times a power of ten, about four each way */
		a.step = pow(10, floor(log10(hi / 4)));
		a.step *= hi / a.step > 20 ? 5 : hi / a.step > 8 ? 2 : 1;
		a.span = ceil(hi * 1.05 / a.step) * a.step;
	}
	fprintf(o, "<figure>\n<svg class=\"offsets\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		   "font-family=\"system-ui,sans-serif\" font-size=\"12\" style=\"" SVG_STYLE "\">\n"
		   "<title>TSC offset of each CPU against CPU 0, with its uncertainty</title>\n", W, h, W, h);
	/* y grid: zero, then decades (symlog) or quarters (linear) each way. */
	fputs("<g fill=\"#444\" text-anchor=\"end\">", o);
	for (int s = -1; s <= 1; s += 2) {
		int nt = a.symlog ? (int)a.span : (int)(a.span / a.step + 0.5);
		for (int d = 1; d <= nt; d++) {
			double val = a.symlog ? pow(10, d) : a.step * d;
			double y = ymap(&a, s * val);
			if (a.symlog && nt > 4 && d % 2)
				continue; /* every other decade on a tall axis */
			rp_tick_text(lab, sizeof lab, s * val);
			fprintf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eceff4\"/>"
				   "<text x=\"%d\" y=\"%.1f\">%s</text>", ML, y, ML + pw, y, ML - 6, y + 4, lab);
		}
	}
	fprintf(o, "<text x=\"%d\" y=\"%.1f\">0</text></g>\n", ML - 6, ymap(&a, 0) + 4);
	fprintf(o, "<line class=\"zero\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555\"/>\n", ML, ymap(&a, 0),
		ML + pw, ymap(&a, 0));
	fprintf(o, "<path d=\"M%d %dV%d\" stroke=\"#888\"/>\n", ML, a.top, a.base);
	fprintf(o, "<text x=\"16\" y=\"%d\" fill=\"#444\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">"
		   "offset, cycles%s</text>\n", (a.top + a.base) / 2, (a.top + a.base) / 2,
		a.symlog ? " (symmetric log)" : "");
	/* One slot a pair; CPU labels no closer than 28 px. */
	step = (int)ceil(28.0 / ((double)pw / (double)n));
	if (step < 1)
		step = 1;
	for (size_t i = 0; (p = smp_pair_at(v, i)); i++) {
		double cx, y0, y1, yc;
		int outside;
		const char *col;
		struct ld_tsc_pair pair;
		ld_decode_tsc_pair(p, &pair);
		if (!against_boot(&pair))
			continue;
		cx = ML + ((double)k + 0.5) * pw / (double)n;
		if (k % (size_t)step == 0)
			fprintf(o, "<text x=\"%.1f\" y=\"%d\" fill=\"#444\" text-anchor=\"middle\">%s</text>", cx,
				a.base + 16, fmt_num(lab, sizeof lab, pair.cpu.node, -1));
		k++;
		if (!smp_pair_offset(p, &off, &u)) {
			yc = ymap(&a, 0);
			fprintf(o, "<g class=\"pair\" data-cpu=\"%s\"><title>CPU %s: not measured</title><path d=\"M%.1f %.1fl8 8m0 -8l-8 8\" "
				   "stroke=\"" BAD "\" stroke-width=\"2\"/></g>\n", lab, lab, cx - 4, yc - 4);
			continue;
		}
		outside = (off < 0 ? (uint64_t)0 - (uint64_t)off : (uint64_t)off) > u;
		col = outside ? BAD : colour;
		y0 = ymap(&a, (double)off - (double)u);
		y1 = ymap(&a, (double)off + (double)u);
		yc = ymap(&a, (double)off);
		fmt_num(lab, sizeof lab, pair.cpu.node, -1);
		fprintf(o, "<g class=\"pair\" data-cpu=\"%s\" data-outside=\"%d\"><title>CPU %s: %+" PRId64 " &#177; %" PRIu64
			   " cycles%s</title>", lab, outside, lab, off, u, outside ? ", outside its uncertainty" : "");
		fprintf(o, "<line class=\"err\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\"/>",
			cx, y0, cx, y1, col);
		fprintf(o, "<path d=\"M%.1f %.1fh8M%.1f %.1fh8\" stroke=\"%s\"/>", cx - 4, y0, cx - 4, y1, col);
		fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/></g>\n", cx, yc, col);
	}
	fprintf(o, "<text x=\"%d\" y=\"%d\" fill=\"#444\" text-anchor=\"middle\">CPU (its TSC minus CPU 0's)</text>\n",
		ML + pw / 2, a.base + 34);
	fputs("</svg>\n<figcaption>Each CPU's TSC offset against CPU 0: the dot is the measured offset, the bar "
	      "its uncertainty (half the tightest round trip). A bar that does not reach the zero line is an "
	      "offset the measurement proves; it is drawn in red.</figcaption>\n</figure>\n", o);
}

/* ---- contention ------------------------------------------------------------- */

struct plot {
	double nmax;           /* largest reader count */
	int logy;
	double ylo, yhi;
	int top, base, x0, pw;
};

static double px(const struct plot *p, double n)
{
	return p->nmax > 1 ? p->x0 + log2(n) / log2(p->nmax) * p->pw : p->x0 + p->pw / 2.0;
}

static double py(const struct plot *p, double v)
{
	double f = p->logy ? (log10(v) - log10(p->ylo)) / (log10(p->yhi) - log10(p->ylo)) : v / p->yhi;
	return p->base - f * (p->base - p->top);
}

static const char *const marker_paths[3] = { "", "M-3.5 -3.5h7v7h-7z", "M0 -4.5l4.5 8h-9z" };

static void marker(FILE *o, int shape, double x, double y, const char *fill, const char *stroke)
{
	if (!shape)
		fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" stroke=\"%s\"/>", x, y, fill, stroke);
	else
		fprintf(o, "<path transform=\"translate(%.1f %.1f)\" d=\"%s\" fill=\"%s\" stroke=\"%s\"/>", x, y,
			marker_paths[shape % 3], fill, stroke);
}

/* A level's point on the p50 (which 0) or p99 line: the spread levels
 * only, the siblings' level being a second point at 2. */
static bool level_point(const struct ld_contention_level *e, int which, double *n, double *y)
{
	const struct ld_num *v = which ? &e->p99_ns : &e->p50_ns;

	if (smp_level_siblings(e->ld.node) || !lr_num(e->n.node, n) || *n < 1 || v->state != LD_SET || !(v->v > 0))
		return false;
	*y = v->v;
	return true;
}

static void level_marker(FILE *o, const struct rp_curve *cv, const struct ld_contention *c,
			 const struct ld_contention_level *e, int shape, double x, double y)
{
	char a[32], b[32], readers[32];
	/* As written: level_point takes any number for n, not only a count. */
	const char *count = fmt_num(readers, sizeof readers, e->n.node, -1);

	fputs("<g><title>", o);
	rp_esc(o, c->counter.state == LD_SET ? c->counter.s : NULL);
	fprintf(o, ", %s reader%s: p50 %s ns, p99 %s ns</title>", count, strcmp(count, "1") ? "s" : "",
		fmt_num(a, sizeof a, e->p50_ns.node, 1), fmt_num(b, sizeof b, e->p99_ns.node, 1));
	marker(o, shape, x, y, cv->colour, cv->colour);
	fputs("</g>", o);
}

static void curve(FILE *o, const struct plot *p, const struct rp_curve *cv, int shape, int which)
{
	struct ld_contention c;
	struct ld_contention_level e;
	size_t levels;
	double n, y, lastx = 0, lasty = 0;

	ld_decode_contention(cv->rec, &c);
	levels = c.readers.state == LD_SET ? c.readers.n : 0;
	fprintf(o, "<polyline class=\"%s\" data-counter=\"", which ? "p99" : "p50");
	rp_esc(o, c.counter.state == LD_SET ? c.counter.s : NULL);
	fprintf(o, "\" data-log=\"%zu\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"", cv->log + 1,
		cv->colour, which ? "1.2" : "2", which ? " stroke-dasharray=\"5 3\"" : "");
	for (size_t i = 0; i < levels; i++) {
		ld_contention_readers_at(&c, i, &e);
		if (level_point(&e, which, &n, &y))
			fprintf(o, "%.1f,%.1f ", px(p, n), py(p, y));
	}
	fputs("\"/>\n", o);
	for (size_t i = 0; i < levels; i++) {
		ld_contention_readers_at(&c, i, &e);
		if (!level_point(&e, which, &n, &y))
			continue;
		lastx = px(p, n);
		lasty = py(p, y);
		if (which) /* p99: the same marker, hollow, so each dashed line shows its counter */
			marker(o, shape, lastx, lasty, "#fff", cv->colour);
		else
			level_marker(o, cv, &c, &e, shape, lastx, lasty);
	}
	if (!which && !cv->label && lastx > 0) {
		fprintf(o, "\n<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">", lastx + 8, lasty + 4, cv->colour);
		rp_esc(o, c.counter.state == LD_SET ? c.counter.s : NULL);
		fputs("</text>", o);
	}
	fputs("\n", o);
}

static void scan(struct plot *p, const struct rp_curve *curves, size_t n)
{
	double lo = INFINITY, hi = 0, x;
	p->nmax = 1;
	for (size_t i = 0; i < n; i++) {
		struct ld_contention c;
		ld_decode_contention(curves[i].rec, &c);
		for (size_t k = 0; c.readers.state == LD_SET && k < c.readers.n; k++) {
			struct ld_contention_level e;
			ld_contention_readers_at(&c, k, &e);
			if (lr_num(e.n.node, &x) && x > p->nmax)
				p->nmax = x;
			for (int w = 0; w < 2; w++) {
				const struct ld_num *v = w ? &e.p99_ns : &e.p50_ns;
				if (v->state == LD_SET && v->v > 0) {
					lo = v->v < lo ? v->v : lo;
					hi = v->v > hi ? v->v : hi;
				}
			}
		}
	}
	if (!(hi > 0)) {
		lo = 1;
		hi = 10;
	}
	p->logy = hi / lo > 10;
	if (p->logy) {
		p->ylo = pow(10, floor(log10(lo)));
		p->yhi = pow(10, ceil(log10(hi)));
	} else {
		p->ylo = 0;
		p->yhi = hi * 1.15;
	}
}

void rp_svg_contention(FILE *o, const struct rp_curve *curves, size_t n, const char *title)
{
	struct plot p;
	size_t legend = 0;
	int h;
	char lab[32];

	for (size_t i = 0; i < n; i++)
		legend += curves[i].label != NULL;
	scan(&p, curves, n);
	p.top = MT + ROW * (int)legend + 8;
	p.base = p.top + PH;
	p.x0 = ML;
	p.pw = W - ML - MR;
	h = p.base + MB;
	fprintf(o, "<figure>\n<svg class=\"contention\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		   "font-family=\"system-ui,sans-serif\" font-size=\"12\" style=\"" SVG_STYLE "\">\n<title>", W, h, W, h);
	rp_esc(o, title);
	fputs("</title>\n", o);
	for (size_t i = 0, row = 0; i < n; i++) {
		if (!curves[i].label)
			continue;
		row++;
		fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
			ML, MT + ROW * (int)row - 14, curves[i].colour, ML + 18, MT + ROW * (int)row - 4);
		rp_esc(o, curves[i].label);
		fputs("</text>\n", o);
	}
	fputs("<g fill=\"#444\" text-anchor=\"end\">", o);
	if (p.logy) {
		int d0 = (int)lround(log10(p.ylo)), d1 = (int)lround(log10(p.yhi));
		for (int d = d0; d <= d1; d++)
			for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
				double val = m * pow(10, d), y;
				if (val > p.yhi * 1.0001)
					continue;
				y = py(&p, val);
				rp_tick_text(lab, sizeof lab, val);
				fprintf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>"
					   "<text x=\"%d\" y=\"%.1f\">%s</text>", ML, y, ML + p.pw, y,
					m == 1 ? "#e3e3ea" : "#f2f2f6", ML - 6, y + 4, lab);
			}
	} else {
		double stepv = pow(10, floor(log10(p.yhi / 4)));
		if (p.yhi / stepv > 10)
			stepv *= p.yhi / stepv > 20 ? 5 : 2;
		for (int k = 0; k * stepv <= p.yhi; k++) {
			double val = k * stepv, y = py(&p, val);
			rp_tick_text(lab, sizeof lab, val);
			fprintf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e3e3ea\"/>"
				   "<text x=\"%d\" y=\"%.1f\">%s</text>", ML, y, ML + p.pw, y, ML - 6, y + 4, lab);
		}
	}
	fputs("</g>\n<g fill=\"#444\" text-anchor=\"middle\">", o);
	for (int k = 0; k < 31 && ldexp(1, k) <= p.nmax * 1.0001; k++)
		fprintf(o, "<text x=\"%.1f\" y=\"%d\">%g</text>", px(&p, ldexp(1, k)), p.base + 16, ldexp(1, k));
	if (p.nmax != pow(2, floor(log2(p.nmax))))
		fprintf(o, "<text x=\"%.1f\" y=\"%d\">%g</text>", px(&p, p.nmax), p.base + 16, p.nmax);
	fprintf(o, "<text x=\"%d\" y=\"%d\">CPUs reading at once (log2)</text></g>\n", ML + p.pw / 2, p.base + 34);
	fprintf(o, "<text x=\"16\" y=\"%d\" fill=\"#444\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">"
		   "ns per read%s</text>\n", (p.top + p.base) / 2, (p.top + p.base) / 2, p.logy ? " (log)" : "");
	fprintf(o, "<path d=\"M%d %dV%dH%d\" stroke=\"#888\" fill=\"none\"/>\n", ML, p.top, p.base, ML + p.pw);
	for (size_t i = 0; i < n; i++) {
		curve(o, &p, &curves[i], curves[i].label ? 0 : (int)i, 1);
		curve(o, &p, &curves[i], curves[i].label ? 0 : (int)i, 0);
	}
	fputs("</svg>\n<figcaption>", o);
	rp_esc(o, title);
	fputs(": the median over the readers of each reader's p50 (solid, with markers) and p99 (dashed), "
	      "against the number of CPUs reading at once.</figcaption>\n</figure>\n", o);
}
