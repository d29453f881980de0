build2/host/probe/options.o: probe/options.c probe/options.h \
 probe/presets.h probe/team.h probe/fmt.h probe/util.h \
 /work/main/build2/gen/presets_table.h
probe/options.h:
probe/presets.h:
probe/team.h:
probe/fmt.h:
probe/util.h:
/work/main/build2/gen/presets_table.h:
