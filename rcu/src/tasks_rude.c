/* SPDX-License-Identifier: MIT */
/*
 * tasks_rude.c - RCU Tasks Rude's grace period: wait until every Rude
 * region open at its start has closed.
 *
 * Theory of operation (docs/design/tasks.md)
 *
 * In the kernel a Rude reader is a preemption-disabled region, and a
 * grace period forces a context switch on every CPU, which no such
 * region can contain.  Userspace cannot disable preemption, so here a
 * region is what rcu_read_lock_tasks_rude() and rcu_read_unlock_tasks_rude()
 * mark, on any thread, and the grace period visits every thread that ever
 * used a marker (the records of tasks.c) instead of every CPU.  Each
 * record's word holds the region depth and a count of outermost entries
 * (<rcu/tasks.h>), written only by its owner, with single stores.  After
 * the start fence, the snapshot keeps the threads whose depth is not zero,
 * with their word; a holdout is done once its depth is zero or its count
 * moved (the region it was in ended; a nested marker or a signal
 * handler's region only moves the depth), or once its thread exited.
 * The markers order their accesses with lrcu_reader_fence() (a compiler
 * barrier where membarrier() works), and the grace period's two heavy
 * fences (tasks.c) supply the other half, as for the rcu flavor's words.
 */
#include "tasks_internal.h"

static void rude_snapshot(struct lrcu_tasks *tp)
{
	struct lrcu_tasks_holdout *h;
	struct lrcu_tasks_thread *t;
	unsigned long w;

	lrcu__tasks_threads_lock();
	for (t = lrcu__tasks_threads_first(); t; t = t->next) {
		/* Relaxed: ordered by the start fence before it (tasks.c). */
		w = READ_ONCE(t->rude);
		if (!(w & LRCU_RUDE_DEPTH) && LRCU_INJECTED(LRCU_BUG_RUDE_SCAN_BREAK))
			break;	/* INJECTED: the threads after it are not looked at */
		if (!(w & LRCU_RUDE_DEPTH))
			continue;
		h = lrcu__tasks_holdout_add(tp, t->tid);
		h->rude = w;
		h->rec = t;
		lrcu__tasks_comm(t->tid, h->name, sizeof(h->name));
	}
	lrcu__tasks_threads_unlock();
}

/* Has the region seen at the snapshot (word then) ended, given now? */
static bool region_ended(unsigned long then, unsigned long now)
{
	if (LRCU_INJECTED(LRCU_BUG_RUDE_NESTED_QS))
		return now != then;	/* INJECTED: a nested marker ends it */
	return !(now & LRCU_RUDE_DEPTH) ||
	       (now & ~LRCU_RUDE_DEPTH) != (then & ~LRCU_RUDE_DEPTH);
}

static void rude_scan(struct lrcu_tasks *tp)
{
	struct lrcu_tasks_thread *t;
	int i;

	lrcu__tasks_threads_lock();
	for (i = tp->nh - 1; i >= 0; i--) {
		struct lrcu_tasks_holdout *h = &tp->h[i];

		for (t = lrcu__tasks_threads_first(); t && t != h->rec; t = t->next)
			;
		/* Relaxed: the end fence (tasks.c) orders what follows. */
		if (!t || t->tid != h->tid || region_ended(h->rude, READ_ONCE(t->rude)))
			lrcu__tasks_holdout_drop(tp, i);
	}
	lrcu__tasks_threads_unlock();
}

static void rude_print(struct lrcu_tasks *tp, struct lrcu_stall_out *o, unsigned long now)
{
	unsigned long ms = (now - READ_ONCE(tp->gp_start_us)) / 1000;
	int i;

	for (i = 0; i < tp->nh; i++) {
		struct lrcu_tasks_holdout *h = &tp->h[i];

		lrcu__stall_holdout(o, -1, h->tid, h->name, ms, 0);
		lrcu__stall_printf(o, "rcu: \tP%d %s: in a Rude region (depth %lu) for at "
				   "least %lu ms\n", h->tid, h->name, h->rude & LRCU_RUDE_DEPTH, ms);
	}
}

const struct lrcu_tasks_gp_ops lrcu__tasks_rude_ops = {
	.snapshot = rude_snapshot,
	.scan = rude_scan,
	.print = rude_print,
	.first_wait_us = LRCU_JIFFY_US,
};
