build2/tests/test_fmt_json_log: tests/unit/test_fmt_json_log.c \
 probe/fmt.h probe/json.h probe/log.h probe/crc32.h tests/unit/check.h
probe/fmt.h:
probe/json.h:
probe/log.h:
probe/crc32.h:
tests/unit/check.h:
