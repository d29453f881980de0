build2/host/tools/log/show_cpus.o: tools/log/show_cpus.c \
 tools/log/show_cpus.h tools/log/logset.h probe/logread.h \
 probe/json_parse.h probe/hist_codec.h probe/hist.h probe/json.h \
 tools/log/smprec.h
tools/log/show_cpus.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/log/smprec.h:
