build2/host/tools/log/logset.o: tools/log/logset.c tools/log/logset.h \
 probe/logread.h probe/json_parse.h probe/hist_codec.h probe/hist.h \
 probe/json.h tools/commands.h tools/common/xalloc.h probe/log.h
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/commands.h:
tools/common/xalloc.h:
probe/log.h:
