build2/host/tools/os/run.o: tools/os/run.c tools/os/bench.h probe/hist.h \
 tools/os/calls.h tools/os/ctxsw.h tools/os/record.h probe/log.h \
 probe/json.h tools/os/run.h tools/os/threads.h
tools/os/bench.h:
probe/hist.h:
tools/os/calls.h:
tools/os/ctxsw.h:
tools/os/record.h:
probe/log.h:
probe/json.h:
tools/os/run.h:
tools/os/threads.h:
