/* SPDX-License-Identifier: MIT */
/*
 * shuffle.c - the shuffler (the kernel's torture_shuffle()): every
 * shuffle_interval seconds, exclude the next real processor from every
 * torture thread's affinity mask (round robin, with one step where none is
 * excluded), so threads migrate and each processor idles in turn.
 * Enabled by test_no_idle_hz and shuffle_interval > 0, with 2+ processors.
 */
#include <sched.h>
#include <unistd.h>
#include "torture.h"

static void set_affinity(pthread_t t, void *arg)
{
	pthread_setaffinity_np(t, sizeof(cpu_set_t), arg);	/* ESRCH after exit: harmless */
}

static void *torture_shuffle(void *arg)
{
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN), idle = 0, c;
	cpu_set_t set;

	(void)arg;
	torverbose(" torture_shuffle task started");
	while (!torture_must_stop()) {
		torture_sleep_us((unsigned long)tp.shuffle_interval * 1000000);
		if (torture_must_stop())
			break;
		CPU_ZERO(&set);
		for (c = 0; c < ncpus; c++)
			if (c != idle)
				CPU_SET(c, &set);
		torture_for_each_thread(set_affinity, &set);
		idle = (idle + 1) % (ncpus + 1);	/* == ncpus: none excluded */
	}
	return NULL;
}

int shuffle_start(void)
{
	if (!tp.test_no_idle_hz || tp.shuffle_interval <= 0 || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return 0;
	return torture_spawn("torture_shuffle", torture_shuffle, NULL);
}
