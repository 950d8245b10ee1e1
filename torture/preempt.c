/* SPDX-License-Identifier: MIT */
/*
 * preempt.c - reader preemption (rcutorture.preempt_duration and
 * preempt_interval, the kernel's rcu_torture_preempt()): every
 * preempt_interval ms (plus up to 100 us) a thread moves to the next
 * processor this process may use, becomes SCHED_FIFO at priority 50 (the
 * kernel's sched_set_fifo(): above the RCU threads and any boost) and
 * keeps that processor for preempt_duration ms, so whatever ran there --
 * a reader inside its section, a grace-period driver -- is preempted for
 * that long.  Each episode is counted (preemptions).  Needs SCHED_FIFO
 * (CAP_SYS_NICE): without, the run is not made (preempt_refuse(): a skip
 * finding, the scenario SKIPPED naming why).
 */
#include <sched.h>
#include "torture.h"

#define PREEMPT_PRIO	50	/* the kernel's MAX_RT_PRIO / 2 */

static cpu_set_t preempt_cpus;	/* where we may run (set before the thread) */

static bool set_policy(int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return !pthread_setschedparam(pthread_self(), policy, &sp);
}

/* The next processor after cpu (in turn), pinned there; -1 if none. */
static int move_next(int cpu)
{
	cpu_set_t one;
	int i, c;

	for (i = 1; i <= CPU_SETSIZE; i++) {
		c = (cpu + i) % CPU_SETSIZE;
		if (!CPU_ISSET(c, &preempt_cpus))
			continue;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		return pthread_setaffinity_np(pthread_self(), sizeof(one), &one) ? -1 : c;
	}
	return -1;
}

static void *rcu_torture_preempt(void *arg)
{
	struct torture_random rng;
	int cpu = -1, c;

	(void)arg;
	torture_random_init(&rng, 0x9e37);
	torverbose(" rcu_torture_preempt task started");
	/* The kernel waits stall_cpu_holdoff jiffies first. */
	torture_sleep_us((unsigned long)tp.stall_cpu_holdoff * (1000000 / TORTURE_HZ));
	while (!torture_must_stop()) {
		torture_hrtimeout_us((unsigned long)tp.preempt_interval * 1000, 100, &rng);
		if (torture_must_stop())
			break;
		c = move_next(cpu);
		if (c < 0)
			continue;	/* try again later */
		cpu = c;
		if (!set_policy(SCHED_FIFO, PREEMPT_PRIO))
			break;	/* boost_obstacle()-like check at start said we may */
		/* Back to all of them: we keep this one while we spin. */
		pthread_setaffinity_np(pthread_self(), sizeof(preempt_cpus), &preempt_cpus);
		torture_spin_us((unsigned long)tp.preempt_duration * 1000);
		STAT_INC(tc.preemptions);
		set_policy(SCHED_OTHER, 0);
		stutter_wait("rcu_torture_preempt");
	}
	set_policy(SCHED_OTHER, 0);
	return NULL;
}

void preempt_refuse(void)
{
	if (tp.preempt_duration > 0 && !torture_may_rt(PREEMPT_PRIO))
		params_skip("preempt_duration", "preempting readers takes SCHED_FIFO, refused here "
			    "(CAP_SYS_NICE: run as root)");
}

int preempt_start(void)
{
	if (tp.preempt_duration <= 0)
		return 0;
	if (sched_getaffinity(0, sizeof(preempt_cpus), &preempt_cpus))
		return -1;
	return torture_spawn_bound("rcu_torture_pre", rcu_torture_preempt, NULL);
}
