build2/host/tools/compare/lineup.o: tools/compare/lineup.c \
 tools/compare/lineup.h tools/log/logset.h probe/logread.h \
 probe/json_parse.h probe/hist_codec.h probe/hist.h probe/json.h \
 probe/stats.h
tools/compare/lineup.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
probe/stats.h:
