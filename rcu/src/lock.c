/* SPDX-License-Identifier: MIT */
/*
 * lock.c - the rcu_node lock's slow paths (lock.h says how it works).
 */
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "atomic.h"
#include "lock.h"

void lrcu__lock_slow(struct lrcu_lock *l)
{
	/*
	 * Acquire: pairs with lrcu__unlock()'s release exchange.  Taking the
	 * lock with 2 (not 1) keeps the wakeup of whoever else sleeps.
	 */
	while (xchg_acquire(&l->word, 2) != 0)
		syscall(SYS_futex, &l->word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
}

void lrcu__unlock_wake(struct lrcu_lock *l)
{
	syscall(SYS_futex, &l->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* ------------------------------------------------------------------ */
/* Priority inheritance (lock.h) */

bool lrcu__pi_locks;

static __thread int tid_cache;

int lrcu__tid(void)
{
	if (!tid_cache)
		tid_cache = (int)syscall(SYS_gettid);
	return tid_cache;
}

void lrcu__tid_fork_child(void)
{
	tid_cache = 0;	/* the child's own, on next use */
}

/*
 * The kernel's PI-futex protocol: the word holds the holder's id; the
 * kernel finds the holder from it, lends it the sleeper's priority, and
 * hands the lock over at FUTEX_UNLOCK_PI (the word then holds the new
 * holder's id).  A system call orders like a full barrier: the acquire
 * of a lock taken in the kernel, and the release of one given away there.
 */
void lrcu__lock_pi(struct lrcu_lock *l)
{
	uint32_t free = 0;

	/* Acquire: pairs with the release in lrcu__unlock_pi(). */
	if (try_cmpxchg_acquire(&l->word, &free, (uint32_t)lrcu__tid()))
		return;
	while (syscall(SYS_futex, &l->word, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0))
		;	/* EINTR, EAGAIN (the holder is exiting): again */
	/* Acquire: pairs with the release RMW in lrcu__unlock_pi()'s slow
	 * path: the kernel's hand-over, said in the C model (and so seen by
	 * ThreadSanitizer, which cannot see into the system call). */
	(void)smp_load_acquire(&l->word);
}

void lrcu__unlock_pi(struct lrcu_lock *l)
{
	uint32_t me = (uint32_t)lrcu__tid();

	/* Release: pairs with the acquire in lrcu__lock_pi().  With
	 * FUTEX_WAITERS set the kernel hands the lock to a sleeper. */
	if (try_cmpxchg_release(&l->word, &me, 0))
		return;
	/* Release: pairs with the acquire load after FUTEX_LOCK_PI above (a
	 * no-op RMW, which the kernel's hand-over then follows). */
	(void)atomic_fetch_or_release(0, &l->word);
	syscall(SYS_futex, &l->word, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
}

void lrcu__mutex_init(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	/* Relaxed: set before any library lock is taken (init.c). */
	if (READ_ONCE(lrcu__pi_locks))
		pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
}
