/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/options_net.c: net=, net_token=, net_drop= and tickprobe.cfg as a
 * command line.  A bad word gives one problem naming the option and keeps
 * net=auto; a good one is normalised into the URL the begin record shows. */
#include <string.h>
#include "probe/options.h"
#include "tests/unit/check.h"

static int ip_is(const struct options *o, int a, int b, int c, int d)
{
	return o->net_ip[0] == a && o->net_ip[1] == b && o->net_ip[2] == c && o->net_ip[3] == d;
}

static void test_good_urls(void)
{
	struct options o;

	options_parse(&o, "");
	check(COND(o.net == OPT_NET_AUTO) && COND(!o.net_given) && COND(!o.net_url[0]) && COND(!o.net_token[0]) &&
		      COND(!o.net_drop),
	      "net: no word gives net=auto, not given, no token, no drop");
	options_parse(&o, "net=http://10.0.2.2:8514/log");
	check(COND(o.net == OPT_NET_HTTP) && COND(o.net_given) && COND(ip_is(&o, 10, 0, 2, 2)) &&
		      COND(o.net_port == 8514) && COND(!strcmp(o.net_path, "/log")) &&
		      COND(!strcmp(o.net_url, "http://10.0.2.2:8514/log")) && COND(!o.n_problems),
	      "net: http://10.0.2.2:8514/log parses (url %s, path %s)", o.net_url, o.net_path);
	options_parse(&o, "net=http://192.168.1.200");
	check(COND(o.net == OPT_NET_HTTP) && COND(o.net_port == 80) && COND(!strcmp(o.net_path, "/")) &&
		      COND(!strcmp(o.net_url, "http://192.168.1.200:80/")) && COND(!o.n_problems),
	      "net: http:// without port or path gets port 80 and path / (%s)", o.net_url);
	options_parse(&o, "net=syslog://10.0.2.2");
	check(COND(o.net == OPT_NET_SYSLOG) && COND(o.net_port == 514) && COND(!o.net_path[0]) &&
		      COND(!strcmp(o.net_url, "syslog://10.0.2.2:514")) && COND(!o.n_problems),
	      "net: syslog:// without port gets 514 (%s)", o.net_url);
	options_parse(&o, "net=syslog://127.0.0.1:65535 net_token=a.B_c~-9 net_drop=20");
	check(COND(o.net == OPT_NET_SYSLOG) && COND(o.net_port == 65535) && COND(!strcmp(o.net_token, "a.B_c~-9")) &&
		      COND(o.net_drop == 20) && COND(!o.n_problems),
	      "net: syslog with a token and net_drop=20");
	options_parse(&o, "net=http://10.0.2.2:1/log net=none");
	check(COND(o.net == OPT_NET_NONE) && COND(!o.net_given) && COND(!o.net_url[0]) && COND(!o.n_problems),
	      "net: a later net=none wins, and counts as not given");
	options_parse(&o, "net=auto");
	check(COND(o.net == OPT_NET_AUTO) && COND(o.net_given) && COND(!o.n_problems),
	      "net: net=auto given counts as given");
}

static void test_bad_urls(void)
{
	static const struct {
		const char *line, *says;
	} cases[] = {
		{ "net=http://collector.lab:8514/log", "IPv4" },
		{ "net=ftp://10.0.2.2/x", "is not none, auto" },
		{ "net=http://10.0.2.256/log", "IPv4" },
		{ "net=http://10.0.2/log", "IPv4" },
		{ "net=http://10.0.02.2/log", "IPv4" },
		{ "net=http://10.0.2.2:0/log", "port" },
		{ "net=http://10.0.2.2:65536/log", "port" },
		{ "net=http://10.0.2.2:/log", "port" },
		{ "net=http://10.0.2.2:80/l\"og", "path" },
		{ "net=syslog://10.0.2.2:514/x", "after the port" },
		{ "net=", "is not none, auto" },
	};
	struct options o;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		options_parse(&o, cases[i].line);
		check(COND(o.net == OPT_NET_AUTO) && COND(!o.net_given) && COND(!o.net_url[0]) &&
			      COND(o.n_problems == 1) && COND(strstr(o.problems[0], "option net:")) &&
			      COND(strstr(o.problems[0], cases[i].says)),
		      "net: \"%s\" is refused with one problem (%s)", cases[i].line,
		      o.n_problems ? o.problems[0] : "none");
	}
	options_parse(&o, "net_token=bad/char");
	check(COND(o.n_problems == 1) && COND(!o.net_token[0]) && COND(strstr(o.problems[0], "net_token")),
	      "net: a token with '/' is refused (%s)", o.n_problems ? o.problems[0] : "none");
	options_parse(&o, "net_token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	check(COND(o.n_problems == 1) && COND(!o.net_token[0]), "net: a 65-character token is refused");
	options_parse(&o, "net_token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	check(COND(!o.n_problems) && COND(strlen(o.net_token) == 64), "net: a 64-character token is taken");
	options_parse(&o, "net_drop=3 net_drop=x net_drop=1000001");
	check(COND(o.n_problems == 2) && COND(o.net_drop == 3), "net: bad net_drop= words keep the earlier 3");
	options_parse(&o, "net=http://10.0.2.2:8514/log net=http://x/y");
	check(COND(o.net == OPT_NET_AUTO) && COND(!o.net_url[0]) && COND(o.n_problems == 1),
	      "net: a bad net= after a good one leaves auto, not half of each");
}

static void test_cfg(void)
{
	static const char cfg[] = "# tickprobe.cfg for the lab\n"
				  "preset=quick   # the short run\r\n"
				  "\n"
				  "\tnet=http://10.0.2.2:8514/log\n"
				  "net_token=abc#no space before the comment\n";
	char out[128], small[20];
	struct options o;

	check(COND(options_cfg_cmdline(cfg, sizeof cfg - 1, out, sizeof out)) &&
		      COND(!strcmp(out, "preset=quick net=http://10.0.2.2:8514/log net_token=abc")),
	      "cfg: comments and line ends go, the words stay (\"%s\")", out);
	options_parse(&o, out);
	check(COND(!strcmp(o.preset, "quick")) && COND(o.net == OPT_NET_HTTP) && COND(!strcmp(o.net_token, "abc")) &&
		      COND(!o.n_problems),
	      "cfg: the line parses as the options it holds");
	check(COND(!options_cfg_cmdline(cfg, sizeof cfg - 1, small, sizeof small)) &&
		      COND(!strcmp(small, "preset=quick")),
	      "cfg: a line that does not fit is cut at a whole word and says so (\"%s\")", small);
	check(COND(options_cfg_cmdline("", 0, out, sizeof out)) && COND(!out[0]),
	      "cfg: an empty file is an empty line");
	check(COND(options_cfg_cmdline("a=1\0b=2", 7, out, sizeof out)) && COND(!strcmp(out, "a=1 b=2")),
	      "cfg: a NUL byte counts as a blank");
}

/* The begin record's command line hides the token and keeps the rest. */
static void test_shown(void)
{
	char out[96], small[24];

	check(COND(options_cmdline_shown("preset=quick  net_token=s3cret net=syslog://10.0.2.2", out, sizeof out)) &&
		      COND(!strcmp(out, "preset=quick  net_token=(hidden) net=syslog://10.0.2.2")),
	      "shown: the token word hidden, the rest byte for byte (\"%s\")", out);
	check(COND(options_cmdline_shown("net_token=a\tnet_token=bb", out, sizeof out)) &&
		      COND(!strcmp(out, "net_token=(hidden)\tnet_token=(hidden)")),
	      "shown: every token word, tab-separated too (\"%s\")", out);
	check(COND(options_cmdline_shown("xnet_token=s net_token= net_tokens", out, sizeof out)) &&
		      COND(!strcmp(out, "xnet_token=s net_token= net_tokens")),
	      "shown: words that only look alike stay (\"%s\")", out);
	check(COND(options_cmdline_shown(NULL, out, sizeof out)) && COND(!out[0]),
	      "shown: no command line is an empty one");
	check(COND(!options_cmdline_shown("preset=quick net_token=s3cret", small, sizeof small)) &&
		      COND(!strstr(small, "s3cret")),
	      "shown: cut short, it says so and shows no part of the token (\"%s\")", small);
}

int main(void)
{
	test_good_urls();
	test_bad_urls();
	test_cfg();
	test_shown();
	return check_done();
}
