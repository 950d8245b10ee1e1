/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/debug_repeat.c - with CONFIG_PROVE_RCU_REPEATEDLY every
 * suspicious use splats, not only the first one of a call site.
 */
#ifndef CONFIG_PROVE_RCU
#define CONFIG_PROVE_RCU
#endif
#define CONFIG_PROVE_RCU_REPEATEDLY
#include "rcu_test.h"

static int v = 1;
static int *__rcu p = &v;

int main(int argc, char **argv)
{
	static char out[16384];
	int st, n = 0;

	(void)argv;

	if (argc > 1) {
		rcu_register_thread();
		for (int i = 0; i < 3; i++)
			(void)*rcu_dereference(p);
		return 0;
	}
	st = run_self("child", NULL, NULL, out, sizeof(out));
	for (const char *s = out; (s = strstr(s, "WARNING: suspicious RCU usage")); s++)
		n++;
	ok(exited_with(st, 0) && n == 3, "PROVE_RCU_REPEATEDLY: three splats for three uses (%d)", n);
	return done_testing();
}
