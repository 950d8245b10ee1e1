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
 * that is not registered, its own ->own (bound by its first section; until
 * then ->rw points to words of the library's, all zero and read-only, so
 * that the markers never test for NULL).  The grace-period thread of each
 * flavor reads the word through a pointer held in the slot's rcu_data.
 *
 * Reader word layout (one 64-bit word per flavor, written only by its owner
 * with single stores so that a signal handler that nests a reader always
 * restores the exact value it found):
 *
 *   bits  0..15  nesting depth; 0 = quiescent (not in a read-side section)
 *   bit   16     LRCU_W_REG: rcu: the outermost rcu_read_lock() may take
 *                the fast path: the thread is registered, has joined the
 *                flavor (its first section after registering) and needs
 *                no fence of its own (membarrier()); clear, it goes
 *                through lrcu_read_lock_slow() and fences.  sched: set
 *                in every online word.
 *   bits 17..63  low 47 bits of the flavor's gp_seq sampled when the
 *                outermost section began (rcu) or at the last quiescent
 *                state (sched)
 *
 * The fast path stores lrcu_gp_pub[].word, the flavor's gp_seq already in
 * this layout (REG, depth 1), published right after each change of
 * gp_seq: one load and one store, no arithmetic between them.
 *
 * The grace-period thread treats a slot as quiescent for the grace period
 * that started at gp_seq value `gstart' when the nesting is 0 or the sample
 * is at or after `gstart' (the reader began after the GP started, so it
 * cannot hold a reference to anything removed before it).  See
 * lrcu_word_qs() in rcu/src/rcu_seq.h.
 */
#ifndef RCU_STATIC_RCUPDATE_H
#define RCU_STATIC_RCUPDATE_H

#ifdef CONFIG_TINY_RCU
/* Tiny RCU (make TINY=1): its own read side, nothing below. */
#include <rcu/static/rcutiny.h>
#else

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
#define LRCU_R_RCU_JOINED	0x20	/* its bit is in the rcu leaf's
					 * ->joinmask (registry.c) */
#define LRCU_R_SCHED_INMASK	0x10	/* its bit is in the sched leaf's
					 * ->joinmask (registry.c) */

/*
 * ->sched_nesting (owner-only): two state bits the markers test, and a
 * depth.  LRCU_SN_OFFLINE mirrors "ctr[LRCU_SCHED] == 0" (not joined, or in
 * an extended quiescent state, or not registered): whoever stores the word
 * updates it (sched_go_online/offline()); set from the thread's start.
 * LRCU_SN_MOMENTARY: a section was entered while offline, so the thread is
 * online only until that section's outermost unlock (lrcu_sched_exit_slow()).
 * The depth counts every rcu_read_lock_sched() section in CONFIG_PROVE_RCU
 * builds, and in every build the sections entered while momentary; a
 * program's units must agree on CONFIG_PROVE_RCU.  0 means online, not in
 * a section the markers count: what rcu_quiescent_state() tests.  The two
 * bits are the low ones so that each marker's test is one byte test of
 * memory (the markers cost 0.80 ns a pair with the bits at the top, where
 * GCC compared the whole word, 0.66 ns here; an AMD EPYC, 2026-12-07).
 */
#define LRCU_SN_OFFLINE		0x1U
#define LRCU_SN_MOMENTARY	0x2U
#define LRCU_SN_DEPTH		0xfffffffcU	/* in units of LRCU_SN_DEPTH_ONE */
#define LRCU_SN_DEPTH_ONE	0x4U

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
	 * registered, else &->own; the library's read-only zero words until
	 * the first section binds it to ->own (lrcu_read_lock_slow()).  Owner-only (a
	 * signal handler of the owner may bind it too, to the same value).
	 */
	struct lrcu_rword *rw;
	unsigned int sched_nesting;	/* depth | LRCU_SN_* (owner) */
	unsigned int flags;		/* LRCU_R_* (owner) */
	int slot;			/* thread slot ("CPU" number), -1 if none */
	struct lrcu_rword own;		/* the words while not registered */
} __attribute__((aligned(LRCU_CACHELINE)));

/*
 * Per-flavor published grace-period sequence, on its own cache line:
 * ->seq, and ->word = (->seq << LRCU_W_SEQ_SHIFT) | LRCU_W_REG | 1, the
 * reader word an outermost section's fast path stores, stored right after
 * each change of ->seq with release (tree.c's gp_seq_publish()).  It may
 * lag ->seq by that one store: a reader that samples the old value counts
 * as having begun before the new grace period, which then waits for it.
 */
struct lrcu_gp_pub {
	unsigned long seq;
	unsigned long word;
} __attribute__((aligned(LRCU_CACHELINE)));

LRCU_API extern __thread struct lrcu_reader lrcu_reader;
LRCU_API extern struct lrcu_gp_pub lrcu_gp_pub[LRCU_NR_FLAVORS];
/* Set once at init, before any thread registers; 1 if readers may rely on
 * sys_membarrier() instead of fences.  SRCU readers need no registration
 * and may run before init, so it is read with relaxed atomic loads. */
LRCU_API extern int lrcu_has_membarrier;

LRCU_API void lrcu_read_unlock_special(enum lrcu_flavor f);
LRCU_API void lrcu_read_lock_slow(void);
LRCU_API void lrcu_read_misuse(const char *what);
LRCU_API void lrcu_qs_special(void);
LRCU_API void lrcu_qs_slow(void);
LRCU_API void lrcu_sched_enter_slow(int counted);
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

static inline void lrcu_read_lock_inline(void)
{
	struct lrcu_rword *r = lrcu_reader.rw;
	unsigned long w = LRCU_READ_ONCE(r->ctr[LRCU_PREEMPT]), nw;

	/*
	 * One test, not taken on either fast path: the word is neither
	 * nested nor REG only on an outermost section that must go to the
	 * library (below).  Then the nested and the outermost fast paths
	 * differ only in the value stored, which GCC selects without a
	 * branch (cmov): a nested pair costs what an outermost one does
	 * (with a branch between them one of the two took a jump more and
	 * cost 0.9-1.2x the other by layout and hints; build/bench/readloop-rcu,
	 * an AMD EPYC, 2026-12-07).
	 */
	if (LRCU_UNLIKELY(!(w & (LRCU_W_NEST_MASK | LRCU_W_REG)))) {
		/* Outermost without REG: the first section since
		 * registering (joins the flavor), a reader that fences
		 * itself (no membarrier()), or one on an unregistered
		 * thread (reported). */
		lrcu_read_lock_slow();
		return;
	}
#ifdef CONFIG_PROVE_RCU
	if (LRCU_UNLIKELY((w & LRCU_W_NEST_MASK) == LRCU_W_NEST_MASK))
		lrcu_read_misuse("rcu_read_lock() nesting overflow");
#endif
	/*
	 * Outermost: store the published word.  Its acquire load pairs
	 * with the release store that publishes a grace period's start
	 * (gp_seq_publish() in tree.c): a reader that sees the new GP also
	 * sees every removal made before it, so the GP may ignore it.
	 * Nested: only the depth changes (nobody orders against it; the
	 * load is the outermost path's, taken to keep the paths one).
	 */
	nw = LRCU_LOAD_ACQUIRE(&lrcu_gp_pub[LRCU_PREEMPT].word);
	nw = (w & LRCU_W_NEST_MASK) ? w + 1 : nw;
	/*
	 * The store's release (a plain store on x86): the previous sections
	 * are over before a word showing the new grace period, which any
	 * scan counts as quiescent; pairs with the scans' acquire load
	 * (leaf_qs() in tree.c), before the grace period's heavy fence or
	 * after it (the fence may have come while the previous section was
	 * still inside: rcu/formal's relaxed-lock mutant).
	 */
	LRCU_STORE_RELEASE(&r->ctr[LRCU_PREEMPT], nw);
	/*
	 * Word store before the section's loads; pairs with G, the
	 * membarrier() the GP thread issues before it reads reader words
	 * (gp_scan_prepare() in rcu/src/tree.c).  A REG word means
	 * membarrier() is in use: a compiler barrier is the reader's half.
	 * (A nested section of a reader that fences itself: its outermost
	 * lock fenced already.)
	 */
	LRCU_BARRIER();	/* pairs with G (tree.c) */
}

static inline void lrcu_read_unlock_inline(void)
{
	struct lrcu_rword *r = lrcu_reader.rw;
	unsigned long w = LRCU_READ_ONCE(r->ctr[LRCU_PREEMPT]);

	/*
	 * As the lock, one path for the nested and the outermost unlock:
	 * both store the word minus one, and the outermost one's extra
	 * steps are tests that are not taken on either fast path.
	 */
	if (LRCU_UNLIKELY(!(w & LRCU_W_NEST_MASK))) {
		/* Depth 0: nothing to unlock (and, on a thread that never
		 * read, nothing writable: ->rw is still read-only). */
		lrcu_read_misuse("rcu_read_unlock() without matching rcu_read_lock()");
		return;
	}
	/*
	 * Release: the section's loads complete before the word says
	 * quiescent; pairs with the acquire load in gp_scan_leaf().
	 */
	LRCU_STORE_RELEASE(&r->ctr[LRCU_PREEMPT], w - 1);
	/*
	 * Outermost: word store before the need_qs load; pairs with G, the
	 * GP thread's need_qs store + membarrier()/LRCU_SMP_MB() + word
	 * load (gp_force_qs() in rcu/src/tree.c), so either it sees us
	 * quiescent or we see its request and wake it.  REG says
	 * membarrier() is in use (a compiler barrier suffices); without it
	 * the reader fences itself, at every depth (one test; such readers
	 * fence every outermost lock anyway).
	 */
	if (LRCU_LIKELY(w & LRCU_W_REG))
		LRCU_BARRIER();	/* pairs with G (tree.c) */
#ifdef LRCU_INJECT
	else if (lrcu_inject_no_reader_fence)
		LRCU_BARRIER();	/* INJECTED: the fence is missing */
#endif
	else
		LRCU_SMP_MB();	/* pairs with G (tree.c) */
	/*
	 * Relaxed: after the fence above.  Set only while a grace period
	 * waits for this reader, whose outermost unlock then reports.  The
	 * depth is tested only then, so the fast path has no test more;
	 * a nested unlock inside a long section that a grace period waits
	 * for stays inline (calling the library, such a pair cost 5.5 ns
	 * against 3.0: docs/design/reader-word.md).
	 */
	if (LRCU_UNLIKELY(LRCU_READ_ONCE(r->need_qs[LRCU_PREEMPT])) &&
	    !((w - 1) & LRCU_W_NEST_MASK))
		lrcu_read_unlock_special(LRCU_PREEMPT);
#ifdef LRCU_INJECT
	if (LRCU_UNLIKELY(lrcu_inject_nested_qs) && (w & LRCU_W_NEST_MASK) != 1)
		lrcu_inject_nested_unlock();	/* INJECTED: reports while inside */
#endif
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
#elif !defined(CONFIG_PROVE_RCU)
/*
 * rcu_sched's markers: protection comes from the thread not announcing a
 * quiescent state while inside, so an online thread's markers only test
 * that it is online (one load and test each, nothing stored).  The slow
 * path takes a thread online: on its first use of the flavor (it joins),
 * or for a section entered while offline (a signal handler's: the thread
 * is online until that section's outermost unlock, which the unlock's
 * test of LRCU_SN_MOMENTARY catches).  Nothing counts an online thread's
 * depth here: the checks that need it (rcu_quiescent_state() or
 * synchronize_sched() inside a section) are CONFIG_PROVE_RCU's, below.
 */
static inline void lrcu_read_lock_sched_inline(void)
{
	/* Named directly, not through a pointer: one %fs-relative test. */
	if (LRCU_UNLIKELY(lrcu_reader.sched_nesting & (LRCU_SN_OFFLINE | LRCU_SN_MOMENTARY)))
		lrcu_sched_enter_slow(0);
	LRCU_BARRIER();	/* keep the section's accesses after the marker */
}

static inline void lrcu_read_unlock_sched_inline(void)
{
	LRCU_BARRIER();	/* keep the section's accesses before the marker */
	/* The unlock of a section entered while offline (or nested in one). */
	if (LRCU_UNLIKELY(lrcu_reader.sched_nesting & LRCU_SN_MOMENTARY))
		lrcu_sched_exit_slow();
}
#else
/*
 * rcu_sched's markers in a CONFIG_PROVE_RCU build: the same, and they count
 * the depth, for the lockdep-style checks and for the checks in the
 * update-side calls.
 */
static inline void lrcu_read_lock_sched_inline(void)
{
	unsigned int n = lrcu_reader.sched_nesting;

	if (LRCU_UNLIKELY(n & (LRCU_SN_OFFLINE | LRCU_SN_MOMENTARY))) {
#ifdef LRCU_SCHED_FREE_MARKERS
		/* The debug build of a free-marker program: its release
		 * build would read unprotected here. */
		if (n & LRCU_SN_OFFLINE)
			lrcu_read_misuse("rcu_read_lock_sched() on a thread not online in rcu_sched "
					 "(LRCU_SCHED_FREE_MARKERS: call rcu_quiescent_state() first)");
#endif
		lrcu_sched_enter_slow(1);
	} else {
		lrcu_reader.sched_nesting = n + LRCU_SN_DEPTH_ONE;
	}
	LRCU_BARRIER();	/* keep the section's accesses after the marker */
}

static inline void lrcu_read_unlock_sched_inline(void)
{
	unsigned int n;

	LRCU_BARRIER();	/* keep the section's accesses before the marker */
	n = lrcu_reader.sched_nesting;
	if (LRCU_UNLIKELY(!(n & LRCU_SN_DEPTH))) {
		lrcu_read_misuse("rcu_read_unlock_sched() without matching rcu_read_lock_sched()");
		return;
	}
	if (LRCU_UNLIKELY(n & LRCU_SN_MOMENTARY))
		lrcu_sched_exit_slow();
	else
		lrcu_reader.sched_nesting = n - LRCU_SN_DEPTH_ONE;
}
#endif /* LRCU_SCHED_FREE_MARKERS */

static inline void lrcu_quiescent_state_inline(void)
{
	struct lrcu_rword *r;
	unsigned long w, nw;

	/* Not joined yet or offline, or inside a sched section the
	 * markers counted. */
	if (LRCU_UNLIKELY(lrcu_reader.sched_nesting != 0)) {
		lrcu_qs_slow();
		return;
	}
	r = lrcu_reader.rw;	/* online: registered, so its slot's line */
	w = LRCU_READ_ONCE(r->ctr[LRCU_SCHED]);
	/*
	 * Acquire pairs with gp_seq_publish()'s release store (as in
	 * rcu_read_lock()).  If no grace period started since our last
	 * quiescent state there is nothing new to announce.
	 */
	nw = LRCU_LOAD_ACQUIRE(&lrcu_gp_pub[LRCU_SCHED].word);
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

#endif /* CONFIG_TINY_RCU */
#endif /* RCU_STATIC_RCUPDATE_H */
