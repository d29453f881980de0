build2/host/tools/log/logdir.o: tools/log/logdir.c tools/log/logdir.h \
 tools/commands.h tools/log/logset.h probe/logread.h probe/json_parse.h \
 probe/hist_codec.h probe/hist.h probe/json.h
tools/log/logdir.h:
tools/commands.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
