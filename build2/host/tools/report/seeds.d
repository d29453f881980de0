build2/host/tools/report/seeds.o: tools/report/seeds.c \
 tools/compare/lineup.h tools/log/logset.h probe/logread.h \
 probe/json_parse.h probe/hist_codec.h probe/hist.h probe/json.h \
 tools/compare/seeds.h tools/compare/split.h tools/report/html.h \
 tools/report/seeds.h tools/stat/ministat_print.h probe/stats.h
tools/compare/lineup.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/compare/seeds.h:
tools/compare/split.h:
tools/report/html.h:
tools/report/seeds.h:
tools/stat/ministat_print.h:
probe/stats.h:
