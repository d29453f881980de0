build2/host/tools/db/store.o: tools/db/store.c tools/db/store.h \
 tools/commands.h
tools/db/store.h:
tools/commands.h:
