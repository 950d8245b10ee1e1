/* SPDX-License-Identifier: MIT */
/*
 * lazy.c - lazy callbacks: grace periods requested late, in batches.
 *
 * A lazy callback (kfree_rcu(); call_rcu() with rcutree.enable_rcu_lazy=1;
 * never call_rcu_hurry()) only frees memory, so nobody waits for it.  It
 * is queued and tagged as any other (so a grace period that ends anyway
 * carries it along), but its grace period is not requested until
 * rcutree.jiffies_lazy_flush (10 s, the kernel's CONFIG_RCU_LAZY value;
 * also named rcutree.rcu_idle_lazy_gp_delay) after the first lazy
 * callback of its slot arrived, or until qhimark of them wait, or until
 * rcu_barrier() flushes them.  An otherwise idle process that frees now
 * and then thus sees one grace period per delay instead of one per free,
 * and its library threads sleep.  A non-lazy callback queued on the slot
 * meanwhile asks for a grace period that covers the lazy ones.
 *
 * Per slot (under rdp->cblock): how many are deferred, since when, and the
 * grace period they need.  Whoever invokes the slot's callbacks keeps the
 * timer: the flavor's callback thread (callbacks.c) or the slot's rcuo
 * thread (tree_nocb.c).  rcutree.jiffies_lazy_flush=0 turns laziness off.
 *
 * What a batch costs, in wakeups of library threads (the point of it all):
 *
 *  - Its keeper drives the batch's grace period itself when it is due
 *    (lrcu__gp_try_drive(), as a synchronize_rcu() caller does) and then
 *    invokes the callbacks at once: one wakeup, its timer's, instead of
 *    four (timer; the GP kthread, to start the grace period; the keeper
 *    or the group's rcuog, at its end; the invoker).  If a reader holds
 *    the grace period up, or someone else drives one, it is left to the
 *    GP kthread as any request, and its end wakes the invoker as usual:
 *    the keeper never waits for a reader.
 *
 *  - A sleeping keeper learns of a slot's first deferral by being woken
 *    (lrcu__lazy_keeper_wake(): it must start a timer).  So that a steady
 *    trickle of frees does not pay that wakeup once per batch, a keeper
 *    that has just flushed a batch keeps a period going: it sleeps until
 *    one delay after the flush, and deferrals made meanwhile do not wake
 *    it; at the period's end it flushes whatever came (lazy callbacks
 *    may wait less than the delay, never more).  A period in which no
 *    lazy callback came ends the keeper's timer: it then sleeps until
 *    woken.  A trickle thus costs one wakeup per delay, and its end one
 *    more; a process with no lazy callbacks is never woken by a timer.
 *
 * The ->armed hint of a keeper says it will look at a new deferral
 * without being woken: it is cleared (with a fence) before each pass and
 * set after one that leaves the keeper sleeping on a timer that expires
 * no later than any new deferral would be due (a slot's own deadline, or
 * the period's end, both at most one delay from now).  A change of the
 * delay takes effect from the next deferral or period.
 */
#include "internal.h"

static void lazy_clear(struct lrcu_data *rdp)
{
	WRITE_LOCKED(&rdp->cblock, rdp->lazy_len, 0);
	WRITE_ONCE_LOCKED(&rdp->cblock, rdp->lazy_since_us, 0);	/* peeked at by invokers */
}

static long lazy_delay_us(void)
{
	return READ_ONCE(lrcu__params.lazy_gp_delay) * LRCU_JIFFY_US;	/* run-time parameter */
}

/*
 * A lazy callback was queued on rdp for grace period snap: may its request
 * wait?  LRCU_LAZY_NOW: request it now (laziness off, the limit reached,
 * or it is requested already); DEFERRED: later, a timer runs already;
 * ARMED: later, and this is the slot's first: its keeper may have to be
 * woken to time it (lrcu__lazy_keeper_wake()).
 */
enum lrcu_lazy lrcu__lazy_defer(struct lrcu_state *rsp, struct lrcu_data *rdp,
			       unsigned long snap, unsigned long now)
{
	/* Relaxed: seeing the request late only defers a no-op request. */
	unsigned long needed = READ_ONCE(rsp->gp_seq_needed);

	if (READ_ONCE(lrcu__params.lazy_gp_delay) <= 0 || ULONG_CMP_GE(needed, snap))
		return LRCU_LAZY_NOW;
	if (rdp->lazy_len >= READ_ONCE(lrcu__params.qhimark)) {
		lazy_clear(rdp);	/* a flood: no more batching */
		WRITE_LOCKED(&rdp->cblock, rdp->n_lazy_flushes, rdp->n_lazy_flushes + 1);
		return LRCU_LAZY_NOW;
	}
	WRITE_LOCKED(&rdp->cblock, rdp->lazy_len, rdp->lazy_len + 1);
	WRITE_LOCKED(&rdp->cblock, rdp->lazy_snap, snap);
	if (rdp->lazy_since_us)
		return LRCU_LAZY_DEFERRED;
	WRITE_ONCE_LOCKED(&rdp->cblock, rdp->lazy_since_us, now ? now : 1);	/* see lazy_clear() */
	return LRCU_LAZY_ARMED;
}

/* A grace period ending at snap (or later) was requested for rdp: it
 * covers the lazy callbacks queued before. */
void lrcu__lazy_covered(struct lrcu_data *rdp, unsigned long snap)
{
	if (rdp->lazy_since_us && ULONG_CMP_GE(snap, rdp->lazy_snap))
		lazy_clear(rdp);
}

/*
 * rdp's deferral (cblock held): if it is due (or `flush'), clear it and
 * return true with *snap the GP to request now; else *wait_us: how long
 * until it is due (-1: nothing deferred).
 */
static bool lazy_due(struct lrcu_data *rdp, unsigned long now, bool flush,
		     unsigned long *snap, long *wait_us)
{
	long left;

	*wait_us = -1;
	if (!rdp->lazy_since_us)
		return false;
	left = lazy_delay_us() - (long)(now - rdp->lazy_since_us);
	if (!flush && left > 0) {
		*wait_us = left;
		return false;
	}
	*snap = rdp->lazy_snap;
	lazy_clear(rdp);
	WRITE_LOCKED(&rdp->cblock, rdp->n_lazy_flushes, rdp->n_lazy_flushes + 1);
	return true;
}

void lrcu__lazy_flush_all(struct lrcu_state *rsp)
{
	struct lrcu_data *rdp;
	unsigned long snap;
	long w;
	bool due;
	int hwm;

	lrcu_for_each_used_rdp(rsp, rdp, hwm) {
		pthread_mutex_lock(&rdp->cblock);
		due = lazy_due(rdp, 0, true, &snap, &w);
		pthread_mutex_unlock(&rdp->cblock);
		if (due)
			lrcu__gp_request(rsp, snap);
	}
}

/* ------------------------------------------------------------------ */
/* Keepers */

bool lrcu__lazy_keeper_wake(struct lrcu_lazy_keeper *k)
{
	/* Fully ordered: the caller's deferral (under cblock) before the
	 * exchange; pairs with L, the store of 0 + smp_mb() in
	 * lrcu__lazy_pass_begin(). */
	return !xchg(&k->armed, 1);
}

void lrcu__lazy_pass_begin(struct lrcu_lazy_keeper *k, struct lrcu_lazy_pass *p)
{
	/* From now on a slot's first deferral wakes us, until
	 * lrcu__lazy_pass_end() says that we keep a timer. */
	smp_store_mb(k->armed, 0);	/* before the fence */
	smp_mb();	/* L: the store before the peeks at the slots; pairs
			 * with lrcu__lazy_keeper_wake()'s exchange */
	*p = (struct lrcu_lazy_pass){ .k = k, .now = lrcu__now_us(), .sleep_us = -1 };
	p->flush = k->period_end_us && ULONG_CMP_GE(p->now, k->period_end_us);
}

static void min_sleep(long *sleep_us, long us)
{
	if (us >= 0 && (*sleep_us < 0 || us < *sleep_us))
		*sleep_us = us;
}

void lrcu__lazy_pass_slot(struct lrcu_state *rsp, struct lrcu_lazy_pass *p,
			 struct lrcu_data *rdp, int owner)
{
	unsigned long snap;
	bool due = false;
	long w = -1;

	pthread_mutex_lock(&rdp->cblock);
	if (rdp->cb_owner != owner || !rdp->lazy_since_us) {
		pthread_mutex_unlock(&rdp->cblock);
		return;
	}
	/* A grace period that ended anyway took them along (acquire:
	 * pairs with rcu_seq_end(); their invoker advances the list). */
	if (rcu_seq_done(rsp->gp_seq, rdp->lazy_snap))
		lazy_clear(rdp);
	else
		due = lazy_due(rdp, p->now, p->flush, &snap, &w);
	if (!due && rdp->lazy_since_us) {
		p->deferred_gp = !p->deferred || ULONG_CMP_LT(p->deferred_gp, rdp->lazy_snap) ?
				 rdp->lazy_snap : p->deferred_gp;
		p->deferred = true;
	}
	pthread_mutex_unlock(&rdp->cblock);
	min_sleep(&p->sleep_us, w);
	if (due && (!p->due || ULONG_CMP_LT(p->snap, snap)))
		p->snap = snap;
	p->due |= due;
}

bool lrcu__lazy_pass_end(struct lrcu_state *rsp, struct lrcu_lazy_pass *p, long *sleep_us)
{
	struct lrcu_lazy_keeper *k = p->k;
	bool ended = false;
	unsigned long end;

	if (p->due) {
		bool was;

		/* Offline while it may drive: see lrcu__gp_try_drive(). */
		lrcu__sched_block_begin(&was);
		ended = lrcu__gp_try_drive(rsp, p->snap);
		lrcu__sched_block_end(was);
		end = p->now + (unsigned long)lazy_delay_us();
		k->period_end_us = end ? end : 1;	/* a period starts, or goes on */
	} else if (p->flush) {
		k->period_end_us = 0;	/* a whole period without lazy callbacks */
	}
	*sleep_us = p->sleep_us;
	if (k->period_end_us)
		min_sleep(sleep_us, ULONG_CMP_GE(p->now, k->period_end_us) ? 0 :
			  (long)(k->period_end_us - p->now));
	if (*sleep_us >= 0)
		WRITE_ONCE(k->armed, 1);	/* a hint, see above */
	return ended;
}
