/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report --db` (and a report over many logs): the fleet page.
 *
 * Built to stay readable at 1,000 machines and more: machines are rows and
 * counters columns (sortable, with a #sort=COUNTER link for a sorted view),
 * one box plot per counter across machines on a log scale (costs span 1 ns
 * to 100 µs), and the paired comparisons as one dot per machine.  Machines
 * link to their own pages when those are written beside it. */
#include "tools/report/fleet.h"
#include "tools/report/verdicts.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <sys/stat.h>
#include "tools/commands.h"
#include "tools/lib/db_import.h"
#include "tools/lib/db_query.h"
#include "tools/report/html.h"
#include "tools/lib/textsafe.h"

/* The pairs that answer the questions tickprobe exists for: the seed's HPET
 * against ACPI-fast, and each clocksource's kernel path against its read. */
static const struct {
	const char *a, *b;
} pairs[] = {
	{ "hpet", "acpi-fast" },
	{ "clock_gettime(MONOTONIC)@hpet", "hpet" },
	{ "clock_gettime(MONOTONIC)@acpi_pm", "acpi-fast" },
	{ "clock_gettime(MONOTONIC)@tsc", "tsc" },
};

static const char script[] =
	"function tpSort(th,dir){var t=th.closest('table'),b=t.tBodies[0],i=th.cellIndex,"
	"r=Array.prototype.slice.call(b.rows);dir=dir||(th.dataset.dir==='a'?-1:1);"
	"th.dataset.dir=dir>0?'a':'d';r.sort(function(x,y){var p=x.cells[i],q=y.cells[i];"
	"if(p.dataset.v===undefined)return dir*p.textContent.localeCompare(q.textContent);"
	"var a=parseFloat(p.dataset.v),c=parseFloat(q.dataset.v);if(isNaN(a))return isNaN(c)?0:1;"
	"if(isNaN(c))return -1;return dir*(a-c);});r.forEach(function(e){b.appendChild(e);});}"
	"document.querySelectorAll('table.sortable th').forEach(function(th){th.addEventListener('click',"
	"function(){tpSort(th);});});"
	"(function(){var m=/[#&]sort=([^&]*)/.exec(location.hash);if(!m)return;var k=decodeURIComponent(m[1]);"
	"document.querySelectorAll('table.sortable th').forEach(function(th){if(th.dataset.key===k)"
	"tpSort(th,1);});})();";

static const char css_more[] =
	"table.sortable th{cursor:pointer;position:sticky;top:0}table.sortable td{white-space:nowrap}"
	".tablewrap{max-height:640px;overflow:auto;border:1px solid #d4d4dc}"
	"svg.box,svg.pairs{max-width:100%;height:auto;border:1px solid #e0e0e8;background:#fcfcfe}";

static void cell_num(FILE *o, double v)
{
	if (isnan(v))
		fputs("<td class=\"n dim\" data-v=\"NaN\">–</td>", o);
	else
		fprintf(o, "<td class=\"n\" data-v=\"%.6g\">%.1f</td>", v, v);
}

static void machine_table(FILE *o, const struct fleet_matrix *m, const char *pages_href)
{
	fputs("<section id=\"machines\">\n<h2>Machines</h2>\n<p>The p50 cost per read in ns on each machine "
	      "(the median over its runs). Click a column to sort; <code>#sort=COUNTER</code> in the "
	      "address opens the page sorted.</p>\n<div class=\"tablewrap\"><table class=\"sortable\" "
	      "id=\"fleet\"><thead><tr><th data-key=\"machine\">machine</th><th data-key=\"vendor\">vendor</th>"
	      "<th data-key=\"firmware\">firmware</th><th data-key=\"boot\">boot</th>"
	      "<th class=\"n\" data-key=\"runs\">runs</th>", o);
	for (size_t c = 0; c < m->ncounters; c++) {
		fputs("<th class=\"n\" data-key=\"", o);
		rp_esc(o, m->counters[c]);
		fputs("\">", o);
		rp_esc(o, m->counters[c]);
		fputs("</th>", o);
	}
	fputs("</tr></thead>\n<tbody>\n", o);
	for (size_t r = 0; r < m->nrows; r++) {
		const struct fleet_row *row = &m->rows[r];
		fputs("<tr><td>", o);
		if (pages_href) {
			fputs("<a href=\"", o);
			rp_url_path(o, pages_href);
			fprintf(o, "machine-%lld.html\">", row->machine_id);
		}
		rp_esc(o, row->label ? row->label : "?");
		fputs(pages_href ? "</a>" : "", o);
		if (row->damaged_records)
			fprintf(o, " <span class=\"bad\" title=\"damaged records left out\">(%lld damaged)</span>",
				row->damaged_records);
		fputs("</td><td>", o);
		rp_esc(o, row->vendor ? row->vendor : "?");
		fputs("</td><td>", o);
		rp_esc(o, row->firmware ? row->firmware : "?");
		fputs("</td><td>", o);
		rp_esc(o, row->boots ? row->boots : "?");
		fprintf(o, "</td><td class=\"n\" data-v=\"%lld\">%lld</td>", row->runs, row->runs);
		for (size_t c = 0; c < m->ncounters; c++)
			cell_num(o, row->p50[c]);
		fputs("</tr>\n", o);
	}
	fputs("</tbody></table></div>\n</section>\n", o);
}

/* x position of a cost on the plots' log axis: 1 ns .. 100 µs. */
#define AX_LO 0.0   /* log10(1 ns) */
#define AX_HI 5.0   /* log10(100 µs) */
#define PLOT_X0 330
#define PLOT_W 640
static double xpos(double ns)
{
	double l = ns > 0 ? log10(ns) : AX_LO;
	l = l < AX_LO ? AX_LO : l > AX_HI ? AX_HI : l;
	return PLOT_X0 + (l - AX_LO) / (AX_HI - AX_LO) * PLOT_W;
}

static void axis(FILE *o, double y0, double y1, double (*x)(double), const double *ticks, const char *const *labels,
		 size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double xx = x(ticks[i]);
		fprintf(o, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#dde\"/>"
			   "<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\" fill=\"#555\">%s</text>\n",
			xx, y0, xx, y1, xx, y1 + 14, labels[i]);
	}
}

static void box_plots(FILE *o, struct store *s)
{
	static const double ticks[] = { 1, 10, 100, 1000, 10000, 100000 };
	static const char *const labels[] = { "1 ns", "10 ns", "100 ns", "1 µs", "10 µs", "100 µs" };
	struct fleet_group *g = NULL;
	char why[256];
	int n = fleet_summary(s, NULL, &g, why, sizeof why);
	size_t rows = n > 0 ? g->ncounters : 0;
	double h = 30 + 22.0 * (double)rows + 24;

	fputs("<section id=\"boxes\">\n<h2>Each counter across machines</h2>\n<p>One box per counter: the "
	      "machines' p50s, the box from the first to the third quartile, the line at the median, the "
	      "whiskers to the fastest and the slowest machine. Log scale.</p>\n", o);
	fprintf(o, "<svg class=\"box\" viewBox=\"0 0 1000 %.0f\" width=\"1000\" height=\"%.0f\" "
		   "xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n", h, h);
	axis(o, 20, h - 24, xpos, ticks, labels, 6);
	for (size_t i = 0; i < rows; i++) {
		const struct fleet_counter *c = &g->counters[i];
		double y = 30 + 22.0 * (double)i;
		fputs("<g class=\"boxrow\" data-counter=\"", o);
		rp_esc(o, c->name);
		fprintf(o, "\"><text x=\"%d\" y=\"%.0f\" font-size=\"12\" text-anchor=\"end\">", PLOT_X0 - 8, y + 12);
		rp_esc(o, c->name);
		fprintf(o, " (%zu)</text>", c->machines);
		fprintf(o, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#555\"/>", xpos(c->min),
			y + 8, xpos(c->max), y + 8);
		fprintf(o, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"16\" fill=\"#cfe0f7\" stroke=\"#2a5db0\"/>",
			xpos(c->q1), y, xpos(c->q3) - xpos(c->q1) < 1 ? 1 : xpos(c->q3) - xpos(c->q1));
		fprintf(o, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#b00020\" stroke-width=\"2\"/>"
			   "<title>median %.1f ns, IQR %.1f-%.1f, min %.1f, max %.1f</title></g>\n",
			xpos(c->median), y - 2, xpos(c->median), y + 18, c->median, c->q1, c->q3, c->min, c->max);
	}
	fputs("</svg>\n</section>\n", o);
	if (n > 0)
		fleet_groups_free(g, n);
}

/* The A/B ratio's axis: 1/10 .. 10, log. */
static double rpos(double ratio)
{
	double l = ratio > 0 ? log10(ratio) : -1;
	l = l < -1 ? -1 : l > 1 ? 1 : l;
	return PLOT_X0 + (l + 1) / 2 * PLOT_W;
}

static void pair_chart(FILE *o, struct store *s, int ci, double conf)
{
	static const double ticks[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10 };
	static const char *const labels[] = { "×0.1", "×0.2", "×0.5", "×1", "×2", "×5", "×10" };
	struct pair_result r[sizeof pairs / sizeof pairs[0]];
	size_t shown = 0;
	char why[256];

	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		if (fleet_pair(s, pairs[i].a, pairs[i].b, "p50", ci, &r[i], why, sizeof why) < 0)
			memset(&r[i], 0, sizeof r[i]);
	fprintf(o, "<section id=\"pairs\">\n<h2>Paired comparisons</h2>\n<p>On each machine that measured both, "
		   "Student's t on the per-round p50s at %.1f&nbsp;%% confidence. One dot per machine at its A/B "
		   "ratio: green where A is faster, red where B is, grey where no difference is proven.</p>\n", conf);
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		double h = 70;
		if (!r[i].n)
			continue;
		shown++;
		fputs("<figure><figcaption><b>", o);
		rp_esc(o, pairs[i].a);
		fputs("</b> against <b>", o);
		rp_esc(o, pairs[i].b);
		fprintf(o, "</b>: faster on %zu machines, slower on %zu, no difference on %zu; ratio median %.3f "
			   "(quartiles %.3f–%.3f, min %.3f, max %.3f)</figcaption>\n",
			r[i].a_faster, r[i].b_faster, r[i].no_difference, r[i].ratio_median, r[i].ratio_q1,
			r[i].ratio_q3, r[i].ratio_min, r[i].ratio_max);
		fprintf(o, "<svg class=\"pairs\" data-a=\"");
		rp_esc(o, pairs[i].a);
		fprintf(o, "\" data-machines=\"%zu\" viewBox=\"0 0 1000 %.0f\" width=\"1000\" height=\"%.0f\" "
			   "xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n", r[i].n, h, h);
		axis(o, 8, h - 24, rpos, ticks, labels, 7);
		for (size_t k = 0; k < r[i].n; k++) {
			const struct pair_machine *pm = &r[i].m[k];
			/* Spread the dots vertically by machine so that 1,000 stay visible. */
			double y = 14 + (double)((pm->machine_id * 7919) % 29);
			fprintf(o, "<circle cx=\"%.1f\" cy=\"%.0f\" r=\"2.5\" fill=\"%s\" fill-opacity=\"0.7\"/>",
				rpos(pm->ratio), y, pm->verdict < 0 ? "#106b21" : pm->verdict > 0 ? "#b00020" : "#888");
		}
		fputs("\n</svg></figure>\n", o);
	}
	if (!shown)
		fputs("<p class=\"dim\">No machine measured both counters of any pair.</p>\n", o);
	fputs("</section>\n", o);
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		pair_result_free(&r[i]);
}

int rp_fleet(struct store *s, FILE *o, const struct rp_fleet_options *opt, char *why, size_t cap)
{
	struct fleet_matrix m;
	struct fleet_group *all = NULL;
	char when[64];
	int n;

	if (fleet_matrix(s, &m, why, cap) < 0)
		return -1;
	n = fleet_summary(s, NULL, &all, why, cap);
	if (n < 0) {
		fleet_matrix_free(&m);
		return -1;
	}
	rp_now_text(when, sizeof when);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", o);
	rp_esc(o, opt->title);
	fprintf(o, "</title>\n<style>%s%s</style>\n</head>\n<body>\n<header>\n<h1>", rp_css(), css_more);
	rp_esc(o, opt->title);
	fprintf(o, "</h1>\n<p>What one read of each time counter costs, across a fleet: %lld runs on %lld "
		   "machines. Costs are per read with the harness overhead taken off.</p>\n"
		   "<p class=\"dim\">Generated %s by tickprobe %s.</p>\n",
		all->runs, all->machines, when, TICKPROBE_VERSION);
	if (all->damaged_records)
		fprintf(o, "<div class=\"banner\" id=\"damage\"><b>Not every log was intact:</b> %lld damaged "
			   "records were left out; the numbers come only from records that passed their checksum.</div>\n",
			all->damaged_records);
	fputs("<nav><a href=\"#machines\">machines</a><a href=\"#boxes\">counters</a>"
	      "<a href=\"#pairs\">paired comparisons</a><a href=\"#verdicts\">verdicts</a></nav>\n</header>\n", o);
	box_plots(o, s);
	pair_chart(o, s, opt->ci, opt->conf);
	machine_table(o, &m, opt->pages_href);
	rp_fleet_verdicts(o, s);
	fprintf(o, "<script>%s</script>\n</body>\n</html>\n", script);
	fleet_matrix_free(&m);
	fleet_groups_free(all, n);
	return 0;
}

/* OUT-machines/ for OUT.html (or OUT): where the machine pages go. */
static char *pages_dir(const char *out)
{
	size_t n = strlen(out);
	char *d = malloc(n + 16);
	if (!d)
		return NULL;
	if (n > 5 && !strcmp(out + n - 5, ".html"))
		n -= 5;
	snprintf(d, n + 16, "%.*s-machines", (int)n, out);
	return d;
}

static int machine_pages(struct store *s, const char *dir, const struct rp_fleet_options *opt, size_t *written)
{
	sqlite3_stmt *st = store_prepare(s, "SELECT id, COALESCE(name, cpu_brand, key) FROM machines ORDER BY id");
	int status = EXIT_CLEAN;

	*written = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(st, 0);
		const char *label = (const char *)sqlite3_column_text(st, 1);
		char path[4096], title[300], *page = NULL;
		size_t n = 0, npage = 0;
		char *log = machine_log(s, id, &n);
		struct logfile f;

		if (!log)
			continue;
		snprintf(title, sizeof title, "tickprobe: %s", label ? label : "machine");
		snprintf(path, sizeof path, "%s/machine-%lld.html", dir, id);
		logfile_load_mem(&f, label ? label : "machine", log, n);
		if (rp_render(&f, 1, title, opt->conf, opt->ci, &page, &npage, NULL) >= 0) {
			if (rp_write_file(path, page, npage) != 0) {
				fprintf(stderr, "tickprobe report: cannot write %s: %s\n", path, strerror(errno));
				status = EXIT_USAGE;
				free(page);
				logfile_free(&f);
				free(log);
				break;
			}
			++*written;
		}
		free(page);
		logfile_free(&f);
		free(log);
	}
	sqlite3_finalize(st);
	return status;
}

/* A store's message on stderr, escaped: it can quote what the store holds. */
static void say_why(const char *why)
{
	fputs("tickprobe report: ", stderr);
	ts_puts(stderr, why);
	fputc('\n', stderr);
}

int rp_fleet_report(const char *db, char **logs, size_t nlogs, const char *out, bool pages,
		    const struct rp_fleet_options *opt)
{
	struct rp_fleet_options o = *opt;
	struct store s;
	char why[512], *page = NULL, *dir = NULL, *href = NULL;
	size_t npage = 0, written = 0;
	int status = EXIT_CLEAN;
	FILE *mem;

	/* Without --db the logs go into a private temporary store ("": SQLite
	 * keeps it in a file it deletes on close), not one in memory: 2,000
	 * logs took 60 MB in memory and take 11 MB so, and the same page. */
	if (store_open(&s, db ? db : "", !db, why, sizeof why) != EXIT_CLEAN) {
		say_why(why);
		return EXIT_UNREADABLE;
	}
	if (!db) {
		struct import_options io = { .batch = 100000 };
		struct import_totals t = { 0 };
		struct importer *im = importer_new(&s, &io);
		struct ahead_work work = importer_work(im);
		struct ahead *ahead = ahead_start(logs, nlogs, &work);
		struct logfile *f;
		if (!im || !ahead) {
			fprintf(stderr, "tickprobe report: out of memory\n");
			exit(EXIT_UNREADABLE);
		}
		void *made;
		while ((f = ahead_next(ahead, &made)))
			status = exit_worse(status, importer_logfile(im, f, made, &t, why, sizeof why));
		ahead_stop(ahead);
		importer_finish(im, why, sizeof why);
		importer_free(im);
		if (!t.runs_new) {
			fprintf(stderr, "tickprobe report: no log with usable records: no page written\n");
			store_close(&s);
			return exit_worse(status, EXIT_UNREADABLE);
		}
	}
	if (pages && strcmp(out, "-")) {
		dir = pages_dir(out);
		if (dir && mkdir(dir, 0777) != 0 && errno != EEXIST) {
			fprintf(stderr, "tickprobe report: cannot make %s: %s\n", dir, strerror(errno));
			free(dir);
			dir = NULL;
			status = exit_worse(status, EXIT_USAGE);
		}
		if (dir) {
			const char *base = strrchr(dir, '/');
			href = malloc(strlen(dir) + 2);
			if (href)
				sprintf(href, "%s/", base ? base + 1 : dir);
			o.pages_href = href;
		}
	}
	mem = open_memstream(&page, &npage);
	if (!mem || rp_fleet(&s, mem, &o, why, sizeof why) < 0) {
		say_why(mem ? why : "out of memory");
		if (mem)
			fclose(mem);
		status = EXIT_UNREADABLE;
	} else if (fclose(mem) != 0 || rp_write_file(out, page, npage) != 0) {
		fprintf(stderr, "tickprobe report: cannot write %s\n", out);
		status = exit_worse(status, EXIT_USAGE);
	} else {
		if (dir)
			status = exit_worse(status, machine_pages(&s, dir, &o, &written));
		if (strcmp(out, "-"))
			fprintf(stderr, "tickprobe report: wrote %s: %zu bytes; %zu machine pages%s%s\n", out, npage,
				written, dir ? " in " : "", dir ? dir : "");
	}
	free(page);
	free(dir);
	free(href);
	store_close(&s);
	return status;
}
