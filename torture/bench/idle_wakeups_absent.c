/* SPDX-License-Identifier: MIT */
/* idle_wakeups_absent.c - linked instead of idle_wakeups_urcu.c when
 * liburcu-dev is missing or the build says LIBURCU=0: the "liburcu" mode
 * then says so (bench/idle_wakeups.c) instead of measuring. */
#include "bench.h"

int bench_urcu_child(double rate, double secs)
{
	(void)rate;
	(void)secs;
	return 3;
}

int bench_have_liburcu(void)
{
	return 0;
}
