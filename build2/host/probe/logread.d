build2/host/probe/logread.o: probe/logread.c probe/logread.h \
 probe/json_parse.h probe/hist_codec.h probe/hist.h probe/json.h \
 probe/log.h probe/crc32.h probe/fmt.h probe/util.h
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
probe/log.h:
probe/crc32.h:
probe/fmt.h:
probe/util.h:
