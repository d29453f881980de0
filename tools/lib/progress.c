/* SPDX-License-Identifier: BSD-2-Clause */
/* The progress line (progress.h). */
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tools/lib/progress.h"
#include "tools/lib/textsafe.h"

#define PROGRESS_MAX 78 /* one line of an 80-column terminal, cursor included */

double progress_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void progress_init(struct progress *p, const char *who, FILE *to, bool quiet)
{
	memset(p, 0, sizeof *p);
	p->who = who;
	p->to = !quiet && to && isatty(fileno(to)) ? to : NULL;
}

void progress_show(struct progress *p, const char *what, unsigned n, unsigned total, double left_s, bool force)
{
	char raw[256], line[PROGRESS_MAX + 1], count[32] = "", left[32] = "";
	double t;
	size_t len;

	if (!p->to)
		return;
	t = progress_now();
	if (!force && p->width && t - p->last < 0.25)
		return;
	p->last = t;
	if (total)
		snprintf(count, sizeof count, " %u of %u", n, total);
	else if (n)
		snprintf(count, sizeof count, " %u", n);
	if (left_s >= 0)
		snprintf(left, sizeof left, ", about %.0f s left", left_s);
	snprintf(raw, sizeof raw, "%s: %s%s%s", p->who, what, count, left);
	/* `what` can quote a guest's log (a counter's name): escaped, and cut
	 * to the line's width between characters, never inside one. */
	len = strlen(ts_str(line, sizeof line, raw));
	/* Spaces over what the last line had past this one's end. */
	fprintf(p->to, "\r%s%*s", line, p->width > len ? (int)(p->width - len) : 0, "");
	if (p->width > len)
		fprintf(p->to, "\r%s", line);
	fflush(p->to);
	p->width = len;
}

void progress_clear(struct progress *p)
{
	if (!p->to || !p->width)
		return;
	fprintf(p->to, "\r%*s\r", (int)p->width, "");
	fflush(p->to);
	p->width = 0;
}
