/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/defer_rcu.c - liburcu's defer_rcu() and defer_barrier()
 * (<rcu/defer.h>): fct(p) runs once, with its argument, only after the
 * readers that were inside when it was queued have left (rcu and
 * rcu_sched), from registered and unregistered threads; defer_barrier()
 * returns after every one queued before it ran.
 */
#include <rcu/defer.h>
#include "rcu_test.h"

#define NDEFER	1000

static int ran[NDEFER];
static int reader_in, reader_out, held_ran;

static void mark(void *p)
{
	__atomic_fetch_add(&ran[(int *)p - ran], 1, __ATOMIC_RELAXED);
}

/* Records whether the reader was still inside when it ran. */
static void check_reader(void *p)
{
	(void)p;
	if (!__atomic_load_n(&reader_out, __ATOMIC_ACQUIRE))	/* pairs with reader() */
		held_ran = 1;
	__atomic_store_n(&ran[0], 1, __ATOMIC_RELEASE);	/* pairs with main() */
}

static bool sched;

static void *reader(void *arg)
{
	(void)arg;
	rcu_register_thread();
	if (sched)
		rcu_read_lock_sched();
	else
		rcu_read_lock();
	set_flag(&reader_in);
	sleep_ms(200);	/* holds the grace period: defer_rcu() is queued meanwhile */
	__atomic_store_n(&reader_out, 1, __ATOMIC_RELEASE);	/* pairs with check_reader() */
	if (sched)
		rcu_read_unlock_sched();
	else
		rcu_read_unlock();
	if (sched)
		rcu_quiescent_state();
	rcu_unregister_thread();
	return NULL;
}

static void waits_for_reader(bool use_sched)
{
	pthread_t t;

	sched = use_sched;
	reader_in = reader_out = held_ran = 0;
	ran[0] = 0;
	pthread_create(&t, NULL, reader, NULL);
	wait_flag(&reader_in, 30);
	if (use_sched)
		defer_rcu_sched(check_reader, NULL);
	else
		defer_rcu(check_reader, NULL);
	pthread_join(t, NULL);
	if (use_sched)
		defer_barrier_sched();
	else
		defer_barrier();
	ok(__atomic_load_n(&ran[0], __ATOMIC_ACQUIRE) == 1 && !held_ran,
	   "%s: fct ran after the reader inside at the call had left, and before the barrier returned",
	   use_sched ? "defer_rcu_sched()" : "defer_rcu()");
}

static void *unregistered(void *arg)
{
	int i;

	(void)arg;
	for (i = NDEFER / 2; i < NDEFER; i++)
		defer_rcu(mark, &ran[i]);
	return NULL;
}

int main(void)
{
	pthread_t t;
	int i, once = 0;

	ok(defer_register_thread() == 0 && defer_unregister_thread() == 0,
	   "defer_register_thread() and defer_unregister_thread() return 0");
	waits_for_reader(false);
	waits_for_reader(true);

	memset(ran, 0, sizeof(ran));
	rcu_register_thread();
	for (i = 0; i < NDEFER / 2; i++)
		defer_rcu(mark, &ran[i]);
	rcu_unregister_thread();
	pthread_create(&t, NULL, unregistered, NULL);
	pthread_join(t, NULL);
	defer_barrier();
	for (i = 0; i < NDEFER; i++)
		once += __atomic_load_n(&ran[i], __ATOMIC_RELAXED) == 1;
	is_long(once, NDEFER, "%d defer_rcu() calls from a registered and an unregistered thread: "
		"each ran once with its argument before defer_barrier() returned", NDEFER);
	return done_testing();
}
