build2/tests/test_tsc_sync: tests/unit/test_tsc_sync.c \
 probe/records_smp.h probe/contention.h probe/counter.h probe/fmt.h \
 probe/util.h probe/hist.h probe/smp_env.h probe/team.h probe/latency.h \
 probe/log.h probe/json.h probe/percpu.h probe/measure.h probe/tsc_sync.h \
 tests/unit/check.h tests/unit/log_capture.h probe/crc32.h \
 probe/json_parse.h tests/unit/sim_team.h
probe/records_smp.h:
probe/contention.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/hist.h:
probe/smp_env.h:
probe/team.h:
probe/latency.h:
probe/log.h:
probe/json.h:
probe/percpu.h:
probe/measure.h:
probe/tsc_sync.h:
tests/unit/check.h:
tests/unit/log_capture.h:
probe/crc32.h:
probe/json_parse.h:
tests/unit/sim_team.h:
