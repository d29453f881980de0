build2/tests/test_hist: tests/unit/test_hist.c probe/hist.h \
 tests/unit/check.h
probe/hist.h:
tests/unit/check.h:
