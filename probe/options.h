/* SPDX-License-Identifier: BSD-2-Clause */
/* Boot options: "name=value" words from the multiboot command line, the EFI
 * load options or a menu entry.  A bad option is reported, its default kept,
 * and the run goes on: an unattended boot must never stop at a typo.
 *
 * preset=NAME stands for the option words of NAME in image/presets.cfg: the
 * build compiles that file into a table here (build/gen/presets_table.h,
 * written by build/mkgrubcfg), so a preset means the same on every path. */
#ifndef PROBE_OPTIONS_H
#define PROBE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "probe/presets.h"
#include "probe/team.h"

#define OPT_MAX_PROBLEMS 8
#define OPT_MAX_COUNTERS 16
#define OPT_MAX_RUNS 999u    /* runs=: \tickprobe\logs holds 10,000 names */
#define OPT_MAX_AFTER_S 3600u
#define OPT_MAX_WATCH_S (24u * 3600u)
#define OPT_MAX_DRIFT_PPM 1000000
#define OPT_MAX_SLOW_SPINS 100000u

enum options_after { OPT_AFTER_HALT = 0, OPT_AFTER_REBOOT, OPT_AFTER_POWEROFF };
/* net=auto: the boot server at http://SERVER:8514/log when the image was
 * network-booted and it answers the hello, else nothing. */
enum options_net { OPT_NET_AUTO = 0, OPT_NET_NONE, OPT_NET_HTTP, OPT_NET_SYSLOG };
#define OPT_NET_PATH_MAX 48
#define OPT_NET_URL_MAX 96
#define OPT_NET_TOKEN_MAX 64
#define OPT_NET_DROP_MAX 1000000u
#define OPT_NET_AUTO_PORT 8514
#define OPT_NET_AUTO_PATH "/log"
/* "halt", "reboot", "poweroff". */
const char *options_after_name(enum options_after a);

struct options {
	char preset[PRESET_NAME_MAX];
	uint32_t samples;     /* reads per counter, over all rounds */
	uint32_t rounds;
	uint32_t raw_samples; /* raw per-read costs to emit per counter (verbose) */
	uint32_t calib_ms;    /* length of each frequency measurement window */
	bool slow_rates_off;  /* slow_rates=off: the 1 Hz counters' rates are not timed */
	uint16_t serial_port; /* 0: no serial output */
	uint32_t baud;
	int n_counters;       /* 0: all */
	char counters[OPT_MAX_COUNTERS][16];
	char fault[8];        /* "gp", "pf", "ap-gp", "ap-hang", "ap-deaf": a CPU exception, a hung CPU, one that never wakes
	                       * (tests); the watch's faults are below */
	char stuck[16];       /* a counter whose reads are replaced by a constant (tests) */
	bool log_to_file;     /* log=file (the default): save the records on the boot volume (UEFI); log=none */
	int n_problems;
	char problems[OPT_MAX_PROBLEMS][96];

	/* The other CPUs (arch/x86/smp.c) and the multi-CPU measurements. CPU
	 * indices are those of the `cpus` record: the boot CPU is 0. */
	bool smp_off;                         /* smp=off: the boot CPU only */
	uint16_t cpus_first;                  /* cpus=N: the first N CPUs (0: all, or the list) */
	bool cpus_listed;                     /* cpus=LIST: the indices in cpus_list */
	uint8_t cpus_list[TEAM_MAX_CPUS / 8]; /* bit i: CPU index i */
	bool ghost_cpu_set;                   /* ghost_cpu=APICID: a CPU the machine lacks (tests) */
	uint32_t ghost_cpu;
	char tsc_sync[8];                     /* tsc_sync=: "matrix" (every pair, the default) or "bsp" */
	bool tsc_skew_set;                    /* tsc_skew=CPU:CYCLES: a skew to pretend (tests) */
	uint16_t tsc_skew_cpu;
	int64_t tsc_skew_cycles;
	uint32_t latency_s;                   /* latency=SECONDS: the latency scan, 0..3600 (0: none) */

	/* What follows the run (probe/run_after.c) and a series of boots (UEFI). */
	enum options_after after;             /* after=halt (the default), reboot or poweroff */
	uint32_t after_s;                     /* after_s=N: a countdown of N s a key cancels (0..3600) */
	uint32_t runs;                        /* runs=N: N boots in a row (UEFI; 1..999, 1: one boot) */

	/* Sending the records over the network (UEFI, boot/efi_net.c; options_net.c). */
	enum options_net net;                 /* net=: auto (the default), none, http://..., syslog://... */
	bool net_given;                       /* a net= word other than none was given */
	uint8_t net_ip[4];                    /* http and syslog: the collector's IPv4 address */
	uint16_t net_port;                    /* http: 80 unless given; syslog: 514 unless given */
	char net_path[OPT_NET_PATH_MAX];      /* http: the request path ("/log"); syslog: "" */
	char net_url[OPT_NET_URL_MAX];        /* http and syslog: the URL, normalised */
	char net_token[OPT_NET_TOKEN_MAX + 1]; /* net_token=: "" for none */
	uint32_t net_drop;                    /* net_drop=K: syslog drops every K-th datagram at first (tests) */

	/* The watch (probe/run_watch.c; options_watch.c). */
	uint32_t watch_s;                     /* watch=DURATION: seconds, 0..OPT_MAX_WATCH_S (0: none) */
	char drift_clock[16];                 /* fault=drift:CLOCK:PPM: the watch sees CLOCK run PPM off (tests) */
	int32_t drift_ppm;
	bool step_set;                        /* fault=tsc_step:CPU:CYCLES: CPU's TSC steps mid-watch (tests) */
	char slow_counter[16];                /* fault=slow:COUNTER:N: N pauses added to each of its reads (tests) */
	uint32_t slow_spins;
	uint16_t step_cpu;
	int64_t step_cycles;
	bool step_at_event;                   /* fault=tsc_step:CPU:CYCLES@event: at the first VM event, not mid-watch */
	uint16_t events_port;                 /* events=PORT: the UART the host announces VM events on (0: none) */
};

/* A preset: its name and the option words it stands for. */
struct options_preset {
	const char *name, *options;
};

/* The built-in values, then the words of the preset named by the last
 * preset= word ("default" when none), then every other word in order. */
void options_parse(struct options *o, const char *cmdline);

/* options_parse with a table of presets other than presets.cfg's (tests). */
void options_parse_with(struct options *o, const char *cmdline, const struct options_preset *table, int n);

/* The command line a menu entry boots for preset p (from presets.cfg; NULL
 * for none), followed by more (tp_options; NULL or "" for none):
 * "preset=NAME" when this build has that preset with the same words, so the
 * log names it, else the entry's own words (a preset added or changed in an
 * installed copy of presets.cfg).  Into out, always terminated; false if it
 * had to be cut. */
bool options_menu_cmdline(const struct preset *p, const char *more, char *out, size_t cap);
/* net=, net_token=, net_drop= (probe/options_net.c); false when key is
 * none of them.  from: as for the problems of options.c. */
bool options_net_option(struct options *o, const char *from, const char *key, const char *val);
/* watch= and the watch's faults, fault=drift:… and fault=tsc_step:…
 * (probe/options_watch.c); false when key and val are none of them. */
bool options_watch_option(struct options *o, const char *from, const char *key, const char *val);
/* A watch's length: "90", "90s", "10m", "2h", up to OPT_MAX_WATCH_S seconds. */
bool options_duration(const char *s, uint32_t *out);
/* A problem with an option, "preset NAME: " first when in_preset names one. */
void options_problem(struct options *o, const char *in_preset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* tickprobe.cfg (the boot server's option words, boot/efi_net.c) as one
 * command line: '#' to the line's end is a comment, every run of blanks and
 * line ends becomes one space.  Into out, always terminated; false if it had
 * to be cut (then out holds the whole words that fit). */
bool options_cfg_cmdline(const char *text, size_t n, char *out, size_t cap);

/* The command line as the begin record shows it: each net_token=SECRET word
 * as OPT_NET_TOKEN_SHOWN, since logs are passed around and stored and the
 * token is what keeps strangers' records out of a collector; everything
 * else as it is.  Into out, always terminated; false if it had to be cut. */
#define OPT_NET_TOKEN_SHOWN "net_token=(hidden)"
bool options_cmdline_shown(const char *cmdline, char *out, size_t cap);

bool options_wants_counter(const struct options *o, const char *name);
/* cpus=: whether CPU index i (the `cpus` record's order) is to take part. */
bool options_wants_cpu(const struct options *o, unsigned i);

#endif
