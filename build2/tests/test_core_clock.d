build2/tests/test_core_clock: tests/unit/test_core_clock.c \
 tests/unit/check.h probe/core_clock.h
tests/unit/check.h:
probe/core_clock.h:
