/* SPDX-License-Identifier: BSD-2-Clause */
/* net=, net_token=, net_drop= (what the UEFI network console, boot/efi_net.h,
 * is told), and tickprobe.cfg as a command line.  Parsed on every path alike:
 * the BIOS path reads them only to say it cannot send. */
#include "probe/options.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define HTTP_DEFAULT_PORT 80
#define SYSLOG_DEFAULT_PORT 514

static bool digit(char c) { return c >= '0' && c <= '9'; }

/* "10.0.2.2" (four decimal parts 0..255, no leading zeros beyond "0");
 * advances *s past it. */
static bool parse_ipv4(const char **s, uint8_t ip[4])
{
	const char *p = *s;

	for (int i = 0; i < 4; i++) {
		unsigned v = 0, n = 0;
		if (i && *p++ != '.')
			return false;
		for (; digit(*p) && n < 4; p++, n++)
			v = v * 10 + (unsigned)(*p - '0');
		if (!n || n > 3 || v > 255 || (n > 1 && p[-(int)n] == '0'))
			return false;
		ip[i] = (uint8_t)v;
	}
	*s = p;
	return true;
}

/* ":PORT" (1..65535) when there, else dflt. */
static bool parse_port(const char **s, uint16_t dflt, uint16_t *port)
{
	const char *p = *s;
	uint32_t v = 0;

	*port = dflt;
	if (*p != ':')
		return true;
	for (p++; digit(*p); p++)
		if ((v = v * 10 + (uint32_t)(*p - '0')) > 65535)
			return false;
	if (!v || p == *s + 1)
		return false;
	*port = (uint16_t)v;
	*s = p;
	return true;
}

/* A path character that needs no quoting in a request line or a JSON
 * string (RFC 3986 pchar, less '%' escapes and the quote-like ones). */
static bool path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || digit(c) || c == '/' || c == '.' || c == '_' ||
	       c == '~' || c == '-' || c == '=' || c == '&' || c == '+' || c == ',' || c == ';' || c == ':' || c == '@';
}

/* http://IPv4[:PORT][/PATH] or syslog://IPv4[:PORT]; why on failure. */
static bool parse_url(struct options *o, const char *val, const char **why)
{
	bool http = !tp_memcmp(val, "http://", 7);
	const char *p = val + (http ? 7 : 9);
	size_t n = 0;

	if (!http && tp_memcmp(val, "syslog://", 9)) {
		*why = "is not none, auto, http://IPv4:PORT/PATH or syslog://IPv4:PORT";
		return false;
	}
	if (!parse_ipv4(&p, o->net_ip)) {
		*why = "needs an IPv4 address as its host (no DNS here)";
		return false;
	}
	if (!parse_port(&p, http ? HTTP_DEFAULT_PORT : SYSLOG_DEFAULT_PORT, &o->net_port)) {
		*why = "has a port that is not 1..65535";
		return false;
	}
	o->net_path[0] = 0;
	if (http) {
		o->net_path[n++] = '/';
		if (*p == '/')
			p++;
		for (; *p && path_char(*p) && n + 1 < sizeof o->net_path; p++)
			o->net_path[n++] = *p;
		o->net_path[n] = 0;
	}
	if (*p) {
		*why = http ? "has a path that is too long or holds a character other than A-Z a-z 0-9 /._~-=&+,;:@"
			    : "has something after the port";
		return false;
	}
	tp_snprintf(o->net_url, sizeof o->net_url, "%s://%u.%u.%u.%u:%u%s", http ? "http" : "syslog", o->net_ip[0],
		    o->net_ip[1], o->net_ip[2], o->net_ip[3], o->net_port, o->net_path);
	o->net = http ? OPT_NET_HTTP : OPT_NET_SYSLOG;
	return true;
}

static bool token_ok(const char *t)
{
	size_t n = 0;
	for (; t[n]; n++)
		if (!((t[n] >= 'a' && t[n] <= 'z') || (t[n] >= 'A' && t[n] <= 'Z') || digit(t[n]) || t[n] == '.' ||
		      t[n] == '_' || t[n] == '~' || t[n] == '-'))
			return false;
	return n >= 1 && n <= OPT_NET_TOKEN_MAX;
}

static void set_net(struct options *o, const char *from, const char *val)
{
	const char *why = NULL;

	if (tp_streq(val, "none") || tp_streq(val, "auto")) {
		o->net = tp_streq(val, "none") ? OPT_NET_NONE : OPT_NET_AUTO;
		o->net_given = o->net == OPT_NET_AUTO;
		o->net_url[0] = o->net_path[0] = 0;
		return;
	}
	if (parse_url(o, val, &why)) {
		o->net_given = true;
		return;
	}
	o->net = OPT_NET_AUTO;
	o->net_url[0] = o->net_path[0] = 0;
	options_problem(o, from, "option net: '%s' %s; auto kept", val, why);
}

bool options_net_option(struct options *o, const char *from, const char *key, const char *val)
{
	uint32_t v = 0;
	const char *p;

	if (tp_streq(key, "net")) {
		set_net(o, from, val);
	} else if (tp_streq(key, "net_token")) {
		if (token_ok(val))
			tp_snprintf(o->net_token, sizeof o->net_token, "%s", val);
		else
			options_problem(o, from, "option net_token: not 1..64 characters A-Z a-z 0-9 . _ ~ -, ignored");
	} else if (tp_streq(key, "net_drop")) {
		for (p = val; digit(*p) && v <= OPT_NET_DROP_MAX; p++)
			v = v * 10 + (uint32_t)(*p - '0');
		if (*p || p == val || v > OPT_NET_DROP_MAX)
			options_problem(o, from, "option net_drop: '%s' is not a whole number in 0..%u, 0 kept", val,
					OPT_NET_DROP_MAX);
		else
			o->net_drop = v;
	} else {
		return false;
	}
	return true;
}

/* Appends word w (wn bytes) to out; false when it does not fit. */
static bool add_word(char *out, size_t cap, size_t *k, const char *w, size_t wn)
{
	if (*k + (*k ? 1 : 0) + wn + 1 > cap)
		return false;
	if (*k)
		out[(*k)++] = ' ';
	tp_memcpy(out + *k, w, wn);
	*k += wn;
	out[*k] = 0;
	return true;
}

bool options_cfg_cmdline(const char *text, size_t n, char *out, size_t cap)
{
	size_t i = 0, k = 0;

	if (!cap)
		return false;
	out[0] = 0;
	while (i < n) {
		char c = text[i];
		size_t start;
		if (c == '#') {
			while (i < n && text[i] != '\n')
				i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || !c) {
			i++;
			continue;
		}
		for (start = i; i < n && text[i] && text[i] != ' ' && text[i] != '\t' && text[i] != '\r' &&
				text[i] != '\n' && text[i] != '#';
		     i++)
			;
		if (!add_word(out, cap, &k, text + start, i - start))
			return false;
	}
	return true;
}
