/* SPDX-License-Identifier: BSD-2-Clause */
/* A sender checked once (sender.h). */
#include "tools/collect/sender.h"
#include <string.h>
#include "tools/collect/record.h"

int sender_check(const struct collect_options *o, const char *machine, const char *boot, const char *token,
		 bool hello, uint32_t source, struct sender *s, const char **why)
{
	memset(s, 0, sizeof *s);
	if (!collect_token_ok(o, token)) {
		*why = o->token && token ? "wrong token" : "a token is wanted";
		return SENDER_REFUSED;
	}
	/* A hello names its machine and boot as a record does: the answer is
	 * about that boot, and a hello's body, if any, is records of it. */
	if (!record_name_ok(machine, BOOTS_MACHINE_MAX) || !record_name_ok(boot, BOOTS_ID_MAX)) {
		*why = "X-Tickprobe-Machine and X-Tickprobe-Boot are wanted: 1 to 64 and 1 to 128 of "
		       "[A-Za-z0-9._-], not starting with a dot";
		return SENDER_BAD;
	}
	memcpy(s->machine, machine, strlen(machine) + 1);
	memcpy(s->boot, boot, strlen(boot) + 1);
	s->source = source;
	s->hello = hello;
	*why = NULL;
	return SENDER_OK;
}
