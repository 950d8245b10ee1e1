/* SPDX-License-Identifier: MIT */
/*
 * rcu/tasks.h - RCU Tasks and RCU Tasks Rude, with the kernel's names
 * (included by <rcu/rcupdate.h>; do not include directly).
 *
 * RCU Tasks
 *   A reader has no markers: it is any stretch of a thread's code that
 *   does not block (the kernel's trampolines).  synchronize_rcu_tasks()
 *   returns, and call_rcu_tasks()'s callback runs, once every thread of
 *   the process that was running when the grace period began has since
 *   passed a voluntary quiescent state: it blocked in the kernel (a
 *   sleeping call that actually put it to sleep, as counted by Linux's
 *   voluntary_ctxt_switches), it exited, or it called rcu_tasks_qs().
 *   Being preempted, sched_yield() or a page fault that does not sleep
 *   are not quiescent states.  Threads the library runs are not waited
 *   for.  A thread that spins for long without blocking holds every
 *   grace period up: it gets a stall warning after
 *   rcupdate.rcu_task_stall_timeout and should call rcu_tasks_qs() (the
 *   kernel's cond_resched_tasks_rcu_qs()) where it holds no reference.
 *   docs/design/tasks.md says why, how, and what it costs.
 *
 * RCU Tasks Rude
 *   A reader is a region between rcu_read_lock_tasks_rude() and
 *   rcu_read_unlock_tasks_rude() (the kernel's preempt_disable() and
 *   preempt_enable()): on any thread, registered with RCU or not, online
 *   or offline, in a signal handler too; regions nest.  A grace period
 *   waits until every region that was open when it began has closed.
 *   This is not rcu_sched: synchronize_rcu_sched() waits for quiescent
 *   states of registered threads that joined the sched flavor; a Rude
 *   grace period waits for the Rude regions of every thread.  The markers
 *   cost two thread-local stores (and, without membarrier(), a fence);
 *   the grace period pays with membarrier().
 *
 * Callbacks of both flavors run on the flavor's own thread
 * ("rcu_tasks_kthre", "rcu_tasks_rude_"), in the order queued on each
 * queue (rcupdate.rcu_task_enqueue_lim queues, picked by the caller's
 * CPU); they must not block for long and must not wait for a grace period
 * of their own flavor.
 */
#ifndef RCU_TASKS_H
#define RCU_TASKS_H

#include <stdio.h>
#include <rcu/compiler.h>
#include <rcu/types.h>
#include <rcu/static/rcupdate.h>

#ifdef __cplusplus
extern "C" {
#endif

enum lrcu_tasks_flavor {
	LRCU_TASKS = 0,		/* "rcu_tasks" */
	LRCU_TASKS_RUDE = 1,	/* "rcu_tasks_rude" */
	LRCU_NR_TASKS_FLAVORS
};

/* Rude reader word: bits 0..15 the depth, above them a count of outermost
 * entries, so that a grace period can tell a region it saw from a later
 * one (rcu/src/tasks_rude.c). */
#define LRCU_RUDE_DEPTH		0xffffUL
#define LRCU_RUDE_GEN_ONE	0x10000UL

/*
 * Each thread's Tasks state, in its thread-local storage; linked into the
 * library's list (under its lock) the first time the thread uses a Rude
 * marker or rcu_tasks_qs(), unlinked when the thread exits.
 */
struct lrcu_tasks_thread {
	unsigned long rude;		/* Rude reader word (owner stores;
					 * grace periods load) */
	unsigned long qs;		/* rcu_tasks_qs() calls (owner stores
					 * with release; grace periods load) */
	int tid;			/* owner's kernel thread id (list lock) */
	int bound;			/* linked (owner only) */
	struct lrcu_tasks_thread *next, *prev;	/* the list (list lock) */
};

LRCU_API extern __thread struct lrcu_tasks_thread lrcu_tasks_me;
LRCU_API void lrcu_tasks_bind(void);
LRCU_API void lrcu_tasks_call(enum lrcu_tasks_flavor f, struct rcu_head *head,
			      rcu_callback_t func);
LRCU_API void lrcu_tasks_synchronize(enum lrcu_tasks_flavor f);
LRCU_API void lrcu_tasks_barrier(enum lrcu_tasks_flavor f);
LRCU_API void lrcu_tasks_qs(void);
LRCU_API void lrcu_tasks_get_gp_data(enum lrcu_tasks_flavor f, int *flags, unsigned long *gp_seq);
LRCU_API void lrcu_tasks_show(enum lrcu_tasks_flavor f, FILE *out);

/* ------------------------------------------------------------------ */
/* RCU Tasks */

static inline void call_rcu_tasks(struct rcu_head *head, rcu_callback_t func)
{
	lrcu_tasks_call(LRCU_TASKS, head, func);
}
static inline void synchronize_rcu_tasks(void) { lrcu_tasks_synchronize(LRCU_TASKS); }
static inline void rcu_barrier_tasks(void) { lrcu_tasks_barrier(LRCU_TASKS); }
/* A voluntary quiescent state without blocking: the caller holds no
 * reference obtained under RCU Tasks protection. */
static inline void rcu_tasks_qs(void) { lrcu_tasks_qs(); }
static inline void cond_resched_tasks_rcu_qs(void) { lrcu_tasks_qs(); }
/* The kernel's rcu_tasks_get_gp_data(): the grace-period thread's state
 * (RTGS_*, docs/design/tasks.md) and the number of grace periods ended. */
static inline void rcu_tasks_get_gp_data(int *flags, unsigned long *gp_seq)
{
	lrcu_tasks_get_gp_data(LRCU_TASKS, flags, gp_seq);
}
static inline void show_rcu_tasks_classic_gp_kthread(void) { lrcu_tasks_show(LRCU_TASKS, stderr); }

/* ------------------------------------------------------------------ */
/* RCU Tasks Rude */

static inline void rcu_read_lock_tasks_rude(void)
{
	unsigned long w;

	if (LRCU_UNLIKELY(!lrcu_tasks_me.bound))
		lrcu_tasks_bind();
	w = LRCU_READ_ONCE(lrcu_tasks_me.rude);
	if (LRCU_UNLIKELY((w & LRCU_RUDE_DEPTH) == LRCU_RUDE_DEPTH))
		lrcu_read_misuse("rcu_read_lock_tasks_rude() nesting overflow");
	/* Outermost: a new region (count + 1, depth 1); nested: depth + 1.
	 * One store, so that a signal handler's region nested here leaves
	 * the word as it found it. */
	LRCU_WRITE_ONCE(lrcu_tasks_me.rude, (w & LRCU_RUDE_DEPTH) ? w + 1 :
			w + LRCU_RUDE_GEN_ONE + 1);
	/* Orders the store before the region's accesses: pairs with the
	 * grace period's lrcu__heavy_fence() before it reads the words. */
	lrcu_reader_fence();
}

static inline void rcu_read_unlock_tasks_rude(void)
{
	unsigned long w = LRCU_READ_ONCE(lrcu_tasks_me.rude);

	if (LRCU_UNLIKELY(!(w & LRCU_RUDE_DEPTH)))
		lrcu_read_misuse("rcu_read_unlock_tasks_rude() without rcu_read_lock_tasks_rude()");
	/* Orders the region's accesses before the store: pairs with the
	 * grace period's lrcu__heavy_fence() after it saw the region end. */
	lrcu_reader_fence();
	LRCU_WRITE_ONCE(lrcu_tasks_me.rude, w - 1);
}

/* Is this thread inside a Rude region? */
static inline int rcu_read_lock_tasks_rude_held(void)
{
	return (LRCU_READ_ONCE(lrcu_tasks_me.rude) & LRCU_RUDE_DEPTH) != 0;
}

static inline void synchronize_rcu_tasks_rude(void) { lrcu_tasks_synchronize(LRCU_TASKS_RUDE); }
static inline void call_rcu_tasks_rude(struct rcu_head *head, rcu_callback_t func)
{
	lrcu_tasks_call(LRCU_TASKS_RUDE, head, func);
}
static inline void rcu_barrier_tasks_rude(void) { lrcu_tasks_barrier(LRCU_TASKS_RUDE); }
static inline void rcu_tasks_rude_get_gp_data(int *flags, unsigned long *gp_seq)
{
	lrcu_tasks_get_gp_data(LRCU_TASKS_RUDE, flags, gp_seq);
}
static inline void show_rcu_tasks_rude_gp_kthread(void) { lrcu_tasks_show(LRCU_TASKS_RUDE, stderr); }

#ifdef __cplusplus
}
#endif

#endif /* RCU_TASKS_H */
