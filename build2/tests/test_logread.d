build2/tests/test_logread: tests/unit/test_logread.c tests/unit/check.h \
 probe/log.h probe/json.h probe/logread.h probe/json_parse.h \
 probe/hist_codec.h probe/hist.h probe/crc32.h tools/log/logset.h \
 tools/commands.h
tests/unit/check.h:
probe/log.h:
probe/json.h:
probe/logread.h:
probe/json_parse.h:
probe/hist_codec.h:
probe/hist.h:
probe/crc32.h:
tools/log/logset.h:
tools/commands.h:
