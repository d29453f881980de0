build2/host/tools/db/query.o: tools/db/query.c tools/db/query.h \
 tools/db/store.h probe/stats.h tools/commands.h tools/common/xalloc.h
tools/db/query.h:
tools/db/store.h:
probe/stats.h:
tools/commands.h:
tools/common/xalloc.h:
