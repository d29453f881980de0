/* SPDX-License-Identifier: BSD-2-Clause */
/* The textfile collector's file (prometheus.h). */
#include "tools/os/prometheus.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tools/lib/logset.h"
#include "tools/lib/metrics.h"

int os_prometheus_write(const char *path, const char *log, size_t n, char *why, size_t cap)
{
	char tmp[4200];
	struct logfile f;
	struct metrics_run run;
	struct metrics_opts mo = { false };
	FILE *o;
	int fd, err = 0;

	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
		snprintf(why, cap, "--prometheus %s: the path is too long", path);
		return -1;
	}
	logfile_load_mem(&f, "tickprobe os", log, n);
	if (!f.nruns) {
		snprintf(why, cap, "--prometheus: the run wrote no records");
		logfile_free(&f);
		return -1;
	}
	/* A link left where the temporary file goes is not followed. */
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	o = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!o) {
		snprintf(why, cap, "--prometheus %s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		logfile_free(&f);
		return -1;
	}
	run.r = &f.runs[f.nruns - 1];
	run.log = NULL;
	metrics_write(o, &run, 1, &mo);
	if (fflush(o) || fsync(fileno(o)))
		err = errno;
	if (fclose(o) && !err)
		err = errno;
	logfile_free(&f);
	if (!err && rename(tmp, path))
		err = errno;
	if (err) {
		snprintf(why, cap, "--prometheus %s: %s", path, strerror(err));
		unlink(tmp);
		return -1;
	}
	return 0;
}
