/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/nocb.c - callback offloading (rcu_nocbs=): offloaded callbacks
 * run on the slot's rcuop/rcuos thread, never before their grace period
 * (each checks a cookie taken before its call_rcu()), in the order each
 * thread queued them; rcu_barrier() waits for them; a thread that
 * unregisters leaves them with its rcuo threads; switching CPUs between
 * offloaded and not under a stream of call_rcu() loses, repeats and
 * hurries none; the API's errors; rcu_nocbs= list syntax.
 *
 * Geometry: nr_cpus=9, groups of 3 (rcutree.rcu_nocb_gp_stride=3),
 * CPUs 0-5 offloaded from the start, 6-8 not (mixed).
 */
#include <rcu/rcutree.h>
#include "rcu_test.h"

#define NCPUS	9
#define BOOT	"nr_cpus=9 rcu_nocbs=0-5 rcutree.rcu_nocb_gp_stride=3"

/* ------------------------------------------------------------------ */
/* Callbacks that check themselves */

#define MAX_SRC	32

struct tcb {
	struct rcu_head rh;
	int src;			/* who queued it (a CPU, or a stream) */
	long seq;			/* its rank among src's callbacks */
	unsigned long cookie;		/* a cookie taken before call_rcu() */
	bool sched;			/* queued with call_rcu_sched() */
	int *flag;			/* set when it runs, if non-NULL */
	char *where;			/* gets the invoking thread's name */
	const int *must_be_set;		/* must be set when it runs */
	bool slow;			/* takes its time (a batch stays out) */
};

static long nr_run;			/* callbacks run (atomic) */
static long nr_early;			/* ... before their grace period */
static long nr_unordered;		/* ... out of their source's order */
static long nr_unprotected;		/* ... before the reader they wait for left */
static long last_seq[MAX_SRC];		/* per source, the last seq run (atomic) */

static void tcb_fn(struct rcu_head *rh)
{
	struct tcb *t = container_of(rh, struct tcb, rh);
	bool done = t->sched ? poll_state_synchronize_sched(t->cookie) :
			       poll_state_synchronize_rcu(t->cookie);

	if (!done)
		__atomic_fetch_add(&nr_early, 1, __ATOMIC_RELAXED);
	if (t->must_be_set && !__atomic_load_n(t->must_be_set, __ATOMIC_ACQUIRE))
		__atomic_fetch_add(&nr_unprotected, 1, __ATOMIC_RELAXED);
	if (t->seq >= 0) {
		/* Relaxed: one invoker at a time per source, ordered by the
		 * library's locks (what is checked is the order). */
		if (__atomic_load_n(&last_seq[t->src], __ATOMIC_RELAXED) + 1 != t->seq)
			__atomic_fetch_add(&nr_unordered, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&last_seq[t->src], t->seq, __ATOMIC_RELAXED);
	}
	if (t->where)
		pthread_getname_np(pthread_self(), t->where, 16);
	if (t->slow)
		sleep_ms(1);	/* a switch may come while its batch is out */
	if (t->flag)
		set_flag(t->flag);
	__atomic_fetch_add(&nr_run, 1, __ATOMIC_RELEASE);	/* after the checks */
	free(t);
}

static struct tcb *tcb_new(int src, long seq)
{
	struct tcb *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	t->src = src;
	t->seq = seq;
	return t;
}

static void queue(struct tcb *t)
{
	t->cookie = get_state_synchronize_rcu();
	call_rcu(&t->rh, tcb_fn);
}

static void queue_sched(struct tcb *t)
{
	t->sched = true;
	t->cookie = get_state_synchronize_sched();
	call_rcu_sched(&t->rh, tcb_fn);
}

static long run_count(void)
{
	return __atomic_load_n(&nr_run, __ATOMIC_ACQUIRE);	/* pairs with tcb_fn() */
}

static void reset_order(void)
{
	int i;

	for (i = 0; i < MAX_SRC; i++)
		__atomic_store_n(&last_seq[i], -1, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* Threads as numbered CPUs */

struct cpu_thread {
	pthread_t t;
	int cpu;
	void (*fn)(struct cpu_thread *);
	void *arg;
	long n;
};

static void *cpu_main(void *p)
{
	struct cpu_thread *c = p;

	if (rcu_register_thread_cpu(c->cpu)) {
		printf("Bail out! cannot register as CPU %d\n", c->cpu);
		exit(1);
	}
	c->fn(c);
	rcu_unregister_thread();
	return NULL;
}

static void on_cpu(struct cpu_thread *c, int cpu, void (*fn)(struct cpu_thread *), void *arg)
{
	c->cpu = cpu;
	c->fn = fn;
	c->arg = arg;
	if (pthread_create(&c->t, NULL, cpu_main, c))
		abort();
}

static void join(struct cpu_thread *c)
{
	pthread_join(c->t, NULL);
}

/* ------------------------------------------------------------------ */

static char where[2][16];

static void q_where(struct cpu_thread *c)
{
	struct tcb *a = tcb_new(0, -1), *b = tcb_new(0, -1);

	a->where = where[0];
	b->where = where[1];
	queue(a);
	queue_sched(b);
	rcu_barrier();
	rcu_barrier_sched();
	(void)c;
}

static void test_threads(void)
{
	struct lrcu_nocb_info in;
	struct cpu_thread c;

	on_cpu(&c, 4, q_where, NULL);
	join(&c);
	ok(!strcmp(where[0], "rcuop/4") && !strcmp(where[1], "rcuos/4"),
	   "an offloaded CPU's callbacks run on rcuop/4 and rcuos/4 (ran on '%s', '%s')",
	   where[0], where[1]);
	/* A thread notes its id once it runs: rcuog/3 may not have yet. */
	watchdog_arm("rcuog/3 and rcuop/4 noting their thread ids", 60);
	while (!lrcu_nocb_info(LRCU_PREEMPT, 4, &in) && (!in.cb_tid || !in.gp_tid))
		sleep_ms(1);
	ok(watchdog_done() && !lrcu_nocb_info(LRCU_PREEMPT, 4, &in) && in.offloaded &&
	   in.leader_cpu == 3 && in.cb_tid > 0 && in.gp_tid > 0,
	   "CPU 4 is offloaded, in the group of rcuog/3, whose threads run");
	on_cpu(&c, 7, q_where, NULL);
	join(&c);
	ok(!strcmp(where[0], "rcu_cb_preempt") && !strcmp(where[1], "rcu_cb_sched"),
	   "a CPU not offloaded: the flavors' callback threads (ran on '%s', '%s')",
	   where[0], where[1]);
	ok(!lrcu_nocb_info(LRCU_SCHED, 7, &in) && !in.offloaded && in.leader_cpu == 6 &&
	   in.cb_tid == 0, "CPU 7 is not offloaded and has no rcuos thread");
	ok(rcu_nocb_cpu_offload(-1) == -EINVAL && rcu_nocb_cpu_offload(NCPUS) == -EINVAL &&
	   rcu_nocb_cpu_deoffload(NCPUS) == -EINVAL, "no such CPU: -EINVAL");
	ok(lrcu_nocb_info(LRCU_PREEMPT, NCPUS, &in) == -1, "lrcu_nocb_info(): no such CPU: -1");
}

/* ------------------------------------------------------------------ */
/* Not before a grace period; rcu_barrier() waits */

struct holder {
	int in, leave, left;
};

static void hold_fn(struct cpu_thread *c)
{
	struct holder *h = c->arg;

	rcu_read_lock();
	set_flag(&h->in);
	wait_flag(&h->leave, 1e9);
	set_flag(&h->left);	/* before the unlock: callbacks must see it */
	rcu_read_unlock();
}

static void q_guarded(struct cpu_thread *c)
{
	struct holder *h = c->arg;
	long i;

	for (i = 0; i < c->n; i++) {
		struct tcb *t = tcb_new(c->cpu, i);

		t->must_be_set = &h->left;
		queue(t);
	}
}

static void test_not_before_gp(void)
{
	struct cpu_thread rd, q[3];
	struct holder h = { 0 };
	long base = run_count(), n = scale(400);
	int cpus[3] = { 1, 3, 5 }, i;

	reset_order();
	on_cpu(&rd, 8, hold_fn, &h);
	if (!wait_flag(&h.in, 60))
		printf("Bail out! the reader did not start\n"), exit(1);
	for (i = 0; i < 3; i++) {
		q[i].n = n;
		on_cpu(&q[i], cpus[i], q_guarded, &h);
	}
	for (i = 0; i < 3; i++)
		join(&q[i]);
	sleep_ms(200);	/* ample time for a broken RCU to run them */
	ok(run_count() == base, "offloaded callbacks do not run while a pre-existing reader is "
	   "inside (%ld ran)", run_count() - base);
	set_flag(&h.leave);
	join(&rd);
	watchdog_arm("rcu_barrier() after the reader left", 60);
	rcu_barrier();
	ok(watchdog_done() && run_count() == base + 3 * n,
	   "rcu_barrier() waited for all %ld of them (%ld ran)", 3 * n, run_count() - base);
	ok(!__atomic_load_n(&nr_unprotected, __ATOMIC_RELAXED) &&
	   !__atomic_load_n(&nr_early, __ATOMIC_RELAXED),
	   "each ran after the reader left and after its grace period");
	ok(!__atomic_load_n(&nr_unordered, __ATOMIC_RELAXED),
	   "each CPU's callbacks ran in the order queued");
}

/* ------------------------------------------------------------------ */
/* A thread that unregisters with callbacks pending */

static void test_unregister(void)
{
	struct cpu_thread rd, q;
	struct holder h = { 0 };
	struct lrcu_stats st;
	long base = run_count(), n = scale(2000);
	unsigned long orphaned;

	reset_order();
	lrcu_get_stats(LRCU_PREEMPT, &st);
	orphaned = st.cbs_orphaned;
	on_cpu(&rd, 8, hold_fn, &h);
	if (!wait_flag(&h.in, 60))
		printf("Bail out! the reader did not start\n"), exit(1);
	q.n = n;
	on_cpu(&q, 2, q_guarded, &h);	/* then it unregisters */
	join(&q);	/* it unregistered with all n pending */
	lrcu_get_stats(LRCU_PREEMPT, &st);
	ok(st.cbs_orphaned == orphaned, "an offloaded CPU's thread unregistered: its callbacks "
	   "stay with its rcuo thread (none moved)");
	set_flag(&h.leave);
	join(&rd);
	watchdog_arm("rcu_barrier() after an unregistration", 60);
	rcu_barrier();
	ok(watchdog_done() && run_count() == base + n && !nr_unordered && !nr_early &&
	   !nr_unprotected, "they all ran, in order, after the grace period (%ld of %ld)",
	   run_count() - base, n);
}

/* ------------------------------------------------------------------ */
/* Switching under a stream of call_rcu() */

static int stream_stop;
static long toggles_ok, barrier_ok, barrier_bad;

static void q_stream(struct cpu_thread *c)
{
	long i;

	for (i = 0; i < c->n; i++) {
		struct tcb *t = tcb_new(c->cpu, i);

		t->slow = i % 50 == 0;
		if (i % 3 == 2) {
			t->src = c->cpu + NCPUS;	/* a second stream: sched */
			t->seq = i / 3;
			queue_sched(t);
		} else {
			t->seq = i - i / 3;
			queue(t);
		}
		if (i % 64 == 0)
			sched_yield();
	}
}

static void toggler(struct cpu_thread *c)
{
	unsigned int seed = 12345;

	(void)c;
	while (!__atomic_load_n(&stream_stop, __ATOMIC_ACQUIRE)) {
		int cpu = (int)(rand_r(&seed) % NCPUS);
		int rc = rand_r(&seed) & 1 ? rcu_nocb_cpu_offload(cpu) : rcu_nocb_cpu_deoffload(cpu);

		if (!rc)
			toggles_ok++;
		if (toggles_ok % 8 == 0)
			sleep_ms(1);
	}
}

/* rcu_barrier() under toggling: a callback queued before it has run when
 * it returns. */
static void barrierer(struct cpu_thread *c)
{
	(void)c;
	while (!__atomic_load_n(&stream_stop, __ATOMIC_ACQUIRE)) {
		int flag = 0;
		struct tcb *t = tcb_new(0, -1);

		t->flag = &flag;
		queue(t);
		rcu_barrier();
		/* Relaxed: counts the main thread polls (their sum) while we
		 * run; the verdict reads them after join(). */
		__atomic_fetch_add(__atomic_load_n(&flag, __ATOMIC_ACQUIRE) ? &barrier_ok :
				   &barrier_bad, 1, __ATOMIC_RELAXED);
	}
}

static void test_toggle_stream(void)
{
	struct cpu_thread q[6], tg, br;
	long base = run_count(), n = scale(6000), total;
	struct lrcu_stats st;
	int i;

	reset_order();
	for (i = 0; i < 6; i++) {
		q[i].n = n;
		on_cpu(&q[i], i == 5 ? 7 : i, q_stream, NULL);	/* 0-4 and 7 */
	}
	on_cpu(&tg, 8, toggler, NULL);
	on_cpu(&br, 6, barrierer, NULL);
	watchdog_arm("call_rcu() streams while CPUs switch", 300);
	for (i = 0; i < 6; i++)
		join(&q[i]);
	/* A barrier waits for the whole backlog queued before it, so the
	 * streams may end after one or none (CI under TSan saw none): keep
	 * the toggler switching until three barriers have returned. */
	while (__atomic_load_n(&barrier_ok, __ATOMIC_RELAXED) +
	       __atomic_load_n(&barrier_bad, __ATOMIC_RELAXED) < 3)
		sleep_ms(1);
	__atomic_store_n(&stream_stop, 1, __ATOMIC_RELEASE);
	join(&tg);
	join(&br);
	rcu_barrier();
	rcu_barrier_sched();
	total = 6 * n + barrier_ok + barrier_bad;
	ok(watchdog_done() && run_count() == base + total,
	   "%ld switches under %ld call_rcu()s: every callback ran once (%ld of %ld)",
	   toggles_ok, 6 * n, run_count() - base, total);
	ok(!nr_early && !nr_unordered, "none before its grace period, none out of its thread's "
	   "order (%ld early, %ld out of order)", nr_early, nr_unordered);
	ok(barrier_ok > 0 && !barrier_bad, "rcu_barrier() while switching: %ld waited for the "
	   "callback queued before, %ld did not", barrier_ok, barrier_bad);
	lrcu_get_stats(LRCU_PREEMPT, &st);
	is_long(st.cbs_pending, 0, "nothing pending at the end");
	for (i = 0; i < NCPUS; i++)
		rcu_nocb_cpu_offload(i);
	lrcu_get_stats(LRCU_SCHED, &st);
	is_long(st.nocb_offloaded, NCPUS, "every CPU can be offloaded at run time");
}

/* ------------------------------------------------------------------ */

static void test_cpulist(void)
{
	char err[256];

	ok(lrcu_param_set("rcu_nocbs", "1-3,x", err, sizeof(err)) == -1 &&
	   strstr(err, "rcu_nocbs: bad CPU list '1-3,x'"), "a bad list is refused (%s)", err);
	ok(lrcu_param_set("rcu_nocbs", "5-2", err, sizeof(err)) == -1,
	   "a backward range is refused");
	ok(!lrcu_param_set("rcu_nocbs", "0-N:1/2,1", err, sizeof(err)),
	   "ranges, groups and N are lists");
	ok(lrcu_params_parse(BOOT, err, sizeof(err)) == 0, "the test's parameters: %s", BOOT);
}

/* A program started without rcu_nocbs cannot offload. */
static int child_off(void)
{
	struct lrcu_nocb_info in;

	if (lrcu_init())
		return 2;
	printf("offload=%d info=%d\n", rcu_nocb_cpu_offload(0), lrcu_nocb_info(LRCU_PREEMPT, 0, &in));
	return 0;
}

static void test_off(void)
{
	char out[512];
	int st = run_self("off", NULL, "nr_cpus=4", out, sizeof(out));
	char want[64];

	snprintf(want, sizeof(want), "offload=%d info=-1", -EINVAL);
	out[strcspn(out, "\n")] = '\0';
	ok(exited_with(st, 0) && strstr(out, want),
	   "without rcu_nocbs nothing can be offloaded (%s)", out);
	st = run_self("off", NULL, "nr_cpus=4 rcu_nocbs=9-12", out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "rcu_nocbs=9-12 names 4 CPUs at or beyond nr_cpus=4: "
					   "ignored") && strstr(out, "offload=0"),
	   "CPUs beyond nr_cpus are noted and ignored, as the kernel does");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "off"))
		return child_off();
	plan(23);
	test_cpulist();
	test_off();
	test_threads();
	test_not_before_gp();
	test_unregister();
	test_toggle_stream();
	return tap_exit_status();
}
