build2/tests/test_topology: tests/unit/test_topology.c tests/unit/check.h \
 probe/json.h probe/topology.h
tests/unit/check.h:
probe/json.h:
probe/topology.h:
