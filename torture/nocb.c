/* SPDX-License-Identifier: MIT */
/*
 * nocb.c - rcu_nocb_toggle: nocbs_nthreads threads, each switching a
 * random online "CPU" (one a torture thread is registered as) between
 * offloaded callbacks and not (ops->nocb_toggle())
 * every nocbs_toggle ms (plus up to 1/8 of that at random), as the
 * kernel's, while the writers, fakewriters, barrier and forward-progress
 * threads queue callbacks: a switch that loses, repeats or hurries one
 * shows as a leak, a Reader Pipe/oracle error or a barrier hang.
 * Stats: "nocb-toggles: offloads:deoffloads", the switches the RCU
 * accepted (the kernel counts attempts); a refused one is noted once.
 */
#include <errno.h>
#include <string.h>
#include "torture.h"

static int refused_noted;

static void *rcu_nocb_toggle(void *arg)
{
	unsigned long delay = (unsigned long)tp.nocbs_toggle * 1000;
	struct torture_random rng;
	int cpu, offload, rc;

	torture_random_init(&rng, 0x6000 + (unsigned long)arg);
	torverbose(" rcu_nocb_toggle task started");
	while (!torture_must_stop()) {
		torture_hrtimeout_us(delay, delay / 8, &rng);
		if (torture_must_stop())
			break;
		cpu = torture_random_online_cpu(&rng);
		offload = !(torture_random(&rng) & 0x800);
		rc = cur_ops->nocb_toggle(cpu, offload);
		if (!rc)
			STAT_INC(*(offload ? &tc.nocb_offload : &tc.nocb_deoffload));
		else if (!xchg_relaxed(&refused_noted, 1))	/* once */
			torout(" rcu_nocb_toggle: %s refused to %soffload CPU %d: %s "
			       "(callback offloading off? rcu_nocbs= not given?)", cur_ops->name,
			       offload ? "" : "de-", cpu, strerror(-rc));
	}
	return NULL;
}

int nocb_toggle_start(void)
{
	long i;

	for (i = 0; i < tp.nocbs_nthreads; i++)
		if (torture_spawn("rcu_nocb_toggle", rcu_nocb_toggle, (void *)i))
			return -1;
	return 0;
}
