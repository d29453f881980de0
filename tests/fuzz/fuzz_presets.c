/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: presets.cfg and tickprobe.env (probe/presets.c), as a
 * USB stick's ESP may hold them after any edit.
 *
 * Input: a mode byte, then presets.cfg; with the mode's bit 0 set, the bytes
 * after the first NUL are tickprobe.env.  Checked after parsing: every count
 * within its array, every string terminated within its field and in its
 * alphabet, the default and the wait in range, and the presets written back
 * as a file parse again to the same presets with no problem but the one a
 * missing "default" gives. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "probe/options.h"
#include "probe/presets.h"

static void terminated(const char *s, size_t cap)
{
	if (!memchr(s, 0, cap))
		abort();
}

static void in_alphabet(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      strchr(extra, *s)))
			abort();
}

static void check(const struct presets *p)
{
	if (p->count < 0 || p->count > PRESETS_MAX || p->n_problems < 0 || p->n_problems > PRESETS_MAX_PROBLEMS ||
	    p->problems_beyond < 0 || (p->problems_beyond && p->n_problems != PRESETS_MAX_PROBLEMS))
		abort();
	for (int i = 0; i < p->count; i++) {
		const struct preset *e = &p->preset[i];
		terminated(e->name, sizeof e->name);
		terminated(e->options, sizeof e->options);
		if (!e->name[0] || !strcmp(e->name, "timeout") || e->line < 1 || presets_find(p, e->name) != i)
			abort();
		in_alphabet(e->name, "-_");
		in_alphabet(e->options, "-_=,.:/+ ");
		if (strstr(e->options, "  ") || e->options[0] == ' ' ||
		    (e->options[0] && e->options[strlen(e->options) - 1] == ' '))
			abort();
	}
	for (int i = 0; i < p->n_problems; i++) {
		terminated(p->problems[i].text, sizeof p->problems[i].text);
		if (p->problems[i].line < 0 || !p->problems[i].text[0])
			abort();
	}
	terminated(p->env_preset, sizeof p->env_preset);
	terminated(p->env_options, sizeof p->env_options);
	if (presets_default(p) < -1 || presets_default(p) >= p->count || (p->count && presets_default(p) < 0) ||
	    presets_timeout(p) < 0 || presets_timeout(p) > PRESETS_TIMEOUT_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct presets p, again;
	static char text[PRESETS_MAX * (PRESET_NAME_MAX + PRESET_OPTIONS_MAX + 4)];
	static char cmdline[PRESET_OPTIONS_MAX + PRESETS_ENV_OPTIONS_MAX + 1];
	const char *cfg = (const char *)data + 1, *env = NULL;
	size_t cfg_n = size ? size - 1 : 0, env_n = 0, n = 0;

	if (!size)
		return 0;
	if (data[0] & 1) {
		const char *nul = memchr(cfg, 0, cfg_n);
		if (nul) {
			env = nul + 1;
			env_n = cfg_n - (size_t)(env - cfg);
			cfg_n = (size_t)(nul - cfg);
		}
	}
	presets_init(&p);
	presets_parse(&p, cfg, cfg_n);
	if (env)
		presets_parse_env(&p, env, env_n);
	check(&p);
	for (int i = -1; i < p.count; i++)
		if (!options_menu_cmdline(i < 0 ? NULL : &p.preset[i], p.env_options, cmdline, sizeof cmdline))
			abort(); /* a preset's words and a block's tp_options always fit */

	/* Written back, the presets are read as they were. */
	for (int i = 0; i < p.count; i++) {
		size_t a = strlen(p.preset[i].name), b = strlen(p.preset[i].options);
		memcpy(text + n, p.preset[i].name, a);
		text[n + a] = ':';
		text[n + a + 1] = ' ';
		memcpy(text + n + a + 2, p.preset[i].options, b);
		text[n + a + 2 + b] = '\n';
		n += a + b + 3;
	}
	presets_init(&again);
	presets_parse(&again, text, n);
	if (again.count != p.count || again.n_problems > 1 || (again.n_problems && again.problems[0].line))
		abort();
	for (int i = 0; i < p.count; i++)
		if (strcmp(again.preset[i].name, p.preset[i].name) || strcmp(again.preset[i].options, p.preset[i].options))
			abort();
	return 0;
}
