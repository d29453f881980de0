build2/host/tools/os/machine.o: tools/os/machine.c tools/os/machine.h \
 probe/log.h probe/json.h tools/os/bench.h probe/hist.h
tools/os/machine.h:
probe/log.h:
probe/json.h:
tools/os/bench.h:
probe/hist.h:
