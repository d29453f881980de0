build2/tests/test_run: tests/unit/test_run.c tests/unit/check.h \
 tests/unit/sim_platform.h tests/unit/sim_counter.h probe/counter.h \
 probe/fmt.h probe/util.h probe/measure.h probe/hist.h probe/run.h \
 drivers/acpi.h drivers/acpi_madt.h probe/calibrate.h probe/log.h \
 probe/json.h probe/records.h probe/core_clock.h probe/options.h \
 probe/presets.h probe/team.h probe/platform.h probe/exit_status.h \
 probe/logread.h probe/json_parse.h probe/hist_codec.h
tests/unit/check.h:
tests/unit/sim_platform.h:
tests/unit/sim_counter.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/measure.h:
probe/hist.h:
probe/run.h:
drivers/acpi.h:
drivers/acpi_madt.h:
probe/calibrate.h:
probe/log.h:
probe/json.h:
probe/records.h:
probe/core_clock.h:
probe/options.h:
probe/presets.h:
probe/team.h:
probe/platform.h:
probe/exit_status.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
