build2/host/drivers/acpi.o: drivers/acpi.c drivers/acpi.h \
 drivers/acpi_madt.h drivers/acpi_internal.h probe/fmt.h probe/util.h
drivers/acpi.h:
drivers/acpi_madt.h:
drivers/acpi_internal.h:
probe/fmt.h:
probe/util.h:
