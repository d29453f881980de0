/* SPDX-License-Identifier: BSD-2-Clause */
/* The doctor's answer, as text and as JSON (docs/doctor.md).  Kernel log
 * lines and file names reach the terminal with their control bytes shown
 * as \xNN: a log is anyone's to write. */
#include <stdio.h>
#include <string.h>
#include "tools/lib/json_out.h"
#include "tools/doctor/output.h"
#include "tools/lib/textsafe.h"

/* LABEL, then text escaped (tools/lib/textsafe.h), then END: what the kernel
 * log, sysfs, /proc/cmdline or a probe log said reaches the terminal only so. */
static void said(FILE *o, const char *label, const char *text, const char *end)
{
	fputs(label, o);
	ts_puts(o, text);
	fputs(end, o);
}

static void params_text(FILE *o, const struct conclusion *c)
{
	if (!c->nadd && !c->nremove) {
		fputs("Kernel parameters: none to change.\n", o);
	} else {
		fputs("Kernel parameters:", o);
		for (int i = 0; i < c->nadd; i++)
			fprintf(o, " add %s%s", c->add[i].param, i + 1 < c->nadd || c->nremove ? ";" : "");
		for (int i = 0; i < c->nremove; i++)
			fprintf(o, " remove %s%s", c->remove[i].param, i + 1 < c->nremove ? ";" : "");
		fputs("\n", o);
		for (int i = 0; i < c->nadd; i++)
			fprintf(o, "  add %s: %s.\n", c->add[i].param, c->add[i].why);
		for (int i = 0; i < c->nremove; i++)
			fprintf(o, "  remove %s: %s.\n", c->remove[i].param, c->remove[i].why);
		fputs("  in GRUB_CMDLINE_LINUX of /etc/default/grub, then `sudo update-grub` and reboot.\n", o);
	}
	if (c->nalt)
		fputs("Instead, with their own cost:\n", o);
	for (int i = 0; i < c->nalt; i++)
		fprintf(o, "  %s: %s.\n", c->alt[i].param, c->alt[i].why);
}

void doctor_print_text(FILE *o, const struct doctor_report *r)
{
	const struct conclusion *c = r->c;
	const struct klog *k = r->in->k;

	fprintf(o, "TSC: %s%s\n", tsc_verdict_name(c->verdict),
		c->tsc_wrongly_blamed ? " (wrongly blamed: another clock is off)" :
		c->verdict == TV_RELIABLE && !strcmp(c->cause, "cpu-offset") ? " in the bare-metal run (the kernel has "
		"seen the CPUs' TSCs drift apart since)" : "");
	said(o, "", c->summary, "\n");
	said(o, "Use clocksource: ", c->clocksource, "\n");
	params_text(o, c);
	said(o, "Gain: ", c->gain[0] ? c->gain : "none measured", "\n");
	if (c->next_step[0])
		said(o, "Next: ", c->next_step, "\n");
	said(o, "Bare-metal log: ", r->in->bare_path ? r->in->bare_path : "none", r->bare_note[0] ? ": " : "");
	said(o, "", r->bare_note, "\n");
	fputs("Evidence:\n", o);
	for (int i = 0; i < c->nevidence; i++)
		said(o, "  - ", c->evidence[i], "\n");
	said(o, "Kernel log: ", k->source[0] ? k->source : "?", "");
	fprintf(o, ", %zu lines, %zu clocksource events\n", k->lines, k->n);
	for (size_t i = 0; i < k->n; i++) {
		const struct klog_event *e = &k->ev[i];
		char head[64];
		if (e->ts >= 0)
			snprintf(head, sizeof head, "  [%12.6f] %-17s ", e->ts, klog_kind_name(e->kind));
		else
			snprintf(head, sizeof head, "  [%12s] %-17s ", "-", klog_kind_name(e->kind));
		said(o, head, e->line, "\n");
	}
}

static void str_or_null(FILE *o, const char *key, const char *s)
{
	fprintf(o, ",\"%s\":", key);
	if (s && s[0])
		json_out_str(o, s);
	else
		fputs("null", o);
}

static void event_numbers(FILE *o, const struct klog_event *e)
{
	double ppm;

	if (e->cpu >= 0)
		fprintf(o, ",\"cpu\":%d", e->cpu);
	if (e->cpu2 >= 0)
		fprintf(o, ",\"cpu2\":%d,\"cycles\":[%llu,%llu]", e->cpu2, e->cycles[0], e->cycles[1]);
	if (e->cs_ns >= 0)
		fprintf(o, ",\"cs_interval_ns\":%.0f", e->cs_ns);
	if (e->wd_ns >= 0)
		fprintf(o, ",\"wd_interval_ns\":%.0f", e->wd_ns);
	if (klog_skew_ppm(e, &ppm))
		fprintf(o, ",\"skew_ppm\":%.3f", ppm);
	if (e->has_value)
		fprintf(o, ",\"value\":%.0f", e->value);
}

static void events_json(FILE *o, const struct klog *k)
{
	fputs(",\"events\":[", o);
	for (size_t i = 0; i < k->n; i++) {
		const struct klog_event *e = &k->ev[i];
		fputs(i ? "," : "", o);
		fputs("{\"kind\":", o);
		json_out_str(o, klog_kind_name(e->kind));
		if (e->ts >= 0)
			fprintf(o, ",\"timestamp\":%.6f", e->ts);
		else
			fputs(",\"timestamp\":null", o);
		str_or_null(o, "clocksource", e->cs);
		str_or_null(o, "reference", e->ref);
		event_numbers(o, e);
		fputs(",\"line\":", o);
		json_out_str(o, e->line);
		fputc('}', o);
	}
	fputc(']', o);
}

static void params_json(FILE *o, const char *key, const struct remedy *r, int n)
{
	fprintf(o, ",\"%s\":[", key);
	for (int i = 0; i < n; i++) {
		fputs(i ? "," : "", o);
		json_out_str(o, r[i].param);
	}
	fputc(']', o);
}

static void reasons_json(FILE *o, const char *key, const struct remedy *r, int n)
{
	fprintf(o, ",\"%s\":[", key);
	for (int i = 0; i < n; i++) {
		fputs(i ? "," : "", o);
		fputs("{\"parameter\":", o);
		json_out_str(o, r[i].param);
		fputs(",\"why\":", o);
		json_out_str(o, r[i].why);
		fputc('}', o);
	}
	fputc(']', o);
}

static void host_json(FILE *o, const struct host_facts *h)
{
	fputs("\"current_clocksource\":", o);
	if (h->sysfs_ok)
		json_out_str(o, h->current);
	else
		fputs("null", o);
	fputs(",\"available\":[", o);
	for (int i = 0; i < h->navailable; i++) {
		fputs(i ? "," : "", o);
		json_out_str(o, h->available[i]);
	}
	fputs("]", o);
	str_or_null(o, "cmdline", h->cmdline_ok ? h->cmdline : NULL);
	fputs(",\"kernel_release\":", o);
	json_out_str(o, h->release);
	fprintf(o, ",\"tsc_known_freq\":%s,\"machine\":", h->tsc_known_freq ? "true" : "false");
	fingerprint_json(o, &h->m);
	fputs(",\"dmi\":{\"sys_vendor\":", o);
	json_out_str(o, h->dmi_vendor);
	fputs(",\"product_name\":", o);
	json_out_str(o, h->dmi_product);
	fputs(",\"bios_version\":", o);
	json_out_str(o, h->dmi_bios);
	fputc('}', o);
}

static void kernel_json(FILE *o, const struct kernel_facts *kf)
{
	static const char *const meanings[] = { "unknown", "absent", "tsc-as-watchdog", "enforce" };

	fputs(",\"kernel\":{\"release\":", o);
	json_out_str(o, kf->release);
	fputs(",\"release_from\":", o);
	json_out_str(o, kf->release_from);
	fputs(",\"watchdog\":", o);
	json_out_str(o, watchdog_gen_name(kf->wd));
	fputs(",\"watchdog_why\":", o);
	json_out_str(o, kf->wd_why);
	fprintf(o, ",\"tsc_watchdog_means\":\"%s\",\"recalibrate\":%s}", meanings[kf->tsc_watchdog],
		kf->recalibrate ? "true" : "false");
}

static void attribution_json(FILE *o, const struct clock_attribution *a)
{
	char line[400];

	fputs(",\"attribution\":", o);
	if (!a) {
		fputs("null", o);
		return;
	}
	fprintf(o, "{\"known\":%s", a->known ? "true" : "false");
	str_or_null(o, "clock", a->clock);
	if (a->known && a->clock[0])
		fprintf(o, ",\"ppm\":%.3f,\"uncertainty_ppm\":%.3f", a->ppm, a->uncertainty_ppm);
	str_or_null(o, "agree", a->known ? a->agree : NULL);
	fprintf(o, ",\"agree_ppm\":%.3f", a->agree_ppm);
	str_or_null(o, "source", a->source);
	attribution_sentence(a, line, sizeof line);
	fputs(",\"sentence\":", o);
	json_out_str(o, line);
	fputc('}', o);
}

static void recommendation_json(FILE *o, const struct conclusion *c)
{
	fputs(",\"recommendation\":{\"clocksource\":", o);
	json_out_str(o, c->clocksource);
	params_json(o, "kernel_parameters", c->add, c->nadd);
	params_json(o, "remove_parameters", c->remove, c->nremove);
	reasons_json(o, "add_reasons", c->add, c->nadd);
	reasons_json(o, "remove_reasons", c->remove, c->nremove);
	reasons_json(o, "alternatives", c->alt, c->nalt);
	str_or_null(o, "gain", c->gain);
	fputs(",\"where\":\"GRUB_CMDLINE_LINUX in /etc/default/grub, then update-grub\"", o);
	str_or_null(o, "next_step", c->next_step);
	fputc('}', o);
}

void doctor_print_json(FILE *o, const struct doctor_report *r)
{
	const struct conclusion *c = r->c;
	const struct host_costs *hc = r->in->costs;

	fputc('{', o);
	host_json(o, r->in->h);
	kernel_json(o, r->in->kf);
	fputs(",\"tsc_verdict\":", o);
	json_out_str(o, tsc_verdict_name(c->verdict));
	fprintf(o, ",\"tsc_wrongly_blamed\":%s", c->tsc_wrongly_blamed ? "true" : "false");
	fputs(",\"cause\":", o);
	json_out_str(o, c->cause);
	fputs(",\"summary\":", o);
	json_out_str(o, c->summary);
	events_json(o, r->in->k);
	attribution_json(o, r->in->attr);
	fputs(",\"costs_ns\":{", o);
	for (int i = 0; i < hc->n; i++) {
		fputs(i ? "," : "", o);
		json_out_str(o, hc->c[i].cs);
		fprintf(o, ":%.1f", hc->c[i].ns);
	}
	fputs("},\"costs_source\":", o);
	json_out_str(o, hc->source);
	recommendation_json(o, c);
	str_or_null(o, "bare_log", r->in->bare_path);
	fputs(",\"bare_log_note\":", o);
	json_out_str(o, r->bare_note);
	fprintf(o, ",\"same_machine_override\":%s", r->override ? "true" : "false");
	fputs(",\"evidence\":[", o);
	for (int i = 0; i < c->nevidence; i++) {
		fputs(i ? "," : "", o);
		json_out_str(o, c->evidence[i]);
	}
	fprintf(o, "],\"exit_status\":%d}\n", c->exit_status);
}
