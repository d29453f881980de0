build2/tests/test_log_option: tests/unit/test_log_option.c \
 probe/options.h probe/presets.h probe/team.h tests/unit/check.h
probe/options.h:
probe/presets.h:
probe/team.h:
tests/unit/check.h:
