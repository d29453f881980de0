/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: boot options (probe/options.c) on hostile command lines.
 *
 * Input: the command line (NUL-terminated here; an embedded NUL ends it
 * early, as it would in the firmware's string).  Every bound the caller
 * relies on is checked after parsing: the counts within their arrays, every
 * string terminated within its field. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "probe/options.h"

static void terminated(const char *s, size_t cap)
{
	if (!memchr(s, 0, cap))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "tsc", "hpet", "acpi_pm", "pit", "rdtscp",
					     "", "TSC", "hpet2" };
	struct options o;
	char *line = malloc(size + 1);

	memcpy(line, data, size);
	line[size] = 0;
	memset(&o, 0xa5, sizeof o); /* whatever was on the stack */
	options_parse(&o, line);
	/* tickprobe.cfg: the same bytes as a file, its length given (NULs and all). */
	{
		char cfg[64];
		options_cfg_cmdline((const char *)data, size, cfg, sizeof cfg);
		terminated(cfg, sizeof cfg);
	}
	terminated(o.preset, sizeof o.preset);
	terminated(o.fault, sizeof o.fault);
	terminated(o.stuck, sizeof o.stuck);
	terminated(o.net_path, sizeof o.net_path);
	terminated(o.net_url, sizeof o.net_url);
	terminated(o.net_token, sizeof o.net_token);
	if (o.net != OPT_NET_AUTO && o.net != OPT_NET_NONE && o.net != OPT_NET_HTTP && o.net != OPT_NET_SYSLOG)
		abort();
	if ((o.net == OPT_NET_HTTP || o.net == OPT_NET_SYSLOG) && (!o.net_port || !o.net_url[0]))
		abort();
	if (o.net_drop > OPT_NET_DROP_MAX)
		abort();
	if (o.n_counters < 0 || o.n_counters > OPT_MAX_COUNTERS)
		abort();
	for (int i = 0; i < o.n_counters; i++)
		terminated(o.counters[i], sizeof o.counters[i]);
	if (o.n_problems < 0 || o.n_problems > OPT_MAX_PROBLEMS)
		abort();
	for (int i = 0; i < o.n_problems; i++)
		terminated(o.problems[i], sizeof o.problems[i]);
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		(void)options_wants_counter(&o, names[i]);
	/* A counter name taken from the line itself, as the probe asks. */
	if (size && size < 32)
		(void)options_wants_counter(&o, line);
	free(line);
	return 0;
}
