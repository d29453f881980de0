build2/host/probe/latency.o: probe/latency.c probe/latency.h \
 probe/smp_env.h probe/team.h probe/util.h
probe/latency.h:
probe/smp_env.h:
probe/team.h:
probe/util.h:
