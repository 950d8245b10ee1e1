/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/params.c - parameters by kernel name: the API, the RCU_BOOTARGS
 * environment variable, and clear errors for unknown names and bad values.
 */
#include <rcu/rcutree.h>
#include "rcu_test.h"

static char out[8192];

static long getp(const char *name)
{
	char buf[64];

	if (lrcu_param_get(name, buf, sizeof(buf)))
		return -999;
	return strtol(buf, NULL, 0);
}

static void test_api_before_start(void)
{
	char err[256] = "";

	ok(lrcu_params_parse("rcutree.blimit=20 rcutree.rcu_fanout_leaf=4\n nr_cpus=64", err,
			     sizeof(err)) == 0, "a boot-argument string parses");
	is_long(getp("rcutree.blimit"), 20, "rcutree.blimit=20 applied");
	is_long(getp("rcutree.rcu_fanout_leaf"), 4, "rcutree.rcu_fanout_leaf=4 applied");
	is_long(getp("nr_cpus"), 64, "nr_cpus=64 applied");

	ok(lrcu_params_parse("rcutree.blimit=30 rcutree.bogus=1", err, sizeof(err)) == -1 &&
	   strstr(err, "unknown parameter 'rcutree.bogus'"),
	   "unknown name: error names it (%s)", err);
	is_long(getp("rcutree.blimit"), 20, "... and nothing of that string was applied");
	ok(lrcu_params_parse("rcutree.blimit=ten", err, sizeof(err)) == -1 &&
	   strstr(err, "rcutree.blimit") && strstr(err, "ten"),
	   "bad value: error names parameter and value (%s)", err);
	ok(lrcu_params_parse("rcutree.qhimark=0", err, sizeof(err)) == -1 &&
	   strstr(err, "out of range"), "out of range value refused (%s)", err);
	ok(lrcu_params_parse("rcutree.blimit", err, sizeof(err)) == -1 &&
	   strstr(err, "missing value"), "missing value refused (%s)", err);
	ok(lrcu_params_parse("rcutree.rcu_fanout_exact", err, sizeof(err)) == 0 &&
	   getp("rcutree.rcu_fanout_exact") == 1, "a bare boolean means 1");
	ok(lrcu_params_parse("rcutree.rcu_fanout_exact=n", err, sizeof(err)) == 0 &&
	   getp("rcutree.rcu_fanout_exact") == 0, "booleans take y/n");
	ok(lrcu_param_set("rcutree.jiffies_till_first_fqs", "2x", err, sizeof(err)) == -1 &&
	   strstr(err, "jiffies_till_first_fqs"), "lrcu_param_set() checks values too (%s)", err);
	ok(lrcu_param_known("rcutree.qlowmark") && !lrcu_param_known("rcutree.qlow"),
	   "lrcu_param_known()");
	ok(lrcu_params_parse("", err, sizeof(err)) == 0 && lrcu_params_parse(NULL, err, sizeof(err)) == 0,
	   "empty and NULL strings are fine");
}

static void test_api_after_start(void)
{
	char err[256] = "";
	FILE *f;
	char line[4096] = "";

	ok(lrcu_init() == 0, "lrcu_init() starts the library");
	ok(lrcu_param_set("rcutree.rcu_fanout", "8", err, sizeof(err)) == -1 &&
	   strstr(err, "cannot be changed after RCU has started"),
	   "tree-shaping parameters are fixed once started (%s)", err);
	ok(lrcu_param_set("rcutree.blimit", "15", err, sizeof(err)) == 0 &&
	   getp("rcutree.blimit") == 15, "run-time parameters change after start");
	synchronize_rcu();

	f = tmpfile();
	lrcu_params_print(f);
	rewind(f);
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	ok(strstr(line, "rcutree.blimit=15") && strstr(line, "nr_cpus=64") &&
	   strstr(line, "rcutree.rcu_fanout_leaf=4"), "lrcu_params_print() shows effective values");
}

/* Children: a fresh library configured through the environment. */
static int child(const char *mode)
{
	if (!strcmp(mode, "register")) {
		if (rcu_register_thread())
			return 3;
		synchronize_rcu();
		printf("blimit=%ld fanout=%ld\n", getp("rcutree.blimit"), getp("rcutree.rcu_fanout"));
		return 0;
	}
	if (!strcmp(mode, "init"))
		return lrcu_init() == -1 ? 7 : 0;
	return 99;
}

static void test_env(void)
{
	int st;

	st = run_self("register", NULL, "rcutree.blimit=33 rcutree.rcu_fanout=8", out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "blimit=33 fanout=8"),
	   "RCU_BOOTARGS applies parameters at start");
	st = run_self("register", NULL, "rcutree.blimit=33 rcutree.nonsense=1", out, sizeof(out));
	ok(exited_with(st, 2) && strstr(out, "RCU_BOOTARGS: unknown parameter 'rcutree.nonsense'"),
	   "bad RCU_BOOTARGS: one clear line and exit 2, nothing starts");
	diag_output(out);
	st = run_self("register", NULL, "rcutree.blimit=-5", out, sizeof(out));
	ok(exited_with(st, 2) && strstr(out, "rcutree.blimit"), "bad value in RCU_BOOTARGS is named");
	st = run_self("init", NULL, "rcutree.qhimark=x", out, sizeof(out));
	ok(exited_with(st, 7) && strstr(out, "rcutree.qhimark"),
	   "lrcu_init() returns -1 on a bad RCU_BOOTARGS");
	st = run_self("register", NULL, "nr_cpus=100000 rcutree.rcu_fanout=2 rcutree.rcu_fanout_leaf=2",
		      out, sizeof(out));
	ok(exited_with(st, 2) && strstr(out, "more than 6 levels"),
	   "an impossible geometry is refused with the reason");
	diag_output(out);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return child(argv[1]);
	test_env();
	test_api_before_start();
	test_api_after_start();
	return done_testing();
}
