/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/sched.c - the quiescent-state-based rcu_sched flavor: who holds
 * a sched grace period up and who does not (the contract documented in
 * rcupdate.h).
 */
#include "sched_poison.h"

struct qsbr {
	int joined;	/* the thread has used the flavor */
	int report;	/* test asks it to announce a quiescent state */
	int offline;	/* test asks it to go offline */
	int quit;
};

static void qsbr_fn(void *arg)
{
	struct qsbr *q = arg;

	rcu_read_lock_sched();		/* joins the flavor */
	rcu_read_unlock_sched();
	set_flag(&q->joined);
	/* No quiescent state until asked: sched GPs must wait for us. */
	for (;;) {
		if (__atomic_load_n(&q->report, __ATOMIC_ACQUIRE)) {
			rcu_quiescent_state();
			__atomic_store_n(&q->report, 0, __ATOMIC_RELEASE);
		}
		if (__atomic_exchange_n(&q->offline, 0, __ATOMIC_ACQ_REL)) {
			rcu_thread_offline();
			wait_flag(&q->quit, 1e9);
			rcu_thread_online();
			return;
		}
		if (__atomic_load_n(&q->quit, __ATOMIC_ACQUIRE))
			return;
		sleep_ms(1);
	}
}

static int sync_done;

static void *sync_sched_fn(void *arg)
{
	(void)arg;
	synchronize_sched();
	set_flag(&sync_done);
	return NULL;
}

/*
 * Start thread t on q, and once it has joined, a synchronize_sched()
 * beside it; true if that is still waiting 200 ms later.  Then ask t for
 * a quiescent state and wait for the synchronize_sched() to end.
 */
static bool joined_holds_sync(struct reg_thread *t, struct qsbr *q)
{
	pthread_t u;
	bool held;

	reg_thread_start(t, qsbr_fn, q);
	wait_flag(&q->joined, 60);
	sync_done = 0;
	pthread_create(&u, NULL, sync_sched_fn, NULL);
	sleep_ms(200);
	held = !__atomic_load_n(&sync_done, __ATOMIC_ACQUIRE);
	set_flag(&q->report);
	pthread_join(u, NULL);
	return held;
}

static void test_joined_thread_holds(void)
{
	struct qsbr q = { 0 };
	struct reg_thread t;

	ok(joined_holds_sync(&t, &q),
	   "a joined thread that announces no quiescent state holds synchronize_sched()");
	ok(sync_done, "rcu_quiescent_state() lets it complete");

	/* Offline threads are in an extended quiescent state. */
	set_flag(&q.offline);
	while (__atomic_load_n(&q.offline, __ATOMIC_ACQUIRE))
		sleep_ms(1);
	watchdog_arm("synchronize_sched() with a joined thread offline", 30);
	synchronize_sched();
	synchronize_sched();
	ok(watchdog_done(), "a joined thread that went offline does not hold synchronize_sched()");
	set_flag(&q.quit);
	reg_thread_join(&t);
}

static int idle_quit;

static void idle_fn(void *arg)
{
	(void)arg;
	/* Registered, never uses the sched flavor, never reports. */
	rcu_read_lock();
	rcu_read_unlock();
	wait_flag(&idle_quit, 1e9);
}

static void test_nonuser_does_not_hold(void)
{
	struct reg_thread t;
	int i;

	reg_thread_start(&t, idle_fn, NULL);
	watchdog_arm("synchronize_sched() beside a thread that never used rcu_sched", 30);
	for (i = 0; i < 5; i++)
		synchronize_sched();
	ok(watchdog_done(), "a registered thread that never used rcu_sched does not hold it up");
	set_flag(&idle_quit);
	reg_thread_join(&t);
}

/* A joined caller of the blocking calls is taken offline while it waits. */
static int cb_ran;

static void sched_cb(struct rcu_head *rh)
{
	free(rh);
	__atomic_fetch_add(&cb_ran, 1, __ATOMIC_RELEASE);
}

static void test_joined_caller(void)
{
	unsigned long c;

	rcu_read_lock_sched();
	rcu_read_unlock_sched();	/* main thread joins */
	watchdog_arm("synchronize_sched() from a joined thread", 30);
	synchronize_sched();
	ok(watchdog_done(), "synchronize_sched() from a joined thread does not wait for itself");
	call_rcu_sched(malloc(sizeof(struct rcu_head)), sched_cb);
	rcu_barrier_sched();
	ok(__atomic_load_n(&cb_ran, __ATOMIC_ACQUIRE) == 1,
	   "rcu_barrier_sched() from a joined thread");
	c = get_state_synchronize_sched();
	cond_synchronize_sched(c);
	ok(poll_state_synchronize_sched(c), "cond_synchronize_sched() from a joined thread");
	rcu_quiescent_state();
	rcu_quiescent_state();	/* repeated: no new GP, fast path */
	ok(rcu_is_watching() && lrcu_reader.sched_nesting == 0,
	   "still online, outside any section (nothing counted, not momentary)");
}

/* Readers in a quiescent-state loop, with an updater: the classic QSBR
 * use, checked with a poisoned element (sched_poison.h). */
static void qsbr_reader(void *arg)
{
	long n = 0;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		struct elem *e;

		rcu_read_lock_sched();
		e = rcu_dereference_sched(cur);
		poison_check(e);
		if (n % 8 == 0)
			sched_yield();	/* widen the window a broken GP would hit */
		poison_check(e);
		rcu_read_unlock_sched();
		if (++n % 16 == 0)
			rcu_quiescent_state();
		if (n % 1024 == 0) {
			rcu_thread_offline();
			sched_yield();
			rcu_thread_online();
		}
	}
}

static void test_qsbr_readers(void)
{
	struct reg_thread t[3];
	int i, n = scale(400);

	for (i = 0; i < 3; i++)
		reg_thread_start(&t[i], qsbr_reader, NULL);
	poison_update(n);
	for (i = 0; i < 3; i++)
		reg_thread_join(&t[i]);
	poison_done();
	ok(!bad, "%d sched grace periods with 3 QSBR readers: no reader saw a poisoned element", n);
}

/*
 * Slot reuse: a thread joins rcu_sched and unregisters; the next thread
 * takes the slot (and its leaf's ->joinmask bit is clear: grace periods
 * skip slots that never joined).  When that thread joins, grace periods
 * must wait for it again, beside 40 registered neighbours that never
 * use the flavor (their leaves owe nothing and are not locked).
 */
static void join_and_leave(void *arg)
{
	(void)arg;
	rcu_read_lock_sched();
	rcu_read_unlock_sched();
	rcu_quiescent_state();
}

static void test_reused_slot_holds(void)
{
	struct reg_thread n[40], t;
	struct qsbr q = { 0 };
	int i;

	idle_quit = 0;
	for (i = 0; i < 40; i++)
		reg_thread_start(&n[i], idle_fn, NULL);
	reg_thread_start(&t, join_and_leave, NULL);
	reg_thread_join(&t);
	synchronize_sched();	/* the unregistered joiner is forgotten */
	ok(joined_holds_sync(&t, &q),
	   "a thread that joins in a reused slot, beside 40 that never joined, holds synchronize_sched()");
	set_flag(&q.quit);
	reg_thread_join(&t);
	set_flag(&idle_quit);
	for (i = 0; i < 40; i++)
		reg_thread_join(&n[i]);
}

/*
 * Readers that come and go: each life registers, joins rcu_sched with
 * its first section (racing the updater's grace periods), reads with
 * quiescent states between sections, and unregisters.  A grace period
 * that ignored a thread which had joined before it started (its
 * ->joinmask bit missed, or its leaf skipped as owing nothing) frees an
 * element under it.
 */
static void *churn_reader(void *arg)
{
	long n = 0;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		int k;

		if (rcu_register_thread())
			abort();
		for (k = 0; k < 64; k++) {
			poison_read(&n);
			if (k % 4 == 3)
				rcu_quiescent_state();
		}
		rcu_unregister_thread();
	}
	return NULL;
}

static void test_qsbr_churn(void)
{
	int n = scale(400);

	poison_churn(n, idle_fn, &idle_quit, churn_reader);	/* neighbours never join */
	ok(!bad, "%d sched grace periods, 3 readers registering, joining and leaving: "
	   "no reader saw a poisoned element", n);
}

int main(void)
{
	if (rcu_register_thread())
		return 1;
	test_joined_thread_holds();
	test_nonuser_does_not_hold();
	test_qsbr_readers();
	test_reused_slot_holds();
	test_qsbr_churn();
	test_joined_caller();
	rcu_unregister_thread();
	return done_testing();
}
