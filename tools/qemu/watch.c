/* SPDX-License-Identifier: BSD-2-Clause */
/* The boot's progress from its serial log (watch.h). */
#include <stdio.h>
#include <string.h>
#include "tools/lib/logschema.h"
#include "tools/qemu/watch.h"

void boot_watch_init(struct boot_watch *w, const char *path, const char *who, bool quiet)
{
	memset(w, 0, sizeof *w);
	w->path = path;
	progress_init(&w->prog, who, stderr, quiet);
	snprintf(w->phase, sizeof w->phase, "%s", "booting");
}

static void take_plan(struct boot_watch *w, const struct lr_node *root)
{
	struct ld_plan plan;

	ld_decode_plan(root, &plan);
	w->ncounters = 0;
	for (size_t i = 0; i < plan.estimate_s.n && w->ncounters < WATCH_COUNTERS; i++) {
		struct ld_num est = ld_plan_estimate_s_at(&plan, i);
		snprintf(w->names[w->ncounters], sizeof w->names[0], "%s", ld_plan_estimate_s_name(&plan, i));
		w->est[w->ncounters] = est.state == LD_SET ? est.v : 0;
		w->ncounters++;
	}
	w->total_s = plan.total_s.state == LD_SET ? plan.total_s.v : 0;
	w->plan_at = progress_now();
	w->done = 0;
	w->done_est = 0;
}

/* One whole record line: the phase it ends, and what comes next. */
static void take_line(struct boot_watch *w)
{
	struct lr_doc doc;
	const struct lr_node *root;
	const char *type, *at = memchr(w->line, '{', w->len);

	if (!at)
		return;
	lr_doc_init(&doc, w->nodes, sizeof w->nodes / sizeof w->nodes[0], w->strs, sizeof w->strs);
	root = lr_parse(&doc, at, w->len - (size_t)(at - w->line));
	if (!root || !(type = ld_record_type(root)))
		return;
	if (!strcmp(type, "plan")) {
		take_plan(w, root);
	} else if (!strcmp(type, "timer")) {
		if (w->done < w->ncounters)
			w->done_est += w->est[w->done];
		if (++w->done == w->ncounters)
			snprintf(w->phase, sizeof w->phase, "%s", "the main table done");
	} else if (!strcmp(type, "begin")) {
		snprintf(w->phase, sizeof w->phase, "%s", "checking the counters and calibrating");
	} else if (strcmp(type, "end")) {
		snprintf(w->phase, sizeof w->phase, "%s done", type);
	}
}

static void read_new(struct boot_watch *w)
{
	FILE *f = fopen(w->path, "rb");
	int c;

	if (!f)
		return;
	if (fseek(f, w->offset, SEEK_SET) == 0)
		while ((c = getc(f)) != EOF) {
			w->offset++;
			if (c != '\n') {
				if (w->len + 1 < sizeof w->line)
					w->line[w->len++] = (char)c;
				else
					w->overlong = true;
				continue;
			}
			if (!w->overlong && w->len && w->line[w->len - 1] == '\r')
				w->len--;
			if (!w->overlong)
				take_line(w);
			w->len = 0;
			w->overlong = false;
		}
	fclose(f);
}

void boot_watch_tick(void *ctx)
{
	struct boot_watch *w = ctx;
	char what[96];

	if (!w->prog.to)
		return;
	read_new(w);
	if (w->ncounters && w->done < w->ncounters) {
		/* The estimates are the guest's seconds: scaled by how the counters
		 * done so far took on this host (under TCG or icount, not 1:1). */
		double ratio = w->done_est > 0 ? (progress_now() - w->plan_at) / w->done_est : 1;
		double left = (w->total_s - w->done_est) * (ratio > 1 ? ratio : 1);
		snprintf(what, sizeof what, "measuring %s,", w->names[w->done]);
		progress_show(&w->prog, what, w->done + 1, w->ncounters, left, false);
	} else {
		if (w->ncounters)
			snprintf(what, sizeof what, "the other CPUs (%s)", w->phase);
		else
			snprintf(what, sizeof what, "%s", w->phase);
		progress_show(&w->prog, what, 0, 0, -1, false);
	}
}

void boot_watch_end(struct boot_watch *w)
{
	progress_clear(&w->prog);
}
