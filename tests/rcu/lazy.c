/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/lazy.c - lazy callbacks (kfree_rcu(); call_rcu() with
 * rcutree.enable_rcu_lazy=1), on a CPU whose callbacks the flavor's thread
 * runs and on an offloaded one: they wait (no grace period is requested,
 * none runs, the library's threads sleep), rcu_barrier() flushes them at
 * once, their timer (rcutree.jiffies_lazy_flush) flushes them, and then
 * their keeper (the callback thread, or the CPU's rcuop thread) drives
 * the grace period itself: the GP kthread and rcuog sleep through the
 * batch; a reader inside since before them still holds them (the keeper
 * leaves that grace period to the kthread); a grace period that happens
 * anyway takes them along, call_rcu_hurry() is never lazy, and
 * jiffies_lazy_flush=0 turns laziness off.
 *
 * nr_cpus=4; CPU 2 offloaded, CPU 0 not, CPU 1 the reader's; the delay
 * starts at 10 minutes, so that nothing but the test flushes them.  The
 * counters compared below only move when something wakes a thread or
 * drives a grace period, so the equalities do not depend on timing.
 */
#include <rcu/rcutree.h>
#include "rcu_test.h"

#define BOOT	"nr_cpus=4 rcu_nocbs=2 rcutree.jiffies_lazy_flush=600000"

static long nr_run;

struct lcb {
	struct rcu_head rh;
	int *flag;
};

static void lcb_fn(struct rcu_head *rh)
{
	struct lcb *c = container_of(rh, struct lcb, rh);

	if (c->flag)
		set_flag(c->flag);
	free(c);
	__atomic_fetch_add(&nr_run, 1, __ATOMIC_RELEASE);	/* pairs with run() */
}

static long run(void)
{
	return __atomic_load_n(&nr_run, __ATOMIC_ACQUIRE);
}

static struct lrcu_stats stats(void)
{
	struct lrcu_stats st;

	lrcu_get_stats(LRCU_PREEMPT, &st);
	return st;
}

/* A registered thread as CPU cpu runs fn(arg) when asked, one at a time. */
struct cpu_thread {
	pthread_t t;
	int cpu;
	void (*fn)(void *);
	void *arg;
	int asked, done, stop;	/* atomic */
};

static void *cpu_main(void *p)
{
	struct cpu_thread *c = p;

	if (rcu_register_thread_cpu(c->cpu))
		printf("Bail out! cannot register as CPU %d\n", c->cpu), exit(1);
	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&c->asked, __ATOMIC_ACQUIRE) != c->done) {
			c->fn(c->arg);
			__atomic_store_n(&c->done, c->done + 1, __ATOMIC_RELEASE);
		}
		sleep_ms(1);
	}
	rcu_unregister_thread();
	return NULL;
}

static struct cpu_thread cpu0 = { .cpu = 0 }, cpu2 = { .cpu = 2 };

/* Run fn(arg) on CPU c and wait for it. */
static void on(struct cpu_thread *c, void (*fn)(void *), void *arg)
{
	c->fn = fn;
	c->arg = arg;
	double end = now_s() + 60;
	int want = __atomic_load_n(&c->done, __ATOMIC_ACQUIRE) + 1;

	__atomic_store_n(&c->asked, want, __ATOMIC_RELEASE);
	while (__atomic_load_n(&c->done, __ATOMIC_ACQUIRE) != want) {
		if (now_s() > end)
			printf("Bail out! CPU %d did not do its part\n", c->cpu), exit(1);
		sleep_ms(1);
	}
}

/* ------------------------------------------------------------------ */

#define N	50

static void q_lazy(void *flag)
{
	int i;

	for (i = 0; i < N; i++) {
		struct lcb *c = calloc(1, sizeof(*c));

		c->flag = i == N - 1 ? flag : NULL;
		call_rcu(&c->rh, lcb_fn);	/* lazy: enable_rcu_lazy=1 */
	}
}

static void q_hurry(void *flag)
{
	struct lcb *c = calloc(1, sizeof(*c));

	c->flag = flag;
	call_rcu_hurry(&c->rh, lcb_fn);
}

struct kobj {
	long payload[3];
	struct rcu_head rh;
};

static void q_kfree(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < N; i++) {
		struct kobj *k = malloc(sizeof(*k));

		kfree_rcu(k, rh);
	}
}

static bool lib_thread(long tid, const char *comm)
{
	(void)tid;
	return !strncmp(comm, "rcu", 3);	/* rcu_*, rcuog/, rcuop/, rcuos/ ... */
}

/*
 * With lazy callbacks pending and nothing else to do, the library's
 * threads sleep: a window with no context switch at all.  A few tries,
 * as threads woken by the queueing may still be settling.
 */
static bool idle_window(int *nthreads, long *last)
{
	int i;

	for (i = 0; i < 5; i++) {
		long b = thread_switches(lib_thread, nthreads);

		sleep_ms(300);
		*last = thread_switches(lib_thread, nthreads) - b;
		if (!*last)
			return true;
	}
	return false;
}

static void test_deferred(struct cpu_thread *c, const char *what)
{
	struct lrcu_stats b = stats(), a;
	long base = run(), sw = 0;
	bool idle;
	int n = 0;

	set_param("rcutree.enable_rcu_lazy", "1");
	on(c, q_lazy, NULL);
	idle = idle_window(&n, &sw);
	ok(idle, "%s: lazy callbacks pending, the library's %d threads sleep "
	   "(a 300 ms window with %ld context switches)", what, n, sw);
	a = stats();
	ok(run() == base && a.gps_completed == b.gps_completed && a.lazy_pending == N,
	   "%s: none ran, no grace period, %lu lazy pending", what, a.lazy_pending);
	watchdog_arm("rcu_barrier() with lazy callbacks", 60);
	rcu_barrier();
	a = stats();
	ok(watchdog_done() && run() == base + N && !a.lazy_pending && !a.cbs_pending,
	   "%s: rcu_barrier() flushed them at once (%ld ran)", what, run() - base);
	set_param("rcutree.enable_rcu_lazy", "0");
}

static bool gp_kthread(long tid, const char *comm)
{
	(void)tid;
	return !strcmp(comm, "rcu_preempt");
}

static struct lrcu_nocb_info nocb_info(int cpu)
{
	struct lrcu_nocb_info ni;

	if (lrcu_nocb_info(LRCU_PREEMPT, cpu, &ni))
		printf("Bail out! no offloading information for CPU %d\n", cpu), exit(1);
	return ni;
}

/*
 * The timer flushes them, and their keeper drives the grace period itself
 * (nobody reads): grace periods end while the GP kthread never wakes
 * (nobody else asks for one), nor (offloaded) the group's rcuog thread.
 * From a window in which the library's threads sleep, so that no wakeup
 * from before is still being counted.
 */
static void test_timer(struct cpu_thread *c, const char *what, int nocb_cpu)
{
	struct lrcu_nocb_info nb = { 0 }, na = { 0 };
	struct lrcu_stats b, a;
	long k0, k1, sw = 0;
	int flag = 0, n;
	bool idle;

	set_param("rcutree.enable_rcu_lazy", "1");
	set_param("rcutree.jiffies_lazy_flush", "50");
	idle = idle_window(&n, &sw);
	b = stats();
	k0 = thread_switches(gp_kthread, &n);
	if (nocb_cpu >= 0)
		nb = nocb_info(nocb_cpu);
	on(c, q_lazy, &flag);
	/* Bounded: a hang, not a timing verdict. */
	ok(wait_flag(&flag, 60), "%s: the lazy timer (50 ms) flushed them", what);
	a = stats();
	k1 = thread_switches(gp_kthread, &n);
	ok(idle && n == 1 && a.gps_completed > b.gps_completed && k1 == k0,
	   "%s: their keeper drove the grace period (%lu ended), the GP kthread slept "
	   "(%ld context switches)", what, a.gps_completed - b.gps_completed, k1 - k0);
	if (nocb_cpu >= 0) {
		na = nocb_info(nocb_cpu);
		ok(na.gp_wakeups == nb.gp_wakeups && na.cb_wakeups > nb.cb_wakeups,
		   "%s: its rcuop thread kept the timer (%lu wakeups), rcuog slept (%lu)", what,
		   na.cb_wakeups - nb.cb_wakeups, na.gp_wakeups - nb.gp_wakeups);
	}
	set_param("rcutree.jiffies_lazy_flush", "600000");
	set_param("rcutree.enable_rcu_lazy", "0");
	rcu_barrier();
}

/* A reader on CPU 1, inside from before the callbacks until told. */
static int reader_in, reader_go;

static void *reader_main(void *arg)
{
	(void)arg;
	if (rcu_register_thread_cpu(1))
		printf("Bail out! cannot register as CPU 1\n"), exit(1);
	rcu_read_lock();
	set_flag(&reader_in);
	wait_flag(&reader_go, 120);
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

/*
 * Their timer fires while a reader that was inside before they were
 * queued still is: they must wait for it.  The keeper, which never waits
 * for a reader, leaves the grace period to the GP kthread: seen waiting
 * for the reader (RCU_GP_WAIT_FQS) after the flush; none ran meanwhile.
 */
static void test_reader(struct cpu_thread *c, const char *what)
{
	struct lrcu_stats b, a;
	long base = run();
	int flag = 0;
	pthread_t t;

	set_param("rcutree.enable_rcu_lazy", "1");
	set_param("rcutree.jiffies_lazy_flush", "50");
	reader_in = reader_go = 0;
	if (pthread_create(&t, NULL, reader_main, NULL) || !wait_flag(&reader_in, 60))
		printf("Bail out! the reader did not start\n"), exit(1);
	b = stats();
	on(c, q_lazy, &flag);
	watchdog_arm("a lazy batch's grace period waiting for a reader", 60);
	do {
		sleep_ms(1);
		a = stats();
	} while (a.lazy_flushes == b.lazy_flushes || a.gp_state != LRCU_GPS_WAIT_FQS);
	watchdog_done();
	sleep_ms(100);	/* a keeper that ended it wrongly has run them by now */
	a = stats();
	ok(!__atomic_load_n(&flag, __ATOMIC_ACQUIRE) && run() == base &&
	   a.gps_completed == b.gps_completed,
	   "%s: flushed while a reader from before is inside: left to the GP kthread, "
	   "none ran (%ld)", what, run() - base);
	set_flag(&reader_go);
	ok(wait_flag(&flag, 60), "%s: they ran once the reader left", what);
	pthread_join(t, NULL);
	set_param("rcutree.jiffies_lazy_flush", "600000");
	set_param("rcutree.enable_rcu_lazy", "0");
	rcu_barrier();
}

static void test_piggyback(struct cpu_thread *c, const char *what)
{
	int flag = 0;

	set_param("rcutree.enable_rcu_lazy", "1");
	on(c, q_lazy, &flag);
	synchronize_rcu();
	synchronize_rcu();
	/* Bounded waits (their timer is 10 minutes away). */
	ok(wait_flag(&flag, 60), "%s: grace periods that happened anyway took them along", what);
	flag = 0;
	on(c, q_hurry, &flag);
	ok(wait_flag(&flag, 60), "%s: call_rcu_hurry() is never lazy", what);
	set_param("rcutree.enable_rcu_lazy", "0");
	rcu_barrier();
}

static void test_kfree(void)
{
	struct lrcu_stats b = stats(), a;

	on(&cpu0, q_kfree, NULL);
	a = stats();
	ok(a.lazy_pending == N, "kfree_rcu() is lazy (%lu pending)", a.lazy_pending);
	rcu_barrier();
	a = stats();
	ok(a.cbs_invoked - b.cbs_invoked == N && !a.lazy_pending && a.lazy_flushes > b.lazy_flushes,
	   "rcu_barrier() freed them (%lu)", a.cbs_invoked - b.cbs_invoked);
	set_param("rcutree.jiffies_lazy_flush", "0");
	b = stats();
	on(&cpu2, q_kfree, NULL);
	a = stats();
	ok(!a.lazy_pending, "rcutree.jiffies_lazy_flush=0: nothing lazy");
	set_param("rcutree.jiffies_lazy_flush", "600000");
	rcu_barrier();
}

int main(void)
{
	char err[256];

	plan(22);
	if (lrcu_params_parse(BOOT, err, sizeof(err)))
		printf("Bail out! %s\n", err), exit(1);
	if (pthread_create(&cpu0.t, NULL, cpu_main, &cpu0) ||
	    pthread_create(&cpu2.t, NULL, cpu_main, &cpu2))
		abort();
	test_deferred(&cpu0, "CPU 0 (not offloaded)");
	test_deferred(&cpu2, "CPU 2 (offloaded)");
	test_timer(&cpu0, "CPU 0", -1);
	test_timer(&cpu2, "CPU 2", 2);
	test_reader(&cpu0, "CPU 0");
	test_reader(&cpu2, "CPU 2");
	test_piggyback(&cpu0, "CPU 0");
	test_piggyback(&cpu2, "CPU 2");
	test_kfree();
	__atomic_store_n(&cpu0.stop, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&cpu2.stop, 1, __ATOMIC_RELEASE);
	pthread_join(cpu0.t, NULL);
	pthread_join(cpu2.t, NULL);
	return tap_exit_status();
}
