build2/host/probe/presets.o: probe/presets.c probe/presets.h probe/fmt.h \
 probe/util.h
probe/presets.h:
probe/fmt.h:
probe/util.h:
