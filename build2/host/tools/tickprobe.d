build2/host/tools/tickprobe.o: tools/tickprobe.c tools/commands.h \
 tools/common/args.h
tools/commands.h:
tools/common/args.h:
