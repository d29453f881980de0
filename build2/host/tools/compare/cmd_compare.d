build2/host/tools/compare/cmd_compare.o: tools/compare/cmd_compare.c \
 tools/commands.h tools/common/args.h tools/compare/contention.h \
 tools/log/logset.h probe/logread.h probe/json_parse.h probe/hist_codec.h \
 probe/hist.h probe/json.h tools/compare/lineup.h tools/compare/seeds.h \
 tools/compare/split.h tools/log/logdir.h tools/stat/ministat_print.h \
 probe/stats.h
tools/commands.h:
tools/common/args.h:
tools/compare/contention.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/compare/lineup.h:
tools/compare/seeds.h:
tools/compare/split.h:
tools/log/logdir.h:
tools/stat/ministat_print.h:
probe/stats.h:
