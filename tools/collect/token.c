/* SPDX-License-Identifier: BSD-2-Clause */
/* The collector's token, kept off the command line (collect.h, token_read):
 * a file only its user can read, or the environment, whose copy in
 * /proc/PID/environ only that user can read; the command line, which
 * every local user reads in ps, still works and says so. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tools/collect/collect.h"

#define TOKEN_FILE_MAX 4096 /* a token and whitespace; anything longer is not a token file */
#define TOKEN_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~-"

static bool token_set(struct collect_options *o, const char *t, size_t n, const char *from, char *why, size_t cap)
{
	while (n && (t[n - 1] == '\n' || t[n - 1] == '\r' || t[n - 1] == ' ' || t[n - 1] == '\t'))
		n--;
	if (!n || n > COLLECT_TOKEN_MAX || strspn(t, TOKEN_CHARS) < n) {
		snprintf(why, cap, "%s: a token is 1 to %d of A-Z a-z 0-9 . _ ~ -", from, COLLECT_TOKEN_MAX);
		return false;
	}
	memcpy(o->token_buf, t, n);
	o->token_buf[n] = 0;
	o->token = o->token_buf;
	return true;
}

static bool from_file(struct collect_options *o, char *why, size_t cap)
{
	char buf[TOKEN_FILE_MAX + 1], from[300];
	int fd = open(o->token_source, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t n;
	bool ok;

	snprintf(from, sizeof from, "--token-file %s", o->token_source);
	if (fd < 0) {
		snprintf(why, cap, "%s: %s", from, strerror(errno));
		return false;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(why, cap, "%s: not a regular file", from);
		close(fd);
		return false;
	}
	if (st.st_mode & (S_IROTH | S_IWOTH)) {
		snprintf(why, cap, "%s: every user can %s it (mode %04o): chmod o-rw it", from,
			 st.st_mode & S_IROTH ? "read" : "write", (unsigned)(st.st_mode & 07777));
		close(fd);
		return false;
	}
	n = read(fd, buf, sizeof buf);
	close(fd);
	if (n < 0 || n > TOKEN_FILE_MAX) {
		snprintf(why, cap, "%s: %s", from, n < 0 ? strerror(errno) : "longer than a token");
		return false;
	}
	ok = token_set(o, buf, (size_t)n, from, why, cap);
	memset(buf, 0, sizeof buf);
	return ok;
}

bool token_read(struct collect_options *o, char *why, size_t cap)
{
	const char *env = getenv("TICKPROBE_TOKEN");
	bool ok;

	o->token = NULL;
	if (o->token_given == TOKEN_FILE)
		return from_file(o, why, cap);
	if (o->token_given == TOKEN_ARGUMENT) {
		ok = token_set(o, o->token_source, strlen(o->token_source), "--token", why, cap);
		/* ps shows what is left of it from now on; until now it showed it whole. */
		memset(o->token_source, 'x', strlen(o->token_source));
		if (ok)
			fprintf(stderr, "tickprobe collect: warning: --token is visible to every local user in ps "
					"while the collector starts; use --token-file FILE or TICKPROBE_TOKEN\n");
		return ok;
	}
	if (env && env[0])
		return token_set(o, env, strlen(env), "TICKPROBE_TOKEN", why, cap);
	return true;
}
