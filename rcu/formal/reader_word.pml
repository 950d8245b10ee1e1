/* SPDX-License-Identifier: MIT */
/*
 * reader_word.pml - Promela model of the tree RCU reader-word protocol
 * (rcu flavor): rcu_read_lock()/rcu_read_unlock() with the reader word and
 * its gp_seq sample, grace-period start, the scan with ->need_qs and the
 * second scan, the wake-up, cleanup, thread registration while a grace
 * period starts, and updaters that remove an element, wait for a grace
 * period (one of them possibly piggybacking on the other's request) and
 * free it.  Run by rcu/formal/verify.sh (`make verify`); see README.md
 * there for what is abstracted away and for the results.
 *
 * ------------------------------------------------------------ the memory
 * Weak memory is modelled as in liburcu's formal model: a store that no
 * fence orders may become visible to other threads late.  Each shared
 * location x[i] has
 *   x[i]             its coherence-latest value (what its writer sees),
 *   x_st[i]          a mask of the threads to which that value has not
 *                    arrived yet,
 *   x_old[i*NP + t]  the value thread t sees meanwhile,
 *   x_w[i]           the thread that wrote the latest value.
 * Arrival is decided when a thread loads (a stale load may return the old
 * value or let the latest one arrive), or forced by a fence:
 *   - default, MCA (multi-copy atomic: x86-TSO, arm64): a value arrives at
 *     every other thread at once.  Stores to different locations may
 *     arrive in either order (PSO, weaker than x86-TSO).
 *   - -DNONMCA (POWER): a value arrives at each thread separately, so two
 *     threads may see two stores in different orders.
 * A stale thread overtaken by a further store keeps its old value or moves
 * on to the overtaken one (coherence order is kept per location).
 * Loads are performed in program order; load->store reordering is not
 * modelled.  Acquire loads and release stores need nothing more here: no
 * release store has an earlier store to another location that a fence
 * does not already order (README.md).
 *   fence (smp_mb, seq_cst fence): the thread's own latest stores, and
 *     (cumulativity) every latest value it sees, arrive everywhere.
 *   seq_cst RMW: a fence, then a read of the latest value, then a store
 *     that arrives late (as C11 and POWER allow; x86 is stronger).
 *   membarrier(): every pending store arrives everywhere (a fence forced
 *     on every thread at that moment).
 * The tree (two leaves, slot i in leaf i, and the root) is locked data:
 * for this flavor only the GP thread changes it, except ->qsmaskinitnext,
 * which registration changes in one atomic step under the leaf lock.
 *
 * -------------------------------------------------------------- switches
 * Scenario: default SCEN_PB: reader slot 0 (NSEC sections), updater 1
 *           (requests by CAS) and updater 2 (may find the GP requested);
 *           -DSCEN_REG: a thread (slot 1) registers while the GP starts,
 *           then reads (NSEC sections); the same two updaters.
 *           -DSCEN_JOIN: an rcu_sched thread registered from the start
 *           but not joined (its leaf's ->joinmask bit clear) joins, goes
 *           online and reads (NSEC sections, a quiescent state after
 *           each), then goes offline; the GP waits only for joined
 *           slots.  Implies FENCES (rcu_sched has no membarrier()).
 *           -DSCEN_JOIN -DJOIN_RCU: the rcu flavor's join instead (the
 *           first rcu_read_lock() after registering), then rcu sections.
 *           -DLIVE: the reader loops forever; the LTL claim below.
 * Fences:   default: membarrier() (readers: compiler barriers);
 *           -DFENCES: readers fence themselves, the heavy fence is smp_mb.
 * Timers:   -DTIMEOUTS: the GP's FQS wait may also time out (rescans at
 *           any time); without it the wake-ups alone must end every GP.
 * Deferred: -DDEFER_FENCE (rcutree.gp_defer_fence): no heavy fence
 *           before the first scan; one to three unfenced scans count only
 *           words that sampled the confirmed start or later (any
 *           nesting); if a holdout remains, the heavy fence, maybe a scan
 *           that marks nobody, then the marking scans as without it.
 *           Mutants: -DDEFER_NEST0 (unfenced scans also count nesting 0
 *           with an old sample), -DDEFER_UNCONFIRMED (... a sample of the
 *           unconfirmed start, gstart - 1).
 * Reader:   the lock's word store is a release (every store is, here:
 *           no load->store reordering).  Mutant -DRELAXED_LOCK: relaxed,
 *           so the previous section's accesses may be performed after it
 *           (explicitly: ghost lhold[]); needs NSEC > 1.
 * Coverage: -DCOVER_PIGGYBACK -DCOVER_UNCONFIRMED -DCOVER_MISSED (below),
 *           -DCOVER_INIT_END (gp_init()'s scan ends a grace period),
 *           (DEFER_FENCE) -DCOVER_UNFENCED_END (a grace period ends with
 *           no heavy fence), -DCOVER_FELL_BACK (the unfenced scans left
 *           a holdout: heavy fence).
 * Mutants:  -DNO_FENCE_RD_LOCK -DNO_FENCE_RD_UNLOCK -DNO_FENCE_SNAP
 *           -DNO_FENCE_GP_INIT -DNO_FENCE_REG
 *           -DNO_FENCE_GP_SCAN -DNO_FENCE_GP_RESCAN -DNO_FENCE_GP_END
 *           -DSAMPLE_AFTER_STORE -DSINGLE_PUBLISH -DLATE_WAKE_SAMPLE
 *           (SCEN_JOIN) -DJOIN_LATE -DNO_FENCE_JOIN -DJOINMASK_EARLY
 * Older code: -DNO_INIT_SCAN: no scan in gp_init(); the first look at
 *           the words is the marking scan.
 */

/* Threads ("me"): masks are over these bits. */
#define GP	0
#define RD0	1	/* reader slot 0 */
#define RD1	2	/* reader slot 1: the newcomer of SCEN_REG */
#define UP1	3	/* updater 1: removes element 0 */
#define UP2	4	/* updater 2: removes element 2 */
#define NP	5
#define B(t)	(1 << (t))

#if !defined(SCEN_REG) && !defined(SCEN_JOIN)
#define SCEN_PB
#endif
#if defined(SCEN_JOIN) && !defined(JOIN_RCU) && !defined(FENCES)
#define FENCES
#endif

/* ------------------------------------------------------------------ */
/* Shared locations */

#define SHARED(x, n)	byte x[n]; byte x##_st[n]; byte x##_old[(n) * NP]; byte x##_w[n]

SHARED(gp_seq, 1);	/* lrcu_gp_pub[].seq: stored by the GP thread only */
SHARED(word, 2);	/* reader words: (sample << 1) | nesting */
SHARED(nq, 2);		/* ->need_qs: set by the GP, cleared by the owner */
SHARED(ptr, 2);		/* RCU pointer k: element 2k, then 2k+1 */
SHARED(gen, 1);		/* ->qsmaskinit_gen: bumped by registration */
SHARED(needed, 1);	/* ->gp_seq_needed: advanced by CAS */
SHARED(gp_wake, 1);	/* the GP's futex word: bumped by every waker */
SHARED(joinmask, 1);	/* a leaf's ->joinmask (bit i: slot i), OR by joiners */

/*
 * The threads that load each location (the only ones that can be stale):
 * OBS_x(i) as a mask, and EACH_x(M, ...) applying macro M to each of them
 * (a superset for nq, whose mask depends on i).
 */
#define OBS_gp_seq(i)	(B(RD0) | B(RD1) | B(UP1) | B(UP2))
#define OBS_word(i)	B(GP)
#define OBS_nq(i)	(B(GP) | B(RD0 + (i)))
#define OBS_ptr(i)	(B(RD0) | B(RD1))
#define OBS_gen(i)	B(GP)
#define OBS_needed(i)	(B(GP) | B(UP1) | B(UP2))
#define OBS_gp_wake(i)	B(GP)
#define OBS_joinmask(i)	B(GP)
#define EACH_gp_seq(M, x, i, t)	M(x, i, t, RD0) M(x, i, t, RD1) M(x, i, t, UP1) M(x, i, t, UP2)
#define EACH_word(M, x, i, t)	M(x, i, t, GP)
#define EACH_nq(M, x, i, t)	M(x, i, t, GP) M(x, i, t, RD0) M(x, i, t, RD1)
#define EACH_ptr(M, x, i, t)	M(x, i, t, RD0) M(x, i, t, RD1)
#define EACH_gen(M, x, i, t)	M(x, i, t, GP)
#define EACH_needed(M, x, i, t)	M(x, i, t, GP) M(x, i, t, UP1) M(x, i, t, UP2)
#define EACH_gp_wake(M, x, i, t) M(x, i, t, GP)
#define EACH_joinmask(M, x, i, t) M(x, i, t, GP)

#define OLD(x, i, t)	x##_old[(i) * NP + (t)]
#define STALE(x, i, t)	((x##_st[i] >> (t)) & 1)

#define CLROLD1(x, i, t, q)	OLD(x, i, q) = 0;
/* The latest value of x[i] arrives at everyone. */
#define CLR(x, i)	x##_st[i] = 0; EACH_##x(CLROLD1, x, i, 0) skip
/* ... at thread t. */
#define CLR1(x, i, t)	x##_st[i] = x##_st[i] & ~B(t); OLD(x, i, t) = 0
#ifdef NONMCA
#define ARRIVE(x, i, t)	CLR1(x, i, t)
#else
#define ARRIVE(x, i, t)	CLR(x, i)
#endif

/* Load by thread t into d (a statement; use inside atomic). */
#define LOAD(d, x, i, t)						\
	if								\
	:: !STALE(x, i, t) -> d = x[i]					\
	:: STALE(x, i, t) -> d = OLD(x, i, t)				\
	:: STALE(x, i, t) -> d = x[i]; ARRIVE(x, i, t)			\
	fi

/*
 * Store v by thread t (statements; use inside atomic).  Every other
 * thread that loads x and saw the latest value now sees it as old; one
 * already stale keeps its value or moves on to the one overtaken now.
 */
#define STALE_Q(x, i, t, q)						\
	if								\
	:: (q) != (t) && ((OBS_##x(i) >> (q)) & 1) && !STALE(x, i, q) -> \
		OLD(x, i, q) = x[i]; x##_st[i] = x##_st[i] | B(q)	\
	:: (q) != (t) && STALE(x, i, q) && OLD(x, i, q) != x[i] ->	\
		OLD(x, i, q) = x[i]					\
	:: (q) != (t) && STALE(x, i, q) -> skip				\
	:: else -> skip							\
	fi;
#define STORE(x, i, t, v)						\
	EACH_##x(STALE_Q, x, i, t)					\
	x[i] = (v); CLR1(x, i, t); x##_w[i] = (t)

/*
 * Fence by thread t: its own latest stores and every latest value it sees
 * arrive everywhere.  (Under MCA a thread other than the writer sees the
 * latest value only once everyone does, so only t's own stores move.)
 */
#define FCLR(x, i, t)							\
	if								\
	:: x##_st[i] && (x##_w[i] == (t) ||				\
	     (((OBS_##x(i) >> (t)) & 1) && !STALE(x, i, t))) -> CLR(x, i) \
	:: else -> skip							\
	fi;
#define FENCE_BODY(t)							\
	FCLR(gp_seq, 0, t) FCLR(word, 0, t) FCLR(word, 1, t)		\
	FCLR(nq, 0, t) FCLR(nq, 1, t) FCLR(ptr, 0, t) FCLR(ptr, 1, t)	\
	FCLR(gen, 0, t) FCLR(needed, 0, t) FCLR(gp_wake, 0, t)		\
	FCLR(joinmask, 0, t)
#define FENCE(t)	d_step { FENCE_BODY(t) }

/* membarrier(): a fence on every thread, now. */
#define MEMBARRIER							\
	d_step {							\
		CLR(gp_seq, 0); CLR(word, 0); CLR(word, 1);		\
		CLR(nq, 0); CLR(nq, 1); CLR(ptr, 0); CLR(ptr, 1);	\
		CLR(gen, 0); CLR(needed, 0); CLR(gp_wake, 0);		\
		CLR(joinmask, 0);					\
		LHOLD_DONE						\
	}
/*
 * RELAXED_LOCK: a fence on the reader performs its pending loads;
 * so does the GP's acquire load of the unlock's release store (LHOLD_SEEN:
 * by value, so an older word equal to it counts too, which can only hide
 * a counterexample).
 */
#ifdef RELAXED_LOCK
#define LHOLD_DONE	lhold[0] = 0; lhold[1] = 0
#define LHOLD_FENCED(t)	lhold[(t) - RD0] = 0;
#define LHOLD_SEEN(i)	if :: lhold[i] && w == lunl[i] -> lhold[i] = 0 :: else -> skip fi
#else
#define LHOLD_DONE	skip
#define LHOLD_FENCED(t)
#define LHOLD_SEEN(i)	skip
#endif

/*
 * seq_cst fetch_add(x, 1): fence, read latest, store (arrives late).  The
 * only counter is the futex word; it counts modulo 8 here, more than the
 * wake-ups that can happen between one sample and the wait that uses it
 * (one per updater, two by the reader), so no wake-up is hidden by ABA.
 */
#define RMW_INC(x, i, t)	atomic { FENCE_BODY(t) STORE(x, i, t, (x[i] + 1) & 7) }

#ifdef FENCES
#define READER_FENCE(t)	d_step { FENCE_BODY(t) LHOLD_FENCED(t) }
#define HEAVY_FENCE	FENCE(GP)
#else
#define READER_FENCE(t)	skip		/* barrier(): the GP pays */
#define HEAVY_FENCE	MEMBARRIER
#endif

/* ------------------------------------------------------------------ */
/* Ghost state for the properties (outside the memory model). */

byte hold[2];		/* elements reader slot i may dereference now (mask) */
byte ndone;		/* updaters that finished remove -> wait -> free */
bit piggybacked;	/* an updater found its GP already requested */
bit unconfirmed;	/* the GP found a reader in a section that sampled an
			 * unconfirmed start (state 1) */
bit missed;		/* a GP started without the newcomer (bump missed) */
bit init_ended;		/* gp_init()'s scan found every slot quiescent */
bit join_skipped;	/* a GP left out the slot that had not joined yet */
bit r1_read;		/* the joiner dereferenced a pointer */
bit unfenced_end;	/* DEFER_FENCE: a GP ended with no heavy fence */
bit fell_back;		/* DEFER_FENCE: the unfenced scans left a holdout */
/* RELAXED_LOCK: elements the previous section of reader slot i may
 * still access (its loads performed after the next lock's word store);
 * lunl[i]: the word that section's (release) unlock stored. */
byte lhold[2];
byte lunl[2];

/*
 * Coverage goals (-DCOVER_*): the assertion fails once the situation is
 * reached with every updater done, showing the real model explores it.
 */
#if defined(COVER_PIGGYBACK)
#define COVERED	(piggybacked && ndone == NU)
#elif defined(COVER_UNCONFIRMED)
#define COVERED	(unconfirmed && ndone == NU)
#elif defined(COVER_MISSED)
#define COVERED	(missed && ndone == NU)
#elif defined(COVER_INIT_END)
#define COVERED	(init_ended && ndone == NU)
#elif defined(COVER_JOIN_SKIPPED)
#define COVERED	(join_skipped && r1_read && ndone == NU)
#elif defined(COVER_UNFENCED_END)
#define COVERED	(unfenced_end && ndone == NU)
#elif defined(COVER_FELL_BACK)
#define COVERED	(fell_back && ndone == NU)
#else
#define COVERED	0
#endif
/* Ghost updates only where a goal needs them (they split states). */
#ifdef COVER_UNCONFIRMED
#define NOTE_UNCONFIRMED(w)	unconfirmed = unconfirmed || (W_SAMPLE(w) & 3) == 1;
#else
#define NOTE_UNCONFIRMED(w)
#endif
#ifdef COVER_JOIN_SKIPPED
#define NOTE_JOIN_SKIPPED	join_skipped = 1;
#define NOTE_R1_READ		r1_read = 1
#else
#define NOTE_JOIN_SKIPPED
#define NOTE_R1_READ		skip
#endif
#ifdef COVER_UNFENCED_END
#define NOTE_UNFENCED_END	unfenced_end = 1
#else
#define NOTE_UNFENCED_END	skip
#endif
#ifdef COVER_FELL_BACK
#define NOTE_FELL_BACK		fell_back = 1
#else
#define NOTE_FELL_BACK		skip
#endif
#ifdef COVER_MISSED
#define NOTE_MISSED	missed = missed || ((qsmaskinitnext >> 1) & 1) != lqsmaskinit[1]
#else
#define NOTE_MISSED	skip
#endif

/* Each leaf's ->qsmaskinitnext (bit i: slot i, in leaf i), leaf lock. */
byte qsmaskinitnext;

/* Sequence arithmetic (rcu_seq.h) on small values: no wrap. */
#define SEQ_SNAP(s)	(((s) + 7) & 252)	/* (s + 2*3 + 1) & ~3 */
#define SEQ_ENDVAL(s)	(((s) | 3) + 1)
#define W_NEST(w)	((w) & 1)
#define W_SAMPLE(w)	((w) >> 1)
/* lrcu_word_qs(): outside a section, or sampled at or after gstart. */
#define WORD_QS(w, gs)	(W_NEST(w) == 0 || W_SAMPLE(w) >= (gs))
/*
 * DEFER_FENCE, a scan before the heavy fence: sampled at or after gstart,
 * whatever the nesting (1: a section that saw the start; 0: the unlock of
 * one).  Nesting 0 with an old sample proves nothing: a section's word
 * store may still be on its way.
 */
#if defined(DEFER_NEST0)
#define UNFENCED_QS(w, gs)	WORD_QS(w, gs)		/* mutant */
#elif defined(DEFER_UNCONFIRMED)
#define UNFENCED_QS(w, gs)	(W_SAMPLE(w) >= (gs) - 1)	/* mutant */
#else
#define UNFENCED_QS(w, gs)	(W_SAMPLE(w) >= (gs))
#endif

/* ------------------------------------------------------------------ */
/* Readers */

#ifndef NU
#ifdef LIVE
#define NU	1	/* the progress check needs only one requester */
#else
#define NU	2	/* updaters, and pointers a reader loads */
#endif
#endif

/* The section's dereference of pointer k by reader slot i (thread t). */
#define DEREF(t, i, k, e)						\
	atomic {							\
		LOAD(e, ptr, k, t);					\
		hold[i] = hold[i] | B(e);				\
		printf("R%d holds element %d\n", i, e)			\
	}

/* rcu_read_lock() ... rcu_read_unlock(), outermost, by slot i (thread t). */
inline read_section(t, i, s, e)
{
#ifndef SAMPLE_AFTER_STORE
	/* Sample gp_seq (acquire), store the word, fence. */
	atomic {
		LOAD(s, gp_seq, 0, t);
		printf("R%d lock: sample %d\n", i, s)
	};
	atomic { STORE(word, i, t, s * 2 + 1) };
#ifndef NO_FENCE_RD_LOCK
	READER_FENCE(t);
#endif
#ifdef RELAXED_LOCK
	/* The previous section's accesses, performed only now: after this
	 * (relaxed) word store may have reached the GP. */
	atomic { lhold[i] = 0 };
#endif
	DEREF(t, i, 0, e);
#else
	/*
	 * Mutant: the word is stored first (nesting 1, the sample left from
	 * the last section) and fenced; gp_seq is sampled after, by a load
	 * that nothing orders before the section's first dereference.
	 */
	atomic { STORE(word, i, t, (word[i] & 254) + 1) };
	READER_FENCE(t);
	if
	:: DEREF(t, i, 0, e);
	   atomic { LOAD(s, gp_seq, 0, t) }
	:: atomic { LOAD(s, gp_seq, 0, t) };
	   DEREF(t, i, 0, e)
	fi;
	atomic {
		STORE(word, i, t, s * 2 + 1);
		printf("R%d lock: sample %d (late)\n", i, s)
	};
#endif
#if NU > 1
	DEREF(t, i, 1, e);
#endif
	/* Release store of the word (the section's loads are done: the
	 * ghost hold ends here), fence, then ->need_qs. */
	atomic {
#ifdef RELAXED_LOCK
		/* The section's accesses: ordered before this release store,
		 * not before the next lock's relaxed one (they linger until a
		 * fence, the GP's load of this store, or that lock). */
		lhold[i] = hold[i];
		lunl[i] = s * 2;
#endif
		hold[i] = 0;
		STORE(word, i, t, s * 2);
		printf("R%d unlock\n", i)
	};
#ifndef NO_FENCE_RD_UNLOCK
	READER_FENCE(t);
#endif
	atomic { LOAD(e, nq, i, t) };
	if
	:: e ->
		/* lrcu_read_unlock_special(): clear, then wake the GP. */
		atomic {
			STORE(nq, i, t, 0);
			printf("R%d saw need_qs: wakes the GP\n", i)
		};
		RMW_INC(gp_wake, 0, t)
#ifdef RELAXED_LOCK
		;
		atomic { lhold[i] = 0 }		/* (the RMW's fence) */
#endif
	:: else -> skip
	fi;
	s = 0;
	e = 0
}

#ifndef NSEC
#define NSEC	1	/* sections per reader (not LIVE) */
#endif

inline reader_loop(t, i, s, e, n)
{
#ifdef LIVE
end_reader:
	do
	:: read_section(t, i, s, e)
	od
#else
	do
	:: n < NSEC -> read_section(t, i, s, e); n++
	:: else -> break
	od
#endif
}

#ifdef SCEN_PB
proctype reader0()
{
	byte s, e, n;

	reader_loop(RD0, 0, s, e, n)
}
#endif

#ifdef SCEN_REG
/*
 * A thread registers while the GP may be starting (slot_attach()): its bit
 * in ->qsmaskinitnext under the leaf lock, the generation bump (a seq_cst
 * RMW), a fence; then it reads.
 */
proctype newcomer()
{
	byte s, e, n;

	atomic { qsmaskinitnext = qsmaskinitnext | B(1) };
	RMW_INC(gen, 0, RD1);
#ifndef NO_FENCE_REG
	FENCE(RD1);
#endif
	reader_loop(RD1, 1, s, e, n)
}
#endif

#ifdef SCEN_JOIN
/*
 * rcu_sched, slot 1 (QSBR): registered from the start, not joined.  Its
 * word is (sample << 1) | 1 while online and 0 offline, so WORD_QS()
 * reads it as the GP does: offline, or sampled at or after the start.
 */

/* Report need_qs if set (lrcu_qs_special(): clear, wake the GP). */
#define SCHED_NQ(e)							\
	atomic { LOAD(e, nq, 1, RD1) };					\
	if								\
	:: e ->								\
		atomic {						\
			STORE(nq, 1, RD1, 0);				\
			printf("R1 saw need_qs: wakes the GP\n")	\
		};							\
		RMW_INC(gp_wake, 0, RD1)				\
	:: else -> skip							\
	fi;								\
	e = 0

/* join_mask() (both flavors): seq_cst OR of the slot's bit, then a fence. */
#define JOIN_MASK							\
	atomic {							\
		FENCE_BODY(RD1)						\
		STORE(joinmask, 0, RD1, joinmask[0] | B(1));		\
		printf("R1 joins\n")					\
	};								\
	JOIN_FENCE
#ifndef NO_FENCE_JOIN
#define JOIN_FENCE	FENCE(RD1)
#else
#define JOIN_FENCE	skip
#endif

proctype joiner()
{
	byte s, e, n;

#ifdef JOIN_RCU
	/* lrcu_read_lock_join(): the bit, then rcu_read_lock() proper. */
	JOIN_MASK;
	atomic { NOTE_R1_READ };
	reader_loop(RD1, 1, s, e, n)
#else
#ifndef JOIN_LATE
	JOIN_MASK;
#endif
	/* sched_go_online(): sample (acquire), word, fence. */
	atomic {
		LOAD(s, gp_seq, 0, RD1);
		STORE(word, 1, RD1, s * 2 + 1);
		printf("R1 online: sample %d\n", s)
	};
	FENCE(RD1);
	do
	:: n < NSEC ->
		/* A section: free markers, the loads alone. */
		DEREF(RD1, 1, 0, e);
#if NU > 1
		DEREF(RD1, 1, 1, e);
#endif
		atomic { hold[1] = 0; NOTE_R1_READ };
#ifdef JOIN_LATE
		/* Mutant: the bit only after the first section. */
		if
		:: n == 0 -> JOIN_MASK
		:: else -> skip
		fi;
#endif
		/* rcu_quiescent_state(): sample; if the word or need_qs
		 * says so, fence, store the word, fence, need_qs. */
		atomic { LOAD(s, gp_seq, 0, RD1) };
		atomic { LOAD(e, nq, 1, RD1) };
		if
		:: s * 2 + 1 == word[1] && !e -> skip
		:: else ->
			FENCE(RD1);
			atomic {
				STORE(word, 1, RD1, s * 2 + 1);
				printf("R1 quiescent state: sample %d\n", s)
			};
			FENCE(RD1);
			SCHED_NQ(e)
		fi;
		n++
	:: else -> break
	od;
	skip;	/* (break target: not a d_step) */
	/* sched_go_offline(): fence, word 0, fence, need_qs. */
	FENCE(RD1);
	atomic {
		STORE(word, 1, RD1, 0);
		printf("R1 offline\n")
	};
	FENCE(RD1);
	SCHED_NQ(e)
#endif
}
#endif

/* ------------------------------------------------------------------ */
/* Updaters: remove element 2k (publish 2k+1), synchronize_rcu(), free. */

inline updater(t, k, s, old)
{
	atomic { STORE(ptr, k, t, 2 * (k) + 1) };
	/* rcu_seq_snap(): fence, sample gp_seq. */
#ifndef NO_FENCE_SNAP
	FENCE(t);
#endif
	atomic {
		LOAD(s, gp_seq, 0, t);
		s = SEQ_SNAP(s);
		printf("U%d removed element %d, waits for gp_seq %d\n", (k) + 1, 2 * (k), s)
	};
	/* lrcu__gp_request(): a relaxed peek; return if already requested. */
	atomic { LOAD(old, needed, 0, t) };
	if
	:: old >= s ->
		atomic {
			piggybacked = 1;
			printf("U%d: %d already requested: returns\n", (k) + 1, old)
		}
	:: else ->
		/* seq_cst CAS; if another requester got there first,
		 * the reloaded value makes it return too. */
		atomic {
			FENCE_BODY(t)
			if
			:: needed[0] >= s ->
				piggybacked = 1;
				printf("U%d: CAS lost to %d: returns\n", (k) + 1, needed[0])
			:: else ->
				STORE(needed, 0, t, s);
				old = 255;
				printf("U%d: requests %d\n", (k) + 1, s)
			fi
		};
		if
		:: old == 255 -> RMW_INC(gp_wake, 0, t)	/* lrcu__wake() */
		:: else -> skip
		fi
	fi;
	/* lrcu__gp_wait(): until rcu_seq_done() (acquire) sees s. */
	d_step { gp_seq[0] >= s -> ARRIVE(gp_seq, 0, t) };
	/* free(): no reader may still hold the element. */
	atomic {
		printf("U%d frees element %d\n", (k) + 1, 2 * (k));
		assert(((hold[0] | hold[1] | lhold[0] | lhold[1]) & B(2 * (k))) == 0);
		ndone++;
		assert(!COVERED);
		s = 0;
		old = 0
	}
}

proctype updater1()
{
	byte s, old;

	updater(UP1, 0, s, old)
}

#if NU > 1
proctype updater2()
{
	byte s, old;

	updater(UP2, 1, s, old)
}
#endif

/* ------------------------------------------------------------------ */
/* The grace-period thread */

/*
 * gp_init_fold(): leaf i's ->qsmaskinit from ->qsmaskinitnext; a zero/
 * non-zero transition goes up to the root's ->qsmaskinit.
 */
#define FOLD_LEAF(i)							\
	if								\
	:: lqsmaskinit[i] != ((qsmaskinitnext >> (i)) & 1) ->		\
		lqsmaskinit[i] = (qsmaskinitnext >> (i)) & 1;		\
		rootinit = (rootinit & ~B(i)) | (lqsmaskinit[i] << (i))	\
	:: else -> skip							\
	fi

/* lrcu__report_qs_rnp(): clear slot i in its leaf; the leaf's last bit
 * clears the leaf's bit in the root; an empty root ends the wait. */
#define REPORT_QS(i)	lqsmask[i] = 0; rootmask = rootmask & ~B(i)

/* Scan slot i's word; with mark, ask a holdout to report (->need_qs). */
#define SCAN_SLOT(i, mark)	SCAN_SLOT_BY(i, mark, WORD_QS)
/* ... quiescent by the test QS (WORD_QS, or UNFENCED_QS). */
#define SCAN_SLOT_BY(i, mark, QS)					\
	if								\
	:: lqsmask[i] ->						\
		atomic {						\
			LOAD(w, word, i, GP);				\
			LHOLD_SEEN(i);					\
			printf("GP scans slot %d: sample %d nesting %d\n", \
			       i, W_SAMPLE(w), W_NEST(w))		\
		};							\
		if							\
		:: QS(w, gstart) -> REPORT_QS(i)			\
		:: else ->						\
			NOTE_UNCONFIRMED(w)				\
			if						\
			:: mark ->					\
				atomic { LOAD(w, nq, i, GP) };		\
				if					\
				:: !w ->				\
					atomic { STORE(nq, i, GP, 1) };	\
					marked = 1			\
				:: else -> skip				\
				fi					\
			:: else -> skip					\
			fi						\
		fi;							\
		w = 0							\
	:: else -> skip							\
	fi

/* gp_force_qs(): scan marking holdouts; if any was newly marked, fence
 * and scan again (it may have left before it could see the mark). */
#ifndef NO_FENCE_GP_RESCAN
#define RESCAN_FENCE	HEAVY_FENCE
#else
#define RESCAN_FENCE	skip
#endif
#define FORCE_QS							\
	SCAN_SLOT(0, 1); SCAN_SLOT(1, 1);				\
	if								\
	:: marked ->							\
		RESCAN_FENCE;						\
		SCAN_SLOT(0, 0); SCAN_SLOT(1, 0)			\
	:: else -> skip							\
	fi;								\
	marked = 0

/*
 * futex_wait() on the wake word: sleeps while it still holds the sample.
 * The real code's timed rescans (jiffies_till_*_fqs) are left out unless
 * -DTIMEOUTS, so the wake-ups alone must end every grace period.
 */
#ifdef TIMEOUTS
#define FQS_WAIT	if :: (gp_wake[0] != wsnap) :: skip fi
#else
#define FQS_WAIT	(gp_wake[0] != wsnap)
#endif

proctype gp()
{
	byte gstart, w, wsnap, seen, jm, nunf;
	bit marked;
	/* The tree: leaf i's ->qsmaskinit and ->qsmask (one slot each),
	 * the root's (bit i: leaf i). */
	bit lqsmaskinit[2], lqsmask[2];
	byte rootinit, rootmask;
#ifdef SCEN_PB
	/* Slot 0 registered before the first GP (folded at boot). */
	lqsmaskinit[0] = 1;
	rootinit = B(0);
#endif
#ifdef SCEN_JOIN
	/* Slot 1 registered before the first GP, not joined. */
	lqsmaskinit[1] = 1;
	rootinit = B(1);
#endif

	do
	:: /* gp_wait_request(): sample the wake word, check gp_needed(). */
		atomic { LOAD(wsnap, gp_wake, 0, GP) };
		atomic { LOAD(w, needed, 0, GP) };
		if
		:: w > gp_seq[0] -> w = 0
		:: else ->
			w = 0;
end_idle:		(gp_wake[0] != wsnap);	/* futex_wait() */
			goto next
		fi;

#if defined(SCEN_JOIN) && defined(JOINMASK_EARLY)
		/* Mutant: ->joinmask loaded before the grace period starts. */
		atomic { LOAD(jm, joinmask, 0, GP) };
#endif
		/* gp_init(): rcu_seq_start(): state 1 (release store). */
		atomic {
			STORE(gp_seq, 0, GP, gp_seq[0] + 1);
			printf("GP starts: gp_seq %d\n", gp_seq[0])
		};
		/*
		 * Fence: the start reaches every thread before (a) the
		 * registration generation is loaded (store-buffering pair
		 * with the newcomer's bump + fence) and (b) the start is
		 * confirmed: state 2, rcu_seq_confirm().  Only samples of
		 * the confirmed value count as taken after the start.
		 */
#ifndef NO_FENCE_GP_INIT
		FENCE(GP);
#endif
#ifndef SINGLE_PUBLISH
		atomic {
			STORE(gp_seq, 0, GP, gp_seq[0] + 1);
			printf("GP confirms the start: gp_seq %d\n", gp_seq[0])
		};
#endif
		gstart = gp_seq[0];
#ifdef SCEN_JOIN
#ifndef JOINMASK_EARLY
		/* leaf_owing(): ->joinmask after the start's fence. */
		atomic { LOAD(jm, joinmask, 0, GP) };
#endif
#endif
		atomic { LOAD(w, gen, 0, GP) };
		d_step {
			if
			:: w != seen -> FOLD_LEAF(0); FOLD_LEAF(1)
			:: else -> skip
			fi;
			seen = w;
			w = 0;
			NOTE_MISSED;
			/* Breadth-first: ->qsmask from ->qsmaskinit. */
			rootmask = rootinit;
			lqsmask[0] = lqsmaskinit[0];
			lqsmask[1] = lqsmaskinit[1];
#ifdef SCEN_JOIN
			/* Slots that never joined owe nothing; a leaf that
			 * owes nothing is reported to the root at once. */
			lqsmask[1] = lqsmask[1] & ((jm >> 1) & 1);
			if
			:: !lqsmask[1] ->
				NOTE_JOIN_SKIPPED
				rootmask = rootmask & ~B(1)
			:: else -> skip
			fi;
			jm = 0;
#endif
			skip
		};

#ifdef DEFER_FENCE
		/*
		 * Deferred heavy fence: the first scan and up to two
		 * rescans, unfenced, count only slots whose word sampled
		 * the confirmed start or later (UNFENCED_QS()); nobody is
		 * asked to report.  If every slot is quiescent the grace
		 * period ends with no heavy fence; otherwise the heavy
		 * fence, then as without DEFER_FENCE (a scan that marks
		 * nobody, or none, then the marking scans).
		 */
		SCAN_SLOT_BY(0, 0, UNFENCED_QS); SCAN_SLOT_BY(1, 0, UNFENCED_QS);
		do
		:: rootmask != 0 && nunf < 2 ->
			nunf++;
			SCAN_SLOT_BY(0, 0, UNFENCED_QS); SCAN_SLOT_BY(1, 0, UNFENCED_QS)
		:: break
		od;
		nunf = 0;
		if
		:: rootmask == 0 ->
			printf("GP: every slot quiescent, no heavy fence\n");
			NOTE_UNFENCED_END
		:: else ->
			printf("GP: a holdout: heavy fence\n");
			NOTE_FELL_BACK;
			HEAVY_FENCE;
			if
			:: SCAN_SLOT(0, 0); SCAN_SLOT(1, 0)
			:: skip
			fi
		fi;
#else
		/* gp_init() phase 2 with its scan: heavy fence, then a
		 * look at each leaf's words that asks nobody to report (a
		 * grace period nobody is inside ends here). */
#ifndef NO_FENCE_GP_SCAN
		HEAVY_FENCE;
#endif
#ifndef NO_INIT_SCAN
		SCAN_SLOT(0, 0); SCAN_SLOT(1, 0);
#ifdef COVER_INIT_END
		init_ended = init_ended || (rootmask == 0 && rootinit != 0);
#endif
#endif
#endif
		/* gp_wait_qs(), gp_fqs_loop(): marking scans, waits. */
#ifndef LATE_WAKE_SAMPLE
		/* The wake word is sampled (acquire) before each scan: a
		 * holdout that reports after the scan looked at its word
		 * changes it, so the wait does not sleep. */
		do
		:: atomic { LOAD(wsnap, gp_wake, 0, GP) };
			FORCE_QS;
			if
			:: rootmask == 0 -> break
			:: else -> FQS_WAIT
			fi
		od;
#else
		/* Mutant (the code before this model): sampled after the
		 * scan, so a report between the two waits for the timer. */
		FORCE_QS;
		do
		:: rootmask == 0 -> break
		:: else ->
			atomic { LOAD(wsnap, gp_wake, 0, GP) };
			FQS_WAIT;
			FORCE_QS
		od;
#endif
		skip;	/* (break target: not a d_step) */

		/* gp_cleanup(): rcu_seq_end(): fence, release store. */
#ifndef NO_FENCE_GP_END
		FENCE(GP);
#endif
		atomic {
			STORE(gp_seq, 0, GP, SEQ_ENDVAL(gp_seq[0]));
			printf("GP ends: gp_seq %d\n", gp_seq[0])
		};
next:		wsnap = 0
	od
}

init
{
	atomic {
		ptr[0] = 0; ptr[1] = 2;
		ptr_w[0] = UP1; ptr_w[1] = UP2;
		word_w[0] = RD0; word_w[1] = RD1;
		gen_w[0] = RD1;
		joinmask_w[0] = RD1;
#ifdef SCEN_PB
		qsmaskinitnext = B(0);
#endif
#ifdef SCEN_JOIN
		qsmaskinitnext = B(1);
#endif
		run gp();
#if defined(SCEN_PB)
		run reader0();
#elif defined(SCEN_JOIN)
		run joiner();
#else
		run newcomer();
#endif
		run updater1();
#if NU > 1
		run updater2()
#endif
	}
}

/* Progress: with a reader that keeps leaving its sections, every updater's
 * grace period ends (checked with weak fairness). */
#ifdef LIVE
ltl updaters_finish { <> (ndone == NU) }
#endif
