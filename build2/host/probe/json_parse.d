build2/host/probe/json_parse.o: probe/json_parse.c probe/json_parse.h \
 probe/util.h
probe/json_parse.h:
probe/util.h:
