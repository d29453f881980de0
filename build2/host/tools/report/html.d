build2/host/tools/report/html.o: tools/report/html.c tools/report/cpus.h \
 tools/log/smprec.h tools/log/logset.h probe/logread.h probe/json_parse.h \
 probe/hist_codec.h probe/hist.h probe/json.h tools/report/html.h \
 tools/commands.h
tools/report/cpus.h:
tools/log/smprec.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/report/html.h:
tools/commands.h:
