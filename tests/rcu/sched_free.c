/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/sched_free.c - rcu_sched read through free markers
 * (LRCU_SCHED_FREE_MARKERS): the markers touch nothing, the section is
 * protected by the thread not announcing a quiescent state (a joined
 * thread inside holds grace periods; readers that fall asleep inside see
 * no freed element), and rcu_read_lock_sched_held() says "online".
 */
#define LRCU_SCHED_FREE_MARKERS 1
#include "sched_poison.h"

static int inside, leave, sync_done;

/* Joins (liburcu-qsbr's "online"), then stays in one section until told. */
static void holder_fn(void *arg)
{
	(void)arg;
	rcu_quiescent_state();
	rcu_read_lock_sched();
	set_flag(&inside);
	wait_flag(&leave, 60);
	rcu_read_unlock_sched();
	rcu_quiescent_state();
}

static void *sync_fn(void *arg)
{
	(void)arg;
	synchronize_sched();
	set_flag(&sync_done);
	return NULL;
}

static void test_markers_free(void)
{
	unsigned int n;

	rcu_quiescent_state();	/* the main thread joins */
	n = lrcu_reader.sched_nesting;
	rcu_read_lock_sched();
	rcu_read_lock_sched();
	ok(lrcu_reader.sched_nesting == n && rcu_read_lock_sched_held(),
	   "the markers count nothing; rcu_read_lock_sched_held() is true online");
	rcu_read_unlock_sched();
	rcu_read_unlock_sched();
	rcu_thread_offline();
	ok(!rcu_read_lock_sched_held(), "rcu_read_lock_sched_held() is false offline");
	rcu_thread_online();
}

static void test_holder(void)
{
	struct reg_thread t;
	pthread_t u;

	reg_thread_start(&t, holder_fn, NULL);
	wait_flag(&inside, 60);
	pthread_create(&u, NULL, sync_fn, NULL);
	sleep_ms(200);
	ok(!__atomic_load_n(&sync_done, __ATOMIC_ACQUIRE),
	   "a thread inside a free-marker section holds synchronize_sched()");
	set_flag(&leave);
	pthread_join(u, NULL);
	reg_thread_join(&t);
	ok(sync_done, "it ends once the thread left and announced a quiescent state");
}

/* Readers that yield inside their sections (sched_poison.h). */
static void reader_fn(void *arg)
{
	long n = 0;

	(void)arg;
	rcu_quiescent_state();	/* joins */
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		poison_read(&n);
		if (n % 8 == 0)
			rcu_quiescent_state();
	}
	rcu_thread_offline();	/* leaves no grace period waiting */
}

static void test_readers(void)
{
	int i, n = scale(400);
	struct reg_thread t[3];

	for (i = 0; i < 3; i++)
		reg_thread_start(&t[i], reader_fn, NULL);
	poison_update(n);
	for (i = 0; i < 3; i++)
		reg_thread_join(&t[i]);
	poison_done();
	ok(!bad, "%d sched grace periods, 3 free-marker readers: no poisoned element seen", n);
}

int main(void)
{
#ifdef CONFIG_PROVE_RCU
	/* make DEBUG=1: the markers count again (test_rcu_sched_free_debug.c) */
	skip_all("free markers count nothing only without CONFIG_PROVE_RCU (not make DEBUG=1)");
#endif
	if (rcu_register_thread())
		return 1;
	test_markers_free();
	rcu_thread_offline();	/* the main thread waits for grace periods below */
	test_holder();
	test_readers();
	rcu_thread_online();
	rcu_unregister_thread();
	return done_testing();
}
