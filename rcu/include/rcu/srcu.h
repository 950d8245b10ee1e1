/* SPDX-License-Identifier: MIT */
/*
 * rcu/srcu.h - sleepable RCU (SRCU) with the Linux kernel's API.
 *
 * Domains
 *   Each struct srcu_struct is a domain of its own: a grace period of one
 *   domain waits only for that domain's readers, so readers of one never
 *   delay another.  Define one statically with DEFINE_SRCU(name) or
 *   DEFINE_STATIC_SRCU(name) (usable at once, before anything else is
 *   initialised, no constructor), or initialise one in memory of your own
 *   with init_srcu_struct() and tear it down with cleanup_srcu_struct().
 *   Any number of domains may exist; the first 16128 alive at once get
 *   per-thread reader counters, any further ones fall back to shared
 *   counters (correct, with an atomic increment per lock and unlock).
 *   An idle domain costs nothing: no thread, no timer.
 *
 * Readers
 *   idx = srcu_read_lock(ssp); ... srcu_read_unlock(ssp, idx);
 *   The value srcu_read_lock() returns must be handed to the matching
 *   srcu_read_unlock() (sections of one domain may nest; each has its own
 *   value).  A handed-back value that no open section of this thread holds
 *   is reported ("rcu: WARNING: ...") and ignored.  Readers may block and
 *   sleep as long as they like, and need no registration: any thread may
 *   read, registered with RCU or not, online or offline.
 *   Cost: a few thread-local loads and one plain store each way; no
 *   atomic read-modify-write, no lock, and no fence where the kernel
 *   offers membarrier() (otherwise one fence per srcu_read_lock()).  The
 *   first section a thread runs in a domain takes a slow path that may
 *   map memory (mmap(); no malloc(), no lock).
 *
 *   Signal handlers: srcu_read_lock()/srcu_read_unlock() are async-signal-
 *   safe as long as the handler ends every section it begins, including a
 *   thread's first section in a domain: that slow path uses only mmap(),
 *   atomic instructions and, once per thread, pthread_setspecific() (which
 *   glibc does without allocating unless the process had already created
 *   32 thread-specific keys before SRCU's; only then should a thread's very
 *   first SRCU section not be a signal handler's).  srcu_read_lock_nmisafe()/
 *   srcu_read_unlock_nmisafe() never allocate at all (an atomic increment
 *   of per-domain counters each way).
 *
 *   srcu_down_read()/srcu_up_read(): a section that begins on one thread
 *   and ends on another (a semaphore-like handoff); shared counters.
 *   srcu_read_unlock() on a thread other than the one that locked is a
 *   misuse (reported); use these instead.
 *
 *   SRCU-fast (the kernel's srcu_read_lock_fast() family): on a domain
 *   defined with DEFINE_SRCU_FAST(), DEFINE_STATIC_SRCU_FAST() or
 *   init_srcu_struct_fast(),
 *     scp = srcu_read_lock_fast(ssp); ... srcu_read_unlock_fast(ssp, scp);
 *   on one defined with the _FAST_UPDOWN forms or init_srcu_struct_fast_updown(),
 *     scp = srcu_read_lock_fast_updown(ssp); ... srcu_read_unlock_fast_updown(ssp, scp);
 *     scp = srcu_down_read_fast(ssp); ... srcu_up_read_fast(ssp, scp);  (any thread)
 *   The lock hands back the counter it counted on (struct srcu_ctr *,
 *   opaque), so the unlock needs no lookup and, in release builds, checks
 *   only that the count is not zero: hand back exactly what the lock
 *   returned, on the same thread but for srcu_up_read_fast().  The kernel's
 *   fast readers spare the smp_mb() that its srcu_read_lock() has, its
 *   grace periods paying with synchronize_rcu(); here srcu_read_lock()
 *   already spares it (membarrier(), see "Readers" above), so the fast
 *   readers cost what it does, less the unlock's lookup, and their grace
 *   periods are the same (docs/design/srcu.md, "SRCU-fast").  The kernel's
 *   srcu_read_lock_lite() is gone from it (SRCU-fast replaced it) and is
 *   not provided.
 *
 *   Reader flavors (SRCU_READ_FLAVOR_*): srcu_read_lock() and
 *   srcu_down_read() are NORMAL, srcu_read_lock_nmisafe() is NMI,
 *   srcu_read_lock_fast() FAST, srcu_read_lock_fast_updown() and
 *   srcu_down_read_fast() FAST_UPDOWN.  As in the kernel, one domain takes
 *   one flavor, and the FAST ones only on a domain defined for them; built
 *   with -DCONFIG_PROVE_RCU, a second flavor on a domain, or a flavor its
 *   definition does not allow, is reported ("rcu: WARNING: ...", counted
 *   by lrcu_misuse_count()) as the kernel's srcu_check_read_flavor() does.
 *
 *   A thread that exits inside a section is reported; its sections end
 *   with it.  After fork(), only the calling thread exists in the child:
 *   the sections other threads had open end there (not reported), except
 *   srcu_down_read() and srcu_read_lock_nmisafe() sections, which belong
 *   to no thread and stay open in the child.
 *
 * Update side
 *   synchronize_srcu(ssp) waits until every section of the domain that
 *   began before the call has ended.  Concurrent callers share grace
 *   periods; there is no thread per domain: the caller drives the grace
 *   period itself, and one library thread ("srcu_worker") drives the
 *   grace periods of call_srcu() and start_poll_synchronize_srcu() and runs
 *   the callbacks of every domain.  synchronize_srcu_expedited() scans
 *   without sleeping between scans (yielding the CPU) for up to 2 ms,
 *   then every millisecond; plain grace periods back off from 50 us to
 *   5 ms between scans while readers hold them up.
 *
 *   call_srcu(ssp, head, func) runs func(head) on the srcu_worker thread
 *   after a grace period.  srcu_barrier(ssp) waits until every callback
 *   queued on the domain before it has run.  Callbacks must be short and
 *   must not block: the one worker runs every domain's callbacks.  The
 *   worker is not an RCU-registered thread: use SRCU readers (any domain),
 *   call_rcu() or call_srcu() in a callback, not rcu_read_lock().
 *
 *   Extreme caution (the kernel's words) with call_srcu() and
 *   srcu_barrier(): SRCU readers may block indefinitely, and then so do
 *   grace periods, callbacks and srcu_barrier().  The library itself stays
 *   bounded whatever the readers do: a callback costs no memory beyond
 *   its rcu_head, pending callbacks wait in at most four segments (one per
 *   pending grace period), and grace-period requests are a single
 *   counter.  The objects your callbacks will free stay allocated until
 *   the readers finish; srcu_barrier() returns once they have.  Teardown:
 *   stop calling call_srcu(), srcu_barrier(), then cleanup_srcu_struct().
 *
 *   Polling: get_state_synchronize_srcu() returns a cookie (starts
 *   nothing), start_poll_synchronize_srcu() also makes sure the grace
 *   period it needs happens, poll_state_synchronize_srcu(ssp, cookie)
 *   says whether a full grace period has elapsed since the cookie was
 *   taken (then the caller is ordered after every reader that predated
 *   it).  Cookies are 64-bit and never wrap in practice;
 *   RCU_GET_STATE_COMPLETED always polls as complete.
 *
 * Deadlocks
 *   synchronize_srcu() and srcu_barrier() inside a read-side section of
 *   the same domain would wait for themselves: the library prints
 *   "rcu: BUG: ..." naming the domain and aborts (every build, not only
 *   debug ones).  So does calling them from an SRCU callback or inside
 *   rcu_read_lock_sched(), and cleanup_srcu_struct() from an SRCU callback.
 *
 *   Across domains (the kernel's Quick Quiz 4): a synchronize_srcu() on
 *   domain B inside a reader of domain A is legal, but a cycle deadlocks
 *   (built with -DCONFIG_PROVE_LOCKING, make DEBUG=1, the library's
 *   lock-dependency checking reports such a cycle the first time both
 *   halves have run, on any threads: <rcu/lockdep.h>):
 *
 *       thread 1                        thread 2
 *       idx = srcu_read_lock(&ssa);     idx = srcu_read_lock(&ssb);
 *       synchronize_srcu(&ssb);         synchronize_srcu(&ssa);
 *       srcu_read_unlock(&ssa, idx);    srcu_read_unlock(&ssb, idx);
 *
 *   A's readers wait for a B grace period, which waits for B's readers,
 *   which wait for an A grace period, which waits for A's readers.  The
 *   same holds for cycles through other flavors (synchronize_rcu() inside
 *   an SRCU reader while an rcu reader calls synchronize_srcu()).  Keep
 *   the "waits for" graph acyclic; simplest, do not call synchronize_*()
 *   inside read-side sections.
 *
 * Memory ordering
 *   srcu_read_lock() orders the section after it and srcu_read_unlock()
 *   orders the section before it (release), which is all a reader needs;
 *   srcu_read_unlock() is not a full barrier: smp_mb__after_srcu_read_unlock()
 *   makes the unlock plus what follows one (it is LRCU_SMP_MB() here).
 *   synchronize_srcu() (and a poll that returns true) is a full barrier
 *   on both sides of the grace period, as in the kernel.
 */
#ifndef RCU_SRCU_H
#define RCU_SRCU_H

#include <stdbool.h>
#include <stdio.h>
#include <rcu/lockdep.h>
#include <rcu/rcupdate.h>
#include <rcu/static/srcu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Library entry points (exported, prefixed).                           */

LRCU_API int lrcu_init_srcu_struct(struct srcu_struct *ssp, const char *name, int flavor);
LRCU_API void lrcu_cleanup_srcu_struct(struct srcu_struct *ssp);
LRCU_API void lrcu_synchronize_srcu(struct srcu_struct *ssp, bool expedited, const char *caller);
LRCU_API void lrcu_call_srcu(struct srcu_struct *ssp, struct rcu_head *head, rcu_callback_t func);
LRCU_API void lrcu_srcu_barrier(struct srcu_struct *ssp);
LRCU_API unsigned long lrcu_get_state_synchronize_srcu(struct srcu_struct *ssp);
LRCU_API unsigned long lrcu_start_poll_synchronize_srcu(struct srcu_struct *ssp);
LRCU_API bool lrcu_poll_state_synchronize_srcu(struct srcu_struct *ssp, unsigned long cookie);
LRCU_API void lrcu_srcu_expedite_current(struct srcu_struct *ssp);
LRCU_API unsigned long lrcu_srcu_batches_completed(struct srcu_struct *ssp);
LRCU_API void lrcu_srcu_check_read_flavor(struct srcu_struct *ssp, int read_flavor);

/* ------------------------------------------------------------------ */
/* Reader flavors (the kernel's values, also rcutorture.reader_flavor's) */

#define SRCU_READ_FLAVOR_NORMAL		0x1	/* srcu_read_lock(), srcu_down_read() */
#define SRCU_READ_FLAVOR_NMI		0x2	/* srcu_read_lock_nmisafe() */
#define SRCU_READ_FLAVOR_FAST		0x4	/* srcu_read_lock_fast() */
#define SRCU_READ_FLAVOR_FAST_UPDOWN	0x8	/* srcu_read_lock_fast_updown(),
						 * srcu_down_read_fast() */
#define SRCU_READ_FLAVOR_ALL		0xf	/* all of the above */
/* The flavors a domain must be defined for (in the kernel, those whose
 * grace periods use synchronize_rcu() instead of smp_mb()). */
#define SRCU_READ_FLAVOR_SLOWGP		(SRCU_READ_FLAVOR_FAST | SRCU_READ_FLAVOR_FAST_UPDOWN)

/*
 * The kernel's srcu_check_read_flavor(): with CONFIG_PROVE_RCU, report a
 * domain's second reader flavor, and a flavor its definition does not
 * allow (the first use of each is checked out of line).
 */
#ifdef CONFIG_PROVE_RCU
static inline void srcu_check_read_flavor(struct srcu_struct *ssp, int read_flavor)
{
	/* Relaxed: a debug check; the out-of-line one records with a CAS. */
	if (LRCU_UNLIKELY(LRCU_READ_ONCE(ssp->srcu_flavor_seen) != read_flavor))
		lrcu_srcu_check_read_flavor(ssp, read_flavor);
}
#else
static inline void srcu_check_read_flavor(struct srcu_struct *ssp, int read_flavor)
{
	(void)ssp;
	(void)read_flavor;
}
#endif

/* ------------------------------------------------------------------ */
/* Domains                                                              */

/* A domain usable at once (no init_srcu_struct(); never cleaned up); the
 * _FAST forms for srcu_read_lock_fast() readers, the _FAST_UPDOWN forms
 * for srcu_read_lock_fast_updown() and srcu_down_read_fast() ones. */
#define LRCU_SRCU_INIT(name, flavor)	{ .srcu_name = #name, .srcu_reader_flavor = (flavor) }
#define DEFINE_SRCU(name)		struct srcu_struct name = LRCU_SRCU_INIT(name, 0)
#define DEFINE_STATIC_SRCU(name)	static struct srcu_struct name = LRCU_SRCU_INIT(name, 0)
#define DEFINE_SRCU_FAST(name)							\
	struct srcu_struct name = LRCU_SRCU_INIT(name, SRCU_READ_FLAVOR_FAST)
#define DEFINE_STATIC_SRCU_FAST(name)						\
	static struct srcu_struct name = LRCU_SRCU_INIT(name, SRCU_READ_FLAVOR_FAST)
#define DEFINE_SRCU_FAST_UPDOWN(name)						\
	struct srcu_struct name = LRCU_SRCU_INIT(name, SRCU_READ_FLAVOR_FAST_UPDOWN)
#define DEFINE_STATIC_SRCU_FAST_UPDOWN(name)					\
	static struct srcu_struct name = LRCU_SRCU_INIT(name, SRCU_READ_FLAVOR_FAST_UPDOWN)

/*
 * Initialise a domain in memory of your own; returns 0, or -ENOMEM.  The
 * domain's name in messages is the argument's text.  Not for DEFINE_SRCU()
 * domains.  The _fast forms as the DEFINE_ ones above.
 */
#define init_srcu_struct(ssp)		lrcu_init_srcu_struct((ssp), #ssp, 0)
#define init_srcu_struct_fast(ssp)	lrcu_init_srcu_struct((ssp), #ssp, SRCU_READ_FLAVOR_FAST)
#define init_srcu_struct_fast_updown(ssp)					\
	lrcu_init_srcu_struct((ssp), #ssp, SRCU_READ_FLAVOR_FAST_UPDOWN)

/*
 * Tear a domain down (its memory is then yours again).  Readers still
 * inside, callbacks still queued or a synchronize_srcu() still waiting are
 * each reported as "rcu: BUG: cleanup_srcu_struct(NAME): ..." (and counted
 * by lrcu_misuse_count()); the library frees what it holds all the same.
 * Queued callbacks are then never invoked, and the domain's id is never
 * reused (its open readers' counts would otherwise leak into a new domain).
 */
static inline void cleanup_srcu_struct(struct srcu_struct *ssp) { lrcu_cleanup_srcu_struct(ssp); }

/* ------------------------------------------------------------------ */
/* Read side                                                            */

static inline int srcu_read_lock(struct srcu_struct *ssp)
{
	int idx;

	srcu_check_read_flavor(ssp, SRCU_READ_FLAVOR_NORMAL);
	idx = lrcu_srcu_read_lock_inline(ssp);
	lrcu_srcu_dep_acquire(ssp, "srcu_read_lock");	/* <rcu/lockdep.h> */
	return idx;
}
static inline void srcu_read_unlock(struct srcu_struct *ssp, int idx)
{
	srcu_check_read_flavor(ssp, SRCU_READ_FLAVOR_NORMAL);
	lrcu_srcu_dep_release(ssp);
	lrcu_srcu_read_unlock_inline(ssp, idx);
}

/* Async-signal-safe without any allocation: per-domain atomic counters. */
static inline int srcu_read_lock_nmisafe(struct srcu_struct *ssp)
{
	int idx;

	srcu_check_read_flavor(ssp, SRCU_READ_FLAVOR_NMI);
	idx = lrcu_srcu_lock_shared(ssp);
	lrcu_srcu_nmi_nesting++;	/* this thread only (srcu_read_lock_held()) */
	lrcu_srcu_dep_acquire(ssp, "srcu_read_lock_nmisafe");
	return idx;
}
static inline void srcu_read_unlock_nmisafe(struct srcu_struct *ssp, int idx)
{
	srcu_check_read_flavor(ssp, SRCU_READ_FLAVOR_NMI);
	lrcu_srcu_dep_release(ssp);
	lrcu_srcu_nmi_nesting--;
	lrcu_srcu_read_unlock_inline(ssp, idx);
}

/* A section that may end on another thread. */
static inline int srcu_down_read(struct srcu_struct *ssp)
{
	srcu_check_read_flavor(ssp, SRCU_READ_FLAVOR_NORMAL);
	return lrcu_srcu_lock_shared(ssp);
}
static inline void srcu_up_read(struct srcu_struct *ssp, int idx)
{
	srcu_check_read_flavor(ssp, SRCU_READ_FLAVOR_NORMAL);
	lrcu_srcu_read_unlock_inline(ssp, idx);
}

/* SRCU-fast (see the top of this file). */
static inline struct srcu_ctr *srcu_read_lock_fast(struct srcu_struct *ssp)
{
	struct srcu_ctr *scp;

	srcu_check_read_flavor(ssp, SRCU_READ_FLAVOR_FAST);
	scp = lrcu_srcu_lock_fast(ssp);
	lrcu_srcu_dep_acquire(ssp, "srcu_read_lock_fast");
	return scp;
}
static inline void srcu_read_unlock_fast(struct srcu_struct *ssp, struct srcu_ctr *scp)
{
	srcu_check_read_flavor(ssp, SRCU_READ_FLAVOR_FAST);
	lrcu_srcu_dep_release(ssp);
	lrcu_srcu_unlock_fast(ssp, scp);
}
static inline struct srcu_ctr *srcu_read_lock_fast_updown(struct srcu_struct *ssp)
{
	struct srcu_ctr *scp;

	srcu_check_read_flavor(ssp, SRCU_READ_FLAVOR_FAST_UPDOWN);
	scp = lrcu_srcu_lock_fast(ssp);
	lrcu_srcu_dep_acquire(ssp, "srcu_read_lock_fast_updown");
	return scp;
}
static inline void srcu_read_unlock_fast_updown(struct srcu_struct *ssp, struct srcu_ctr *scp)
{
	srcu_check_read_flavor(ssp, SRCU_READ_FLAVOR_FAST_UPDOWN);
	lrcu_srcu_dep_release(ssp);
	lrcu_srcu_unlock_fast(ssp, scp);
}
/* An SRCU-fast section that may end on another thread (shared counters). */
static inline struct srcu_ctr *srcu_down_read_fast(struct srcu_struct *ssp)
{
	srcu_check_read_flavor(ssp, SRCU_READ_FLAVOR_FAST_UPDOWN);
	return lrcu_srcu_down_fast(ssp);
}
static inline void srcu_up_read_fast(struct srcu_struct *ssp, struct srcu_ctr *scp)
{
	srcu_check_read_flavor(ssp, SRCU_READ_FLAVOR_FAST_UPDOWN);
	lrcu_srcu_unlock_fast(ssp, scp);
}

/*
 * Is this thread inside a read-side section of the domain?  Exact for
 * srcu_read_lock(), srcu_read_lock_fast() and _fast_updown() sections;
 * srcu_read_lock_nmisafe() sections count for every domain;
 * srcu_down_read() and srcu_down_read_fast() sections are not counted
 * (they belong to no thread).
 */
static inline int srcu_read_lock_held(struct srcu_struct *ssp)
{
	return lrcu_srcu_self_holds(ssp) || lrcu_srcu_nmi_nesting != 0;
}

/* srcu_read_unlock() is a release store, not a full barrier: this makes
 * the unlock and what follows one. */
#define smp_mb__after_srcu_read_unlock()	LRCU_SMP_MB()

/*
 * srcu_dereference_check(p, ssp, c): rcu_dereference() for an SRCU
 * reader of ssp, or where c holds.  Built with -DCONFIG_PROVE_RCU, a
 * dereference outside such a section splats ("suspicious
 * srcu_dereference_check() usage").
 */
#define srcu_dereference_check(p, ssp, c) ({				\
	RCU_LOCKDEP_WARN(!((c) || srcu_read_lock_held(ssp)),		\
			 "suspicious srcu_dereference_check() usage");	\
	LRCU_DEREFERENCE_LOAD(p);					\
})
#define srcu_dereference(p, ssp)	srcu_dereference_check((p), (ssp), 0)
#define srcu_dereference_notrace(p, ssp) srcu_dereference_check((p), (ssp), 1)

/* ------------------------------------------------------------------ */
/* Update side                                                          */

static inline void synchronize_srcu(struct srcu_struct *ssp)
{
	lrcu_synchronize_srcu(ssp, false, "synchronize_srcu");
}
static inline void synchronize_srcu_expedited(struct srcu_struct *ssp)
{
	lrcu_synchronize_srcu(ssp, true, "synchronize_srcu_expedited");
}
static inline void call_srcu(struct srcu_struct *ssp, struct rcu_head *head, rcu_callback_t func)
{
	lrcu_call_srcu(ssp, head, func);
}
static inline void srcu_barrier(struct srcu_struct *ssp) { lrcu_srcu_barrier(ssp); }
/* The kernel's: expedite the grace period in progress (or start one,
 * expedited); the synchronize_srcu() driving it stops sleeping between
 * scans.  Returns at once. */
static inline void srcu_expedite_current(struct srcu_struct *ssp)
{
	lrcu_srcu_expedite_current(ssp);
}

/* Polled grace periods (see the top of this file). */
static inline unsigned long get_state_synchronize_srcu(struct srcu_struct *ssp)
{
	return lrcu_get_state_synchronize_srcu(ssp);
}
static inline unsigned long start_poll_synchronize_srcu(struct srcu_struct *ssp)
{
	return lrcu_start_poll_synchronize_srcu(ssp);
}
static inline bool poll_state_synchronize_srcu(struct srcu_struct *ssp, unsigned long cookie)
{
	return lrcu_poll_state_synchronize_srcu(ssp, cookie);
}

/* Grace periods the domain has completed. */
static inline unsigned long srcu_batches_completed(struct srcu_struct *ssp)
{
	return lrcu_srcu_batches_completed(ssp);
}

/* ------------------------------------------------------------------ */
/* Diagnostics (not kernel API)                                         */

struct lrcu_srcu_stats {
	unsigned long gp_seq;		/* the domain's grace-period sequence */
	unsigned long gps_completed;	/* grace periods since initialisation */
	unsigned long exp_gps;		/* ... of which driven expedited */
	unsigned long gp_max_us;	/* longest grace period */
	unsigned long scans;		/* reader scans (two per idle grace period) */
	unsigned long cbs_queued;	/* call_srcu() so far */
	unsigned long cbs_invoked;	/* callbacks run so far */
	unsigned long cbs_pending;	/* queued, not yet run */
	unsigned long barriers;		/* srcu_barrier() passes performed */
	unsigned long readers[2];	/* sections open per index, right now */
	unsigned long idx;		/* the index new readers use */
	unsigned long id;		/* the domain's id (LRCU_SRCU_ID_*: none) */
};
/* Fill *st; 0, or -1 if the domain has no update-side state yet. */
LRCU_API int lrcu_srcu_get_stats(struct srcu_struct *ssp, struct lrcu_srcu_stats *st);
/* The domain's grace-period sequence (low two bits: state), unordered. */
LRCU_API unsigned long lrcu_srcu_get_gp_seq(struct srcu_struct *ssp);
/* One line for rcutorture's stats block: "Tree SRCU g... per-thread(idx=N): ..." */
LRCU_API void lrcu_srcu_torture_stats(struct srcu_struct *ssp, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* RCU_SRCU_H */
