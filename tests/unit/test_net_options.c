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
	check(o.net == OPT_NET_AUTO && !o.net_given && !o.net_url[0] && !o.net_token[0] && !o.net_drop,
	      "net: no word gives net=auto, not given, no token, no drop");
	options_parse(&o, "net=http://10.0.2.2:8514/log");
	check(o.net == OPT_NET_HTTP && o.net_given && ip_is(&o, 10, 0, 2, 2) && o.net_port == 8514 &&
		      !strcmp(o.net_path, "/log") && !strcmp(o.net_url, "http://10.0.2.2:8514/log") && !o.n_problems,
	      "net: http://10.0.2.2:8514/log parses (url %s, path %s)", o.net_url, o.net_path);
	options_parse(&o, "net=http://192.168.1.200");
	check(o.net == OPT_NET_HTTP && o.net_port == 80 && !strcmp(o.net_path, "/") &&
		      !strcmp(o.net_url, "http://192.168.1.200:80/") && !o.n_problems,
	      "net: http:// without port or path gets port 80 and path / (%s)", o.net_url);
	options_parse(&o, "net=syslog://10.0.2.2");
	check(o.net == OPT_NET_SYSLOG && o.net_port == 514 && !o.net_path[0] &&
		      !strcmp(o.net_url, "syslog://10.0.2.2:514") && !o.n_problems,
	      "net: syslog:// without port gets 514 (%s)", o.net_url);
	options_parse(&o, "net=syslog://127.0.0.1:65535 net_token=a.B_c~-9 net_drop=20");
	check(o.net == OPT_NET_SYSLOG && o.net_port == 65535 && !strcmp(o.net_token, "a.B_c~-9") && o.net_drop == 20 &&
		      !o.n_problems,
	      "net: syslog with a token and net_drop=20");
	options_parse(&o, "net=http://10.0.2.2:1/log net=none");
	check(o.net == OPT_NET_NONE && !o.net_given && !o.net_url[0] && !o.n_problems,
	      "net: a later net=none wins, and counts as not given");
	options_parse(&o, "net=auto");
	check(o.net == OPT_NET_AUTO && o.net_given && !o.n_problems, "net: net=auto given counts as given");
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
		check(o.net == OPT_NET_AUTO && !o.net_given && !o.net_url[0] && o.n_problems == 1 &&
			      strstr(o.problems[0], "option net:") && strstr(o.problems[0], cases[i].says),
		      "net: \"%s\" is refused with one problem (%s)", cases[i].line,
		      o.n_problems ? o.problems[0] : "none");
	}
	options_parse(&o, "net_token=bad/char");
	check(o.n_problems == 1 && !o.net_token[0] && strstr(o.problems[0], "net_token"),
	      "net: a token with '/' is refused (%s)", o.n_problems ? o.problems[0] : "none");
	options_parse(&o, "net_token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	check(o.n_problems == 1 && !o.net_token[0], "net: a 65-character token is refused");
	options_parse(&o, "net_token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	check(!o.n_problems && strlen(o.net_token) == 64, "net: a 64-character token is taken");
	options_parse(&o, "net_drop=3 net_drop=x net_drop=1000001");
	check(o.n_problems == 2 && o.net_drop == 3, "net: bad net_drop= words keep the earlier 3");
	options_parse(&o, "net=http://10.0.2.2:8514/log net=http://x/y");
	check(o.net == OPT_NET_AUTO && !o.net_url[0] && o.n_problems == 1,
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

	check(options_cfg_cmdline(cfg, sizeof cfg - 1, out, sizeof out) &&
		      !strcmp(out, "preset=quick net=http://10.0.2.2:8514/log net_token=abc"),
	      "cfg: comments and line ends go, the words stay (\"%s\")", out);
	options_parse(&o, out);
	check(!strcmp(o.preset, "quick") && o.net == OPT_NET_HTTP && !strcmp(o.net_token, "abc") && !o.n_problems,
	      "cfg: the line parses as the options it holds");
	check(!options_cfg_cmdline(cfg, sizeof cfg - 1, small, sizeof small) && !strcmp(small, "preset=quick"),
	      "cfg: a line that does not fit is cut at a whole word and says so (\"%s\")", small);
	check(options_cfg_cmdline("", 0, out, sizeof out) && !out[0], "cfg: an empty file is an empty line");
	check(options_cfg_cmdline("a=1\0b=2", 7, out, sizeof out) && !strcmp(out, "a=1 b=2"),
	      "cfg: a NUL byte counts as a blank");
}

int main(void)
{
	test_good_urls();
	test_bad_urls();
	test_cfg();
	return check_done();
}
