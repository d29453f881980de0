/* SPDX-License-Identifier: BSD-2-Clause */
/* The exit status every host command returns (tools/commands.h lists the
 * commands): 0 clean, 1 usage error, 2 input could not be read, 3 input
 * damaged but partly used; and compare --gate's 4. */
#ifndef TOOLS_LIB_EXIT_CODES_H
#define TOOLS_LIB_EXIT_CODES_H

#define EXIT_CLEAN 0
#define EXIT_USAGE 1
#define EXIT_UNREADABLE 2
#define EXIT_DAMAGED 3
#define EXIT_REGRESSED 4 /* compare --gate: a counter is slower than the baseline, or gone */

#endif
