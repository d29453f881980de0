build2/host/tools/qemu/linux.o: tools/qemu/linux.c tools/commands.h \
 tools/log/logset.h probe/logread.h probe/json_parse.h probe/hist_codec.h \
 probe/hist.h probe/json.h tools/qemu/linux.h tools/qemu/qemu.h
tools/commands.h:
tools/log/logset.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
tools/qemu/linux.h:
tools/qemu/qemu.h:
