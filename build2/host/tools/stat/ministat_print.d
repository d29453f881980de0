build2/host/tools/stat/ministat_print.o: tools/stat/ministat_print.c \
 tools/stat/ministat_print.h probe/stats.h
tools/stat/ministat_print.h:
probe/stats.h:
