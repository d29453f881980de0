/* Boot options: "name=value" words from the multiboot command line, the EFI
 * load options or the ESP config file.  A bad option is reported, its default
 * kept, and the run goes on: an unattended boot must never stop at a typo. */
#ifndef PROBE_OPTIONS_H
#define PROBE_OPTIONS_H

#include <stdint.h>
#include <stdbool.h>

#define OPT_MAX_PROBLEMS 8
#define OPT_MAX_COUNTERS 16

struct options {
	char preset[16];
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
	int n_problems;
	char problems[OPT_MAX_PROBLEMS][96];
};

/* Defaults of the preset named by any preset= word, then every other word. */
void options_parse(struct options *o, const char *cmdline);
bool options_wants_counter(const struct options *o, const char *name);

#endif
