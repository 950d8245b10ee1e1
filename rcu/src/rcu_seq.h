/* SPDX-License-Identifier: MIT */
/*
 * rcu_seq.h - grace-period sequence arithmetic, in one place.
 *
 * A sequence (gp_seq, barrier_seq, ...) counts in steps of 4: the low two
 * bits are a state (0 = idle, 1 = in progress; gp_seq also uses 2 = in
 * progress and confirmed, see rcu_seq_confirm(); SRCU uses 2 for its
 * second scan, see rcu_seq_set_state()), the rest a counter.  All
 * comparisons are wrap-safe, and every sequence starts just
 * below the wrap point (as the kernel's does), so wraparound happens within
 * the first RCU_SEQ_WRAP_SOON grace periods of every run and every test.
 */
#ifndef LRCU_RCU_SEQ_H
#define LRCU_RCU_SEQ_H

#include <stdbool.h>
#include <limits.h>
#include <rcu/kernel.h>
#include <rcu/static/rcupdate.h>
#include "inject.h"

#define RCU_SEQ_CTR_SHIFT	2
#define RCU_SEQ_STATE_MASK	((1UL << RCU_SEQ_CTR_SHIFT) - 1)
#define RCU_SEQ_WRAP_SOON	300UL
#define RCU_SEQ_INIT		((0UL - RCU_SEQ_WRAP_SOON) << RCU_SEQ_CTR_SHIFT)

/* Wrap-safe comparisons of unsigned longs. */
#define ULONG_CMP_GE(a, b)	(ULONG_MAX / 2 >= (unsigned long)((a) - (b)))
#define ULONG_CMP_LT(a, b)	(ULONG_MAX / 2 < (unsigned long)((a) - (b)))

static inline unsigned long rcu_seq_state(unsigned long s)
{
	return s & RCU_SEQ_STATE_MASK;
}

static inline unsigned long rcu_seq_current(const unsigned long *sp)
{
	return smp_load_acquire(sp);	/* pairs with rcu_seq_start()/_end() */
}

/*
 * Start a grace period.  Release: pairs with the acquire loads of gp_seq
 * in rcu_read_lock()/rcu_quiescent_state(), so a reader that samples the
 * new value also sees everything that preceded the start (the removals
 * this grace period protects).  The full fence that must separate the
 * start from reading the reader words is issued by the caller
 * (gp_scan_prepare()).
 */
static inline void rcu_seq_start(unsigned long *sp)
{
	smp_store_release(sp, *sp + 1);	/* see above */
}

/*
 * Move a grace period in progress to another in-progress state (SRCU:
 * 1 = SCAN1, 2 = SCAN2).  Pollers compare only the counter, so the state
 * change orders nothing for them; release for symmetry with the start.
 */
static inline void rcu_seq_set_state(unsigned long *sp, unsigned long state)
{
	smp_store_release(sp, (*sp & ~RCU_SEQ_STATE_MASK) | state);	/* see above */
}

/*
 * Confirm a grace period's start (gp_seq only): state 1 -> 2, the same
 * release store.  The caller has issued a full fence since
 * rcu_seq_start(), so state 1 has reached every thread: a reader that
 * samples state 2 is ordered after every updater whose snapshot
 * (rcu_seq_snap(): fence, then load) still saw the idle value, hence after
 * that updater's removals.  A sample of state 1 does not prove that on a
 * machine without multi-copy atomicity (POWER): the start may reach a
 * reader before it reaches the updater, while the removal has not reached
 * the reader yet, and a reader whose fence is only a compiler barrier
 * (membarrier()) then loads the removed pointer.  So only samples at or
 * after the confirmed value count as "began after the start"
 * (lrcu_word_qs()); rcu/formal/ checks both cases with Spin.
 */
static inline void rcu_seq_confirm(unsigned long *sp)
{
	rcu_seq_start(sp);
}

/* The value rcu_seq_end() will store (from state 1 or 2). */
static inline unsigned long rcu_seq_endval(const unsigned long *sp)
{
	return (*sp | RCU_SEQ_STATE_MASK) + 1;
}

/*
 * End a grace period.  The fence orders every observation that proved the
 * grace period (reader words, qsmask) before the new value; the release
 * store pairs with the acquire in rcu_seq_done()/rcu_seq_current(), so a
 * waiter that sees the end is ordered after all pre-existing readers.
 */
static inline void rcu_seq_end(unsigned long *sp)
{
	smp_mb();	/* pairs with the readers' unlock release + fences */
	smp_store_release(sp, rcu_seq_endval(sp));	/* see above */
}

/*
 * The value of *sp once a full grace period has elapsed from now: the end
 * of the next one if idle, of the one after if one is in progress (state
 * 1 or 2).  The
 * fence orders the caller's prior accesses (removals) before the sample;
 * it pairs with the fences around the reader-word scan.
 */
static inline unsigned long rcu_seq_snap(const unsigned long *sp)
{
	unsigned long s;

	smp_mb();	/* caller's prior writes before the sample */
	s = READ_ONCE(*sp);	/* after the fence */
	return (s + 2 * RCU_SEQ_STATE_MASK + 1) & ~RCU_SEQ_STATE_MASK;
}

/* Has the grace period that snapshot s waits for completed? */
static inline bool rcu_seq_done(const unsigned long *sp, unsigned long s)
{
	return ULONG_CMP_GE(smp_load_acquire(sp), s);	/* pairs with rcu_seq_end() */
}

/*
 * rcu_seq_done() for polled cookies, which a program may keep for ever:
 * has the grace period that snapshot s waits for completed, however long
 * ago?  A snapshot still pending is never more than 2 * RCU_SEQ_STATE_MASK
 * + 1 ahead of *sp (rcu_seq_snap() from state 1), so a value further
 * ahead is one that completed so long ago that the counter went more
 * than half round since: rcu_seq_done() would call it pending again for
 * the next 2^61 grace periods.  The guard band of two whole grace periods
 * is what keeps this free of false positives: it must cover the farthest
 * a pending snapshot can be ahead, which holds because cookies are taken
 * from the very counter they are polled against.
 */
static inline bool rcu_seq_done_exact(const unsigned long *sp, unsigned long s)
{
	unsigned long cur = smp_load_acquire(sp);	/* pairs with rcu_seq_end() */

	return ULONG_CMP_GE(cur, s) ||
	       ULONG_CMP_LT(cur, s - 2 * (RCU_SEQ_STATE_MASK + 1));
}

/* The reader word for gp_seq value s at depth 1: what lrcu_gp_pub[].word
 * holds (tree.c's gp_seq_publish()). */
#define LRCU_GP_WORD(s)	(((s) << LRCU_W_SEQ_SHIFT) | LRCU_W_REG | 1)

/*
 * Reader words (layout in rcu/static/rcupdate.h): did the slot whose word
 * is w sample gp_seq at or after gstart, the confirmed start
 * (rcu_seq_confirm()) of a grace period?  Then its section, and every
 * later one of that thread, began after the start and sees the removals
 * made before it (a sample of the unconfirmed start, gstart - 1, does not
 * count).  Whatever the nesting: the outermost unlock keeps the sample.
 * The sample keeps only the low 47 bits of gp_seq; comparing the shifted
 * values wrap-safely is exact as long as fewer than 2^44 grace periods
 * separate them.
 *
 * A sample of 0 is never new.  It is what a slot's word holds from
 * registration until its first section's store is visible (and what a
 * thread that exits inside a section leaves): no sample at all, but one
 * that compares as later than every gstart of the first
 * RCU_SEQ_WRAP_SOON grace periods (gp_seq starts below the wrap point),
 * so a scan before the heavy fence would take a reader whose first
 * section's word store is still in its store buffer for one that began
 * after the grace period (tests/rcu/weakmem.c's fresh reader).  A real
 * sample of 0 is gp_seq 0, idle, which no scan can see while a grace
 * period is in progress: it is older than every one that can be.
 */
static inline bool lrcu_word_new(unsigned long w, unsigned long gstart)
{
	unsigned long snap = w & ~(LRCU_W_REG | LRCU_W_NEST_MASK);

	if (!snap)
		return false;	/* never sampled (see above) */

	if (LRCU_INJECTED(LRCU_BUG_WORD_OFF_BY_ONE))	/* INJECTED: the gap's readers too */
		return ULONG_CMP_GE(snap, (gstart & ~RCU_SEQ_STATE_MASK) << LRCU_W_SEQ_SHIFT);
	return ULONG_CMP_GE(snap, gstart << LRCU_W_SEQ_SHIFT);
}

/*
 * Is the slot whose word is w quiescent for the grace period gstart, read
 * after the grace period's heavy fence?  Yes if it is not inside a
 * section (nesting 0: the fence made any section begun before it visible),
 * or if its section began after the start (lrcu_word_new()).
 */
static inline bool lrcu_word_qs(unsigned long w, unsigned long gstart)
{
	return !(w & LRCU_W_NEST_MASK) || lrcu_word_new(w, gstart);
}

#endif /* LRCU_RCU_SEQ_H */
