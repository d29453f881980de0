build2/host/probe/percpu.o: probe/percpu.c probe/percpu.h probe/counter.h \
 probe/fmt.h probe/util.h probe/hist.h probe/measure.h probe/smp_env.h \
 probe/team.h
probe/percpu.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/hist.h:
probe/measure.h:
probe/smp_env.h:
probe/team.h:
