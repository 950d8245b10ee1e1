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

/* A test that defines POISON_RCU before including this checks the rcu
 * flavor instead: rcu_read_lock() sections, synchronize_rcu(). */
#ifdef POISON_RCU
#define poison_lock()		rcu_read_lock()
#define poison_unlock()		rcu_read_unlock()
#define poison_deref(p)		rcu_dereference(p)
#define poison_sync()		synchronize_rcu()
#else
#define poison_lock()		rcu_read_lock_sched()
#define poison_unlock()		rcu_read_unlock_sched()
#define poison_deref(p)		rcu_dereference_sched(p)
#define poison_sync()		synchronize_sched()
#endif

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

/* One section (rcu_sched's, or rcu's) over the current element, yielding inside every
 * other time (*n counts them) to widen the window a broken GP would hit. */
static inline void poison_read(long *n)
{
	struct elem *e;

	poison_lock();
	e = poison_deref(cur);
	if (++*n % 2 == 0)
		sched_yield();
	poison_check(e);
	poison_unlock();
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
		poison_sync();
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

/*
 * Readers that come and go beside neighbours that never read: 20
 * registered threads run idle(NULL) until *idle_quit is set, 3 threads
 * run reader(NULL) until poison_update(n) stops them.  The caller checks
 * `bad'.
 */
static inline void poison_churn(int n, void (*idle)(void *), int *idle_quit,
				void *(*reader)(void *))
{
	struct reg_thread nb[20];
	pthread_t t[3];
	int i;

	*idle_quit = 0;	/* no idle thread runs yet */
	for (i = 0; i < 20; i++)
		reg_thread_start(&nb[i], idle, NULL);
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, reader, NULL);
	poison_update(n);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	poison_done();
	set_flag(idle_quit);
	for (i = 0; i < 20; i++)
		reg_thread_join(&nb[i]);
}

#endif
