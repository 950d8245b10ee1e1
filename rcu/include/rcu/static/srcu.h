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
 * srcu_read_lock_nmisafe(), srcu_down_read(), srcu_down_read_fast() and
 * domains for which no id or no memory was left use per-domain counters
 * instead (->srcu_shared): atomic increments of a lock and an unlock count
 * per index.  The value such a lock returns has LRCU_SRCU_SHARED set, so
 * any unlock call routes it back to them.
 *
 * SRCU-fast readers
 *
 * srcu_read_lock_fast() and srcu_read_lock_fast_updown() count exactly as
 * srcu_read_lock() does, srcu_down_read_fast() as srcu_down_read() does;
 * what differs is what they hand back: the counter itself (a struct
 * srcu_ctr pointer, as in the kernel), so that the unlock stores through
 * it without finding the thread's record again.  A per-thread counter's
 * pointer is &ctr[id][idx] (an unsigned long, never accessed as a struct
 * srcu_ctr); a shared one's is &->srcu_shared[idx], which the unlock tells
 * apart by its address.  The grace period is the same for every flavor
 * (rcu/src/srcu.c; docs/design/srcu.md says why nothing more is needed).
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

/* One index's shared counters (and, opaque to callers, what an SRCU-fast
 * lock returns: see "SRCU-fast readers" above). */
struct srcu_ctr {
	unsigned long lock;	/* sections begun on this index */
	unsigned long unlock;	/* ... and ended */
};

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
	int srcu_reader_flavor;		/* SRCU_READ_FLAVOR_FAST or _FAST_UPDOWN
					 * if defined for them, else 0 (const) */
	int srcu_flavor_seen;		/* CONFIG_PROVE_RCU: the first reader
					 * flavor used (set once, CAS) */
	char srcu_pad[LRCU_CACHELINE];	/* keep ->srcu_shared off the line above */
	struct srcu_ctr srcu_shared[2];	/* atomic read-modify-write */
};

/* A thread's reader record; the library's private fields follow dir[]. */
struct lrcu_srcu_page {
	unsigned long ctr[LRCU_SRCU_PER_PAGE][2];	/* owner stores, anyone loads;
							 * page-aligned (mmap()) */
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
LRCU_API void lrcu_srcu_unlock_fast_slow(struct srcu_struct *ssp, struct srcu_ctr *scp);

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

/* The section's exit from a per-thread counter; false (and nothing done)
 * if the count is zero: an unlock that matches no section. */
static inline bool lrcu_srcu_unlock_ctr(unsigned long *c)
{
	unsigned long v = LRCU_READ_ONCE(*c);	/* owner-only */

	if (LRCU_UNLIKELY(!v))
		return false;
	/*
	 * C: release: the section's accesses complete before the count
	 * drops; pairs with the acquire loads of the grace period's scan
	 * (srcu_readers_drained() in rcu/src/srcu_readers.c).
	 */
	LRCU_STORE_RELEASE(c, v - 1);
	return true;
}

static inline void lrcu_srcu_read_unlock_inline(struct srcu_struct *ssp, int idx)
{
	unsigned long *c;

	if (LRCU_UNLIKELY(idx & ~1)) {
		if ((idx & ~(LRCU_SRCU_SHARED | 1)) == 0)
			lrcu_srcu_unlock_shared(ssp, idx);
		else
			lrcu_srcu_read_unlock_slow(ssp, idx);	/* reports it */
		return;
	}
	c = lrcu_srcu_ctr(ssp);
	if (LRCU_UNLIKELY(!c || !lrcu_srcu_unlock_ctr(&c[idx])))
		lrcu_srcu_read_unlock_slow(ssp, idx);	/* reports it */
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

/* ------------------------------------------------------------------ */
/* SRCU-fast: sections named by their counter (see the top of this file) */

static inline struct srcu_ctr *lrcu_srcu_shared_ctr(struct srcu_struct *ssp, int v)
{
	return &ssp->srcu_shared[v & 1];
}

/* Is scp one of the domain's shared counters (else a per-thread one)? */
static inline bool lrcu_srcu_ctr_shared(struct srcu_struct *ssp, const struct srcu_ctr *scp)
{
	return (unsigned long)scp - (unsigned long)ssp->srcu_shared < sizeof(ssp->srcu_shared);
}

/*
 * The kernel's conversions between a counter and the small number the
 * torture packs into an int: here the value srcu_read_lock() would have
 * returned (the index, LRCU_SRCU_SHARED for the shared counters).  A
 * per-thread pair starts on a multiple of its size (pages are mapped
 * whole), so a counter's index is a bit of its address; the other way
 * needs the thread's counters, so it works only on the thread that holds
 * the section.
 */
static inline int __srcu_ptr_to_ctr(struct srcu_struct *ssp, struct srcu_ctr *scp)
{
	if (lrcu_srcu_ctr_shared(ssp, scp))
		return (int)(scp - ssp->srcu_shared) | LRCU_SRCU_SHARED;
	return (int)((unsigned long)scp / sizeof(unsigned long) & 1);
}

static inline struct srcu_ctr *__srcu_ctr_to_ptr(struct srcu_struct *ssp, int v)
{
	if (v & LRCU_SRCU_SHARED)
		return lrcu_srcu_shared_ctr(ssp, v);
	return (struct srcu_ctr *)(void *)(lrcu_srcu_ctr(ssp) + (v & 1));
}

/* srcu_read_lock(), handing back the counter it counted on. */
static inline struct srcu_ctr *lrcu_srcu_lock_fast(struct srcu_struct *ssp)
{
	unsigned long *c = lrcu_srcu_ctr(ssp);

	if (LRCU_UNLIKELY(!c))
		return __srcu_ctr_to_ptr(ssp, lrcu_srcu_read_lock_slow(ssp));
	return (struct srcu_ctr *)(void *)&c[lrcu_srcu_lock_ctr(ssp, c)];
}

/* srcu_down_read(), handing back the shared counter. */
static inline struct srcu_ctr *lrcu_srcu_down_fast(struct srcu_struct *ssp)
{
	return lrcu_srcu_shared_ctr(ssp, lrcu_srcu_lock_shared(ssp));
}

/* Is c this thread's counter of the domain (CONFIG_PROVE_RCU checks)? */
static inline bool lrcu_srcu_ctr_mine(struct srcu_struct *ssp, const unsigned long *c)
{
	const unsigned long *mine = lrcu_srcu_ctr(ssp);

	return mine && (c == mine || c == mine + 1);
}

/* The exit of any SRCU-fast section: through the counter it names. */
static inline void lrcu_srcu_unlock_fast(struct srcu_struct *ssp, struct srcu_ctr *scp)
{
	unsigned long *c = (unsigned long *)(void *)scp;

	if (LRCU_UNLIKELY(lrcu_srcu_ctr_shared(ssp, scp))) {
		lrcu_srcu_unlock_shared(ssp, (int)(scp - ssp->srcu_shared));
		return;
	}
#ifdef CONFIG_PROVE_RCU
	if (LRCU_UNLIKELY(!lrcu_srcu_ctr_mine(ssp, c))) {
		lrcu_srcu_unlock_fast_slow(ssp, scp);	/* reports it */
		return;
	}
#endif
	if (LRCU_UNLIKELY(!lrcu_srcu_unlock_ctr(c)))
		lrcu_srcu_unlock_fast_slow(ssp, scp);	/* reports it */
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
