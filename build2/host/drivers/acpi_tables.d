build2/host/drivers/acpi_tables.o: drivers/acpi_tables.c drivers/acpi.h \
 drivers/acpi_madt.h drivers/acpi_internal.h probe/fmt.h probe/json.h \
 probe/util.h
drivers/acpi.h:
drivers/acpi_madt.h:
drivers/acpi_internal.h:
probe/fmt.h:
probe/json.h:
probe/util.h:
