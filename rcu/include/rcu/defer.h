/* SPDX-License-Identifier: MIT */
/*
 * rcu/defer.h - liburcu's defer_rcu(): run fct(p) after a grace period,
 * for an object that has no struct rcu_head to lend to call_rcu().
 *
 *   defer_rcu(fct, p)       fct(p) after an rcu grace period
 *   defer_rcu_sched(fct, p) the same after an rcu_sched grace period
 *   defer_barrier()         wait until every defer_rcu() queued before
 *                           has run (rcu_barrier())
 *   defer_barrier_sched()   the same for defer_rcu_sched()
 *   defer_register_thread(), defer_unregister_thread(): nothing to do, 0
 *
 * Built on call_rcu(): each call takes a small allocation that carries
 * the rcu_head, and fct runs on the flavor's callback thread, as any RCU
 * callback (it must not block for long or wait for a grace period).  What
 * differs from liburcu's:
 *   - any thread may call it, registered or not, inside a read-side
 *     section too: it blocks only when the allocation fails (it then
 *     waits for a grace period and calls fct itself, as liburcu's does
 *     when its queue is full; that case is not allowed inside a section
 *     or a callback, where the library reports it);
 *   - fct(p) runs on the library's callback thread, not in a per-process
 *     defer thread, and no thread has to register for it;
 *   - defer_barrier() waits for every thread's deferred calls and for
 *     every call_rcu() callback queued before it (liburcu's waits for
 *     every thread's defer queue); there is no per-thread variant.
 * A program that can embed a struct rcu_head in its object should use
 * call_rcu() or kfree_rcu(): no allocation, nothing that can fail.
 */
#ifndef RCU_DEFER_H
#define RCU_DEFER_H

#include <stdlib.h>
#include <rcu/rcupdate.h>

#ifdef __cplusplus
extern "C" {
#endif

struct lrcu_deferred {
	struct rcu_head rh;
	void (*fct)(void *p);
	void *p;
};

static inline void lrcu__deferred_run(struct rcu_head *rh)
{
	struct lrcu_deferred *d = LRCU_CONTAINER_OF(rh, struct lrcu_deferred, rh);

	d->fct(d->p);
	free(d);
}

static inline void lrcu__defer(enum lrcu_flavor f, void (*fct)(void *p), void *p)
{
	struct lrcu_deferred *d = (struct lrcu_deferred *)malloc(sizeof(*d));

	if (LRCU_UNLIKELY(!d)) {
		lrcu_synchronize(f, "defer_rcu");
		fct(p);
		return;
	}
	d->fct = fct;
	d->p = p;
	lrcu_call(f, &d->rh, lrcu__deferred_run);
}

static inline void defer_rcu(void (*fct)(void *p), void *p) { lrcu__defer(LRCU_PREEMPT, fct, p); }
static inline void defer_rcu_sched(void (*fct)(void *p), void *p) { lrcu__defer(LRCU_SCHED, fct, p); }
static inline void defer_barrier(void) { lrcu_barrier(LRCU_PREEMPT, "defer_barrier"); }
static inline void defer_barrier_sched(void) { lrcu_barrier(LRCU_SCHED, "defer_barrier_sched"); }
static inline int defer_register_thread(void) { return 0; }
static inline int defer_unregister_thread(void) { return 0; }

#ifdef __cplusplus
}
#endif

#endif /* RCU_DEFER_H */
