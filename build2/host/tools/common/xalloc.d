build2/host/tools/common/xalloc.o: tools/common/xalloc.c \
 tools/common/xalloc.h tools/commands.h
tools/common/xalloc.h:
tools/commands.h:
