build2/tests/test_lowmem: tests/unit/test_lowmem.c probe/lowmem.h \
 tests/unit/check.h
probe/lowmem.h:
tests/unit/check.h:
