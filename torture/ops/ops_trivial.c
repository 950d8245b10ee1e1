/* SPDX-License-Identifier: MIT */
/*
 * ops_trivial.c - "trivial": a toy but correct RCU, self-contained (the
 * kernel's trivial type, whose grace period is "run once on every CPU").
 *
 * Each registered thread owns a slot with a counter that is odd while the
 * thread is inside a read-side critical section.  synchronize() snapshots
 * every slot and waits until each odd counter has changed: every reader
 * that was running has finished.  No callbacks: the writer uses
 * synchronize() only.  Readers nest (thread-local depth); they are not
 * async-signal-safe (depth and counter are two stores), so no irqreader.
 */
#include <sched.h>
#include <stdbool.h>
#include <torture/ops.h>
#include "builtin.h"

#define TRIVIAL_SLOTS	1024

static struct {
	unsigned long ctr;	/* odd: in a section; owner stores, syncers load */
	int used;		/* slot taken; CAS */
} __attribute__((aligned(64))) slot[TRIVIAL_SLOTS];

static __thread int my_slot = -1;
static __thread int depth;
static unsigned long trivial_gps;	/* completed synchronize() calls */

static int trivial_register(void)
{
	int i, expect;

	for (i = 0; i < TRIVIAL_SLOTS; i++) {
		expect = 0;
		/* Fully ordered: its acquire pairs with trivial_unregister()'s
		 * release. */
		if (try_cmpxchg(&slot[i].used, &expect, 1)) {
			my_slot = i;
			return 0;
		}
	}
	return -1;
}

static void trivial_unregister(void)
{
	/* Release: our last section is over before the slot can be reused. */
	smp_store_release(&slot[my_slot].used, 0);
	my_slot = -1;
}

static int trivial_lock(void)
{
	if (depth++ == 0) {
		unsigned long *c = &slot[my_slot].ctr;

		/*
		 * The odd value before the section's loads: a seq_cst
		 * read-modify-write (a full barrier) pairs with the seq_cst
		 * fence-RMW in trivial_sync() before it loads the counters.
		 */
		xchg(c, *c + 1);
	}
	return 0;
}

static void trivial_unlock(int idx)
{
	(void)idx;
	if (--depth == 0) {
		unsigned long *c = &slot[my_slot].ctr;

		/* Release: the section's loads before the even value; pairs
		 * with the acquire load in trivial_sync(). */
		smp_store_release(c, *c + 1);
	}
}

static void *trivial_dereference(void *const *pp)
{
	return smp_load_acquire(pp);	/* pairs with the publisher */
}

static TORTURE_READ_SECTION(trivial_read_section, trivial_lock, trivial_unlock,
			    trivial_dereference)

static void trivial_sync(void)
{
	unsigned long snap[TRIVIAL_SLOTS];
	unsigned long dummy = 0;
	int i;

	/* Full barrier: the caller's removal before the counter loads. */
	atomic_fetch_add(0, &dummy);
	for (i = 0; i < TRIVIAL_SLOTS; i++)
		snap[i] = smp_load_mb(&slot[i].ctr);	/* trivial_lock() */
	for (i = 0; i < TRIVIAL_SLOTS; i++)
		while ((snap[i] & 1) &&
		       /* Acquire pairs with trivial_unlock()'s release. */
		       smp_load_acquire(&slot[i].ctr) == snap[i])
			sched_yield();
	atomic_inc(&trivial_gps);	/* a statistic */
}

/* Completed synchronize() calls, for stats only: concurrent callers make
 * it a poor Reader Batch clock, so get_gp_seq stays NULL (the core then
 * uses the writer's own grace-period count). */
static unsigned long trivial_gps_completed(void)
{
	return READ_ONCE(trivial_gps);	/* a statistic */
}

const struct torture_ops trivial_ops = {
	.abi_version = TORTURE_OPS_ABI_VERSION,
	.size = sizeof(struct torture_ops),
	.name = "trivial",
	.thread_register = trivial_register,
	.thread_unregister = trivial_unregister,
	.readlock = trivial_lock,
	.readunlock = trivial_unlock,
	.dereference = trivial_dereference,
	.read_section = trivial_read_section,
	.gps_completed = trivial_gps_completed,
	.sync = trivial_sync,
};
