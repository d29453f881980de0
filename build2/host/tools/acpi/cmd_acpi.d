build2/host/tools/acpi/cmd_acpi.o: tools/acpi/cmd_acpi.c drivers/acpi.h \
 drivers/acpi_madt.h probe/json.h tools/commands.h tools/common/args.h
drivers/acpi.h:
drivers/acpi_madt.h:
probe/json.h:
tools/commands.h:
tools/common/args.h:
