/* SPDX-License-Identifier: BSD-2-Clause */
/* The gate's checks (gate.h); their writers are in gate_out.c. */
#include "tools/lib/gate.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/exit_codes.h"
#include "tools/lib/xalloc.h"
#include "tools/lib/gate_check.h"
#include "tools/lib/logschema.h"
#include "tools/lib/stats.h"

bool gate_parse_threshold(const char *s, struct gate_threshold *t)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !(v >= 0) || v > 1e9)
		return false;
	while (*end == ' ')
		end++;
	if (!strcmp(end, "%")) {
		t->pct = v;
		t->ns = -1;
		return true;
	}
	if (!strcmp(end, "ns")) {
		t->ns = v;
		t->pct = -1;
		return true;
	}
	return false;
}

bool gate_add_threshold(struct gate_opts *o, const char *spec, char *why, size_t cap)
{
	const char *eq = strrchr(spec, '=');
	struct gate_threshold t;
	size_t n = eq ? (size_t)(eq - spec) : 0;

	if (!eq) {
		if (gate_parse_threshold(spec, &o->dflt))
			return true;
		snprintf(why, cap, "--threshold wants PCT%%, NSns or COUNTER=PCT%%|NSns, not '%s'", spec);
		return false;
	}
	if (!n || n >= GATE_KEY || !gate_parse_threshold(eq + 1, &t)) {
		snprintf(why, cap, "--threshold wants COUNTER=PCT%% or COUNTER=NSns, not '%s'", spec);
		return false;
	}
	if (n == 1 && spec[0] == '*') {
		o->dflt = t;
		return true;
	}
	if (o->nper == GATE_MAX_THRESHOLDS) {
		snprintf(why, cap, "more than %d thresholds", GATE_MAX_THRESHOLDS);
		return false;
	}
	memcpy(t.key, spec, n);
	t.key[n] = 0;
	o->per[o->nper++] = t;
	return true;
}

bool gate_read_thresholds(struct gate_opts *o, const char *path, char *why, size_t cap)
{
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned no = 0;

	if (!f) {
		snprintf(why, cap, "--thresholds %s: %s", path, strerror(errno));
		return false;
	}
	while (fgets(line, sizeof line, f)) {
		char key[GATE_KEY], val[64], spec[GATE_KEY + 64], extra[2];
		int k;
		no++;
		line[strcspn(line, "#\r\n")] = 0;
		k = sscanf(line, "%127s %63s %1s", key, val, extra);
		if (k <= 0)
			continue;
		snprintf(spec, sizeof spec, "%s=%s", key, val);
		if (k != 2 || !gate_add_threshold(o, spec, why, cap)) {
			snprintf(why, cap, "--thresholds %s:%u: wants COUNTER PCT%% or COUNTER NSns (\"*\" for the default)",
				 path, no);
			fclose(f);
			return false;
		}
	}
	fclose(f);
	return true;
}

static const struct gate_threshold *threshold_for(const struct gate_opts *o, const char *key)
{
	for (size_t i = 0; i < o->nper; i++)
		if (!strcmp(o->per[i].key, key) || (!strncmp(key, "os:", 3) && !strcmp(o->per[i].key, key + 3)))
			return &o->per[i];
	return &o->dflt;
}

static void threshold_text(const struct gate_threshold *t, char *b, size_t cap)
{
	if (t->pct >= 0)
		snprintf(b, cap, "%g%%", t->pct);
	else
		snprintf(b, cap, "%g ns", t->ns);
}

/* Both runs' per-round values, compared: false with why when either has
 * fewer than two. */
static bool compare_rounds(const struct lr_node *bt, const struct lr_node *nt, const struct gate_opts *o,
			   struct gate_check *c)
{
	double *bv = NULL, *nv = NULL;
	size_t nb = timer_rounds(bt, o->metric, &bv), nn = timer_rounds(nt, o->metric, &nv);
	struct stats bs, ns;
	struct stats_diff d;

	c->n_base = nb;
	c->n_new = nn;
	if (nb < 2 || nn < 2) {
		snprintf(c->detail, sizeof c->detail, "fewer than 2 per-round values (%zu in the baseline, %zu here): "
			 "no test", nb, nn);
		free(bv);
		free(nv);
		return false;
	}
	stats_compute(bv, nb, &bs);
	stats_compute(nv, nn, &ns);
	stats_compare(&bs, &ns, o->ci, &d);
	c->base_mean = bs.mean;
	c->new_mean = ns.mean;
	c->diff = d.diff;
	c->pct = d.pct;
	c->pct_err = d.pct_err;
	c->significant = d.significant;
	free(bv);
	free(nv);
	return true;
}

static void check_key(const char *key, const struct lr_node *bt, const struct lrun *nr, const struct gate_opts *o,
		      struct gate_check *c)
{
	const struct lr_node *nt = lrun_timer_by_key(nr, key);
	const struct gate_threshold *t = threshold_for(o, key);
	struct ld_timer now;
	bool over;

	memset(c, 0, sizeof *c);
	snprintf(c->key, sizeof c->key, "%s", key);
	c->log = nr->name;
	threshold_text(t, c->threshold, sizeof c->threshold);
	if (!nt) {
		c->verdict = GV_ABSENT;
		snprintf(c->detail, sizeof c->detail, "healthy in the baseline, absent here");
		return;
	}
	ld_decode_timer(nt, &now);
	if (!ld_true(now.healthy)) {
		c->verdict = GV_UNHEALTHY;
		snprintf(c->detail, sizeof c->detail, "healthy in the baseline, not here: %s",
			 ld_str_or(now.reason, "no reason given"));
		return;
	}
	if (!compare_rounds(bt, nt, o, c)) {
		c->verdict = GV_UNTESTED;
		return;
	}
	over = t->pct >= 0 ? c->pct > t->pct : c->diff > t->ns;
	if (c->significant && c->diff > 0 && over)
		c->verdict = GV_REGRESSED;
	else if (c->significant && c->diff < 0)
		c->verdict = GV_FASTER;
	else
		c->verdict = GV_PASS;
}

static struct gate_check *next_check(struct gate_check **checks, size_t *cap, size_t k)
{
	if (k == *cap) {
		*cap = *cap ? 2 * *cap : 32;
		*checks = xrealloc(*checks, *cap * sizeof **checks);
	}
	return &(*checks)[k];
}

/* Every check: each healthy counter of base against each new run, then the
 * counters only a new run has. */
static struct gate_check *all_checks(const struct lrun *base, const struct lrun *const *news, size_t n,
				     const struct gate_opts *o, size_t *count)
{
	struct gate_check *checks = NULL;
	size_t cap = 0, k = 0;
	const struct lr_node *t;
	struct ld_timer was;
	char key[GATE_KEY];

	for (size_t j = 0; j < n; j++) {
		for (size_t i = 0; (t = lrun_timer_at(base, i)); i++) {
			ld_decode_timer(t, &was);
			if (!ld_true(was.healthy))
				continue;
			lrun_timer_key(t, key, sizeof key);
			check_key(key, t, news[j], o, next_check(&checks, &cap, k));
			k++;
		}
		for (size_t i = 0; (t = lrun_timer_at(news[j], i)); i++) {
			lrun_timer_key(t, key, sizeof key);
			struct gate_check *c;
			if (lrun_timer_by_key(base, key))
				continue;
			c = next_check(&checks, &cap, k);
			memset(c, 0, sizeof *c);
			snprintf(c->key, sizeof c->key, "%s", key);
			c->log = news[j]->name;
			c->verdict = GV_NEW;
			snprintf(c->detail, sizeof c->detail, "not in the baseline: reported, not gated");
			k++;
		}
	}
	*count = k;
	return checks;
}

int gate_run(FILE *out, const struct lrun *base, const struct lrun *const *news, size_t n, const struct gate_opts *o)
{
	size_t count, failed = 0;
	struct gate_check *checks = all_checks(base, news, n, o, &count);

	for (size_t i = 0; i < count; i++)
		failed += gate_failed(&checks[i]);
	if (o->format == GATE_TAP)
		gate_write_tap(out, base, checks, count, o);
	else if (o->format == GATE_JUNIT)
		gate_write_junit(out, base, checks, count, o);
	else
		gate_write_text(out, base, checks, count, o);
	free(checks);
	return failed ? EXIT_REGRESSED : EXIT_CLEAN;
}

int gate_files(const char *base, const char *new_log, const struct gate_opts *o, const char *out_path)
{
	struct logfile b, n;
	const struct lrun *nr;
	FILE *out;
	int rc = EXIT_UNREADABLE;

	logfile_load(&b, base);
	logfile_load(&n, new_log);
	if (b.status == EXIT_UNREADABLE || !b.nruns || n.status == EXIT_UNREADABLE || !n.nruns) {
		fprintf(stderr, "tickprobe: the gate: %s: %s\n", b.nruns ? new_log : base,
			b.nruns ? (n.why[0] ? n.why : "no run") : (b.why[0] ? b.why : "no run"));
	} else if (!(out = out_path ? fopen(out_path, "w") : stdout)) {
		fprintf(stderr, "tickprobe: the gate: %s: %s\n", out_path, strerror(errno));
	} else {
		nr = &n.runs[n.nruns - 1];
		rc = gate_run(out, &b.runs[b.nruns - 1], &nr, 1, o);
		if (out_path && fclose(out)) {
			fprintf(stderr, "tickprobe: the gate: %s: %s\n", out_path, strerror(errno));
			rc = EXIT_UNREADABLE;
		}
	}
	logfile_free(&b);
	logfile_free(&n);
	return rc;
}

void gate_defaults(struct gate_opts *o)
{
	memset(o, 0, sizeof *o);
	o->metric = "p50";
	o->ci = stats_conf_index(95);
	o->conf = 95;
	snprintf(o->dflt.key, sizeof o->dflt.key, "*");
	o->dflt.pct = 10;
	o->dflt.ns = -1;
}
