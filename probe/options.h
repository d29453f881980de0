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

enum options_after { OPT_AFTER_HALT = 0, OPT_AFTER_REBOOT, OPT_AFTER_POWEROFF };
/* "halt", "reboot", "poweroff". */
const char *options_after_name(enum options_after a);

struct options {
	char preset[PRESET_NAME_MAX];
	uint32_t samples;     /* reads per counter, over all rounds */
	uint32_t rounds;
	uint32_t raw_samples; /* raw per-read costs to emit per counter (verbose) */
	uint32_t calib_ms;    /* length of each frequency measurement window */
	uint16_t serial_port; /* 0: no serial output */
	uint32_t baud;
	int n_counters;       /* 0: all */
	char counters[OPT_MAX_COUNTERS][16];
	char fault[8];        /* "gp", "pf", "ap-gp", "ap-hang", "ap-deaf": a CPU exception, a hung CPU, one that never wakes (tests) */
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
bool options_wants_counter(const struct options *o, const char *name);
/* cpus=: whether CPU index i (the `cpus` record's order) is to take part. */
bool options_wants_cpu(const struct options *o, unsigned i);

#endif
