build2/host/tools/os/ctxsw.o: tools/os/ctxsw.c tools/os/ctxsw.h \
 tools/os/bench.h probe/hist.h
tools/os/ctxsw.h:
tools/os/bench.h:
probe/hist.h:
