/* SPDX-License-Identifier: BSD-2-Clause */
/* One syslog datagram (datagram.h), as the probe sends it (RFC 5424):
 *
 *   <134>1 - MACHINE tickprobe BOOT PASS [tickprobe@32473 seq="N" token="T"] RECORD
 *
 * PASS (the MSGID) is `first` or `again`; the table drops what a second
 * pass brings again, by (boot, seq). */
#include "tools/collect/datagram.h"
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "tools/collect/boots.h"
#include "tools/collect/sender.h"

#define SD_ID "tickprobe@32473"

struct message {
	char machine[BOOTS_MACHINE_MAX + 1], boot[BOOTS_ID_MAX + 1], seq[24];
	char token[COLLECT_TOKEN_MAX + 1];
	bool has_seq, has_token;
	char *record;
	size_t len;
};

/* The next space-ended field into out (at most cap - 1 bytes). */
static bool field(char **p, const char *end, char *out, size_t cap)
{
	size_t k = 0;

	while (*p < end && **p != ' ') {
		if (k + 1 >= cap)
			return false;
		out[k++] = *(*p)++;
	}
	out[k] = 0;
	if (!k || *p >= end)
		return false;
	(*p)++;
	return true;
}

/* PARAM-VALUE: "…" with \" \\ \] escaped. */
static bool param_value(char **p, const char *end, char *out, size_t cap)
{
	size_t k = 0;

	if (*p >= end || **p != '"')
		return false;
	for ((*p)++; *p < end && **p != '"'; (*p)++) {
		if (**p == '\\' && *p + 1 < end && ((*p)[1] == '"' || (*p)[1] == '\\' || (*p)[1] == ']'))
			(*p)++;
		if (k + 1 >= cap)
			return false;
		out[k++] = **p;
	}
	out[k] = 0;
	if (*p >= end)
		return false;
	(*p)++;
	return true;
}

/* One SD-ELEMENT, "[ID name="value" …]"; ours fills seq and token. */
static bool sd_element(char **p, const char *end, struct message *m)
{
	char id[40], name[40], value[COLLECT_TOKEN_MAX + 1];
	bool ours;
	size_t k = 0;

	(*p)++;
	while (*p < end && **p != ' ' && **p != ']' && k + 1 < sizeof id)
		id[k++] = *(*p)++;
	id[k] = 0;
	ours = !strcmp(id, SD_ID);
	while (*p < end && **p == ' ') {
		(*p)++;
		for (k = 0; *p < end && **p != '=' && k + 1 < sizeof name; k++)
			name[k] = *(*p)++;
		name[k] = 0;
		if (*p >= end || **p != '=')
			return false;
		(*p)++;
		if (!param_value(p, end, value, sizeof value))
			return false;
		if (ours && !strcmp(name, "seq"))
			m->has_seq = snprintf(m->seq, sizeof m->seq, "%s", value) < (int)sizeof m->seq;
		else if (ours && !strcmp(name, "token"))
			m->has_token = snprintf(m->token, sizeof m->token, "%s", value) < (int)sizeof m->token;
	}
	if (*p >= end || **p != ']')
		return false;
	(*p)++;
	return true;
}

static bool parse(char *s, size_t n, struct message *m, const char **why)
{
	char *p = s, *end = s + n, word[BOOTS_ID_MAX + 1];
	int pri = 0, digits = 0;

	memset(m, 0, sizeof *m);
	*why = "not an RFC 5424 message";
	if (p >= end || *p++ != '<')
		return false;
	while (p < end && *p >= '0' && *p <= '9' && digits++ < 3)
		pri = pri * 10 + (*p++ - '0');
	if (!digits || pri > 191 || end - p < 3 || p[0] != '>' || p[1] != '1' || p[2] != ' ')
		return false;
	p += 3;
	if (!field(&p, end, word, sizeof word) || !field(&p, end, m->machine, sizeof m->machine))
		return false; /* TIMESTAMP (the probe sends "-"), HOSTNAME */
	if (!field(&p, end, word, sizeof word) || strcmp(word, "tickprobe")) {
		*why = "not from tickprobe (APP-NAME)";
		return false;
	}
	if (!field(&p, end, m->boot, sizeof m->boot) || !field(&p, end, word, sizeof word))
		return false; /* PROCID, MSGID */
	if (strcmp(word, "first") && strcmp(word, "again")) {
		*why = "the pass (MSGID) is neither first nor again";
		return false;
	}
	if (p < end && *p == '-')
		p++;
	else
		while (p < end && *p == '[')
			if (!sd_element(&p, end, m))
				return false;
	if (p >= end || *p++ != ' ')
		return false;
	if (end - p >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3; /* RFC 5424's BOM before a UTF-8 MSG */
	m->record = p;
	m->len = (size_t)(end - p);
	*why = "no seq in [" SD_ID "]";
	return m->has_seq;
}

/* The table's verdict on a checked record, counted. */
static int taken(struct intake *in, int rc)
{
	switch (rc) {
	case TAKE_STORED:
	case TAKE_HELD:
	case TAKE_DUPLICATE:
		return DATAGRAM_TAKEN;
	case TAKE_MIXED:
	case TAKE_PAST_END:
		collect_count(&in->counts->syslog_bad);
		return DATAGRAM_BAD;
	case TAKE_SOURCE:
	case TAKE_BUSY:
		collect_count(&in->counts->syslog_busy);
		return DATAGRAM_BUSY;
	default: /* TAKE_CUT, TAKE_FAILED: the main thread's lines say why */
		return DATAGRAM_DROPPED;
	}
}

int datagram_take(struct intake *in, char *buf, size_t n, uint32_t source, double now)
{
	struct message m;
	struct record_info info;
	struct sender who;
	const char *why;
	char seq[24], record_why[256];
	int verdict;

	collect_count(&in->counts->syslog_datagrams);
	if (!parse(buf, n, &m, &why)) {
		collect_count(&in->counts->syslog_bad);
		return DATAGRAM_BAD;
	}
	verdict = sender_check(in->o, m.machine, m.boot, m.has_token ? m.token : NULL, false, source, &who, &why);
	if (verdict == SENDER_REFUSED) {
		collect_count(&in->counts->syslog_refused);
		return DATAGRAM_REFUSED;
	}
	if (verdict != SENDER_OK || !record_check(&in->rc, m.record, &m.len, &info, record_why, sizeof record_why)) {
		collect_count(&in->counts->syslog_bad);
		return DATAGRAM_BAD;
	}
	snprintf(seq, sizeof seq, "%llu", (unsigned long long)info.seq);
	if (strcmp(seq, m.seq)) { /* the header's seq is the record's, or one of them is wrong */
		collect_count(&in->counts->syslog_bad);
		return DATAGRAM_BAD;
	}
	return taken(in, boots_take(in->boots, &who, info.seq, info.is_end, m.record, m.len, now));
}
