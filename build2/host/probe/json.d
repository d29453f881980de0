build2/host/probe/json.o: probe/json.c probe/json.h probe/fmt.h \
 probe/util.h
probe/json.h:
probe/fmt.h:
probe/util.h:
