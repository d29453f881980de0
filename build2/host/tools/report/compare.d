build2/host/tools/report/compare.o: tools/report/compare.c \
 tools/report/html.h tools/log/logset.h probe/logread.h \
 probe/json_parse.h probe/hist_codec.h probe/hist.h probe/json.h \
 probe/stats.h
tools/report/html.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
probe/stats.h:
