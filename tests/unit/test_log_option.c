/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/options.c's log= option: where the UEFI path saves the records.
 * file is the default; none turns the file off; anything else is one problem
 * naming the option, with the default kept, from the command line or from a
 * preset's words alike. */
#include <string.h>
#include "probe/options.h"
#include "tests/unit/check.h"

static int problems_naming(const struct options *o, const char *text)
{
	int n = 0;
	for (int i = 0; i < o->n_problems; i++)
		n += strstr(o->problems[i], text) != NULL;
	return n;
}

int main(void)
{
	static const struct options_preset table[] = {
		{ "default", "samples=1000" }, { "nofile", "log=none" }, { "badlog", "log=usb" },
	};
	struct options o;

	options_parse(&o, NULL);
	check(COND(o.log_to_file) && COND(o.n_problems == 0), "log: no words: the file is on, no problem");
	options_parse(&o, "preset=quick");
	check(o.log_to_file, "log: the shipped quick preset keeps the file on");
	options_parse(&o, "log=none");
	check(COND(!o.log_to_file) && COND(o.n_problems == 0), "log=none: the file is off, no problem");
	options_parse(&o, "log=none log=file");
	check(COND(o.log_to_file) && COND(o.n_problems == 0), "log=none log=file: the last word wins");

	options_parse(&o, "log=usb samples=500");
	check(COND(o.log_to_file) && COND(o.n_problems == 1) &&
		      COND(problems_naming(&o, "option log: 'usb' is not file or none") == 1) && COND(o.samples == 500),
	      "log=usb: one problem naming it (%s), the default kept, the other words applied",
	      o.n_problems ? o.problems[0] : "none");
	options_parse(&o, "log=");
	check(COND(o.log_to_file) && COND(o.n_problems == 1), "log= (empty): one problem, the default kept");

	options_parse_with(&o, "preset=nofile", table, 3);
	check(COND(!o.log_to_file) && COND(o.n_problems == 0), "a preset's log=none turns the file off");
	options_parse_with(&o, "preset=nofile log=file", table, 3);
	check(o.log_to_file, "log=file on the command line overrides the preset's log=none");
	options_parse_with(&o, "preset=badlog", table, 3);
	check(COND(o.log_to_file) && COND(problems_naming(&o, "preset badlog: option log:") == 1),
	      "a bad log= in a preset names the preset (%s)", o.n_problems ? o.problems[0] : "none");
	return check_done();
}
