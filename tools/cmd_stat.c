/* PLACEHOLDER: replaced by the real implementation. */
#include <stdio.h>
#include "tools/commands.h"
int cmd_stat(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "tickprobe stat: not built yet\n");
	return EXIT_USAGE;
}
