/* SPDX-License-Identifier: BSD-2-Clause */
/* Raw counter reads from user space (tools/os/raw.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mman.h>
#include <unistd.h>
#include "acpi/acpi.h"
#include "lib/hwregs.h"
#include "tools/lib/fdread.h"
#include "tools/os/bench.h"
#include "tools/os/raw.h"
#include "tools/os/record.h"


/* The devices the samplers read: file scope, as OS_SAMPLER's bodies name
 * them without arguments. */
static struct {
	uint16_t pm_port;
	volatile const uint32_t *hpet_counter;
} dev;

static inline uint32_t inl_port(uint16_t port)
{
	uint32_t v;
	__asm__ volatile("inl %w1, %0" : "=a"(v) : "Nd"(port) : "memory");
	return v;
}

static inline uint64_t rdtsc_plain(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t rdtscp_plain(void)
{
	uint32_t lo, hi, aux;
	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	return (uint64_t)hi << 32 | lo;
}

OS_SAMPLER(s_rdtsc, os_sink = rdtsc_plain())
OS_SAMPLER(s_rdtscp, os_sink = rdtscp_plain())
OS_SAMPLER(s_pm, os_sink = inl_port(dev.pm_port))
OS_SAMPLER(s_hpet, os_sink = *dev.hpet_counter)
OS_BLOCK(b_rdtsc, os_sink = rdtsc_plain())
OS_BLOCK(b_rdtscp, os_sink = rdtscp_plain())
OS_BLOCK(b_pm, os_sink = inl_port(dev.pm_port))
OS_BLOCK(b_hpet, os_sink = *dev.hpet_counter)

/* A whole file of at most cap bytes; returns its length or -1 (errno set). */
static long read_file(const char *path, uint8_t *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;
	int e;

	if (fd < 0)
		return -1;
	got = fd_read_upto(fd, buf, cap);
	e = errno;
	close(fd);
	errno = e;
	return (long)got;
}

/* One (TSC, counter) pair: the tightest of 9 bracketed reads, the TSC taken
 * at the bracket's middle.  A read the machine interrupted (an SMI, or
 * under TCG the host preempting the vCPU: a millisecond is seen on a loaded
 * host) has a wide bracket and is not the one kept. */
static void pair(uint32_t (*read)(void), double *tsc, uint32_t *v)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 9; i++) {
		uint64_t a = os_tsc_begin();
		uint32_t x = read();
		uint64_t b = os_tsc_end();
		if (b - a < best) {
			best = b - a;
			*tsc = (double)a + (double)(b - a) / 2;
			*v = x;
		}
	}
}

/* Counter ticks per second against the TSC over ms milliseconds; mask is
 * the counter's width (a single wrap is undone). */
static double measure_hz(uint32_t (*read)(void), uint32_t mask, double tsc_hz, int ms)
{
	uint64_t want = (uint64_t)(tsc_hz * ms / 1000), start;
	double t0, t1;
	uint32_t v0, v1;

	pair(read, &t0, &v0);
	start = os_tsc_begin();
	while (os_tsc_begin() - start < want)
		;
	pair(read, &t1, &v1);
	return t1 > t0 ? (double)((v1 - v0) & mask) * tsc_hz / (t1 - t0) : 0;
}

static uint32_t read_pm(void) { return inl_port(dev.pm_port); }
static uint32_t read_hpet(void) { return *dev.hpet_counter; }

/* As the image does: a counter more than 2 % off its nominal rate is not
 * the device the tables describe (or not running at its rate). */
static void off_nominal(const struct os_timer_rec *r, char *why, size_t cap)
{
	double ppm = (r->measured_hz - r->nominal_hz) / r->nominal_hz * 1e6;

	if (ppm > 20000 || ppm < -20000)
		snprintf(why, cap, "%s counts at %.0f Hz, nominal %.0f Hz (%.0f ppm)", r->name, r->measured_hz,
			 r->nominal_hz, ppm);
}

struct ctx {
	struct log *l;
	const struct os_raw_opts *o;
	struct os_raw_line *lines;
	int n, *unhealthy;
};

/* Measure and write one counter, or write why it was skipped (reason set). */
static void one(struct ctx *c, struct os_timer_rec *r, os_sampler_fn s, os_block_fn b)
{
	struct os_raw_line *ln = &c->lines[c->n++];
	struct os_dist *d = NULL;

	snprintf(ln->name, sizeof ln->name, "%s", r->name);
	r->hz = c->o->hz;
	r->samples_requested = c->o->samples_per_round * (uint32_t)c->o->rounds;
	if (r->healthy) {
		d = os_dist_new();
		if (!d) {
			r->healthy = false;
			r->reason = "out of memory";
		}
	}
	if (r->healthy) {
		os_measure(d, s, b, c->o->rounds, c->o->samples_per_round, c->o->tp_reads, c->o->subtract, c->o->hz);
		r->d = d;
		ln->p50_ns = os_cyc_to_ns((double)hist_quantile(d->h, 500000), c->o->hz);
		ln->mean_ns = os_cyc_to_ns(hist_mean(d->h), c->o->hz);
	} else {
		snprintf(ln->reason, sizeof ln->reason, "%s", r->reason);
		(*c->unhealthy)++;
	}
	ln->healthy = r->healthy;
	os_write_timer(c->l, r);
	os_dist_free(d);
}

bool os_raw_pm_open(const struct acpi_info *ai, double tsc_hz, uint16_t *port, uint32_t *mask, char *why,
		    size_t cap)
{
	*port = 0;
	*mask = 0xffffff;
	if (ai->pm_space == ACPI_SPACE_NONE) {
		snprintf(why, cap, "no PM timer: %s", ai->pm_none ? ai->pm_none : "none in the FADT");
		return false;
	}
	if (ai->pm_space != ACPI_SPACE_IO) {
		snprintf(why, cap, "PM timer in memory space at 0x%llx: not read from user space",
			 (unsigned long long)ai->pm_address);
		return false;
	}
	if (ai->pm_address > 0xfffc) {
		snprintf(why, cap, "PM timer port 0x%llx out of range", (unsigned long long)ai->pm_address);
		return false;
	}
	*port = (uint16_t)ai->pm_address;
	if (ai->pm_bits == 32)
		*mask = 0xffffffff;
	if (ioperm(*port, 4, 1) != 0 && iopl(3) != 0) {
		snprintf(why, cap, "ioperm(0x%x) refused: %s", *port, strerror(errno));
		return false;
	}
	uint32_t v0 = inl_port(*port), v1;
	uint64_t t0 = os_tsc_begin();
	while (os_tsc_begin() - t0 < (uint64_t)(tsc_hz / 1000)) /* 1 ms: 3580 ticks */
		;
	v1 = inl_port(*port);
	if (v0 == 0xffffffff || v0 == v1 || (v0 & ~*mask)) {
		snprintf(why, cap, "PM timer at port 0x%x does not tick (0x%x then 0x%x)", *port, v0, v1);
		os_raw_pm_close(*port);
		return false;
	}
	return true;
}

void os_raw_pm_close(uint16_t port)
{
	if (!port)
		return;
	ioperm(port, 4, 0); /* give the access back: nothing later needs it */
	iopl(0);
}

static void pm_timer(struct ctx *c, const struct acpi_info *ai, const char *acpi_why)
{
	char why[200] = "";
	struct os_timer_rec r = { .name = "acpi-fast", .call = "inl(pm_timer)",
				  .method = "one inl from the PM timer port, after ioperm()" };
	uint32_t mask = 0xffffff;

	if (acpi_why)
		snprintf(why, sizeof why, "%s", acpi_why);
	else
		os_raw_pm_open(ai, c->o->hz, &dev.pm_port, &mask, why, sizeof why);
	r.width = dev.pm_port ? (mask == 0xffffffff ? 32 : 24) : 0;
	r.present = dev.pm_port != 0;
	r.address = dev.pm_port;
	if (!why[0]) {
		r.has_freq = true;
		r.nominal_hz = (double)ACPI_PM_HZ;
		r.measured_hz = measure_hz(read_pm, mask, c->o->hz, c->o->freq_ms);
		off_nominal(&r, why, sizeof why);
	}
	r.healthy = !why[0];
	r.reason = why;
	one(c, &r, s_pm, b_pm);
	os_raw_pm_close(dev.pm_port);
	dev.pm_port = 0;
}

bool os_raw_hpet_open(const struct acpi_info *ai, struct os_raw_hpet *h, char *why, size_t cap)
{
	size_t maplen = 4096;
	volatile uint8_t *page = NULL;
	int fd, e1;

	memset(h, 0, sizeof *h);
	if (!ai->have_hpet) {
		snprintf(why, cap, "no HPET: %s", ai->hpet_none ? ai->hpet_none : "no HPET table");
		return false;
	}
	/* /dev/hpet maps the block only with CONFIG_HPET_MMAP and hpet_mmap=1. */
	fd = open("/dev/hpet", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		void *p = mmap(NULL, maplen, PROT_READ, MAP_SHARED, fd, 0);
		close(fd);
		if (p != MAP_FAILED) {
			page = h->map = p;
			snprintf(h->method, sizeof h->method, "a 32-bit load of the main counter, /dev/hpet mapped");
		}
	}
	e1 = errno;
	if (!page) {
		fd = open("/dev/mem", O_RDONLY | O_SYNC | O_CLOEXEC);
		if (fd < 0) {
			snprintf(why, cap, "HPET at 0x%llx: /dev/hpet not mappable (%s), no /dev/mem (%s)",
				 (unsigned long long)ai->hpet_address, strerror(e1), strerror(errno));
			return false;
		}
		void *p = mmap(NULL, maplen, PROT_READ, MAP_SHARED, fd, (off_t)(ai->hpet_address & ~0xfffull));
		int e2 = errno;
		close(fd);
		if (p == MAP_FAILED) {
			snprintf(why, cap, "HPET at 0x%llx: /dev/hpet not mappable (%s), /dev/mem refused (%s)",
				 (unsigned long long)ai->hpet_address, strerror(e1), strerror(e2));
			return false;
		}
		h->map = p;
		page = (volatile uint8_t *)p + (ai->hpet_address & 0xfff);
		snprintf(h->method, sizeof h->method, "a 32-bit load of the main counter, /dev/mem mapped at 0x%llx",
			 (unsigned long long)ai->hpet_address);
	}
	h->maplen = maplen;
	h->counter = (volatile const uint32_t *)(page + HPET_REG_COUNTER);
	uint32_t period = *(volatile uint32_t *)(page + HPET_REG_CAP + 4); /* femtoseconds per tick */
	uint32_t conf = *(volatile uint32_t *)(page + HPET_REG_CONFIG);
	if (period == 0 || period > 100000000u) { /* all ones (nothing answers) is over too */
		snprintf(why, cap, "HPET period register reads %u fs: not a working HPET", period);
		return false;
	}
	if (!(conf & HPET_CONFIG_ENABLE)) {
		snprintf(why, cap, "HPET counter halted (ENABLE_CNF clear); not started from here");
		return false;
	}
	h->nominal_hz = 1e15 / period;
	return true;
}

void os_raw_hpet_close(struct os_raw_hpet *h)
{
	if (h->map)
		munmap(h->map, h->maplen);
	memset(h, 0, sizeof *h);
}

static void hpet(struct ctx *c, const struct acpi_info *ai, const char *acpi_why)
{
	char why[200] = "";
	struct os_timer_rec r = { .name = "hpet", .call = "load(hpet_counter)" };
	struct os_raw_hpet h;

	memset(&h, 0, sizeof h);
	if (acpi_why)
		snprintf(why, sizeof why, "%s", acpi_why);
	else if (os_raw_hpet_open(ai, &h, why, sizeof why)) {
		dev.hpet_counter = h.counter;
		r.has_freq = true;
		r.nominal_hz = h.nominal_hz;
		r.measured_hz = measure_hz(read_hpet, 0xffffffff, c->o->hz, c->o->freq_ms);
		off_nominal(&r, why, sizeof why);
	}
	r.method = h.method[0] ? h.method : "a 32-bit load of the main counter";
	r.healthy = !why[0];
	r.present = !acpi_why && ai->have_hpet;
	r.address = r.present ? ai->hpet_address : 0;
	r.width = r.present ? 32 : 0;
	r.reason = why;
	one(c, &r, s_hpet, b_hpet);
	os_raw_hpet_close(&h);
	dev.hpet_counter = NULL;
}

const char *os_raw_acpi(const char *root, struct acpi_info *ai, char *why, size_t cap)
{
	static uint8_t buf[ACPI_SCRATCH];
	char path[4200];
	const char *sep = root[strlen(root) - 1] == '/' ? "" : "/";
	long n;

	acpi_info_init(ai);
	snprintf(path, sizeof path, "%s%ssys/firmware/acpi/tables/FACP", root, sep);
	n = read_file(path, buf, sizeof buf);
	if (n < 0) {
		snprintf(why, cap, "cannot read %.120s: %s", path, strerror(errno));
		return why;
	}
	acpi_decode_fadt(buf, (size_t)n, ai);
	snprintf(path, sizeof path, "%s%ssys/firmware/acpi/tables/HPET", root, sep);
	n = read_file(path, buf, sizeof buf);
	if (n >= 0)
		acpi_decode_hpet(buf, (size_t)n, ai);
	else
		ai->hpet_none = "no HPET table in /sys/firmware/acpi/tables";
	return NULL;
}

/* *unhealthy is counted up through c.unhealthy, which clang-tidy does not follow. */
int os_raw_run(struct log *l, const struct host_machine *m, const struct os_raw_opts *o, struct os_raw_line *lines,
	       int *unhealthy) /* NOLINT(readability-non-const-parameter) */
{
	struct ctx c = { l, o, lines, 0, unhealthy };
	struct os_timer_rec tsc = { .name = "tsc", .call = "rdtsc", .width = 64, .healthy = true, .present = true,
				    .method = "one rdtsc from user space (CR4.TSD clear)" };
	struct os_timer_rec tscp = { .name = "rdtscp", .call = "rdtscp", .width = 64, .healthy = m->rdtscp, .present = m->rdtscp,
				     .method = "one rdtscp from user space",
				     .reason = "CPUID.80000001h:EDX[27] clear: no RDTSCP" };

	one(&c, &tsc, s_rdtsc, b_rdtsc);
	one(&c, &tscp, s_rdtscp, b_rdtscp);
	if (o->raw_io) {
		struct acpi_info ai;
		char why[200];
		const char *aw = NULL;
		acpi_info_init(&ai);
		if (geteuid() != 0)
			aw = "needs root (ioperm, /dev/hpet, /dev/mem and the ACPI tables are root-only)";
		else
			aw = os_raw_acpi(o->root, &ai, why, sizeof why);
		pm_timer(&c, &ai, aw);
		hpet(&c, &ai, aw);
	}
	return c.n;
}
