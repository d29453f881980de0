build2/host/drivers/acpi_madt.o: drivers/acpi_madt.c drivers/acpi.h \
 drivers/acpi_madt.h drivers/acpi_internal.h probe/crc32.h probe/fmt.h \
 probe/json.h probe/util.h
drivers/acpi.h:
drivers/acpi_madt.h:
drivers/acpi_internal.h:
probe/crc32.h:
probe/fmt.h:
probe/json.h:
probe/util.h:
