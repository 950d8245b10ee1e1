/* SPDX-License-Identifier: MIT */
/*
 * lock.c - the rcu_node lock's slow paths (lock.h says how it works).
 */
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
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
