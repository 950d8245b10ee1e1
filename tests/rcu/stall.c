/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/stall.c - RCU CPU stall warnings: a reader that stays in its
 * section (or a rcu_sched thread that stops reporting) past
 * rcupdate.rcu_cpu_stall_timeout gets a warning in the kernel's shape
 * naming it, no earlier than the timeout, repeated while the stall lasts;
 * expedited grace periods get their own message and timeout; a starved
 * grace-period thread is reported as such, also one a test hook holds
 * (rcutorture's stall_gp_kthread); rcu_cpu_stall_suppress
 * silences it all; notifiers receive the reports; a healthy run has none.
 *
 * Each case runs in a fresh copy of this program (the timeouts come from
 * RCU_BOOTARGS), which prints one "result" line the parent checks along
 * with the warning text on its stderr.
 */
#define LRCU_TEST_HOOKS		/* lrcu_inject_gp_kthread_wait() */
#include <sys/syscall.h>
#include <rcu/rcu_notifier.h>
#include <rcu/rcutree.h>
#include <rcu/srcu.h>
#include "rcu_test.h"

/* ------------------------------------------------------------------ */
/* The child */

static int nf_count;				/* release: the copies below */
static unsigned long nf_action;
static struct rcu_stall_info nf_first;
static struct rcu_stall_holdout nf_holdout;
static unsigned long nf_last_ms;
static int nf_starved;

static int notified(struct rcu_stall_notifier *nb, unsigned long action, void *data)
{
	const struct rcu_stall_info *i = data;

	(void)nb;
	if (!__atomic_load_n(&nf_count, __ATOMIC_RELAXED)) {	/* only we write it */
		nf_action = action;
		nf_first = *i;
		if (i->nr_holdouts)
			nf_holdout = i->holdouts[0];
	}
	nf_last_ms = i->duration_ms;
	nf_starved |= i->starved;
	/* Release: the copies above before the count; pairs with count(). */
	__atomic_store_n(&nf_count, nf_count + 1, __ATOMIC_RELEASE);
	return 0;
}

static struct rcu_stall_notifier nb = { .notifier_call = notified };

static int count(void)
{
	return __atomic_load_n(&nf_count, __ATOMIC_ACQUIRE);	/* see notified() */
}

/* What the notifier saw, for the parent (run()); tid: the stalling
 * reader's, 0 if none.  Read after the reports are over. */
static void print_result(int tid)
{
	printf("result n=%d action=%lu tid=%d holdout_tid=%d holdout_ms=%lu nh=%d dur=%lu "
	       "last=%lu starved=%d\n", count(), nf_action, tid, nf_holdout.tid, nf_holdout.ms,
	       nf_first.nr_holdouts, nf_first.duration_ms, nf_last_ms, nf_starved);
}

struct staller {
	int sched;		/* rcu_sched: stop announcing quiescent states */
	int want;		/* leave after this many warnings... */
	double max_s;		/* ... or after this long */
	int in, tid;
};

static void staller_fn(void *arg)
{
	struct staller *s = arg;
	double end = now_s() + s->max_s;

	pthread_setname_np(pthread_self(), "stallreader");
	s->tid = (int)syscall(SYS_gettid);
	if (s->sched)
		rcu_quiescent_state();	/* joins the flavor */
	else
		rcu_read_lock();
	set_flag(&s->in);
	while (count() < s->want && now_s() < end)
		sleep_ms(5);	/* asleep in the section */
	if (s->sched)
		rcu_quiescent_state();
	else
		rcu_read_unlock();
}

static void *sync_fn(void *arg)
{
	((void (*)(void))arg)();
	return NULL;
}

/* SRCU: a domain whose reader (an unregistered thread) sleeps in its
 * section; the warning must name the domain and the thread. */
DEFINE_STATIC_SRCU(stall_domain);

static void *srcu_staller_fn(void *arg)
{
	struct staller *s = arg;
	double end = now_s() + s->max_s;
	int idx;

	pthread_setname_np(pthread_self(), "srcureader");
	s->tid = (int)syscall(SYS_gettid);
	idx = srcu_read_lock(&stall_domain);
	set_flag(&s->in);
	while (count() < s->want && now_s() < end)
		sleep_ms(5);	/* asleep in the section */
	srcu_read_unlock(&stall_domain, idx);
	return NULL;
}

static void sync_srcu(void) { synchronize_srcu(&stall_domain); }

static int child_srcu_stall(void)
{
	struct staller s = { .want = 1, .max_s = 30 };
	pthread_t r, t;

	rcu_stall_chain_notifier_register(&nb);
	pthread_create(&r, NULL, srcu_staller_fn, &s);
	wait_flag(&s.in, 60);
	pthread_create(&t, NULL, sync_fn, (void *)sync_srcu);
	pthread_join(t, NULL);
	pthread_join(r, NULL);
	print_result(s.tid);
	printf("flavor=%s\n", nf_first.flavor ? nf_first.flavor : "?");
	return 0;
}


static void sync_rcu(void) { synchronize_rcu(); }
static void sync_exp(void) { synchronize_rcu_expedited(); }
static void sync_sched(void) { synchronize_sched(); }

/* The polled expedited call asks the GP kthread to drive the expedited
 * grace period (a caller that cannot block cannot drive it). */
static void sync_exp_poll(void)
{
	unsigned long cookie = start_poll_synchronize_rcu_expedited();

	while (!poll_state_synchronize_rcu(cookie))
		sleep_ms(5);
}

static int child_stall(const char *mode)
{
	struct staller s = { .want = 1, .max_s = 30 };
	void (*sync)(void) = sync_rcu;
	struct reg_thread rt;
	pthread_t t;

	if (!strcmp(mode, "sched")) {
		s.sched = 1;
		sync = sync_sched;
	} else if (!strcmp(mode, "exp")) {
		sync = sync_exp;
	} else if (!strcmp(mode, "exppoll")) {
		sync = sync_exp_poll;
	} else if (!strcmp(mode, "repeat")) {
		s.want = 2;
	} else if (!strcmp(mode, "suppress")) {
		s.want = 1000;
		s.max_s = 1;
	} else if (!strcmp(mode, "unregistered")) {
		s.want = 1000;
		s.max_s = 1;
	}
	if (rcu_stall_chain_notifier_register(&nb) ||
	    !rcu_stall_chain_notifier_register(&nb))	/* twice: refused */
		return 5;
	if (!strcmp(mode, "unregistered") && rcu_stall_chain_notifier_unregister(&nb))
		return 6;
	reg_thread_start(&rt, staller_fn, &s);
	wait_flag(&s.in, 60);
	pthread_create(&t, NULL, sync_fn, (void *)sync);
	pthread_join(t, NULL);
	reg_thread_join(&rt);
	print_result(s.tid);
	return 0;
}

/* The grace-period thread sleeps in its grace period (gp_preinit_delay):
 * a waiter notices. */
static int child_starved(void)
{
	rcu_stall_chain_notifier_register(&nb);
	synchronize_rcu();
	print_result(0);
	return 0;
}

/* rcutorture's stall_gp_kthread: the grace-period thread sleeps 1 s in
 * the next grace period; this caller, which would drive its own, leaves
 * it to the thread and notices the starvation while it waits. */
static int child_gp_kthread_wait(void)
{
	rcu_stall_chain_notifier_register(&nb);
	lrcu_inject_gp_kthread_wait(LRCU_PREEMPT, 1000);
	synchronize_rcu();
	print_result(0);
	return 0;
}

/* The same with nobody waiting in synchronize_*(): the caller polls its
 * cookie (rcutorture's gp_poll writers), and its polls notice. */
static int child_gp_kthread_wait_poll(void)
{
	unsigned long cookie;

	rcu_stall_chain_notifier_register(&nb);
	lrcu_inject_gp_kthread_wait(LRCU_PREEMPT, 1000);
	cookie = start_poll_synchronize_rcu();
	while (!poll_state_synchronize_rcu(cookie))
		sleep_ms(5);
	/* The reports came from the callback thread: its notifier calls are
	 * over once the chain's lock let us unregister. */
	rcu_stall_chain_notifier_unregister(&nb);
	print_result(0);
	return 0;
}

/* Readers, updaters, callbacks of both flavors for a while: no warning. */
static int healthy_stop;

static void healthy_reader(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&healthy_stop, __ATOMIC_ACQUIRE)) {
		rcu_read_lock();
		rcu_read_unlock();
		rcu_read_lock_sched();
		rcu_read_unlock_sched();
		rcu_quiescent_state();
		sleep_ms(1);
	}
}

static void healthy_cb(struct rcu_head *rh)
{
	free(rh);
}

static int child_healthy(void)
{
	struct reg_thread rt[2];
	struct lrcu_stats a, b;
	double end = now_s() + 2.5;
	int i;

	rcu_stall_chain_notifier_register(&nb);
	for (i = 0; i < 2; i++)
		reg_thread_start(&rt[i], healthy_reader, NULL);
	while (now_s() < end) {
		synchronize_rcu();
		synchronize_rcu_expedited();
		synchronize_sched();
		synchronize_sched_expedited();
		call_rcu(malloc(sizeof(struct rcu_head)), healthy_cb);
		sleep_ms(20);	/* idle spells between grace periods */
	}
	__atomic_store_n(&healthy_stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++)
		reg_thread_join(&rt[i]);
	rcu_barrier();
	/* Idle past the timeout, then a waiter that looks before its grace
	 * period starts: nothing may be left armed from the last one. */
	sleep_ms(2200);
	lrcu_param_set("rcutree.gp_start_delay", "100", NULL, 0);
	synchronize_rcu();
	lrcu_get_stats(LRCU_PREEMPT, &a);
	lrcu_get_stats(LRCU_SCHED, &b);
	printf("result n=%d stalls=%lu gps=%lu\n", count(), a.stalls + a.exp_stalls + b.stalls +
	       b.exp_stalls, a.gps_completed + b.gps_completed);
	return 0;
}

static int child(const char *mode)
{
	if (!strcmp(mode, "starved"))
		return child_starved();
	if (!strcmp(mode, "gp_kthread_wait"))
		return child_gp_kthread_wait();
	if (!strcmp(mode, "gp_kthread_wait_poll"))
		return child_gp_kthread_wait_poll();
	if (!strcmp(mode, "healthy"))
		return child_healthy();
	if (!strcmp(mode, "srcu"))
		return child_srcu_stall();
	return child_stall(mode);
}

/* ------------------------------------------------------------------ */
/* The parent */

static char out[65536];

struct result {
	int n, tid, holdout_tid, nh, starved;
	unsigned long action, holdout_ms, dur, last;
};

static bool run(const char *mode, const char *bootargs, struct result *r)
{
	int st = run_self(mode, NULL, bootargs, out, sizeof(out));
	const char *p = strstr(out, "result ");

	memset(r, 0, sizeof(*r));
	if (!exited_with(st, 0) || !p ||
	    sscanf(p, "result n=%d action=%lu tid=%d holdout_tid=%d holdout_ms=%lu nh=%d dur=%lu "
		   "last=%lu starved=%d", &r->n, &r->action, &r->tid, &r->holdout_tid,
		   &r->holdout_ms, &r->nh, &r->dur, &r->last, &r->starved) != 9) {
		diag("child %s failed (status 0x%x):", mode, st);
		diag_output(out);
		return false;
	}
	return true;
}

/* Does the output hold a line with all of a, b (and c if non-NULL)? */
static bool line_has(const char *a, const char *b, const char *c)
{
	const char *p = out;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), p);
		if (strstr(line, a) && strstr(line, b) && (!c || strstr(line, c)))
			return true;
		p += n + (nl ? 1 : 0);
	}
	return false;
}

static void test_rcu(void)
{
	struct result r;
	char ptid[32];
	bool good = run("rcu", "rcupdate.rcu_cpu_stall_timeout=0.3", &r);

	snprintf(ptid, sizeof(ptid), "P%d ", r.tid);
	ok(good && line_has("rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:", "", NULL),
	   "rcu: a reader past the timeout gets the kernel's stall warning");
	ok(good && line_has("rcu: \t", ptid, "stallreader: in a read-side critical section for at least"),
	   "... naming the stalled thread (slot, %s, its name, how long)", ptid);
	ok(good && line_has("\t(detected by ", "t=", "q="), "... and who detected it, t=, g=, q=");
	ok(good && r.n >= 1 && r.action == RCU_STALL_NOTIFY_NORM && r.nh == 1 &&
	   r.holdout_tid == r.tid, "the notifier gets it: normal, one holdout, the right thread");
	ok(good && r.dur >= 300 && r.holdout_ms >= 300,
	   "not before the timeout: grace period %lu ms old, reader in %lu ms", r.dur, r.holdout_ms);
	if (!good || r.dur < 300)
		diag_output(out);
}

static void test_srcu(void)
{
	struct result r;
	char ptid[32];
	bool good = run("srcu", "rcupdate.rcu_cpu_stall_timeout=0.3", &r);

	snprintf(ptid, sizeof(ptid), "P%d ", r.tid);
	ok(good && line_has("rcu: INFO: stall_domain detected stalls on CPUs/tasks:", "", NULL) &&
	   line_has("flavor=stall_domain", "", NULL),
	   "srcu: a reader past the timeout gets a stall warning naming its domain");
	ok(good && line_has("rcu: \t", ptid, "srcureader: 1 SRCU read-side section(s) open") &&
	   r.holdout_tid == r.tid && r.nh == 1,
	   "... and the unregistered thread inside it (%s, its name)", ptid);
}

static void test_sched(void)
{
	struct result r;
	char ptid[32];
	bool good = run("sched", "rcupdate.rcu_cpu_stall_timeout=0.3", &r);

	snprintf(ptid, sizeof(ptid), "P%d ", r.tid);
	ok(good && line_has("rcu: INFO: rcu_sched detected stalls on CPUs/tasks:", "", NULL) &&
	   line_has(ptid, "stallreader: no quiescent state for at least", NULL) &&
	   r.holdout_tid == r.tid,
	   "rcu_sched: a thread that stops announcing quiescent states is named");
}

static void test_exp(void)
{
	struct result r;
	bool good = run("exp", "rcupdate.rcu_cpu_stall_timeout=60 "
			"rcupdate.rcu_exp_cpu_stall_timeout=200", &r);

	ok(good && line_has("rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: {",
			    "jiffies s:", NULL) &&
	   r.action == RCU_STALL_NOTIFY_EXP && r.holdout_tid == r.tid && r.dur >= 200,
	   "expedited: its own message and timeout (rcu_exp_cpu_stall_timeout=200 ms), after %lu ms",
	   r.dur);
	if (!good)
		diag_output(out);
	/*
	 * Polled: the GP kthread drives the expedited grace period and sleeps
	 * until the holdout reports or the stall is due.  That is not a
	 * starved kthread (with a normal timeout of 0.3 s, a driver idle for
	 * 0.15 s would be called one).
	 */
	good = run("exppoll", "rcupdate.rcu_cpu_stall_timeout=0.3 "
		   "rcupdate.rcu_exp_cpu_stall_timeout=200", &r);
	ok(good && line_has("rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: {",
			    "jiffies s:", NULL) &&
	   r.action == RCU_STALL_NOTIFY_EXP && r.holdout_tid == r.tid && !r.starved &&
	   !strstr(out, "kthread starved"),
	   "expedited, driven by the GP kthread (polled): no \"kthread starved\" line, as in "
	   "the kernel");
	if (!good || r.starved)
		diag_output(out);
}

static void test_repeat(void)
{
	struct result r;
	bool good = run("repeat", "rcupdate.rcu_cpu_stall_timeout=0.2", &r);

	ok(good && r.n >= 2 && r.last >= r.dur + 3 * 200,
	   "a lasting stall is reported again, 3 timeouts later (at %lu ms, then %lu ms)",
	   r.dur, r.last);
}

static void test_suppress(void)
{
	struct result r;
	bool good = run("suppress", "rcupdate.rcu_cpu_stall_timeout=0.1 "
			"rcupdate.rcu_cpu_stall_suppress=1", &r);

	ok(good && r.n == 0 && !strstr(out, "detected stalls"),
	   "rcu_cpu_stall_suppress=1: a 1 s stall with a 0.1 s timeout says nothing");
}

static void test_unregistered(void)
{
	struct result r;
	bool good = run("unregistered", "rcupdate.rcu_cpu_stall_timeout=0.1", &r);

	ok(good && r.n == 0 && strstr(out, "detected stalls on CPUs/tasks:"),
	   "an unregistered notifier is not called (the warning is still printed)");
}

static void test_starved(void)
{
	struct result r;
	/* gp_caller_drives=0: the kthread drives synchronize_rcu()'s grace
	 * period (a caller that drives it is not the kthread). */
	bool good = run("starved", "rcupdate.rcu_cpu_stall_timeout=0.2 rcutree.gp_preinit_delay=1000 "
			"rcutree.gp_caller_drives=0",
			&r);

	ok(good && r.starved && line_has("rcu: rcu_preempt kthread starved for", "jiffies!", NULL) &&
	   line_has("Unless rcu_preempt kthread gets sufficient CPU time", "", NULL),
	   "a grace-period thread that does not run is reported starved (by a waiter)");
	if (!good || !r.starved)
		diag_output(out);
}

static void test_gp_kthread_wait(void)
{
	struct result r;
	bool good = run("gp_kthread_wait", "rcupdate.rcu_cpu_stall_timeout=0.2", &r);

	ok(good && line_has("rcu: rcu_gp_torture_wait: rcu_preempt kthread waiting 1000 jiffies", "", NULL) &&
	   line_has("rcu: rcu_gp_torture_wait: rcu_preempt kthread wait complete", "", NULL),
	   "lrcu_inject_gp_kthread_wait(): the grace-period thread sleeps in a grace period, "
	   "which synchronize_rcu() left to it");
	ok(good && r.n >= 1 && r.starved &&
	   line_has("rcu: rcu_preempt kthread starved for", "jiffies!", "RCU_GP_WAIT_FQS"),
	   "... and the stall warning reports it starved (the notifiers too)");
	if (!good || !r.starved)
		diag_output(out);
}

static void test_gp_kthread_wait_poll(void)
{
	struct result r;
	bool good = run("gp_kthread_wait_poll", "rcupdate.rcu_cpu_stall_timeout=0.2", &r);

	ok(good && r.n >= 1 && r.starved &&
	   line_has("rcu: rcu_preempt kthread starved for", "jiffies!", "RCU_GP_WAIT_FQS"),
	   "... reported too when nobody waits in synchronize_*(): a poller of the cookie notices");
	if (!good || !r.starved)
		diag_output(out);
}

static void test_info(void)
{
	struct result r;
	bool good = run("rcu", "rcupdate.rcu_cpu_stall_timeout=0.2 rcupdate.rcu_cpu_stall_info=1 "
			"rcupdate.rcu_cpu_stall_verbose=1", &r);

	ok(good && line_has("stallreader:", "nesting=1", "state=") &&
	   line_has("rcu: \trcu_node ", "->qsmask 0x", NULL),
	   "rcu_cpu_stall_info / _verbose add per-thread detail and the rcu_node masks");
}

static void test_healthy(void)
{
	unsigned long stalls = 1, gps = 0;
	int st = run_self("healthy", NULL, "rcupdate.rcu_cpu_stall_timeout=2", out, sizeof(out));
	const char *p = strstr(out, "result ");
	int n = -1;
	bool good = exited_with(st, 0) && p &&
		    sscanf(p, "result n=%d stalls=%lu gps=%lu", &n, &stalls, &gps) == 3;

	ok(good && n == 0 && stalls == 0 && !strstr(out, "detected") && gps > 20,
	   "a healthy run of 2.5 s, then idle, with a 2 s timeout: no warning (%lu grace periods)",
	   gps);
	if (n)
		diag_output(out);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return child(argv[1]);
	test_rcu();
	test_srcu();
	test_sched();
	test_exp();
	test_repeat();
	test_suppress();
	test_unregistered();
	test_starved();
	test_gp_kthread_wait();
	test_gp_kthread_wait_poll();
	test_info();
	test_healthy();
	return done_testing();
}
