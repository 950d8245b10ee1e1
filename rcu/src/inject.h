/* SPDX-License-Identifier: MIT */
/*
 * inject.h - deliberate bugs, for measuring what the torture suite catches
 * (bin/mutation.sh).  Compiled in only by `make INJECT=1` (-DLRCU_INJECT,
 * its own build folder); one bug is chosen at run time with
 * rcutree.inject=NAME, which a normal build rejects as unknown.  In a
 * normal build every LRCU_INJECTED() is the constant false, so the
 * compiler removes the bug and its test.
 *
 * Each name is one realistic mistake in one mechanism; inject.c's table
 * says what it breaks and whether it makes grace periods too short
 * (safety) or never end (liveness).
 */
#ifndef LRCU_INJECT_H
#define LRCU_INJECT_H

enum lrcu_bug {
	LRCU_BUG_NONE,
	/* safety: grace periods (or callbacks, polls, barriers) end early */
	LRCU_BUG_SKIP_LEAF,		/* GP init reports one leaf's holdouts */
	LRCU_BUG_NOTICED_QS,		/* a holdout that was asked counts as quiescent */
	LRCU_BUG_NESTED_QS,		/* a nested rcu_read_unlock() reports a QS */
	LRCU_BUG_WORD_OFF_BY_ONE,	/* readers from the gap before a GP are ignored */
	LRCU_BUG_CLIMB_EARLY,		/* a report climbs while sibling bits are set */
	LRCU_BUG_CB_STALE_SNAP,		/* callbacks tagged with a stale snapshot */
	LRCU_BUG_POLL_EARLY,		/* a polled cookie judged complete a GP early */
	LRCU_BUG_BARRIER_EARLY,		/* rcu_barrier() skips the last busy slot */
	LRCU_BUG_GP_FENCE,		/* the GP's heavy fence before the scan removed */
	LRCU_BUG_UNFENCED_IDLE,		/* scans before the heavy fence count words
					 * outside a section as quiescent */
	LRCU_BUG_READER_FENCE,		/* the reader's fence removed (no membarrier) */
	LRCU_BUG_EXP_FENCE,		/* expedited GPs skip the heavy fence before
					 * their scans */
	LRCU_BUG_SRCU_START_FENCE,	/* SRCU's fence S at GP start removed */
	LRCU_BUG_SRCU_FLIP_FENCE,	/* SRCU's fence D after the flip removed */
	LRCU_BUG_SCHED_ONLINE_FENCE,	/* an rcu_sched thread's fence after its
					 * online word store removed */
	LRCU_BUG_EXP_SKIP_READER,	/* an expedited GP ignores readers inside */
	LRCU_BUG_SRCU_ONE_PHASE,	/* SRCU flips without draining the other index */
	LRCU_BUG_TASKS_TRACE_NESTING,	/* a nested rcu_read_unlock_trace() ends the
					 * section */
	LRCU_BUG_NOCB_EARLY,		/* offloaded callbacks run as the GP in
					 * progress ends, not after */
	LRCU_BUG_NOCB_TOGGLE_DROP,	/* (de-)offloading forgets the callbacks
					 * waiting for a grace period */
	LRCU_BUG_LAZY_LEAVE_ENDS,	/* a lazy batch's keeper that leaves its
					 * grace period to the kthread ends it */
	LRCU_BUG_SCHED_REJOIN,		/* a re-registered thread keeps its old
					 * rcu_sched join: its new slot never joins */
	LRCU_BUG_RCU_JOIN_SKIPPED,	/* registration marks the rcu word joined
					 * without the leaf's ->joinmask bit */
	LRCU_BUG_TASKS_PREEMPT_QS,	/* RCU Tasks counts a preemption (an
					 * involuntary switch) as quiescent */
	LRCU_BUG_RUDE_NESTED_QS,	/* RCU Tasks Rude takes any change of a
					 * reader word (a nested marker) as the
					 * region's end */
	LRCU_BUG_RUDE_SCAN_BREAK,	/* RCU Tasks Rude's snapshot stops at the
					 * first thread outside a region */
	/* liveness: something never ends */
	LRCU_BUG_LEAF_NEVER_EMPTY,	/* an emptied leaf stays in its parent's mask */
	LRCU_BUG_QS_NEVER_RECORDED,	/* one slot's quiescent state never reported
					 * (the lowest holdout of one leaf) */
	LRCU_BUG_NEVER_REQUESTED,	/* GP requests dropped after a while */
	LRCU_BUG_REPORT_DROPPED,	/* an inner node's report to its parent lost */
	LRCU_BUG_LOST_WAKEUP,		/* synchronize_rcu() waiters not woken */
	LRCU_NR_BUGS
};

#ifdef LRCU_INJECT
extern int lrcu_inject_bug;		/* enum lrcu_bug; set before start */
extern long lrcu_inject_arg;		/* NAME:ARG (e.g. the leaf), default 1 */
#define LRCU_INJECTED(b)	__builtin_expect(lrcu_inject_bug == (b), 0)
#else
#define LRCU_INJECTED(b)	0
#define lrcu_inject_arg		1L
#endif

/* params.c: rcutree.inject=NAME[:ARG]; 0, or -1 with the reason in err. */
int lrcu__inject_select(const char *v, size_t len, char *err, size_t errlen);

#endif /* LRCU_INJECT_H */
