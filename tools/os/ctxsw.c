/* SPDX-License-Identifier: BSD-2-Clause */
/* Context-switch ping-pong (tools/os/ctxsw.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/os/ctxsw.h"

static bool xfer(int rfd, int wfd, char *b)
{
	if (write(wfd, b, 1) != 1)
		return false;
	return read(rfd, b, 1) == 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void child(int rfd, int wfd, int cpu)
{
	cpu_set_t set;
	char b;

	for (int s = 1; s < 32; s++) /* never touch the clocksource from here */
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof set, &set);
	/* Echo until the parent closes its end. */
	while (read(rfd, &b, 1) == 1)
		if (write(wfd, &b, 1) != 1)
			break;
	_exit(0);
}

void os_ctxsw_measure(struct os_ctxsw *c, int cpu, int rounds, uint32_t batches, uint32_t trips, double hz)
{
	int down[2], up[2], status;
	double *batch_ns;
	pid_t pid;
	char b = 'x';
	bool broken = false;

	memset(c, 0, sizeof *c);
	c->cpu = cpu;
	c->batches = batches;
	c->trips = trips;
	if (rounds > OS_MAX_ROUNDS)
		rounds = OS_MAX_ROUNDS;
	if (cpu < 0 || hz <= 0 || !batches || !trips) {
		snprintf(c->why, sizeof c->why, cpu < 0 ? "could not pin to one CPU" : "no TSC frequency");
		return;
	}
	batch_ns = calloc(batches, sizeof *batch_ns);
	if (!batch_ns || pipe(down) != 0) {
		snprintf(c->why, sizeof c->why, "out of memory or pipes");
		free(batch_ns);
		return;
	}
	if (pipe(up) != 0) {
		snprintf(c->why, sizeof c->why, "pipe: %s", strerror(errno));
		close(down[0]);
		close(down[1]);
		free(batch_ns);
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(down[1]);
		close(up[0]);
		child(down[0], up[1], cpu);
	}
	close(down[0]);
	close(up[1]);
	if (pid < 0) {
		snprintf(c->why, sizeof c->why, "fork: %s", strerror(errno));
		broken = true;
	}
	/* Warm-up: the child must be running and pinned before timing starts. */
	for (uint32_t i = 0; !broken && i < 1000; i++)
		broken = !xfer(up[0], down[1], &b);
	for (int r = 0; !broken && r < rounds; r++) {
		uint64_t round_cyc = 0;
		for (uint32_t k = 0; !broken && k < batches; k++) {
			uint64_t t0 = os_tsc_begin();
			for (uint32_t i = 0; i < trips; i++)
				if (!xfer(up[0], down[1], &b)) {
					broken = true;
					break;
				}
			uint64_t cyc = os_tsc_end() - t0;
			round_cyc += cyc;
			batch_ns[k] = os_cyc_to_ns((double)cyc, hz) / (2.0 * trips);
		}
		if (broken)
			break;
		qsort(batch_ns, batches, sizeof *batch_ns, cmp_double);
		c->round_p50_ns[r] = batches % 2 ? batch_ns[batches / 2]
						 : (batch_ns[batches / 2 - 1] + batch_ns[batches / 2]) / 2;
		c->round_mean_ns[r] = os_cyc_to_ns((double)round_cyc, hz) / (2.0 * trips * batches);
		c->round_per_s[r] = c->round_mean_ns[r] > 0 ? 1e9 / c->round_mean_ns[r] : 0;
		c->switches += 2ull * trips * batches;
		c->seconds += os_cyc_to_ns((double)round_cyc, hz) / 1e9;
		c->nrounds++;
	}
	close(down[1]);
	close(up[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	free(batch_ns);
	if (broken && pid > 0)
		snprintf(c->why, sizeof c->why, "the ping-pong child stopped answering");
	c->ok = !broken && c->nrounds == rounds;
}
