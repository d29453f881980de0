/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe qemu --event` without a QEMU (tools/qemu/events.h): the SPEC
 * parser on good and bad specs, the order and the overlaps, the watch the
 * options give, every shape of a bad line from the guest, and the QEMU
 * arguments of each QEMU of a run. */
#include <stdio.h>
#include <string.h>
#include "tests/unit/check.h"
#include "tools/qemu/events.h"

static void good_spec(const char *spec, enum qemu_event_kind kind, long long duration_us, long long at_us)
{
	struct qemu_event e;
	char why[200] = "";
	bool ok = qemu_event_parse(spec, &e, why, sizeof why);

	check(COND(ok) && COND(e.kind == kind) && COND(e.duration_us == duration_us) && COND(e.at_us == at_us) &&
		      COND(!strcmp(e.spec, spec)),
	      "spec '%s': kind %d, %lld us for %lld us (got %d: %d, %lld, %lld; %s)", spec, kind, at_us, duration_us,
	      ok, e.kind, (long long)e.at_us, (long long)e.duration_us, why);
}

static void bad_spec(const char *spec, const char *why_has)
{
	struct qemu_event e;
	char why[200] = "";
	bool ok = qemu_event_parse(spec, &e, why, sizeof why);

	check(COND(!ok) && COND(strstr(why, why_has) != NULL), "spec '%s' refused: %s", spec, why);
}

static void specs(void)
{
	good_spec("pause=5s@20s", QEMU_EVENT_PAUSE, 5000000, 20000000);
	good_spec("pause=5@20", QEMU_EVENT_PAUSE, 5000000, 20000000);
	good_spec("pause=1.5s@500ms", QEMU_EVENT_PAUSE, 1500000, 500000);
	good_spec("pause=100ms@0", QEMU_EVENT_PAUSE, 100000, 0);
	good_spec("pause=0.1@0s", QEMU_EVENT_PAUSE, 100000, 0);
	good_spec("pause=1h@24h", QEMU_EVENT_PAUSE, 3600000000LL, 86400000000LL);
	good_spec("pause=60m@1440m", QEMU_EVENT_PAUSE, 3600000000LL, 86400000000LL);
	good_spec("pause=2.25m@0.5ms", QEMU_EVENT_PAUSE, 135000000, 500);
	good_spec("migrate@2m", QEMU_EVENT_MIGRATE, 0, 120000000);
	good_spec("migrate@0.001", QEMU_EVENT_MIGRATE, 0, 1000);
	good_spec("migrate@86400", QEMU_EVENT_MIGRATE, 0, 86400000000LL);
	good_spec("migrate@86400000ms", QEMU_EVENT_MIGRATE, 0, 86400000000LL);

	bad_spec("pause=99ms@1", "a pause lasts 0.1 s to 1 h");
	bad_spec("pause=3600.001s@1", "a pause lasts 0.1 s to 1 h");
	bad_spec("pause=0@1", "a pause lasts 0.1 s to 1 h");
	bad_spec("migrate@86400.001", "AT is at most 24 h");
	bad_spec("migrate@25h", "AT is at most 24 h");
	bad_spec("migrate@999999999h", "AT is at most 24 h");
	bad_spec("pause=5s", "DURATION is not a time");
	bad_spec("pause=@1", "DURATION is not a time");
	bad_spec("pause=5x@1", "DURATION is not a time");
	bad_spec("pause=5s@", "AT is not a time");
	bad_spec("pause=1s@1@2", "AT is not a time");
	bad_spec("migrate@", "AT is not a time");
	bad_spec("migrate@1@2", "AT is not a time");
	bad_spec("migrate@1.2345", "AT is not a time");
	bad_spec("migrate@1.", "AT is not a time");
	bad_spec("migrate@.5", "AT is not a time");
	bad_spec("migrate@1e3", "AT is not a time");
	bad_spec("migrate@-1", "AT is not a time");
	bad_spec("migrate@+1", "AT is not a time");
	bad_spec("migrate@1 s", "AT is not a time");
	bad_spec("migrate@1sec", "AT is not a time");
	bad_spec("migrate@5min", "AT is not a time");
	bad_spec("migrate@1234567890", "AT is not a time");
	bad_spec("migrate", "not pause=DURATION@AT or migrate@AT");
	bad_spec("Pause=1s@1", "not pause=DURATION@AT or migrate@AT");
	bad_spec("stop@1", "not pause=DURATION@AT or migrate@AT");
	bad_spec("migrate=1s@1", "not pause=DURATION@AT or migrate@AT");
	bad_spec("", "not pause=DURATION@AT or migrate@AT");
	bad_spec("pause\x1b[2J=1s@1", "--event pause?[2J=1s@1: not"); /* a terminal's escape is not echoed */
}

static struct qemu_event ev_of(const char *spec)
{
	struct qemu_event e;
	char why[200];

	if (!qemu_event_parse(spec, &e, why, sizeof why))
		printf("setup: %s\n", why);
	return e;
}

static void order_and_overlap(void)
{
	struct qemu_event ev[4] = { ev_of("pause=1s@20"), ev_of("pause=2s@5"), ev_of("migrate@5"), ev_of("pause=1s@10") };
	struct qemu_event chain[3] = { ev_of("pause=10s@0"), ev_of("pause=1s@5"), ev_of("pause=1s@10.5") };
	struct qemu_event apart[3] = { ev_of("pause=5s@20"), ev_of("migrate@25"), ev_of("pause=1s@25") };
	struct qemu_event after_migrate[2] = { ev_of("migrate@0"), ev_of("pause=1s@0") };

	qemu_events_order(ev, 4);
	check(COND(!strcmp(ev[0].spec, "pause=2s@5")) && COND(!strcmp(ev[1].spec, "migrate@5")) &&
		      COND(!strcmp(ev[2].spec, "pause=1s@10")) && COND(!strcmp(ev[3].spec, "pause=1s@20")),
	      "order: by AT, equal ATs as given: %s %s %s %s", ev[0].spec, ev[1].spec, ev[2].spec, ev[3].spec);
	check(COND(ev[0].id == 1) && COND(ev[1].id == 2) && COND(ev[2].id == 3) && COND(ev[3].id == 4),
	      "order: numbered 1..4 in that order");
	check(COND(qemu_event_overlaps(ev, 1)) && COND(!qemu_event_overlaps(ev, 2)) &&
		      COND(!qemu_event_overlaps(ev, 3)),
	      "overlap: migrate@5 during pause=2s@5; pause=1s@10 and @20 clear");
	check(!qemu_event_overlaps(ev, 0), "overlap: the first event never overlaps");
	check(COND(qemu_event_overlaps(chain, 1)) && COND(qemu_event_overlaps(chain, 2)),
	      "overlap: a pause held back by a long one pushes the next one too (10.5 s < 10 + 1 s)");
	check(COND(!qemu_event_overlaps(apart, 1)) && COND(!qemu_event_overlaps(apart, 2)),
	      "overlap: an event at the very end of a pause does not overlap; a migration's length is not known");
	check(!qemu_event_overlaps(after_migrate, 1), "overlap: a pause at a migration's time is not foretold");
	check(qemu_events_extra_s(apart, 3) == 5 + QEMU_EVENT_MIGRATE_S + QEMU_EVENT_RESTORE_S + 1,
	      "timeout: the pauses' lengths and each migration's bounds added (%.1f s)", qemu_events_extra_s(apart, 3));
}

static void watch(void)
{
	struct qemu_event ev[2] = { ev_of("pause=1s@5.999"), ev_of("migrate@6") };
	uint32_t w = 99;
	char why[300] = "";

	check(COND(qemu_events_watch(ev, 1, "preset=quick watch=6", &w, why, sizeof why)) && COND(w == 6),
	      "watch: watch=6 gives 6 s, and an event at 5.999 s is before its end (%u; %s)", (unsigned)w, why);
	check(COND(!qemu_events_watch(ev, 2, "preset=quick watch=6", &w, why, sizeof why)) &&
		      COND(strstr(why, "--event migrate@6: AT must come before the watch's end, 6 s after it began")),
	      "watch: an event at the watch's end is refused: %s", why);
	check(COND(!qemu_events_watch(ev, 1, "preset=quick", &w, why, sizeof why)) && COND(w == 0) &&
		      COND(strstr(why, "--event needs a watch")),
	      "watch: none in the quick preset: %s", why);
	check(COND(!qemu_events_watch(ev, 1, "preset=watch watch=0", &w, why, sizeof why)) && COND(w == 0),
	      "watch: watch=0 after the preset's takes it away");
	check(COND(qemu_events_watch(ev, 2, "preset=watch", &w, why, sizeof why)) && COND(w == 600),
	      "watch: the watch preset's 10 minutes (%u s)", (unsigned)w);
	check(COND(qemu_events_watch(ev, 2, "watch=2m preset=quick", &w, why, sizeof why)) && COND(w == 120),
	      "watch: the preset's words come first, whatever the order (%u s)", (unsigned)w);
	check(COND(!qemu_events_watch(ev, 1, "watch=25h", &w, why, sizeof why)) && COND(w == 0),
	      "watch: a watch the probe refuses (25h) is none");
}

static void line_is(const char *text, size_t len, enum qemu_event_line want, unsigned want_value, const char *what)
{
	unsigned v = 12345;
	enum qemu_event_line got = qemu_event_line(text, len, &v);

	check(COND(got == want) && COND(want == QEMU_LINE_BAD || want == QEMU_LINE_WATCH_END || v == want_value),
	      "line %s: %d (value %u), want %d (%u)", what, got, v, want, want_value);
}

#define LINE(s, want, value) line_is(s, sizeof s - 1, want, value, "'" s "'")

static void lines(void)
{
	char longer[200];

	LINE("watching 600", QEMU_LINE_WATCHING, 600);
	LINE("watching 1", QEMU_LINE_WATCHING, 1);
	LINE("watching 86400", QEMU_LINE_WATCHING, 86400);
	LINE("ready 1", QEMU_LINE_READY, 1);
	LINE("ready 8", QEMU_LINE_READY, 8);
	LINE("watch-end", QEMU_LINE_WATCH_END, 0);
	LINE("watch-end\r", QEMU_LINE_WATCH_END, 0);
	LINE("ready 3\r", QEMU_LINE_READY, 3);

	LINE("", QEMU_LINE_BAD, 0);
	LINE("\r", QEMU_LINE_BAD, 0);
	LINE("watching", QEMU_LINE_BAD, 0);
	LINE("watching ", QEMU_LINE_BAD, 0);
	LINE("watching 0", QEMU_LINE_BAD, 0);
	LINE("watching 86401", QEMU_LINE_BAD, 0);
	LINE("watching 123456", QEMU_LINE_BAD, 0);
	LINE("watching 007", QEMU_LINE_BAD, 0);
	LINE("watching -5", QEMU_LINE_BAD, 0);
	LINE("watching +5", QEMU_LINE_BAD, 0);
	LINE("watching 5 ", QEMU_LINE_BAD, 0);
	LINE(" watching 5", QEMU_LINE_BAD, 0);
	LINE("watching  5", QEMU_LINE_BAD, 0);
	LINE("watching 5s", QEMU_LINE_BAD, 0);
	LINE("watching\t5", QEMU_LINE_BAD, 0);
	LINE("Watching 5", QEMU_LINE_BAD, 0);
	LINE("ready 0", QEMU_LINE_BAD, 0);
	LINE("ready 9", QEMU_LINE_BAD, 0);
	LINE("ready 10", QEMU_LINE_BAD, 0);
	LINE("ready 01", QEMU_LINE_BAD, 0);
	LINE("ready", QEMU_LINE_BAD, 0);
	LINE("ready ", QEMU_LINE_BAD, 0);
	LINE("ready x", QEMU_LINE_BAD, 0);
	LINE("ready 1 2", QEMU_LINE_BAD, 0);
	LINE("ready 1\xff", QEMU_LINE_BAD, 0);
	LINE("ready 1\r\r", QEMU_LINE_BAD, 0);
	LINE("READY 1", QEMU_LINE_BAD, 0);
	LINE("watch-end ", QEMU_LINE_BAD, 0);
	LINE("watch_end", QEMU_LINE_BAD, 0);
	LINE("watch-ended", QEMU_LINE_BAD, 0);
	LINE("event 1 pause", QEMU_LINE_BAD, 0);
	LINE("done 1 5.000000", QEMU_LINE_BAD, 0);
	LINE("ready 1\0", QEMU_LINE_BAD, 0);
	LINE("watch-end\0", QEMU_LINE_BAD, 0);
	memset(longer, ' ', sizeof longer);
	memcpy(longer, "watch-end", 9);
	line_is(longer, QEMU_EVENT_LINE_MAX, QEMU_LINE_BAD, 0, "of 64 bytes and no \\n");
	line_is(longer, sizeof longer, QEMU_LINE_BAD, 0, "of 200 bytes");
}

static void args(void)
{
	struct qemu_event_args a;
	char path[64];

	check(COND(qemu_events_args("/tmp/tickprobe-qemu-AbC123", 1, &a)) &&
		      COND(!strcmp(a.qmp, "unix:/tmp/tickprobe-qemu-AbC123/qmp.sock,server=on,wait=off")) &&
		      COND(!strcmp(a.chardev,
				   "socket,id=events,path=/tmp/tickprobe-qemu-AbC123/events.sock,server=on,wait=off")),
	      "args: the first QEMU's sockets: %s %s", a.qmp, a.chardev);
	check(COND(qemu_events_args("/tmp/tickprobe-qemu-AbC123", 2, &a)) &&
		      COND(!strcmp(a.qmp, "unix:/tmp/tickprobe-qemu-AbC123/qmp2.sock,server=on,wait=off")) &&
		      COND(!strcmp(
			      a.chardev,
			      "socket,id=events,path=/tmp/tickprobe-qemu-AbC123/events2.sock,server=on,wait=off")) &&
		      COND(!strcmp(a.incoming, "exec:cat /tmp/tickprobe-qemu-AbC123/state")),
	      "args: the second's own sockets, restored from the state file: %s %s %s", a.qmp, a.chardev, a.incoming);
	qemu_events_path("/tmp/tickprobe-qemu-AbC123", "events", 3, path, sizeof path);
	check(!strcmp(path, "/tmp/tickprobe-qemu-AbC123/events3.sock"), "args: the third's channel: %s", path);
	check(COND(!qemu_events_args("/tmp/a b", 1, &a)) && COND(!qemu_events_args("/tmp/a;rm", 1, &a)) &&
		      COND(!qemu_events_args("/tmp/a'b", 1, &a)) && COND(!qemu_events_args("/tmp/$x", 1, &a)) &&
		      COND(!qemu_events_args("/tmp/a,b", 1, &a)) && COND(!qemu_events_args("", 1, &a)) &&
		      COND(!qemu_events_args("/tmp/tickprobe-qemu-AbC123-and-longer", 1, &a)),
	      "args: a directory a shell or QEMU's option syntax could misread, or too long, is refused");
}

int main(void)
{
	specs();
	order_and_overlap();
	watch();
	lines();
	args();
	return check_done();
}
