build2/host/probe/crc32.o: probe/crc32.c probe/crc32.h
probe/crc32.h:
