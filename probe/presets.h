/* SPDX-License-Identifier: BSD-2-Clause */
/* The boot presets: image/presets.cfg ("NAME: OPTIONS" lines and
 * "timeout: SECONDS", the format is described at the top of that file) and the
 * GRUB environment block tickprobe.env (tp_preset, tp_timeout, tp_options).
 *
 * One parser for every reader: build/mkgrubcfg (the GRUB menu and the table
 * of presets compiled into probe/options.c), the UEFI app's menu and
 * `tickprobe qemu --preset`.  Plain C on byte buffers, no libc.
 *
 * A bad line is skipped with a problem naming its line and why; every good
 * line around it is kept. */
#ifndef PROBE_PRESETS_H
#define PROBE_PRESETS_H

#include <stddef.h>

#define PRESETS_MAX 12             /* menu rows: 12 fit an 80x25 console with the header and countdown */
#define PRESET_NAME_MAX 24         /* with the NUL: names of 1 to 23 characters */
#define PRESET_OPTIONS_MAX 201     /* with the NUL: options of up to 200 characters */
#define PRESETS_ENV_OPTIONS_MAX 512 /* tp_options: a whole 512-byte block fits */
#define PRESETS_TIMEOUT_DEFAULT 5  /* seconds, when no file names one */
#define PRESETS_TIMEOUT_MAX 3600
#define PRESETS_MAX_PROBLEMS 8
#define PRESETS_FILE_MAX (16 * 1024) /* the most of presets.cfg the UEFI app reads */
#define PRESETS_PROBLEM_MAX 128

struct preset {
	char name[PRESET_NAME_MAX];
	char options[PRESET_OPTIONS_MAX]; /* words separated by one space each */
	int line;                         /* where in presets.cfg (from 1) */
};

struct presets_problem {
	const char *file; /* "presets.cfg" or "tickprobe.env" */
	int line;         /* from 1; 0 for the file as a whole */
	char text[PRESETS_PROBLEM_MAX];
};

struct presets {
	struct preset preset[PRESETS_MAX]; /* in the file's order */
	int count;
	int timeout;      /* presets.cfg's, else PRESETS_TIMEOUT_DEFAULT */
	int timeout_line; /* 0: none given */
	/* tickprobe.env */
	char env_preset[PRESET_NAME_MAX];       /* tp_preset, "" when empty */
	int env_timeout;                        /* tp_timeout, -1 when empty */
	char env_options[PRESETS_ENV_OPTIONS_MAX]; /* tp_options */
	int n_problems;      /* kept in problems[], at most PRESETS_MAX_PROBLEMS */
	int problems_beyond; /* how many more there were */
	struct presets_problem problems[PRESETS_MAX_PROBLEMS];
};

/* No presets, the default timeout, an empty environment. */
void presets_init(struct presets *p);

/* presets.cfg: adds its presets and timeout.  LF or CRLF line ends. */
void presets_parse(struct presets *p, const char *text, size_t n);

/* tickprobe.env, after presets.cfg (a tp_preset naming no preset is reported
 * then).  Variables other than tp_* are GRUB's own and left alone. */
void presets_parse_env(struct presets *p, const char *text, size_t n);

/* Index of the preset called name, or -1. */
int presets_find(const struct presets *p, const char *name);

/* The menu's wait in seconds: tp_timeout if set, else presets.cfg's. */
int presets_timeout(const struct presets *p);

/* Index of the preset booted when nobody chooses: tp_preset if it names one,
 * else "default", else the first; -1 when there are none. */
int presets_default(const struct presets *p);

#endif
