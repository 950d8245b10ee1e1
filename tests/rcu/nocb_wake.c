/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/nocb_wake.c - who wakes whom with offloaded callbacks, from the
 * library's counters (lrcu_nocb_info()): the end of a grace period wakes
 * the rcuog thread of each group that waits, at most once per grace
 * period, and no other thread; an rcuop thread wakes only when its CPU
 * has callbacks; a group without callbacks sleeps; with rcu_nocb_poll=1
 * call_rcu() wakes nobody, and rcuog polls.
 *
 * Geometry: nr_cpus=9, every CPU offloaded, groups of 3: rcuog/0 leads
 * CPUs 0-2, rcuog/3 CPUs 3-5.  The counters only grow when something
 * bumps a thread's wake word, so the zero deltas below do not depend on
 * timing.
 */
#include <rcu/rcutree.h>
#include "rcu_test.h"

#define BOOT	"nr_cpus=9 rcu_nocbs=all rcutree.rcu_nocb_gp_stride=3"

static long nr_run;

static void cb_fn(struct rcu_head *rh)
{
	free(rh);
	__atomic_fetch_add(&nr_run, 1, __ATOMIC_RELEASE);	/* pairs with wait_run() */
}

/* Wait (bounded: a hang, not a timing verdict) until n callbacks ran. */
static void wait_run(long n, const char *what)
{
	double end = now_s() + 60;

	while (__atomic_load_n(&nr_run, __ATOMIC_ACQUIRE) < n) {
		if (now_s() > end) {
			printf("Bail out! %s: callbacks did not run\n", what);
			exit(1);
		}
		sleep_ms(1);
	}
}

/* Registered threads as CPUs: idle ones that only hold their CPU, and
 * queuers that queue one callback per round when told. */
struct cpu_thread {
	pthread_t t;
	int cpu;
	int round;		/* rounds asked (atomic) */
	int stop;		/* leave (atomic) */
};

static void *cpu_main(void *p)
{
	struct cpu_thread *c = p;
	int done = 0, r;

	if (rcu_register_thread_cpu(c->cpu)) {
		printf("Bail out! cannot register as CPU %d\n", c->cpu);
		exit(1);
	}
	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		r = __atomic_load_n(&c->round, __ATOMIC_ACQUIRE);
		for (; done < r; done++)
			call_rcu(malloc(sizeof(struct rcu_head)), cb_fn);
		sleep_ms(1);
	}
	rcu_unregister_thread();
	return NULL;
}

static struct cpu_thread cpus[9];

static void start_cpu(int cpu)
{
	cpus[cpu].cpu = cpu;
	if (pthread_create(&cpus[cpu].t, NULL, cpu_main, &cpus[cpu]))
		abort();
}

static void stop_cpu(int cpu)
{
	__atomic_store_n(&cpus[cpu].stop, 1, __ATOMIC_RELEASE);
	pthread_join(cpus[cpu].t, NULL);
}

/* Each of the CPUs queues one callback, then we wait for them: rounds. */
static void rounds(const int *cpu, int ncpu, int n)
{
	long base = __atomic_load_n(&nr_run, __ATOMIC_ACQUIRE);
	int i, r;

	for (r = 1; r <= n; r++) {
		for (i = 0; i < ncpu; i++)
			__atomic_fetch_add(&cpus[cpu[i]].round, 1, __ATOMIC_RELEASE);
		wait_run(base + (long)r * ncpu, "a round");
	}
}

static struct lrcu_nocb_info info(int cpu)
{
	struct lrcu_nocb_info in;

	if (lrcu_nocb_info(LRCU_PREEMPT, cpu, &in)) {
		printf("Bail out! lrcu_nocb_info(%d) failed\n", cpu);
		exit(1);
	}
	return in;
}

static unsigned long gps(void)
{
	struct lrcu_stats st;

	lrcu_get_stats(LRCU_PREEMPT, &st);
	return st.gps_completed;
}

/* The threads of CPU cpu have started (they start at registration). */
static void wait_started(int cpu)
{
	double end = now_s() + 60;

	while (!info(cpu).cb_tid || !info(cpu).gp_tid) {
		if (now_s() > end) {
			printf("Bail out! CPU %d's rcuo threads did not start\n", cpu);
			exit(1);
		}
		sleep_ms(1);
	}
}

static void test_one_slot(void)
{
	struct lrcu_nocb_info b[6], a[6];
	const int busy = 1;
	unsigned long g0;
	int i, n = scale(40);

	for (i = 0; i < 6; i++) {
		start_cpu(i);
		wait_started(i);
	}
	for (i = 0; i < 6; i++)
		b[i] = info(i);
	g0 = gps();
	/*
	 * The GP kthread starts each round's grace period 5 ms after the
	 * request, so rcuog/0 is asleep in wait for it when it ends: a grace
	 * period that ended before rcuog looked needs no wakeup, and fast
	 * ones made "at least one" a matter of timing.
	 */
	set_param("rcutree.gp_start_delay", "5");
	rounds(&busy, 1, n);
	set_param("rcutree.gp_start_delay", "0");
	for (i = 0; i < 6; i++)
		a[i] = info(i);
	g0 = gps() - g0;
	ok(a[1].cb_wakeups > b[1].cb_wakeups, "CPU 1's rcuop thread woke for its callbacks (%lu "
	   "times for %d)", a[1].cb_wakeups - b[1].cb_wakeups, n);
	ok(a[0].cb_wakeups == b[0].cb_wakeups && a[2].cb_wakeups == b[2].cb_wakeups,
	   "the other rcuop threads of its group never woke (%lu, %lu)",
	   a[0].cb_wakeups - b[0].cb_wakeups, a[2].cb_wakeups - b[2].cb_wakeups);
	ok(a[3].gp_wakeups == b[3].gp_wakeups && a[3].gp_end_wakes == b[3].gp_end_wakes &&
	   a[4].cb_wakeups == b[4].cb_wakeups,
	   "the group without callbacks slept: rcuog/3 woke %lu times, rcuop/4 %lu",
	   a[3].gp_wakeups - b[3].gp_wakeups, a[4].cb_wakeups - b[4].cb_wakeups);
	ok(a[0].gp_end_wakes > b[0].gp_end_wakes &&
	   a[0].gp_end_wakes - b[0].gp_end_wakes <= g0,
	   "grace-period ends woke rcuog/0, at most once each (%lu wakes, %lu grace periods)",
	   a[0].gp_end_wakes - b[0].gp_end_wakes, g0);
	ok(a[0].enqueue_wakes - b[0].enqueue_wakes <= (unsigned long)n,
	   "call_rcu() woke rcuog/0 at most once per callback (%lu for %d)",
	   a[0].enqueue_wakes - b[0].enqueue_wakes, n);
}

static void test_whole_group(void)
{
	struct lrcu_nocb_info b[6], a[6];
	const int busy[3] = { 0, 1, 2 };
	unsigned long g0;
	int i, n = scale(40);

	for (i = 0; i < 6; i++)
		b[i] = info(i);
	g0 = gps();
	rounds(busy, 3, n);
	for (i = 0; i < 6; i++)
		a[i] = info(i);
	g0 = gps() - g0;
	ok(a[0].cb_wakeups > b[0].cb_wakeups && a[1].cb_wakeups > b[1].cb_wakeups &&
	   a[2].cb_wakeups > b[2].cb_wakeups, "three CPUs with callbacks: their three rcuop "
	   "threads woke");
	ok(a[0].gp_end_wakes - b[0].gp_end_wakes <= g0,
	   "yet grace-period ends woke one thread for the group, rcuog/0, at most once each "
	   "(%lu wakes, %lu grace periods)", a[0].gp_end_wakes - b[0].gp_end_wakes, g0);
	ok(a[3].gp_wakeups == b[3].gp_wakeups, "rcuog/3 still slept");
	for (i = 0; i < 6; i++)
		stop_cpu(i);
}

/* ------------------------------------------------------------------ */
/* rcu_nocb_poll=1, in a child */

static int child_poll(void)
{
	struct lrcu_nocb_info b, a;
	const int busy = 1;
	double end;

	if (lrcu_init())
		return 2;
	start_cpu(1);
	wait_started(1);
	b = info(1);
	rounds(&busy, 1, 5);
	a = info(1);
	printf("enqueue_wakes=%lu\n", a.enqueue_wakes - b.enqueue_wakes);
	/* Idle now: rcuog polls (bounded wait, not a timing verdict). */
	end = now_s() + 30;
	b = info(1);
	while (info(1).gp_wakeups < b.gp_wakeups + 3 && now_s() < end)
		sleep_ms(10);
	printf("polled=%d\n", info(1).gp_wakeups >= b.gp_wakeups + 3);
	stop_cpu(1);
	return 0;
}

static void test_poll(void)
{
	char out[4096];
	int st = run_self("poll", NULL, BOOT " rcu_nocb_poll", out, sizeof(out));

	ok(exited_with(st, 0) && strstr(out, "enqueue_wakes=0\n"),
	   "rcu_nocb_poll: callbacks ran, and call_rcu() woke nobody");
	ok(exited_with(st, 0) && strstr(out, "polled=1\n"), "rcu_nocb_poll: an idle rcuog polls");
	if (!exited_with(st, 0))
		diag("%s", out);
}

int main(int argc, char **argv)
{
	char err[256];

	if (argc > 1 && !strcmp(argv[1], "poll"))
		return child_poll();
	plan(10);
	if (lrcu_params_parse(BOOT, err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	watchdog_arm("the wakeup rounds", 240);
	test_one_slot();
	test_whole_group();
	watchdog_done();
	test_poll();
	return tap_exit_status();
}
