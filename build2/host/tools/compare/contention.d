build2/host/tools/compare/contention.o: tools/compare/contention.c \
 tools/compare/contention.h tools/log/logset.h probe/logread.h \
 probe/json_parse.h probe/hist_codec.h probe/hist.h probe/json.h \
 tools/log/smprec.h
tools/compare/contention.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/log/smprec.h:
