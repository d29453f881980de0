/* SPDX-License-Identifier: BSD-2-Clause */
/* Printing the doctor's conclusion (output.c). */
#ifndef TOOLS_DOCTOR_OUTPUT_H
#define TOOLS_DOCTOR_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include "tools/doctor/doctor.h"

struct doctor_report {
	const struct doctor_inputs *in;
	const struct conclusion *c;
	const char *bare_note;   /* where the bare log came from, or why there is none */
	bool override;           /* --same-machine was needed */
};

void doctor_print_text(FILE *o, const struct doctor_report *r);
void doctor_print_json(FILE *o, const struct doctor_report *r);

#endif
