/* SPDX-License-Identifier: MIT */
/*
 * test_rcu_gp.c - grace periods: synchronize_*() waits for every reader
 * that started before it and only for those; concurrent callers share
 * grace periods; polled grace periods; gp_seq wraparound.
 */
#include "rcu_holder.h"

static void test_reader_blocks(enum rmode mode, void (*sync)(void), const char *what)
{
	reader_blocks(mode, sync, NULL, what);
}

/* ------------------------------------------------------------------ */
/* Readers that start after the grace period do not hold it up. */

static int late_stop;

static void late_reader_fn(void *arg)
{
	(void)arg;
	/* Back-to-back sections: there is always a reader, but each one
	 * starts after any grace period already under way. */
	while (!__atomic_load_n(&late_stop, __ATOMIC_ACQUIRE)) {
		rcu_read_lock();
		for (int i = 0; i < 100; i++)
			barrier();
		rcu_read_unlock();
	}
}

static void test_no_starvation(void)
{
	struct reg_thread rt[2];
	unsigned long before = gps_completed(LRCU_PREEMPT);
	int i, n = scale(200);

	for (i = 0; i < 2; i++)
		reg_thread_start(&rt[i], late_reader_fn, NULL);
	for (i = 0; i < n; i++)
		synchronize_rcu();
	__atomic_store_n(&late_stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++)
		reg_thread_join(&rt[i]);
	ok(gps_completed(LRCU_PREEMPT) - before >= (unsigned long)n,
	   "%d grace periods complete while readers continuously start new sections", n);
}

/* ------------------------------------------------------------------ */
/* Concurrent callers share grace periods. */

#define NCALLERS 16

static void sync_rcu(void) { synchronize_rcu(); }

static void test_sharing(void)
{
	unsigned long before = gps_completed(LRCU_PREEMPT), used;

	callers_during_gp(sync_rcu, NCALLERS);
	used = gps_completed(LRCU_PREEMPT) - before;
	ok(used <= 3, "%d concurrent synchronize_rcu() calls share grace periods (%lu used)",
	   NCALLERS, used);
}

/* ------------------------------------------------------------------ */
/* Polled grace periods. */

static void test_polled(void)
{
	struct holder h = { .mode = R_RCU };
	struct reg_thread rt;
	unsigned long c, c2, c3;
	double end;

	ok(poll_state_synchronize_rcu(get_completed_synchronize_rcu()),
	   "get_completed_synchronize_rcu() cookie polls as completed");
	ok(poll_state_synchronize_rcu(RCU_GET_STATE_COMPLETED), "RCU_GET_STATE_COMPLETED polls as completed");

	reg_thread_start(&rt, holder_fn, &h);
	wait_flag(&h.in, 60);
	c = get_state_synchronize_rcu();
	c2 = start_poll_synchronize_rcu();
	sleep_ms(100);
	ok(!poll_state_synchronize_rcu(c) && !poll_state_synchronize_rcu(c2),
	   "cookies taken while a reader is inside do not poll as completed");
	set_flag(&h.leave);
	reg_thread_join(&rt);

	/* start_poll alone makes the grace period happen. */
	end = now_s() + 30;
	while (!poll_state_synchronize_rcu(c2) && now_s() < end)
		sleep_ms(1);
	ok(poll_state_synchronize_rcu(c2), "start_poll_synchronize_rcu() cookie completes on its own");
	synchronize_rcu();
	ok(poll_state_synchronize_rcu(c), "get_state cookie completes after a full grace period");
	cond_synchronize_rcu(c);	/* must not block */
	c3 = get_state_synchronize_rcu();
	cond_synchronize_rcu(c3);
	ok(poll_state_synchronize_rcu(c3), "cond_synchronize_rcu() waits for its cookie");

	c = start_poll_synchronize_sched();
	synchronize_sched();
	ok(poll_state_synchronize_sched(c), "sched: start_poll cookie completes after synchronize_sched()");
	c = get_state_synchronize_sched();
	cond_synchronize_sched(c);
	ok(poll_state_synchronize_sched(c), "sched: cond_synchronize_sched() waits for its cookie");
}

/* ------------------------------------------------------------------ */

static void test_wrap(void)
{
	struct lrcu_stats st;
	unsigned long start, i;

	lrcu_get_stats(LRCU_SCHED, &st);
	start = st.gp_seq;
	ok(start > ULONG_MAX / 2, "gp_seq starts just below the wrap point (0x%lx)", start);
	for (i = 0; i < 320 && ((long)st.gp_seq < 0); i++) {
		synchronize_sched();
		lrcu_get_stats(LRCU_SCHED, &st);
	}
	ok((long)st.gp_seq >= 0, "gp_seq wrapped through zero after %lu more grace periods (0x%lx)",
	   i, st.gp_seq);
	i = get_state_synchronize_sched();
	ok(!poll_state_synchronize_sched(i), "after the wrap, a fresh cookie is not yet complete");
	synchronize_sched();
	ok(poll_state_synchronize_sched(i), "after the wrap, it completes after synchronize_sched()");
}

/* ------------------------------------------------------------------ */
/* An idle process: the library's threads sleep (no polling). */

static bool lib_thread(const char *comm)
{
	static const char *const names[] = { "rcu_preempt", "rcu_sched",
					     "rcu_cb_preempt", "rcu_cb_sched" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(comm, names[i]))
			return true;
	return false;
}

static long lib_thread_switches(int *nthreads)
{
	return thread_switches(lib_thread, nthreads);
}

static void free_cb(struct rcu_head *rh)
{
	free(rh);
}

static void test_idle(void)
{
	long before, after;
	int n;

	call_rcu(malloc(sizeof(struct rcu_head)), free_cb);
	synchronize_sched();
	rcu_barrier();
	sleep_ms(100);		/* past any short post-GP polling */
	before = lib_thread_switches(&n);
	sleep_ms(300);
	after = lib_thread_switches(&n);
	ok(n == 4, "the library runs 4 named threads (rcu_preempt, rcu_sched, rcu_cb_*): %d found", n);
	ok(after == before, "idle process: they sleep, no wakeups in 300 ms (%ld context switches)",
	   after - before);
}

static void sync_net(void) { synchronize_net(); }
static void sync_bh(void) { synchronize_rcu_bh(); }
static void sync_sched(void) { synchronize_sched(); }

int main(void)
{
	watchdog_arm("synchronize_rcu() with no registered reader", 30);
	synchronize_rcu();
	ok(watchdog_done(), "synchronize_rcu() with no registered reader returns");
	test_reader_blocks(R_RCU, sync_rcu, "rcu");
	test_reader_blocks(R_RCU_NESTED, sync_rcu, "rcu nested");
	test_reader_blocks(R_RCU, sync_net, "synchronize_net");
	test_reader_blocks(R_BH, sync_bh, "rcu_bh");
	test_reader_blocks(R_SCHED, sync_sched, "rcu_sched");
	test_no_starvation();
	test_sharing();
	test_polled();
	test_wrap();
	test_idle();
	return done_testing();
}
