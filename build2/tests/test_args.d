build2/tests/test_args: tests/unit/test_args.c tools/commands.h \
 tools/common/args.h tests/unit/check.h
tools/commands.h:
tools/common/args.h:
tests/unit/check.h:
