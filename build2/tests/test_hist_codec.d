build2/tests/test_hist_codec: tests/unit/test_hist_codec.c \
 tests/unit/check.h probe/hist_codec.h probe/hist.h probe/json.h \
 probe/json_parse.h probe/log.h tools/log/logset.h probe/logread.h \
 tools/commands.h
tests/unit/check.h:
probe/hist_codec.h:
probe/hist.h:
probe/json.h:
probe/json_parse.h:
probe/log.h:
tools/log/logset.h:
probe/logread.h:
tools/commands.h:
