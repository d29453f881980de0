build2/tests/test_records: tests/unit/test_records.c tests/unit/check.h \
 tests/unit/sim_counter.h probe/counter.h probe/fmt.h probe/util.h \
 probe/measure.h probe/hist.h probe/json_parse.h probe/records.h \
 probe/core_clock.h probe/log.h probe/json.h tools/os/bench.h \
 tools/os/record.h tools/os/ctxsw.h
tests/unit/check.h:
tests/unit/sim_counter.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/measure.h:
probe/hist.h:
probe/json_parse.h:
probe/records.h:
probe/core_clock.h:
probe/log.h:
probe/json.h:
tools/os/bench.h:
tools/os/record.h:
tools/os/ctxsw.h:
