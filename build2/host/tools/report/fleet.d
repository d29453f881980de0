build2/host/tools/report/fleet.o: tools/report/fleet.c \
 tools/report/fleet.h tools/db/store.h tools/commands.h tools/db/import.h \
 tools/log/logset.h probe/logread.h probe/json_parse.h probe/hist_codec.h \
 probe/hist.h probe/json.h tools/db/query.h tools/report/html.h
tools/report/fleet.h:
tools/db/store.h:
tools/commands.h:
tools/db/import.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/db/query.h:
tools/report/html.h:
