/* SPDX-License-Identifier: MIT */
/*
 * sched_poison.h - the rcu_sched readers-and-updater check shared by the
 * sched tests: readers look at the current element inside their sections
 * (poison_check()); the updater replaces it n times, waits for a sched
 * grace period each time and poisons the old one (poison_update()).  A
 * reader that sees the poison held an element past its grace period.
 */
#ifndef TESTS_SCHED_POISON_H
#define TESTS_SCHED_POISON_H

#include "rcu_test.h"

#define POISON_MAGIC 0x5eed
struct elem {
	long magic;
};
static struct elem *__rcu cur;
static int stop, bad;

static inline void poison_check(const struct elem *e)
{
	if (e && READ_ONCE(e->magic) != POISON_MAGIC)
		__atomic_store_n(&bad, 1, __ATOMIC_RELAXED);
}

/* One rcu_sched section over the current element, yielding inside every
 * other time (*n counts them) to widen the window a broken GP would hit. */
static inline void poison_read(long *n)
{
	struct elem *e;

	rcu_read_lock_sched();
	e = rcu_dereference_sched(cur);
	if (++*n % 2 == 0)
		sched_yield();
	poison_check(e);
	rcu_read_unlock_sched();
}

/*
 * n times: replace the element, wait for a sched grace period, poison the
 * old one; then tell the readers to stop.  The poisoned elements are
 * freed only then: a free()d one would come back from the next malloc()
 * with the magic restored, hiding a too-short grace period.
 */
static inline void poison_update(int n)
{
	struct elem **dead = calloc(n, sizeof(*dead));
	int i;

	for (i = 0; i < n; i++) {
		struct elem *e = malloc(sizeof(*e));

		e->magic = POISON_MAGIC;
		dead[i] = rcu_dereference_protected(cur, 1);
		rcu_assign_pointer(cur, e);
		synchronize_sched();
		if (dead[i])
			WRITE_ONCE(dead[i]->magic, 0);	/* poison: readers must be gone */
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < n; i++)
		free(dead[i]);
	free(dead);
}

/* After the readers are gone: free the last element, ready a next round. */
static inline void poison_done(void)
{
	free(rcu_dereference_protected(cur, 1));
	RCU_INIT_POINTER(cur, NULL);
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);	/* no reader runs now */
}

#endif
