build2/host/probe/stats.o: probe/stats.c probe/stats.h
probe/stats.h:
