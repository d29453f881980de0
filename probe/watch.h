/* SPDX-License-Identifier: BSD-2-Clause */
/* The watch: every clock weighed against the others over minutes to hours,
 * to say which one is wrong.
 *
 * Linux's clocksource watchdog compares two clocks every 0.5 s and, when
 * they disagree, blames the one under test (the TSC) whichever of the two
 * moved.  With three or more independent clocks the one that disagrees with
 * the rest can be named.  The watch samples every clock at a steady cadence
 * (WATCH_INTERVAL_S), each read bracketed tightly by the TSC, and:
 *
 *  - in every 0.5 s window, times the TSC against each counter: the TSC's
 *    frequency as that counter sees it.  Their median is the consensus;
 *    each counter's rate against it (ppm, positive: fast) has the
 *    uncertainty its reads set, sqrt(2)·sigma/T for a window of T seconds,
 *    sigma the jitter of one bracketed read (width/sqrt(12): the caller
 *    reads a counter at the edge of a tick, so the bracket is the time
 *    between the read before the edge and the read after it; a caller
 *    that cannot gives the tick too, and it adds tick/sqrt(12));
 *  - finds steps: a window in which one counter moved by more than its
 *    rate explains (a jump, or a step backwards), or in which every counter
 *    saw the TSC move by the same amount (the TSC stepped);
 *  - applies Linux's watchdog rules to each window, as the kernels of each
 *    era state them (probe/watch_linux.c);
 *  - over the whole watch, fits each counter's rate and its change
 *    (drift, ppm per hour), and the TSC's own rate against the consensus
 *    and its change, and names the clock that disagrees with the rest.
 *
 * Other CPUs: their TSC offsets from the boot CPU are measured once per
 * segment (the watch has WATCH_SEGMENTS, whatever its length) by the
 * caller (the ping-pong of probe/tsc_sync.h) and handed in: the model keeps
 * the series and fits each CPU's slope.
 *
 * Plain C, no hardware: the image's loop (probe/run_watch.c) and the live
 * watch on Linux (tools/os) feed it samples; the host unit tests feed it
 * simulated clocks. */
#ifndef PROBE_WATCH_H
#define PROBE_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#define WATCH_MAX_CLOCKS 6   /* the TSC and the counters that can time it */
#define WATCH_SEGMENTS 32u   /* the series a watch keeps, whatever its length */
#define WATCH_MAX_CPUS 64    /* CPUs whose offsets the series keeps */
#define WATCH_MAX_STEPS 8    /* steps kept; more are counted */
#define WATCH_INTERVAL_S 0.5 /* Linux's watchdog interval */
#define WATCH_NAME 16
/* A counter is named as the one that is wrong when it is off the rest by
 * more than this many times the two uncertainties, and by more than a
 * crystal's tolerance: real oscillators differ by tens of ppm, which is no
 * fault (Linux's own threshold is about 500 ppm). */
#define WATCH_AGREE_SIGMAS 5.0
#define WATCH_TOLERANCE_PPM 100.0
/* A CPU's offset measured with a round trip's half over this is left out. */
#define WATCH_OFFSET_MAX_U_S 10e-6

/* One look at one clock: its count (unwrapped by the caller, and with any
 * test fault applied), the TSC at the middle of the read's bracket, and the
 * bracket's width in TSC cycles.  For the TSC itself, count is the TSC. */
struct watch_read {
	double count;
	uint64_t tsc;
	uint64_t width;
};

struct watch_clock {
	char name[WATCH_NAME];
	double nominal_hz;   /* counts per second; 0 for the TSC */
	double tick_s;       /* one count: the read's quantisation */
	/* What the model keeps of it. */
	struct watch_read first, prev, seg_start;
	double width2_sum;   /* bracket widths squared, cycles^2, for sigma */
	uint64_t reads;
	double d_sum, d2_sum;           /* per-window rates against the consensus, ppm */
	uint64_t d_n;
	double d_worst;                 /* the largest |rate| of any window, signed */
	double seg_ppm[WATCH_SEGMENTS]; /* rate over each segment; NaN: not measured */
	unsigned steps;
};

struct watch_step {
	double t_s;    /* since the watch began */
	int clock;     /* index into clocks; 0: the TSC */
	double step_s; /* how far it moved beyond its rate (negative: backwards) */
	int cpu;       /* for a TSC offset step on another CPU; -1 otherwise */
};

/* Linux's watchdog, each era's rule, applied to every window with
 * `reference` as its watchdog clock. */
struct watch_linux_era {
	uint64_t windows_unstable; /* windows in which the rule marks the TSC unstable */
	uint64_t timeouts;         /* windows whose reference readout was over the era's bound */
	double first_t_s;          /* the first such window's end; < 0: none */
	double worst_skew_ns;      /* the largest skew any window showed */
};

enum watch_era { WATCH_LINUX_4_19, WATCH_LINUX_5_14, WATCH_LINUX_6_1, WATCH_LINUX_2026, WATCH_ERAS };

struct watch_cpu {
	unsigned cpu;                    /* as in the cpus record */
	double offset[WATCH_SEGMENTS];   /* cycles, its TSC minus the boot CPU's; NaN: not measured */
	double uncertainty[WATCH_SEGMENTS];
	bool adjust_valid;
	int64_t adjust_first, adjust_last;
	unsigned adjust_changes;
	unsigned offsets_loose;          /* segments whose ping-pong bounded its offset too loosely */
};

/* What the watch concludes over its whole length. */
struct watch_verdict {
	double rate_ppm[WATCH_MAX_CLOCKS];  /* against the consensus; the TSC's against its boot calibration */
	double u_ppm[WATCH_MAX_CLOCKS];     /* its uncertainty, sqrt(2)·sigma/T, or what the windows
	                                     * showed when they scattered more */
	double window_u_ppm[WATCH_MAX_CLOCKS]; /* one 0.5 s window's: its reads' and the consensus's */
	double window_sd_ppm[WATCH_MAX_CLOCKS]; /* the windows' observed scatter */
	double sigma_ns[WATCH_MAX_CLOCKS];  /* one bracketed read's jitter */
	double drift_ppm_per_h[WATCH_MAX_CLOCKS]; /* the segments' slope; NaN: too few */
	double drift_u_ppm_per_h[WATCH_MAX_CLOCKS]; /* its standard error */
	double change_ppm[WATCH_MAX_CLOCKS];      /* last segment minus first */
	double consensus_hz;                /* the TSC's frequency by the consensus, whole watch */
	int odd;                            /* the clock that disagrees with the rest; -1 none */
	double odd_ppm;                     /* by how much, against the rest */
	double rest_spread_ppm;             /* how closely the rest agree */
	bool attributable;                  /* three or more clocks: one can be named */
	double cpu_slope_cycles_per_h[WATCH_MAX_CPUS]; /* NaN: too few offsets */
	double cpu_slope_u[WATCH_MAX_CPUS];            /* its standard error */
};

struct watch {
	unsigned n;                       /* clocks; [0] is the TSC */
	struct watch_clock c[WATCH_MAX_CLOCKS];
	double tsc_hz;                    /* the boot calibration: the kernel's view */
	double tsc_hz_err_ppm;            /* its uncertainty (0: none known) */
	int reference;                    /* Linux's watchdog clock (index), -1: none */
	double duration_s;
	double segment_s;
	unsigned segment;                 /* the segment being filled */
	uint64_t windows;
	uint64_t windows_unjudged;        /* too long or short for Linux's rules (a late sample) */
	double hz_ref;                    /* the last window's consensus without a step */
	double hz_ref_sum;                /* every such window's: their mean is the TSC's */
	uint64_t hz_ref_n;                /* rate as the clocks' mean rates are theirs */
	double tsc_seg_ppm[WATCH_SEGMENTS]; /* the TSC's rate by the consensus, each segment */
	struct watch_step steps[WATCH_MAX_STEPS];
	unsigned n_steps, steps_dropped;
	struct watch_linux_era era[WATCH_ERAS];
	uint64_t smi_total, smi_window_max, smi_last; /* MSR_SMI_COUNT: over the watch, most in one window */
	bool smi_valid;
	unsigned n_cpus;                  /* CPUs besides the boot CPU, up to WATCH_MAX_CPUS */
	struct watch_cpu cpus[WATCH_MAX_CPUS];
	unsigned cpus_dropped;            /* beyond WATCH_MAX_CPUS */
	bool started;
};

/* A watch of duration_s over the clocks added next; tsc_hz: the boot
 * calibration (> 0); set tsc_hz_err_ppm after, when known. */
void watch_init(struct watch *w, double tsc_hz, double duration_s);
/* Clock 0 must be the TSC (nominal 0); returns its index, or -1 when full. */
int watch_add_clock(struct watch *w, const char *name, double nominal_hz, double tick_s);
/* The first look at every clock, then one every WATCH_INTERVAL_S: r[i] for
 * clock i. */
void watch_sample(struct watch *w, const struct watch_read *r);
/* SMI count (MSR 0x34) at a sample; call after watch_sample. */
void watch_smi(struct watch *w, uint64_t count);
/* The segment ended: seconds since the first sample, the CPUs' offsets
 * (may be none).  Returns the segment's index; the next one begins. */
unsigned watch_segment_end(struct watch *w, double t_s);
/* One CPU's offset from the boot CPU in the segment being filled. */
void watch_cpu_offset(struct watch *w, unsigned cpu, double offset_cycles, double uncertainty_cycles);
void watch_cpu_adjust(struct watch *w, unsigned cpu, int64_t tsc_adjust);
/* The whole watch's conclusions. */
void watch_conclude(const struct watch *w, struct watch_verdict *v);
/* "the HPET runs 7,900 ppm slow against the TSC, the PM timer and the PIT,
 * which agree within 0.2 ppm", or what can be said instead. */
void watch_attribution_text(const struct watch *w, const struct watch_verdict *v, char *buf, unsigned cap);

/* One read of clock i: its jitter in seconds, the bracket's and the tick's
 * (each uniform) over the reads so far. */
double watch_sigma_s(const struct watch *w, unsigned i);
/* The median of v[0..n) (n <= WATCH_MAX_CLOCKS), v left sorted; NaN for none. */
double watch_median(double *v, unsigned n);

/* probe/watch_linux.c: the rules, for the records and the docs. */
const char *watch_era_name(enum watch_era e);
const char *watch_era_rule(enum watch_era e);
/* One window against the era's rule: skew_ns between the TSC (by its boot
 * calibration) and the reference over ref_ns, the reference's readout time
 * readout_ns.  Returns 1: unstable, 2: readout timed out (no verdict), 0: fine. */
int watch_era_judge(enum watch_era e, double skew_ns, double ref_ns, double readout_ns);

#endif
