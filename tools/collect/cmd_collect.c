/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe collect: the network collector (collect.h).  The main thread
 * reads the options, binds the listeners, starts the HTTP and syslog
 * threads, and then waits for SIGINT/SIGTERM, turning each boot's events
 * into its output line meanwhile: a log whose end arrived is checked and
 * imported, a boot that went silent is said to be incomplete. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>
#include "tools/collect/boots.h"
#include "tools/collect/collect.h"
#include "tools/collect/finish.h"
#include "tools/collect/http.h"
#include "tools/collect/net.h"
#include "tools/collect/spool.h"
#include "tools/collect/syslog.h"
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/lib/progress.h"

#define EXIT_COLLECT_OPTIONS 2 /* the network contract's: bad options, or a port that cannot be bound */
#define TICK_MS 100            /* how often the main thread looks at the events and the clock */
#define SPARE_FDS 64           /* descriptors besides the connections: listeners, logs, the store */

enum { OPT_HTTP = ARGS_OPT_FIRST, OPT_SYSLOG, OPT_DIR, OPT_DB, OPT_TOKEN, OPT_TOKEN_FILE, OPT_MAXCONN, OPT_MAXBODY,
       OPT_INCOMPLETE, OPT_QUIET, OPT_READY, OPT_MAXLOG, OPT_PER_SOURCE };

static const struct option collect_options_long[] = {
	{ "http", required_argument, NULL, OPT_HTTP },
	{ "syslog", required_argument, NULL, OPT_SYSLOG },
	{ "dir", required_argument, NULL, OPT_DIR },
	{ "db", required_argument, NULL, OPT_DB },
	{ "token", required_argument, NULL, OPT_TOKEN },
	{ "token-file", required_argument, NULL, OPT_TOKEN_FILE },
	{ "max-log-bytes", required_argument, NULL, OPT_MAXLOG },
	{ "max-boots-per-source", required_argument, NULL, OPT_PER_SOURCE },
	{ "max-connections", required_argument, NULL, OPT_MAXCONN },
	{ "max-body", required_argument, NULL, OPT_MAXBODY },
	{ "incomplete-after", required_argument, NULL, OPT_INCOMPLETE },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "ready-file", required_argument, NULL, OPT_READY },
	ARGS_OPTIONS_END
};

static const struct args_spec collect_spec = {
	.name = "collect",
	.synopsis = "[--http ADDR:PORT] [--syslog ADDR:PORT] [--dir DIR] [--db FILE] [--token-file FILE]\n"
		    "                         [--max-connections N] [--max-body BYTES] [--max-log-bytes BYTES]\n"
		    "                         [--max-boots-per-source N] [--incomplete-after SECONDS]\n"
		    "                         [--quiet] [--ready-file FILE]",
	.help = "  Receives the probes' records over the network and keeps one log per boot:\n"
		"  DIR/MACHINE/NNNN.log, the boot's records in seq order, as its serial line gives them.\n"
		"  A log whose end record arrived and checks out is imported into --db.\n"
		"\n"
		"  --http ADDR:PORT      HTTP listener (default 127.0.0.1:8514; PORT 0: any free port)\n"
		"  --syslog ADDR:PORT    syslog (RFC 5424) over UDP; given alone, no HTTP\n"
		"  --dir DIR             where the logs go (default ./tickprobe-logs); it must belong to this\n"
		"                        user and be writable by no other (nor may a machine's folder in it)\n"
		"  --db FILE             the SQLite store complete logs are imported into (tickprobe db);\n"
		"                        its directory is held to the same rule, and a link is not followed\n"
		"  --token-file FILE     senders must give the token this file holds (1-64 of A-Z a-z 0-9\n"
		"                        . _ ~ -; other users must not be able to read the file); or give it\n"
		"                        in the environment as TICKPROBE_TOKEN\n"
		"  --token T             the same on the command line, where every local user sees it in ps\n"
		"                        (a warning says so)\n"
		"  --max-connections N   HTTP connections at once (default 256)\n"
		"  --max-body BYTES      largest HTTP body (default 262144; a record is at most 96 KiB)\n"
		"  --max-log-bytes BYTES a boot's log is cut before it grows past this, and says so\n"
		"                        (default 33554432, 32 MiB; a default-preset log is about 0.1 MiB)\n"
		"  --max-boots-per-source N\n"
		"                        boots in progress from one address (default 256; of 1024 in all):\n"
		"                        a flood of forged syslog datagrams cannot take every place, and a\n"
		"                        boot that never said hello makes room for one that does\n"
		"  --incomplete-after SECONDS\n"
		"                        a boot silent this long without its end is incomplete (default 600)\n"
		"  -q, --quiet           no status line, no per-machine lines: only the summary at the end\n"
		"  --ready-file FILE     written once listening: http=ADDR:PORT syslog=ADDR:PORT\n"
		"  Runs until SIGINT or SIGTERM: then every log is finished, the complete ones imported.\n",
	.exits = "Exit status: 0 stopped by SIGINT/SIGTERM, 2 bad options, a listener that cannot be bound,\n"
		 "or a --dir or --db that cannot be used.\n",
	.shortopts = "q",
	.longopts = collect_options_long,
};

/* The part's one struct: what the main thread holds. */
struct collector {
	struct collect_options o;
	struct collect_counts counts;
	struct boots *boots;
	struct http *http;
	struct syslog_rx *syslog;
	struct finisher *fin;
	struct progress prog;
	sigset_t stop;
};

/* -1 to go on, else the exit status: a usage error is EXIT_COLLECT_OPTIONS
 * here, not the other commands' EXIT_USAGE (args_fail's; hence its + 1). */
static int one_number(struct args *a, int c, struct collect_options *o)
{
	long v;

	switch (c) {
	case OPT_MAXCONN:
		if (args_long(a, 1, 65536, &v))
			return EXIT_COLLECT_OPTIONS;
		o->max_connections = v;
		break;
	case OPT_MAXBODY:
		if (args_long(a, 1024, 1L << 30, &v))
			return EXIT_COLLECT_OPTIONS;
		o->max_body = v;
		break;
	case OPT_INCOMPLETE:
		if (args_long(a, 1, 7 * 86400, &v))
			return EXIT_COLLECT_OPTIONS;
		o->incomplete_after = v;
		break;
	case OPT_MAXLOG:
		/* At least one record of the largest size the probe writes. */
		if (args_long(a, 128 * 1024, 1L << 40, &v))
			return EXIT_COLLECT_OPTIONS;
		o->max_log_bytes = (uint64_t)v;
		break;
	default:
		if (args_long(a, 1, BOOTS_ACTIVE_MAX, &v))
			return EXIT_COLLECT_OPTIONS;
		o->per_source = (unsigned)v;
		break;
	}
	return -1;
}

static int one_option(struct args *a, int c, struct collect_options *o, bool *http_given)
{
	switch (c) {
	case OPT_HTTP:
	case OPT_SYSLOG:
		if (!net_addr(a->value, c == OPT_HTTP ? &o->http_addr : &o->syslog_addr))
			return args_fail(a, "%s wants ADDR:PORT with an IPv4 address (127.0.0.1:8514), not '%s'", a->opt,
					 a->value) + 1;
		if (c == OPT_HTTP)
			*http_given = true;
		else
			o->syslog_on = true;
		return -1;
	case OPT_DIR:
	case OPT_DB:
	case OPT_READY:
		if (!a->value[0])
			return args_fail(a, "%s wants a path", a->opt) + 1;
		*(c == OPT_DIR ? &o->dir : c == OPT_DB ? &o->db : &o->ready_file) = a->value;
		return -1;
	case OPT_TOKEN:
	case OPT_TOKEN_FILE:
		if (o->token_given)
			return args_fail(a, "give one of --token and --token-file, once") + 1;
		o->token_given = c == OPT_TOKEN ? TOKEN_ARGUMENT : TOKEN_FILE;
		o->token_source = a->value;
		return -1;
	case 'q':
	case OPT_QUIET:
		o->quiet = true;
		return -1;
	default:
		return one_number(a, c, o);
	}
}

static int read_args(int argc, char **argv, struct collect_options *o)
{
	bool http_given = false;
	struct args a;
	char why[300];
	int c, rc;

	memset(o, 0, sizeof *o);
	o->dir = "./tickprobe-logs";
	o->max_connections = 256;
	o->max_body = 256 * 1024;
	o->max_log_bytes = 32u << 20;
	o->per_source = 256;
	o->incomplete_after = 600;
	net_addr("127.0.0.1:8514", &o->http_addr);
	args_start(&a, &collect_spec, argc, argv);
	while ((c = args_next(&a)) > 0)
		if ((rc = one_option(&a, c, o, &http_given)) >= 0)
			return rc;
	if (c == ARGS_STOP)
		return a.status == EXIT_USAGE ? EXIT_COLLECT_OPTIONS : a.status;
	if (!token_read(o, why, sizeof why)) {
		fprintf(stderr, "tickprobe collect: %s\n", why);
		return EXIT_COLLECT_OPTIONS;
	}
	o->http_on = http_given || !o->syslog_on;
	return -1;
}

/* ---- starting ------------------------------------------------------------------ */

/* Descriptors for every connection and every boot's log: the soft limit
 * raised when it is short. */
static bool enough_files(long connections, char *why, size_t cap)
{
	struct rlimit r;
	rlim_t want = (rlim_t)connections + BOOTS_ACTIVE_MAX + SPARE_FDS;

	if (getrlimit(RLIMIT_NOFILE, &r) || r.rlim_cur >= want)
		return true;
	if (r.rlim_max != RLIM_INFINITY && r.rlim_max < want) {
		snprintf(why, cap, "--max-connections %ld needs %llu file descriptors; the limit is %llu (ulimit -n)",
			 connections, (unsigned long long)want, (unsigned long long)r.rlim_max);
		return false;
	}
	r.rlim_cur = want;
	if (!setrlimit(RLIMIT_NOFILE, &r))
		return true;
	snprintf(why, cap, "setrlimit: %s", strerror(errno));
	return false;
}

static bool write_ready(const struct collector *c, char *why, size_t cap)
{
	char tmp[4096], a[32], b[32];
	FILE *f;

	snprintf(tmp, sizeof tmp, "%s.tmp", c->o.ready_file);
	if (!(f = fopen(tmp, "w"))) {
		snprintf(why, cap, "--ready-file %s: %s", c->o.ready_file, strerror(errno));
		return false;
	}
	fprintf(f, "%s%s%s%s%s\n", c->o.http_on ? "http=" : "", c->o.http_on ? net_name(&c->o.http_addr, a, sizeof a) : "",
		c->o.http_on && c->o.syslog_on ? " " : "", c->o.syslog_on ? "syslog=" : "",
		c->o.syslog_on ? net_name(&c->o.syslog_addr, b, sizeof b) : "");
	if (fclose(f) || rename(tmp, c->o.ready_file)) {
		snprintf(why, cap, "%s: %s", c->o.ready_file, strerror(errno));
		return false;
	}
	return true;
}

/* Listeners bound and serving; false with why. */
static bool start(struct collector *c, char *why, size_t cap)
{
	struct boots_limits lim = { c->o.max_log_bytes, c->o.per_source, (double)c->o.incomplete_after };
	int http_fd = -1, udp_fd = -1, dir_fd = spool_open(c->o.dir, why, cap);

	if (dir_fd < 0)
		return false;
	c->boots = boots_new(dir_fd, &lim);
	if (!enough_files(c->o.max_connections, why, cap))
		return false;
	c->fin = finisher_open(c->o.dir, c->o.db, c->o.max_log_bytes, why, cap);
	if (!c->fin)
		return false;
	if (c->o.http_on && (http_fd = net_listen(SOCK_STREAM, &c->o.http_addr, why, cap)) < 0)
		return false;
	if (c->o.syslog_on && (udp_fd = net_listen(SOCK_DGRAM, &c->o.syslog_addr, why, cap)) < 0) {
		close(http_fd);
		return false;
	}
	/* The threads inherit the mask: the stop signals reach the main thread's sigtimedwait only. */
	pthread_sigmask(SIG_BLOCK, &c->stop, NULL);
	if (http_fd >= 0 && !(c->http = http_start(http_fd, &c->o, c->boots, &c->counts, why, cap))) {
		close(http_fd);
		close(udp_fd);
		return false;
	}
	if (udp_fd >= 0 && !(c->syslog = syslog_start(udp_fd, &c->o, c->boots, &c->counts, why, cap))) {
		close(udp_fd);
		return false;
	}
	return !c->o.ready_file || write_ready(c, why, cap);
}

/* ---- running ----------------------------------------------------------------------- */

static const char *silence(const struct collector *c, char *buf, size_t cap)
{
	if (c->o.incomplete_after % 60 == 0)
		snprintf(buf, cap, "%ld min", c->o.incomplete_after / 60);
	else
		snprintf(buf, cap, "%ld s", c->o.incomplete_after);
	return buf;
}

static void machines_text(struct collector *c, char *buf, size_t cap)
{
	struct boots_counts n;
	char damaged[48] = "", cut[48] = "", evicted[64] = "", after[32];

	boots_counts(c->boots, &n);
	if (n.damaged)
		snprintf(damaged, sizeof damaged, ", %u damaged", n.damaged);
	if (n.cut)
		snprintf(cut, sizeof cut, ", %u cut at the size limit", n.cut);
	if (n.evicted)
		snprintf(evicted, sizeof evicted, "; %llu evicted (no hello)", (unsigned long long)n.evicted);
	snprintf(buf, cap, "machines: %u complete%s%s, %u in progress, %u incomplete (no end after %s)%s", n.complete,
		 damaged, cut, n.active, n.incomplete, silence(c, after, sizeof after), evicted);
}

/* Every event there is, as its line on stdout. */
static void drain(struct collector *c, bool stopping)
{
	char line[1024];

	while (finisher_next(c->fin, c->boots, progress_now(), stopping, (double)c->o.incomplete_after, line,
			     sizeof line)) {
		if (c->o.quiet)
			continue;
		progress_clear(&c->prog);
		printf("%s\n", line);
		fflush(stdout);
	}
}

static unsigned long long got(atomic_ullong *n)
{
	return atomic_load(n);
}

static void summary(struct collector *c)
{
	struct boots_counts n;
	char text[200];

	machines_text(c, text, sizeof text);
	boots_counts(c->boots, &n);
	printf("tickprobe collect: %s\n", text);
	printf("tickprobe collect: records: %llu stored, %llu held out of order, %llu duplicates dropped, "
	       "%llu refused as busy\n", (unsigned long long)n.stored, (unsigned long long)n.held,
	       (unsigned long long)n.duplicates, (unsigned long long)n.busy);
	printf("tickprobe collect: boots: %llu evicted for a boot that said hello, %llu refused at the "
	       "--max-boots-per-source bound, %u cut at --max-log-bytes\n", (unsigned long long)n.evicted,
	       (unsigned long long)n.source_limited, n.cut);
	if (c->o.http_on)
		printf("tickprobe collect: http: %llu requests: %llu bad (400), %llu refused (403), %llu too large "
		       "(413), %llu busy (503); %llu connections cut at the %d s request bound\n",
		       got(&c->counts.http_requests), got(&c->counts.http_bad), got(&c->counts.http_refused),
		       got(&c->counts.http_too_large), got(&c->counts.http_busy), got(&c->counts.http_slow),
		       COLLECT_REQUEST_S);
	if (c->o.syslog_on)
		printf("tickprobe collect: syslog: %llu datagrams: %llu bad, %llu refused (token), %llu busy\n",
		       got(&c->counts.syslog_datagrams), got(&c->counts.syslog_bad), got(&c->counts.syslog_refused),
		       got(&c->counts.syslog_busy));
}

static void run(struct collector *c)
{
	struct timespec tick = { 0, TICK_MS * 1000000L };
	char text[200];

	for (;;) {
		int sig = sigtimedwait(&c->stop, NULL, &tick);
		if (sig == SIGINT || sig == SIGTERM)
			break;
		drain(c, false);
		if (c->http)
			http_watch(c->http, progress_now());
		machines_text(c, text, sizeof text);
		progress_show(&c->prog, text, 0, 0, -1, false);
	}
	progress_clear(&c->prog);
}

int cmd_collect(int argc, char **argv)
{
	struct collector c;
	char why[512];
	int rc;

	memset(&c, 0, sizeof c);
	if ((rc = read_args(argc, argv, &c.o)) >= 0)
		return rc;
	sigemptyset(&c.stop);
	sigaddset(&c.stop, SIGINT);
	sigaddset(&c.stop, SIGTERM);
	signal(SIGPIPE, SIG_IGN); /* a sender gone mid-answer is an error on its socket, not the end */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!start(&c, why, sizeof why)) {
		fprintf(stderr, "tickprobe collect: %s\n", why);
		syslog_stop(c.syslog);
		http_stop(c.http);
		if (c.boots)
			boots_free(c.boots);
		finisher_close(c.fin);
		return EXIT_COLLECT_OPTIONS;
	}
	progress_init(&c.prog, "tickprobe collect", stderr, c.o.quiet);
	run(&c);
	/* Stop taking, then finish: every record taken is in its file already. */
	http_stop(c.http);
	syslog_stop(c.syslog);
	drain(&c, false);
	drain(&c, true);
	summary(&c);
	boots_free(c.boots);
	finisher_close(c.fin);
	return EXIT_CLEAN;
}
