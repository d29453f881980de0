build2/host/tools/db/cmd_db.o: tools/db/cmd_db.c probe/stats.h \
 tools/commands.h tools/common/args.h tools/db/import.h tools/db/store.h \
 tools/log/logset.h probe/logread.h probe/json_parse.h probe/hist_codec.h \
 probe/hist.h probe/json.h tools/db/query.h tools/log/logdir.h
probe/stats.h:
tools/commands.h:
tools/common/args.h:
tools/db/import.h:
tools/db/store.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/db/query.h:
tools/log/logdir.h:
