build2/host/tools/qemu/linux_guest.o: tools/qemu/linux_guest.c \
 tools/commands.h tools/qemu/image.h tools/qemu/initramfs.h \
 tools/qemu/linux.h tools/qemu/qemu.h
tools/commands.h:
tools/qemu/image.h:
tools/qemu/initramfs.h:
tools/qemu/linux.h:
tools/qemu/qemu.h:
