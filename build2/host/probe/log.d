build2/host/probe/log.o: probe/log.c probe/log.h probe/json.h \
 probe/crc32.h probe/fmt.h probe/util.h
probe/log.h:
probe/json.h:
probe/crc32.h:
probe/fmt.h:
probe/util.h:
