build2/host/probe/records.o: probe/records.c probe/records.h \
 probe/core_clock.h probe/counter.h probe/fmt.h probe/util.h probe/hist.h \
 probe/log.h probe/json.h probe/measure.h probe/hist_codec.h \
 probe/json_parse.h
probe/records.h:
probe/core_clock.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/hist.h:
probe/log.h:
probe/json.h:
probe/measure.h:
probe/hist_codec.h:
probe/json_parse.h:
