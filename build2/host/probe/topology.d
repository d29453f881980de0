build2/host/probe/topology.o: probe/topology.c probe/topology.h \
 probe/fmt.h probe/json.h probe/util.h
probe/topology.h:
probe/fmt.h:
probe/json.h:
probe/util.h:
