/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe capture DEVICE [--baud N] [-o FILE] [--timeout S]
 *
 * Records a serial log from a real machine: the device is set raw, 8N1, no
 * flow control; every byte goes to FILE untouched (the reader copes with the
 * firmware's noise later), and the capture stops after the first complete
 * `end` record line, on the timeout, on Ctrl-C, or when the device goes away.
 * Then the saved file is checked with the log reader and a verdict printed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "tools/commands.h"
#include "tools/lib/args.h"
#include "tools/lib/logschema.h"
#include "tools/lib/logset.h"
#include "tools/lib/textsafe.h"

enum { OPT_BAUD = ARGS_OPT_FIRST, OPT_TIMEOUT };

static const struct option capture_options[] = {
	{ "baud", required_argument, NULL, OPT_BAUD },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	ARGS_OPTIONS_END
};

static const struct args_spec capture_spec = {
	.name = "capture",
	.synopsis = "DEVICE [--baud N] [-o FILE] [--timeout S]",
	.help = "  Record the probe's serial output from DEVICE (e.g. /dev/ttyUSB0) into FILE\n"
		"  (default capture-YYYYmmdd-HHMMSS.log) until the end record arrives or S\n"
		"  seconds pass (default 900; 0 waits forever).  Baud default 115200, 8N1.\n"
		"  FILE gets the bytes as they came; the progress line on stderr shows what\n"
		"  the probe sent with its control characters escaped (\\x1b).\n",
	.exits = "Exit status: 0 complete and undamaged, 1 usage, 2 cannot open, 3 damaged or partial.\n",
	.shortopts = "o:",
	.longopts = capture_options,
	.operand = "DEVICE",
	.min_operands = 1,
	.max_operands = 1,
};

static const struct { long baud; speed_t code; } speeds[] = {
	{ 1200, B1200 }, { 2400, B2400 }, { 4800, B4800 }, { 9600, B9600 }, { 19200, B19200 },
	{ 38400, B38400 }, { 57600, B57600 }, { 115200, B115200 }, { 230400, B230400 },
	{ 460800, B460800 }, { 921600, B921600 }, { 1000000, B1000000 }, { 1500000, B1500000 },
	{ 2000000, B2000000 }, { 3000000, B3000000 }, { 4000000, B4000000 },
};

static volatile sig_atomic_t interrupted;
static void on_signal(int sig) { (void)sig; interrupted = 1; }

struct progress {
	unsigned long long bytes, records;
	char timer[64];   /* name of the last timer record, as the log wrote it */
	char text[64];    /* the last human line, as the line sent it */
	int ended;
};

static void on_record(void *ctx, const struct lr_run *run, uint32_t line, const char *text,
		      size_t len, const struct lr_node *root)
{
	struct progress *p = ctx;
	const char *type = ld_record_type(root);
	struct ld_timer t;
	(void)run;
	(void)line;
	(void)text;
	(void)len;
	p->records++;
	if (!type || strcmp(type, "timer"))
		return;
	ld_decode_timer(root, &t);
	if (t.name.state == LD_SET)
		snprintf(p->timer, sizeof p->timer, "%s done", t.name.s);
}

static void on_run_end(void *ctx, const struct lr_run *run)
{
	struct progress *p = ctx;
	if (run->has_end)
		p->ended = 1;
}

/* The last human text line, as a hint of what the probe is doing. */
static void track_text(struct progress *p, char *line, size_t *len, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (*len < 255)
				line[(*len)++] = buf[i];
			continue;
		}
		size_t k = lr_clean_line(line, *len);
		size_t from = 0;
		while (from < k && line[from] == '\r') /* GRUB starts its lines with one */
			from++;
		if (from < k && line[from] != '{') {
			k = k - from < sizeof p->text ? k - from : sizeof p->text - 1;
			memcpy(p->text, line + from, k);
			p->text[k] = 0;
		}
		*len = 0;
	}
}

static int open_device(const char *dev, speed_t speed)
{
	struct termios tio;
	int fd = open(dev, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		fd = open(dev, O_RDONLY | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "tickprobe capture: cannot open %s: %s\n", dev, strerror(errno));
		return -1;
	}
	if (tcgetattr(fd, &tio) == 0) {
		cfmakeraw(&tio);
		tio.c_cflag &= ~(tcflag_t)(CSIZE | PARENB | CSTOPB | CRTSCTS);
		tio.c_cflag |= CS8 | CLOCAL | CREAD;
		tio.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
		tio.c_cc[VMIN] = 1;
		tio.c_cc[VTIME] = 0;
		cfsetispeed(&tio, speed);
		cfsetospeed(&tio, speed);
		if (tcsetattr(fd, TCSANOW, &tio) != 0)
			fprintf(stderr, "tickprobe capture: %s: cannot set 8N1 raw: %s (going on)\n", dev,
				strerror(errno));
	} else if (errno == ENOTTY) {
		fprintf(stderr, "tickprobe capture: %s is not a terminal; reading it as is\n", dev);
	}
	return fd;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The line is rewritten in place on a terminal: what the probe sent is
 * escaped (tools/lib/textsafe.h) and cut to 40 bytes, never inside a
 * character or an escape. */
static void show_progress(const struct progress *p, double elapsed, int tty, int final)
{
	char what[41];

	fprintf(stderr, "%s%6.1fs %10llu bytes %5llu records  %-40s%s", tty ? "\r" : "", elapsed, p->bytes,
		p->records, ts_str(what, sizeof what, p->timer[0] ? p->timer : p->text), tty && !final ? "" : "\n");
}

struct capture_opts {
	const char *dev, *outpath;
	char defname[64];
	long baud;
	double timeout;
	speed_t speed;
};

/* -1 to go on, or the exit status. */
static int parse_options(int argc, char **argv, struct capture_opts *o)
{
	struct args a;
	int c;

	args_start(&a, &capture_spec, argc, argv);
	while ((c = args_next(&a)) > 0) {
		if (c == 'o') {
			o->outpath = a.value;
		} else if (c == OPT_TIMEOUT) {
			if (args_double(&a, 0, 1e6, &o->timeout))
				return EXIT_USAGE;
		} else if (c == OPT_BAUD) {
			if (args_long(&a, 1, LONG_MAX, &o->baud))
				return EXIT_USAGE;
			o->speed = 0;
			for (size_t i = 0; i < sizeof speeds / sizeof speeds[0]; i++)
				if (speeds[i].baud == o->baud)
					o->speed = speeds[i].code;
			if (!o->speed)
				return args_fail(&a, "--baud %ld is not a rate this tool sets (1200 to 4000000, "
						     "e.g. 115200)", o->baud);
		}
	}
	if (c == ARGS_STOP)
		return a.status;
	o->dev = a.operands[0];
	if (!o->outpath) {
		time_t t = time(NULL);
		strftime(o->defname, sizeof o->defname, "capture-%Y%m%d-%H%M%S.log", localtime(&t));
		o->outpath = o->defname;
	}
	return -1;
}

/* Everything the line sends, into out and through the reader, until the
 * run's end record, the timeout, a signal or the line closing. */
static void capture_loop(const struct capture_opts *o, int fd, FILE *out, struct progress *prog, int tty)
{
	static char linebuf[LR_LINE_MAX + 1], strs[LR_LINE_MAX + 16];
	static struct lr_node nodes[64 * 1024];
	static struct logread rd;
	struct lr_sink sink = { prog, NULL, on_record, NULL, on_run_end };
	char buf[4096], tline[256];
	size_t tlen = 0;
	double start, last_shown = 0;

	lr_init(&rd, linebuf, LR_LINE_MAX, nodes, sizeof nodes / sizeof nodes[0], strs, sizeof strs, &sink);
	start = now();
	while (!prog->ended && !interrupted) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		double t = now() - start;
		ssize_t n;
		if (o->timeout > 0 && t >= o->timeout) {
			fprintf(stderr, "%stickprobe capture: timeout after %.0f s\n", tty ? "\n" : "", o->timeout);
			break;
		}
		if (t - last_shown >= (tty ? 0.5 : 2.0)) {
			show_progress(prog, t, tty, 0);
			last_shown = t;
		}
		if (poll(&pfd, 1, 200) <= 0)
			continue;
		n = read(fd, buf, sizeof buf);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0) { /* EIO: the other end of a pty closed; 0: end of a file */
			fprintf(stderr, "%stickprobe capture: %s closed\n", tty ? "\n" : "", o->dev);
			break;
		}
		fwrite(buf, 1, (size_t)n, out);
		fflush(out);
		prog->bytes += (unsigned long long)n;
		track_text(prog, tline, &tlen, buf, (size_t)n);
		lr_feed(&rd, buf, (size_t)n);
	}
	if (interrupted)
		fprintf(stderr, "%stickprobe capture: interrupted\n", tty ? "\n" : "");
	show_progress(prog, now() - start, tty, 1);
}

/* The verdict comes from reading the saved file back, as show would. */
static int verdict(const char *outpath, const struct progress *prog)
{
	struct logfile f;
	int st = logfile_load(&f, outpath);

	logfile_report(&f, stderr, "tickprobe capture");
	if (st == EXIT_CLEAN && prog->ended) {
		fprintf(stderr, "tickprobe capture: %s: complete and undamaged (%llu records, %llu bytes)\n",
			outpath, (unsigned long long)f.records, prog->bytes);
	} else {
		char s[160];
		const char *what = f.nruns ? lrun_state(&f.runs[f.nruns - 1], s, sizeof s) : "no records";
		fprintf(stderr, "tickprobe capture: %s: %s %s (%llu records, %llu bytes)\n", outpath,
			prog->ended ? "damaged:" : "partial:", what, (unsigned long long)f.records, prog->bytes);
		st = EXIT_DAMAGED;
	}
	logfile_free(&f);
	return st;
}

int cmd_capture(int argc, char **argv)
{
	struct capture_opts o = { .baud = 115200, .timeout = 900, .speed = B115200 };
	struct progress prog;
	int fd, rc;
	FILE *out;

	if ((rc = parse_options(argc, argv, &o)) >= 0)
		return rc;
	if (!o.dev) /* min_operands is 1; said again for the analyzer */
		return EXIT_USAGE;
	if ((fd = open_device(o.dev, o.speed)) < 0)
		return EXIT_UNREADABLE;
	if (!(out = fopen(o.outpath, "wb"))) {
		fprintf(stderr, "tickprobe capture: cannot write %s: %s\n", o.outpath, strerror(errno));
		close(fd);
		return EXIT_UNREADABLE;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	memset(&prog, 0, sizeof prog);
	if (o.timeout > 0)
		fprintf(stderr, "tickprobe capture: %s at %ld 8N1 -> %s (timeout %g s)\n", o.dev, o.baud, o.outpath,
			o.timeout);
	else
		fprintf(stderr, "tickprobe capture: %s at %ld 8N1 -> %s (no timeout)\n", o.dev, o.baud, o.outpath);
	capture_loop(&o, fd, out, &prog, isatty(2));
	close(fd);
	if (fclose(out) != 0) {
		fprintf(stderr, "tickprobe capture: writing %s failed: %s\n", o.outpath, strerror(errno));
		return EXIT_DAMAGED;
	}
	return verdict(o.outpath, &prog);
}
