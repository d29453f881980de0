build2/host/tools/os/clocksource.o: tools/os/clocksource.c \
 tools/os/clocksource.h
tools/os/clocksource.h:
