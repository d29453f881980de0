/* SPDX-License-Identifier: BSD-2-Clause */
/* The log's schema (probe/log_schema.def) against its writers and readers:
 * every record the writers make, on the simulated platform and from
 * tickprobe os's writers, has exactly the schema's members and JSON types
 * (tools/lib/logschema.h's ld_check); the typed decoder gives back what was
 * written; the stored schema-1 logs decode; and a record of the wrong shape
 * is caught member by member. */
#include <setjmp.h>
#include <stdlib.h>
#include "tests/unit/check.h"
#include "tests/unit/sim_platform.h"
#include "tools/lib/logread.h"
#include "tools/lib/logschema.h"
#include "probe/records_cpus.h"
#include "probe/records_smp.h"
#include "probe/records_watch.h"
#include "probe/run.h"
#include "tests/unit/log_capture.h"

#define NODES 200000
static struct lr_node *nodes;
static char *strs;

static const struct lr_node *parse(struct lr_doc *d, const char *s, size_t n)
{
	lr_doc_init(d, nodes, NODES, strs, LR_LINE_MAX);
	return lr_parse(d, s, n);
}

/* ---- a whole log against the schema ----------------------------------------- */

struct conformance {
	const char *what;
	int by; /* LD_IMAGE, LD_OS; from begin.boot when 0 */
	unsigned records, problems;
	char first[200];
	char types[512]; /* the types seen, once each */
};

static void seen_type(struct conformance *c, const char *type)
{
	char word[40];

	snprintf(word, sizeof word, " %s ", type);
	if (!strstr(c->types, word) && strlen(c->types) + strlen(word) < sizeof c->types)
		strcat(c->types, word + (c->types[0] ? 1 : 0));
}

static void conform_record(void *ctx, const struct lr_run *run, uint32_t line, const char *text, size_t len,
			   const struct lr_node *root)
{
	struct conformance *c = ctx;
	const char *type = lr_str(lr_get(root, "type"));
	const struct ld_shape *s = ld_record(type);
	struct ld_report rep = { 0 };

	(void)run;
	(void)line;
	(void)text;
	(void)len;
	if (type && !strcmp(type, "begin") && !c->by)
		c->by = tp_streq(lr_str(lr_get(root, "boot")), "linux") ? LD_OS : LD_IMAGE;
	c->records++;
	seen_type(c, type ? type : "?");
	if (!s) {
		c->problems++;
		if (!c->first[0])
			snprintf(c->first, sizeof c->first, "a record of type %s, which the schema does not have",
				 type);
		return;
	}
	if (ld_check(root, s, c->by, &rep)) {
		c->problems++;
		if (!c->first[0])
			snprintf(c->first, sizeof c->first, "%s", rep.first);
	}
}

static void no_problem(void *ctx, const struct lr_run *run, uint32_t line, int sev, const char *msg)
{
	struct conformance *c = ctx;
	(void)run;
	(void)line;
	(void)sev;
	c->problems++;
	if (!c->first[0])
		snprintf(c->first, sizeof c->first, "the reader: %s", msg);
}

/* Every record of the log text against the schema. */
static void conforms(const char *what, int by, const char *text, size_t n, unsigned min_records)
{
	static char buf[LR_LINE_MAX + 1];
	struct conformance c = { .what = what, .by = by };
	struct lr_sink sink = { &c, NULL, conform_record, no_problem, NULL };
	struct logread r;

	lr_init(&r, buf, sizeof buf, nodes, NODES, strs, LR_LINE_MAX, &sink);
	lr_feed(&r, text, n);
	lr_finish(&r);
	check(COND(c.records >= min_records) && COND(!c.problems),
	      "%s: %u records (%s) have the schema's members and types%s%s", what, c.records, c.types,
	      c.first[0] ? ": " : "", c.first);
}

/* ---- the image's records, on the simulated platform ------------------------------ */

static const struct counter_driver *const machine[] = { &sim_tsc_driver, &sim_hpet_driver, &sim_pm_driver,
							&sim_pit_driver, &sim_apic_driver, &sim_rtc_driver,
							&sim_kvm_driver };

static void sim_run(const char *cmdline)
{
	struct platform p;

	sim_reset();
	sim.has_aperf_mperf = true;
	sim_platform(&p, cmdline, machine, sizeof machine / sizeof machine[0]);
	sim_boot(&p);
}

static void test_image_records(void)
{
	sim_run("samples=4000 rounds=4 calib_ms=20 raw=30");
	conforms("a simulated run with raw samples", LD_IMAGE, sim.log, sim.log_len, 15);
	sim_run("samples=2000 rounds=2 calib_ms=20 counters=tsc,hpet,kvmclock stuck=hpet slow_rates=off");
	conforms("a simulated run with a stuck and an absent counter", LD_IMAGE, sim.log, sim.log_len, 8);
	sim_run("samples=2000 rounds=2 calib_ms=20 fault=gp");
	conforms("a simulated run that ends in an exception", LD_IMAGE, sim.log, sim.log_len, 5);
}

/* ---- the multi-CPU records and the watch's, from results made up here ---------- */

/* A begin record with every member an image boot always writes. */
static void begin_record(void)
{
	struct put_begin b = record_begin_head(&cap.log, "bios", NULL, "preset=quick");
	struct put_begin_options o = put_begin_options_open(b);
	struct put_serial_line serial;

	put_begin_options_preset(o, "quick");
	put_begin_options_rounds(o, 10);
	put_begin_options_samples(o, 10000);
	put_begin_options_raw_samples(o, 0);
	put_begin_options_calib_ms(o, 20);
	put_begin_options_counters_close(put_begin_options_counters_open(o));
	serial = put_begin_options_serial_open(o);
	put_serial_line_port(serial, 0x3f8);
	put_serial_line_baud(serial, 115200);
	put_serial_line_close(serial);
	put_begin_options_after(o, "halt");
	put_begin_options_after_s(o, 0);
	put_begin_options_runs(o, 1);
	put_begin_options_close(o);
	put_begin_option_problems_close(put_begin_option_problems_open(b));
	put_begin_log_file(b, NULL);
	put_begin_log_file_problem(b, NULL);
	put_begin_net(b, NULL);
	put_begin_net_problem(b, NULL);
	put_begin_secure_boot_null(b);
	log_end(&cap.log);
}

static void cpus_records(void)
{
	static struct cpu_fact cpu[3];
	struct cpus_facts f = { cpu, 3, 3, 2, false, NULL, 0x8000 };
	static struct team_check_facts t = { .cpus = 2,
					     .returned = 1,
					     .again_returned = 1,
					     .count = 1,
					     .again_count = 1,
					     .n_dropped = 1,
					     .dropped = { 1 },
					     .idle = "hlt" };

	cpu[0] = (struct cpu_fact){ .apic_id = 0, .has_cpu = true, .topo_known = true, .state = "bsp", .sipis = 0 };
	cpu[1] = (struct cpu_fact){ .apic_id = 1,
				    .has_cpu = true,
				    .cpu = 1,
				    .topo_known = true,
				    .core = 1,
				    .core_type = "P-core",
				    .state = "running",
				    .running = true,
				    .startup_cycles = 34000,
				    .sipis = 1 };
	cpu[2] = (struct cpu_fact){ .apic_id = 2,
				    .state = "no response",
				    .no_response = true,
				    .sipis = 2,
				    .why = "no response within 1000 ms of its STARTUP IPI" };
	record_cpus(&cap.log, &f, 1e9);
	record_team_check(&cap.log, &t);
}

static void smp_records(void)
{
	static struct tsc_pair pairs[2];
	static struct tsc_sync_result sync;
	static struct percpu_result per;
	static struct contention_result con, refused;
	static struct latency_result lat;
	static const struct counter_desc tsc_desc = { .name = "tsc" };
	static struct counter tsc = { .desc = &tsc_desc };

	pairs[0] =
		(struct tsc_pair){ .cpu = 1, .offset_done = true, .warp_done = true, .offset = -12, .uncertainty = 30 };
	pairs[1] = (struct tsc_pair){ .cpu = 2, .ref = 1 };
	sync = (struct tsc_sync_result){ .matrix = true, .n_cpus = 3, .pairs = pairs, .n_pairs = 2 };
	sync.tsc_adjust_valid[1] = true;
	record_tsc_sync(&cap.log, &sync, NULL);
	per = (struct percpu_result){ .n_cpus = 2, .samples = 100, .n = 1, .counter = { &tsc } };
	per.cost[0][0] = (struct percpu_cost){ true, 24, 20 };
	record_percpu(&cap.log, &per);
	con = (struct contention_result){ .counter = "hpet", .reads_per_reader = 10, .n_levels = 1 };
	con.level[0] = (struct contention_level){
		.n = 1, .returned = 1, .p50_median = 100, .reads = 10, .wall_cycles = 1000, .overlap = 1.0
	};
	record_contention(&cap.log, &con, 1e9);
	refused = (struct contention_result){ .counter = "acpi-fast", .refused = "no PM timer" };
	record_contention(&cap.log, &refused, 1e9);
	lat = (struct latency_result){ .seconds = 1, .tsc_hz = 1e9, .n_cpus = 2, .limit_cycles = 150000 };
	lat.cpu[0].done = true;
	lat.cpu[0].bins[0] = 5;
	record_latency(&cap.log, &lat);
}

static void watch_records(void)
{
	static struct watch w;
	static struct watch_verdict v;
	struct watch_read r[2];

	watch_init(&w, 1e9, 2);
	watch_add_clock(&w, "tsc", 0, 1e-9);
	watch_add_clock(&w, "hpet", 1e8, 1e-8);
	for (unsigned k = 0; k < 6; k++) {
		r[0] = (struct watch_read){ (double)k * 5e8, k * 500000000ull, 30 };
		r[1] = (struct watch_read){ (double)k * 5e7, k * 500000000ull, 30 };
		watch_sample(&w, r);
	}
	watch_cpu_offset(&w, 1, 12, 3);
	watch_segment_end(&w, 2.5);
	watch_conclude(&w, &v);
	record_watch_begin(&cap.log, &w, NULL, 1);
	record_watch_segment(&cap.log, &w, 0, 2.5);
	record_watch(&cap.log, &w, &v, NULL);
	record_watch_skipped(&cap.log, 90, "watch=90 needs a TSC rate");
}

static void test_smp_and_watch_records(void)
{
	capture_reset();
	begin_record();
	cpus_records();
	smp_records();
	watch_records();
	log_close(&cap.log, "ok");
	conforms("made-up cpus, team_check, tsc_sync, percpu, contention, latency and watch records", LD_IMAGE, cap.buf,
		 cap.len, 12);
}

/* ---- decoding -------------------------------------------------------------------- */

static const char timer_line[] =
	"{\"type\":\"timer\",\"seq\":7,\"name\":\"hpet\",\"method\":\"mov (HPET+0xf0)\",\"width\":32,\"insns\":2,"
	"\"samples\":1000,\"samples_requested\":1200,\"cost_cycles\":{\"min\":96,\"p50\":100,\"mean\":101.5,"
	"\"sd\":2.5,\"p99\":120,\"p999\":130,\"max\":400},\"hist\":\"YxwhB\",\"throughput\":{\"reads\":10000,"
	"\"cycles\":1000000},\"rounds\":{\"p50\":[100.0,101.0,null],\"mean\":[100.5,101.5,102.5]},"
	"\"delta\":[1,1,7,9000,9,0,0],\"outliers\":{\"largest\":[400,390,380,370,360],\"over_10x_p50\":0},"
	"\"freq\":{\"nominal_hz\":100000000,\"measured_hz\":99999999.5,\"ppm\":-0.01,\"err_ppm\":0.5},"
	"\"crc\":\"00000000\"}";

static void test_decode_timer(void)
{
	struct lr_doc d;
	const struct lr_node *root = parse(&d, timer_line, sizeof timer_line - 1);
	struct ld_timer t;
	struct ld_rounds r;
	struct ld_report rep = { 0 };
	unsigned wrong = ld_decode(root, &ld_shape_timer, &t, &rep);

	check(COND(root) && COND(wrong == 0) && COND(rep.unknown == 0) && COND(t.ld.state == LD_SET),
	      "timer: decodes with no problem (%s)", rep.first);
	check(COND(t.name.state == LD_SET) && COND(!strcmp(t.name.s, "hpet")) && COND(t.width.v == 32) &&
		      COND(t.insns.v == 2),
	      "timer: name, width and insns as written");
	check(COND(t.samples.v == 1000) && COND(t.samples_requested.state == LD_SET) &&
		      COND(t.samples_requested.v == 1200),
	      "timer: samples and samples_requested as written");
	check(COND(t.clamped.state == LD_ABSENT) && COND(t.present.state == LD_ABSENT) &&
		      COND(t.address.state == LD_ABSENT),
	      "timer: members not written are absent");
	check(COND(t.cost_cycles.ld.state == LD_SET) && COND(t.cost_cycles.p50.v == 100) &&
		      COND(t.cost_cycles.mean.v == 101.5) && COND(t.cost_cycles.max.v == 400),
	      "timer: cost_cycles.p50, .mean and .max as written");
	check(COND(t.hist.state == LD_SET) && COND(t.hist.node) && COND(t.hist.node->kind == LR_STR),
	      "timer: hist kept as its node");
	check(t.name.node == lr_get(root, "name"), "timer: name's node is the member's own");
	check(t.clamped.node == NULL, "timer: an absent member has no node");
	check(COND(t.throughput.reads.v == 10000) && COND(t.throughput.cycles.v == 1000000) &&
		      COND(t.throughput.reads_per_s.state == LD_ABSENT),
	      "timer: throughput as written, its derived reads_per_s absent");
	check(ld_timer_rounds_count(&t) == 3, "timer: 3 rounds in the columns");
	ld_timer_rounds_at(&t, 1, &r);
	check(COND(r.p50.state == LD_SET) && COND(r.p50.v == 101.0) && COND(r.mean.v == 101.5),
	      "timer: round 1 from the columns");
	ld_timer_rounds_at(&t, 2, &r);
	check(COND(r.p50.state == LD_NULL) && COND(r.mean.v == 102.5), "timer: round 2's null p50 is null");
	check(COND(r.p50.node) && COND(r.p50.node->kind == LR_NULL), "timer: round 2's p50 keeps its null node");
	check(COND(t.delta.ld.state == LD_SET) && COND(t.delta.min.v == 1) && COND(t.delta.mode.v == 7) &&
		      COND(t.delta.mode_count.v == 9000) && COND(t.delta.wraps.v == 0),
	      "timer: delta's positional items by name");
	check(COND(t.outliers.largest.n == 5) && COND(ld_outliers_largest_at(&t.outliers, 4).v == 360) &&
		      COND(ld_outliers_largest_at(&t.outliers, 5).state == LD_ABSENT),
	      "timer: outliers.largest's items, and none past the end");
	check(COND(t.freq.nominal_hz.v == 100000000) && COND(t.freq.ppm.v == -0.01) &&
		      COND(t.freq.reference.state == LD_ABSENT),
	      "timer: freq as written");
	check(COND(t.smi.ld.state == LD_ABSENT) && COND(t.core_clock.ld.state == LD_ABSENT),
	      "timer: absent objects are absent");
}

static void test_decode_maps_and_families(void)
{
	static const char plan[] = "{\"type\":\"plan\",\"seq\":5,\"estimate_s\":{\"tsc\":0.012,\"hpet\":0.250},"
				   "\"total_s\":0.262,\"absent\":{\"lapic-x2\":\"no x2APIC\"},\"crc\":\"0\"}";
	static const char percpu[] = "{\"type\":\"percpu\",\"seq\":9,\"cpus\":2,\"samples\":100,"
				     "\"tsc_p50_cycles\":[24,26],\"tsc_min_cycles\":[20,null],"
				     "\"tsc-deadline_p50_cycles\":[500,510],\"tsc-deadline_min_cycles\":[490,495],"
				     "\"crc\":\"0\"}";
	struct lr_doc d;
	struct ld_plan p;
	struct ld_percpu c;
	const struct lr_node *root;

	ld_decode_plan(parse(&d, plan, sizeof plan - 1), &p);
	check(COND(p.estimate_s.n == 2) && COND(!strcmp(ld_plan_estimate_s_name(&p, 1), "hpet")) &&
		      COND(ld_plan_estimate_s_at(&p, 1).v == 0.25) &&
		      COND(ld_plan_estimate_s_get(&p, "tsc").v == 0.012),
	      "plan: estimate_s by place and by name");
	check(COND(ld_plan_absent_get(&p, "lapic-x2").state == LD_SET) &&
		      COND(!strcmp(ld_plan_absent_get(&p, "lapic-x2").s, "no x2APIC")) &&
		      COND(ld_plan_absent_get(&p, "rdpid").state == LD_ABSENT),
	      "plan: absent by name");
	root = parse(&d, percpu, sizeof percpu - 1);
	ld_decode_percpu(root, &c);
	check(COND(ld_percpu_p50_cycles(&c, "tsc").n == 2) && COND(ld_percpu_p50_cycles_at(&c, "tsc", 1).v == 26) &&
		      COND(ld_percpu_min_cycles_at(&c, "tsc", 1).state == LD_NULL) &&
		      COND(ld_percpu_p50_cycles_at(&c, "tsc-deadline", 0).v == 500) &&
		      COND(ld_percpu_p50_cycles(&c, "lapic").state == LD_ABSENT),
	      "percpu: each counter's columns by its name");
	check(ld_check(root, &ld_shape_percpu, LD_IMAGE, NULL) == 0, "percpu: the family's members are known");
}

/* Records of the wrong shape: each fault is found, and where. */
static void test_wrong_shapes(void)
{
	static const char *const bad[][2] = {
		{ "{\"type\":\"machine\",\"seq\":1,\"cpu_vendor\":7,\"crc\":\"0\"}",
		  "machine.cpu_vendor: of another JSON type" },
		{ "{\"type\":\"exception\",\"seq\":1,\"vector\":13,\"name\":\"#GP\",\"error_code\":0,\"rip\":1,\"cr2\":0,"
		  "\"step\":\"x\",\"cpu\":0,\"apic_id\":0,\"colour\":\"red\",\"crc\":\"0\"}",
		  "exception.colour: not in the schema" },
		{ "{\"type\":\"samples\",\"seq\":1,\"name\":\"tsc\",\"offset\":0,\"crc\":\"0\"}",
		  "samples.values: missing" },
		{ "{\"type\":\"overflow\",\"seq\":1,\"record\":null,\"limit\":98304,\"crc\":\"0\"}",
		  "overflow.record: null where the schema has no null" },
		{ "{\"type\":\"samples\",\"seq\":1,\"name\":\"tsc\",\"offset\":0,\"values\":[1,-2],\"crc\":\"0\"}",
		  "samples.values: of another JSON type" },
		{ "{\"type\":\"cpus\",\"seq\":1,\"count\":1,\"started\":1,\"apic\":\"xapic\",\"problem\":null,"
		  "\"start_code\":null,\"list\":{\"apic_id\":[0],\"shoe\":[1]},\"crc\":\"0\"}",
		  "cpu_entry.shoe: not in the schema" },
	};
	struct lr_doc d;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const struct lr_node *root = parse(&d, bad[i][0], strlen(bad[i][0]));
		struct ld_report rep = { 0 };
		unsigned n = ld_check(root, ld_record(lr_str(lr_get(root, "type"))), LD_IMAGE, &rep);
		/* the machine record lacks the rest of its members too */
		unsigned faults = rep.wrong + rep.unknown + (i ? rep.missing : 0);
		check(COND(n >= 1) && COND(faults == 1) && COND(!strcmp(rep.first, bad[i][1])),
		      "a bad record: %s (found: %s)", bad[i][1], rep.first);
	}
}

/* ---- schema 1 ------------------------------------------------------------------------- */

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	s = malloc((size_t)len + 1);
	*n = s ? fread(s, 1, (size_t)len, f) : 0;
	fclose(f);
	return s;
}

struct schema1 {
	unsigned records, wrong, timers;
	bool rounds_rows, delta_by_key, hist_pairs;
	char first[160];
};

static void schema1_record(void *ctx, const struct lr_run *run, uint32_t line, const char *text, size_t len,
			   const struct lr_node *root)
{
	struct schema1 *c = ctx;
	const struct ld_shape *s = ld_record(lr_str(lr_get(root, "type")));
	struct ld_report rep = { 0 };
	void *out;

	(void)run;
	(void)line;
	(void)text;
	(void)len;
	c->records++;
	if (!s || !(out = malloc(s->size)))
		return;
	c->wrong += ld_decode(root, s, out, &rep);
	if (rep.wrong && !c->first[0])
		snprintf(c->first, sizeof c->first, "%s", rep.first);
	if (s == &ld_shape_timer) {
		struct ld_timer *t = out;
		struct ld_rounds r;
		c->timers++;
		ld_timer_rounds_at(t, 0, &r);
		c->rounds_rows |= t->rounds.node && t->rounds.node->kind == LR_ARR && r.p50.state == LD_SET;
		c->delta_by_key |=
			t->delta.ld.node && t->delta.ld.node->kind == LR_OBJ && t->delta.mode.state == LD_SET;
		c->hist_pairs |= t->hist.node && t->hist.node->kind == LR_ARR;
	}
	free(out);
}

static void test_schema1(void)
{
	static const char *const logs[] = { "tests/data/logs/schema1/q35-bios-default.log",
					    "tests/data/logs/schema1/q35-uefi-default.log",
					    "tests/data/logs/schema1/os-quick.log" };
	static char buf[LR_LINE_MAX + 1];

	for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
		struct schema1 c = { 0 };
		struct lr_sink sink = { &c, NULL, schema1_record, NULL, NULL };
		struct logread r;
		size_t n;
		char *text = slurp(logs[i], &n);

		lr_init(&r, buf, sizeof buf, nodes, NODES, strs, LR_LINE_MAX, &sink);
		if (text)
			lr_feed(&r, text, n);
		lr_finish(&r);
		free(text);
		check(COND(c.records > 10) && COND(c.wrong == 0),
		      "%s: %u schema-1 records decode with every member of its type%s%s", logs[i], c.records,
		      c.first[0] ? ": " : "", c.first);
		check(COND(c.timers > 0) && COND(c.rounds_rows) && COND(c.hist_pairs) &&
			      COND(c.delta_by_key || strstr(logs[i], "os-")),
		      "%s: rounds as a list, hist as pairs%s read", logs[i],
		      strstr(logs[i], "os-") ? "" : ", delta by key");
	}
}

int main(void)
{
	nodes = malloc(NODES * sizeof *nodes);
	strs = malloc(LR_LINE_MAX);
	if (!nodes || !strs)
		return 1;
	test_image_records();
	test_smp_and_watch_records();
	test_decode_timer();
	test_decode_maps_and_families();
	test_wrong_shapes();
	test_schema1();
	return check_done();
}
