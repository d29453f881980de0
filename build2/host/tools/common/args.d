build2/host/tools/common/args.o: tools/common/args.c probe/stats.h \
 tools/commands.h tools/common/args.h
probe/stats.h:
tools/commands.h:
tools/common/args.h:
