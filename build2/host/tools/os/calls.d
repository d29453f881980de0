build2/host/tools/os/calls.o: tools/os/calls.c tools/os/calls.h \
 tools/os/bench.h probe/hist.h
tools/os/calls.h:
tools/os/bench.h:
probe/hist.h:
