build2/host/tools/os/threads.o: tools/os/threads.c tools/compare/lineup.h \
 tools/log/logset.h probe/logread.h probe/json_parse.h probe/hist_codec.h \
 probe/hist.h probe/json.h tools/os/bench.h tools/os/threads.h \
 probe/log.h
tools/compare/lineup.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/os/bench.h:
tools/os/threads.h:
probe/log.h:
