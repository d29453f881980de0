build2/host/probe/contention.o: probe/contention.c probe/contention.h \
 probe/counter.h probe/fmt.h probe/util.h probe/hist.h probe/smp_env.h \
 probe/team.h
probe/contention.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/hist.h:
probe/smp_env.h:
probe/team.h:
