build2/host/tools/qemu/proc.o: tools/qemu/proc.c tools/qemu/qemu.h
tools/qemu/qemu.h:
