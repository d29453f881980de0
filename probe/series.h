/* SPDX-License-Identifier: BSD-2-Clause */
/* A series of boots (runs=N): the small text file that carries the count
 * from one boot to the next (UEFI: \tickprobe\series on the log volume,
 * boot/efi_after.c), parsed and written here, platform-free.
 *
 *	# tickprobe: a series of boots (runs=N); delete this file to forget it
 *	id=0000-20261201T195331
 *	of=3
 *	ended=1
 *	state=between
 *
 * state: `running` (boot ended+1 has started and not ended), `between` (boot
 * ended+1 is next), `done`, or `stopped` (why= says why).  A boot that finds
 * `running` knows the one before it never reached its end (a hang, a reset,
 * a power cut): the series stops there instead of going round again. */
#ifndef PROBE_SERIES_H
#define PROBE_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#define SERIES_FILE_MAX 1024
#define SERIES_ID_MAX 32
#define SERIES_WHY_MAX 160

enum series_state { SERIES_RUNNING, SERIES_BETWEEN, SERIES_DONE, SERIES_STOPPED };

struct series_file {
	char id[SERIES_ID_MAX];
	unsigned of, ended;
	enum series_state state;
	char why[SERIES_WHY_MAX];
};

/* False, with why, for a file that is not one (then it is ignored). */
bool series_parse(const char *text, size_t len, struct series_file *s, char *why, size_t cap);
/* The file's text; its length (cut to cap - 1). */
size_t series_format(const struct series_file *s, char *out, size_t cap);

/* What this boot is, from the file found (NULL: none or ignored) and
 * runs=N: sets *index (1..of; 0: no series this boot) and *now, the file
 * to write before the run (false: write nothing).  new_id names a new
 * series.  *problem (cap bytes) says why runs=N gives no series, or "". */
bool series_begin(const struct series_file *old, unsigned runs, const char *new_id, struct series_file *now,
		  unsigned *index, char *problem, size_t cap);

/* The file after boot index ended: state "continues", "done" or "stopped"
 * (with why). */
void series_finish(struct series_file *s, unsigned index, const char *state, const char *why);

#endif
