/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/presets.c: presets.cfg and tickprobe.env, good and every way bad.
 * A bad line must give one problem naming its line and why, and every other
 * line must be kept as a good file would have it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/presets.h"
#include "tests/unit/check.h"
#include "tools/qemu/image.h"

static struct presets p;

static void parse(const char *text)
{
	presets_init(&p);
	presets_parse(&p, text, strlen(text));
}

/* The one problem there is, on that line, with that in its text. */
static int one_problem(int line, const char *has)
{
	return p.n_problems == 1 && !p.problems_beyond && p.problems[0].line == line && strstr(p.problems[0].text, has) &&
	       !strcmp(p.problems[0].file, "presets.cfg");
}

static const char *first_problem(void) { return p.n_problems ? p.problems[0].text : "(none)"; }

static int is(int i, const char *name, const char *options, int line)
{
	return i < p.count && !strcmp(p.preset[i].name, name) && !strcmp(p.preset[i].options, options) &&
	       p.preset[i].line == line;
}

static void test_good(void)
{
	parse("timeout: 7\ndefault: samples=1000 rounds=5\nquick: samples=100 calib_ms=5\nlong: samples=10000000\n");
	check(COND(p.count == 3) && COND(is(0, "default", "samples=1000 rounds=5", 2)) &&
		      COND(is(1, "quick", "samples=100 calib_ms=5", 3)) && COND(is(2, "long", "samples=10000000", 4)) &&
		      COND(p.timeout == 7) && COND(p.timeout_line == 1) && COND(!p.n_problems),
	      "presets: a good file gives its 3 presets in order, their lines and timeout 7, no problem");
	check(COND(presets_default(&p) == 0) && COND(presets_find(&p, "long") == 2) &&
		      COND(presets_find(&p, "lon") == -1) && COND(presets_find(&p, "") == -1) &&
		      COND(presets_timeout(&p) == 7),
	      "presets: found by exact name; 'default' boots; the wait is the file's");

	parse("default: a=1");
	check(COND(p.count == 1) && COND(is(0, "default", "a=1", 1)) && COND(!p.n_problems) &&
		      COND(p.timeout == PRESETS_TIMEOUT_DEFAULT),
	      "presets: no newline at the end, no timeout line: the preset kept, the wait %d s", p.timeout);

	parse("# a comment\n\n   \n\t# an indented comment\n  default :  \t a=1 \t b=x:y,z/w+v.u-t  \n x_y-9:\n");
	check(COND(p.count == 2) && COND(is(0, "default", "a=1 b=x:y,z/w+v.u-t", 5)) && COND(is(1, "x_y-9", "", 6)) &&
		      COND(!p.n_problems),
	      "presets: comments and blank lines skipped, blanks trimmed and runs of them made one space, "
	      "every allowed character kept, empty options allowed (%s)",
	      first_problem());

	parse("timeout: 0\ndefault:\n");
	check(COND(p.timeout == 0) && COND(presets_timeout(&p) == 0) && COND(!p.n_problems),
	      "presets: timeout 0 (no menu)");
	parse("timeout: 3600\ndefault:\n");
	check(COND(p.timeout == 3600) && COND(!p.n_problems), "presets: timeout 3600, the largest");
	parse("timeout:007\ndefault:\n");
	check(COND(p.timeout == 7) && COND(!p.n_problems), "presets: timeout 007 is 7 s");
}

static void test_crlf(void)
{
	static const char lf[] = "# c\ntimeout: 2\n\ndefault: a=1 b=2\nquick: c=3\n";
	static const char crlf[] = "# c\r\ntimeout: 2\r\n\r\ndefault: a=1 b=2\r\nquick: c=3\r\n";
	static struct presets a;

	parse(lf);
	memcpy(&a, &p, sizeof a);
	parse(crlf);
	check(COND(!memcmp(&a, &p, sizeof a)) && COND(p.count == 2) && COND(!p.n_problems),
	      "presets: CRLF line ends give exactly what LF ones do");
	parse("default: a=1\r\rquick: b=2\r\n");
	check(COND(p.count == 0) && COND(p.n_problems == 2) && COND(p.problems[0].line == 1) &&
		      COND(strstr(p.problems[0].text, "0x0d")),
	      "presets: a CR that ends no line is a bad byte, named (%s)", first_problem());
}

static void test_bad_lines(void)
{
	/* a file whose line 2 is bad, and the text that line's problem must hold */
	static const char *bad[][2] = {
		{ "default: a=1\nquick samples=5\nverbose: raw=1\n", "no ':'" },
		{ "default: a=1\nqu ick: x=1\nverbose: raw=1\n", "preset name 'qu ick'" },
		{ "default: a=1\nqu$ick: x=1\nverbose: raw=1\n", "letters, digits" },
		{ "default: a=1\n: x=1\nverbose: raw=1\n", "is empty" },
		{ "default: a=1\nabcdefghijklmnopqrstuvwx: x=1\nverbose: raw=1\n", "longer than 23" },
		{ "default: a=1\nquick: a=\"1\"\nverbose: raw=1\n", "'\"' is not allowed" },
		{ "default: a=1\nquick: a=1 # fast\nverbose: raw=1\n", "'#' is not allowed" },
		{ "default: a=1\nquick: a=$x\nverbose: raw=1\n", "'$' is not allowed" },
		{ "default: a=1\nquick: a=\\1\nverbose: raw=1\n", "'\\' is not allowed" },
		{ "default: a=1\nquick: a=1\x01\nverbose: raw=1\n", "byte 0x01" },
		{ "default: a=1\nquick: a=1;b\nverbose: raw=1\n", "';' is not allowed" },
		{ "default: a=1\ndefault: b=2\nverbose: raw=1\n", "the first is on line 1" },
		{ "default: a=1\ntimeout: soon\nverbose: raw=1\n", "timeout 'soon'" },
		{ "default: a=1\ntimeout: -1\nverbose: raw=1\n", "timeout '-1'" },
		{ "default: a=1\ntimeout: 3601\nverbose: raw=1\n", "0 to 3600" },
		{ "default: a=1\ntimeout: 99999999999999999999\nverbose: raw=1\n", "whole seconds" },
		{ "default: a=1\ntimeout:\nverbose: raw=1\n", "timeout ''" },
		{ "default: a=1\ntimeout: 5s\nverbose: raw=1\n", "timeout '5s'" },
		{ "default: a=1\ntimeout: 1 2\nverbose: raw=1\n", "timeout '1 2'" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		parse(bad[i][0]);
		check(COND(one_problem(2, bad[i][1])) && COND(p.count == 2) && COND(is(0, "default", "a=1", 1)) &&
			      COND(is(1, "verbose", "raw=1", 3)) && COND(p.timeout == PRESETS_TIMEOUT_DEFAULT),
		      "presets: line 2 of \"%.*s\": one problem on line 2 (%s), both good lines kept",
		      (int)strcspn(bad[i][0] + 13, "\n"), bad[i][0] + 13, first_problem());
	}

	parse("timeout: 3\ndefault: a=1\ntimeout: 9\n");
	check(COND(one_problem(3, "first is on line 1")) && COND(p.timeout == 3) && COND(p.count == 1),
	      "presets: a second timeout is a problem and the first stays (%s)", first_problem());

	/* A name of 23 characters is the longest; 200 characters of options too. */
	{
		char text[512], opts[260];
		memset(opts, 'o', 200);
		opts[200] = 0;
		snprintf(text, sizeof text, "default: x\nabcdefghijklmnopqrstuvw: %s\n", opts);
		parse(text);
		check(COND(p.count == 2) && COND(strlen(p.preset[1].name) == 23) &&
			      COND(strlen(p.preset[1].options) == 200) && COND(!p.n_problems),
		      "presets: a 23-character name with 200 characters of options is kept whole");
		strcat(opts, "o");
		snprintf(text, sizeof text, "default: x\nquick: %s\nverbose: y\n", opts);
		parse(text);
		check(COND(one_problem(2, "longer than 200")) && COND(p.count == 2) && COND(is(1, "verbose", "y", 3)),
		      "presets: 201 characters of options: a problem, the line skipped (%s)", first_problem());
		/* A blank where the 201st character would go, then more: cut there,
		 * nothing written past the preset (the next one stays whole). */
		memset(opts, 'o', 200);
		memcpy(opts + 200, " \t b", 5);
		snprintf(text, sizeof text, "default: x\nquick: %s\nverbose: y\n", opts);
		parse(text);
		check(COND(one_problem(2, "longer than 200")) && COND(p.count == 2) && COND(is(0, "default", "x", 1)) &&
			      COND(is(1, "verbose", "y", 3)),
		      "presets: 200 characters then blanks and a word: too long, and the presets around it intact (%s)",
		      first_problem());
		memset(opts, ' ', 250);
		memcpy(opts + 250, "a=1", 4);
		snprintf(text, sizeof text, "default: %s\n", opts);
		parse(text);
		check(COND(p.count == 1) && COND(is(0, "default", "a=1", 1)) && COND(!p.n_problems),
		      "presets: 250 leading blanks before short options are no length problem");
	}

	{
		static const char text[] = "default: a=1\nquick: b\0c\nverbose: d\n";
		presets_init(&p);
		presets_parse(&p, text, sizeof text - 1);
		check(COND(one_problem(2, "byte 0x00")) && COND(p.count == 2) && COND(is(1, "verbose", "d", 3)),
		      "presets: a NUL byte inside a line is named and only its line lost (%s)", first_problem());
	}
}

static void test_limits(void)
{
	char text[4096];
	size_t n = 0;
	int ok = 1;

	/* 14 presets: the first 12 kept, two problems, and the timeout after them still read. */
	for (int i = 0; i < PRESETS_MAX + 2; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "p%d: n=%d\n", i, i);
	n += (size_t)snprintf(text + n, sizeof text - n, "timeout: 9\n");
	parse(text);
	for (int i = 0; i < PRESETS_MAX; i++) {
		char name[8], opts[8];
		snprintf(name, sizeof name, "p%d", i);
		snprintf(opts, sizeof opts, "n=%d", i);
		ok &= is(i, name, opts, i + 1);
	}
	/* and none is called default: one more problem, file-wide */
	check(COND(p.count == PRESETS_MAX) && COND(ok), "presets: 14 presets keep the first 12");
	check(COND(p.n_problems == 3) && COND(p.problems[0].line == 13) &&
		      COND(strstr(p.problems[0].text, "more than 12")) && COND(strstr(p.problems[0].text, "'p12'")) &&
		      COND(p.problems[1].line == 14) && COND(strstr(p.problems[1].text, "'p13'")) &&
		      COND(p.problems[2].line == 0),
	      "presets: the two past 12 named on their lines; no preset called default, said file-wide");
	check(p.timeout == 9, "presets: the timeout after 14 presets still read (%d)", p.timeout);

	/* More problems than are kept: counted, nothing written past the list. */
	n = 0;
	for (int i = 0; i < 20; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "bad line %d\n", i);
	n += (size_t)snprintf(text + n, sizeof text - n, "default: ok=1\n");
	parse(text);
	check(COND(p.n_problems == PRESETS_MAX_PROBLEMS) && COND(p.problems_beyond == 20 - PRESETS_MAX_PROBLEMS) &&
		      COND(p.problems[7].line == 8) && COND(p.count == 1) && COND(is(0, "default", "ok=1", 21)),
	      "presets: 20 bad lines keep 8 problems and count %d more; the good line after them is kept",
	      p.problems_beyond);
	for (int i = 0; i < p.n_problems; i++)
		ok &= strlen(p.problems[i].text) < sizeof p.problems[i].text;

	/* A very long bad line: its problem is cut to fit and stays one line. */
	memset(text, 'x', 3000);
	text[3000] = 0;
	parse(text);
	check(COND(p.n_problems == 2) && COND(strlen(p.problems[0].text) < PRESETS_PROBLEM_MAX) &&
		      COND(strstr(p.problems[0].text, "...")) && COND(!strchr(p.problems[0].text, '\n')) && COND(ok),
	      "presets: a 3000-byte line without ':' gives a short problem (%zu bytes) quoting its start",
	      strlen(p.problems[0].text));
}

static void test_default(void)
{
	parse("quick: a=1\nverbose: b=2\n");
	check(COND(one_problem(0, "no preset named 'default'")) && COND(strstr(p.problems[0].text, "'quick'")) &&
		      COND(presets_default(&p) == 0) && COND(p.count == 2),
	      "presets: no 'default': a file-wide problem, and the first preset boots (%s)", first_problem());
	parse("");
	check(COND(one_problem(0, "no presets")) && COND(presets_default(&p) == -1) &&
		      COND(presets_timeout(&p) == PRESETS_TIMEOUT_DEFAULT),
	      "presets: an empty file: 'no presets', nothing to boot");
	parse("# only\n\n# comments\n");
	check(one_problem(0, "no presets"), "presets: a file of comments: 'no presets'");
	parse("quick: a=1\ndefault: b=2\n");
	check(COND(presets_default(&p) == 1) && COND(!p.n_problems), "presets: 'default' boots wherever it stands");
}

/* An environment block as image/mkimage.sh writes it: the signature, the
 * three variables empty, '#' to 512 bytes. */
static size_t shipped_env(char *blk)
{
	static const char head[] = "# GRUB Environment Block\ntp_preset=\ntp_timeout=\ntp_options=\n";
	memset(blk, '#', QEMU_ENV_SIZE);
	memcpy(blk, head, sizeof head - 1);
	return QEMU_ENV_SIZE;
}

static void env(const char *text) { presets_parse_env(&p, text, strlen(text)); }

static void test_env(void)
{
	char blk[QEMU_ENV_SIZE], big[1024];

	parse("timeout: 4\ndefault: a=1\nquick: b=2\n");
	presets_parse_env(&p, blk, shipped_env(blk));
	check(COND(!p.n_problems) && COND(!p.env_preset[0]) && COND(p.env_timeout == -1) && COND(!p.env_options[0]) &&
		      COND(presets_timeout(&p) == 4) && COND(presets_default(&p) == 0),
	      "env: the shipped block sets nothing: presets.cfg's wait and 'default'");

	/* What `tickprobe qemu` writes, read back: the writer and the reader agree. */
	check(qemu_env_block(blk, "quick", 0, "bogus=1 back\\slash"), "env: tools/qemu writes a block");
	parse("timeout: 4\ndefault: a=1\nquick: b=2\n");
	presets_parse_env(&p, blk, QEMU_ENV_SIZE);
	check(COND(!p.n_problems) && COND(!strcmp(p.env_preset, "quick")) && COND(p.env_timeout == 0) &&
		      COND(!strcmp(p.env_options, "bogus=1 back\\slash")) && COND(presets_timeout(&p) == 0) &&
		      COND(presets_default(&p) == 1),
	      "env: tools/qemu's block: tp_preset quick, tp_timeout 0, tp_options with its backslash unescaped (\"%s\")",
	      p.env_options);

	parse("default: a=1\n");
	env("# GRUB Environment Block\ntp_options=a\\\nb\nsaved_entry=x\ntp_timeout=12\n###");
	check(COND(!p.n_problems) && COND(!strcmp(p.env_options, "a\nb")) && COND(p.env_timeout == 12),
	      "env: an escaped newline stays in its value; GRUB's own variables are left alone");

	parse("timeout: 4\ndefault: a=1\n");
	env("# GRUB Environment Block\ntp_timeout=soon\n");
	check(COND(p.n_problems == 1) && COND(p.problems[0].line == 2) &&
		      COND(!strcmp(p.problems[0].file, "tickprobe.env")) &&
		      COND(strstr(p.problems[0].text, "tp_timeout 'soon'")) && COND(p.env_timeout == -1) &&
		      COND(presets_timeout(&p) == 4),
	      "env: a bad tp_timeout is named (%s) and presets.cfg's wait stays", first_problem());
	parse("default: a=1\n");
	env("# GRUB Environment Block\ntp_timeout=3601\n");
	check(COND(p.n_problems == 1) && COND(p.env_timeout == -1), "env: tp_timeout 3601 is too long a wait");

	parse("default: a=1\nquick: b=1\n");
	env("# GRUB Environment Block\ntp_preset=fast\n");
	check(COND(p.n_problems == 1) && COND(strstr(p.problems[0].text, "'fast'")) &&
		      COND(strstr(p.problems[0].text, "'default' boots")) && COND(presets_default(&p) == 0),
	      "env: a tp_preset that names no preset is named, and 'default' boots (%s)", first_problem());
	parse("default: a=1\n");
	env("# GRUB Environment Block\ntp_preset=a b\n");
	check(COND(p.n_problems == 1) && COND(strstr(p.problems[0].text, "tp_preset 'a b'")) && COND(!p.env_preset[0]),
	      "env: a tp_preset that is no name is ignored (%s)", first_problem());

	parse("default: a=1\n");
	env("# GRUB Environment Block\ntp_preset=default\njunk\ntp_timeout=1\n");
	check(COND(p.n_problems == 1) && COND(p.problems[0].line == 3) && COND(strstr(p.problems[0].text, "'junk'")) &&
		      COND(!strcmp(p.env_preset, "default")) && COND(p.env_timeout == 1),
	      "env: a line without '=' is named by its line, the lines around it are read (%s)", first_problem());

	parse("default: a=1\n");
	env("tp_preset=default\n");
	check(COND(p.n_problems == 1) && COND(p.problems[0].line == 1) &&
		      COND(strstr(p.problems[0].text, "GRUB environment block")) && COND(!p.env_preset[0]),
	      "env: no signature: not read at all, and said so");
	parse("default: a=1\n");
	presets_parse_env(&p, "# GRUB", 6);
	check(COND(p.n_problems == 1) && COND(p.problems[0].line == 1), "env: a block cut inside its signature");

	parse("default: a=1\n");
	memset(big, 'o', sizeof big);
	memcpy(big, "# GRUB Environment Block\ntp_options=", 36);
	big[sizeof big - 1] = '\n';
	presets_parse_env(&p, big, sizeof big);
	check(COND(p.n_problems == 1) && COND(strstr(p.problems[0].text, "tp_options is longer than 511")) &&
		      COND(!p.env_options[0]),
	      "env: tp_options longer than the buffer is ignored, not cut (%s)", first_problem());

	parse("default: a=1\n");
	env("# GRUB Environment Block\r\ntp_timeout=2\r\n");
	check(COND(p.n_problems == 1) && COND(p.problems[0].line == 1),
	      "env: a CRLF signature is not GRUB's (GRUB writes LF)");
	parse("default: a=1\n");
	env("# GRUB Environment Block\ntp_timeout=2\r\n");
	check(COND(!p.n_problems) && COND(p.env_timeout == 2), "env: a CR before a value's newline is dropped");
}

int main(void)
{
	test_good();
	test_crlf();
	test_bad_lines();
	test_limits();
	test_default();
	test_env();
	return check_done();
}
