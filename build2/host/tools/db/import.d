build2/host/tools/db/import.o: tools/db/import.c tools/db/import.h \
 tools/db/store.h tools/log/logset.h probe/logread.h probe/json_parse.h \
 probe/hist_codec.h probe/hist.h probe/json.h probe/crc32.h \
 tools/commands.h tools/db/decode.h tools/db/text.h
tools/db/import.h:
tools/db/store.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
probe/crc32.h:
tools/commands.h:
tools/db/decode.h:
tools/db/text.h:
