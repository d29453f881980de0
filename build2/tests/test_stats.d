build2/tests/test_stats: tests/unit/test_stats.c probe/stats.h \
 tests/unit/check.h
probe/stats.h:
tests/unit/check.h:
