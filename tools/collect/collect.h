/* SPDX-License-Identifier: BSD-2-Clause */
/* tickprobe collect: the network collector (what it takes and keeps:
 * docs/collect.md).  Probes send their records over HTTP
 * (tools/collect/http.c) or syslog over UDP (tools/collect/syslog.c); each
 * record is checked (tools/collect/record.c) and handed to the per-boot
 * table (tools/collect/boots.c), which writes each boot's contiguous records
 * to DIR/MACHINE/NNNN.log; the main thread (tools/collect/cmd_collect.c)
 * verifies and imports every finished log (tools/collect/finish.c). */
#ifndef TOOLS_COLLECT_COLLECT_H
#define TOOLS_COLLECT_COLLECT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

/* The bounds a hostile or broken sender meets (docs/collect.md lists them). */
#define COLLECT_IDLE_S 10       /* MHD's own: a connection silent this long is closed */
#define COLLECT_REQUEST_S 10    /* a request whole within this long of the previous answer */
#define COLLECT_CONN_MEMORY (32u * 1024u) /* MHD's per-connection pool: headers, read buffer */
#define COLLECT_TOKEN_MAX 64

enum token_given { TOKEN_NONE, TOKEN_ARGUMENT, TOKEN_FILE };

struct collect_options {
	bool http_on, syslog_on;
	struct sockaddr_in http_addr, syslog_addr;
	const char *dir, *db, *ready_file;
	const char *token;         /* the token senders must give, or NULL: token_buf, once read */
	int token_given;           /* enum token_given: where token_source points */
	char *token_source;        /* --token's argument (scrubbed once read) or --token-file's path */
	char token_buf[COLLECT_TOKEN_MAX + 1];
	long max_connections, max_body, incomplete_after;
	uint64_t max_log_bytes;    /* a boot's log is cut before it grows past this */
	unsigned per_source;       /* boots in progress from one address */
	bool quiet;
};

/* What the transports turned away, counted from their threads. */
struct collect_counts {
	atomic_ullong http_requests, http_bad, http_refused, http_too_large, http_busy, http_slow;
	atomic_ullong syslog_datagrams, syslog_bad, syslog_refused, syslog_busy;
};

static inline void collect_count(atomic_ullong *c)
{
	atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
}

/* The token as given, compared in time that does not depend on where the
 * first difference is: true when none is wanted or it matches. */
bool collect_token_ok(const struct collect_options *o, const char *given);

/* The token from --token-file, --token or TICKPROBE_TOKEN (tools/collect/
 * token.c) into o->token_buf, o->token then pointing at it (NULL when none
 * is given); false with why when it cannot be read or is not a token. */
bool token_read(struct collect_options *o, char *why, size_t cap);

#endif
