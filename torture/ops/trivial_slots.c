/* SPDX-License-Identifier: MIT */
/*
 * trivial_slots.c - the registration list of the toy RCUs (see
 * trivial_slots.h): a thread takes a free slot when it registers and
 * leaves it, counter 0, when it unregisters, so that a grace period may
 * scan every slot without knowing which are in use.
 */
#include "trivial_slots.h"

struct trivial_slot trivial_slot[TRIVIAL_SLOTS];
__thread int trivial_my_slot = -1;
static unsigned long trivial_gps;	/* completed synchronize() calls */

int trivial_register(void)
{
	int i, expect;

	for (i = 0; i < TRIVIAL_SLOTS; i++) {
		expect = 0;
		/* Fully ordered: its acquire pairs with trivial_unregister()'s
		 * release. */
		if (try_cmpxchg(&trivial_slot[i].used, &expect, 1)) {
			trivial_my_slot = i;
			return 0;
		}
	}
	return -1;
}

void trivial_unregister(void)
{
	struct trivial_slot *s = &trivial_slot[trivial_my_slot];

	/* Outside any section, so 0 means "no reader here" to every type
	 * (a slot left by another type's run in this process included). */
	WRITE_ONCE(s->ctr, 0);
	/* Release: our last section and the reset are over before the slot
	 * can be reused; pairs with trivial_register()'s acquire. */
	smp_store_release(&s->used, 0);
	trivial_my_slot = -1;
}

void trivial_gp_done(void)
{
	atomic_inc(&trivial_gps);	/* a statistic */
}

/* Completed synchronize() calls, for stats only: concurrent callers make
 * it a poor Reader Batch clock, so the types leave get_gp_seq NULL (the
 * core then uses the writer's own grace-period count). */
unsigned long trivial_gps_completed(void)
{
	return READ_ONCE(trivial_gps);	/* a statistic */
}
