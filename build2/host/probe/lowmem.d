build2/host/probe/lowmem.o: probe/lowmem.c probe/lowmem.h
probe/lowmem.h:
