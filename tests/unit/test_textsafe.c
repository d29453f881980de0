/* SPDX-License-Identifier: BSD-2-Clause */
/* tools/lib/textsafe.h: what text from outside looks like once printed.
 * Printable ASCII and well-formed UTF-8 pass; C0, DEL, C1, the separators,
 * the bidirectional controls and every byte outside well-formed UTF-8 come
 * out escaped, in text, in a cut buffer, in a CSV cell, in JSON and on the
 * progress line. */
#define _GNU_SOURCE /* posix_openpt and its kin */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include "tests/unit/check.h"
#include "tools/lib/json_out.h"
#include "tools/lib/progress.h"
#include "tools/lib/json_parse.h"
#include "tools/lib/textsafe.h"

enum how { WRITE, CSV, JSON_STR, JSON_COPY };

static char *run(enum how how, const char *in, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);

	if (how == WRITE)
		ts_write(o, in, n);
	else if (how == CSV)
		ts_csv_cell(o, in);
	else if (how == JSON_STR)
		json_out_str(o, in);
	else
		ts_json_copy(o, in, n);
	fclose(o);
	return buf;
}

static void same(enum how how, const char *in, size_t n, const char *want, const char *what)
{
	char *got = run(how, in, n);
	char shown[512];

	check(COND(got) && COND(!strcmp(got, want)), "%s: got %s, want %s", what,
	      got ? ts_str(shown, sizeof shown, got) : "NULL", want);
	free(got);
}

static void text(const char *in, const char *want, const char *what)
{
	same(WRITE, in, strlen(in), want, what);
}

static void passes_through(void)
{
	text("", "", "empty");
	text("Intel(R) Xeon(R) CPU @ 2.00GHz", "Intel(R) Xeon(R) CPU @ 2.00GHz", "printable ASCII");
	text("C:\\x1b \\u202e", "C:\\x1b \\u202e", "a backslash stays as it is");
	text("BOCHS\xc3\xa9 \xc2\xa0nbsp", "BOCHS\xc3\xa9 \xc2\xa0nbsp", "two-byte UTF-8 from U+00A0 on");
	text("1.7\xc3\x97 \xe2\x80\x94 \xe6\x97\xb6\xe9\x92\x9f", "1.7\xc3\x97 \xe2\x80\x94 \xe6\x97\xb6\xe9\x92\x9f",
	     "three-byte UTF-8");
	text("\xf0\x9f\x95\x90 \xf4\x8f\xbf\xbf", "\xf0\x9f\x95\x90 \xf4\x8f\xbf\xbf", "four-byte UTF-8 up to U+10FFFF");
	text("\xe2\x80\x8b\xe2\x80\x8e", "\xe2\x80\x8b\xe2\x80\x8e", "zero-width space and LRM are not in the list");
}

static void escapes_controls(void)
{
	text("\x1b]0;PWNED\a\x1b[31m", "\\x1b]0;PWNED\\x07\\x1b[31m", "the issue's title and colour sequence");
	text("a\tb\nc\rd", "a\\x09b\\x0ac\\x0dd", "tab, newline and CR: no forged columns or lines");
	text("\x01\x1f\x7f", "\\x01\\x1f\\x7f", "C0 ends and DEL");
	same(WRITE, "a\0b", 3, "a\\x00b", "an embedded NUL");
	text("\xc2\x80\xc2\x9b\xc2\x9f", "\\u0080\\u009b\\u009f", "C1 controls as UTF-8");
	text("\xe2\x80\xa8\xe2\x80\xa9", "\\u2028\\u2029", "line and paragraph separators");
	text("\xe2\x80\xaa\xe2\x80\xae\xe2\x81\xa6\xe2\x81\xa9", "\\u202a\\u202e\\u2066\\u2069",
	     "bidirectional embedding, override and isolates");
	text("\xe2\x80\xa9\xe2\x80\xaf", "\\u2029\xe2\x80\xaf", "U+202F after them passes");
}

static void escapes_bad_utf8(void)
{
	text("\x9b" "31m", "\\x9b31m", "a lone 0x9b (8-bit CSI)");
	text("\x80\xbf\xfe\xff", "\\x80\\xbf\\xfe\\xff", "continuation bytes, 0xfe and 0xff");
	text("\xc0\xaf\xc1\xbf", "\\xc0\\xaf\\xc1\\xbf", "overlong two-byte forms");
	text("\xe0\x80\xaf", "\\xe0\\x80\\xaf", "overlong three-byte form");
	text("\xed\xa0\x80", "\\xed\\xa0\\x80", "a surrogate");
	text("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80", "past U+10FFFF");
	text("ok\xe2\x82", "ok\\xe2\\x82", "a sequence cut at the end");
	text("\xc3(", "\\xc3(", "a lead byte without its continuation");
}

static void cuts(void)
{
	char b[16];
	check(ts_str(b, sizeof b, NULL) == NULL, "NULL stays NULL, for a default");
	check(!strcmp(ts_str(b, sizeof b, "fifteen chars!!"), "fifteen chars!!"), "15 bytes fit 16 exactly");
	check(!strcmp(ts_str(b, sizeof b, "sixteen chars!!!"), "sixteen char..."), "16 bytes are cut to 12 and ...: %s", b);
	check(!strcmp(ts_str(b, sizeof b, "abcdefghij\x1b\x1b"), "abcdefghij..."), "an escape is never split: %s", b);
	check(!strcmp(ts_str(b, sizeof b, "abcdefghijk\xe6\x97\xb6\xe9\x92\x9f"), "abcdefghijk..."),
	      "a character is never split: %s", b);
	check(!strcmp(ts_str(b, sizeof b, "\x1b[1m\x1b[2m"), "\\x1b[1m\\x1b[2m"), "escapes that fit: %s", b);
	check(!strcmp(ts_strn(b, 4, "\x1b\x1b", 2), "..."), "a 4-byte buffer: only the mark: %s", b);
	check(!strcmp(ts_strn(b, sizeof b, "a\0b", 3), "a\\x00b"), "ts_strn shows a NUL: %s", b);
	check(COND(ts_plain("ok \xc3\xa9\x1b", 6) == 5) && COND(ts_plain("\xc2\x9b", 2) == 0),
	      "ts_plain stops at the first escape");
}

static void csv(void)
{
	same(CSV, NULL, 0, "\"\"", "CSV: NULL is an empty cell");
	same(CSV, "=1+1|cmd", 0, "\"'=1+1|cmd\"", "CSV: = is neutralised");
	same(CSV, "+1", 0, "\"'+1\"", "CSV: +");
	same(CSV, "-2+3", 0, "\"'-2+3\"", "CSV: -");
	same(CSV, "@SUM(1)", 0, "\"'@SUM(1)\"", "CSV: @");
	same(CSV, "\t=1", 0, "\"'\\x09=1\"", "CSV: a tab, neutralised and escaped");
	same(CSV, "\r=1", 0, "\"'\\x0d=1\"", "CSV: a carriage return");
	same(CSV, "a=b-c", 0, "\"a=b-c\"", "CSV: only the first character counts");
	same(CSV, "=HYPERLINK(\"x\")", 0, "\"'=HYPERLINK(\"\"x\"\")\"", "CSV: quotes doubled");
	same(CSV, "x\x1b[31m\n", 0, "\"x\\x1b[31m\\x0a\"", "CSV: controls escaped");
}

/* JSON out: escapes a JSON reader turns back into the same characters. */
static void json(void)
{
	static const char rec[] = "{\"a\":\"\x7f\xc2\x9b\x9b\xe2\x80\xae\xc3\xa9\\u001b\",\t\"b\":1}";
	struct lr_node nodes[8];
	char strs[64];
	struct lr_doc d;
	const struct lr_node *root;
	char *got;

	same(JSON_STR, "\x1b]0;PWNED\a", 0, "\"\\u001b]0;PWNED\\u0007\"", "JSON: ESC and BEL as \\u00XX");
	same(JSON_STR, "\xc2\x9b\xe2\x80\xae\xc3\xa9", 0, "\"\\u009b\\u202e\xc3\xa9\"", "JSON: C1 and bidi escaped, é kept");
	same(JSON_COPY, rec, sizeof rec - 1, "{\"a\":\"\\u007f\\u009b\\u009b\\u202e\xc3\xa9\\u001b\",\t\"b\":1}",
	     "JSON copy: raw DEL, C1, 0x9b and U+202E escaped; blanks and escapes kept");
	got = run(JSON_COPY, rec, sizeof rec - 1);
	lr_doc_init(&d, nodes, 8, strs, sizeof strs);
	root = got ? lr_parse(&d, got, strlen(got)) : NULL;
	check(COND(root) && COND(lr_get(root, "a")) && COND(lr_get(root, "a")->len == 9) &&
		      COND(!memcmp(lr_str(lr_get(root, "a")), "\x7f\x9b\x9b\xe2\x80\xae\xc3\xa9\x1b", 9)),
	      "JSON copy parses back (%s)", d.err ? d.err : "ok");
	free(got);
}

/* The progress line on a terminal (a pty here) quotes a guest's counter
 * name: escaped, and the only control it writes is its own \r. */
static void progress_line(void)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	int fd = m >= 0 && grantpt(m) == 0 && unlockpt(m) == 0 ? open(ptsname(m), O_RDWR | O_NOCTTY) : -1;
	struct termios tio;
	struct progress p;
	char got[512], shown[1024];
	ssize_t n = 0;
	FILE *to;

	if (fd < 0 || tcgetattr(fd, &tio) != 0) {
		check(0, "progress line: no pty here");
		return;
	}
	cfmakeraw(&tio);
	tcsetattr(fd, TCSANOW, &tio);
	to = fdopen(fd, "w");
	progress_init(&p, "tickprobe qemu", to, false);
	progress_show(&p, "x \x1b]0;P\a\xc2\x9b\xe2\x80\xae,", 3, 10, 5, true);
	n = read(m, got, sizeof got - 1);
	got[n > 0 ? n : 0] = 0;
	check(COND(n > 0) &&
		      COND(!strcmp(got, "\rtickprobe qemu: x \\x1b]0;P\\x07\\u009b\\u202e, 3 of 10, about 5 s left")),
	      "progress line: a hostile name escaped (%zd bytes: %s)", n, ts_str(shown, sizeof shown, got));
	progress_show(&p, "a name of \x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b", 0, 0, -1, true);
	n = read(m, got, sizeof got - 1);
	got[n > 0 ? n : 0] = 0;
	check(COND(n == 78) && COND(!strchr(got, 0x1b)) && COND(!memcmp(got + 75, "...", 3)) && COND(got[74] == 'b'),
	      "progress line: cut to 78 bytes after a whole escape (%zd bytes: %s)", n,
	      ts_str(shown, sizeof shown, got));
	fclose(to);
	close(m);
}

int main(void)
{
	passes_through();
	escapes_controls();
	escapes_bad_utf8();
	cuts();
	csv();
	json();
	progress_line();
	return check_done();
}
