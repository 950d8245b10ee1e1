/* SPDX-License-Identifier: MIT */
/*
 * may_rt.c - may this process's threads run SCHED_FIFO?  Shared by
 * rcutorture (boost, preemption, Tiny RCU) and the perf programs (Tiny
 * RCU), which link it without the rest of the torture core.
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>

bool torture_may_rt(int prio);

/*
 * Tried on the calling thread at priority prio, then undone: a capability
 * or rlimit check would miss the refusals that come from elsewhere (a
 * cgroup without real-time bandwidth, a seccomp filter).
 */
bool torture_may_rt(int prio)
{
	struct sched_param old, sp = { .sched_priority = prio };
	int policy;

	if (pthread_getschedparam(pthread_self(), &policy, &old) ||
	    pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		return false;
	pthread_setschedparam(pthread_self(), policy, &old);
	return true;
}
