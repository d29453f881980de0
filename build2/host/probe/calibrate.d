build2/host/probe/calibrate.o: probe/calibrate.c probe/calibrate.h \
 probe/counter.h probe/fmt.h probe/util.h probe/log.h probe/json.h \
 probe/measure.h probe/hist.h probe/records.h probe/core_clock.h
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
