build2/host/tools/log/cmd_show.o: tools/log/cmd_show.c tools/commands.h \
 tools/common/args.h tools/log/logdir.h tools/log/logset.h \
 probe/logread.h probe/json_parse.h probe/hist_codec.h probe/hist.h \
 probe/json.h tools/log/show_cpus.h
tools/commands.h:
tools/common/args.h:
tools/log/logdir.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/log/show_cpus.h:
