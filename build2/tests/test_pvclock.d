build2/tests/test_pvclock: tests/unit/test_pvclock.c tests/unit/check.h \
 probe/pvclock.h
tests/unit/check.h:
probe/pvclock.h:
