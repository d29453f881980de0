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
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tools/commands.h"
#include "tools/common/args.h"
#include "tools/compare/lineup.h"
#include "tools/report/html.h"
#include "probe/stats.h"

enum { OPT_TITLE = ARGS_OPT_FIRST };

static const struct option report_options[] = {
	{ "title", required_argument, NULL, OPT_TITLE },
	ARGS_OPTIONS_END
};

static const struct args_spec report_spec = {
	.name = "report",
	.synopsis = "LOG... -o FILE [-c LEVEL] [--title TEXT]",
	.help = "  Write one self-contained HTML page about the logs: their integrity, each\n"
		"  machine's fingerprint and results, a histogram per counter with every log\n"
		"  overlaid, each log's per-round values compared with the first log's, and,\n"
		"  given both a bare-metal and a `tickprobe os` log, the kernel's clock call\n"
		"  lined up with the hardware read under it.\n"
		"  A file with several runs counts as several logs (FILE#N); at most 64 in all.\n"
		"  -o FILE       the page; \"-\" for stdout (required)\n"
		"  -c LEVEL      confidence level 80, 90, 95 (default), 98, 99 or 99.5\n"
		"  --title TEXT  the page's title (default \"tickprobe report\")\n"
		"The page is written whenever some log has records, even when another log is\n"
		"damaged or unreadable; the damage is shown on the page and on stderr.\n",
	.exits = "Exit status: 0 clean, 1 usage or the page could not be written, 2 a log was\n"
		 "unreadable, 3 a log was damaged but partly used.\n",
	.shortopts = "o:c:",
	.longopts = report_options,
	.operand = "LOG",
	.min_operands = 1,
	.max_operands = RP_MAX_LOGS,
};

/* "2025-01-31 12:00:00 UTC"; SOURCE_DATE_EPOCH, when set, for reproducible pages. */
static void now_text(char *buf, size_t cap)
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

static int write_page(const char *path, const char *data, size_t n)
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
		l->run = runs[j];
		l->os = lineup_is_os(runs[j]);
		if (!lr_num(lr_get(lrun_first(runs[j], "tsc"), "hz"), &l->hz) || !(l->hz > 0))
			l->hz = 0;
	}
	/* Counters in order of first appearance, keyed as compare keys them. */
	for (size_t j = 0; j < c->nlogs; j++) {
		const struct lr_node *t;
		for (size_t i = 0; (t = lrun_timer_at(c->logs[j].run, i)) && c->nkeys < RP_MAX_KEYS; i++) {
			char k[RP_KEY_LEN];
			size_t q;
			rp_timer_key(t, k, sizeof k);
			for (q = 0; q < c->nkeys && strcmp(c->keys[q], k); q++)
				;
			if (q == c->nkeys)
				snprintf(c->keys[c->nkeys++], RP_KEY_LEN, "%s", k);
		}
	}
}

int cmd_report(int argc, char **argv)
{
	static struct logfile files[RP_MAX_LOGS];
	static struct rp_ctx c;
	const struct lrun *runs[RP_MAX_LOGS + 1];
	const char *out = NULL;
	static char when[64]; /* c.generated points here, and c is static */
	char *page = NULL;
	size_t nfiles = 0, npage = 0;
	int status = EXIT_CLEAN, opt;
	struct args a;

	memset(&c, 0, sizeof c);
	c.title = "tickprobe report";
	c.conf = 95;
	c.ci = stats_conf_index(95);
	args_start(&a, &report_spec, argc, argv);
	while ((opt = args_next(&a)) > 0) {
		if (opt == 'o')
			out = a.value;
		else if (opt == OPT_TITLE)
			c.title = a.value;
		else if (opt == 'c' && args_conf(&a, &c.conf, &c.ci))
			return EXIT_USAGE;
	}
	if (opt == ARGS_STOP)
		return a.status;
	if (!out || !*out)
		return args_fail(&a, "-o FILE is required (\"-\" for stdout)");
	for (int i = 0; i < a.noperands; i++)
		files[nfiles++].path = a.operands[i];
	for (size_t i = 0; i < nfiles; i++) {
		logfile_load(&files[i], files[i].path);
		logfile_report(&files[i], stderr, "tickprobe report");
		status = exit_worse(status, files[i].status);
	}
	if (lineup_runs(files, nfiles, runs, RP_MAX_LOGS + 1) > RP_MAX_LOGS) {
		status = args_fail(&a, "the LOGs hold more than %d runs: report fewer at a time", RP_MAX_LOGS);
		goto done;
	}
	c.files = files;
	c.nfiles = nfiles;
	collect(&c, files, nfiles);
	if (!c.nlogs) {
		fprintf(stderr, "tickprobe report: no log with usable records: no page written\n");
		status = exit_worse(status, EXIT_UNREADABLE);
		goto done;
	}
	now_text(when, sizeof when);
	c.generated = when;
	c.out = open_memstream(&page, &npage);
	if (!c.out) {
		fprintf(stderr, "tickprobe report: out of memory\n");
		status = EXIT_USAGE;
		goto done;
	}
	rp_head(&c);
	rp_summary(&c);
	rp_histograms(&c);
	rp_compare(&c);
	rp_lineup(&c);
	for (size_t j = 0; j < c.nlogs; j++)
		rp_machine(&c, j);
	rp_foot(&c);
	if (fclose(c.out) != 0 || write_page(out, page, npage) != 0) {
		fprintf(stderr, "tickprobe report: cannot write %s\n", out);
		status = EXIT_USAGE;
	} else if (strcmp(out, "-")) {
		fprintf(stderr, "tickprobe report: wrote %s: %zu bytes, %zu run(s), %zu counter(s)\n", out, npage,
			c.nlogs, c.nkeys);
	}
done:
	free(page);
	for (size_t i = 0; i < nfiles; i++)
		logfile_free(&files[i]);
	return status;
}
