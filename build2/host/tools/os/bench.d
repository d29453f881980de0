build2/host/tools/os/bench.o: tools/os/bench.c tools/os/bench.h \
 probe/hist.h
tools/os/bench.h:
probe/hist.h:
