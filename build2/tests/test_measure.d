build2/tests/test_measure: tests/unit/test_measure.c probe/measure.h \
 probe/counter.h probe/fmt.h probe/util.h probe/hist.h probe/records.h \
 probe/core_clock.h probe/log.h probe/json.h probe/logread.h \
 probe/json_parse.h probe/hist_codec.h probe/crc32.h \
 tests/unit/sim_counter.h tests/unit/check.h
probe/measure.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/hist.h:
probe/records.h:
probe/core_clock.h:
probe/log.h:
probe/json.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/crc32.h:
tests/unit/sim_counter.h:
tests/unit/check.h:
