/* SPDX-License-Identifier: BSD-2-Clause */
/* The watch's records (records_watch.h). */
#include "probe/records_watch.h"
#include "lib/fmt.h"
#include "lib/util.h"
#include "probe/log_schema.h"

static bool nan_is(double x) { return x != x; }

void record_watch_begin(struct log *l, const struct watch *w, const struct options *o, unsigned cpus)
{
	struct put_watch_begin b = put_record_watch_begin(l);
	struct put_watch_begin_clocks_list clocks;
	char fault[48] = "";

	put_watch_begin_duration_s(b, (uint64_t)w->duration_s);
	put_watch_begin_interval_s(b, WATCH_INTERVAL_S);
	put_watch_begin_segments(b, WATCH_SEGMENTS);
	put_watch_begin_segment_s(b, w->segment_s);
	put_watch_begin_tsc_hz(b, w->tsc_hz);
	clocks = put_watch_begin_clocks_open(b);
	for (unsigned i = 0; i < w->n; i++) {
		struct put_watch_clock_def c = put_watch_begin_clocks_add(clocks);
		put_watch_clock_def_name(c, w->c[i].name);
		if (w->c[i].nominal_hz > 0)
			put_watch_clock_def_nominal_hz(c, w->c[i].nominal_hz);
		else
			put_watch_clock_def_nominal_hz_null(c);
		put_watch_clock_def_close(c);
	}
	put_watch_begin_clocks_close(clocks);
	put_watch_begin_reference(b, w->reference > 0 ? w->c[w->reference].name : NULL);
	put_watch_begin_cpus(b, cpus);
	if (o && o->drift_clock[0])
		tp_snprintf(fault, sizeof fault, "drift:%s:%s%d", o->drift_clock, o->drift_ppm >= 0 ? "+" : "",
			    (int)o->drift_ppm); /* tp_snprintf has no '+' flag */
	else if (o && o->step_set)
		tp_snprintf(fault, sizeof fault, "tsc_step:%u:%lld%s", o->step_cpu, (long long)o->step_cycles,
			    o->step_at_event ? "@event" : "");
	put_watch_begin_fault(b, fault[0] ? fault : NULL);
	log_end(l);
}

void record_watch_segment(struct log *l, const struct watch *w, unsigned k, double t_s)
{
	struct put_watch_segment s = put_record_watch_segment(l);
	struct put_watch_segment_ppm_list ppm;
	struct put_watch_segment_offset_list offset;

	put_watch_segment_i(s, k);
	put_watch_segment_t_s(s, t_s);
	/* One column per clock, in watch_begin's order: the TSC against its
	 * boot calibration, each counter against the consensus. */
	ppm = put_watch_segment_ppm_open(s);
	for (unsigned i = 0; i < w->n; i++)
		put_watch_segment_ppm_add(ppm, i ? w->c[i].seg_ppm[k] : w->tsc_seg_ppm[k]);
	put_watch_segment_ppm_close(ppm);
	offset = put_watch_segment_offset_open(s);
	for (unsigned c = 0; c < w->n_cpus; c++)
		put_watch_segment_offset_add(offset, w->cpus[c].offset[k]);
	put_watch_segment_offset_close(offset);
	log_end(l);
}

static void clock_members(struct put_watch_clock c, const struct watch *w, const struct watch_verdict *v, unsigned i)
{
	put_watch_clock_name(c, w->c[i].name);
	put_watch_clock_rate_ppm(c, v->rate_ppm[i]);
	put_watch_clock_u_ppm(c, v->u_ppm[i]);
	put_watch_clock_window_u_ppm(c, v->window_u_ppm[i]);
	put_watch_clock_window_sd_ppm(c, v->window_sd_ppm[i]);
	put_watch_clock_sigma_ns(c, v->sigma_ns[i]);
	put_watch_clock_drift_ppm_per_h(c, v->drift_ppm_per_h[i]);
	put_watch_clock_drift_u_ppm_per_h(c, v->drift_u_ppm_per_h[i]);
	put_watch_clock_change_ppm(c, v->change_ppm[i]);
	put_watch_clock_worst_window_ppm(c, i ? w->c[i].d_worst : __builtin_nan(""));
	put_watch_clock_steps(c, w->c[i].steps);
	put_watch_clock_close(c);
}

static void linux_members(struct put_watch t, const struct watch *w)
{
	struct put_watch_linux lx = put_watch_linux_watchdog_open(t);
	struct put_watch_linux_eras_list eras;

	put_watch_linux_reference(lx, w->reference > 0 ? w->c[w->reference].name : NULL);
	put_watch_linux_windows_unjudged(lx, w->windows_unjudged);
	eras = put_watch_linux_eras_open(lx);
	for (int e = 0; e < WATCH_ERAS && w->reference > 0; e++) {
		const struct watch_linux_era *era = &w->era[e];
		struct put_watch_era o = put_watch_linux_eras_add(eras);
		put_watch_era_era(o, watch_era_name((enum watch_era)e));
		put_watch_era_rule(o, watch_era_rule((enum watch_era)e));
		put_watch_era_windows_unstable(o, era->windows_unstable);
		put_watch_era_timeouts(o, era->timeouts);
		put_watch_era_first_t_s(o, era->first_t_s < 0 ? __builtin_nan("") : era->first_t_s);
		put_watch_era_worst_skew_ns(o, era->worst_skew_ns);
		put_watch_era_close(o);
	}
	put_watch_linux_eras_close(eras);
	put_watch_linux_close(lx);
}

static void step_members(struct put_watch t, const struct watch *w)
{
	struct put_watch_steps_list steps = put_watch_steps_open(t);

	for (unsigned k = 0; k < w->n_steps; k++) {
		const struct watch_step *s = &w->steps[k];
		struct put_watch_step o = put_watch_steps_add(steps);
		put_watch_step_t_s(o, s->t_s);
		put_watch_step_clock(o, w->c[s->clock].name);
		put_watch_step_step_us(o, s->step_s * 1e6);
		if (s->cpu >= 0)
			put_watch_step_cpu(o, (uint64_t)s->cpu);
		else
			put_watch_step_cpu_null(o);
		put_watch_step_close(o);
	}
	put_watch_steps_close(steps);
	put_watch_steps_dropped(t, w->n_steps ? w->steps_dropped : 0);
}

static void cpu_members(struct put_watch t, const struct watch *w, const struct watch_verdict *v)
{
	struct put_watch_cpus_list cpus = put_watch_cpus_open(t);

	for (unsigned c = 0; c < w->n_cpus; c++) {
		const struct watch_cpu *cpu = &w->cpus[c];
		double first = __builtin_nan(""), last = __builtin_nan("");
		struct put_watch_cpu o;
		for (unsigned k = 0; k < WATCH_SEGMENTS; k++)
			if (!nan_is(cpu->offset[k])) {
				if (nan_is(first))
					first = cpu->offset[k];
				last = cpu->offset[k];
			}
		o = put_watch_cpus_add(cpus);
		put_watch_cpu_cpu(o, cpu->cpu);
		put_watch_cpu_offset_first(o, first);
		put_watch_cpu_offset_last(o, last);
		put_watch_cpu_slope_cycles_per_h(o, v->cpu_slope_cycles_per_h[c]);
		put_watch_cpu_slope_u_cycles_per_h(o, v->cpu_slope_u[c]);
		put_watch_cpu_offsets_loose(o, cpu->offsets_loose);
		if (cpu->adjust_valid) {
			put_watch_cpu_tsc_adjust(o, cpu->adjust_last);
			put_watch_cpu_tsc_adjust_changes(o, cpu->adjust_changes);
		} else {
			put_watch_cpu_tsc_adjust_null(o);
		}
		put_watch_cpu_close(o);
	}
	put_watch_cpus_close(cpus);
	put_watch_cpus_dropped(t, w->cpus_dropped);
}

static void vm_events_members(struct put_watch t, const struct watch_events *e)
{
	struct put_watch_vm_events o;

	if (!e || !e->port) {
		put_watch_vm_events_null(t);
		return;
	}
	o = put_watch_vm_events_open(t);
	put_watch_vm_events_port(o, e->port);
	put_watch_vm_events_listening(o, e->open);
	put_watch_vm_events_problem(o, e->problem);
	put_watch_vm_events_events(o, e->n);
	put_watch_vm_events_bad_lines(o, e->bad_lines);
	put_watch_vm_events_refused(o, e->refused);
	put_watch_vm_events_close(o);
}

void record_watch(struct log *l, const struct watch *w, const struct watch_verdict *v, const struct watch_events *e)
{
	struct put_watch t = put_record_watch(l);
	struct put_watch_clocks_list clocks;
	char text[320];

	put_watch_windows(t, w->windows);
	put_watch_consensus_hz(t, v->consensus_hz);
	clocks = put_watch_clocks_open(t);
	for (unsigned i = 0; i < w->n; i++)
		clock_members(put_watch_clocks_add(clocks), w, v, i);
	put_watch_clocks_close(clocks);
	put_watch_odd(t, v->odd > 0 ? w->c[v->odd].name : NULL);
	put_watch_odd_ppm(t, v->odd > 0 ? v->odd_ppm : __builtin_nan(""));
	put_watch_rest_spread_ppm(t, v->odd > 0 ? v->rest_spread_ppm : __builtin_nan(""));
	put_watch_attributable(t, v->attributable);
	watch_attribution_text(w, v, text, sizeof text);
	put_watch_verdict(t, text);
	step_members(t, w);
	linux_members(t, w);
	cpu_members(t, w, v);
	if (w->smi_valid) {
		struct put_watch_smi smi = put_watch_smi_open(t);
		put_watch_smi_total(smi, w->smi_total);
		put_watch_smi_window_max(smi, w->smi_window_max);
		put_watch_smi_close(smi);
	} else {
		put_watch_smi_null(t);
	}
	vm_events_members(t, e);
	log_end(l);
}

static void event_clocks(struct put_watch_event t, const struct watch *w, const struct watch_event_verdict *v)
{
	struct put_watch_event_clocks_list clocks = put_watch_event_clocks_open(t);

	for (unsigned i = 0; v && i < v->n; i++) {
		struct put_watch_event_clock c = put_watch_event_clocks_add(clocks);
		put_watch_event_clock_name(c, w->c[i].name);
		put_watch_event_clock_advance_s(c, v->advance_s[i]);
		put_watch_event_clock_jump_ns(c, v->jump_s[i] * 1e9);
		put_watch_event_clock_tolerance_ns(c, v->tolerance_s[i] * 1e9);
		put_watch_event_clock_backward(c, v->backward[i]);
		put_watch_event_clock_close(c);
	}
	put_watch_event_clocks_close(clocks);
}

static void event_cpus(struct put_watch_event t, const struct watch_event *ev, const struct watch_event_verdict *v)
{
	struct put_watch_event_cpus_list cpus = put_watch_event_cpus_open(t);

	for (unsigned k = 0; v && k < ev->n_cpus; k++) {
		const struct watch_event_cpu *c = &ev->cpus[k];
		struct put_watch_event_cpu o = put_watch_event_cpus_add(cpus);
		put_watch_event_cpu_cpu(o, c->cpu);
		put_watch_event_cpu_before_cycles(o, c->before_cycles);
		put_watch_event_cpu_after_cycles(o, c->measured ? c->after_cycles : __builtin_nan(""));
		put_watch_event_cpu_jump_cycles(o, c->measured ? v->cpu_jump_cycles[k] : __builtin_nan(""));
		put_watch_event_cpu_tolerance_cycles(o, c->measured ? v->cpu_tolerance_cycles[k] : __builtin_nan(""));
		put_watch_event_cpu_backward(o, v->cpu_backward[k]);
		put_watch_event_cpu_close(o);
	}
	put_watch_event_cpus_close(cpus);
}

void record_watch_event(struct log *l, const struct watch *w, const struct watch_event *ev,
			const struct watch_event_verdict *v)
{
	struct put_watch_event t = put_record_watch_event(l);
	bool done = ev->state == WATCH_EVENT_DONE && v;
	const char *names[WATCH_MAX_CLOCKS];
	char text[480];

	put_watch_event_id(t, ev->id);
	put_watch_event_name(t, ev->name);
	put_watch_event_state(t, done ? "done" : "unfinished");
	put_watch_event_at_s(t, ev->at_s);
	put_watch_event_end_s(t, done ? ev->end_s : __builtin_nan(""));
	put_watch_event_host_s(t, done && ev->host_s >= 0 ? ev->host_s : __builtin_nan(""));
	put_watch_event_guest_s(t, done ? v->guest_s : __builtin_nan(""));
	event_clocks(t, w, done ? v : NULL);
	event_cpus(t, ev, done ? v : NULL);
	put_watch_event_moved(t, done ? v->jumps : 0);
	if (done && ev->host_s >= 0)
		put_watch_event_counted(t, v->counted);
	else
		put_watch_event_counted_null(t);
	for (unsigned i = 0; i < w->n; i++)
		names[i] = w->c[i].name;
	watch_event_text(ev, v, names, text, sizeof text);
	put_watch_event_verdict(t, text);
	log_end(l);
}

void record_watch_skipped(struct log *l, uint32_t watch_s, const char *why)
{
	struct put_watch_begin b = put_record_watch_begin(l);

	put_watch_begin_duration_s(b, watch_s);
	put_watch_begin_skipped(b, why);
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
