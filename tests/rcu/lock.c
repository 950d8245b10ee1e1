/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/lock.c - the rcu_node lock (rcu/src/lock.h), alone.
 *
 *   - mutual exclusion: threads (more than CPUs) increment a plain
 *     counter under the lock; no increment may be lost (and under
 *     ThreadSanitizer the lock must order them: a race is reported);
 *   - the sleeping path: while one thread holds the lock, others that
 *     want it mark it contended (word 2) and sleep; the unlock wakes
 *     them and every one gets it (a lost wakeup hangs: the watchdog
 *     bails out);
 *   - free again at the end (word 0).
 */
#include "rcu_test.h"
#include "../../rcu/src/lock.h"

#define NTHREADS	4
#define ITERS		200000

static struct lrcu_lock lock = LRCU_LOCK_INIT;
static unsigned long counter;	/* plain: the lock protects it */
static int started, acquired;

static void *hammer(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < ITERS; i++) {
		lrcu__lock(&lock);
		counter++;
		lrcu__unlock(&lock);
	}
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&started, 1, __ATOMIC_RELAXED);	/* a count */
	lrcu__lock(&lock);
	counter++;
	lrcu__unlock(&lock);
	__atomic_fetch_add(&acquired, 1, __ATOMIC_RELAXED);	/* a count */
	return NULL;
}

static uint32_t lock_word(void)
{
	return __atomic_load_n(&lock.word, __ATOMIC_RELAXED);	/* a peek */
}

int main(void)
{
	pthread_t t[NTHREADS];
	int i, spins;

	plan(5);

	watchdog_arm("the locked increments", 60);	/* a lost wakeup hangs */
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, hammer, NULL);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	watchdog_done();
	is_long(counter, (long)NTHREADS * ITERS,
		"%d threads x %d locked increments: none lost", NTHREADS, ITERS);

	counter = 0;
	lrcu__lock(&lock);
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, waiter, NULL);
	/* Wait until all have started and one has marked the lock. */
	for (spins = 0; spins < 10000 && (__atomic_load_n(&started, __ATOMIC_RELAXED) < NTHREADS ||
					  lock_word() != 2); spins++)
		sleep_ms(1);
	sleep_ms(50);	/* let them reach the futex */
	ok(lock_word() == 2 && !__atomic_load_n(&acquired, __ATOMIC_RELAXED),
	   "while held: the waiters marked it contended (word %u) and none got in",
	   (unsigned)lock_word());
	watchdog_arm("waking the lock's sleepers", 30);
	lrcu__unlock(&lock);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	ok(watchdog_done(), "the unlock woke the sleepers, one after the other");
	is_long(counter, NTHREADS, "each of the %d waiters got the lock once", NTHREADS);
	ok(lock_word() == 0, "free at the end (word %u)", (unsigned)lock_word());
	return tap_exit_status();
}
