/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe os's options (tools/os/cmd_os.c), and the begin record that
 * states them. */
#ifndef TOOLS_OS_OPTIONS_H
#define TOOLS_OS_OPTIONS_H

#include <stdbool.h>
#include "probe/log.h"
#include "tools/os/bench.h"
#include "tools/os/clocksource.h"
#include "tools/os/run.h"
#include "tools/os/threads.h"

struct os_opts {
	struct os_params p;
	struct os_cpus cpus;   /* allowed before this process pins itself */
	bool do_switch, raw_io, quick, quiet;
	bool restore;          /* --restore: only put back what a killed switcher left */
	bool lock_wait_given;
	int others;            /* options given that --restore does not take */
	double lock_wait;      /* --lock-wait: seconds to wait for another switcher */
	const char *only;      /* --clocksource */
	const char *root;      /* --sysfs-root */
	const char *out;       /* -o */
	int cal_ms, freq_ms;
	uint32_t watch_s;      /* --watch: the live watch instead of the measurements */
	const char *watch_fake; /* --watch-fake (tests) */
	const char *prometheus; /* --prometheus FILE */
};

/* -1 to go on and measure, or the exit status to stop with (after --help,
 * or a usage error said). */
int os_options_parse(int argc, char **argv, struct os_opts *o);

/* The begin record: the command line, the kernel, the clocksources, the
 * options; todo: the ntodo clocksources to be measured, cpu: the one pinned. */
void os_write_begin(struct log *l, int argc, char **argv, const struct os_opts *o,
		    const struct os_clocksources *cs, char (*todo)[OS_CS_NAME], int ntodo, int cpu);

#endif
