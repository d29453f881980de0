build2/host/tools/compare/seeds.o: tools/compare/seeds.c probe/stats.h \
 tools/compare/lineup.h tools/log/logset.h probe/logread.h \
 probe/json_parse.h probe/hist_codec.h probe/hist.h probe/json.h \
 tools/compare/seeds.h tools/stat/ministat_print.h
probe/stats.h:
tools/compare/lineup.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/compare/seeds.h:
tools/stat/ministat_print.h:
