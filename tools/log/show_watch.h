/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe show`: a watch's conclusions (the watch record, probe/watch.h)
 * as text, and the watch records as JSON members. */
#ifndef TOOLS_LOG_SHOW_WATCH_H
#define TOOLS_LOG_SHOW_WATCH_H

#include <stdio.h>
#include "tools/lib/logset.h"

/* Nothing for a run without a watch. */
void show_watch_text(FILE *o, const struct lrun *r);
/* ,"watch":… (null without one) */
void show_watch_json(FILE *o, const struct lrun *r);

#endif
