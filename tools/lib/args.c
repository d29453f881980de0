/* SPDX-License-Identifier: BSD-2-Clause */
/* Options and operands for every subcommand: see args.h.
 *
 * getopt_long runs with a leading "-" (each operand is returned in place, so
 * they keep their order and POSIXLY_CORRECT cannot stop the scan at the first
 * one) or "+" (stop at the first operand: ministat's rule, and qemu's, whose
 * "--" hands the rest to QEMU), then ":" (report a missing value apart from
 * an unknown option, and print nothing: the messages are ours). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/stats.h"
#include "tools/lib/exit_codes.h"
#include "tools/lib/args.h"

static const struct option help_only[] = { ARGS_OPTIONS_END };

static const struct option *long_table(const struct args_spec *s)
{
	return s->longopts ? s->longopts : help_only;
}

void args_start(struct args *a, const struct args_spec *spec, int argc, char **argv)
{
	const char *mode = spec->stop_at_operand || spec->passthrough ? "+:" : "-:";
	int n, has_help = 0;

	memset(a, 0, sizeof *a);
	a->spec = spec;
	a->argc = argc;
	a->argv = argv;
	a->out = stdout;
	a->err = stderr;
	n = snprintf(a->shortopts, sizeof a->shortopts, "%s%sh", mode, spec->shortopts ? spec->shortopts : "");
	a->broken = n < 0 || (size_t)n >= sizeof a->shortopts;
	for (const struct option *o = long_table(spec); o->name; o++) {
		if (o->flag || o->val < ARGS_OPT_HELP || (o->val == ARGS_OPT_HELP && strcmp(o->name, "help")))
			a->broken = 1;
		has_help |= o->val == ARGS_OPT_HELP;
	}
	a->broken |= !has_help;
	optind = 0; /* glibc: start a new scan, its own state too */
	opterr = 0;
}

static int vfail(const struct args *a, int hint, const char *fmt, va_list ap)
{
	const struct args_spec *s = a->spec;

	fprintf(a->err, "tickprobe %s: ", s->name);
	vfprintf(a->err, fmt, ap);
	if (hint && !s->help_on_error)
		fprintf(a->err, " (see tickprobe %s --help)", s->name);
	fputc('\n', a->err);
	if (s->help_on_error)
		args_help(s, a->err);
	return EXIT_USAGE;
}

int args_fail(const struct args *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(a, 0, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

/* A usage error of the command line's shape, pointing at --help; ends the scan. */
__attribute__((format(printf, 2, 3)))
static int stop_usage(struct args *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(a, 1, fmt, ap);
	va_end(ap);
	a->status = EXIT_USAGE;
	return ARGS_STOP;
}

void args_help(const struct args_spec *s, FILE *f)
{
	fprintf(f, "usage: tickprobe %s%s%s\n", s->name, s->synopsis ? " " : "", s->synopsis ? s->synopsis : "");
	if (s->help)
		fputs(s->help, f);
	fputs(s->exits ? s->exits : ARGS_EXIT_TEXT, f);
}

static const char *long_name(const struct option *lo, int val)
{
	for (; lo->name; lo++)
		if (lo->val == val)
			return lo->name;
	return "?";
}

/* getopt said '?' or ':'.  optopt tells which option: a letter (short), a
 * long option's value (ARGS_OPT_HELP up: known, but its value is missing or
 * unwanted), or 0 (a long name that matches none, or several). */
static int bad_option(struct args *a, int c, const struct option *lo)
{
	int o = optopt;

	if (o > 0 && o < ARGS_OPT_HELP) {
		if (!isprint(o))
			return stop_usage(a, "unknown option character 0x%02x", (unsigned)o);
		if (c == ':')
			return stop_usage(a, "option '-%c' needs a value", o);
		return stop_usage(a, "unknown option '-%c'", o);
	}
	if (o >= ARGS_OPT_HELP && c == ':')
		return stop_usage(a, "option '--%s' needs a value", long_name(lo, o));
	if (o >= ARGS_OPT_HELP)
		return stop_usage(a, "option '--%s' takes no value", long_name(lo, o));
	{
		const char *tok = optind > 0 && optind <= a->argc ? a->argv[optind - 1] : "?";
		const char *name = tok + (strncmp(tok, "--", 2) ? 0 : 2);
		size_t len = strcspn(name, "="), used = 0;
		char also[160] = "";
		int matches = 0;
		for (; lo->name; lo++) {
			if (strncmp(lo->name, name, len))
				continue;
			matches++;
			if (used < sizeof also)
				used += (size_t)snprintf(also + used, sizeof also - used, "%s--%s", used ? ", " : "",
							 lo->name);
		}
		if (matches > 1)
			return stop_usage(a, "ambiguous option '--%.*s' (%s)", (int)len, name, also);
		return stop_usage(a, "unknown option '%s'", tok);
	}
}

/* The scan is over: collect the operands and the passed-on arguments, and
 * count the operands.  before: where the last getopt call started. */
static int finish(struct args *a, int before)
{
	const struct args_spec *s = a->spec;
	int first = optind, n;

	if (s->passthrough && optind == before + 1 && !strcmp(a->argv[before], "--")) {
		a->passed = a->argv + optind;
		a->npassed = a->argc - optind;
		first = a->argc;
	}
	if (s->stop_at_operand || s->passthrough) {
		a->operands = a->argv + first;
		n = a->argc - first;
	} else {
		/* "-" mode: operands seen so far are in argv[1 ..]; those after "--" join them. */
		for (int i = optind; i < a->argc; i++)
			a->argv[1 + a->nkept++] = a->argv[i];
		a->operands = a->argv + 1;
		n = a->nkept;
	}
	a->noperands = n;
	a->value = NULL;
	snprintf(a->opt, sizeof a->opt, "%s", "");
	if (n < s->min_operands) {
		if (!n)
			return stop_usage(a, "no %s given", s->operand);
		return stop_usage(a, "%d %s operand(s) given, at least %d needed", n, s->operand, s->min_operands);
	}
	if (n > s->max_operands) {
		const char *extra = a->operands[s->max_operands];
		if (!s->max_operands)
			return stop_usage(a, "unexpected operand '%s': %s takes none%s", extra, s->name,
					  s->passthrough ? "; what follows -- is passed on" : "");
		if (s->max_operands == 1)
			return stop_usage(a, "extra operand '%s': %s takes one %s", extra, s->name, s->operand);
		return stop_usage(a, "extra operand '%s': %s takes at most %d %ss", extra, s->name,
				  s->max_operands, s->operand);
	}
	return ARGS_DONE;
}

int args_next(struct args *a)
{
	const struct option *lo = long_table(a->spec);

	if (a->broken) {
		fprintf(a->err, "tickprobe %s: internal error: its options break the rules of tools/lib/args.h\n",
			a->spec->name);
		a->status = EXIT_USAGE;
		return ARGS_STOP;
	}
	for (;;) {
		int before = optind ? optind : 1, idx = -1;
		int c = getopt_long(a->argc, a->argv, a->shortopts, lo, &idx);

		a->value = optarg;
		if (c == 1) { /* an operand, in "-" mode: keep it, in order */
			a->argv[1 + a->nkept++] = optarg;
			continue;
		}
		if (c == -1)
			return finish(a, before);
		if (c == '?' || c == ':')
			return bad_option(a, c, lo);
		if (idx >= 0)
			snprintf(a->opt, sizeof a->opt, "--%s", lo[idx].name);
		else
			snprintf(a->opt, sizeof a->opt, "-%c", c);
		if (c == 'h' || c == ARGS_OPT_HELP) {
			args_help(a->spec, a->out);
			a->status = EXIT_CLEAN;
			return ARGS_STOP;
		}
		return c;
	}
}

/* ---- values ------------------------------------------------------------------- */

int args_to_long(const char *s, long *v)
{
	char *end;

	*v = 0;
	if (!s)
		return ARGS_NUM_BAD;
	errno = 0;
	*v = strtol(s, &end, 10);
	if (end == s || *end)
		return ARGS_NUM_BAD;
	return errno == ERANGE ? ARGS_NUM_RANGE : ARGS_NUM_OK;
}

int args_to_double(const char *s, double *v)
{
	char *end;

	*v = 0;
	if (!s)
		return ARGS_NUM_BAD;
	errno = 0;
	*v = strtod(s, &end);
	if (end == s || *end)
		return ARGS_NUM_BAD;
	/* ERANGE on underflow too: a tiny number is still that number. */
	return errno == ERANGE && isinf(*v) ? ARGS_NUM_RANGE : ARGS_NUM_OK;
}

int args_long(struct args *a, long lo, long hi, long *out)
{
	long v;

	if (args_to_long(a->value, &v) == ARGS_NUM_OK && v >= lo && v <= hi) {
		*out = v;
		return 0;
	}
	if (hi == LONG_MAX)
		return args_fail(a, "%s wants a whole number of at least %ld, not '%s'", a->opt, lo, a->value);
	return args_fail(a, "%s wants a whole number from %ld to %ld, not '%s'", a->opt, lo, hi, a->value);
}

int args_double(struct args *a, double lo, double hi, double *out)
{
	double v;

	if (args_to_double(a->value, &v) == ARGS_NUM_OK && v >= lo && v <= hi) { /* NaN fails both */
		*out = v;
		return 0;
	}
	return args_fail(a, "%s wants a number from %g to %g, not '%s'", a->opt, lo, hi, a->value);
}

/* "a, b or c" into buf: word i of n. */
static void join(char *buf, size_t cap, size_t i, size_t n, const char *word)
{
	size_t used = strlen(buf);
	if (used < cap)
		snprintf(buf + used, cap - used, "%s%s", !i ? "" : i + 1 == n ? " or " : ", ", word);
}

int args_conf(struct args *a, double *level, int *index)
{
	char list[128] = "", w[16];
	double v;
	int i;

	if (args_to_double(a->value, &v) == ARGS_NUM_OK && (i = stats_conf_index(v)) >= 0) {
		*level = v;
		if (index)
			*index = i;
		return 0;
	}
	for (i = 0; i < STATS_NCONF; i++) {
		snprintf(w, sizeof w, "%g", stats_conf_levels[i]);
		join(list, sizeof list, (size_t)i, STATS_NCONF, w);
	}
	return args_fail(a, "%s wants a confidence level of %s, not '%s'", a->opt, list, a->value);
}

int args_choice(struct args *a, const char *const *choices, int *index)
{
	char list[256] = "";
	size_t n = 0;

	for (; choices[n]; n++)
		if (a->value && !strcmp(a->value, choices[n])) {
			if (index)
				*index = (int)n;
			return 0;
		}
	for (size_t i = 0; i < n; i++)
		join(list, sizeof list, i, n, choices[i]);
	return args_fail(a, "%s wants %s, not '%s'", a->opt, list, a->value ? a->value : "");
}
