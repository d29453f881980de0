build2/host/probe/run_cpus.o: probe/run_cpus.c probe/contention.h \
 probe/counter.h probe/fmt.h probe/util.h probe/hist.h probe/smp_env.h \
 probe/team.h probe/latency.h probe/percpu.h probe/measure.h \
 probe/records_smp.h probe/log.h probe/json.h probe/tsc_sync.h \
 probe/run.h drivers/acpi.h drivers/acpi_madt.h probe/calibrate.h \
 probe/records.h probe/core_clock.h probe/options.h probe/presets.h \
 probe/platform.h
probe/contention.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/hist.h:
probe/smp_env.h:
probe/team.h:
probe/latency.h:
probe/percpu.h:
probe/measure.h:
probe/records_smp.h:
probe/log.h:
probe/json.h:
probe/tsc_sync.h:
probe/run.h:
drivers/acpi.h:
drivers/acpi_madt.h:
probe/calibrate.h:
probe/records.h:
probe/core_clock.h:
probe/options.h:
probe/presets.h:
probe/platform.h:
