/* PLACEHOLDER: replaced by the real implementation. */
#include <stdio.h>
#include "tools/commands.h"
int cmd_acpi(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "tickprobe acpi: not built yet\n");
	return EXIT_USAGE;
}
