build2/tests/test_initramfs: tests/unit/test_initramfs.c \
 tests/unit/check.h tools/qemu/initramfs.h tools/qemu/linux.h
tests/unit/check.h:
tools/qemu/initramfs.h:
tools/qemu/linux.h:
