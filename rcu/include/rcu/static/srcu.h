/* SPDX-License-Identifier: MIT */
/*
 * rcu/static/srcu.h - SRCU's inline read side and the layout it needs.
 *
 * Included by <rcu/srcu.h>; do not include directly.  These inlines are
 * compiled into the caller, so the structures below are part of the
 * library's ABI: a program must be rebuilt when this header changes.
 *
 * Reader counters
 *
 * Each srcu_struct (a "domain") gets a small number, its id, the first
 * time it is used (init_srcu_struct() or, for DEFINE_SRCU(), the first
 * reader or update-side call).  Each thread that ever enters an SRCU
 * read-side critical section owns a reader record, found through the
 * thread-local pointer lrcu_srcu_self: a directory of pages, each page
 * holding, for 256 consecutive ids, two counters (one per index) of the
 * sections this thread has open in that domain:
 *
 *   lrcu_srcu_self->dir[id >> 8]->ctr[id & 255][idx]
 *
 * Only the owner writes its counters, with single plain atomic stores (no
 * read-modify-write, no lock prefix): srcu_read_lock() stores count + 1,
 * srcu_read_unlock() stores count - 1.  A signal handler that interrupts
 * the load/store pair runs whole sections of its own, so it leaves the
 * count as it found it, and the interrupted store is still right.  The
 * grace-period code reads every thread's counter for the domain (see
 * rcu/src/srcu.c for the theory of operation and the barrier pairing).
 *
 * Records and pages are created off the fast path (the slow path, on the
 * first section a thread runs in a domain whose page it lacks) and are
 * never freed: a thread that exits hands its record to the next thread.
 * Id 0 means "no id yet" and ids below 256 are never handed out, so page
 * 0 never exists and an unassigned domain always takes the slow path.
 *
 * Shared counters
 *
 * srcu_read_lock_nmisafe(), srcu_down_read() and domains for which no id
 * or no memory was left use per-domain counters instead (->srcu_shared):
 * atomic increments of a lock and an unlock count per index.  The value
 * such a lock returns has LRCU_SRCU_SHARED set, so any unlock call routes
 * it back to them.
 */
#ifndef RCU_STATIC_SRCU_H
#define RCU_STATIC_SRCU_H

#include <rcu/compiler.h>
#include <rcu/types.h>
#include <rcu/static/rcupdate.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LRCU_SRCU_PAGE_SHIFT	8
#define LRCU_SRCU_PER_PAGE	(1UL << LRCU_SRCU_PAGE_SHIFT)
#define LRCU_SRCU_DIR		64UL
#define LRCU_SRCU_MAX_IDS	(LRCU_SRCU_DIR * LRCU_SRCU_PER_PAGE)
#define LRCU_SRCU_ID_NONE	0UL	/* not assigned yet */
#define LRCU_SRCU_ID_SHARED	1UL	/* no id left: shared counters only */
#define LRCU_SRCU_SHARED	2	/* flag in a lock's return value */

struct lrcu_srcu_sup;

/*
 * The domain.  Treat as opaque; DEFINE_SRCU() and init_srcu_struct() set
 * it up.  The first fields are read by every srcu_read_lock(); the shared
 * counters are written with atomic increments and sit at least a cache
 * line away from them.
 */
struct srcu_struct {
	unsigned long srcu_id;		/* LRCU_SRCU_ID_*, or the domain's id;
					 * set once (CAS), read relaxed */
	unsigned long srcu_idx;		/* bit 0: the index new readers use;
					 * bumped by each grace period's flip */
	struct lrcu_srcu_sup *srcu_sup;	/* update-side state, allocated on
					 * first update-side use (acquire/release) */
	const char *srcu_name;		/* for messages */
	char srcu_pad[LRCU_CACHELINE];	/* keep ->srcu_shared off the line above */
	struct {
		unsigned long lock;	/* sections begun on this index */
		unsigned long unlock;	/* ... and ended */
	} srcu_shared[2];		/* atomic read-modify-write */
};

/* A thread's reader record; the library's private fields follow dir[]. */
struct lrcu_srcu_page {
	unsigned long ctr[LRCU_SRCU_PER_PAGE][2];	/* owner stores, anyone loads */
};
struct lrcu_srcu_rec {
	struct lrcu_srcu_page *dir[LRCU_SRCU_DIR];	/* set once per entry by the
							 * owner (CAS release) */
};

/* Never NULL: a thread without a record points at an empty one. */
LRCU_API extern __thread struct lrcu_srcu_rec *lrcu_srcu_self;
/* srcu_read_lock_nmisafe() sections this thread has open (any domain). */
LRCU_API extern __thread unsigned int lrcu_srcu_nmi_nesting;

LRCU_API int lrcu_srcu_read_lock_slow(struct srcu_struct *ssp);
LRCU_API void lrcu_srcu_read_unlock_slow(struct srcu_struct *ssp, int idx);

/* This thread's two counters for the domain, or NULL (slow path). */
static inline unsigned long *lrcu_srcu_ctr(struct srcu_struct *ssp)
{
	/*
	 * Relaxed: the record pointer and page pointers are written only by
	 * this thread (or by a signal handler on it); the id is a number
	 * that orders nothing.  The mask keeps a garbage id (a domain that
	 * was never initialised) inside the directory.
	 */
	struct lrcu_srcu_rec *r = LRCU_READ_ONCE(lrcu_srcu_self);
	unsigned long id = LRCU_READ_ONCE(ssp->srcu_id);
	struct lrcu_srcu_page *pg =
		LRCU_READ_ONCE(r->dir[(id >> LRCU_SRCU_PAGE_SHIFT) & (LRCU_SRCU_DIR - 1)]);

	return pg ? pg->ctr[id & (LRCU_SRCU_PER_PAGE - 1)] : (unsigned long *)0;
}

/* The section's entry once the counters are found (fast and slow path). */
static inline int lrcu_srcu_lock_ctr(struct srcu_struct *ssp, unsigned long *c)
{
	/* Which index: a sample; a stale one is allowed (srcu.c, "stale"). */
	int idx = (int)(LRCU_READ_ONCE(ssp->srcu_idx) & 1);

	/* Owner-only counter: load + store (see the top of this file);
	 * relaxed, B below orders it. */
	LRCU_WRITE_ONCE(c[idx], LRCU_READ_ONCE(c[idx]) + 1);
	/*
	 * B: the count before the section's loads.  Pairs with the grace
	 * period's heavy fences S and D (membarrier(), or LRCU_SMP_MB() where
	 * readers fence themselves), rcu/src/srcu.c.
	 */
	lrcu_reader_fence();	/* B */
	return idx;
}

static inline int lrcu_srcu_read_lock_inline(struct srcu_struct *ssp)
{
	unsigned long *c = lrcu_srcu_ctr(ssp);

	if (LRCU_UNLIKELY(!c))
		return lrcu_srcu_read_lock_slow(ssp);
	return lrcu_srcu_lock_ctr(ssp, c);
}

static inline void lrcu_srcu_unlock_shared(struct srcu_struct *ssp, int idx);

static inline void lrcu_srcu_read_unlock_inline(struct srcu_struct *ssp, int idx)
{
	unsigned long *c, v;

	if (LRCU_UNLIKELY(idx & ~1)) {
		if ((idx & ~(LRCU_SRCU_SHARED | 1)) == 0)
			lrcu_srcu_unlock_shared(ssp, idx);
		else
			lrcu_srcu_read_unlock_slow(ssp, idx);	/* reports it */
		return;
	}
	c = lrcu_srcu_ctr(ssp);
	if (LRCU_UNLIKELY(!c)) {
		lrcu_srcu_read_unlock_slow(ssp, idx);	/* not locked on this thread */
		return;
	}
	v = LRCU_READ_ONCE(c[idx]);
	if (LRCU_UNLIKELY(!v)) {
		lrcu_srcu_read_unlock_slow(ssp, idx);	/* reports the bad index */
		return;
	}
	/*
	 * C: release: the section's accesses complete before the count
	 * drops; pairs with the acquire loads of the grace period's scan
	 * (srcu_readers_drained() in rcu/src/srcu_readers.c).
	 */
	LRCU_STORE_RELEASE(&c[idx], v - 1);
}

/* The shared counters: any thread, any context, no allocation. */
static inline int lrcu_srcu_lock_shared(struct srcu_struct *ssp)
{
	int idx = (int)(LRCU_READ_ONCE(ssp->srcu_idx) & 1);

	/* Relaxed: B below orders the section after it, as for the
	 * per-thread counters. */
	LRCU_FETCH_ADD_RELAXED(&ssp->srcu_shared[idx].lock, 1);
	lrcu_reader_fence();	/* B (see lrcu_srcu_lock_ctr()): pairs with S, D */
	return idx | LRCU_SRCU_SHARED;
}

static inline void lrcu_srcu_unlock_shared(struct srcu_struct *ssp, int idx)
{
	/* C: release, as in lrcu_srcu_read_unlock_inline(); pairs with the
	 * scan's acquire load of the unlock count. */
	LRCU_FETCH_ADD_RELEASE(&ssp->srcu_shared[idx & 1].unlock, 1);
}

/* Does this thread hold a per-thread section of this domain? */
static inline int lrcu_srcu_self_holds(struct srcu_struct *ssp)
{
	unsigned long *c = lrcu_srcu_ctr(ssp);

	/* Our own counters: relaxed. */
	return c && (LRCU_READ_ONCE(c[0]) || LRCU_READ_ONCE(c[1]));
}

#ifdef __cplusplus
}
#endif

#endif /* RCU_STATIC_SRCU_H */
