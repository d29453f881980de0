build2/host/tools/db/decode.o: tools/db/decode.c tools/db/decode.h \
 tools/db/store.h tools/log/logset.h probe/logread.h probe/json_parse.h \
 probe/hist_codec.h probe/hist.h probe/json.h tools/db/text.h
tools/db/decode.h:
tools/db/store.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/db/text.h:
