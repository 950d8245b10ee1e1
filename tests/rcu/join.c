/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/join.c - a registered thread joins the rcu flavor with its
 * first rcu_read_lock() (lrcu_read_lock_join()): grace periods skip the
 * slots of threads that never read, and must wait for a section that is
 * its thread's first, whenever it starts.
 */
#define POISON_RCU 1
#include "sched_poison.h"

struct first {
	int hold;	/* test asks it to enter its first section and stay */
	int inside;	/* it is inside */
	int leave;	/* test asks it to leave */
};

/* Registered long before it reads: its first section is a join. */
static void first_fn(void *arg)
{
	struct first *f = arg;

	wait_flag(&f->hold, 60);
	rcu_read_lock();
	set_flag(&f->inside);
	wait_flag(&f->leave, 60);
	rcu_read_unlock();
}

static int sync_done;

static void *sync_fn(void *arg)
{
	(void)arg;
	synchronize_rcu();
	set_flag(&sync_done);
	return NULL;
}

static void *sync_exp_fn(void *arg)
{
	(void)arg;
	synchronize_rcu_expedited();
	set_flag(&sync_done);
	return NULL;
}

/* A thread's first section, entered after grace periods skipped its
 * slot, holds a grace period (normal or expedited) until it ends. */
static void test_first_section_holds(void *(*sync)(void *), const char *what)
{
	struct first f = { 0 };
	struct reg_thread t;
	pthread_t u;
	bool held;
	int i;

	reg_thread_start(&t, first_fn, &f);
	for (i = 0; i < 3; i++)
		synchronize_rcu();	/* with its slot not joined */
	set_flag(&f.hold);
	wait_flag(&f.inside, 60);
	sync_done = 0;
	pthread_create(&u, NULL, sync, NULL);
	sleep_ms(200);
	held = !__atomic_load_n(&sync_done, __ATOMIC_ACQUIRE);
	set_flag(&f.leave);
	pthread_join(u, NULL);
	reg_thread_join(&t);
	ok(held, "a registered thread's first rcu_read_lock() section holds %s", what);
}

static int idle_quit;

static void idle_fn(void *arg)
{
	(void)arg;
	wait_flag(&idle_quit, 1e9);	/* registered, never reads */
}

/*
 * Readers that come and go: each life registers, joins with its first
 * section (racing the updater's grace periods), reads, and unregisters,
 * beside 20 registered threads that never read.  A grace period that
 * skipped a thread which had joined before it started frees an element
 * under it.
 */
static void *churn_reader(void *arg)
{
	long n = 0;
	int k;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		if (rcu_register_thread())
			abort();
		for (k = 0; k < 64; k++)
			poison_read(&n);
		rcu_unregister_thread();
	}
	return NULL;
}

static void test_join_churn(void)
{
	int n = scale(400);

	poison_churn(n, idle_fn, &idle_quit, churn_reader);
	ok(!bad, "%d grace periods, 3 readers registering, joining with their first "
	   "section and leaving: no reader saw a poisoned element", n);
}

int main(void)
{
	if (rcu_register_thread())
		return 1;
	test_first_section_holds(sync_fn, "synchronize_rcu()");
	test_first_section_holds(sync_exp_fn, "synchronize_rcu_expedited()");
	test_join_churn();
	rcu_unregister_thread();
	return done_testing();
}
