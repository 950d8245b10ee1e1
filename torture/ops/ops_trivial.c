/* SPDX-License-Identifier: MIT */
/*
 * ops_trivial.c - "trivial": a toy but correct RCU, self-contained (the
 * kernel's trivial type, whose grace period is "run once on every CPU").
 *
 * Each registered thread owns a slot (trivial_slots.h) with a counter
 * that is odd while the thread is inside a read-side critical section.
 * synchronize() snapshots every slot and waits until each odd counter has
 * changed: every reader that was running has finished.  No callbacks: the writer uses
 * synchronize() only.  Readers nest (thread-local depth); they are not
 * async-signal-safe (depth and counter are two stores), so no irqreader.
 */
#include <sched.h>
#include <torture/ops.h>
#include "builtin.h"
#include "trivial_slots.h"

static __thread int depth;

static int trivial_lock(void)
{
	if (depth++ == 0) {
		unsigned long *c = trivial_my_ctr();

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
		unsigned long *c = trivial_my_ctr();

		/* Release: the section's loads before the even value; pairs
		 * with the acquire load in trivial_sync(). */
		smp_store_release(c, *c + 1);
	}
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
		snap[i] = smp_load_mb(&trivial_slot[i].ctr);	/* trivial_lock() */
	for (i = 0; i < TRIVIAL_SLOTS; i++)
		while ((snap[i] & 1) &&
		       /* Acquire pairs with trivial_unlock()'s release. */
		       smp_load_acquire(&trivial_slot[i].ctr) == snap[i])
			sched_yield();
	trivial_gp_done();
}

const struct torture_ops trivial_ops = {
	TORTURE_OPS_HEAD,
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
