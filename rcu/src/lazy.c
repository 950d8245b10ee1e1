/* SPDX-License-Identifier: MIT */
/*
 * lazy.c - lazy callbacks: grace periods requested late, in batches.
 *
 * A lazy callback (kfree_rcu(); call_rcu() with rcutree.enable_rcu_lazy=1;
 * never call_rcu_hurry()) only frees memory, so nobody waits for it.  It
 * is queued and tagged as any other (so a grace period that ends anyway
 * carries it along), but its grace period is not requested until
 * rcutree.rcu_idle_lazy_gp_delay (6 s, the kernel's default) after the
 * first lazy callback of its slot arrived, or until qhimark of them wait,
 * or until rcu_barrier() flushes them.  An otherwise idle process that
 * frees now and then thus sees one grace period per delay instead of one
 * per free, and its library threads sleep.  A non-lazy callback queued on
 * the slot meanwhile asks for a grace period that covers the lazy ones.
 *
 * Per slot (under rdp->cblock): how many are deferred, since when, and the
 * grace period they need.  Whoever invokes the slot's callbacks keeps the
 * timer: the flavor's callback thread (callbacks.c) or the slot's rcuog
 * thread (tree_nocb.c); lrcu_lazy_defer() says when a timer was armed, so
 * that the caller wakes it to sleep less.  rcutree.rcu_idle_lazy_gp_delay=0
 * turns laziness off.
 */
#include "internal.h"

static void lazy_clear(struct lrcu_data *rdp)
{
	rdp->lazy_len = 0;
	WRITE_ONCE(rdp->lazy_since_us, 0);	/* peeked at by invokers */
}

/*
 * A lazy callback was queued on rdp for grace period snap: may its request
 * wait?  LRCU_LAZY_NOW: request it now (laziness off, the limit reached,
 * or it is requested already); DEFERRED: later, a timer runs already;
 * ARMED: later, and this is the slot's first: wake the timer's keeper.
 */
enum lrcu_lazy lrcu_lazy_defer(struct lrcu_state *rsp, struct lrcu_data *rdp,
			       unsigned long snap, unsigned long now)
{
	/* Relaxed: seeing the request late only defers a no-op request. */
	unsigned long needed = __atomic_load_n(&rsp->gp_seq_needed, __ATOMIC_RELAXED);

	if (READ_ONCE(lrcu_params.lazy_gp_delay) <= 0 || ULONG_CMP_GE(needed, snap))
		return LRCU_LAZY_NOW;
	if (rdp->lazy_len >= READ_ONCE(lrcu_params.qhimark)) {
		lazy_clear(rdp);	/* a flood: no more batching */
		rdp->n_lazy_flushes++;
		return LRCU_LAZY_NOW;
	}
	rdp->lazy_len++;
	rdp->lazy_snap = snap;
	if (rdp->lazy_since_us)
		return LRCU_LAZY_DEFERRED;
	WRITE_ONCE(rdp->lazy_since_us, now ? now : 1);	/* see lazy_clear() */
	return LRCU_LAZY_ARMED;
}

/* A grace period ending at snap (or later) was requested for rdp: it
 * covers the lazy callbacks queued before. */
void lrcu_lazy_covered(struct lrcu_data *rdp, unsigned long snap)
{
	if (rdp->lazy_since_us && ULONG_CMP_GE(snap, rdp->lazy_snap))
		lazy_clear(rdp);
}

bool lrcu_lazy_due(struct lrcu_data *rdp, unsigned long now, bool flush,
		   unsigned long *snap, long *wait_us)
{
	long delay = READ_ONCE(lrcu_params.lazy_gp_delay) * LRCU_JIFFY_US;
	long left;

	*wait_us = -1;
	if (!rdp->lazy_since_us)
		return false;
	left = delay - (long)(now - rdp->lazy_since_us);
	if (!flush && left > 0) {
		*wait_us = left;
		return false;
	}
	*snap = rdp->lazy_snap;
	lazy_clear(rdp);
	rdp->n_lazy_flushes++;
	return true;
}

void lrcu_lazy_flush_all(struct lrcu_state *rsp)
{
	struct lrcu_data *rdp;
	unsigned long snap;
	long w;
	bool due;
	int hwm;

	lrcu_for_each_used_rdp(rsp, rdp, hwm) {
		pthread_mutex_lock(&rdp->cblock);
		due = lrcu_lazy_due(rdp, 0, true, &snap, &w);
		pthread_mutex_unlock(&rdp->cblock);
		if (due)
			lrcu_gp_request(rsp, snap);
	}
}
