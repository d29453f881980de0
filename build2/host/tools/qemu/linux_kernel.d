build2/host/tools/qemu/linux_kernel.o: tools/qemu/linux_kernel.c \
 tools/qemu/image.h tools/qemu/linux.h tools/qemu/qemu.h
tools/qemu/image.h:
tools/qemu/linux.h:
tools/qemu/qemu.h:
