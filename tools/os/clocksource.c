/* SPDX-License-Identifier: BSD-2-Clause */
/* Clocksource discovery (tools/os/clocksource.h; the guard is cs_guard.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tools/lib/fdread.h"
#include "tools/os/clocksource.h"

#define CS_SUBDIR "sys/devices/system/clocksource/clocksource0"

bool os_cs_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int os_cs_parse_list(const char *text, char (*names)[OS_CS_NAME], int max, int *dropped)
{
	int n = 0, drop = 0;
	const char *p = text;

	while (*p) {
		const char *s;
		size_t len;
		while (*p && os_cs_space(*p))
			p++;
		if (!*p)
			break;
		s = p;
		while (*p && !os_cs_space(*p))
			p++;
		len = (size_t)(p - s);
		if (len >= OS_CS_NAME || n >= max) {
			drop++;
			continue;
		}
		memcpy(names[n], s, len);
		names[n][len] = 0;
		n++;
	}
	if (dropped)
		*dropped = drop;
	return n;
}

/* Whole small file into buf (NUL-terminated).  -1 with errno on failure. */
static int read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;
	int e;

	if (fd < 0)
		return -1;
	got = fd_read_upto(fd, buf, cap - 1);
	e = errno;
	close(fd);
	if (got < 0) {
		errno = e;
		return -1;
	}
	buf[got] = 0;
	return 0;
}

static void trim_first(const char *text, char *out, size_t cap)
{
	char one[1][OS_CS_NAME];
	int dropped = 0;

	out[0] = 0;
	if (os_cs_parse_list(text, one, 1, &dropped) == 1)
		snprintf(out, cap, "%s", one[0]);
}

int os_cs_read_current(const struct os_clocksources *cs, char *out, size_t cap)
{
	char path[OS_CS_PATH + 32], buf[256];

	snprintf(path, sizeof path, "%s/current_clocksource", cs->dir);
	if (read_small(path, buf, sizeof buf) < 0)
		return -1;
	trim_first(buf, out, cap);
	return out[0] ? 0 : -1;
}

int os_cs_discover(const char *root, struct os_clocksources *cs)
{
	char path[OS_CS_PATH + 32], buf[1024];
	size_t rl;
	int i;

	memset(cs, 0, sizeof *cs);
	if (!root || !*root)
		root = "/";
	rl = strlen(root);
	snprintf(cs->dir, sizeof cs->dir, "%s%s" CS_SUBDIR, root, root[rl - 1] == '/' ? "" : "/");

	snprintf(path, sizeof path, "%s/available_clocksource", cs->dir);
	if (read_small(path, buf, sizeof buf) == 0)
		cs->n = os_cs_parse_list(buf, cs->available, OS_CS_MAX, &cs->dropped);
	else
		snprintf(cs->problem, sizeof cs->problem, "cannot read %s: %s", path, strerror(errno));

	snprintf(path, sizeof path, "%s/current_clocksource", cs->dir);
	if (read_small(path, buf, sizeof buf) < 0) {
		snprintf(cs->problem, sizeof cs->problem, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	trim_first(buf, cs->current, sizeof cs->current);
	if (!cs->current[0]) {
		snprintf(cs->problem, sizeof cs->problem, "%s is empty", path);
		return -1;
	}
	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->available[i], cs->current))
			cs->current_listed = true;
	if (!cs->current_listed && !cs->problem[0])
		snprintf(cs->problem, sizeof cs->problem,
			 "current clocksource '%s' is not in available_clocksource", cs->current);
	return 0;
}

int os_cs_refresh(struct os_clocksources *cs)
{
	char path[OS_CS_PATH + 32], buf[1024];

	snprintf(path, sizeof path, "%s/available_clocksource", cs->dir);
	if (read_small(path, buf, sizeof buf) < 0)
		return -1;
	cs->n = os_cs_parse_list(buf, cs->available, OS_CS_MAX, &cs->dropped);
	return 0;
}

bool os_cs_listed(const struct os_clocksources *cs, const char *name)
{
	for (int i = 0; i < cs->n; i++)
		if (!strcmp(cs->available[i], name))
			return true;
	return false;
}
