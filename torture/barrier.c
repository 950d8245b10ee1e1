/* SPDX-License-Identifier: MIT */
/*
 * barrier.c - the callback-barrier test (rcu_torture_barrier): each
 * round, n_barrier_cbs threads (each on its own registered "CPU") post one
 * callback apiece; once all have posted, the coordinator calls
 * cb_barrier() and checks that every callback was invoked.  A callback
 * that runs after the barrier for its round returned is also an error.
 * Errors: rtbe.  Stats: barrier: successes/attempts:errors.
 */
#include <stdlib.h>
#include "torture.h"

struct barrier_cb {
	struct torture_cb cb;		/* first member */
	unsigned long round;
};

static unsigned long barrier_round;	/* current round; atomic */
static unsigned long barrier_done;	/* last round whose barrier returned; atomic */
static unsigned long barrier_posted;	/* callbacks posted this round; atomic */
static unsigned long barrier_invoked;	/* ... and invoked; atomic */

static void barrier_error(const char *what, unsigned long a, unsigned long b)
{
	if (STAT_INC(tc.rtbe) == 0)
		torout(" rcu_torture_barrier: %s (%lu vs %lu)", what, a, b);
}

static void barrier_cbf(struct torture_cb *cb)
{
	struct barrier_cb *b = (struct barrier_cb *)(void *)cb;

	/* Acquire pairs with the coordinator's release of barrier_done. */
	if (b->round <= smp_load_acquire(&barrier_done))
		barrier_error("callback invoked after its barrier returned", b->round,
			      READ_ONCE(barrier_done));	/* message only */
	else
		STAT_INC(barrier_invoked);
	free(b);
}

static void *rcu_torture_barrier_cbs(void *arg)
{
	unsigned long last = 0, r;

	(void)arg;
	/* Callbacks from many "CPUs" when there are slots for them. */
	torture_updater_start(UPD_SHARED_SLOT, "rcu_torture_barrier_cbs", "posting unregistered");
	torverbose(" rcu_torture_barrier_cbs task started");
	while (!torture_must_stop()) {
		struct barrier_cb *b;

		/* Acquire pairs with the coordinator's release of the round. */
		r = smp_load_acquire(&barrier_round);
		if (r == last) {
			torture_idle_sleep_us(1000);
			continue;
		}
		last = r;
		b = malloc(sizeof(*b));
		if (!b)
			break;
		b->round = r;
		torture_call(&b->cb, barrier_cbf);
		/* Release: the call() happens before the coordinator sees it. */
		atomic_fetch_add_release(1, &barrier_posted);
	}
	torture_updater_stop();
	return NULL;
}

static bool wait_posted(void)
{
	/* Acquire pairs with the release increments above. */
	while (smp_load_acquire(&barrier_posted) < (unsigned long)tp.n_barrier_cbs)
		if (torture_must_stop())
			return false;
		else
			torture_sleep_us(1000);
	return true;
}

static void *rcu_torture_barrier(void *arg)
{
	struct torture_random rng;
	unsigned long r, start, got;

	(void)arg;
	torture_random_init(&rng, 0x6000);
	torture_updater_start(UPD_NO_SLOT, "rcu_torture_barrier", "");
	torverbose(" rcu_torture_barrier task started");
	for (r = 1; !torture_must_stop(); r++) {
		/* Relaxed: published by the release store of the round below. */
		WRITE_ONCE(barrier_posted, 0);
		WRITE_ONCE(barrier_invoked, 0);
		/* Release: the resets above before the cbs threads see the round. */
		smp_store_release(&barrier_round, r);
		if (!wait_posted())
			break;
		STAT_INC(tc.barrier_attempts);
		start = torture_now_us();
		cur_ops->cb_barrier();
		torture_record_gp("barrier", start);
		/* Release pairs with the late-callback check in barrier_cbf(). */
		smp_store_release(&barrier_done, r);
		/* The barrier ordered the callbacks' increments before us;
		 * acquire for good measure against a broken barrier. */
		got = smp_load_acquire(&barrier_invoked);
		if (got != (unsigned long)tp.n_barrier_cbs)
			barrier_error("barrier_cbs_invoked != n_barrier_cbs", got,
				      (unsigned long)tp.n_barrier_cbs);
		else
			STAT_INC(tc.barrier_ok);
		torture_hrtimeout_us(100000, 10000, &rng);
		stutter_wait("rcu_torture_barrier");
	}
	torture_updater_stop();
	return NULL;
}

int barrier_start(void)
{
	long i;

	if (tp.n_barrier_cbs <= 0)
		return 0;
	if (!cur_ops->call || !cur_ops->cb_barrier) {
		torout(" n_barrier_cbs ignored: %s has no call()/cb_barrier()", cur_ops->name);
		return 0;
	}
	for (i = 0; i < tp.n_barrier_cbs; i++)
		if (torture_spawn("rcu_torture_bar", rcu_torture_barrier_cbs, NULL))
			return -1;
	return torture_spawn("rcu_torture_bar", rcu_torture_barrier, NULL);
}
