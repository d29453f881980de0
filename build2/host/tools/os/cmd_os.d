build2/host/tools/os/cmd_os.o: tools/os/cmd_os.c probe/log.h probe/json.h \
 tools/commands.h tools/common/args.h tools/os/bench.h probe/hist.h \
 tools/os/calls.h tools/os/clocksource.h tools/os/ctxsw.h \
 tools/os/machine.h tools/os/raw.h tools/os/record.h tools/os/run.h \
 tools/os/threads.h
probe/log.h:
probe/json.h:
tools/commands.h:
tools/common/args.h:
tools/os/bench.h:
probe/hist.h:
tools/os/calls.h:
tools/os/clocksource.h:
tools/os/ctxsw.h:
tools/os/machine.h:
tools/os/raw.h:
tools/os/record.h:
tools/os/run.h:
tools/os/threads.h:
