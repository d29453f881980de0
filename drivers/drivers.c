/* SPDX-License-Identifier: BSD-2-Clause */
/* The counters' drivers, in the order the run measures them (the timer
 * records follow it).  Each is a const struct counter_driver in its own
 * file here, named after it: adding a counter is that file and one line
 * below. */
#include "drivers/drivers.h"

#define COUNTER_DRIVERS(X)                                                       \
	X(tsc_driver)         /* drivers/tsc.c: tsc, rdtscp, tsc-lfence */         \
	X(hpet_driver)        /* drivers/hpet.c: hpet, hpet64 */                   \
	X(acpi_pm_driver)     /* drivers/acpi_pm.c: acpi-fast, acpi-safe */        \
	X(i8254_driver)       /* drivers/i8254.c: i8254 and three port accesses */ \
	X(lapic_timer_driver) /* drivers/lapic_timer.c: lapic, lapic-x2, tsc-deadline */ \
	X(rtc_driver)         /* drivers/rtc.c: rtc, rtc-time */                   \
	X(rdpid_driver)       /* drivers/rdpid.c: rdpid */                         \
	X(kvmclock_driver)    /* drivers/kvmclock.c: kvmclock */                   \
	X(hyperv_driver)      /* drivers/hyperv.c: hv-refcount, hv-tsc-page */

#define DECLARE(driver) extern const struct counter_driver driver;
#define LIST(driver) &(driver),
COUNTER_DRIVERS(DECLARE)

const struct counter_driver *const counter_drivers[] = { COUNTER_DRIVERS(LIST) };
const unsigned n_counter_drivers = sizeof counter_drivers / sizeof counter_drivers[0];
