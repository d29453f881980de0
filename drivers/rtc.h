/* SPDX-License-Identifier: BSD-2-Clause */
/* The CMOS real-time clock (the MC146818's registers, as every PC chipset
 * keeps them at ports 0x70/0x71): the cost of reading its seconds register
 * ("rtc"), and of a whole read of the time that cannot be torn by an update
 * ("rtc-time"). */
#ifndef DRIVERS_RTC_H
#define DRIVERS_RTC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "probe/counter.h"

/* The date and time as "YYYY-MM-DDTHH:MM:SS" (the century taken as 20: the
 * century register's index is in the FADT, which this is read before), or
 * false when the RTC does not answer or holds no valid time.  An
 * update-safe read: at most about 2.5 ms of waiting for UIP. */
bool rtc_now(char *buf, size_t cap);

#endif
