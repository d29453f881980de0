build2/host/probe/core_clock.o: probe/core_clock.c probe/core_clock.h
probe/core_clock.h:
