build2/host/probe/run.o: probe/run.c probe/run.h drivers/acpi.h \
 drivers/acpi_madt.h probe/calibrate.h probe/counter.h probe/fmt.h \
 probe/util.h probe/log.h probe/json.h probe/measure.h probe/hist.h \
 probe/records.h probe/core_clock.h probe/options.h probe/presets.h \
 probe/team.h probe/platform.h probe/exit_status.h
probe/run.h:
drivers/acpi.h:
drivers/acpi_madt.h:
probe/calibrate.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/log.h:
probe/json.h:
probe/measure.h:
probe/hist.h:
probe/records.h:
probe/core_clock.h:
probe/options.h:
probe/presets.h:
probe/team.h:
probe/platform.h:
probe/exit_status.h:
