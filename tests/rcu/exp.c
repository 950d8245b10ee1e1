/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/exp.c - expedited grace periods: they wait for every reader
 * that started before them (including one that sleeps in its section),
 * concurrent callers share them, rcu_expedited/rcu_normal route the calls,
 * an expedited grace period serves normal waiters, callbacks and cookies,
 * idle threads are never asked for anything, and threads registering or
 * leaving during one are handled.
 */
#include <rcu/rcutree.h>
#include "rcu_holder.h"
#include "../../rcu/src/internal.h"	/* lrcu__report_qs_slot(): staged reports */

static struct lrcu_stats stats(enum lrcu_flavor f)
{
	struct lrcu_stats st;

	lrcu_get_stats(f, &st);
	return st;
}

static void exp_rcu(void) { synchronize_rcu_expedited(); }
static void exp_bh(void) { synchronize_rcu_bh_expedited(); }
static void exp_sched(void) { synchronize_sched_expedited(); }

static unsigned long cond_cookie;
static void exp_cond(void) { cond_synchronize_rcu_expedited(cond_cookie); }

static void take_cookie(void)
{
	cond_cookie = get_state_synchronize_rcu();
}

static void test_reader_blocks(enum rmode mode, void (*sync)(void), const char *what)
{
	enum lrcu_flavor f = mode == R_SCHED ? LRCU_SCHED : LRCU_PREEMPT;
	unsigned long exp0 = stats(f).exp_gps;

	reader_blocks(mode, sync, take_cookie, what);
	ok(stats(f).exp_gps > exp0, "%s: ran as an expedited grace period", what);
}

/* ------------------------------------------------------------------ */
/* Concurrent callers share grace periods. */

#define NCALLERS 16

static void test_sharing(void)
{
	unsigned long before = stats(LRCU_PREEMPT).exp_gps, used;

	callers_during_gp(exp_rcu, NCALLERS);
	used = stats(LRCU_PREEMPT).exp_gps - before;
	ok(used >= 1 && used <= 3, "%d concurrent synchronize_rcu_expedited() share grace periods "
	   "(%lu expedited grace periods)", NCALLERS, used);
}

/* ------------------------------------------------------------------ */
/* rcu_expedited / rcu_normal / rcu_expedite_gp() route the calls. */

static void test_routing(void)
{
	unsigned long e0, g0, c;

	e0 = stats(LRCU_PREEMPT).exp_gps;
	synchronize_rcu();
	ok(stats(LRCU_PREEMPT).exp_gps == e0, "by default synchronize_rcu() is not expedited");

	set_param("rcupdate.rcu_expedited", "1");
	ok(rcu_gp_is_expedited(), "rcu_expedited=1: rcu_gp_is_expedited()");
	e0 = stats(LRCU_PREEMPT).exp_gps;
	synchronize_rcu();
	ok(stats(LRCU_PREEMPT).exp_gps > e0, "rcu_expedited=1: synchronize_rcu() runs expedited");
	e0 = stats(LRCU_SCHED).exp_gps;
	synchronize_sched();
	ok(stats(LRCU_SCHED).exp_gps > e0, "rcu_expedited=1: synchronize_sched() runs expedited");
	e0 = stats(LRCU_PREEMPT).exp_gps;
	c = get_state_synchronize_rcu();
	cond_synchronize_rcu(c);
	ok(stats(LRCU_PREEMPT).exp_gps > e0 && poll_state_synchronize_rcu(c),
	   "rcu_expedited=1: cond_synchronize_rcu() runs expedited");

	set_param("rcupdate.rcu_normal", "1");
	ok(rcu_gp_is_normal(), "rcu_normal=1: rcu_gp_is_normal()");
	e0 = stats(LRCU_PREEMPT).exp_gps;
	g0 = stats(LRCU_PREEMPT).gps_completed;
	synchronize_rcu();
	synchronize_rcu_expedited();
	c = get_state_synchronize_rcu();
	cond_synchronize_rcu_expedited(c);
	ok(stats(LRCU_PREEMPT).exp_gps == e0 && stats(LRCU_PREEMPT).gps_completed > g0 &&
	   poll_state_synchronize_rcu(c),
	   "rcu_normal=1 wins over rcu_expedited=1: expedited calls run normal grace periods");
	e0 = stats(LRCU_PREEMPT).exp_gps;
	c = start_poll_synchronize_rcu_expedited();
	synchronize_rcu();
	ok(stats(LRCU_PREEMPT).exp_gps == e0 && poll_state_synchronize_rcu(c),
	   "rcu_normal=1: start_poll_synchronize_rcu_expedited() asks for a normal one");
	set_param("rcupdate.rcu_normal", "0");
	set_param("rcupdate.rcu_expedited", "0");

	rcu_expedite_gp();
	rcu_expedite_gp();
	rcu_unexpedite_gp();
	e0 = stats(LRCU_PREEMPT).exp_gps;
	synchronize_rcu();
	ok(rcu_gp_is_expedited() && stats(LRCU_PREEMPT).exp_gps > e0,
	   "rcu_expedite_gp() nests: still expedited after one of two is undone");
	rcu_unexpedite_gp();
	e0 = stats(LRCU_PREEMPT).exp_gps;
	synchronize_rcu();
	ok(!rcu_gp_is_expedited() && stats(LRCU_PREEMPT).exp_gps == e0,
	   "... and normal again once both are");

	rcu_end_inkernel_boot();
	ok(!rcu_gp_is_normal(), "rcu_end_inkernel_boot() leaves rcu_normal alone by default");
	set_param("rcupdate.rcu_normal_after_boot", "1");
	rcu_end_inkernel_boot();
	ok(rcu_gp_is_normal(), "rcu_normal_after_boot=1: rcu_end_inkernel_boot() sets rcu_normal");
	set_param("rcupdate.rcu_normal", "0");
	set_param("rcupdate.rcu_normal_after_boot", "0");
}

/* ------------------------------------------------------------------ */
/* Polled + expedited: the same cookies. */

static void test_polled(void)
{
	unsigned long c, e0;
	double end;

	e0 = stats(LRCU_PREEMPT).exp_gps;
	c = start_poll_synchronize_rcu_expedited();
	end = now_s() + 30;
	while (!poll_state_synchronize_rcu(c) && now_s() < end)
		sleep_ms(1);
	ok(poll_state_synchronize_rcu(c) && stats(LRCU_PREEMPT).exp_gps > e0,
	   "start_poll_synchronize_rcu_expedited(): the GP kthread runs it expedited, the cookie completes");
	c = get_state_synchronize_rcu();
	synchronize_rcu_expedited();
	ok(poll_state_synchronize_rcu(c), "a normal cookie completes after synchronize_rcu_expedited()");
	cond_synchronize_rcu_expedited(c);	/* complete: returns at once */
	c = start_poll_synchronize_sched_expedited();
	cond_synchronize_sched_expedited(c);
	ok(poll_state_synchronize_sched(c), "sched: start_poll_/cond_synchronize_sched_expedited()");
}

/* ------------------------------------------------------------------ */
/*
 * An expedited grace period serves the normal machinery: with the GP
 * kthread told to wait a long time before starting a grace period, a
 * blocked synchronize_rcu(), a callback and a polled cookie all complete
 * thanks to one synchronize_rcu_expedited().  With a separate expedited
 * sequence they would wait for the kthread (the watchdog bails out).
 */
static int cb_ran, waiter_done;

static void cb_fn(struct rcu_head *rh)
{
	(void)rh;
	set_flag(&cb_ran);
}

static void *normal_waiter(void *arg)
{
	(void)arg;
	synchronize_rcu();
	set_flag(&waiter_done);
	return NULL;
}

static void test_serves_normal(void)
{
	static struct rcu_head rh;
	unsigned long need0, g0, e0, c;
	pthread_t w;

	synchronize_rcu();	/* nothing left pending from before */
	need0 = stats(LRCU_PREEMPT).gp_seq_needed;
	/* The normal waiter asks the (delayed) kthread, as in the kernel,
	 * instead of driving its grace period itself. */
	set_param("rcutree.gp_caller_drives", "0");
	set_param("rcutree.gp_start_delay", "100000");
	g0 = stats(LRCU_PREEMPT).gps_completed;
	e0 = stats(LRCU_PREEMPT).exp_gps;
	pthread_create(&w, NULL, normal_waiter, NULL);
	/* Its request is in once gp_seq_needed moved: its snapshot is older
	 * than the expedited grace period below. */
	while (stats(LRCU_PREEMPT).gp_seq_needed == need0)
		sleep_ms(1);
	call_rcu(&rh, cb_fn);
	c = start_poll_synchronize_rcu();
	watchdog_arm("normal waiters served by an expedited grace period", 30);
	synchronize_rcu_expedited();
	ok(poll_state_synchronize_rcu(c), "a start_poll cookie completes with the expedited grace period");
	wait_flag(&waiter_done, 1e9);
	pthread_join(w, NULL);
	ok(watchdog_done(), "a blocked synchronize_rcu() returns with it");
	watchdog_arm("callback after an expedited grace period", 30);
	wait_flag(&cb_ran, 1e9);
	ok(watchdog_done(), "a call_rcu() callback runs after it");
	ok(stats(LRCU_PREEMPT).gps_completed - g0 == stats(LRCU_PREEMPT).exp_gps - e0,
	   "the GP kthread ran none of those grace periods (%lu, %lu expedited)",
	   stats(LRCU_PREEMPT).gps_completed - g0, stats(LRCU_PREEMPT).exp_gps - e0);
	set_param("rcutree.gp_start_delay", "0");
	set_param("rcutree.gp_caller_drives", "1");
	synchronize_rcu();
}

/* ------------------------------------------------------------------ */
/* Idle threads are not disturbed; registration during a grace period. */

struct idle {
	int offline;	/* 1: joined both flavors, then offline; 0: never reads */
	int go, need_qs;
};

static void idle_fn(void *arg)
{
	struct idle *t = arg;

	if (t->offline) {
		rcu_quiescent_state();		/* joins rcu_sched */
		rcu_read_lock();		/* and has used rcu */
		rcu_read_unlock();
		rcu_thread_offline();
	}
	set_flag(&t->go);
	while (__atomic_load_n(&t->go, __ATOMIC_ACQUIRE) != 2)
		sleep_ms(1);
	if (t->offline)
		rcu_thread_online();
	/* Our own request flags: set only if a grace period asked us. */
	__atomic_store_n(&t->need_qs, lrcu_reader.rw->need_qs[LRCU_PREEMPT] |
			 lrcu_reader.rw->need_qs[LRCU_SCHED], __ATOMIC_RELEASE);
}

static void test_idle_not_disturbed(void)
{
	struct idle t[2] = { { .offline = 1 }, { .offline = 0 } };
	struct reg_thread rt[2];
	int i;

	for (i = 0; i < 2; i++) {
		reg_thread_start(&rt[i], idle_fn, &t[i]);
		wait_flag(&t[i].go, 60);
	}
	for (i = 0; i < 20; i++) {
		synchronize_rcu_expedited();
		synchronize_sched_expedited();
	}
	for (i = 0; i < 2; i++) {
		__atomic_store_n(&t[i].go, 2, __ATOMIC_RELEASE);
		reg_thread_join(&rt[i]);
	}
	ok(!t[0].need_qs, "an offline (idle) thread was asked for nothing by 40 expedited grace periods");
	ok(!t[1].need_qs, "nor was a registered thread that never reads");
}

struct late {
	int registered, stop;
};

static void late_fn(void *arg)
{
	struct late *l = arg;

	rcu_read_lock();
	set_flag(&l->registered);
	wait_flag(&l->stop, 1e9);
	rcu_read_unlock();
}

static void test_registration(void)
{
	struct holder h = { .mode = R_RCU };
	struct updater u = { .sync = exp_rcu, .h = &h };
	struct late l = { 0 };
	struct reg_thread rt, lt;
	pthread_t ut;

	reg_thread_start(&rt, holder_fn, &h);
	wait_flag(&h.in, 60);
	pthread_create(&ut, NULL, updater_fn, &u);
	/* The expedited grace period has started once gp_seq has a state
	 * (1 = started, 2 = confirmed: rcu_seq.h). */
	while (!(stats(LRCU_PREEMPT).gp_seq & 3))
		sleep_ms(1);
	reg_thread_start(&lt, late_fn, &l);
	wait_flag(&l.registered, 60);
	watchdog_arm("expedited GP with a reader that registered after it started", 30);
	set_flag(&h.leave);
	pthread_join(ut, NULL);
	ok(watchdog_done() && u.saw_reader_out,
	   "a thread that registers during an expedited grace period does not hold it up");
	set_flag(&l.stop);
	reg_thread_join(&lt);
	reg_thread_join(&rt);
}

/* ------------------------------------------------------------------ */
/*
 * A request that stands: the owner clears ->need_qs and reports, but its
 * word predates the grace period (it answered a request left over from
 * an earlier one, or the grace period started between its word store and
 * its report).  lrcu__report_qs_slot() must set ->need_qs again, else its
 * next quiescent state goes unreported and an expedited grace period,
 * which rescans on no timer, waits for ever.  Staged deterministically:
 * the thread calls the report itself while the grace period waits for it.
 */

struct remark {
	int joined, asked, remarked, upd_done_early, done;
	struct updater *u;
};

static int *sched_need_qs(void)
{
	return &lrcu_reader.rw->need_qs[LRCU_SCHED];
}

static void remark_fn(void *arg)
{
	struct remark *m = arg;
	struct lrcu_state *rsp = &lrcu__states[LRCU_SCHED];
	long t0 = now_ms();

	rcu_quiescent_state();	/* joins rcu_sched: the word is stamped now */
	set_flag(&m->joined);
	/* The expedited grace period finds our word stale and asks us
	 * (relaxed, as the markers read it; sleep_ms() orders nothing we
	 * rely on: we only wait). */
	while (!__atomic_load_n(sched_need_qs(), __ATOMIC_RELAXED) && now_ms() - t0 < 30000)
		sleep_ms(1);
	m->asked = __atomic_load_n(sched_need_qs(), __ATOMIC_RELAXED);
	/* The owner's half of lrcu_qs_special(), with our stale word. */
	__atomic_store_n(sched_need_qs(), 0, __ATOMIC_RELAXED);
	lrcu__report_qs_slot(rsp, &rsp->rda[lrcu_thread_slot()]);
	m->remarked = __atomic_load_n(sched_need_qs(), __ATOMIC_RELAXED);
	sleep_ms(20);
	/* Acquire pairs with set_flag(&u->done). */
	m->upd_done_early = __atomic_load_n(&m->u->done, __ATOMIC_ACQUIRE);
	rcu_quiescent_state();	/* a real quiescent state: reported */
	set_flag(&m->done);
}

static void test_request_stands(void)
{
	struct holder h = { .mode = R_SCHED };
	struct updater u = { .sync = exp_sched, .h = &h };
	struct remark m = { .u = &u };
	struct reg_thread rt;
	pthread_t ut;

	h.out = 1;	/* no holder here: the updater's check is m's */
	reg_thread_start(&rt, remark_fn, &m);
	wait_flag(&m.joined, 60);
	watchdog_arm("expedited sched GP waiting for a request that was re-marked", 30);
	pthread_create(&ut, NULL, updater_fn, &u);
	pthread_join(ut, NULL);
	ok(watchdog_done() && m.asked, "an expedited grace period asks a thread whose word predates it");
	reg_thread_join(&rt);
	ok(m.remarked, "a report whose word predates the grace period leaves the request standing");
	ok(!m.upd_done_early && m.done,
	   "the grace period ends only at the thread's next quiescent state");
}

/* ------------------------------------------------------------------ */
/* Misuse: an expedited grace period inside a read-side section. */

static int child(const char *mode)
{
	rcu_register_thread();
	if (!strcmp(mode, "in-reader")) {
		rcu_read_lock();
		synchronize_rcu_expedited();
	} else if (!strcmp(mode, "in-sched-reader")) {
		rcu_read_lock_sched();
		synchronize_sched_expedited();
		rcu_read_unlock_sched();
	}
	return 0;
}

static void test_misuse(void)
{
	static char out[8192];
	int st;

	st = run_self("in-reader", NULL, NULL, out, sizeof(out));
	ok(died_of(st, SIGABRT) && strstr(out, "synchronize_rcu_expedited"),
	   "synchronize_rcu_expedited() inside rcu_read_lock() is reported, not a deadlock");
	st = run_self("in-sched-reader", NULL, NULL, out, sizeof(out));
#ifdef CONFIG_PROVE_RCU
	ok(died_of(st, SIGABRT) && strstr(out, "synchronize_sched_expedited"),
	   "synchronize_sched_expedited() inside rcu_read_lock_sched() too (debug build)");
#else
	/* rcu_sched's release markers count no depth: the call cannot tell
	 * (the CONFIG_PROVE_RCU build reports it), and must not wait for its
	 * own caller either. */
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "synchronize_sched_expedited() inside rcu_read_lock_sched() returns (status %d)", st);
#endif
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return child(argv[1]);
	test_reader_blocks(R_RCU, exp_rcu, "synchronize_rcu_expedited");
	test_reader_blocks(R_RCU_NESTED, exp_rcu, "synchronize_rcu_expedited, nested reader");
	test_reader_blocks(R_BH, exp_bh, "synchronize_rcu_bh_expedited");
	test_reader_blocks(R_SCHED, exp_sched, "synchronize_sched_expedited");
	test_reader_blocks(R_RCU, exp_cond, "cond_synchronize_rcu_expedited");
	test_sharing();
	test_routing();
	test_polled();
	test_serves_normal();
	test_idle_not_disturbed();
	test_registration();
	test_request_stands();
	test_misuse();
	return done_testing();
}
