/* PLACEHOLDER: replaced by the real implementation. */
#include <stdio.h>
#include "tools/commands.h"
int cmd_compare(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "tickprobe compare: not built yet\n");
	return EXIT_USAGE;
}
