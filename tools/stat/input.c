/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe stat` input (tools/stat/input.h): each file is read in one
 * buffer and numbers are parsed by hand (strtod only for unusual forms),
 * instead of fgets + strtok + strtod per line, which is what makes big inputs
 * fast. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tools/stat/input.h"

/* The whole input in one buffer, with a spare byte for a terminating NUL. */
char *stat_input_slurp(int fd, size_t *len)
{
	struct stat sb;
	size_t cap = 1 << 20, n = 0;
	char *buf;

	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
		cap = (size_t)sb.st_size + 1;
	buf = malloc(cap + 1);
	if (!buf)
		return NULL;
	for (;;) {
		ssize_t r;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	return buf;
}

static const double pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* Parse [s, e) as a number, all of it, or fail (return 0).  Plain decimals
 * with at most 19 significant digits whose mantissa fits 2^53 and whose
 * scale is within 10^±22 are exact with one IEEE multiply or divide (both
 * operands exact), so they equal strtod's correctly rounded result; anything
 * else (hex, inf, nan, long mantissas, leading blanks) goes to strtod.
 * *e is writable: the buffer always has a byte past every token. */
static int parse_number(char *s, char *e, double *out)
{
	const char *p = s;
	unsigned long long m = 0;
	int neg = 0, digits = 0, scale = 0, any = 0;
	char save, *end;

	if (p < e && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < e && (unsigned)(*p - '0') < 10; p++, any = 1) {
		if (m || *p != '0')
			digits++;
		m = m * 10 + (unsigned)(*p - '0');
		if (digits > 19)
			goto slow;
	}
	if (p < e && *p == '.') {
		for (p++; p < e && (unsigned)(*p - '0') < 10; p++, any = 1) {
			if (m || *p != '0')
				digits++;
			m = m * 10 + (unsigned)(*p - '0');
			scale--;
			if (digits > 19)
				goto slow;
		}
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		int es = 0, eneg = 0, ed = 0;
		p++;
		if (p < e && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		for (; p < e && (unsigned)(*p - '0') < 10 && es < 10000; p++, ed++)
			es = es * 10 + (*p - '0');
		if (!ed)
			goto slow;
		scale += eneg ? -es : es;
	}
	if (p != e || !any || m > (1ull << 53) || scale < -22 || scale > 22)
		goto slow;
	*out = scale >= 0 ? (double)m * pow10_exact[scale] : (double)m / pow10_exact[-scale];
	if (neg)
		*out = -*out;
	return 1;
slow:
	save = *e;
	*e = '\0';
	*out = strtod(s, &end);
	*e = save;
	return end == e && e != s;
}

static int push(struct stat_values *ds, double v)
{
	if (ds->n == ds->cap) {
		size_t cap = ds->cap ? ds->cap * 2 : 4096;
		double *nv = realloc(ds->v, cap * sizeof *nv);
		if (!nv)
			return 0;
		ds->v = nv;
		ds->cap = cap;
	}
	ds->v[ds->n++] = v;
	return 1;
}

static int is_space(unsigned char c) /* isspace() in the C locale */
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

void stat_input_delims(unsigned char set[256], const char *delim)
{
	for (; *delim; delim++)
		set[(unsigned char)*delim] = 1;
}

/* ministat's line rules: trailing white space is dropped; the line is split
 * on any of the delimiter characters (runs count as one, as with strtok); a
 * token starting with '#' at or before the wanted column makes the line a
 * comment; a line without that column is skipped; the column must be a
 * number, all of it, or the input is rejected naming the line. */
int stat_input_parse(char *buf, size_t len, const unsigned char delim[256], int column,
		     struct stat_values *out, size_t *bad_line)
{
	char *p, *end = buf + len;
	size_t line = 0;
	int has_nul;

	*end = '\0';
	has_nul = memchr(buf, '\0', len) != NULL;
	for (p = buf; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end, *z, *t = NULL;
		int col = 0;
		double v;

		line++;
		if (has_nul && (z = memchr(p, '\0', (size_t)(e - p)))) /* as strlen sees the line */
			e = z;
		while (e > p && is_space((unsigned char)e[-1]))
			e--;
		while (p < e) {
			while (p < e && delim[(unsigned char)*p])
				p++;
			if (p == e || *p == '#')
				break;
			t = p;
			while (p < e && !delim[(unsigned char)*p])
				p++;
			if (++col == column)
				break;
		}
		if (col == column && t && *t != '#') {
			if (!parse_number(t, p, &v)) {
				*bad_line = line;
				return STAT_INPUT_INVALID;
			}
			if (!push(out, v))
				return STAT_INPUT_NOMEM;
		}
		p = nl ? nl + 1 : end;
	}
	return STAT_INPUT_OK;
}
