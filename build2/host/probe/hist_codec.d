build2/host/probe/hist_codec.o: probe/hist_codec.c probe/hist_codec.h \
 probe/hist.h probe/json.h probe/json_parse.h probe/util.h
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
probe/json_parse.h:
probe/util.h:
