/* SPDX-License-Identifier: BSD-2-Clause */
/* The watch's model (probe/watch.h): windows, steps, segments. */
#include "probe/watch.h"
#include "lib/util.h"

#define NAN_VALUE __builtin_nan("")
#define PPM 1e6
/* A step is a window in which a clock moved this many times its read jitter
 * (sqrt(2)·sigma) beyond what its rate explains, and at least STEP_MIN_S. */
#define STEP_SIGMAS 20.0
#define STEP_MIN_S 1e-6

static bool is_nan(double x) { return x != x; }
static double absd(double x) { return x < 0 ? -x : x; }

void watch_init(struct watch *w, double tsc_hz, double duration_s)
{
	tp_memset(w, 0, sizeof *w);
	w->tsc_hz = tsc_hz;
	w->duration_s = duration_s;
	w->segment_s = duration_s / WATCH_SEGMENTS;
	if (w->segment_s < WATCH_INTERVAL_S)
		w->segment_s = WATCH_INTERVAL_S;
	w->reference = -1;
	w->hz_ref = NAN_VALUE;
	for (int e = 0; e < WATCH_ERAS; e++)
		w->era[e].first_t_s = -1;
	for (unsigned k = 0; k < WATCH_SEGMENTS; k++)
		w->tsc_seg_ppm[k] = NAN_VALUE;
}

int watch_add_clock(struct watch *w, const char *name, double nominal_hz, double tick_s)
{
	struct watch_clock *c;
	size_t len = tp_strlen(name);

	if (w->n >= WATCH_MAX_CLOCKS || (w->n == 0) != (nominal_hz <= 0))
		return -1;
	c = &w->c[w->n];
	tp_memset(c, 0, sizeof *c);
	if (len >= WATCH_NAME)
		len = WATCH_NAME - 1;
	tp_memcpy(c->name, name, len);
	c->nominal_hz = nominal_hz;
	c->tick_s = tick_s;
	for (unsigned k = 0; k < WATCH_SEGMENTS; k++)
		c->seg_ppm[k] = NAN_VALUE;
	return (int)w->n++;
}

/* ---- the consensus ---------------------------------------------------------------- */

double watch_median(double *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		double x = v[i];
		unsigned j = i;
		while (j && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	if (!n)
		return NAN_VALUE;
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The TSC's frequency as counter i saw it between reads a and b; NaN when
 * either did not advance. */
static double seen_hz(const struct watch_clock *c, const struct watch_read *a, const struct watch_read *b)
{
	double cycles = (double)(int64_t)(b->tsc - a->tsc), counts = b->count - a->count;

	if (cycles <= 0 || counts <= 0)
		return NAN_VALUE;
	return cycles * c->nominal_hz / counts;
}

/* The consensus between each counter's reads a[i] and b[i], with each
 * counter's view in hz[i] (NaN where it has none). */
static double consensus(const struct watch *w, const struct watch_read *a, const struct watch_read *b, double *hz)
{
	double v[WATCH_MAX_CLOCKS];
	unsigned n = 0;

	for (unsigned i = 1; i < w->n; i++) {
		hz[i] = seen_hz(&w->c[i], &a[i], &b[i]);
		if (!is_nan(hz[i]))
			v[n++] = hz[i];
	}
	return watch_median(v, n);
}

double watch_sigma_s(const struct watch *w, unsigned i)
{
	const struct watch_clock *c = &w->c[i];
	double width2 = c->reads ? c->width2_sum / (double)c->reads : 0;
	double cycle = 1 / w->tsc_hz;

	return __builtin_sqrt(width2 * cycle * cycle / 12 + c->tick_s * c->tick_s / 12);
}

/* ---- windows ------------------------------------------------------------------------- */

static void add_step(struct watch *w, double t_s, int clock, double step_s, int cpu)
{
	if (w->n_steps >= WATCH_MAX_STEPS) {
		w->steps_dropped++;
		return;
	}
	w->steps[w->n_steps++] = (struct watch_step){ t_s, clock, step_s, cpu };
}

/* Linux's rules on this window, with the reference's reads. */
static void judge_linux(struct watch *w, const struct watch_read *r, double t_s)
{
	double window_s = (double)(int64_t)(r[0].tsc - w->c[0].prev.tsc) / w->tsc_hz;

	const struct watch_clock *ref;
	const struct watch_read *a, *b;
	double cs_ns, wd_ns, skew, readout_ns;

	/* Linux judges intervals of about WATCH_INTERVAL_S, and skips one far
	 * longer or shorter (its "bogus" measurement): so does the watch. */
	if (w->reference < 1 || window_s < WATCH_INTERVAL_S / 2 || window_s > 2 * WATCH_INTERVAL_S) {
		w->windows_unjudged += w->reference >= 1;
		return;
	}
	ref = &w->c[w->reference];
	a = &ref->prev;
	b = &r[w->reference];
	cs_ns = (double)(int64_t)(b->tsc - a->tsc) * 1e9 / w->tsc_hz;
	wd_ns = (b->count - a->count) * 1e9 / ref->nominal_hz;
	skew = absd(cs_ns - wd_ns);
	readout_ns = (double)b->width * 1e9 / w->tsc_hz;
	for (int e = 0; e < WATCH_ERAS; e++) {
		struct watch_linux_era *era = &w->era[e];
		int verdict = watch_era_judge((enum watch_era)e, skew, wd_ns, readout_ns);
		if (skew > era->worst_skew_ns)
			era->worst_skew_ns = skew;
		if (verdict == 2)
			era->timeouts++;
		if (verdict == 1)
			era->windows_unstable++;
		if (verdict && era->first_t_s < 0)
			era->first_t_s = t_s;
	}
}

/* Steps in this window: excess[i], seconds each counter moved beyond its
 * rate, against its threshold.  All counters moving together is the TSC. */
static bool find_steps(struct watch *w, const double *excess, const double *limit, double t_s)
{
	unsigned over = 0, counters = 0;
	double sum = 0;

	for (unsigned i = 1; i < w->n; i++) {
		if (is_nan(excess[i]))
			continue;
		counters++;
		if (absd(excess[i]) > limit[i]) {
			over++;
			sum += excess[i];
		}
	}
	if (!over)
		return false;
	if (counters >= 2 && over == counters) {
		/* Every counter saw the TSC move: its step, in seconds of TSC. */
		w->c[0].steps++;
		add_step(w, t_s, 0, -sum / over, -1);
		return true;
	}
	for (unsigned i = 1; i < w->n; i++)
		if (!is_nan(excess[i]) && absd(excess[i]) > limit[i]) {
			w->c[i].steps++;
			add_step(w, t_s, (int)i, excess[i], -1);
		}
	return true;
}

void watch_sample(struct watch *w, const struct watch_read *r)
{
	struct watch_read prev[WATCH_MAX_CLOCKS] = { 0 };
	double hz[WATCH_MAX_CLOCKS] = { 0 };
	double excess[WATCH_MAX_CLOCKS], limit[WATCH_MAX_CLOCKS], f, ref, t_s;
	bool stepped;

	for (unsigned i = 0; i < w->n; i++) {
		w->c[i].width2_sum += (double)r[i].width * (double)r[i].width;
		w->c[i].reads++;
	}
	if (!w->started) {
		for (unsigned i = 0; i < w->n; i++) {
			w->c[i].first = r[i];
			w->c[i].prev = r[i];
			w->c[i].seg_start = r[i];
		}
		w->started = true;
		return;
	}
	for (unsigned i = 0; i < w->n; i++)
		prev[i] = w->c[i].prev;
	f = consensus(w, prev, r, hz);
	/* A step of the TSC moves every counter's view of it alike, this
	 * window's consensus too: the steps are judged against the last
	 * window without one. */
	ref = is_nan(w->hz_ref) ? f : w->hz_ref;
	t_s = (double)(int64_t)(r[0].tsc - w->c[0].first.tsc) / w->tsc_hz;
	for (unsigned i = 1; i < w->n; i++) {
		struct watch_clock *c = &w->c[i];
		double rate = c->d_n ? c->d_sum / (double)c->d_n / PPM : 0;
		double cycles = (double)(int64_t)(r[i].tsc - prev[i].tsc);
		excess[i] = NAN_VALUE;
		limit[i] = STEP_SIGMAS * 1.4142135623730951 * watch_sigma_s(w, i);
		if (limit[i] < STEP_MIN_S)
			limit[i] = STEP_MIN_S;
		/* A counter's rate is learnt in its first window: steps are
		 * found from the second on. */
		if (is_nan(ref) || cycles <= 0 || !c->d_n)
			continue;
		/* What its own rate so far predicts, against what it counted. */
		excess[i] = (r[i].count - prev[i].count) / c->nominal_hz - cycles / ref * (1 + rate);
	}
	stepped = !is_nan(ref) && find_steps(w, excess, limit, t_s);
	if (!stepped && !is_nan(f)) {
		w->hz_ref = f;
		w->hz_ref_sum += f;
		w->hz_ref_n++;
	}
	judge_linux(w, r, t_s);
	for (unsigned i = 1; i < w->n && !stepped && !is_nan(f); i++) {
		struct watch_clock *c = &w->c[i];
		double d;
		if (is_nan(hz[i]))
			continue;
		d = (f / hz[i] - 1) * PPM;
		c->d_sum += d;
		c->d2_sum += d * d;
		c->d_n++;
		if (absd(d) > absd(c->d_worst))
			c->d_worst = d;
	}
	w->windows++;
	for (unsigned i = 0; i < w->n; i++)
		w->c[i].prev = r[i];
}

void watch_smi(struct watch *w, uint64_t count)
{
	if (w->smi_valid && count >= w->smi_last) {
		uint64_t d = count - w->smi_last;
		w->smi_total += d;
		if (d > w->smi_window_max)
			w->smi_window_max = d;
	}
	w->smi_valid = true;
	w->smi_last = count;
}

/* ---- segments ---------------------------------------------------------------------- */

unsigned watch_segment_end(struct watch *w, double t_s)
{
	struct watch_read a[WATCH_MAX_CLOCKS] = { 0 }, b[WATCH_MAX_CLOCKS] = { 0 };
	double hz[WATCH_MAX_CLOCKS], f;
	unsigned k = w->segment;

	(void)t_s;
	if (k >= WATCH_SEGMENTS)
		return WATCH_SEGMENTS - 1;
	for (unsigned i = 0; i < w->n; i++) {
		a[i] = w->c[i].seg_start;
		b[i] = w->c[i].prev;
	}
	f = consensus(w, a, b, hz);
	if (!is_nan(f)) {
		w->tsc_seg_ppm[k] = (f / w->tsc_hz - 1) * PPM;
		for (unsigned i = 1; i < w->n; i++)
			if (!is_nan(hz[i]))
				w->c[i].seg_ppm[k] = (f / hz[i] - 1) * PPM;
	}
	for (unsigned i = 0; i < w->n; i++)
		w->c[i].seg_start = w->c[i].prev;
	w->segment = k + 1;
	return k;
}

static struct watch_cpu *cpu_slot(struct watch *w, unsigned cpu)
{
	for (unsigned i = 0; i < w->n_cpus; i++)
		if (w->cpus[i].cpu == cpu)
			return &w->cpus[i];
	if (w->n_cpus >= WATCH_MAX_CPUS) {
		w->cpus_dropped++;
		return NULL;
	}
	tp_memset(&w->cpus[w->n_cpus], 0, sizeof w->cpus[0]);
	w->cpus[w->n_cpus].cpu = cpu;
	for (unsigned k = 0; k < WATCH_SEGMENTS; k++) {
		w->cpus[w->n_cpus].offset[k] = NAN_VALUE;
		w->cpus[w->n_cpus].uncertainty[k] = NAN_VALUE;
	}
	return &w->cpus[w->n_cpus++];
}

void watch_cpu_offset(struct watch *w, unsigned cpu, double offset_cycles, double uncertainty_cycles)
{
	struct watch_cpu *c = cpu_slot(w, cpu);
	unsigned k = w->segment < WATCH_SEGMENTS ? w->segment : WATCH_SEGMENTS - 1;
	double last = NAN_VALUE, last_u = 0;

	if (!c)
		return;
	/* A ping-pong whose tightest round trip was long (the CPUs held up)
	 * bounds nothing at this scale: left out, and counted. */
	if (uncertainty_cycles > WATCH_OFFSET_MAX_U_S * w->tsc_hz) {
		c->offsets_loose++;
		return;
	}
	for (unsigned j = 0; j < k; j++)
		if (!is_nan(c->offset[j])) {
			last = c->offset[j];
			last_u = c->uncertainty[j];
		}
	c->offset[k] = offset_cycles;
	c->uncertainty[k] = uncertainty_cycles;
	/* A step between two segments: beyond both measurements' bounds, by
	 * at least as much as a segment's worth of the kernel's 488 ppm. */
	if (!is_nan(last) && absd(offset_cycles - last) > 4 * (uncertainty_cycles + last_u) + 100) {
		double t_s = (double)(int64_t)(w->c[0].prev.tsc - w->c[0].first.tsc) / w->tsc_hz;
		add_step(w, t_s, 0, (offset_cycles - last) / w->tsc_hz, (int)cpu);
	}
}

void watch_cpu_adjust(struct watch *w, unsigned cpu, int64_t tsc_adjust)
{
	struct watch_cpu *c = cpu_slot(w, cpu);

	if (!c)
		return;
	if (!c->adjust_valid) {
		c->adjust_valid = true;
		c->adjust_first = tsc_adjust;
	} else if (tsc_adjust != c->adjust_last) {
		c->adjust_changes++;
	}
	c->adjust_last = tsc_adjust;
}

/* ---- the conclusion ------------------------------------------------------------------ */

/* Least-squares slope of y over the segments' middles, per hour, and its
 * standard error (from the residuals); NaN with fewer than three points. */
static double slope_per_h(const struct watch *w, const double *y, double *se)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0, slope, icept, rss = 0, d;

	*se = NAN_VALUE;
	for (unsigned k = 0; k < WATCH_SEGMENTS; k++) {
		double x = (k + 0.5) * w->segment_s / 3600;
		if (is_nan(y[k]))
			continue;
		sx += x;
		sy += y[k];
		sxx += x * x;
		sxy += x * y[k];
		n++;
	}
	d = n * sxx - sx * sx;
	if (n < 3 || d <= 0)
		return NAN_VALUE;
	slope = (n * sxy - sx * sy) / d;
	icept = (sy - slope * sx) / n;
	for (unsigned k = 0; k < WATCH_SEGMENTS; k++) {
		double x = (k + 0.5) * w->segment_s / 3600, r;
		if (is_nan(y[k]))
			continue;
		r = y[k] - icept - slope * x;
		rss += r * r;
	}
	*se = __builtin_sqrt(rss / (n - 2) * n / d);
	return slope;
}

static double first_last_change(const double *y)
{
	double first = NAN_VALUE, last = NAN_VALUE;

	for (unsigned k = 0; k < WATCH_SEGMENTS; k++)
		if (!is_nan(y[k])) {
			if (is_nan(first))
				first = y[k];
			last = y[k];
		}
	return last - first;
}

static void whole_rates(const struct watch *w, struct watch_verdict *v)
{
	struct watch_read a[WATCH_MAX_CLOCKS] = { 0 }, b[WATCH_MAX_CLOCKS] = { 0 };
	double hz[WATCH_MAX_CLOCKS], us[WATCH_MAX_CLOCKS], own[WATCH_MAX_CLOCKS] = { 0 }, span_s;
	unsigned nu = 0;

	for (unsigned i = 0; i < w->n; i++) {
		a[i] = w->c[i].first;
		b[i] = w->c[i].prev;
	}
	v->consensus_hz = consensus(w, a, b, hz);
	span_s = (double)(int64_t)(b[0].tsc - a[0].tsc) / v->consensus_hz;
	for (unsigned i = 1; i < w->n; i++)
		own[i] = 1.4142135623730951 * watch_sigma_s(w, i) / WATCH_INTERVAL_S * PPM;
	for (unsigned i = 1; i < w->n; i++) {
		const struct watch_clock *c = &w->c[i];
		double sig = watch_sigma_s(w, i), mean = c->d_n ? c->d_sum / (double)c->d_n : 0, noise, rest[WATCH_MAX_CLOCKS];
		double rest_u;
		unsigned nr = 0;
		for (unsigned j = 1; j < w->n; j++)
			if (j != i)
				rest[nr++] = own[j];
		v->sigma_ns[i] = sig * 1e9;
		v->rate_ppm[i] = is_nan(hz[i]) ? NAN_VALUE : (v->consensus_hz / hz[i] - 1) * PPM;
		/* Its own reads' limit, and the consensus's it is measured
		 * against (the median of the others': about one of theirs). */
		rest_u = nr ? watch_median(rest, nr) : 0;
		v->window_u_ppm[i] = __builtin_sqrt(own[i] * own[i] + rest_u * rest_u);
		v->window_sd_ppm[i] = c->d_n > 1 ? __builtin_sqrt((c->d2_sum - c->d_sum * mean) / (double)(c->d_n - 1))
						 : NAN_VALUE;
		/* The reads' own limit, unless the windows scattered more than it
		 * allows: then what they showed (a read is off by more than its
		 * bracket when the clock's device model lags it, as under TCG). */
		noise = v->window_sd_ppm[i] > v->window_u_ppm[i] ? v->window_sd_ppm[i] : v->window_u_ppm[i];
		v->u_ppm[i] = span_s > 0 ? noise * WATCH_INTERVAL_S / span_s : NAN_VALUE;
		v->drift_ppm_per_h[i] = slope_per_h(w, c->seg_ppm, &v->drift_u_ppm_per_h[i]);
		v->change_ppm[i] = first_last_change(c->seg_ppm);
		if (!is_nan(v->u_ppm[i]))
			us[nu++] = v->u_ppm[i];
	}
	/* The TSC against the kernel's view of it, its boot calibration. */
	v->rate_ppm[0] = (v->consensus_hz / w->tsc_hz - 1) * PPM;
	v->u_ppm[0] = watch_median(us, nu);
	v->window_u_ppm[0] = v->u_ppm[0] * span_s / WATCH_INTERVAL_S;
	/* Against the boot calibration, whose own error counts too. */
	v->u_ppm[0] = __builtin_sqrt(v->u_ppm[0] * v->u_ppm[0] + w->tsc_hz_err_ppm * w->tsc_hz_err_ppm);
	v->sigma_ns[0] = watch_sigma_s(w, 0) * 1e9;
	v->window_sd_ppm[0] = NAN_VALUE;
	v->drift_ppm_per_h[0] = slope_per_h(w, w->tsc_seg_ppm, &v->drift_u_ppm_per_h[0]);
	v->change_ppm[0] = first_last_change(w->tsc_seg_ppm);
}

/* The counter furthest from the rest, when the rest agree and it does not,
 * beyond its uncertainty and a crystal's tolerance. */
static void attribute(const struct watch *w, struct watch_verdict *v)
{
	unsigned counters = w->n > 0 ? w->n - 1 : 0;
	double best = 0;

	v->odd = -1;
	v->attributable = counters >= 3;
	for (unsigned i = 1; i < w->n && v->attributable; i++) {
		double rest[WATCH_MAX_CLOCKS], lo = 1e300, hi = -1e300, center, u_rest = 0, off;
		unsigned n = 0;
		for (unsigned j = 1; j < w->n; j++) {
			if (j == i || is_nan(v->rate_ppm[j]))
				continue;
			rest[n++] = v->rate_ppm[j];
			lo = v->rate_ppm[j] < lo ? v->rate_ppm[j] : lo;
			hi = v->rate_ppm[j] > hi ? v->rate_ppm[j] : hi;
			u_rest = v->u_ppm[j] > u_rest ? v->u_ppm[j] : u_rest;
		}
		if (n < 2 || is_nan(v->rate_ppm[i]))
			continue;
		center = watch_median(rest, n);
		off = v->rate_ppm[i] - center;
		if (absd(off) <= WATCH_AGREE_SIGMAS * (v->u_ppm[i] + u_rest) || absd(off) <= WATCH_TOLERANCE_PPM)
			continue;
		if (hi - lo > WATCH_AGREE_SIGMAS * 2 * u_rest && hi - lo > absd(off) / 10)
			continue; /* the rest do not agree among themselves either */
		if (absd(off) > best) {
			best = absd(off);
			v->odd = (int)i;
			v->odd_ppm = off;
			v->rest_spread_ppm = hi - lo;
		}
	}
}

void watch_conclude(const struct watch *w, struct watch_verdict *v)
{
	tp_memset(v, 0, sizeof *v);
	v->odd = -1;
	for (unsigned i = 0; i < w->n_cpus; i++)
		v->cpu_slope_cycles_per_h[i] = slope_per_h(w, w->cpus[i].offset, &v->cpu_slope_u[i]);
	if (!w->started || w->n < 2) {
		v->consensus_hz = NAN_VALUE;
		return;
	}
	whole_rates(w, v);
	attribute(w, v);
}
