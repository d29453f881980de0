build2/host/tools/log/show_cpus_json.o: tools/log/show_cpus_json.c \
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
