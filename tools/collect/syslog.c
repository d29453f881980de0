/* SPDX-License-Identifier: BSD-2-Clause */
/* The syslog transport (syslog.h): one thread, one UDP socket, one record
 * a datagram.  The datagram, as the probe sends it (RFC 5424):
 *
 *   <134>1 - MACHINE tickprobe BOOT PASS [tickprobe@32473 seq="N" token="T"] RECORD
 *
 * PASS (the MSGID) is `first` or `again`; the table drops what a second
 * pass brings again, by (boot, seq). */
#include "tools/collect/syslog.h"
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include "tools/collect/boots.h"
#include "tools/collect/record.h"
#include "tools/collect/sender.h"
#include "tools/common/progress.h"
#include "tools/common/xalloc.h"

#define DATAGRAM_MAX 65536 /* UDP's own bound, over IPv4: 65507 bytes of payload */
#define SD_ID "tickprobe@32473"

struct syslog_rx {
	int fd;
	const struct collect_options *o;
	struct boots *boots;
	struct collect_counts *counts;
	struct record_check rc;
	pthread_t thread;
	atomic_bool stop;
	char buf[DATAGRAM_MAX + 1];
};

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
			m->has_token = true, snprintf(m->token, sizeof m->token, "%s", value);
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

static void take(struct syslog_rx *s, size_t n, uint32_t source)
{
	struct message m;
	struct record_info info;
	struct sender who;
	const char *why;
	char seq[24], whyb[256];
	int verdict, rc;

	collect_count(&s->counts->syslog_datagrams);
	if (!parse(s->buf, n, &m, &why)) {
		collect_count(&s->counts->syslog_bad);
		return;
	}
	verdict = sender_check(s->o, m.machine, m.boot, m.has_token ? m.token : NULL, false, source, &who, &why);
	if (verdict != SENDER_OK) {
		collect_count(verdict == SENDER_REFUSED ? &s->counts->syslog_refused : &s->counts->syslog_bad);
		return;
	}
	if (!record_check(&s->rc, m.record, &m.len, &info, whyb, sizeof whyb)) {
		collect_count(&s->counts->syslog_bad);
		return;
	}
	snprintf(seq, sizeof seq, "%llu", (unsigned long long)info.seq);
	if (strcmp(seq, m.seq)) { /* the header's seq is the record's, or one of them is wrong */
		collect_count(&s->counts->syslog_bad);
		return;
	}
	rc = boots_take(s->boots, &who, info.seq, info.is_end, m.record, m.len, progress_now());
	if (rc == TAKE_MIXED)
		collect_count(&s->counts->syslog_bad);
	else if (rc == TAKE_SOURCE || rc == TAKE_BUSY)
		collect_count(&s->counts->syslog_busy);
}

static void *run(void *arg)
{
	struct syslog_rx *s = arg;
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };

	while (!atomic_load(&s->stop)) {
		struct sockaddr_in from;
		socklen_t len = sizeof from;
		ssize_t n;
		if (poll(&pfd, 1, 200) <= 0) /* 200 ms: how long a stop waits */
			continue;
		memset(&from, 0, sizeof from);
		n = recvfrom(s->fd, s->buf, DATAGRAM_MAX, MSG_DONTWAIT, (struct sockaddr *)&from, &len);
		if (n > 0)
			take(s, (size_t)n, from.sin_family == AF_INET ? from.sin_addr.s_addr : 0);
	}
	return NULL;
}
struct syslog_rx *syslog_start(int fd, const struct collect_options *o, struct boots *boots,
			       struct collect_counts *counts, char *why, size_t cap)
{
	struct syslog_rx *s = xrealloc(NULL, sizeof *s);
	int err;

	memset(s, 0, sizeof *s);
	s->fd = fd;
	s->o = o;
	s->boots = boots;
	s->counts = counts;
	atomic_init(&s->stop, false);
	if ((err = pthread_create(&s->thread, NULL, run, s))) {
		snprintf(why, cap, "syslog thread: %s", strerror(err));
		free(s);
		return NULL;
	}
	return s;
}

void syslog_stop(struct syslog_rx *s)
{
	if (!s)
		return;
	atomic_store(&s->stop, true);
	pthread_join(s->thread, NULL);
	close(s->fd);
	record_check_free(&s->rc);
	free(s);
}
