/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/gp.c - grace periods: synchronize_*() waits for every reader
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
/* A caller drives its own grace period: no thread handoff. */

static void test_caller_drives(void)
{
	unsigned long before = gps_completed(LRCU_PREEMPT), sched0 = gps_completed(LRCU_SCHED);

	/* The GP kthread would wait 100 s before starting a grace period. */
	set_param("rcutree.gp_start_delay", "100000");
	watchdog_arm("synchronize_*() with the GP kthread held off", 30);
	synchronize_rcu();
	cond_synchronize_rcu(get_state_synchronize_rcu());
	synchronize_sched();
	ok(watchdog_done() && gps_completed(LRCU_PREEMPT) - before >= 2 &&
	   gps_completed(LRCU_SCHED) - sched0 >= 1,
	   "synchronize_rcu(), cond_synchronize_rcu(), synchronize_sched() drive their grace "
	   "periods themselves (the GP kthread is held off)");
	set_param("rcutree.gp_start_delay", "0");
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

static bool lib_thread(long tid, const char *comm)
{
	(void)tid;
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

static bool gp_kthread(long tid, const char *comm)
{
	(void)tid;
	return !strcmp(comm, "rcu_preempt") || !strcmp(comm, "rcu_sched");
}

static void noop_cb(struct rcu_head *rh)
{
	(void)rh;
}

/*
 * Callers drive their own grace periods: the GP kthreads, woken once for
 * a call_rcu()'s grace period, must then sleep while a caller runs
 * synchronize_*() back to back, a reader meanwhile holding sections long
 * enough to be asked to report: its reports wake the caller, not the
 * kthreads (which used to wake on them, take the caller's grace period
 * for one of their own and poll for gp_mutex: a CPU taken from readers).
 */
#define BACK_TO_BACK 500		/* at least this many of each */
#define HELD_SECTIONS 100	/* ... while the reader ends this many sections */

static int section_holder_stop, section_holder_running;
static unsigned long section_holder_ended;

static void section_holder_fn(void *arg)
{
	(void)arg;
	/* Relaxed: a stop flag; the join orders the rest. */
	while (!__atomic_load_n(&section_holder_stop, __ATOMIC_RELAXED)) {
		double end = now_s() + 200e-6;

		rcu_read_lock();
		set_flag(&section_holder_running);
		while (now_s() < end)
			;
		rcu_read_unlock();
		/* Relaxed: a count the test only looks at. */
		__atomic_fetch_add(&section_holder_ended, 1, __ATOMIC_RELAXED);
	}
}

static unsigned long sections_ended(void)
{
	return __atomic_load_n(&section_holder_ended, __ATOMIC_RELAXED);	/* a count */
}

static void test_kthread_leaves_callers_alone(void)
{
	static struct rcu_head rh[2];
	struct reg_thread holder;
	long sw0, sw1, cpu0, cpu1, wall_ns;
	unsigned long s0;
	double t0;
	int i, n;

	reg_thread_start(&holder, section_holder_fn, NULL);
	wait_flag(&section_holder_running, 60);
	call_rcu(&rh[0], noop_cb);	/* wakes rcu_preempt */
	call_rcu_sched(&rh[1], noop_cb);	/* ... and rcu_sched */
	sw0 = thread_switches(gp_kthread, &n);
	cpu0 = thread_cpu_ns(gp_kthread, &n);
	t0 = now_s();
	s0 = sections_ended();
	/* Until the reader has really run (a thread left over from an
	 * earlier test may take its CPU for a while). */
	for (i = 0; i < BACK_TO_BACK || sections_ended() - s0 < HELD_SECTIONS; i++) {
		synchronize_rcu();
		synchronize_sched();
	}
	wall_ns = (long)((now_s() - t0) * 1e9);
	sw1 = thread_switches(gp_kthread, &n);
	cpu1 = thread_cpu_ns(gp_kthread, &n);
	__atomic_store_n(&section_holder_stop, 1, __ATOMIC_RELAXED);	/* a stop flag: the join orders */
	reg_thread_join(&holder);
	rcu_barrier();
	rcu_barrier_sched();
	ok(n == 2 && sw1 - sw0 < i / 20 && cpu1 - cpu0 < wall_ns / 4,
	   "%d synchronize_rcu() + synchronize_sched() back to back after a call_rcu(), a "
	   "reader holding sections: the %d GP kthreads switched %ld times (fewer than %d) "
	   "and ran %ld us of the %ld us (under a quarter)", i, n, sw1 - sw0, i / 20,
	   (cpu1 - cpu0) / 1000, wall_ns / 1000);
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
	test_reader_blocks(R_RCU_NESTED_LATE, sync_rcu, "rcu nested while the grace period waits");
	test_reader_blocks(R_RCU, sync_net, "synchronize_net");
	test_reader_blocks(R_BH, sync_bh, "rcu_bh");
	test_reader_blocks(R_SCHED, sync_sched, "rcu_sched");
	test_no_starvation();
	test_sharing();
	test_caller_drives();
	test_polled();
	test_wrap();	/* gp_seq still just below the wrap point: keep it early */
	test_kthread_leaves_callers_alone();
	test_idle();
	return done_testing();
}
