build2/host/tools/qemu/cmd_qemu.o: tools/qemu/cmd_qemu.c tools/commands.h \
 tools/common/args.h tools/qemu/image.h tools/qemu/qemu.h \
 probe/exit_status.h
tools/commands.h:
tools/common/args.h:
tools/qemu/image.h:
tools/qemu/qemu.h:
probe/exit_status.h:
