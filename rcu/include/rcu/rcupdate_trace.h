/* SPDX-License-Identifier: MIT */
/*
 * rcu/rcupdate_trace.h - RCU Tasks Trace with the Linux kernel's API.
 *
 * What it is
 *   The kernel's flavor for tracing hooks and BPF programs: readers with
 *   explicit markers that may sleep, nest, and run on any thread, and an
 *   update side that waits for every reader that began before it.  As in
 *   the current kernel, it is one SRCU-fast domain,
 *   rcu_tasks_trace_srcu_struct, with a per-thread nesting count in front
 *   of it (docs/design/tasks-trace.md says why and what that costs):
 *
 *     rcu_read_lock_trace(); ... rcu_read_unlock_trace();
 *     synchronize_rcu_tasks_trace();   call_rcu_tasks_trace(head, func);
 *     rcu_barrier_tasks_trace();
 *
 * Readers
 *   rcu_read_lock_trace()/rcu_read_unlock_trace() nest: only the outermost
 *   pair enters and leaves the domain (srcu_read_lock_fast()); the ones
 *   inside it add to and take from this thread's nesting count.  No
 *   registration: any thread may read, registered with RCU or not, and
 *   sleep or block inside as long as it likes (grace periods then wait,
 *   and callbacks with them).  A thread's first section maps its SRCU
 *   reader record (mmap(), no malloc(), no lock).  Async-signal-safe: a
 *   handler that interrupts a lock or unlock anywhere either nests inside
 *   the section already open or runs a whole section of its own, and
 *   leaves the thread's state as it found it.
 *   rcu_read_unlock_trace() without a matching lock is reported ("rcu:
 *   WARNING: ...", counted by lrcu_misuse_count()) and ignored.
 *
 *   rcu_read_lock_tasks_trace()/rcu_read_unlock_tasks_trace(scp): the
 *   kernel's newer form, a section of its own each time (no nesting
 *   count), named by the counter the lock returns.
 *
 *   rcu_read_lock_trace_held(): is this thread inside a Tasks Trace
 *   section (either form)?  Exact in every build (the kernel's answers 1
 *   without CONFIG_DEBUG_LOCK_ALLOC).
 *
 *   Heavyweight readers (the kernel's CONFIG_TASKS_TRACE_RCU_READ_MB=y,
 *   today's CONFIG_TASKS_TRACE_RCU_NO_MB=n): with the library parameter
 *   rcupdate.rcu_tasks_trace_read_mb=1, the outermost lock and unlock
 *   also execute a full fence, as the kernel's readers do on
 *   architectures that need it.  Grace periods are correct either way
 *   (they run membarrier(), see <rcu/srcu.h>); the fences cost the
 *   readers what the kernel's cost them.
 *
 * Update side
 *   synchronize_rcu_tasks_trace() waits until every section that began
 *   before the call has ended; call_rcu_tasks_trace() runs func(head) on
 *   the library's srcu_worker thread after such a grace period;
 *   rcu_barrier_tasks_trace() waits for every callback queued before it.
 *   Calling synchronize_rcu_tasks_trace() or rcu_barrier_tasks_trace()
 *   inside a Tasks Trace section would wait for itself: the library
 *   prints "rcu: BUG: ..." and aborts, as for SRCU.
 *   rcu_tasks_trace_expedite_current() expedites the grace period in
 *   progress (or starts one), as the kernel's; the kernel has no
 *   synchronize_rcu_tasks_trace_expedited() or polled Tasks Trace calls,
 *   and neither does this header.
 *
 * Memory ordering
 *   As SRCU's: the lock orders the section after it, the unlock (a
 *   release) the section before it; synchronize_rcu_tasks_trace() is a
 *   full barrier on both sides of the grace period.
 */
#ifndef RCU_RCUPDATE_TRACE_H
#define RCU_RCUPDATE_TRACE_H

#include <rcu/srcu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A thread's Tasks Trace state: written by the thread (and its signal
 * handlers, which leave it as they found it), read by nobody else. */
struct lrcu_trc_reader {
	struct srcu_ctr *scp;	/* the outermost section's counter; NULL:
				 * not inside rcu_read_lock_trace() */
	unsigned long nesting;	/* rcu_read_lock_trace() calls nested inside
				 * the outermost one */
};

/* The domain every Tasks Trace reader and grace period uses (SRCU-fast). */
LRCU_API extern struct srcu_struct lrcu_rcu_tasks_trace_srcu_struct;
#define rcu_tasks_trace_srcu_struct	lrcu_rcu_tasks_trace_srcu_struct
LRCU_API extern __thread struct lrcu_trc_reader lrcu_trc_self;
/* rcupdate.rcu_tasks_trace_read_mb (params.c): heavyweight readers. */
LRCU_API extern long lrcu_tasks_trace_read_mb;

#ifdef LRCU_INJECT
/* Deliberate-bug builds only (make INJECT=1, rcu/src/inject.h): set when
 * rcutree.inject=tasks_trace_nesting. */
LRCU_API extern int lrcu_inject_trc_nested_ends;
LRCU_API void lrcu_inject_trc_nested_unlock(void);
#endif

/* The heavyweight readers' fence (see the top of this file). */
static inline void lrcu_trc_read_mb(void)
{
	/* Relaxed: a parameter; either value is correct. */
	if (LRCU_UNLIKELY(LRCU_READ_ONCE(lrcu_tasks_trace_read_mb)))
		LRCU_SMP_MB();	/* pairs with the grace period's S and D, as B does */
}

static inline void rcu_read_lock_trace(void)
{
	struct lrcu_trc_reader *t = &lrcu_trc_self;
	struct srcu_ctr *scp;

	/* Relaxed: this thread's own state (see struct lrcu_trc_reader). */
	if (LRCU_READ_ONCE(t->scp)) {
		LRCU_WRITE_ONCE(t->nesting, LRCU_READ_ONCE(t->nesting) + 1);
		return;
	}
	/*
	 * Outermost: enter the domain first, then say so.  A signal handler
	 * that runs before ->scp is set sees no section and runs one of its
	 * own; one that runs after nests in ours.  The lock's fence B (a
	 * compiler barrier at least) keeps the count's store before ->scp's.
	 */
	scp = srcu_read_lock_fast(&lrcu_rcu_tasks_trace_srcu_struct);
	lrcu_trc_read_mb();
	LRCU_WRITE_ONCE(t->scp, scp);
}

static inline void rcu_read_unlock_trace(void)
{
	struct lrcu_trc_reader *t = &lrcu_trc_self;
	/* Relaxed: this thread's own state. */
	struct srcu_ctr *scp = LRCU_READ_ONCE(t->scp);
	unsigned long n = LRCU_READ_ONCE(t->nesting);

	if (n) {
		LRCU_WRITE_ONCE(t->nesting, n - 1);
#ifdef LRCU_INJECT
		if (LRCU_UNLIKELY(lrcu_inject_trc_nested_ends))
			lrcu_inject_trc_nested_unlock();	/* INJECTED: ends the section */
#endif
		return;
	}
	if (LRCU_UNLIKELY(!scp)) {
#ifdef LRCU_INJECT
		if (lrcu_inject_trc_nested_ends)
			return;	/* INJECTED: the section already ended, silently */
#endif
		lrcu_read_misuse("rcu_read_unlock_trace() without matching rcu_read_lock_trace()");
		return;
	}
	lrcu_trc_read_mb();
	/*
	 * Say the section is over before it is: a signal handler from here
	 * on runs a section of its own instead of nesting in one that is
	 * ending.  The unlock's release store keeps this store before it.
	 */
	LRCU_WRITE_ONCE(t->scp, (struct srcu_ctr *)0);
	srcu_read_unlock_fast(&lrcu_rcu_tasks_trace_srcu_struct, scp);
}

/* The kernel's newer readers: a section of their own, named by scp. */
static inline struct srcu_ctr *rcu_read_lock_tasks_trace(void)
{
	struct srcu_ctr *scp = srcu_read_lock_fast(&lrcu_rcu_tasks_trace_srcu_struct);

	lrcu_trc_read_mb();
	return scp;
}

static inline void rcu_read_unlock_tasks_trace(struct srcu_ctr *scp)
{
	lrcu_trc_read_mb();
	srcu_read_unlock_fast(&lrcu_rcu_tasks_trace_srcu_struct, scp);
}

static inline int rcu_read_lock_trace_held(void)
{
	/* Relaxed: this thread's own state. */
	return LRCU_READ_ONCE(lrcu_trc_self.scp) != (struct srcu_ctr *)0 ||
	       srcu_read_lock_held(&lrcu_rcu_tasks_trace_srcu_struct);
}

/* rcu_dereference() for a Tasks Trace reader (the kernel spells it
 * rcu_dereference_check(p, rcu_read_lock_trace_held())). */
#define rcu_dereference_trace(p)	rcu_dereference_check((p), rcu_read_lock_trace_held())

static inline void synchronize_rcu_tasks_trace(void)
{
	lrcu_synchronize_srcu(&lrcu_rcu_tasks_trace_srcu_struct, false,
			      "synchronize_rcu_tasks_trace");
}

static inline void call_rcu_tasks_trace(struct rcu_head *head, rcu_callback_t func)
{
	lrcu_call_srcu(&lrcu_rcu_tasks_trace_srcu_struct, head, func);
}

static inline void rcu_barrier_tasks_trace(void)
{
	lrcu_srcu_barrier(&lrcu_rcu_tasks_trace_srcu_struct);
}

/* The kernel's: expedite the Tasks Trace grace period in progress (or
 * start one), srcu_expedite_current() on the domain. */
static inline void rcu_tasks_trace_expedite_current(void)
{
	lrcu_srcu_expedite_current(&lrcu_rcu_tasks_trace_srcu_struct);
}

#ifdef __cplusplus
}
#endif

#endif /* RCU_RCUPDATE_TRACE_H */
