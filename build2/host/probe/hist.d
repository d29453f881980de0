build2/host/probe/hist.o: probe/hist.c probe/hist.h
probe/hist.h:
