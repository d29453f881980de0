/* SPDX-License-Identifier: BSD-2-Clause */
/* One check of the gate (gate.h), and its three writers (gate_out.c).
 * Private to gate.c and gate_out.c. */
#ifndef TOOLS_LIB_GATE_CHECK_H
#define TOOLS_LIB_GATE_CHECK_H

#include "tools/lib/gate.h"

enum gate_verdict {
	GV_PASS,      /* not slower beyond the threshold with significance */
	GV_FASTER,    /* significantly faster */
	GV_UNTESTED,  /* too few per-round values to test */
	GV_NEW,       /* only in the new run */
	GV_REGRESSED, /* slower beyond the threshold, significantly: fails */
	GV_UNHEALTHY, /* healthy in the baseline, not here: fails */
	GV_ABSENT,    /* healthy in the baseline, absent here: fails */
};

struct gate_check {
	char key[GATE_KEY];
	const char *log;            /* the new run's name */
	int verdict;                /* enum gate_verdict */
	double base_mean, new_mean; /* of the per-round values, ns */
	double diff, pct, pct_err;  /* new minus base; in per cent of base, and its half-width */
	bool significant;
	size_t n_base, n_new;       /* per-round values */
	char threshold[32];
	char detail[240];
};

static inline bool gate_failed(const struct gate_check *c) { return c->verdict >= GV_REGRESSED; }

/* "ok", "faster", …: the verdict in one word. */
const char *gate_verdict_name(int v);
/* The check in one line, for text and for TAP's description. */
void gate_check_line(const struct gate_check *c, const struct gate_opts *o, char *buf, size_t cap);

void gate_write_text(FILE *out, const struct lrun *base, const struct gate_check *c, size_t n, const struct gate_opts *o);
void gate_write_tap(FILE *out, const struct lrun *base, const struct gate_check *c, size_t n, const struct gate_opts *o);
void gate_write_junit(FILE *out, const struct lrun *base, const struct gate_check *c, size_t n, const struct gate_opts *o);

#endif
