/* SPDX-License-Identifier: MIT */
/*
 * shuffle.c - the shuffler (the kernel's torture_shuffle()): every
 * shuffle_interval seconds, exclude the next processor from every torture
 * thread's affinity mask (round robin, with one step where none is
 * excluded), so threads migrate and each processor idles in turn.  The
 * processors are those this process may use when it starts (a taskset
 * from bin/torture.sh's --cpus is kept).  Enabled by test_no_idle_hz and
 * shuffle_interval > 0, with 2+ such processors.
 */
#include <sched.h>
#include <unistd.h>
#include "torture.h"

static cpu_set_t allowed;	/* set before the thread starts */

static void set_affinity(pthread_t t, void *arg)
{
	pthread_setaffinity_np(t, sizeof(cpu_set_t), arg);	/* ESRCH after exit: harmless */
}

/* The allowed processor after cpu, in turn; -1 after the last one (the
 * step where none is excluded). */
static int next_allowed(int cpu)
{
	int c;

	for (c = cpu + 1; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			return c;
	return -1;
}

static void *torture_shuffle(void *arg)
{
	int idle = next_allowed(-1);
	cpu_set_t set;

	(void)arg;
	torverbose(" torture_shuffle task started");
	while (!torture_must_stop()) {
		torture_sleep_us((unsigned long)tp.shuffle_interval * 1000000);
		if (torture_must_stop())
			break;
		set = allowed;
		if (idle >= 0)
			CPU_CLR(idle, &set);
		torture_for_each_thread(set_affinity, &set);
		idle = next_allowed(idle);
	}
	return NULL;
}

int shuffle_start(void)
{
	if (!tp.test_no_idle_hz || tp.shuffle_interval <= 0 ||
	    sched_getaffinity(0, sizeof(allowed), &allowed) || CPU_COUNT(&allowed) < 2)
		return 0;
	return torture_spawn("torture_shuffle", torture_shuffle, NULL);
}
