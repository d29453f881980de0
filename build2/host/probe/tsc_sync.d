build2/host/probe/tsc_sync.o: probe/tsc_sync.c probe/tsc_sync.h \
 probe/smp_env.h probe/team.h probe/util.h
probe/tsc_sync.h:
probe/smp_env.h:
probe/team.h:
probe/util.h:
