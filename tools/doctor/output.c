/* SPDX-License-Identifier: BSD-2-Clause */
/* The doctor's answer, as text and as JSON (docs/doctor.md). */
#include <stdio.h>
#include <string.h>
#include "tools/common/json_out.h"
#include "tools/doctor/output.h"

static void params_text(FILE *o, const struct conclusion *c)
{
	if (!c->nadd && !c->nremove) {
		fputs("Kernel parameters: none to change.\n", o);
		return;
	}
	fputs("Kernel parameters:", o);
	for (int i = 0; i < c->nadd; i++)
		fprintf(o, " add %s%s", c->add[i], i + 1 < c->nadd || c->nremove ? ";" : "");
	for (int i = 0; i < c->nremove; i++)
		fprintf(o, " remove %s%s", c->remove[i], i + 1 < c->nremove ? ";" : "");
	fputs("\n  in GRUB_CMDLINE_LINUX of /etc/default/grub, then `sudo update-grub` and reboot.\n", o);
}

void doctor_print_text(FILE *o, const struct doctor_report *r)
{
	const struct conclusion *c = r->c;
	const struct klog *k = r->in->k;

	fprintf(o, "TSC: %s\n", tsc_verdict_name(c->verdict));
	fprintf(o, "%s\n", c->summary);
	fprintf(o, "Use clocksource: %s\n", c->clocksource);
	params_text(o, c);
	fprintf(o, "Gain: %s\n", c->gain[0] ? c->gain : "none measured");
	if (c->next_step[0])
		fprintf(o, "Next: %s\n", c->next_step);
	fprintf(o, "Bare-metal log: %s%s%s\n", r->in->bare_path ? r->in->bare_path : "none", r->bare_note[0] ? ": " : "",
		r->bare_note);
	fputs("Evidence:\n", o);
	for (int i = 0; i < c->nevidence; i++)
		fprintf(o, "  - %s\n", c->evidence[i]);
	fprintf(o, "Kernel log: %s, %zu lines, %zu clocksource events\n", k->source[0] ? k->source : "?", k->lines, k->n);
	for (size_t i = 0; i < k->n; i++) {
		const struct klog_event *e = &k->ev[i];
		if (e->ts >= 0)
			fprintf(o, "  [%12.6f] %-17s %s\n", e->ts, klog_kind_name(e->kind), e->line);
		else
			fprintf(o, "  [%12s] %-17s %s\n", "-", klog_kind_name(e->kind), e->line);
	}
}

static void events_json(FILE *o, const struct klog *k)
{
	fputs(",\"events\":[", o);
	for (size_t i = 0; i < k->n; i++) {
		const struct klog_event *e = &k->ev[i];
		fprintf(o, "%s{\"kind\":", i ? "," : "");
		json_out_str(o, klog_kind_name(e->kind));
		if (e->ts >= 0)
			fprintf(o, ",\"timestamp\":%.6f", e->ts);
		else
			fputs(",\"timestamp\":null", o);
		fputs(",\"clocksource\":", o);
		e->cs[0] ? json_out_str(o, e->cs) : (void)fputs("null", o);
		fputs(",\"reference\":", o);
		e->ref[0] ? json_out_str(o, e->ref) : (void)fputs("null", o);
		if (e->cpu >= 0)
			fprintf(o, ",\"cpu\":%d", e->cpu);
		fputs(",\"line\":", o);
		json_out_str(o, e->line);
		fputc('}', o);
	}
	fputc(']', o);
}

static void list_json(FILE *o, const char *key, char (*items)[64], int n)
{
	fprintf(o, ",\"%s\":[", key);
	for (int i = 0; i < n; i++)
		fputs(i ? "," : "", o), json_out_str(o, items[i]);
	fputc(']', o);
}

static void host_json(FILE *o, const struct host_facts *h)
{
	fputs("\"current_clocksource\":", o);
	h->sysfs_ok ? json_out_str(o, h->current) : (void)fputs("null", o);
	fputs(",\"available\":[", o);
	for (int i = 0; i < h->navailable; i++)
		fputs(i ? "," : "", o), json_out_str(o, h->available[i]);
	fputs("],\"cmdline\":", o);
	h->cmdline_ok ? json_out_str(o, h->cmdline) : (void)fputs("null", o);
	fputs(",\"kernel_release\":", o), json_out_str(o, h->release);
	fprintf(o, ",\"tsc_known_freq\":%s,\"machine\":", h->tsc_known_freq ? "true" : "false");
	fingerprint_json(o, &h->m);
	fputs(",\"dmi\":{\"sys_vendor\":", o), json_out_str(o, h->dmi_vendor);
	fputs(",\"product_name\":", o), json_out_str(o, h->dmi_product);
	fputs(",\"bios_version\":", o), json_out_str(o, h->dmi_bios);
	fputc('}', o);
}

void doctor_print_json(FILE *o, const struct doctor_report *r)
{
	const struct conclusion *c = r->c;
	const struct host_costs *hc = r->in->costs;

	fputc('{', o);
	host_json(o, r->in->h);
	fputs(",\"tsc_verdict\":", o), json_out_str(o, tsc_verdict_name(c->verdict));
	fputs(",\"cause\":", o), json_out_str(o, c->cause);
	fputs(",\"summary\":", o), json_out_str(o, c->summary);
	events_json(o, r->in->k);
	fputs(",\"costs_ns\":{", o);
	for (int i = 0; i < hc->n; i++)
		fprintf(o, "%s", i ? "," : ""), json_out_str(o, hc->c[i].cs), fprintf(o, ":%.1f", hc->c[i].ns);
	fputs("},\"costs_source\":", o), json_out_str(o, hc->source);
	fputs(",\"recommendation\":{\"clocksource\":", o), json_out_str(o, c->clocksource);
	list_json(o, "kernel_parameters", (char (*)[64])c->add, c->nadd);
	list_json(o, "remove_parameters", (char (*)[64])c->remove, c->nremove);
	fputs(",\"gain\":", o);
	c->gain[0] ? json_out_str(o, c->gain) : (void)fputs("null", o);
	fputs(",\"where\":\"GRUB_CMDLINE_LINUX in /etc/default/grub, then update-grub\"", o);
	fputs(",\"next_step\":", o);
	c->next_step[0] ? json_out_str(o, c->next_step) : (void)fputs("null", o);
	fputs("},\"bare_log\":", o);
	r->in->bare_path ? json_out_str(o, r->in->bare_path) : (void)fputs("null", o);
	fputs(",\"bare_log_note\":", o), json_out_str(o, r->bare_note);
	fprintf(o, ",\"same_machine_override\":%s", r->override ? "true" : "false");
	fputs(",\"evidence\":[", o);
	for (int i = 0; i < c->nevidence; i++)
		fputs(i ? "," : "", o), json_out_str(o, c->evidence[i]);
	fprintf(o, "],\"exit_status\":%d}\n", c->exit_status);
}
