build2/tests/test_percpu: tests/unit/test_percpu.c probe/percpu.h \
 probe/counter.h probe/fmt.h probe/util.h probe/hist.h probe/measure.h \
 probe/smp_env.h probe/team.h probe/records_smp.h probe/contention.h \
 probe/latency.h probe/log.h probe/json.h probe/tsc_sync.h \
 tests/unit/check.h tests/unit/log_capture.h probe/crc32.h \
 probe/json_parse.h tests/unit/sim_team.h
probe/percpu.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/hist.h:
probe/measure.h:
probe/smp_env.h:
probe/team.h:
probe/records_smp.h:
probe/contention.h:
probe/latency.h:
probe/log.h:
probe/json.h:
probe/tsc_sync.h:
tests/unit/check.h:
tests/unit/log_capture.h:
probe/crc32.h:
probe/json_parse.h:
tests/unit/sim_team.h:
