build2/host/tools/compare/split.o: tools/compare/split.c \
 tools/compare/split.h tools/compare/lineup.h tools/log/logset.h \
 probe/logread.h probe/json_parse.h probe/hist_codec.h probe/hist.h \
 probe/json.h tools/compare/seeds.h
tools/compare/split.h:
tools/compare/lineup.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/compare/seeds.h:
