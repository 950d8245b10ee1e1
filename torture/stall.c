/* SPDX-License-Identifier: MIT */
/*
 * stall.c - stall_cpu (rcu_torture_stall): after stall_cpu_holdoff
 * seconds, one registered thread enters a read-side critical section and
 * stays there for stall_cpu seconds, spinning (or sleeping with
 * stall_cpu_block), so that grace periods cannot end: the RCU is expected
 * to warn about a stall.  The writer stalls too; the stats thread reports
 * that as a deliberate stall, not a failure (tc.stall_active).
 */
#include <limits.h>
#include "torture.h"

static void *rcu_torture_stall(void *arg)
{
	unsigned long end;
	int idx;

	(void)arg;
	torture_sleep_us((unsigned long)tp.stall_cpu_holdoff * 1000000);
	if (torture_must_stop())
		return NULL;
	if (torture_aux_register("rcu_torture_stall", "no stall", true))
		return NULL;
	torout(" rcu_torture_stall begin CPU stall interval %ld secs", tp.stall_cpu);
	STAT_SET(tc.stall_active, ULONG_MAX);
	idx = cur_ops->readlock();
	end = torture_now_us() + (unsigned long)tp.stall_cpu * 1000000;
	while (torture_now_us() < end && !torture_must_stop()) {
		if (tp.stall_cpu_block)
			torture_sleep_us(10000);
		else
			torture_spin_us(1000);
	}
	cur_ops->readunlock(idx);
	STAT_SET(tc.stall_active, torture_now_us());
	torout(" rcu_torture_stall end.");
	torture_reader_unregister();
	return NULL;
}

int stall_start(void)
{
	if (tp.stall_cpu <= 0)
		return 0;
	return torture_spawn("rcu_torture_sta", rcu_torture_stall, NULL);
}
