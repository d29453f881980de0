build2/host/tools/report/cmd_report.o: tools/report/cmd_report.c \
 tools/commands.h tools/common/args.h tools/compare/lineup.h \
 tools/log/logset.h probe/logread.h probe/json_parse.h probe/hist_codec.h \
 probe/hist.h probe/json.h tools/log/logdir.h tools/report/cpus.h \
 tools/log/smprec.h tools/report/html.h tools/report/fleet.h \
 tools/db/store.h probe/stats.h
tools/commands.h:
tools/common/args.h:
tools/compare/lineup.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/log/logdir.h:
tools/report/cpus.h:
tools/log/smprec.h:
tools/report/html.h:
tools/report/fleet.h:
tools/db/store.h:
probe/stats.h:
