build2/tests/test_presets: tests/unit/test_presets.c probe/presets.h \
 tests/unit/check.h tools/qemu/image.h
probe/presets.h:
tests/unit/check.h:
tools/qemu/image.h:
