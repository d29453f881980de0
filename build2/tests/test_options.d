build2/tests/test_options: tests/unit/test_options.c probe/options.h \
 probe/presets.h probe/team.h tests/unit/check.h
probe/options.h:
probe/presets.h:
probe/team.h:
tests/unit/check.h:
