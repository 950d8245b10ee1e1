/* SPDX-License-Identifier: MIT */
/*
 * callbacks.c - call_rcu(), kfree_rcu() and callback invocation.
 *
 * call_rcu() queues on the caller's slot (rdp->cbl, under rdp->cblock):
 * it advances the list to the current gp_seq, tags the new callback with
 * rcu_seq_snap() (the end of the first grace period that is full from
 * now) and asks for that grace period.  Unregistered callers share the
 * unbound rdp (index nr_slots, in no leaf).
 *
 * Each flavor's callback thread ("rcu_cb_preempt", "rcu_cb_sched") is the
 * only invoker (so callbacks of one slot run one at a time, in order).  It
 * is woken at the end of every grace period, walks the slots with
 * callbacks, advances each list and runs at most rcutree.blimit ready
 * callbacks per slot per pass, so one slot's flood does not starve the
 * others.  A slot holding more than rcutree.qhimark callbacks has its
 * limit lifted until it drops below rcutree.qlowmark.  The thread is
 * registered (callbacks may use rcu_read_lock()) and is offline for
 * rcu_sched while it sleeps.
 */
#include <stdint.h>
#include <stdlib.h>
#include "internal.h"

struct lrcu_data *lrcu_this_rdp(struct lrcu_state *rsp)
{
	int slot = lrcu_reader.slot;

	return &rsp->rda[slot >= 0 ? slot : lrcu_nr_slots];
}

static void cblist_set_len_locked(struct lrcu_data *rdp, long len)
{
	WRITE_ONCE(rdp->cbl.len, len);	/* read unlocked by the invoker */
}

void lrcu_call(enum lrcu_flavor f, struct rcu_head *head, rcu_callback_t func)
{
	struct lrcu_state *rsp = &lrcu_states[f];
	struct lrcu_data *rdp;
	unsigned long snap;
	bool flood = false;

	lrcu_init_once();
	/* Parameters may change at run time (WRITE_ONCE() in params.c). */
	if (READ_ONCE(lrcu_params.debug_objects) && !lrcu_debug_head_queue(head))
		return;		/* double call_rcu(): reported and dropped */
	head->func = func;
	rdp = lrcu_this_rdp(rsp);
	pthread_mutex_lock(&rdp->cblock);
	lrcu_cblist_enqueue(&rdp->cbl, head);
	/* Full fence inside: the caller's removals before the sample. */
	snap = rcu_seq_snap(rsp->gp_seq);
	if (LRCU_INJECTED(LRCU_BUG_CB_STALE_SNAP))	/* INJECTED: a GP too early */
		snap -= RCU_SEQ_STATE_MASK + 1;
	lrcu_cblist_advance_accelerate(&rdp->cbl, rcu_seq_current(rsp->gp_seq), snap);
	rdp->n_cbs_queued++;
	if (rdp->cbl.len > READ_ONCE(lrcu_params.qhimark) && !rdp->blimit_lifted) {
		rdp->blimit_lifted = true;
		flood = true;
	}
	pthread_mutex_unlock(&rdp->cblock);
	lrcu_gp_request(rsp, snap);
	if (flood)
		lrcu_force_qs(f);	/* a flood: push the grace period along */
}

void lrcu_kfree_call(struct rcu_head *head, size_t offset)
{
	if (offset >= 4096)
		lrcu_fatal("kfree_rcu(): rcu_head at offset %zu, must be below 4096", offset);
	lrcu_call(LRCU_PREEMPT, head, (rcu_callback_t)(uintptr_t)offset);
}

void lrcu_cb_wake(struct lrcu_state *rsp)
{
	lrcu_wake(&rsp->cb_wake);
}

/*
 * End of a grace period: wake the callback thread if any slot holds
 * callbacks.  ->len is read without the lock; a callback queued after we
 * looked was tagged for a later grace period, whose end will look again.
 */
void lrcu_cb_gp_ended(struct lrcu_state *rsp)
{
	struct lrcu_data *rdp;
	int hwm;

	lrcu_for_each_used_rdp(rsp, rdp, hwm) {
		if (READ_ONCE(rdp->cbl.len)) {	/* WRITE_ONCE under cblock */
			lrcu_cb_wake(rsp);
			return;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Invocation */

static void invoke_one(struct rcu_head *h)
{
	rcu_callback_t fn = h->func;

	if (READ_ONCE(lrcu_params.debug_objects))
		lrcu_debug_head_unqueue(h);
	if ((uintptr_t)fn < 4096)
		free((char *)h - (uintptr_t)fn);	/* kfree_rcu() */
	else
		fn(h);
}

/* Statistics: relaxed, single writer (this thread), no ordering needed. */
static void stat_max(unsigned long *p, unsigned long v)
{
	if (v > __atomic_load_n(p, __ATOMIC_RELAXED))
		__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/*
 * Account for callbacks that have run: they stop counting in ->len (which
 * rcu_barrier() uses to decide whether a slot has anything in flight).
 * Returns true if the slot still has ready callbacks.
 */
static bool cbs_account(struct lrcu_data *rdp, long ran, long invoked)
{
	bool more;

	pthread_mutex_lock(&rdp->cblock);
	cblist_set_len_locked(rdp, rdp->cbl.len - ran);
	rdp->n_cbs_invoked += (unsigned long)invoked;
	if (rdp->blimit_lifted && rdp->cbl.len < READ_ONCE(lrcu_params.qlowmark))
		rdp->blimit_lifted = false;
	more = lrcu_cblist_ready(&rdp->cbl);
	pthread_mutex_unlock(&rdp->cblock);
	return more;
}

/* One batch from one slot.  Returns true if it still has ready callbacks. */
static bool invoke_batch(struct lrcu_state *rsp, struct lrcu_data *rdp, unsigned long cur)
{
	struct lrcu_cbs cbs;
	struct rcu_head *h, *next;
	long limit, pending = 0;
	bool more;

	pthread_mutex_lock(&rdp->cblock);
	lrcu_cblist_advance(&rdp->cbl, cur);
	limit = rdp->blimit_lifted ? LONG_MAX : READ_ONCE(lrcu_params.blimit);
	lrcu_cblist_extract_done(&rdp->cbl, limit, &cbs);
	pthread_mutex_unlock(&rdp->cblock);
	if (!cbs.len)
		return false;
	/* Before invoking: a barrier callback in this batch may let
	 * rcu_barrier() return, and its caller read these statistics. */
	__atomic_fetch_add(&rsp->n_cb_batches, 1, __ATOMIC_RELAXED);	/* statistic */
	stat_max(&rsp->cb_max_batch, (unsigned long)cbs.len);

	lrcu_reader.flags |= LRCU_R_IN_CALLBACK;
	for (h = cbs.head; h; h = next) {
		next = h->next;
		if (h == &rdp->barrier_head) {
			/*
			 * Settle the accounts before rcu_barrier() can return,
			 * so its caller sees exact statistics; the barrier
			 * callback itself is not a user callback.
			 */
			cbs_account(rdp, pending + 1, pending);
			pending = 0;
			invoke_one(h);
			continue;
		}
		invoke_one(h);
		pending++;
	}
	lrcu_reader.flags &= ~LRCU_R_IN_CALLBACK;
	more = cbs_account(rdp, pending, pending);
	/* A callback may have used rcu_read_lock_sched(): announce a QS. */
	if (lrcu_reader.flags & LRCU_R_SCHED_JOINED)
		rcu_quiescent_state();
	return more;
}

static bool invoke_pass(struct lrcu_state *rsp)
{
	unsigned long cur = rcu_seq_current(rsp->gp_seq);
	struct lrcu_data *rdp;
	bool more = false;
	int hwm;

	lrcu_for_each_used_rdp(rsp, rdp, hwm) {
		if (!READ_ONCE(rdp->cbl.len))	/* WRITE_ONCE() under cblock */
			continue;
		more |= invoke_batch(rsp, rdp, cur);
	}
	return more;
}

static void *cb_kthread(void *arg)
{
	struct lrcu_state *rsp = arg;
	bool was, stop;
	uint32_t w;

	if (lrcu_register_internal(rsp->cb_thread_name))
		lrcu_fatal("%s: cannot register", rsp->cb_thread_name);
	while (!lrcu_kthread_check()) {
		/* Sample before looking for work: see lrcu_wake(). */
		w = __atomic_load_n(&rsp->cb_wake, __ATOMIC_ACQUIRE);
		if (invoke_pass(rsp))
			continue;
		lrcu_sched_block_begin(&was);
		stop = lrcu_kthread_idle(&rsp->cb_wake, w, -1);
		lrcu_sched_block_end(was);
		if (stop)
			break;
	}
	lrcu_unregister_thread();	/* rcu_shutdown(): nothing left to move */
	return NULL;
}

int lrcu_cb_thread_start(struct lrcu_state *rsp)
{
	return lrcu_spawn(cb_kthread, rsp);
}

/* ------------------------------------------------------------------ */
/* Migration: an unregistering slot hands its callbacks to the unbound rdp. */

void lrcu_migrate_callbacks(struct lrcu_state *rsp, struct lrcu_data *rdp)
{
	struct lrcu_data *dst = &rsp->rda[lrcu_nr_slots];
	struct lrcu_cbs done, pend;
	unsigned long snap;

	/* barrier_lock: rcu_barrier() must not see these callbacks in
	 * neither list (lock order: barrier_lock, then one cblock). */
	pthread_mutex_lock(&rsp->barrier_lock);
	pthread_mutex_lock(&rdp->cblock);
	lrcu_cblist_extract_all(&rdp->cbl, &done, &pend);
	rdp->blimit_lifted = false;
	pthread_mutex_unlock(&rdp->cblock);
	if (!done.len && !pend.len) {
		pthread_mutex_unlock(&rsp->barrier_lock);
		return;
	}
	pthread_mutex_lock(&dst->cblock);
	lrcu_cblist_insert(&dst->cbl, LRCU_DONE, &done);
	lrcu_cblist_insert(&dst->cbl, LRCU_NEXT, &pend);
	snap = rcu_seq_snap(rsp->gp_seq);
	lrcu_cblist_advance_accelerate(&dst->cbl, rcu_seq_current(rsp->gp_seq), snap);
	dst->n_cbs_orphaned += (unsigned long)(done.len + pend.len);
	pthread_mutex_unlock(&dst->cblock);
	pthread_mutex_unlock(&rsp->barrier_lock);
	lrcu_gp_request(rsp, snap);
	if (done.len)
		lrcu_cb_wake(rsp);
}
