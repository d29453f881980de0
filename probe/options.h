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

#define OPT_MAX_PROBLEMS 8
#define OPT_MAX_COUNTERS 16

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
	char fault[8];        /* "gp" or "pf": raise a CPU exception mid-run (tests) */
	char stuck[16];       /* a counter whose reads are replaced by a constant (tests) */
	bool log_to_file;     /* log=file (the default): save the records on the boot volume (UEFI); log=none */
	int n_problems;
	char problems[OPT_MAX_PROBLEMS][96];
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

#endif
