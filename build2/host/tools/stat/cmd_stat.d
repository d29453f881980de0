build2/host/tools/stat/cmd_stat.o: tools/stat/cmd_stat.c probe/stats.h \
 tools/commands.h tools/common/args.h tools/stat/ministat_print.h \
 tools/stat/input.h
probe/stats.h:
tools/commands.h:
tools/common/args.h:
tools/stat/ministat_print.h:
tools/stat/input.h:
