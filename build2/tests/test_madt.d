build2/tests/test_madt: tests/unit/test_madt.c tests/unit/check.h \
 tests/unit/acpi_fixture.h drivers/acpi.h drivers/acpi_madt.h \
 probe/json.h
tests/unit/check.h:
tests/unit/acpi_fixture.h:
drivers/acpi.h:
drivers/acpi_madt.h:
probe/json.h:
