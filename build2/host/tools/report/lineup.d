build2/host/tools/report/lineup.o: tools/report/lineup.c \
 tools/compare/lineup.h tools/log/logset.h probe/logread.h \
 probe/json_parse.h probe/hist_codec.h probe/hist.h probe/json.h \
 tools/report/html.h tools/report/seeds.h
tools/compare/lineup.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/report/html.h:
tools/report/seeds.h:
