build2/host/tools/qemu/image.o: tools/qemu/image.c probe/options.h \
 probe/presets.h probe/team.h tools/qemu/image.h
probe/options.h:
probe/presets.h:
probe/team.h:
tools/qemu/image.h:
