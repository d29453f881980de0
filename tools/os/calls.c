/* SPDX-License-Identifier: BSD-2-Clause */
/* The clock calls, their samplers, the vDSO probe and the seeds' loops (tools/os/calls.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include "tools/os/calls.h"

#define GT(clk)                                                           \
	do {                                                              \
		struct timespec ts_;                                      \
		clock_gettime(clk, &ts_);                                 \
		os_sink = (uint64_t)ts_.tv_nsec;                          \
	} while (0)
#define GTOD()                                                            \
	do {                                                              \
		struct timeval tv_;                                       \
		gettimeofday(&tv_, NULL);                                 \
		os_sink = (uint64_t)tv_.tv_usec;                          \
	} while (0)
#define TIME() (os_sink = (uint64_t)time(NULL))
#define SYSGT()                                                           \
	do {                                                              \
		struct timespec ts_;                                      \
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts_);        \
		os_sink = (uint64_t)ts_.tv_nsec;                          \
	} while (0)

OS_SAMPLER(s_mono, GT(CLOCK_MONOTONIC))
OS_SAMPLER(s_raw, GT(CLOCK_MONOTONIC_RAW))
OS_SAMPLER(s_real, GT(CLOCK_REALTIME))
OS_SAMPLER(s_coarse, GT(CLOCK_MONOTONIC_COARSE))
OS_SAMPLER(s_gtod, GTOD())
OS_SAMPLER(s_time, TIME())
OS_SAMPLER(s_sys, SYSGT())
OS_BLOCK(b_mono, GT(CLOCK_MONOTONIC))
OS_BLOCK(b_raw, GT(CLOCK_MONOTONIC_RAW))
OS_BLOCK(b_real, GT(CLOCK_REALTIME))
OS_BLOCK(b_coarse, GT(CLOCK_MONOTONIC_COARSE))
OS_BLOCK(b_gtod, GTOD())
OS_BLOCK(b_time, TIME())
OS_BLOCK(b_sys, SYSGT())

const struct os_call os_calls[OS_NCALLS] = {
	[OS_CALL_MONO] = { "clock_gettime(MONOTONIC)", "clock_gettime(CLOCK_MONOTONIC) through the C library", s_mono, b_mono },
	[OS_CALL_MONO_RAW] = { "clock_gettime(MONOTONIC_RAW)", "clock_gettime(CLOCK_MONOTONIC_RAW) through the C library", s_raw, b_raw },
	[OS_CALL_REALTIME] = { "clock_gettime(REALTIME)", "clock_gettime(CLOCK_REALTIME) through the C library", s_real, b_real },
	[OS_CALL_MONO_COARSE] = { "clock_gettime(MONOTONIC_COARSE)", "clock_gettime(CLOCK_MONOTONIC_COARSE) through the C library", s_coarse, b_coarse },
	[OS_CALL_GTOD] = { "gettimeofday", "gettimeofday(&tv, NULL) through the C library", s_gtod, b_gtod },
	[OS_CALL_TIME] = { "time", "time(NULL) through the C library", s_time, b_time },
	[OS_CALL_SYSCALL] = { "syscall(clock_gettime,MONOTONIC)", "syscall(SYS_clock_gettime, CLOCK_MONOTONIC): always a system call, the reference for the vDSO test", s_sys, b_sys },
};

/* --- the vDSO probe -------------------------------------------------------- */

/* One call made in the filtered child: true when it entered the kernel. */
static bool entered_kernel(int id)
{
	struct timespec ts;
	struct timeval tv;
	long r = 0;

	errno = 0;
	switch (id) {
	case OS_CALL_MONO: r = clock_gettime(CLOCK_MONOTONIC, &ts); break;
	case OS_CALL_MONO_RAW: r = clock_gettime(CLOCK_MONOTONIC_RAW, &ts); break;
	case OS_CALL_REALTIME: r = clock_gettime(CLOCK_REALTIME, &ts); break;
	case OS_CALL_MONO_COARSE: r = clock_gettime(CLOCK_MONOTONIC_COARSE, &ts); break;
	case OS_CALL_GTOD: r = gettimeofday(&tv, NULL); break;
	case OS_CALL_TIME: r = (long)time(NULL); break;
	case OS_CALL_SYSCALL: r = syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts); break;
	}
	return r == -1 && errno == EDOM;
}

static int install_filter(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clock_gettime, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_gettimeofday, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_time, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EDOM & SECCOMP_RET_DATA)),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof f / sizeof f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

static bool read_all(int fd, void *buf, size_t n)
{
	char *p = buf;
	while (n) {
		ssize_t r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		n -= (size_t)r;
	}
	return true;
}

void os_vdso_probe(struct os_vdso_probe *p, uint32_t calls)
{
	int fds[2], status = 0;
	int32_t res[OS_NCALLS + 1]; /* [0]: filter status (0 ok, else errno) */
	pid_t pid;

	memset(p, 0, sizeof *p);
	p->calls = calls;
	p->vdso_mapped = getauxval(AT_SYSINFO_EHDR) != 0;
	if (pipe(fds) != 0) {
		snprintf(p->why, sizeof p->why, "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(p->why, sizeof p->why, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		/* The child must never touch the clocksource: default signal actions. */
		for (int s = 1; s < 32; s++)
			if (s != SIGKILL && s != SIGSTOP)
				signal(s, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(fds[0]);
		memset(res, 0, sizeof res);
		if (install_filter() != 0)
			res[0] = errno ? errno : -1;
		else
			for (int id = 0; id < OS_NCALLS; id++)
				for (uint32_t i = 0; i < calls; i++)
					res[id + 1] += entered_kernel(id);
		if (write(fds[1], res, sizeof res) != (ssize_t)sizeof res)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (!read_all(fds[0], res, sizeof res)) {
		snprintf(p->why, sizeof p->why, "the filtered child gave no answer");
		close(fds[0]);
		waitpid(pid, &status, 0);
		return;
	}
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (res[0]) {
		snprintf(p->why, sizeof p->why, "seccomp filter refused: %s", strerror(res[0] > 0 ? res[0] : EPERM));
		return;
	}
	for (int id = 0; id < OS_NCALLS; id++)
		p->syscalls[id] = (uint32_t)res[id + 1];
	if (p->syscalls[OS_CALL_SYSCALL] != calls) {
		snprintf(p->why, sizeof p->why, "the filter caught %u of %u reference system calls",
			 p->syscalls[OS_CALL_SYSCALL], calls);
		return;
	}
	p->ok = true;
}

/* --- the seeds' loops ------------------------------------------------------- */

double os_loop_rate(uint32_t calls, double hz)
{
	uint64_t cyc = b_mono(calls);
	return cyc && hz > 0 ? (double)calls * hz / (double)cyc : 0;
}

#define GAP_CHUNK 65536u /* 512 KB of results: the loop only stores, no arithmetic */

void os_gaps(struct hist *h, uint32_t samples, uint64_t *backwards)
{
	static uint64_t buf[GAP_CHUNK + 1];
	uint32_t done = 0;
	struct timespec ts;

	*backwards = 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	buf[GAP_CHUNK] = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	while (done < samples) {
		uint32_t n = samples - done < GAP_CHUNK ? samples - done : GAP_CHUNK;
		buf[0] = buf[GAP_CHUNK]; /* the last result of the previous chunk */
		for (uint32_t i = 1; i <= n; i++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			buf[i] = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		}
		for (uint32_t i = 1; i <= n; i++) {
			if (buf[i] < buf[i - 1])
				(*backwards)++;
			else
				hist_add(h, buf[i] - buf[i - 1]);
		}
		buf[GAP_CHUNK] = buf[n];
		done += n;
	}
}
