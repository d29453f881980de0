build2/host/probe/hist_decode.o: probe/hist_decode.c probe/hist_codec.h \
 probe/hist.h probe/json.h probe/json_parse.h probe/util.h
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
probe/json_parse.h:
probe/util.h:
