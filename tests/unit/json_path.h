/* SPDX-License-Identifier: BSD-2-Clause */
/* A record's member by a dotted path whose numeric parts index arrays,
 * "candidates.1.round_min_spread" (lr_path takes keys only). */
#ifndef TESTS_UNIT_JSON_PATH_H
#define TESTS_UNIT_JSON_PATH_H

#include <stdlib.h>
#include "tools/lib/json_parse.h"

static inline const struct lr_node *path_at(const struct lr_node *r, const char *path)
{
	char part[64];

	while (r && *path) {
		size_t k = 0;
		while (path[k] && path[k] != '.' && k + 1 < sizeof part) {
			part[k] = path[k];
			k++;
		}
		part[k] = 0;
		r = part[0] >= '0' && part[0] <= '9' ? lr_at(r, (size_t)atoi(part)) : lr_get(r, part);
		path += k + (path[k] == '.');
	}
	return r;
}

#endif
