build2/host/tools/stat/input.o: tools/stat/input.c tools/stat/input.h
tools/stat/input.h:
