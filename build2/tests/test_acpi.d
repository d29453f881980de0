build2/tests/test_acpi: tests/unit/test_acpi.c tests/unit/check.h \
 tests/unit/acpi_fixture.h drivers/acpi.h drivers/acpi_madt.h \
 probe/json.h
tests/unit/check.h:
tests/unit/acpi_fixture.h:
drivers/acpi.h:
drivers/acpi_madt.h:
probe/json.h:
