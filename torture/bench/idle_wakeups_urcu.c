/* SPDX-License-Identifier: MIT */
/* idle_wakeups_urcu.c - the liburcu-memb side of bench/idle_wakeups.c (its
 * own translation unit: liburcu's names clash with ours). */
#define _LGPL_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <urcu/urcu-memb.h>
#include <torture/atomic.h>
#include "bench.h"

struct uobj {
	long payload[4];
	struct rcu_head rh;
};

static long invoked;

static void ufree(struct rcu_head *rh)
{
	free(caa_container_of(rh, struct uobj, rh));
	atomic_inc(&invoked);	/* read after the barrier */
}

/* liburcu's call_rcu(): the same trickle as child_ours() in idle_wakeups.c. */
int bench_urcu_child(double rate, double secs)
{
	long n = (long)(rate * secs + 0.5), i, w0, w1;
	struct timespec t;
	int nthreads;

	urcu_memb_register_thread();
	urcu_memb_call_rcu(&((struct uobj *)malloc(sizeof(struct uobj)))->rh, ufree);
	urcu_memb_barrier();	/* its worker started */
	usleep(300000);
	w0 = bench_other_threads_switches(&nthreads);
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (i = 0; i < n; i++) {
		urcu_memb_call_rcu(&((struct uobj *)malloc(sizeof(struct uobj)))->rh, ufree);
		bench_sleep_until(&t, 1 / rate);
	}
	w1 = bench_other_threads_switches(&nthreads);
	urcu_memb_barrier();
	printf("{\"bench\":\"idle_wakeups\",\"mode\":\"liburcu\",\"rate_per_s\":%g,\"seconds\":%g,"
	       "\"callbacks\":%ld,\"threads\":%d,\"wakeups\":%ld,\"wakeups_per_s\":%.2f,"
	       "\"grace_periods\":null,\"all_invoked\":%s}\n", rate, secs, n, nthreads, w1 - w0,
	       (double)(w1 - w0) / secs,
	       READ_ONCE(invoked) == n + 1 ? "true" : "false");
	urcu_memb_unregister_thread();
	return 0;
}

int bench_have_liburcu(void)
{
	return 1;
}
