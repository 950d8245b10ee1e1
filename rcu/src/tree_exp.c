/* SPDX-License-Identifier: MIT */
/*
 * tree_exp.c - expedited grace periods: synchronize_*_expedited(), the
 * expedited polled calls, and the rcu_expedited / rcu_normal routing.
 *
 * Theory of operation
 *
 * An expedited grace period is a grace period of the flavor's tree (the
 * same gp_seq, rcu_node masks, reader words and ->need_qs requests),
 * driven from start to end by the caller instead of the grace-period
 * thread (lrcu__gp_drive() in tree.c, which normal synchronize_*() calls
 * use too: lrcu__gp_run() with ->gp_mutex held).  Its steps are
 * tree.c's: init (fold registrations: a thread that registers later is
 * not waited for, one that unregisters reports for itself), a scan of
 * the reader words of the registered slots leaf by leaf, one heavy fence
 * (membarrier() for rcu, smp_mb() for rcu_sched, whose threads fence at
 * each quiescent state) and a scan asking each holdout to report (its
 * outermost rcu_read_unlock() or next rcu_quiescent_state() wakes us),
 * then cleanup.  For rcu the scans before the fence count the readers
 * whose words show the new grace period, and the fence is issued only if
 * some other holdout remains ("Deferring the heavy fence" in tree.c): a
 * grace period whose readers are all busy interrupts nobody.
 * What makes it expedited: it waits for holdouts by polling briefly, then
 * sleeping until one wakes it, never on the force-quiescent-state timer;
 * and it is driven by a caller even when the kthread would drive a
 * normal one (rcutree.gp_caller_drives=0, or a start_poll request) --
 * but for real-time RCU threads (rcutree.kthread_prio, boost.c), whose
 * grace periods only the kthread drives.
 * Threads that are idle (offline, or outside any section) or never read
 * are not asked anything: their words prove them quiescent.
 *
 * Why no separate expedited sequence, as in the kernel: the kernel's
 * normal grace periods must not interrupt CPUs, so its expedited ones
 * need their own machinery (IPIs) and sequence, and only polled cookies
 * (gp_seq_polled, the _full cookies) can profit from both.  Here a normal
 * grace period already costs one heavy fence and scans at once, so an
 * expedited one differs only in who drives it and how it waits.  Sharing
 * the sequence means that an expedited grace period ends every normal one
 * it spans: callbacks, synchronize_*() waiters and polled cookies waiting
 * for that gp_seq value are served by it, and the expedited polled calls
 * use the very same cookies.
 *
 * Sharing between callers (the kernel's expedited sequence and funnel):
 * each caller takes a snapshot (rcu_seq_snap(): the end of the first grace
 * period that starts after now) and lrcu__gp_drive() either drives the
 * grace periods up to it or waits for their driver; a caller that finds
 * the GP kthread driving marks the next grace period as wanted expedited
 * (->gp_exp_needed), so whichever of them drives it, it runs the
 * expedited way.
 */
#include "internal.h"

static int expedite_nesting;	/* rcu_expedite_gp() depth (atomic) */

bool lrcu_gp_is_normal(void)
{
	return READ_ONCE(lrcu__params.rcu_normal) != 0;	/* may change at run time */
}

bool lrcu_gp_is_expedited(void)
{
	/* Relaxed: a routing hint, not an ordering. */
	return READ_ONCE(lrcu__params.rcu_expedited) ||
	       READ_ONCE(expedite_nesting) > 0;
}

void lrcu_expedite_gp(void)
{
	atomic_inc(&expedite_nesting);	/* see above */
}

void lrcu_unexpedite_gp(void)
{
	if (atomic_dec_return_relaxed(&expedite_nesting) < 0) {
		atomic_inc(&expedite_nesting);
		lrcu_read_misuse("rcu_unexpedite_gp() without rcu_expedite_gp()");
	}
}

void lrcu_end_inkernel_boot(void)
{
	if (READ_ONCE(lrcu__params.rcu_normal_after_boot))
		WRITE_ONCE(lrcu__params.rcu_normal, 1);	/* read with READ_ONCE() */
}

/* ------------------------------------------------------------------ */
/* The API (the blocking calls' prelude and routing: update.c) */

/* Wait for the grace period ending at snap (a caller's snapshot or a
 * cookie), driving it the expedited way or sharing its driver's. */
void lrcu__exp_wait(struct lrcu_state *rsp, unsigned long snap)
{
	if (lrcu__callers_drive(true)) {
		lrcu__gp_drive(rsp, snap, true);
		return;
	}
	/* Real-time RCU threads (boost.c): the GP kthread drives it. */
	lrcu__gp_request_exp(rsp, snap);
	lrcu__gp_wait(rsp, snap);
}
