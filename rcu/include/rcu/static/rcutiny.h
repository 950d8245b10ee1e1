/* SPDX-License-Identifier: MIT */
/*
 * rcu/static/rcutiny.h - Tiny RCU's inline read side.
 *
 * Included by <rcu/static/rcupdate.h> in programs built with
 * -DCONFIG_TINY_RCU and linked with librcutiny (make TINY=1); do not
 * include directly.  Tiny RCU's assumption (docs/design/tiny.md): every
 * thread that reads or waits for a grace period runs SCHED_FIFO at one
 * priority on one CPU, and readers never block, so no thread runs while
 * another is inside a read-side section.  The markers therefore only
 * count the depth (for the checks) and keep the compiler from moving the
 * section's accesses across them; rcu and rcu_sched are one flavor, as in
 * the kernel's Tiny RCU.
 *
 * The depth is written by its thread only; a signal handler that nests a
 * section restores the value it found, so a plain increment interrupted
 * between its load and its store still stores the right value.
 */
#ifndef RCU_STATIC_RCUTINY_H
#define RCU_STATIC_RCUTINY_H

#include <rcu/compiler.h>
#include <rcu/types.h>

#define LRCU_TINY_CHECKED	0x1	/* the thread's scheduling was verified */
#define LRCU_TINY_REGISTERED	0x2	/* rcu_register_thread() */
#define LRCU_TINY_OFFLINE	0x4	/* rcu_thread_offline() */
#define LRCU_TINY_IN_CALLBACK	0x8	/* the callback thread, in a callback */

/* librcutiny's exports (rcu/tiny/librcutiny.map), not librcu's. */
#define LRCU_TINY_API	LRCU_API

struct lrcu_tiny_reader {
	unsigned int nesting;		/* rcu_read_lock() depth (owner) */
	unsigned int sched_nesting;	/* rcu_read_lock_sched() depth (owner) */
	unsigned int flags;		/* LRCU_TINY_* (owner) */
};

LRCU_TINY_API extern __thread struct lrcu_tiny_reader lrcu_tiny_reader;
/* Grace periods so far, times 4 (the low two bits, Tree's state, stay 0):
 * advanced only by a thread of the group outside any section. */
LRCU_TINY_API extern unsigned long lrcu_tiny_gp_seq;

/* First section of a thread: verify it may read (aborts if not). */
LRCU_TINY_API void lrcu_tiny_check_thread(void);
LRCU_TINY_API void lrcu_read_misuse(const char *what);

static inline void lrcu_tiny_enter(unsigned int *depth)
{
	if (LRCU_UNLIKELY(!(lrcu_tiny_reader.flags & LRCU_TINY_CHECKED)))
		lrcu_tiny_check_thread();
	*depth += 1;
	LRCU_BARRIER();	/* keep the section's accesses after the marker */
}

static inline void lrcu_tiny_exit(unsigned int *depth, const char *what)
{
	LRCU_BARRIER();	/* keep the section's accesses before the marker */
	if (LRCU_UNLIKELY(!*depth)) {
		lrcu_read_misuse(what);
		return;
	}
	*depth -= 1;
}

static inline void lrcu_read_lock_inline(void)
{
	lrcu_tiny_enter(&lrcu_tiny_reader.nesting);
}

static inline void lrcu_read_unlock_inline(void)
{
	lrcu_tiny_exit(&lrcu_tiny_reader.nesting,
		       "rcu_read_unlock() without matching rcu_read_lock()");
}

static inline void lrcu_read_lock_sched_inline(void)
{
	lrcu_tiny_enter(&lrcu_tiny_reader.sched_nesting);
}

static inline void lrcu_read_unlock_sched_inline(void)
{
	lrcu_tiny_exit(&lrcu_tiny_reader.sched_nesting,
		       "rcu_read_unlock_sched() without matching rcu_read_lock_sched()");
}

/* A quiescent state is any moment outside a section: nothing to report. */
static inline void lrcu_quiescent_state_inline(void)
{
	if (LRCU_UNLIKELY(lrcu_tiny_reader.sched_nesting))
		lrcu_read_misuse("rcu_quiescent_state() inside rcu_read_lock_sched()");
}

static inline bool lrcu_tiny_watching(void)
{
	return !(lrcu_tiny_reader.flags & LRCU_TINY_OFFLINE);
}

#endif /* RCU_STATIC_RCUTINY_H */
