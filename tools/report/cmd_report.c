/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe report LOG... -o FILE [-c LEVEL] [--title TEXT]
 *
 * One self-contained HTML page (inline CSS and SVG; no scripts, no fonts,
 * nothing fetched) from one or more logs: which logs and how intact they are,
 * the p50 of every counter side by side, overlaid histograms, the
 * ministat-style comparisons with the first log, what the kernel's clock call
 * adds over the bare hardware read (when OS and bare-metal logs are both
 * given), and one section per machine.
 * The page is built in memory and written in one go: a failed run leaves no
 * half page behind (with -o FILE, through FILE.tmp and a rename). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/lib/lineup.h"
#include "tools/lib/logdir.h"
#include "tools/report/cpus.h"
#include "tools/report/fleet.h"
#include "tools/report/html.h"
#include "tools/lib/stats.h"

enum { OPT_TITLE = ARGS_OPT_FIRST, OPT_DB, OPT_FLEET, OPT_NO_PAGES, OPT_LATEST };

static const struct option report_options[] = {
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "db", required_argument, NULL, OPT_DB },
	{ "fleet", no_argument, NULL, OPT_FLEET },
	{ "no-pages", no_argument, NULL, OPT_NO_PAGES },
	{ "latest", no_argument, NULL, OPT_LATEST },
	ARGS_OPTIONS_END
};

static const struct args_spec report_spec = {
	.name = "report",
	.synopsis = "LOG|DIR...|--db DB -o FILE [-c LEVEL] [--title TEXT] [--fleet] [--no-pages] [--latest]",
	.help = "  Write one self-contained HTML page about the logs: their integrity, each\n"
		"  machine's fingerprint and results, a histogram per counter with every log\n"
		"  overlaid, each log's per-round values compared with the first log's, and,\n"
		"  given both a bare-metal and a `tickprobe os` log, the kernel's clock call\n"
		"  lined up with the hardware read under it.\n"
		"  A DIR stands for every *.log below it; --latest puts the newest log (of the\n"
		"  DIRs given, else of /boot/efi/tickprobe/logs and mounted sticks) first.\n"
		"  A file with several runs counts as several logs (FILE#N).  Over 64 of them,\n"
		"  or with --fleet or --db DB (a `tickprobe db` store), the page is the fleet\n"
		"  page instead: machines as rows and counters as columns, a box plot per\n"
		"  counter across machines, the paired comparisons, and a link to each\n"
		"  machine's own page, written beside FILE in FILE-machines/ (not with\n"
		"  --no-pages, nor for -o -).\n"
		"  -o FILE       the page; \"-\" for stdout (required)\n"
		"  -c LEVEL      confidence level 80, 90, 95 (default), 98, 99 or 99.5\n"
		"  --title TEXT  the page's title (default \"tickprobe report\")\n"
		"The page is written whenever some log has records, even when another log is\n"
		"damaged or unreadable; the damage is shown on the page and on stderr.\n"
		"Every string from a log or a store is escaped for HTML, a control character\n"
		"shown as \\x1b or \\u009b; the links to the machine pages are percent-encoded,\n"
		"whatever FILE is called.\n",
	.exits = "Exit status: 0 clean, 1 usage or the page could not be written, 2 a log was\n"
		 "unreadable, 3 a log was damaged but partly used.\n",
	.shortopts = "o:c:",
	.longopts = report_options,
	.operand = "LOG",
	.min_operands = 0, /* LOG... or --db DB: checked below */
	.max_operands = ARGS_MANY,
};

int cmd_report(int argc, char **argv)
{
	static struct logfile files[RP_MAX_LOGS];
	const struct lrun *runs[RP_MAX_LOGS + 1];
	struct rp_fleet_options fo = { .title = NULL, .conf = 95 };
	const char *out = NULL, *title = NULL, *db = NULL;
	char *page = NULL;
	size_t nfiles = 0, npage = 0, ncounters = 0;
	int status = EXIT_CLEAN, opt, nruns;
	bool fleet = false, pages = true, latest = false;
	struct loglist logs = { 0 };
	struct args a;

	fo.ci = stats_conf_index(95);
	args_start(&a, &report_spec, argc, argv);
	while ((opt = args_next(&a)) > 0) {
		if (opt == 'o')
			out = a.value;
		else if (opt == OPT_TITLE)
			title = a.value;
		else if (opt == OPT_DB)
			db = a.value;
		else if (opt == OPT_FLEET)
			fleet = true;
		else if (opt == OPT_NO_PAGES)
			pages = false;
		else if (opt == OPT_LATEST)
			latest = true;
		else if (opt == 'c' && args_conf(&a, &fo.conf, &fo.ci))
			return EXIT_USAGE;
	}
	if (opt == ARGS_STOP)
		return a.status;
	if (!out || !*out)
		return args_fail(&a, "-o FILE is required (\"-\" for stdout)");
	if (db && (a.noperands || latest))
		return args_fail(&a, "--db DB or LOGs, not both");
	if (!db && !a.noperands && !latest)
		return args_fail(&a, "no LOG given (nor --db DB)");
	if (!db)
		status = loglist_from_operands(&logs, a.operands, (size_t)a.noperands, latest, "tickprobe report");
	/* More logs than one page compares side by side: the fleet page. */
	if (db || fleet || logs.n > RP_MAX_LOGS) {
		fo.title = title ? title : "tickprobe fleet report";
		status = exit_worse(status, rp_fleet_report(db, logs.paths, logs.n, out, pages, &fo));
		loglist_free(&logs);
		return status;
	}
	for (size_t i = 0; i < logs.n; i++)
		files[nfiles++].path = logs.paths[i];
	for (size_t i = 0; i < nfiles; i++) {
		logfile_load(&files[i], files[i].path);
		logfile_report(&files[i], stderr, "tickprobe report");
		status = exit_worse(status, files[i].status);
	}
	if (lineup_runs(files, nfiles, runs, RP_MAX_LOGS + 1) > RP_MAX_LOGS) {
		for (size_t i = 0; i < nfiles; i++)
			logfile_free(&files[i]);
		fo.title = title ? title : "tickprobe fleet report";
		status = exit_worse(status, rp_fleet_report(NULL, logs.paths, logs.n, out, pages, &fo));
		loglist_free(&logs);
		return status;
	}
	nruns = rp_render(files, nfiles, title ? title : "tickprobe report", fo.conf, fo.ci, &page, &npage, &ncounters);
	if (nruns < 0) {
		fprintf(stderr, "tickprobe report: no log with usable records: no page written\n");
		status = exit_worse(status, EXIT_UNREADABLE);
	} else if (rp_write_file(out, page, npage) != 0) {
		fprintf(stderr, "tickprobe report: cannot write %s\n", out);
		status = EXIT_USAGE;
	} else if (strcmp(out, "-")) {
		fprintf(stderr, "tickprobe report: wrote %s: %zu bytes, %d run(s), %zu counter(s)\n", out, npage, nruns,
			ncounters);
	}
	free(page);
	for (size_t i = 0; i < nfiles; i++)
		logfile_free(&files[i]);
	loglist_free(&logs);
	return status;
}
