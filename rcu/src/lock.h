/* SPDX-License-Identifier: MIT */
/*
 * lock.h - the rcu_node lock: a futex mutex whose uncontended lock and
 * unlock are one atomic instruction each, inline.
 *
 * Why not pthread_mutex_t: a grace period takes each node's lock a few
 * times (init, scan, reports, cleanup), almost never contended, and
 * glibc's lock and unlock are calls that dispatch on the mutex's type and
 * keep owner and user counts: with 1024 registered threads (70 nodes) the
 * pairs were a third of a grace period's CPU time.
 *
 * The word: 0 free, 1 held, 2 held and somebody may sleep on it.  A
 * locker that finds it held swaps in 2 and sleeps while it is 2; the
 * unlocker swaps in 0 and wakes one sleeper if it took a 2 away.  A woken
 * locker swaps in 2 again (not 1: others may still sleep), so a wakeup is
 * never lost and at worst costs one needless futex wake.
 *
 * Debug builds (LRCU_DEBUG) also record the holder's thread id, for
 * lockdep.h's checks.
 *
 * Priority inheritance (lrcu__pi_locks, set when the library starts with
 * real-time RCU threads: rcutree.kthread_prio, boost.c): the word is the
 * holder's thread id, with FUTEX_WAITERS once somebody sleeps on it, and
 * a contended locker sleeps in FUTEX_LOCK_PI, which lends the holder its
 * priority.  The kernel's rcu_node locks are raw spinlocks, held with
 * preemption off: the holder runs until it lets go.  Ours may be taken by
 * an ordinary thread (registration, a report) and preempted by the
 * real-time threads of a boost test while a real-time grace-period thread
 * waits for it; inheritance lets the holder run.  The mode is chosen
 * before any lock is taken and kept until the library stops.
 */
#ifndef LRCU_LOCK_H
#define LRCU_LOCK_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <rcu/kernel.h>

struct lrcu_lock {
	uint32_t word;
#ifdef LRCU_DEBUG
	int owner;		/* the holder's thread id; 0: free */
#endif
};

#define LRCU_LOCK_INIT { 0 }

void lrcu__lock_slow(struct lrcu_lock *l);	/* contended: sleep until ours */
void lrcu__unlock_wake(struct lrcu_lock *l);	/* wake one sleeper */
extern bool lrcu__pi_locks;			/* the priority-inheriting protocol */
void lrcu__lock_pi(struct lrcu_lock *l);
void lrcu__unlock_pi(struct lrcu_lock *l);
int lrcu__tid(void);				/* the caller's thread id (cached) */
void lrcu__tid_fork_child(void);		/* a fork() child: forget it */
/* A library pthread mutex: priority-inheriting under lrcu__pi_locks. */
void lrcu__mutex_init(pthread_mutex_t *m);
/* A fork() child: every lock is free again (the child's only thread held
 * them under its parent's thread id). */
static inline void lrcu__lock_reset(struct lrcu_lock *l)
{
	WRITE_ONCE(l->word, 0);	/* nobody else runs in the child yet */
#ifdef LRCU_DEBUG
	WRITE_ONCE(l->owner, 0);
#endif
}
#ifdef LRCU_DEBUG
/* debug.c: the caller's thread id; is a lock whose holder is owner ours? */
int lrcu__debug_tid(void);
bool lrcu__debug_held_by_me(int owner);
#endif

static inline void lrcu__lock(struct lrcu_lock *l)
{
	uint32_t free = 0;

	/* Relaxed: set before any lock is taken (init.c). */
	if (__builtin_expect(READ_ONCE(lrcu__pi_locks), 0))
		lrcu__lock_pi(l);
	/* Acquire: pairs with the release exchange in lrcu__unlock(). */
	else if (__builtin_expect(!try_cmpxchg_acquire(&l->word, &free, 1), 0))
		lrcu__lock_slow(l);
#ifdef LRCU_DEBUG
	WRITE_ONCE(l->owner, lrcu__debug_tid());	/* read by lrcu__lock_held() */
#endif
}

static inline void lrcu__unlock(struct lrcu_lock *l)
{
#ifdef LRCU_DEBUG
	WRITE_ONCE(l->owner, 0);	/* ditto */
#endif
	if (__builtin_expect(READ_ONCE(lrcu__pi_locks), 0))	/* as above */
		lrcu__unlock_pi(l);
	/* Release: pairs with the acquire in lrcu__lock()/lrcu__lock_slow(). */
	else if (__builtin_expect(xchg_release(&l->word, 0) == 2, 0))
		lrcu__unlock_wake(l);
}

#ifdef LRCU_DEBUG
/* Does the calling thread hold l? */
static inline bool lrcu__lock_held(struct lrcu_lock *l)
{
	return lrcu__debug_held_by_me(READ_ONCE(l->owner));	/* ours, or not */
}
#endif

#endif /* LRCU_LOCK_H */
