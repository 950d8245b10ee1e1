/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/tasks_trace.c - RCU Tasks Trace (<rcu/rcupdate_trace.h>):
 * readers on threads that never registered with RCU; nesting (an inner
 * rcu_read_unlock_trace() leaves the outermost section open, and only
 * the outermost one touches the domain); grace periods, callbacks and
 * rcu_barrier_tasks_trace() wait for a reader that sleeps in its
 * section, also once rcu_tasks_trace_expedite_current() expedited it; the kernel's newer rcu_read_lock_tasks_trace() form;
 * heavyweight readers (rcupdate.rcu_tasks_trace_read_mb=1); signal
 * handlers that read while the thread is inside a section, outside one,
 * and in the middle of its lock and unlock; an unmatched unlock is
 * reported; synchronize_rcu_tasks_trace() inside a reader is a BUG.
 *
 * Every "waits for the reader" check is ordering, not timing: the reader
 * marks "leaving" just before its outermost unlock, and the grace period
 * must not return before that mark.
 */
#include <sched.h>
#include <signal.h>
#include <rcu/rcupdate_trace.h>
#include "srcu_test.h"

static bool trc_held(void)
{
	return rcu_read_lock_trace_held();
}

/* ------------------------------------------------------------------ */
/* A reader thread that never registers */

enum trc_form { TRC_NESTED, TRC_SCP };

struct trc_holder {
	pthread_t tid;
	enum trc_form form;
	long sleep_ms;		/* stays inside this long, then leaves */
	int in;			/* inside (after its inner sections ended) */
	int leaving;		/* about to end its outermost section */
	int held_inside;	/* rcu_read_lock_trace_held() inside */
	int held_after;		/* ... after it left */
	unsigned long nesting_inside;	/* lrcu_trc_self.nesting while waiting */
};

static void *trc_holder_main(void *p)
{
	struct trc_holder *h = p;
	struct srcu_ctr *scp = NULL;

	if (h->form == TRC_NESTED) {
		rcu_read_lock_trace();
		rcu_read_lock_trace();		/* nested twice ... */
		rcu_read_lock_trace();
		rcu_read_unlock_trace();	/* ... and out of both again */
		rcu_read_unlock_trace();
		h->nesting_inside = lrcu_trc_self.nesting;
	} else {
		scp = rcu_read_lock_tasks_trace();
	}
	h->held_inside = trc_held();
	set_flag(&h->in);
	sleep_ms(h->sleep_ms);
	set_flag(&h->leaving);
	if (h->form == TRC_NESTED)
		rcu_read_unlock_trace();
	else
		rcu_read_unlock_tasks_trace(scp);
	h->held_after = trc_held();
	return NULL;
}

static void trc_hold(struct trc_holder *h, enum trc_form form, long ms)
{
	memset(h, 0, sizeof(*h));
	h->form = form;
	h->sleep_ms = ms;
	if (pthread_create(&h->tid, NULL, trc_holder_main, h) || !wait_flag(&h->in, 60))
		abort();
}

static int cb_saw_leaving = -1;
static struct trc_holder *cb_holder;

static void leaving_cb(struct rcu_head *rh)
{
	(void)rh;
	__atomic_store_n(&cb_saw_leaving, flag(&cb_holder->leaving), __ATOMIC_RELEASE);
}

static const char *const form_name[] = { "a nested rcu_read_lock_trace() reader",
					 "an rcu_read_lock_tasks_trace() reader" };

static void test_sync_waits(enum trc_form form, const char *extra)
{
	struct trc_holder h;

	trc_hold(&h, form, 100);
	watchdog_arm("synchronize_rcu_tasks_trace()", 60);
	synchronize_rcu_tasks_trace();
	ok(watchdog_done() && flag(&h.leaving), "synchronize_rcu_tasks_trace() returns only "
	   "after %s on an unregistered thread left (it slept 100 ms inside)%s",
	   form_name[form], extra);
	pthread_join(h.tid, NULL);
	ok(h.held_inside && !h.held_after, "rcu_read_lock_trace_held(): 1 inside %s, 0 after",
	   form_name[form]);
	if (form == TRC_NESTED)
		ok(h.nesting_inside == 0, "the inner sections ended: nesting count back to 0 "
		   "(got %lu) with the outermost still open", h.nesting_inside);
}

/* rcu_tasks_trace_expedite_current() while a grace period waits for a
 * sleeping reader: it returns at once, and the grace period still waits. */
static void test_expedite_current(void)
{
	struct trc_holder h;
	struct lrcu_srcu_stats st0, st1;

	trc_hold(&h, TRC_NESTED, 100);
	lrcu_srcu_get_stats(&rcu_tasks_trace_srcu_struct, &st0);
	rcu_tasks_trace_expedite_current();
	watchdog_arm("synchronize_rcu_tasks_trace() after rcu_tasks_trace_expedite_current()", 60);
	synchronize_rcu_tasks_trace();
	lrcu_srcu_get_stats(&rcu_tasks_trace_srcu_struct, &st1);
	ok(watchdog_done() && flag(&h.leaving) && st1.exp_gps > st0.exp_gps,
	   "rcu_tasks_trace_expedite_current(): the grace period waiting for a sleeping "
	   "reader is expedited (%lu -> %lu expedited) and still waits for it",
	   st0.exp_gps, st1.exp_gps);
	pthread_join(h.tid, NULL);
}

static void test_callbacks(void)
{
	struct trc_holder h;
	struct rcu_head rh;

	trc_hold(&h, TRC_NESTED, 100);
	cb_holder = &h;
	__atomic_store_n(&cb_saw_leaving, -1, __ATOMIC_RELAXED);
	call_rcu_tasks_trace(&rh, leaving_cb);
	watchdog_arm("rcu_barrier_tasks_trace()", 60);
	rcu_barrier_tasks_trace();
	ok(watchdog_done() && __atomic_load_n(&cb_saw_leaving, __ATOMIC_ACQUIRE) == 1,
	   "call_rcu_tasks_trace(): the callback ran after the sleeping reader left, and "
	   "rcu_barrier_tasks_trace() waited for it");
	pthread_join(h.tid, NULL);
}

/* ------------------------------------------------------------------ */
/* Nesting on this thread: only the outermost pair touches the domain */

static void test_nesting_here(void)
{
	struct lrcu_srcu_stats st;
	unsigned long open;
	int i;

	ok(!trc_held() && lrcu_trc_self.scp == NULL, "outside any section: not held");
	rcu_read_lock_trace();
	lrcu_srcu_get_stats(&rcu_tasks_trace_srcu_struct, &st);
	open = st.readers[0] + st.readers[1];
	for (i = 0; i < 10; i++)
		rcu_read_lock_trace();
	lrcu_srcu_get_stats(&rcu_tasks_trace_srcu_struct, &st);
	ok(trc_held() && lrcu_trc_self.nesting == 10 &&
	   st.readers[0] + st.readers[1] == open,
	   "ten nested rcu_read_lock_trace(): nesting 10, no section added to the domain "
	   "(%lu open, was %lu)", st.readers[0] + st.readers[1], open);
	for (i = 0; i < 10; i++)
		rcu_read_unlock_trace();
	ok(trc_held(), "... still inside after the ten inner unlocks");
	rcu_read_unlock_trace();
	lrcu_srcu_get_stats(&rcu_tasks_trace_srcu_struct, &st);
	ok(!trc_held() && st.readers[0] + st.readers[1] == open - 1,
	   "the outermost unlock leaves the domain");
}

static void test_unmatched_unlock(void)
{
	unsigned long before = lrcu_misuse_count();

	rcu_read_unlock_trace();
	ok(lrcu_misuse_count() == before + 1 && lrcu_trc_self.scp == NULL &&
	   lrcu_trc_self.nesting == 0,
	   "rcu_read_unlock_trace() without a lock is reported and ignored");
}

/* ------------------------------------------------------------------ */
/* Signal handlers */

static int sig_count;

static void sig_handler(int sig)
{
	(void)sig;
	rcu_read_lock_trace();
	rcu_read_lock_trace();
	rcu_read_unlock_trace();
	rcu_read_unlock_trace();
	__atomic_fetch_add(&sig_count, 1, __ATOMIC_RELAXED);	/* a counter */
}

static int busy_stop, busy_running;
static long busy_bad;

/* Reads in a tight loop, to be interrupted inside lock and unlock. */
static void *busy_main(void *p)
{
	long bad = 0;

	(void)p;
	set_flag(&busy_running);
	while (!flag(&busy_stop)) {
		rcu_read_lock_trace();
		if (!trc_held() || lrcu_trc_self.nesting != 0)
			bad++;
		rcu_read_lock_trace();
		if (lrcu_trc_self.nesting != 1)
			bad++;
		rcu_read_unlock_trace();
		rcu_read_unlock_trace();
		if (trc_held())
			bad++;
	}
	busy_bad = bad;
	return NULL;
}

static void test_signals(void)
{
	struct sigaction sa = { .sa_handler = sig_handler };
	struct trc_holder h;
	pthread_t tid;
	int i;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);

	/* Synchronously: inside and outside a section of this thread. */
	raise(SIGUSR1);
	ok(!trc_held() && lrcu_trc_self.nesting == 0, "a handler's sections outside any "
	   "section leave the thread outside");
	rcu_read_lock_trace();
	raise(SIGUSR1);
	ok(trc_held() && lrcu_trc_self.nesting == 0, "a handler's sections nest in the "
	   "thread's open one and leave it open");
	rcu_read_unlock_trace();

	/* Asynchronously, at every point of the reader's lock and unlock. */
	pthread_create(&tid, NULL, busy_main, NULL);
	wait_flag(&busy_running, 60);
	for (i = 0; i < scale(400); i++) {
		int c = __atomic_load_n(&sig_count, __ATOMIC_RELAXED);
		double t0 = now_s();

		/* One at a time (pending signals coalesce): wait for each. */
		pthread_kill(tid, SIGUSR1);
		while (__atomic_load_n(&sig_count, __ATOMIC_RELAXED) == c && now_s() - t0 < 1)
			sched_yield();
	}
	set_flag(&busy_stop);
	pthread_join(tid, NULL);
	ok(busy_bad == 0, "a reader interrupted %d times by reading handlers always saw its "
	   "own state (%ld mismatches)", __atomic_load_n(&sig_count, __ATOMIC_RELAXED), busy_bad);
	/* No section leaked: a grace period still ends (behind a reader). */
	trc_hold(&h, TRC_NESTED, 50);
	watchdog_arm("synchronize_rcu_tasks_trace() after the signal storm", 60);
	synchronize_rcu_tasks_trace();
	ok(watchdog_done() && flag(&h.leaving), "... and left no section behind: grace "
	   "periods still end, and still wait for readers");
	pthread_join(h.tid, NULL);
}

/* ------------------------------------------------------------------ */
/* synchronize_rcu_tasks_trace() inside a reader */

static void child_self_deadlock(void)
{
	rcu_read_lock_trace();
	synchronize_rcu_tasks_trace();
	printf("returned\n");
	exit(0);
}

static void test_self_deadlock(void)
{
	char buf[4096];
	int st = run_self("self-deadlock", "", NULL, buf, sizeof(buf));

	ok(died_of(st, SIGABRT) && strstr(buf, "rcu: BUG") &&
	   strstr(buf, "synchronize_rcu_tasks_trace"),
	   "synchronize_rcu_tasks_trace() inside rcu_read_lock_trace() is a BUG, not a hang");
	if (!died_of(st, SIGABRT))
		diag_output(buf);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "self-deadlock"))
		child_self_deadlock();
	test_nesting_here();
	test_sync_waits(TRC_NESTED, "");
	test_sync_waits(TRC_SCP, "");
	test_callbacks();
	test_expedite_current();
	set_param("rcupdate.rcu_tasks_trace_read_mb", "1");
	test_sync_waits(TRC_NESTED, ", with heavyweight readers (rcu_tasks_trace_read_mb=1)");
	set_param("rcupdate.rcu_tasks_trace_read_mb", "0");
	test_unmatched_unlock();
	test_signals();
	test_self_deadlock();
	return done_testing();
}
