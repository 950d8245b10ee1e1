/* SPDX-License-Identifier: MIT */
/*
 * trivial_slots.h - what the self-contained toy RCUs (ops_trivial.c,
 * ops_trivial_preempt.c) share: the registration list of reader threads,
 * one slot each with a counter that its owner writes and grace periods
 * read, the dereference and the grace-period statistic.  What the
 * counter means is each type's own: the slots only promise that a free
 * slot's counter is 0.
 */
#ifndef TORTURE_OPS_TRIVIAL_SLOTS_H
#define TORTURE_OPS_TRIVIAL_SLOTS_H

#include <torture/atomic.h>

#define TRIVIAL_SLOTS	1024

struct trivial_slot {
	unsigned long ctr;	/* the type's read-side counter: the owner
				 * stores, grace periods load; 0 when free */
	int used;		/* slot taken; CAS */
} __attribute__((aligned(64)));

#pragma GCC visibility push(hidden)
extern struct trivial_slot trivial_slot[TRIVIAL_SLOTS];
extern __thread int trivial_my_slot;	/* the calling thread's slot, or -1 */

int trivial_register(void);
void trivial_unregister(void);
void trivial_gp_done(void);
unsigned long trivial_gps_completed(void);
#pragma GCC visibility pop

/* The calling thread's counter (registered threads only). */
static inline unsigned long *trivial_my_ctr(void)
{
	return &trivial_slot[trivial_my_slot].ctr;
}

/* Inline: the read_section loops of both types inline it. */
static inline void *trivial_dereference(void *const *pp)
{
	return smp_load_acquire(pp);	/* pairs with the publisher */
}

#endif
