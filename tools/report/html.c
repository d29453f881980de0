/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: escaping, value printing, and the page's frame and
 * header (what the page is, when it was made, every log given and its
 * integrity, with the reader's problems). */
#include <string.h>
#include "tools/report/cpus.h"
#include "tools/report/html.h"
#include "tools/commands.h"

/* Problems listed per run before "… and N more": a capture of line noise can
 * hold thousands, and the page must stay readable (stderr has them all). */
#define RP_MAX_PROBS 40

static void put_byte(FILE *o, unsigned char c)
{
	fprintf(o, "\\x%02x", c);
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if none.
 * Overlong forms, surrogates and values above U+10FFFF are not valid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t k;
	if (c >= 0xc2 && c <= 0xdf)
		k = 2;
	else if (c >= 0xe0 && c <= 0xef)
		k = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		k = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (n < k || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < k; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return k;
}

void rp_esc_n(FILE *o, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		size_t k;
		switch (c) {
		case '&': fputs("&amp;", o); continue;
		case '<': fputs("&lt;", o); continue;
		case '>': fputs("&gt;", o); continue;
		case '"': fputs("&quot;", o); continue;
		case '\'': fputs("&#39;", o); continue;
		default: break;
		}
		if (c >= 0x20 && c < 0x7f) {
			fputc(c, o);
		} else if (c == '\t' || c == '\n') {
			fputc(' ', o);
		} else if (c >= 0x80 && (k = utf8_len(s + i, n - i))) {
			fwrite(s + i, 1, k, o);
			i += k - 1;
		} else {
			put_byte(o, c);
		}
	}
}

void rp_esc(FILE *o, const char *s)
{
	if (s)
		rp_esc_n(o, s, strlen(s));
}

void rp_value(FILE *o, const struct lr_node *n, const char *none)
{
	char b[64];
	const struct lr_node *m;
	if (!n || n->kind == LR_NULL) {
		fputs(none, o);
		return;
	}
	switch (n->kind) {
	case LR_BOOL:
		fputs(n->b ? "yes" : "no", o);
		break;
	case LR_NUM:
		rp_esc(o, fmt_num(b, sizeof b, n, -1));
		break;
	case LR_STR:
		rp_esc_n(o, n->str, n->len);
		break;
	case LR_ARR:
		if (!n->len)
			fputs("none", o);
		for (m = n->child; m; m = m->next) {
			if (m->kind == LR_ARR) /* [[value, count], …] pairs stay pairs */
				fputs("[", o), rp_value(o, m, "null"), fputs("]", o);
			else
				rp_value(o, m, "null");
			if (m->next)
				fputs(", ", o);
		}
		break;
	case LR_OBJ:
		for (m = n->child; m; m = m->next) {
			rp_esc(o, m->key);
			fputs(": ", o);
			if (m->kind == LR_ARR || m->kind == LR_OBJ)
				fputs("(", o), rp_value(o, m, "null"), fputs(")", o);
			else
				rp_value(o, m, "null");
			if (m->next)
				fputs("; ", o);
		}
		break;
	}
}

void rp_num(FILE *o, const struct lr_node *n, int decimals)
{
	char b[64];
	double v;
	if (!lr_num(n, &v))
		fputs("&ndash;", o);
	else
		rp_esc(o, fmt_num(b, sizeof b, n, decimals));
}

void rp_hex(FILE *o, const struct lr_node *n, const char *none)
{
	uint64_t u;
	if (lr_uint(n, &u))
		fprintf(o, "0x%llx", (unsigned long long)u);
	else
		fputs(none, o);
}

/* Eight colours that stay apart for the common kinds of colour blindness
 * (Okabe and Ito's set, with black swapped for a dark grey-blue). */
const char *rp_colour(size_t i)
{
	static const char *const pal[8] = { "#0072b2", "#d55e00", "#009e73", "#cc79a7",
					     "#e69f00", "#56b4e9", "#7a5195", "#3d3d3d" };
	return pal[i % 8];
}

void rp_swatch(FILE *o, size_t i)
{
	fprintf(o, "<span class=\"nw\"><span class=\"sw\" style=\"background:%s\"></span>[%zu]</span>",
		rp_colour(i), i + 1);
}

void rp_timer_key(const struct lr_node *t, char *buf, size_t cap)
{
	const char *name = lr_str(lr_get(t, "name"));
	snprintf(buf, cap, "%s%s", lr_str(lr_get(t, "clocksource")) ? "os:" : "", name ? name : "?");
}

const struct lr_node *rp_find_key(const struct lrun *r, const char *key)
{
	const struct lr_node *t;
	char k[RP_KEY_LEN];
	for (size_t i = 0; (t = lrun_timer_at(r, i)); i++) {
		rp_timer_key(t, k, sizeof k);
		if (!strcmp(k, key))
			return t;
	}
	return NULL;
}

void rp_key_label(FILE *o, const char *key)
{
	if (!strncmp(key, "os:", 3)) {
		rp_esc(o, key + 3);
		fputs(" <span class=\"dim\">(OS call)</span>", o);
	} else {
		rp_esc(o, key);
	}
}

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
	const struct lr_node *b = lrun_first(r, "begin"), *e = lrun_first(r, "end");
	char st[200];
	size_t k;

	fprintf(o, "<tr><td>");
	rp_swatch(o, i);
	fprintf(o, "</td><td><a href=\"#run%zu\">", i + 1);
	rp_esc(o, r->name);
	fprintf(o, "</a></td><td>");
	rp_value(o, lr_get(b, "boot"), "?");
	fprintf(o, "</td><td>");
	rp_value(o, lr_get(b, "version"), "?");
	fprintf(o, "</td><td>");
	rp_value(o, lr_get(e, "status"), "(no end record)");
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
		if (!used)
			fputs("not used: ", o), rp_esc(o, lf->why[0] ? lf->why : "no usable run");
		else
			fputs("outside any run", o);
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

void rp_head(const struct rp_ctx *c)
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
	fputs("</table>\n<nav>Sections: <a href=\"#summary\">summary</a><a href=\"#distributions\">"
	      "distributions</a>", o);
	if (c->nlogs > 1)
		fputs("<a href=\"#comparisons\">comparisons</a>", o);
	if (rp_has_lineup(c))
		fputs("<a href=\"#kernel-path\">kernel path</a>", o);
	if (rp_cpus_multi(c) >= 2)
		fputs("<a href=\"#cpus\">CPUs</a>", o);
	for (size_t j = 0; j < c->nlogs; j++)
		fprintf(o, "<a href=\"#run%zu\">machine [%zu]</a>", j + 1, j + 1);
	fputs("</nav>\n</header>\n", o);
}

void rp_foot(const struct rp_ctx *c)
{
	fprintf(c->out, "<footer><p class=\"dim\">tickprobe %s. This page is self-contained: no "
			"network, no scripts.</p></footer>\n</body>\n</html>\n",
		TICKPROBE_VERSION);
}
