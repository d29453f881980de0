build2/host/tools/db/text.o: tools/db/text.c tools/db/text.h \
 probe/json_parse.h tools/common/xalloc.h tools/log/logset.h \
 probe/logread.h probe/hist_codec.h probe/hist.h probe/json.h
tools/db/text.h:
probe/json_parse.h:
tools/common/xalloc.h:
tools/log/logset.h:
probe/logread.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
