build2/host/tools/log/cmd_logs.o: tools/log/cmd_logs.c tools/commands.h \
 tools/common/args.h tools/log/logdir.h tools/log/logset.h \
 probe/logread.h probe/json_parse.h probe/hist_codec.h probe/hist.h \
 probe/json.h
tools/commands.h:
tools/common/args.h:
tools/log/logdir.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
