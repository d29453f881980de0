/* SPDX-License-Identifier: BSD-2-Clause */
/* The list of the counters' drivers (drivers/drivers.c), for the platform
 * to hand the run (probe/platform.h's drivers). */
#ifndef DRIVERS_DRIVERS_H
#define DRIVERS_DRIVERS_H

#include "probe/counter.h"

extern const struct counter_driver *const counter_drivers[];
extern const unsigned n_counter_drivers;

#endif
