build2/host/tools/os/raw.o: tools/os/raw.c drivers/acpi.h \
 drivers/acpi_madt.h tools/os/bench.h probe/hist.h tools/os/raw.h \
 probe/log.h probe/json.h tools/os/machine.h tools/os/record.h \
 tools/os/ctxsw.h
drivers/acpi.h:
drivers/acpi_madt.h:
tools/os/bench.h:
probe/hist.h:
tools/os/raw.h:
probe/log.h:
probe/json.h:
tools/os/machine.h:
tools/os/record.h:
tools/os/ctxsw.h:
