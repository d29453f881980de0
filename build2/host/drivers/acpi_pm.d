build2/host/drivers/acpi_pm.o: drivers/acpi_pm.c drivers/acpi_pm.h \
 probe/counter.h probe/fmt.h probe/util.h arch/x86/paging.h
drivers/acpi_pm.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
arch/x86/paging.h:
