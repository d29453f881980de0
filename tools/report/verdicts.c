/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the Verdicts of a bare-metal run (tools/lib/verdict.h),
 * and on the fleet page how many machines fall in each TSC verdict. */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "tools/commands.h"
#include "tools/lib/verdict.h"
#include "tools/report/html.h"
#include "tools/report/verdicts.h"

static void item(FILE *o, const char *label, const char *what, const char *why)
{
	fputs("<tr><th>", o);
	rp_esc(o, label);
	fputs("</th><td><b>", o);
	rp_esc(o, what);
	fputs("</b>: ", o);
	rp_esc(o, why);
	fputs("</td></tr>\n", o);
}

void rp_verdicts(FILE *o, const struct lrun *r)
{
	struct bare_verdict v;
	const char *boot = lrun_boot(r);

	if (!boot || !strcmp(boot, "linux"))
		return;
	bare_verdict(r, &v);
	fputs("<h3>Verdicts</h3>\n<table class=\"kv\">\n", o);
	item(o, "TSC", tsc_verdict_name(v.tsc), v.reason);
	item(o, "Linux would use", v.linux_cs, v.linux_why);
	item(o, "FreeBSD would use", v.freebsd_tc, v.freebsd_why);
	item(o, "cheapest correct counter", v.cheapest[0] ? v.cheapest : "none", v.cheapest_why);
	fputs("</table>\n<ul class=\"evidence\">\n", o);
	for (int i = 0; i < v.nevidence; i++) {
		fputs("<li>", o);
		rp_esc(o, v.evidence[i]);
		fputs("</li>\n", o);
	}
	fputs("</ul>\n", o);
}

/* One stored run's verdict, from its deflated records; -1 when unreadable. */
static int stored_verdict(const void *z, int zlen, sqlite3_int64 n)
{
	uLongf len = (uLongf)n;
	char *text = n > 0 && n < (1LL << 31) ? malloc((size_t)n) : NULL;
	struct logfile f;
	struct bare_verdict v;
	int verdict = -1;

	if (!text || uncompress((Bytef *)text, &len, z, (uLong)zlen) != Z_OK) {
		free(text);
		return -1;
	}
	if (logfile_load_mem(&f, "stored run", text, len) != EXIT_UNREADABLE && f.nruns) {
		bare_verdict(&f.runs[f.nruns - 1], &v);
		verdict = (int)v.tsc;
	}
	logfile_free(&f);
	free(text);
	return verdict;
}

int rp_fleet_verdicts(FILE *o, struct store *s)
{
	sqlite3_stmt *q = store_prepare(s, "SELECT machine_id, log, log_bytes FROM runs WHERE log IS NOT NULL "
					   "AND (boot IS NULL OR boot <> 'linux') ORDER BY machine_id, id DESC");
	long long count[3] = { 0, 0, 0 }, unreadable = 0, last = -1;

	if (!q)
		return -1;
	while (sqlite3_step(q) == SQLITE_ROW) {
		long long machine = sqlite3_column_int64(q, 0);
		int v;
		if (machine == last)
			continue; /* a machine's newest bare-metal run speaks for it */
		last = machine;
		v = stored_verdict(sqlite3_column_blob(q, 1), sqlite3_column_bytes(q, 1), sqlite3_column_int64(q, 2));
		if (v < 0)
			unreadable++;
		else
			count[v]++;
	}
	sqlite3_finalize(q);
	fputs("<section id=\"verdicts\"><h2>Verdicts</h2>\n<p>Machines by the TSC verdict of their newest "
	      "bare-metal run (the rules of <code>tickprobe doctor</code>: invariant, synchronised on every CPU "
	      "within its uncertainty with 0 warps, within the watchdog's 500 ppm of the HPET or PM timer).</p>\n"
	      "<table class=\"kv\" id=\"fleet-verdicts\">\n", o);
	fprintf(o, "<tr><th>reliable</th><td>%lld</td></tr>\n<tr><th>unreliable</th><td>%lld</td></tr>\n"
		   "<tr><th>unknown</th><td>%lld</td></tr>\n", count[TV_RELIABLE], count[TV_UNRELIABLE], count[TV_UNKNOWN]);
	if (unreadable)
		fprintf(o, "<tr><th>unreadable</th><td>%lld</td></tr>\n", unreadable);
	fputs("</table></section>\n", o);
	return 0;
}
