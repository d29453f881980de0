/* SPDX-License-Identifier: BSD-2-Clause */
/* The watch's records (records_watch.h). */
#include "probe/records_watch.h"
#include "lib/fmt.h"
#include "lib/util.h"

static bool nan_is(double x) { return x != x; }

void record_watch_begin(struct log *l, const struct watch *w, const struct options *o, unsigned cpus)
{
	struct json *j = log_begin(l, "watch_begin");
	char fault[48] = "";

	json_u64(j, "duration_s", (uint64_t)w->duration_s);
	json_fixed(j, "interval_s", WATCH_INTERVAL_S, 1);
	json_u64(j, "segments", WATCH_SEGMENTS);
	json_fixed(j, "segment_s", w->segment_s, 3);
	json_fixed(j, "tsc_hz", w->tsc_hz, 0);
	json_array_begin(j, "clocks");
	for (unsigned i = 0; i < w->n; i++) {
		json_object_begin(j, NULL);
		json_str(j, "name", w->c[i].name);
		if (w->c[i].nominal_hz > 0)
			json_fixed(j, "nominal_hz", w->c[i].nominal_hz, 0);
		else
			json_null(j, "nominal_hz");
		json_object_end(j);
	}
	json_array_end(j);
	json_str(j, "reference", w->reference > 0 ? w->c[w->reference].name : NULL);
	json_u64(j, "cpus", cpus);
	if (o && o->drift_clock[0])
		tp_snprintf(fault, sizeof fault, "drift:%s:%s%d", o->drift_clock, o->drift_ppm >= 0 ? "+" : "",
			    (int)o->drift_ppm); /* tp_snprintf has no '+' flag */
	else if (o && o->step_set)
		tp_snprintf(fault, sizeof fault, "tsc_step:%u:%lld%s", o->step_cpu, (long long)o->step_cycles,
			    o->step_at_event ? "@event" : "");
	json_str(j, "fault", fault[0] ? fault : NULL);
	log_end(l);
}

void record_watch_segment(struct log *l, const struct watch *w, unsigned k, double t_s)
{
	struct json *j = log_begin(l, "watch_segment");

	json_u64(j, "i", k);
	json_fixed(j, "t_s", t_s, 1);
	/* One column per clock, in watch_begin's order: the TSC against its
	 * boot calibration, each counter against the consensus. */
	json_array_begin(j, "ppm");
	for (unsigned i = 0; i < w->n; i++)
		json_fixed(j, NULL, i ? w->c[i].seg_ppm[k] : w->tsc_seg_ppm[k], 3);
	json_array_end(j);
	json_array_begin(j, "offset");
	for (unsigned c = 0; c < w->n_cpus; c++)
		json_fixed(j, NULL, w->cpus[c].offset[k], 0);
	json_array_end(j);
	log_end(l);
}

static void clock_members(struct json *j, const struct watch *w, const struct watch_verdict *v, unsigned i)
{
	json_object_begin(j, NULL);
	json_str(j, "name", w->c[i].name);
	json_fixed(j, "rate_ppm", v->rate_ppm[i], 3);
	json_fixed(j, "u_ppm", v->u_ppm[i], 4);
	json_fixed(j, "window_u_ppm", v->window_u_ppm[i], 3);
	json_fixed(j, "window_sd_ppm", v->window_sd_ppm[i], 3);
	json_fixed(j, "sigma_ns", v->sigma_ns[i], 1);
	json_fixed(j, "drift_ppm_per_h", v->drift_ppm_per_h[i], 3);
	json_fixed(j, "drift_u_ppm_per_h", v->drift_u_ppm_per_h[i], 3);
	json_fixed(j, "change_ppm", v->change_ppm[i], 3);
	json_fixed(j, "worst_window_ppm", i ? w->c[i].d_worst : __builtin_nan(""), 3);
	json_u64(j, "steps", w->c[i].steps);
	json_object_end(j);
}

static void linux_members(struct json *j, const struct watch *w)
{
	json_object_begin(j, "linux");
	json_str(j, "reference", w->reference > 0 ? w->c[w->reference].name : NULL);
	json_u64(j, "windows_unjudged", w->windows_unjudged);
	json_array_begin(j, "eras");
	for (int e = 0; e < WATCH_ERAS && w->reference > 0; e++) {
		const struct watch_linux_era *era = &w->era[e];
		json_object_begin(j, NULL);
		json_str(j, "era", watch_era_name((enum watch_era)e));
		json_str(j, "rule", watch_era_rule((enum watch_era)e));
		json_u64(j, "windows_unstable", era->windows_unstable);
		json_u64(j, "timeouts", era->timeouts);
		json_fixed(j, "first_t_s", era->first_t_s < 0 ? __builtin_nan("") : era->first_t_s, 1);
		json_fixed(j, "worst_skew_ns", era->worst_skew_ns, 0);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static void step_members(struct json *j, const struct watch *w)
{
	json_array_begin(j, "steps");
	for (unsigned k = 0; k < w->n_steps; k++) {
		const struct watch_step *s = &w->steps[k];
		json_object_begin(j, NULL);
		json_fixed(j, "t_s", s->t_s, 1);
		json_str(j, "clock", w->c[s->clock].name);
		json_fixed(j, "step_us", s->step_s * 1e6, 3);
		if (s->cpu >= 0)
			json_u64(j, "cpu", (uint64_t)s->cpu);
		else
			json_null(j, "cpu");
		json_object_end(j);
	}
	json_array_end(j);
	json_u64(j, "steps_dropped", w->n_steps ? w->steps_dropped : 0);
}

static void cpu_members(struct json *j, const struct watch *w, const struct watch_verdict *v)
{
	json_array_begin(j, "cpus");
	for (unsigned c = 0; c < w->n_cpus; c++) {
		const struct watch_cpu *cpu = &w->cpus[c];
		double first = __builtin_nan(""), last = __builtin_nan("");
		for (unsigned k = 0; k < WATCH_SEGMENTS; k++)
			if (!nan_is(cpu->offset[k])) {
				if (nan_is(first))
					first = cpu->offset[k];
				last = cpu->offset[k];
			}
		json_object_begin(j, NULL);
		json_u64(j, "cpu", cpu->cpu);
		json_fixed(j, "offset_first", first, 0);
		json_fixed(j, "offset_last", last, 0);
		json_fixed(j, "slope_cycles_per_h", v->cpu_slope_cycles_per_h[c], 1);
		json_fixed(j, "slope_u_cycles_per_h", v->cpu_slope_u[c], 1);
		json_u64(j, "offsets_loose", cpu->offsets_loose);
		if (cpu->adjust_valid) {
			json_i64(j, "tsc_adjust", cpu->adjust_last);
			json_u64(j, "tsc_adjust_changes", cpu->adjust_changes);
		} else {
			json_null(j, "tsc_adjust");
		}
		json_object_end(j);
	}
	json_array_end(j);
	json_u64(j, "cpus_dropped", w->cpus_dropped);
}

static void vm_events_members(struct json *j, const struct watch_events *e)
{
	if (!e || !e->port) {
		json_null(j, "vm_events");
		return;
	}
	json_object_begin(j, "vm_events");
	json_u64(j, "port", e->port);
	json_bool(j, "listening", e->open);
	json_str(j, "problem", e->problem);
	json_u64(j, "events", e->n);
	json_u64(j, "bad_lines", e->bad_lines);
	json_u64(j, "refused", e->refused);
	json_object_end(j);
}

void record_watch(struct log *l, const struct watch *w, const struct watch_verdict *v, const struct watch_events *e)
{
	struct json *j = log_begin(l, "watch");
	char text[320];

	json_u64(j, "windows", w->windows);
	json_fixed(j, "consensus_hz", v->consensus_hz, 1);
	json_array_begin(j, "clocks");
	for (unsigned i = 0; i < w->n; i++)
		clock_members(j, w, v, i);
	json_array_end(j);
	json_str(j, "odd", v->odd > 0 ? w->c[v->odd].name : NULL);
	json_fixed(j, "odd_ppm", v->odd > 0 ? v->odd_ppm : __builtin_nan(""), 3);
	json_fixed(j, "rest_spread_ppm", v->odd > 0 ? v->rest_spread_ppm : __builtin_nan(""), 3);
	json_bool(j, "attributable", v->attributable);
	watch_attribution_text(w, v, text, sizeof text);
	json_str(j, "verdict", text);
	step_members(j, w);
	linux_members(j, w);
	cpu_members(j, w, v);
	if (w->smi_valid) {
		json_object_begin(j, "smi");
		json_u64(j, "total", w->smi_total);
		json_u64(j, "window_max", w->smi_window_max);
		json_object_end(j);
	} else {
		json_null(j, "smi");
	}
	vm_events_members(j, e);
	log_end(l);
}

static void event_clocks(struct json *j, const struct watch *w, const struct watch_event_verdict *v)
{
	json_array_begin(j, "clocks");
	for (unsigned i = 0; v && i < v->n; i++) {
		json_object_begin(j, NULL);
		json_str(j, "name", w->c[i].name);
		json_fixed(j, "advance_s", v->advance_s[i], 9);
		json_fixed(j, "jump_ns", v->jump_s[i] * 1e9, 1);
		json_fixed(j, "tolerance_ns", v->tolerance_s[i] * 1e9, 1);
		json_bool(j, "backward", v->backward[i]);
		json_object_end(j);
	}
	json_array_end(j);
}

static void event_cpus(struct json *j, const struct watch_event *ev, const struct watch_event_verdict *v)
{
	json_array_begin(j, "cpus");
	for (unsigned k = 0; v && k < ev->n_cpus; k++) {
		const struct watch_event_cpu *c = &ev->cpus[k];
		json_object_begin(j, NULL);
		json_u64(j, "cpu", c->cpu);
		json_fixed(j, "before_cycles", c->before_cycles, 0);
		json_fixed(j, "after_cycles", c->measured ? c->after_cycles : __builtin_nan(""), 0);
		json_fixed(j, "jump_cycles", c->measured ? v->cpu_jump_cycles[k] : __builtin_nan(""), 0);
		json_fixed(j, "tolerance_cycles", c->measured ? v->cpu_tolerance_cycles[k] : __builtin_nan(""), 0);
		json_bool(j, "backward", v->cpu_backward[k]);
		json_object_end(j);
	}
	json_array_end(j);
}

void record_watch_event(struct log *l, const struct watch *w, const struct watch_event *ev,
			const struct watch_event_verdict *v)
{
	struct json *j = log_begin(l, "watch_event");
	bool done = ev->state == WATCH_EVENT_DONE && v;
	const char *names[WATCH_MAX_CLOCKS];
	char text[480];

	json_u64(j, "id", ev->id);
	json_str(j, "name", ev->name);
	json_str(j, "state", done ? "done" : "unfinished");
	json_fixed(j, "at_s", ev->at_s, 3);
	json_fixed(j, "end_s", done ? ev->end_s : __builtin_nan(""), 3);
	json_fixed(j, "host_s", done && ev->host_s >= 0 ? ev->host_s : __builtin_nan(""), 6);
	json_fixed(j, "guest_s", done ? v->guest_s : __builtin_nan(""), 9);
	event_clocks(j, w, done ? v : NULL);
	event_cpus(j, ev, done ? v : NULL);
	json_u64(j, "moved", done ? v->jumps : 0);
	if (done && ev->host_s >= 0)
		json_bool(j, "counted", v->counted);
	else
		json_null(j, "counted");
	for (unsigned i = 0; i < w->n; i++)
		names[i] = w->c[i].name;
	watch_event_text(ev, v, names, text, sizeof text);
	json_str(j, "verdict", text);
	log_end(l);
}

void record_watch_skipped(struct log *l, uint32_t watch_s, const char *why)
{
	struct json *j = log_begin(l, "watch_begin");

	json_u64(j, "duration_s", watch_s);
	json_str(j, "skipped", why);
	log_end(l);
}

void watch_segment_text(const struct watch *w, unsigned k, double t_s, char *buf, unsigned cap)
{
	int n = tp_snprintf(buf, cap, "watch %u/%u, %.1f s:", k + 1, WATCH_SEGMENTS, t_s);
	double lo = 0, hi = 0;
	bool any = false;

	for (unsigned i = 0; i < w->n && n < (int)cap; i++) {
		double ppm = i ? w->c[i].seg_ppm[k] : w->tsc_seg_ppm[k];
		char num[24];
		tp_format_fixed(num, sizeof num, ppm, 3);
		n += tp_snprintf(buf + n, cap - (unsigned)n, "%s %s %s%s", i ? "," : "", w->c[i].name,
				 !nan_is(ppm) && ppm >= 0 ? "+" : "", num);
	}
	if (n < (int)cap)
		n += tp_snprintf(buf + n, cap - (unsigned)n, " ppm");
	for (unsigned c = 0; c < w->n_cpus; c++) {
		double off = w->cpus[c].offset[k];
		if (nan_is(off))
			continue;
		lo = !any || off < lo ? off : lo;
		hi = !any || off > hi ? off : hi;
		any = true;
	}
	if (any && n < (int)cap)
		tp_snprintf(buf + n, cap - (unsigned)n, "; CPU offsets %lld..%lld cycles", (long long)lo, (long long)hi);
}
