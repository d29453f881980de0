build2/host/probe/fmt.o: probe/fmt.c probe/fmt.h
probe/fmt.h:
