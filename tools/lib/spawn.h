/* SPDX-License-Identifier: BSD-2-Clause */
/* A child process run with a deadline: QEMU for `tickprobe qemu`, and the
 * tools other commands run (efibootmgr for `tickprobe schedule`).  A
 * deadline, or our own SIGINT or SIGTERM, stops it: SIGTERM, then SIGKILL. */
#ifndef TOOLS_LIB_SPAWN_H
#define TOOLS_LIB_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

/* Runs argv with a deadline, in cwd (NULL: ours), its stdout and stderr to
 * out_path (NULL: ours).  Returns the wait status, or -1 when it had to be
 * killed (timeout, or a SIGINT/SIGTERM of ours: *interrupted says which),
 * -2 when it could not start (errno set).  Unless our stdin is a terminal,
 * the child leads a process group of its own and a kill ends the whole
 * group: whatever a wrapper started goes with it (spawn_watch). */
int spawn_run(char **argv, double timeout, const char *cwd, const char *out_path, int *interrupted);
/* The same, calling tick(ctx) about 4 times a second while it waits.
 * terminal: the child may read our terminal (QEMU's serial on stdio); when
 * our stdin is one, the child stays in our process group, since a group in
 * the background stops on its first read, and only the child is killed.
 * Otherwise it leads a group of its own and a kill ends the whole group. */
int spawn_watch(char **argv, double timeout, const char *cwd, const char *out_path, int *interrupted, bool terminal,
		void (*tick)(void *ctx), void *ctx);

/* The child of a run and the one that takes over from it (QEMU and a
 * migration's destination), which the tick starts (spawn_proc_successor)
 * while the first still runs.  When the child waited on exits and a
 * successor runs, the successor becomes the child, under the same deadline;
 * a kill (deadline, our SIGINT or SIGTERM) stops both. */
struct spawn_proc {
	pid_t pid;            /* the child waited on */
	pid_t successor;      /* 0, or the child that takes over when pid exits */
	int successor_status; /* the wait status of a successor that exited first */
	bool successor_died;  /* ... and that it did (it is reaped, successor is 0) */
	bool terminal;        /* as spawn_watch's, after the isatty test */
	bool handed_over;     /* a successor was started: the terminal's modes are put back at the end */
	const char *cwd, *out_path;
	double tick_s; /* how often the tick runs; 0: 0.25 s.  The tick may change it. */
};
/* spawn_watch with p (zeroed, then cwd, out_path, terminal and tick_s
 * set by the caller); p->pid is the first child once it started. */
int spawn_proc_run(struct spawn_proc *p, char **argv, double timeout, int *interrupted, void (*tick)(void *ctx),
		   void *ctx);
/* From the tick: starts argv as the first child was started and makes it
 * the successor.  False (errno set) when it could not start, or one runs. */
bool spawn_proc_successor(struct spawn_proc *p, char **argv);
/* From the tick: ends the successor (a destination that did not come up). */
void spawn_proc_drop_successor(struct spawn_proc *p);

#endif
