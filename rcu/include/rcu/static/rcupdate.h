/* SPDX-License-Identifier: MIT */
/*
 * rcu/static/rcupdate.h - inline read-side fast paths.
 *
 * Included by <rcu/rcupdate.h>; do not include directly.  These inlines are
 * compiled into the caller, so they are part of the library's ABI: a
 * program must be rebuilt when this header's layout changes.
 *
 * Each thread (the userspace "CPU") owns one struct lrcu_reader in
 * thread-local storage, but its reader words (struct lrcu_rword) live where
 * ->rw points: for a registered thread, its slot's line of one dense array
 * (registry.c), so that a grace period reads consecutive lines instead of
 * one line, and often one TLB entry, per thread's TLS block; for a thread
 * that is not registered, its own ->own.  The grace-period thread of each
 * flavor reads the word through a pointer held in the slot's rcu_data.
 *
 * Reader word layout (one 64-bit word per flavor, written only by its owner
 * with single stores so that a signal handler that nests a reader always
 * restores the exact value it found):
 *
 *   bits  0..15  nesting depth; 0 = quiescent (not in a read-side section)
 *   bit   16     LRCU_W_REG: set while the thread is registered and has
 *                joined the rcu flavor (its first rcu_read_lock() after
 *                registering: lrcu_read_lock_join())
 *   bits 17..63  low 47 bits of the flavor's gp_seq sampled when the
 *                outermost section began (rcu) or at the last quiescent
 *                state (sched)
 *
 * The grace-period thread treats a slot as quiescent for the grace period
 * that started at gp_seq value `gstart' when the nesting is 0 or the sample
 * is at or after `gstart' (the reader began after the GP started, so it
 * cannot hold a reference to anything removed before it).  See
 * lrcu_word_qs() in rcu/src/rcu_seq.h.
 */
#ifndef RCU_STATIC_RCUPDATE_H
#define RCU_STATIC_RCUPDATE_H

#include <rcu/compiler.h>
#include <rcu/types.h>

#define LRCU_W_NEST_MASK	0xffffUL
#define LRCU_W_REG		(1UL << 16)
#define LRCU_W_SEQ_SHIFT	17

/* Thread state flags (owner-only). */
#define LRCU_R_REGISTERED	0x1	/* holds a slot: rcu_register_thread() */
#define LRCU_R_OFFLINE		0x2	/* extended quiescent state */
#define LRCU_R_SCHED_JOINED	0x4	/* has used the sched flavor */
#define LRCU_R_IN_CALLBACK	0x8	/* running an RCU callback */
#define LRCU_R_SCHED_INMASK	0x10	/* its bit is in the sched leaf's
					 * ->joinmask (registry.c) */

/*
 * ->sched_nesting (owner-only): the rcu_read_lock_sched() depth, and two
 * state bits the markers test in the same load.  LRCU_SN_ONLINE mirrors
 * "ctr[LRCU_SCHED] != 0" (joined and not in an extended quiescent state):
 * whoever stores the word updates it (sched_go_online/offline()).
 * LRCU_SN_MOMENTARY: the section was entered while offline, so the thread
 * is online only until its outermost unlock (lrcu_sched_exit_slow()).
 */
#define LRCU_SN_DEPTH		0x3fffffffU
#define LRCU_SN_MOMENTARY	0x40000000U
#define LRCU_SN_ONLINE		0x80000000U

/*
 * One thread's reader words, on a line of their own: the owner writes
 * them, the flavors' grace periods read them and write need_qs.
 */
struct lrcu_rword {
	/*
	 * ctr[f]: reader word of flavor f (layout above).  Written by the
	 * owner only; read by flavor f's grace-period thread.
	 * ctr[LRCU_SCHED] is 0 while the thread is in an extended quiescent
	 * state or has never used the sched flavor.
	 */
	unsigned long ctr[LRCU_NR_FLAVORS];
	/*
	 * need_qs[f]: set by flavor f's grace-period thread when this thread
	 * holds up a grace period; the owner's outermost unlock (rcu) or next
	 * quiescent state (sched) sees it and reports.
	 */
	int need_qs[LRCU_NR_FLAVORS];
} __attribute__((aligned(LRCU_CACHELINE)));

struct lrcu_reader {
	/*
	 * The words this thread's markers write: its slot's line while it is
	 * registered, else &->own; NULL until the first marker binds it to
	 * ->own (lrcu_rw()).  Owner-only (a signal handler of the owner may
	 * bind it too, to the same value).
	 */
	struct lrcu_rword *rw;
	unsigned int sched_nesting;	/* depth | LRCU_SN_* (owner) */
	unsigned int flags;		/* LRCU_R_* (owner) */
	int slot;			/* thread slot ("CPU" number), -1 if none */
	struct lrcu_rword own;		/* the words while not registered */
} __attribute__((aligned(LRCU_CACHELINE)));

/* Per-flavor published grace-period sequence, on its own cache line. */
struct lrcu_gp_pub {
	unsigned long seq;
} __attribute__((aligned(LRCU_CACHELINE)));

LRCU_API extern __thread struct lrcu_reader lrcu_reader;
LRCU_API extern struct lrcu_gp_pub lrcu_gp_pub[LRCU_NR_FLAVORS];
/* Set once at init, before any thread registers; 1 if readers may rely on
 * sys_membarrier() instead of fences.  SRCU readers need no registration
 * and may run before init, so it is read with relaxed atomic loads. */
LRCU_API extern int lrcu_has_membarrier;

LRCU_API void lrcu_read_unlock_special(enum lrcu_flavor f);
LRCU_API unsigned long lrcu_read_lock_join(void);
LRCU_API void lrcu_read_misuse(const char *what);
LRCU_API void lrcu_qs_special(void);
LRCU_API void lrcu_qs_slow(void);
LRCU_API unsigned int lrcu_sched_enter_slow(void);
LRCU_API void lrcu_sched_exit_slow(void);

#ifdef LRCU_INJECT
/* Deliberate-bug builds only (make INJECT=1, rcu/src/inject.h): set when
 * rcutree.inject names a bug that lives in these inlines. */
LRCU_API extern int lrcu_inject_no_reader_fence;	/* reader_fence */
LRCU_API extern int lrcu_inject_nested_qs;	/* nested_qs */
LRCU_API void lrcu_inject_nested_unlock(void);
#endif

/*
 * Reader-side fence.  With sys_membarrier() the updater pays: it forces a
 * fence on every running thread of the process before it looks at reader
 * words, so the reader needs only a compiler barrier.  Without it (never
 * under ThreadSanitizer: see <rcu/compiler.h>) the reader fences itself.
 */
static inline void lrcu_reader_fence(void)
{
	/* Relaxed: a flag set once; see lrcu__membarrier_init(). */
	if (LRCU_LIKELY(LRCU_READ_ONCE(lrcu_has_membarrier)))
		LRCU_BARRIER();
#ifdef LRCU_INJECT
	else if (lrcu_inject_no_reader_fence)
		LRCU_BARRIER();	/* INJECTED: the fence is missing */
#endif
	else
		LRCU_SMP_MB();	/* the caller names its pair */
}

/* This thread's reader words (binding an unregistered thread's on first use). */
static inline struct lrcu_rword *lrcu_rw(void)
{
	struct lrcu_rword *rw = lrcu_reader.rw;

	if (LRCU_UNLIKELY(!rw))
		rw = lrcu_reader.rw = &lrcu_reader.own;
	return rw;
}

static inline void lrcu_read_lock_inline(void)
{
	struct lrcu_rword *r = lrcu_rw();
	unsigned long w = LRCU_READ_ONCE(r->ctr[LRCU_PREEMPT]);

	/*
	 * No likely()/unlikely() on the outermost-or-nested tests here and
	 * in rcu_read_unlock(): hinted, GCC put both nested paths out of
	 * line, so a nested pair took four taken jumps and cost 1.1-1.6x an
	 * outermost pair on an AMD EPYC (refscale's nested column, whose
	 * target is at most 1x).  Unhinted, each kind of pair takes two:
	 * nested 0.72x, the outermost pair's cost unchanged.
	 */
	if (!(w & LRCU_W_NEST_MASK)) {
		unsigned long s;

		/* REG clear: a registered thread's first section joins
		 * the flavor (and fences) here; an unregistered thread's
		 * sections are each reported (and counted). */
		if (LRCU_UNLIKELY(!(w & LRCU_W_REG)))
			w |= lrcu_read_lock_join();
		/*
		 * Acquire pairs with the release store that starts a grace
		 * period (rcu_seq_start): a reader that sees the new GP also
		 * sees every removal made before it, so the GP may ignore it.
		 */
		s = LRCU_LOAD_ACQUIRE(&lrcu_gp_pub[LRCU_PREEMPT].seq);
		/*
		 * Release (a plain store on x86): the previous sections are
		 * over before a word showing the new grace period, which any
		 * scan counts as quiescent; pairs with the scans' acquire
		 * load (leaf_qs() in tree.c), before the grace period's heavy
		 * fence or after it (the fence may have come while the
		 * previous section was still inside: rcu/formal's
		 * relaxed-lock mutant).  The fence below orders it before
		 * this section's loads.
		 */
		LRCU_STORE_RELEASE(&r->ctr[LRCU_PREEMPT],
				   (s << LRCU_W_SEQ_SHIFT) | (w & LRCU_W_REG) | 1);
		/*
		 * Word store before the section's loads; pairs with G, the
		 * membarrier()/LRCU_SMP_MB() the GP thread issues before it
		 * reads reader words (gp_scan_prepare() in rcu/src/tree.c).
		 */
		lrcu_reader_fence();	/* pairs with G (tree.c) */
	} else {
#ifdef CONFIG_PROVE_RCU
		if (LRCU_UNLIKELY((w & LRCU_W_NEST_MASK) == LRCU_W_NEST_MASK))
			lrcu_read_misuse("rcu_read_lock() nesting overflow");
#endif
		/* Nested: only the depth changes; nobody orders against it. */
		LRCU_WRITE_ONCE(r->ctr[LRCU_PREEMPT], w + 1);
	}
}

static inline void lrcu_read_unlock_inline(void)
{
	struct lrcu_rword *r = lrcu_rw();
	unsigned long w = LRCU_READ_ONCE(r->ctr[LRCU_PREEMPT]);

#ifdef CONFIG_PROVE_RCU
	if (LRCU_UNLIKELY(!(w & LRCU_W_NEST_MASK))) {
		lrcu_read_misuse("rcu_read_unlock() without matching rcu_read_lock()");
		return;
	}
#endif
	if ((w & LRCU_W_NEST_MASK) == 1) {
		/*
		 * Release: the section's loads complete before the word says
		 * quiescent; pairs with the acquire load in gp_scan_leaf().
		 */
		LRCU_STORE_RELEASE(&r->ctr[LRCU_PREEMPT], w - 1);
		/*
		 * Word store before the need_qs load; pairs with G, the GP
		 * thread's need_qs store + membarrier()/LRCU_SMP_MB() + word
		 * load (gp_force_qs() in rcu/src/tree.c), so either it sees
		 * us quiescent or we see its request and wake it.
		 */
		lrcu_reader_fence();	/* pairs with G (tree.c) */
		/* Relaxed: after the fence above. */
		if (LRCU_UNLIKELY(LRCU_READ_ONCE(r->need_qs[LRCU_PREEMPT])))
			lrcu_read_unlock_special(LRCU_PREEMPT);
	} else {
		LRCU_WRITE_ONCE(r->ctr[LRCU_PREEMPT], w - 1);
#ifdef LRCU_INJECT
		if (LRCU_UNLIKELY(lrcu_inject_nested_qs))
			lrcu_inject_nested_unlock();	/* INJECTED: reports while inside */
#endif
	}
}

#if defined(LRCU_SCHED_FREE_MARKERS) && !defined(CONFIG_PROVE_RCU)
/*
 * rcu_sched with free markers (a program that defines
 * LRCU_SCHED_FREE_MARKERS before including <rcu/rcupdate.h>, outside
 * CONFIG_PROVE_RCU builds): the section is the span between the thread's
 * quiescent states, as in liburcu-qsbr, so the markers only keep the
 * compiler from moving the section's accesses across them.  The thread
 * must be online in the flavor while it reads (see rcupdate.h): nothing
 * here can make it so, and nothing counts the depth.
 */
static inline void lrcu_read_lock_sched_inline(void)
{
	LRCU_BARRIER();	/* keep the section's accesses after the marker */
}

static inline void lrcu_read_unlock_sched_inline(void)
{
	LRCU_BARRIER();	/* keep the section's accesses before the marker */
}
#else
/*
 * rcu_sched: the read-side markers only count nesting (for the lockdep-style
 * checks and for the checks in the update-side calls).  Protection comes
 * from the thread not announcing a quiescent state while inside.
 */
static inline void lrcu_read_lock_sched_inline(void)
{
	/* Named directly, not through a pointer: one %fs-relative access. */
	unsigned int n = lrcu_reader.sched_nesting;

	/* First use of the flavor by this thread, or a section while
	 * offline (a signal handler's), or misuse while unregistered. */
	if (LRCU_UNLIKELY(!(n & LRCU_SN_ONLINE))) {
#ifdef LRCU_SCHED_FREE_MARKERS
		/* The debug build of a free-marker program: its release
		 * build would read unprotected here. */
		lrcu_read_misuse("rcu_read_lock_sched() on a thread not online in rcu_sched "
				 "(LRCU_SCHED_FREE_MARKERS: call rcu_quiescent_state() first)");
#endif
		n = lrcu_sched_enter_slow();
	}
	lrcu_reader.sched_nesting = n + 1;
	LRCU_BARRIER();	/* keep the section's accesses after the marker */
}

static inline void lrcu_read_unlock_sched_inline(void)
{
	unsigned int n;

	LRCU_BARRIER();	/* keep the section's accesses before the marker */
	n = lrcu_reader.sched_nesting;
#ifdef CONFIG_PROVE_RCU
	if (LRCU_UNLIKELY(!(n & LRCU_SN_DEPTH))) {
		lrcu_read_misuse("rcu_read_unlock_sched() without matching rcu_read_lock_sched()");
		return;
	}
#endif
	lrcu_reader.sched_nesting = --n;
	/* The outermost unlock of a momentary section: back offline. */
	if (LRCU_UNLIKELY(n == (LRCU_SN_ONLINE | LRCU_SN_MOMENTARY)))
		lrcu_sched_exit_slow();
}
#endif /* LRCU_SCHED_FREE_MARKERS */

static inline void lrcu_quiescent_state_inline(void)
{
	struct lrcu_rword *r;
	unsigned long w, s, nw;

	/* Not joined yet or offline (!LRCU_SN_ONLINE), or inside a sched
	 * section (depth != 0). */
	if (LRCU_UNLIKELY(lrcu_reader.sched_nesting != LRCU_SN_ONLINE)) {
		lrcu_qs_slow();
		return;
	}
	r = lrcu_reader.rw;	/* online: registered, so its slot's line */
	w = LRCU_READ_ONCE(r->ctr[LRCU_SCHED]);
	/*
	 * Acquire pairs with rcu_seq_start()'s release store (as in
	 * rcu_read_lock()).  If no grace period started since our last
	 * quiescent state there is nothing new to announce.
	 */
	s = LRCU_LOAD_ACQUIRE(&lrcu_gp_pub[LRCU_SCHED].seq);
	nw = (s << LRCU_W_SEQ_SHIFT) | LRCU_W_REG | 1;
	if (nw == w && !LRCU_READ_ONCE(r->need_qs[LRCU_SCHED]))
		return;
	/*
	 * Prior sched sections complete before the new word is visible;
	 * pairs with the GP thread's acquire load of the word.
	 */
	LRCU_SMP_MB();
	LRCU_WRITE_ONCE(r->ctr[LRCU_SCHED], nw);	/* between fences */
	/*
	 * Word store before later sections' loads and before the need_qs
	 * load; pairs with G, the GP thread's LRCU_SMP_MB() between its
	 * need_qs store and word load (gp_scan_prepare() in rcu/src/tree.c).
	 */
	LRCU_SMP_MB();	/* pairs with G (tree.c) */
	if (LRCU_UNLIKELY(LRCU_READ_ONCE(r->need_qs[LRCU_SCHED])))	/* after it */
		lrcu_qs_special();
}

#endif /* RCU_STATIC_RCUPDATE_H */
