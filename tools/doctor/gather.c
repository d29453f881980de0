/* SPDX-License-Identifier: BSD-2-Clause */
/* The running system's facts for `tickprobe doctor` (gather.h). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/lib/json_out.h"
#include "tools/commands.h"
#include "tools/doctor/gather.h"
#include "tools/lib/logschema.h"
#include "tools/lib/logdir.h"
#include "tools/lib/verdict.h"

#define CS_DIR "sys/devices/system/clocksource/clocksource0"

static bool read_small(const char *root, const char *rel, char *out, size_t cap)
{
	char path[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "%s/%s", root[0] ? root : "", rel);
	out[0] = 0;
	if (!(f = fopen(path, "r")))
		return false;
	n = fread(out, 1, cap - 1, f);
	out[n] = 0;
	fclose(f);
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = 0;
	return true;
}

static void read_cmdline(struct host_facts *h)
{
	char copy[sizeof h->cmdline], *save = NULL;

	h->cmdline_ok = read_small(h->root, "proc/cmdline", h->cmdline, sizeof h->cmdline);
	snprintf(copy, sizeof copy, "%s", h->cmdline);
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		size_t len = strlen(h->p_words);
		if (!strncmp(w, "tsc=", 4) || !strncmp(w, "clocksource=", 12) || !strcmp(w, "nohpet") ||
		    !strcmp(w, "hpet=disable"))
			snprintf(h->p_words + len, sizeof h->p_words - len, "%s%s", len ? " " : "", w);
		if (!strncmp(w, "tsc=", 4)) {
			size_t n = strlen(h->p_tsc);
			snprintf(h->p_tsc + n, sizeof h->p_tsc - n, "%s%s", n ? "," : "", w + 4);
		} else if (!strncmp(w, "clocksource=", 12)) {
			snprintf(h->p_clocksource, sizeof h->p_clocksource, "%s", w + 12);
		} else if (!strcmp(w, "nohpet") || !strcmp(w, "hpet=disable")) {
			h->p_nohpet = true;
		}
	}
}

void host_gather(struct host_facts *h, const char *root)
{
	char avail[1024], *save = NULL;
	struct utsname u;
	unsigned a = 0;
	unsigned b = 0;
	unsigned c = 0;
	unsigned d = 0;

	memset(h, 0, sizeof *h);
	snprintf(h->root, sizeof h->root, "%s", root ? root : "");
	h->sysfs_ok = read_small(h->root, CS_DIR "/current_clocksource", h->current, sizeof h->current);
	read_small(h->root, CS_DIR "/available_clocksource", avail, sizeof avail);
	for (char *w = strtok_r(avail, " \t\n", &save); w && h->navailable < HOST_CS_MAX; w = strtok_r(NULL, " \t\n", &save))
		snprintf(h->available[h->navailable++], sizeof h->available[0], "%s", w);
	read_cmdline(h);
	read_small(h->root, "sys/class/dmi/id/sys_vendor", h->dmi_vendor, sizeof h->dmi_vendor);
	read_small(h->root, "sys/class/dmi/id/product_name", h->dmi_product, sizeof h->dmi_product);
	read_small(h->root, "sys/class/dmi/id/bios_version", h->dmi_bios, sizeof h->dmi_bios);
	host_machine_read(&h->m);
	/* Linux sets TSC_KNOWN_FREQ (no refinement against the HPET or PM timer)
	 * where leaf 0x15 gives the crystal's Hz in ECX. */
	if (__get_cpuid_max(0, NULL) >= 0x15) {
		__cpuid_count(0x15, 0, a, b, c, d);
		h->tsc_known_freq = a && b && c;
	}
	/* A fake tree stands for another machine: this one's uname is not its. */
	if (h->root[0]) {
		if (read_small(h->root, "proc/sys/kernel/osrelease", h->release, sizeof h->release))
			snprintf(h->release_from, sizeof h->release_from, "%s/proc/sys/kernel/osrelease", h->root);
	} else if (uname(&u) == 0) {
		snprintf(h->release, sizeof h->release, "%s", u.release);
		snprintf(h->release_from, sizeof h->release_from, "uname -r");
	}
}

bool host_has_cs(const struct host_facts *h, const char *cs)
{
	for (int i = 0; i < h->navailable; i++)
		if (!strcmp(h->available[i], cs))
			return true;
	return false;
}

/* ---- the fingerprint: tools/db's machine key, field by field -------------- */

static const char *field_text(const struct lr_node *n, char *b, size_t cap)
{
	if (!n || n->kind == LR_NULL)
		return "null";
	if (n->kind == LR_STR)
		return n->str;
	return fmt_num(b, cap, n, -1);
}

const char *fingerprint_differs(const struct lrun *r, const struct host_machine *m, char *why, size_t cap)
{
	const struct lr_node *rec = lrun_first(r, "machine");
	char here[8][64], b[64];
	const char *fields[8] = { "cpu_vendor", "cpu_brand", "family", "model", "stepping", "microcode",
				  "hypervisor", "cores" };

	if (!rec) {
		snprintf(why, cap, "it has no machine record to tell whose it is");
		return why;
	}
	snprintf(here[0], 64, "%s", m->vendor);
	snprintf(here[1], 64, "%s", m->brand);
	snprintf(here[2], 64, "%u", m->family);
	snprintf(here[3], 64, "%u", m->model);
	snprintf(here[4], 64, "%u", m->stepping);
	if (m->microcode >= 0)
		snprintf(here[5], 64, "%lld", m->microcode);
	else
		snprintf(here[5], 64, "null");
	snprintf(here[6], 64, "%s", m->hypervisor[0] ? m->hypervisor : "null");
	snprintf(here[7], 64, "%ld", m->cores);
	for (int i = 0; i < 8; i++) {
		const char *there = field_text(lr_get(rec, fields[i]), b, sizeof b);
		if (strcmp(there, here[i])) {
			snprintf(why, cap, "%s is '%s' here but '%s' in the log", fields[i], here[i], there);
			return why;
		}
	}
	return NULL;
}

void fingerprint_json(FILE *o, const struct host_machine *m)
{
	fputs("{\"cpu_vendor\":", o);
	json_out_str(o, m->vendor);
	fputs(",\"cpu_brand\":", o);
	json_out_str(o, m->brand);
	fprintf(o, ",\"family\":%u,\"model\":%u,\"stepping\":%u,\"microcode\":", m->family, m->model, m->stepping);
	if (m->microcode >= 0)
		fprintf(o, "%lld", m->microcode);
	else
		fputs("null", o);
	fputs(",\"hypervisor\":", o);
	if (m->hypervisor[0])
		json_out_str(o, m->hypervisor);
	else
		fputs("null", o);
	fprintf(o, ",\"cores\":%ld,\"invariant_tsc\":%s}", m->cores, m->invariant_tsc ? "true" : "false");
}

/* ---- the bare-metal log ---------------------------------------------------- */

char *bare_find(const struct host_machine *m, int *seen)
{
	struct loglist dirs = { 0 }, logs = { 0 };
	char *best = NULL, why[256];
	time_t best_t = 0;

	*seen = 0;
	logdirs_default(&dirs);
	if (dirs.n)
		loglist_expand(&logs, dirs.paths, dirs.n, "tickprobe doctor");
	for (size_t i = 0; i < logs.n; i++) {
		struct logfile f;
		struct stat st;
		const char *boot;
		if (stat(logs.paths[i], &st) != 0)
			continue;
		logfile_load(&f, logs.paths[i]);
		(*seen)++;
		boot = f.nruns ? lrun_boot(&f.runs[f.nruns - 1]) : NULL;
		if (f.nruns && boot && strcmp(boot, "linux") &&
		    !fingerprint_differs(&f.runs[f.nruns - 1], m, why, sizeof why) && (!best || st.st_mtime >= best_t)) {
			free(best);
			best = strdup(logs.paths[i]);
			best_t = st.st_mtime;
		}
		logfile_free(&f);
	}
	loglist_free(&logs);
	loglist_free(&dirs);
	return best;
}

/* ---- costs ------------------------------------------------------------------ */

int costs_from_log(struct host_costs *c, const char *path, char *why, size_t cap)
{
	struct logfile f;
	int st = logfile_load(&f, path);

	c->n = 0;
	c->raw_tsc_ns = -1;
	snprintf(c->source, sizeof c->source, "from %s", path);
	if (st == EXIT_UNREADABLE || !f.nruns) {
		snprintf(why, cap, "%s: %s", path, st == EXIT_UNREADABLE ? f.why : "no run in it");
		logfile_free(&f);
		return EXIT_UNREADABLE;
	}
	for (size_t i = 0; i < f.runs[f.nruns - 1].nrecs && c->n < HOST_CS_MAX; i++) {
		const struct lrec *rec = &f.runs[f.nruns - 1].recs[i];
		struct ld_timer t;
		bool p50 = false;
		if (strcmp(rec->type, "timer"))
			continue;
		ld_decode_timer(rec->root, &t);
		p50 = t.cost_ns.p50.state == LD_SET;
		if (t.clocksource.state != LD_SET && t.name.state == LD_SET && !strcmp(t.name.s, "tsc") && p50)
			c->raw_tsc_ns = t.cost_ns.p50.v;
		if (t.call.state != LD_SET || t.clocksource.state != LD_SET ||
		    strcmp(t.call.s, "clock_gettime(MONOTONIC)") || !p50)
			continue;
		snprintf(c->c[c->n].cs, sizeof c->c[0].cs, "%s", t.clocksource.s);
		c->c[c->n++].ns = t.cost_ns.p50.v;
	}
	if (!c->n) {
		snprintf(why, cap, "%s has no clock_gettime(MONOTONIC) timing: not a `tickprobe os` log", path);
		logfile_free(&f);
		return EXIT_UNREADABLE;
	}
	logfile_free(&f);
	return 0;
}

/* One line of the measuring child's stderr: the restore record's and the
 * lock's lines passed on at once (why the doctor waits, what it put back),
 * and the last one kept, for the reason when the child fails. */
static void child_line(const char *line, char *last, size_t cap)
{
	static const char prefix[] = "tickprobe os: ";
	const char *text = line + sizeof prefix - 1;

	if (strncmp(line, prefix, sizeof prefix - 1))
		return;
	if (!strncmp(text, "restore record", 14) || strstr(text, "is switching clocksources"))
		fprintf(stderr, "tickprobe doctor: %s\n", text);
	snprintf(last, cap, "%.*s", (int)cap - 1, text);
}

/* The child's stderr, line by line, to its end (the child's). */
static void child_words(int fd, char *last, size_t cap)
{
	char buf[4096], line[600];
	size_t n = 0;
	ssize_t r;

	last[0] = 0;
	while ((r = read(fd, buf, sizeof buf)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] != '\n' && n + 1 < sizeof line)
				line[n++] = buf[i];
			if (buf[i] != '\n')
				continue;
			line[n] = 0;
			n = 0;
			child_line(line, last, cap);
		}
	}
}

/* The child: `tickprobe os --quick` itself, into tmp, on root's tree, its
 * stderr into err_fd. */
static void measure_child(const char *tmp, const char *root, int err_fd)
{
	char *argv[8];
	int k = 0, null = open("/dev/null", O_WRONLY);

	argv[k++] = "os";
	argv[k++] = "--quick";
	argv[k++] = "-o";
	argv[k++] = (char *)tmp;
	if (root) {
		argv[k++] = "--sysfs-root";
		argv[k++] = (char *)root;
	}
	if (geteuid() == 0)
		argv[k++] = "--switch";
	argv[k] = NULL;
	if (null >= 0)
		dup2(null, 1);
	dup2(err_fd, 2);
	_exit(cmd_os(k, argv));
}

int costs_measure(struct host_costs *c, const char *root, char *why, size_t cap)
{
	char tmp[] = "/tmp/tickprobe-doctor-XXXXXX", last[400] = "";
	int fd = mkstemp(tmp), status = 0, rc, words[2];
	pid_t pid;

	if (fd < 0 || pipe2(words, O_CLOEXEC) != 0) {
		snprintf(why, cap, "cannot make a temporary file or pipe: %s", strerror(errno));
		if (fd >= 0)
			unlink(tmp);
		return EXIT_UNREADABLE;
	}
	close(fd);
	fflush(NULL);
	if ((pid = fork()) == 0)
		measure_child(tmp, root, words[1]);
	close(words[1]);
	if (pid > 0)
		child_words(words[0], last, sizeof last);
	close(words[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(why, cap, "tickprobe os --quick did not finish (status %d)%s%s",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1, last[0] ? ": " : "", last);
		unlink(tmp);
		return EXIT_UNREADABLE;
	}
	rc = costs_from_log(c, tmp, why, cap);
	snprintf(c->source, sizeof c->source, "measured now: tickprobe os --quick%s",
		 geteuid() == 0 ? " --switch (every available clocksource, the original put back)" :
				  " (the current clocksource only: switching needs root)");
	unlink(tmp);
	return rc;
}

int watch_measure(uint32_t seconds, char *tmp, char *why, size_t cap)
{
	int fd = mkstemp(tmp), status = 0;
	char dur[16];
	pid_t pid;

	if (fd < 0) {
		snprintf(why, cap, "cannot make a temporary file: %s", strerror(errno));
		return EXIT_UNREADABLE;
	}
	close(fd);
	snprintf(dur, sizeof dur, "%u", seconds);
	fprintf(stderr, "tickprobe doctor: watching every clock for %u s (tickprobe os --watch%s)\n", seconds,
		geteuid() == 0 ? " --raw-io" : "; as root it reads the HPET and the PM timer too");
	fflush(NULL);
	if ((pid = fork()) == 0) {
		char *argv[] = { "os", "--watch", dur, "-q", "-o", tmp, geteuid() == 0 ? "--raw-io" : NULL, NULL };
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 1);
		_exit(cmd_os(geteuid() == 0 ? 7 : 6, argv));
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(why, cap, "tickprobe os --watch did not finish (status %d)",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		unlink(tmp);
		return EXIT_UNREADABLE;
	}
	return 0;
}

double costs_of(const struct host_costs *c, const char *cs)
{
	for (int i = 0; cs && i < c->n; i++)
		if (!strcmp(c->c[i].cs, cs))
			return c->c[i].ns;
	return -1;
}
