/* SPDX-License-Identifier: MIT */
/*
 * barrier.c - rcu_barrier(): wait for every callback queued before it.
 *
 * For each slot holding callbacks (counting ones being invoked right now),
 * a barrier callback is entrained behind all of them, in the last
 * non-empty segment, so it needs no grace period of its own.  Callbacks of
 * one slot run in order on the one callback thread, so when all barrier
 * callbacks have run, everything queued before them has too.  The count
 * starts at 1 (a guard) so that it cannot reach zero while still being
 * entrained.  barrier_lock keeps callback migration (unregistration) out
 * while entraining, so no callback is in neither list when its slot is
 * looked at (and keeps fork() from seeing half a pass).  Concurrent
 * callers share passes through ->barrier_seq: one that finds a full pass
 * has started and ended since it arrived returns.
 * Lazy callbacks are flushed (their grace periods requested at once), and
 * every invoker woken: the flavor's callback thread and, for offloaded
 * slots, their rcuo threads.
 */
#include "internal.h"

static void barrier_put(struct lrcu_state *rsp)
{
	/* Fully ordered; its release pairs with the waiter's acquire load
	 * of the count: the callbacks before this one happen before
	 * rcu_barrier() returns. */
	if (atomic_dec_return(&rsp->barrier_cpu_count) == 0) {
		pthread_mutex_lock(&rsp->barrier_done_lock);
		pthread_cond_broadcast(&rsp->barrier_done);
		pthread_mutex_unlock(&rsp->barrier_done_lock);
	}
}

static void barrier_callback(struct rcu_head *h)
{
	struct lrcu_data *rdp = container_of(h, struct lrcu_data, barrier_head);

	barrier_put(rdp->rsp);
}

#ifdef LRCU_INJECT
/* barrier_early: the last slot (in walk order) that has callbacks. */
static struct lrcu_data *inject_last_busy(struct lrcu_state *rsp)
{
	struct lrcu_data *rdp, *last = NULL;
	int hwm;

	lrcu_for_each_used_rdp(rsp, rdp, hwm) {
		pthread_mutex_lock(&rdp->cblock);
		if (rdp->cbl.len)
			last = rdp;
		pthread_mutex_unlock(&rdp->cblock);
	}
	return last;
}
#endif

/*
 * Start a pass: entrain a barrier callback behind every slot's callbacks.
 * The pass starts, the guard is set, the slots are done and the guard is
 * dropped all under barrier_lock, which fork() takes: a fork child finds
 * no pass, or a whole one whose count is exactly its barrier callbacks
 * not yet run (see lrcu_barrier()).
 */
static bool barrier_entrain_all(struct lrcu_state *rsp)
{
	struct lrcu_data *rdp, *skip = NULL;
	bool any = false;
	int hwm;

	pthread_mutex_lock(&rsp->barrier_lock);
	rcu_seq_start(&rsp->barrier_seq);
	/* The guard; barrier_mutex orders it against the last pass. */
	WRITE_ONCE(rsp->barrier_cpu_count, 1);
#ifdef LRCU_INJECT
	if (LRCU_INJECTED(LRCU_BUG_BARRIER_EARLY))
		skip = inject_last_busy(rsp);	/* INJECTED: not waited for */
#endif
	lrcu_for_each_used_rdp(rsp, rdp, hwm) {
		if (rdp == skip)
			continue;
		pthread_mutex_lock(&rdp->cblock);
		rdp->barrier_head.func = barrier_callback;
		if (lrcu__cblist_entrain(&rdp->cbl, &rdp->barrier_head)) {
			/* The guard keeps it above 0; cblock orders the rest. */
			atomic_inc(&rsp->barrier_cpu_count);
			any = true;
		}
		pthread_mutex_unlock(&rdp->cblock);
	}
	if (any)
		barrier_put(rsp);	/* drop the guard */
	else	/* nobody waits on barrier_done: no broadcast */
		WRITE_ONCE(rsp->barrier_cpu_count, 0);	/* barrier_mutex orders it */
	pthread_mutex_unlock(&rsp->barrier_lock);
	return any;
}

/* Wait until the pass's barrier callbacks have all run. */
static void barrier_wait(struct lrcu_state *rsp)
{
	pthread_mutex_lock(&rsp->barrier_done_lock);
	while (smp_load_acquire(&rsp->barrier_cpu_count))	/* see barrier_put() */
		pthread_cond_wait(&rsp->barrier_done, &rsp->barrier_done_lock);
	pthread_mutex_unlock(&rsp->barrier_done_lock);
}

void lrcu_barrier(enum lrcu_flavor f, const char *caller)
{
	struct lrcu_state *rsp = &lrcu__states[f];
	unsigned long s;
	bool was;

	lrcu__update_begin(f, caller, &was);
	s = rcu_seq_snap(&rsp->barrier_seq);
	pthread_mutex_lock(&rsp->barrier_mutex);
	if (unlikely(rcu_seq_state(rsp->barrier_seq))) {
		/* A pass whose caller is gone (a fork() child): its barrier
		 * callbacks are still queued; let them run, then end it. */
		barrier_wait(rsp);
		rcu_seq_end(&rsp->barrier_seq);
	}
	if (rcu_seq_done(&rsp->barrier_seq, s)) {
		/* Someone else's pass covered us. */
		pthread_mutex_unlock(&rsp->barrier_mutex);
		lrcu__update_end(was);
		return;
	}
	/*
	 * A slot's count covers its callbacks being invoked right now and
	 * lazy and offloaded ones too, and cblock (taken for each slot)
	 * orders an invocation that finished before the slot's count reached
	 * zero before this call: when no slot had any, there is nothing to
	 * flush, wake or wait for.
	 */
	if (barrier_entrain_all(rsp)) {
		lrcu__lazy_flush_all(rsp);	/* no waiting for lazy timers */
		lrcu__cb_wake(rsp);	/* some may have landed in DONE */
		lrcu__nocb_kick_all(rsp);	/* ditto, and rcuog: wait for the flushed */
		barrier_wait(rsp);
	}
	rcu_seq_end(&rsp->barrier_seq);
	atomic_inc(&rsp->n_barriers);	/* statistic */
	pthread_mutex_unlock(&rsp->barrier_mutex);
	lrcu__update_end(was);
}
