/* SPDX-License-Identifier: BSD-2-Clause */
/* A child process run under a deadline, stopped on our own signals
 * (spawn.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "tools/lib/spawn.h"

/* The clock of the deadline: CLOCK_MONOTONIC, in seconds. */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The one thing a signal handler may set: which signal asked us to stop. */
static volatile sig_atomic_t stop_signal;
static void on_signal(int sig) { stop_signal = sig; }

/* own_group: the child leads a process group of its own, so that a deadline
 * or our Ctrl-C stops everything it started (a wrapper given as --qemu and
 * the QEMU under it).  Not for a child that reads our terminal: a process
 * group in the background stops on its first read (SIGTTIN). */
static pid_t start(char **argv, const char *cwd, const char *out_path, bool own_group)
{
	int exec_err[2], e = 0;
	ssize_t got;
	pid_t pid;

	if (pipe2(exec_err, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(exec_err[0]);
		close(exec_err[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		close(exec_err[0]);
		if (own_group)
			setpgid(0, 0);
		if (out_path) {
			int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
		}
		if (cwd && chdir(cwd) != 0)
			e = errno;
		else {
			execvp(argv[0], argv);
			e = errno;
		}
		if (write(exec_err[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	if (own_group)
		setpgid(pid, pid); /* both sides: a kill(-pid) may come before the child has run */
	close(exec_err[1]);
	got = read(exec_err[0], &e, sizeof e);
	close(exec_err[0]);
	if (got == (ssize_t)sizeof e) { /* exec failed: its errno came through the pipe */
		waitpid(pid, NULL, 0);
		errno = e;
		return -1;
	}
	return pid;
}

/* Ends a child that overran or that our signal stopped: SIGTERM, 2 s for
 * it (QEMU) to flush its files and go, then SIGKILL.  With a group of its own,
 * all of the group: the leader is kept unreaped (WNOWAIT) until then, so
 * that its id cannot be given to another process meanwhile. */
static void stop(pid_t pid, bool terminal)
{
	pid_t target = terminal ? pid : -pid;
	siginfo_t info;
	int i;

	kill(target, SIGTERM);
	for (i = 0; i < 40; i++) {
		info.si_pid = 0;
		if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
			break;
		usleep(50000);
	}
	if (i == 40 || !terminal)
		kill(target, SIGKILL); /* still running, or what it started and left behind */
	waitpid(pid, NULL, 0);
}

int spawn_run(char **argv, double timeout, const char *cwd, const char *out_path, int *interrupted)
{
	/* A tool may ask on our terminal (a password, a polkit agent). */
	return spawn_watch(argv, timeout, cwd, out_path, interrupted, true, NULL, NULL);
}

int spawn_watch(char **argv, double timeout, const char *cwd, const char *out_path, int *interrupted,
		     bool terminal, void (*tick)(void *ctx), void *ctx)
{
	struct spawn_proc p = { .cwd = cwd, .out_path = out_path, .terminal = terminal };

	return spawn_proc_run(&p, argv, timeout, interrupted, tick, ctx);
}

bool spawn_proc_successor(struct spawn_proc *p, char **argv)
{
	pid_t pid;

	if (p->successor) {
		errno = EBUSY;
		return false;
	}
	/* QEMU's stdio serial sets our terminal raw and puts back, on exit,
	 * what it found: the second finds the first's raw modes. */
	p->handed_over = true;
	pid = start(argv, p->cwd, p->out_path, !p->terminal);
	if (pid < 0)
		return false;
	p->successor = pid;
	p->successor_died = false;
	return true;
}

void spawn_proc_drop_successor(struct spawn_proc *p)
{
	if (!p->successor)
		return;
	stop(p->successor, p->terminal);
	p->successor = 0;
}

/* A successor that ended before the child it was to take over from: reaped
 * here, so that it can never be waited on as the child. */
static void reap_successor(struct spawn_proc *p)
{
	int status;

	if (p->successor && waitpid(p->successor, &status, WNOHANG) == p->successor) {
		p->successor_status = status;
		p->successor_died = true;
		p->successor = 0;
	}
}

int spawn_proc_run(struct spawn_proc *p, char **argv, double timeout, int *interrupted, void (*tick)(void *ctx),
		    void *ctx)
{
	double next_tick = 0;
	struct sigaction sa, old_int, old_term;
	double deadline = now() + timeout;
	struct termios modes;
	bool have_modes;
	int status = 0;

	*interrupted = 0;
	stop_signal = 0;
	p->terminal = p->terminal && isatty(STDIN_FILENO); /* no terminal of ours to read */
	have_modes = p->terminal && tcgetattr(STDIN_FILENO, &modes) == 0;
	p->successor = 0;
	p->pid = start(argv, p->cwd, p->out_path, !p->terminal);
	if (p->pid < 0)
		return -2;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	for (;;) {
		pid_t r = waitpid(p->pid, &status, WNOHANG);
		if (r == p->pid && !p->successor)
			break;
		if (r == p->pid) { /* the hand-over: the successor is the child now */
			p->pid = p->successor;
			p->successor = 0;
			continue;
		}
		reap_successor(p);
		if (stop_signal || now() > deadline) {
			spawn_proc_drop_successor(p);
			stop(p->pid, p->terminal);
			*interrupted = stop_signal;
			status = -1;
			break;
		}
		if (tick && now() >= next_tick) {
			tick(ctx);
			next_tick = now() + (p->tick_s > 0 ? p->tick_s : 0.25);
		}
		usleep(20000);
	}
	if (have_modes && p->handed_over)
		tcsetattr(STDIN_FILENO, TCSANOW, &modes);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return status;
}
