build2/tests/test_calibrate: tests/unit/test_calibrate.c \
 tests/unit/check.h tests/unit/sim_counter.h probe/counter.h probe/fmt.h \
 probe/util.h probe/measure.h probe/hist.h probe/calibrate.h probe/log.h \
 probe/json.h probe/records.h probe/core_clock.h
tests/unit/check.h:
tests/unit/sim_counter.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/measure.h:
probe/hist.h:
probe/calibrate.h:
probe/log.h:
probe/json.h:
probe/records.h:
probe/core_clock.h:
