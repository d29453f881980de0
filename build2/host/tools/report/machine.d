build2/host/tools/report/machine.o: tools/report/machine.c \
 tools/report/cpus.h tools/log/smprec.h tools/log/logset.h \
 probe/logread.h probe/json_parse.h probe/hist_codec.h probe/hist.h \
 probe/json.h tools/report/html.h
tools/report/cpus.h:
tools/log/smprec.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/report/html.h:
