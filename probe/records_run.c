/* SPDX-License-Identifier: BSD-2-Clause */
/* The records that describe the machine (probe/records_run.h). */
#include "probe/records_run.h"
#include "lib/fmt.h"

struct put_begin record_begin_head(struct log *l, const char *boot, const char *boot_services, const char *cmdline)
{
	struct put_begin b = put_record_begin(l);

	put_begin_schema(b, LOG_SCHEMA);
	put_begin_version(b, TICKPROBE_VERSION);
	put_begin_boot(b, boot);
	if (boot_services)
		put_begin_boot_services(b, boot_services);
	put_begin_cmdline(b, cmdline);
	return b;
}

void record_machine(struct log *l, const struct machine_facts *m)
{
	struct put_machine r = put_record_machine(l);

	put_machine_cpu_vendor(r, m->vendor);
	put_machine_cpu_brand(r, m->brand);
	put_machine_family(r, m->family);
	put_machine_model(r, m->model);
	put_machine_stepping(r, m->stepping);
	if (m->microcode_known)
		put_machine_microcode(r, m->microcode);
	else
		put_machine_microcode_null(r);
	put_machine_hypervisor(r, m->has_hypervisor ? m->hypervisor : NULL);
	put_machine_invariant_tsc(r, m->invariant_tsc);
	put_machine_rdtscp(r, m->rdtscp);
	if (m->cores)
		put_machine_cores(r, m->cores);
	else
		put_machine_cores_null(r);
	if (m->memory_mib)
		put_machine_memory_mib(r, m->memory_mib);
	else
		put_machine_memory_mib_null(r);
	/* The core clock's counters (no core_clock in the timer records when
	 * false), and the RTC's date: when the log was made, to within the
	 * firmware's idea of the time. */
	if (m->firmware) {
		put_machine_aperf_mperf(r, m->aperf_mperf);
		put_machine_rtc_time(r, m->rtc_time[0] ? m->rtc_time : NULL);
	}
	log_end(l);
}

void machine_facts_line(const struct machine_facts *m, char *line, size_t cap)
{
	bool hv = m->has_hypervisor;

	tp_snprintf(line, cap, "CPU: %s (%s, family %u model %u stepping %u)%s%s\n", m->brand[0] ? m->brand : "?",
		    m->vendor, m->family, m->model, m->stepping, hv ? ", hypervisor " : "", hv ? m->hypervisor : "");
}

/* ---- tsc ------------------------------------------------------------------- */

bool tsc_facts_source(struct tsc_facts *t, const char *name, double hz)
{
	if (t->n_sources >= TSC_FACTS_SOURCES)
		return false;
	t->sources[t->n_sources].name = name;
	t->sources[t->n_sources].hz = hz;
	t->n_sources++;
	return true;
}

void record_tsc_facts(struct log *l, const struct tsc_facts *t)
{
	struct put_tsc r = put_record_tsc(l);
	struct put_tsc_sources_map sources;

	put_tsc_hz(r, t->hz);
	put_tsc_source(r, t->source);
	sources = put_tsc_sources_open(r);
	for (unsigned i = 0; i < t->n_sources; i++)
		put_tsc_sources_add(sources, t->sources[i].name, t->sources[i].hz);
	put_tsc_sources_close(sources);
	put_tsc_error_ppm(r, t->error_ppm);
	if (t->interval_s == t->interval_s)
		put_tsc_interval_s(r, t->interval_s);
	put_tsc_window_ms(r, t->window_ms);
	put_tsc_invariant(r, t->invariant);
	log_end(l);
}

/* ---- acpi ----------------------------------------------------------------- */

static void write_fadt(struct put_acpi a, const struct acpi_info *info)
{
	struct put_acpi_fadt f;

	if (!info->have_fadt) {
		put_acpi_fadt_null(a);
		return;
	}
	f = put_acpi_fadt_open(a);
	if (info->fadt_address_known)
		put_acpi_fadt_address(f, info->fadt_address);
	else
		put_acpi_fadt_address_null(f);
	put_acpi_fadt_revision(f, info->fadt_revision);
	put_acpi_fadt_length(f, info->fadt_length);
	put_acpi_fadt_oem_id(f, info->fadt_oem);
	put_acpi_fadt_oem_table_id(f, info->fadt_oem_table);
	put_acpi_fadt_hw_reduced(f, info->hw_reduced);
	put_acpi_fadt_close(f);
}

static void write_timers(struct put_acpi a, const struct acpi_info *info)
{
	if (info->pm_space != ACPI_SPACE_NONE) {
		struct put_acpi_pm_timer pm = put_acpi_pm_timer_open(a);
		put_acpi_pm_timer_space(pm, info->pm_space == ACPI_SPACE_IO ? "io" : "mmio");
		put_acpi_pm_timer_address(pm, info->pm_address);
		put_acpi_pm_timer_bits(pm, info->pm_bits);
		put_acpi_pm_timer_close(pm);
	} else {
		put_acpi_pm_timer_null(a);
	}
	if (info->have_hpet) {
		struct put_acpi_hpet h = put_acpi_hpet_open(a);
		put_acpi_hpet_address(h, info->hpet_address);
		put_acpi_hpet_block_id(h, info->hpet_block_id);
		put_acpi_hpet_vendor(h, info->hpet_vendor);
		put_acpi_hpet_tables(h, info->hpet_tables);
		put_acpi_hpet_close(h);
	} else {
		put_acpi_hpet_null(a);
	}
}

static void write_madt(struct put_acpi a, const struct acpi_madt *d)
{
	struct put_acpi_madt m;

	if (!d->present) {
		put_acpi_madt_null(a);
		return;
	}
	m = put_acpi_madt_open(a);
	if (d->address_known)
		put_acpi_madt_address(m, d->address);
	else
		put_acpi_madt_address_null(m);
	put_acpi_madt_revision(m, d->revision);
	put_acpi_madt_length(m, d->length);
	put_acpi_madt_oem_id(m, d->oem);
	put_acpi_madt_lapic_address(m, d->lapic_address);
	put_acpi_madt_pcat_compat(m, d->pcat_compat);
	put_acpi_madt_cpus(m, d->enabled);
	put_acpi_madt_online_capable(m, d->online_capable);
	put_acpi_madt_disabled(m, d->disabled);
	put_acpi_madt_x2apic(m, d->x2apic_enabled);
	put_acpi_madt_listed(m, d->ncpus);
	put_acpi_madt_ioapics(m, d->count[MADT_IO_APIC]);
	put_acpi_madt_tables(m, d->tables);
	put_acpi_madt_problems(m, d->problems);
	put_acpi_madt_close(m);
}

void write_acpi(struct put_acpi a, const struct acpi_info *info)
{
	struct put_acpi_problems_list problems;

	if (info->have_rsdp) {
		struct put_acpi_rsdp r = put_acpi_rsdp_open(a);
		put_acpi_rsdp_address(r, info->rsdp_address);
		put_acpi_rsdp_revision(r, info->rsdp_revision);
		put_acpi_rsdp_oem_id(r, info->rsdp_oem);
		put_acpi_rsdp_close(r);
	} else {
		put_acpi_rsdp_null(a);
	}
	put_acpi_root(a, info->root == ACPI_ROOT_XSDT ? "xsdt" : info->root == ACPI_ROOT_RSDT ? "rsdt" : NULL);
	write_fadt(a, info);
	write_timers(a, info);
	write_madt(a, &info->madt);
	problems = put_acpi_problems_open(a);
	for (unsigned i = 0; i < info->nproblems; i++)
		put_acpi_problems_add(problems, info->problems[i]);
	if (info->problems_dropped) {
		char more[48];
		tp_snprintf(more, sizeof more, "%u more problems not kept", info->problems_dropped);
		put_acpi_problems_add(problems, more);
	}
	put_acpi_problems_close(problems);
}

void record_acpi(struct log *l, const struct acpi_info *info)
{
	write_acpi(put_record_acpi(l), info);
	log_end(l);
}
