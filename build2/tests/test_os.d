build2/tests/test_os: tests/unit/test_os.c tests/unit/check.h \
 tools/os/clocksource.h
tests/unit/check.h:
tools/os/clocksource.h:
