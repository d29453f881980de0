/* SPDX-License-Identifier: BSD-2-Clause */
/* The gate's writers (gate_check.h): text for a terminal, TAP version 13
 * for `prove` and the harnesses that read it, JUnit XML for GitLab, Jenkins
 * and the like.  Every name in them comes from a log, which nobody vouches
 * for: each format's own escapes are applied, and control bytes never pass. */
#include <stdio.h>
#include <string.h>
#include "tools/lib/gate_check.h"
#include "tools/lib/textsafe.h"

const char *gate_verdict_name(int v)
{
	static const char *const names[] = { "ok", "faster", "untested", "new", "regressed", "unhealthy", "absent" };
	return v >= 0 && v <= GV_ABSENT ? names[v] : "?";
}

void gate_check_line(const struct gate_check *c, const struct gate_opts *o, char *buf, size_t cap)
{
	switch (c->verdict) {
	case GV_PASS:
	case GV_FASTER:
	case GV_REGRESSED:
		snprintf(buf, cap, "%s: %.1f -> %.1f ns (%+.1f%% +/- %.1f%%, %s at %g%%; threshold %s)", c->key,
			 c->base_mean, c->new_mean, c->pct, c->pct_err, c->significant ? "significant" : "not significant",
			 o->conf, c->threshold);
		break;
	default:
		snprintf(buf, cap, "%s: %s", c->key, c->detail);
	}
}

/* s shown by the rule of tools/lib/textsafe.h (control characters as \xNN
 * or \uNNNN, which TAP, YAML and XML all carry as text), with each format's
 * own special characters replaced by what subst gives them. */
static void put_escaped(FILE *out, const char *s, const char *(*subst)(char ch))
{
	size_t n = s ? strlen(s) : 0;
	char esc[TS_ESC_MAX];

	while (n) {
		size_t plain = ts_plain(s, n), k;
		for (size_t i = 0; i < plain; i++) {
			const char *r = subst(s[i]);
			if (r)
				fputs(r, out);
			else
				fputc(s[i], out);
		}
		s += plain;
		n -= plain;
		if (!n)
			break;
		k = ts_escape(s, n, TS_TEXT, esc);
		fputs(esc, out);
		s += k;
		n -= k;
	}
}

void gate_write_text(FILE *out, const struct lrun *base, const struct gate_check *c, size_t n, const struct gate_opts *o)
{
	char line[512];
	size_t failed = 0;
	const char *log = NULL;

	fputs("tickprobe compare --gate: baseline ", out);
	ts_puts(out, base->name);
	fprintf(out, " (per-round %s, Student's t at %g%%)\n", o->metric, o->conf);
	for (size_t i = 0; i < n; i++) {
		if (!log || strcmp(log, c[i].log)) {
			log = c[i].log;
			fputs("  ", out);
			ts_puts(out, log);
			fputc('\n', out);
		}
		gate_check_line(&c[i], o, line, sizeof line);
		fprintf(out, "    %-9s ", gate_verdict_name(c[i].verdict));
		ts_puts(out, line);
		fputc('\n', out);
		failed += gate_failed(&c[i]);
	}
	fprintf(out, "%zu check(s), %zu failed: %s\n", n, failed, failed ? "REGRESSED" : "passed");
}

/* TAP's description: '#' (a directive) and '\' escaped. */
static const char *tap_char(char ch)
{
	return ch == '#' ? "\\#" : ch == '\\' ? "\\\\" : NULL;
}

/* Inside a YAML double-quoted scalar. */
static const char *yaml_char(char ch)
{
	return ch == '"' ? "\\\"" : ch == '\\' ? "\\\\" : NULL;
}

static void put_tap(FILE *out, const char *s)
{
	put_escaped(out, s, tap_char);
}

static void put_yaml(FILE *out, const char *s)
{
	fputc('"', out);
	put_escaped(out, s, yaml_char);
	fputc('"', out);
}

void gate_write_tap(FILE *out, const struct lrun *base, const struct gate_check *c, size_t n, const struct gate_opts *o)
{
	char line[512];

	fprintf(out, "TAP version 13\n1..%zu\n# baseline ", n);
	put_tap(out, base->name);
	fprintf(out, "; per-round %s, Student's t at %g%%\n", o->metric, o->conf);
	for (size_t i = 0; i < n; i++) {
		gate_check_line(&c[i], o, line, sizeof line);
		fprintf(out, "%s %zu - ", gate_failed(&c[i]) ? "not ok" : "ok", i + 1);
		put_tap(out, c[i].log);
		fputs(": ", out);
		put_tap(out, line);
		if (c[i].verdict == GV_UNTESTED || c[i].verdict == GV_NEW)
			fprintf(out, " # SKIP %s", c[i].verdict == GV_NEW ? "not in the baseline" : "too few rounds");
		fputc('\n', out);
		if (!gate_failed(&c[i]))
			continue;
		fputs("  ---\n  verdict: ", out);
		put_yaml(out, gate_verdict_name(c[i].verdict));
		fputs("\n  counter: ", out);
		put_yaml(out, c[i].key);
		fputs("\n  log: ", out);
		put_yaml(out, c[i].log);
		if (c[i].verdict == GV_REGRESSED)
			fprintf(out, "\n  baseline_ns: %.3f\n  new_ns: %.3f\n  change_pct: %.3f\n  change_pct_err: %.3f\n"
				     "  threshold: \"%s\"", c[i].base_mean, c[i].new_mean, c[i].pct, c[i].pct_err, c[i].threshold);
		else {
			fputs("\n  detail: ", out);
			put_yaml(out, c[i].detail);
		}
		fputs("\n  ...\n", out);
	}
}

/* XML character data or an attribute's value: the five escapes. */
static const char *xml_char(char ch)
{
	switch (ch) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\'':
		return "&apos;";
	default:
		return NULL;
	}
}

static void put_xml(FILE *out, const char *s)
{
	put_escaped(out, s, xml_char);
}

static void junit_case(FILE *out, const struct gate_check *c, const struct gate_opts *o)
{
	char line[512];

	gate_check_line(c, o, line, sizeof line);
	fputs("    <testcase classname=\"tickprobe.gate\" name=\"", out);
	put_xml(out, c->key);
	fputs("\" time=\"0\">\n", out);
	if (gate_failed(c)) {
		fputs("      <failure type=\"", out);
		put_xml(out, gate_verdict_name(c->verdict));
		fputs("\" message=\"", out);
		put_xml(out, line);
		fputs("\">", out);
		put_xml(out, line);
		fputs("</failure>\n", out);
	} else if (c->verdict == GV_UNTESTED || c->verdict == GV_NEW) {
		fputs("      <skipped message=\"", out);
		put_xml(out, c->detail);
		fputs("\"/>\n", out);
	}
	fputs("      <system-out>", out);
	put_xml(out, line);
	fputs("</system-out>\n    </testcase>\n", out);
}

void gate_write_junit(FILE *out, const struct lrun *base, const struct gate_check *c, size_t n, const struct gate_opts *o)
{
	size_t failed = 0, skipped = 0;

	for (size_t i = 0; i < n; i++) {
		failed += gate_failed(&c[i]);
		skipped += c[i].verdict == GV_UNTESTED || c[i].verdict == GV_NEW;
	}
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tickprobe gate\" tests=\"%zu\" "
		     "failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", n, failed, skipped);
	for (size_t i = 0; i < n;) {
		size_t j = i, f = 0, s = 0;
		while (j < n && !strcmp(c[j].log, c[i].log)) {
			f += gate_failed(&c[j]);
			s += c[j].verdict == GV_UNTESTED || c[j].verdict == GV_NEW;
			j++;
		}
		fputs("  <testsuite name=\"", out);
		put_xml(out, c[i].log);
		fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"0\">\n", j - i, f, s);
		fputs("    <properties>\n      <property name=\"baseline\" value=\"", out);
		put_xml(out, base->name);
		fprintf(out, "\"/>\n      <property name=\"metric\" value=\"%s\"/>\n      <property name=\"confidence\" "
			     "value=\"%g\"/>\n    </properties>\n", o->metric, o->conf);
		for (; i < j; i++)
			junit_case(out, &c[i], o);
		fputs("  </testsuite>\n", out);
	}
	fputs("</testsuites>\n", out);
}
