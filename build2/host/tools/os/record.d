build2/host/tools/os/record.o: tools/os/record.c probe/hist_codec.h \
 probe/hist.h probe/json.h probe/json_parse.h probe/records.h \
 probe/core_clock.h probe/counter.h probe/fmt.h probe/util.h probe/log.h \
 probe/measure.h probe/stats.h tools/os/record.h tools/os/bench.h \
 tools/os/ctxsw.h
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
probe/json_parse.h:
probe/records.h:
probe/core_clock.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/log.h:
probe/measure.h:
probe/stats.h:
tools/os/record.h:
tools/os/bench.h:
tools/os/ctxsw.h:
