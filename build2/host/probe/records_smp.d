build2/host/probe/records_smp.o: probe/records_smp.c probe/records_smp.h \
 probe/contention.h probe/counter.h probe/fmt.h probe/util.h probe/hist.h \
 probe/smp_env.h probe/team.h probe/latency.h probe/log.h probe/json.h \
 probe/percpu.h probe/measure.h probe/tsc_sync.h
probe/records_smp.h:
probe/contention.h:
probe/counter.h:
probe/fmt.h:
probe/util.h:
probe/hist.h:
probe/smp_env.h:
probe/team.h:
probe/latency.h:
probe/log.h:
probe/json.h:
probe/percpu.h:
probe/measure.h:
probe/tsc_sync.h:
