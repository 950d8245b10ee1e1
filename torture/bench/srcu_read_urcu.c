/* SPDX-License-Identifier: MIT */
/* srcu_read_urcu.c - the liburcu-memb side of bench/srcu_read.c. */
#define _LGPL_SOURCE	/* liburcu's inline read side, as ours is inline */
#include <urcu/urcu-memb.h>
#include "bench.h"

static int val = 1;
static int *gp = &val;
static long sink;

/* One run; the first registers this thread (liburcu's readers must be). */
double bench_urcu_memb(long iters)
{
	static int registered;
	double t0;
	long i, s = 0;

	if (!registered++)
		urcu_memb_register_thread();
	t0 = bench_now_ns();
	for (i = 0; i < iters; i++) {
		urcu_memb_read_lock();
		s += *rcu_dereference(gp);
		urcu_memb_read_unlock();
	}
	__atomic_store_n(&sink, s, __ATOMIC_RELAXED);	/* keep the loop */
	return (bench_now_ns() - t0) / (double)iters;
}
