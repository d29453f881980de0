build2/host/probe/measure.o: probe/measure.c probe/measure.h \
 probe/counter.h probe/fmt.h probe/util.h probe/hist.h
probe/measure.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/hist.h:
