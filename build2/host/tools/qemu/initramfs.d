build2/host/tools/qemu/initramfs.o: tools/qemu/initramfs.c \
 tools/qemu/initramfs.h
tools/qemu/initramfs.h:
