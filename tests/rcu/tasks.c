/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/tasks.c - RCU Tasks and RCU Tasks Rude.
 *
 * Tasks: a grace period waits for a thread that runs without blocking
 * (spinning, or yielding: a preemption is not a quiescent state), ends
 * once that thread blocks, calls rcu_tasks_qs() or exits; callbacks run
 * once and rcu_barrier_tasks() waits for them; a thread that never blocks
 * gets a stall warning naming it (text and notifier), and the grace
 * period ends once it calls rcu_tasks_qs().
 * Rude: a grace period waits for an open region (even one that sleeps, on
 * a thread registered with nothing), also across nested markers, and
 * ends once the region closes or its thread exits; callbacks and barrier;
 * a stall warning names a thread that stays in its region; waiting inside
 * one's own region is reported as a deadlock.
 * fork(): the child's grace periods and barriers do not wait for the
 * parent's other threads (one spinning, one in a Rude region).
 *
 * "Has not ended yet" checks look after a while (a correct grace period
 * never ends there, however long we look); "ends" checks wait under a
 * watchdog.
 */
#include <sys/syscall.h>
#include <rcu/rcu_notifier.h>
#include "rcu_test.h"

#define LOOK_MS		300	/* how long a "still waiting" check looks */

/* ------------------------------------------------------------------ */
/* A thread that does what it is told */

enum { SPIN, YIELD, SLEEP, QS_SPIN, EXIT };

struct actor {
	pthread_t t;
	const char *name;
	int rude;		/* inside a Rude region (nested `rude' deep) */
	int mode;		/* what it does now (atomic) */
	int in;			/* it started (flag) */
	int tid;
	unsigned long loops;
};

static void *actor_main(void *arg)
{
	struct actor *a = arg;
	int i, m, inner = 1;

	pthread_setname_np(pthread_self(), a->name);
	a->tid = (int)syscall(SYS_gettid);
	for (i = 0; i < a->rude; i++)
		rcu_read_lock_tasks_rude();
	set_flag(&a->in);
	while ((m = __atomic_load_n(&a->mode, __ATOMIC_ACQUIRE)) != EXIT) {
		a->loops++;
		if (m == YIELD)
			sched_yield();
		else if (m == SLEEP)
			sleep_ms(1);
		else if (m == QS_SPIN && !(a->loops & 0xfff))
			rcu_tasks_qs();
		if (a->rude > 1 && !(a->loops & 0xffff)) {
			/* the innermost region comes and goes: the word
			 * moves, the outer region stays */
			if (inner)
				rcu_read_unlock_tasks_rude();
			else
				rcu_read_lock_tasks_rude();
			inner = !inner;
		}
	}
	for (i = 0; i < a->rude - !inner; i++)
		rcu_read_unlock_tasks_rude();
	return NULL;
}

static void actor_start(struct actor *a, const char *name, int mode, int rude)
{
	memset(a, 0, sizeof(*a));
	a->name = name;
	a->mode = mode;
	a->rude = rude;
	pthread_create(&a->t, NULL, actor_main, a);
	wait_flag(&a->in, 10);
}

static void actor_set(struct actor *a, int mode)
{
	__atomic_store_n(&a->mode, mode, __ATOMIC_RELEASE);	/* see actor_main() */
}

static void actor_stop(struct actor *a)
{
	actor_set(a, EXIT);
	pthread_join(a->t, NULL);
}

/* A grace period run by another thread. */
struct gp {
	pthread_t t;
	int rude;
	int done;
};

static void *gp_main(void *arg)
{
	struct gp *g = arg;

	if (g->rude)
		synchronize_rcu_tasks_rude();
	else
		synchronize_rcu_tasks();
	set_flag(&g->done);
	return NULL;
}

static void gp_start(struct gp *g, int rude)
{
	g->rude = rude;
	g->done = 0;
	pthread_create(&g->t, NULL, gp_main, g);
}

static bool gp_still_waiting(struct gp *g)
{
	sleep_ms(LOOK_MS);
	return !__atomic_load_n(&g->done, __ATOMIC_ACQUIRE);
}

static bool gp_ends(struct gp *g)
{
	bool ok = wait_flag(&g->done, 30);

	if (ok)
		pthread_join(g->t, NULL);
	return ok;
}

/* ------------------------------------------------------------------ */
/* RCU Tasks */

static void test_tasks_waits(void)
{
	struct actor a;
	struct gp g;

	actor_start(&a, "tspin", SPIN, 0);
	gp_start(&g, 0);
	ok(gp_still_waiting(&g), "tasks: a grace period waits for a thread running without blocking");
	actor_set(&a, SLEEP);
	ok(gp_ends(&g), "tasks: ... and ends once it blocks");
	actor_set(&a, YIELD);
	gp_start(&g, 0);
	ok(gp_still_waiting(&g), "tasks: sched_yield() is not a quiescent state");
	actor_set(&a, QS_SPIN);
	ok(gp_ends(&g), "tasks: rcu_tasks_qs() is one, without blocking");
	actor_set(&a, SPIN);
	gp_start(&g, 0);
	ok(gp_still_waiting(&g), "tasks: spinning again holds the next one up");
	actor_stop(&a);
	ok(gp_ends(&g), "tasks: ... which ends when the thread exits");
}

static int cb_count;

static void count_cb(struct rcu_head *h)
{
	__atomic_fetch_add(&cb_count, 1, __ATOMIC_RELAXED);	/* read after the barrier */
	free(h);
}

static void count_cb_static(struct rcu_head *h)
{
	(void)h;
	__atomic_fetch_add(&cb_count, 1, __ATOMIC_RELAXED);	/* read after the barrier */
}

static void test_callbacks(int rude)
{
	int i, n = 100;

	cb_count = 0;
	for (i = 0; i < n; i++) {
		struct rcu_head *h = malloc(sizeof(*h));

		if (rude)
			call_rcu_tasks_rude(h, count_cb);
		else
			call_rcu_tasks(h, count_cb);
	}
	if (rude)
		rcu_barrier_tasks_rude();
	else
		rcu_barrier_tasks();
	/* The barrier waited for each callback: each ran exactly once. */
	is_long(__atomic_load_n(&cb_count, __ATOMIC_RELAXED), n,
		"%s: %d callbacks, each run once, before the barrier returns",
		rude ? "rude" : "tasks", n);
}

/* ------------------------------------------------------------------ */
/* RCU Tasks Rude */

static void test_rude_waits(void)
{
	struct actor a, b;
	struct gp g;

	actor_start(&a, "rsleep", SLEEP, 1);
	rcu_read_lock_tasks_rude();	/* this thread is known too, outside */
	rcu_read_unlock_tasks_rude();
	gp_start(&g, 1);
	ok(gp_still_waiting(&g), "rude: a grace period waits for a region, even one that sleeps");
	actor_stop(&a);
	ok(gp_ends(&g), "rude: ... and ends once its thread closes the region");

	actor_start(&a, "rnest", SPIN, 2);
	gp_start(&g, 1);
	ok(gp_still_waiting(&g), "rude: nested markers moving inside the region do not end it");
	actor_stop(&a);
	ok(gp_ends(&g), "rude: ... the outermost unlock does");

	actor_start(&b, "rfree", SLEEP, 0);
	rcu_read_lock_tasks_rude();
	ok(rcu_read_lock_tasks_rude_held(), "rude: rcu_read_lock_tasks_rude_held() inside");
	rcu_read_unlock_tasks_rude();
	ok(!rcu_read_lock_tasks_rude_held(), "rude: ... and not outside");
	gp_start(&g, 1);
	ok(gp_ends(&g), "rude: threads outside regions hold nothing up (sleeping or not)");
	actor_stop(&b);
}

/* ------------------------------------------------------------------ */
/* fork(): the child has only the forking thread */

/* In a fresh copy: under ThreadSanitizer a fork() holds more locks than
 * its deadlock detector tracks (as tests/rcu/fork.c). */
static int child_fork(void)
{
	struct actor spin, rude;
	int st = -1;
	pid_t pid;

	actor_start(&spin, "fspin", SPIN, 0);
	actor_start(&rude, "frude", SLEEP, 1);
	pid = fork();
	if (pid == 0) {
		struct rcu_head h[2];

		alarm(20);	/* a hang ends the child: the parent sees a signal */
		synchronize_rcu_tasks();
		synchronize_rcu_tasks_rude();
		cb_count = 0;
		call_rcu_tasks(&h[0], count_cb_static);
		call_rcu_tasks_rude(&h[1], count_cb_static);
		rcu_barrier_tasks();
		rcu_barrier_tasks_rude();
		_exit(__atomic_load_n(&cb_count, __ATOMIC_RELAXED) == 2 ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	printf("result forked=%d status=%#x\n", pid > 0, st);
	actor_stop(&spin);
	actor_stop(&rude);
	return 0;
}

static void test_fork(void)
{
	static char buf[16384];
	char env[512];
	int st;

	snprintf(env, sizeof(env), "%s:die_after_fork=0:detect_deadlocks=0",
		 getenv("TSAN_OPTIONS") ? getenv("TSAN_OPTIONS") : "");
	setenv("TSAN_OPTIONS", env, 1);
	st = run_self("fork", NULL, NULL, buf, sizeof(buf));
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(buf, "result forked=1 status=0\n"),
	   "fork: the child's grace periods and barriers of both flavors end without the "
	   "parent's other threads (one spinning, one in a Rude region)");
	if (!strstr(buf, "status=0\n"))
		diag("child output: %.2000s", buf);
}

/* ------------------------------------------------------------------ */
/* Stall warnings and misuse, each in a fresh copy */

static int nf_count, nf_tid;

static int notified(struct rcu_stall_notifier *nb, unsigned long action, void *data)
{
	const struct rcu_stall_info *i = data;

	(void)nb;
	(void)action;
	if (i->nr_holdouts)
		__atomic_store_n(&nf_tid, i->holdouts[0].tid, __ATOMIC_RELAXED);
	__atomic_fetch_add(&nf_count, 1, __ATOMIC_RELEASE);	/* pairs with the loads below */
	return 0;
}

static struct rcu_stall_notifier nb = { .notifier_call = notified };

static int child_stall(int rude)
{
	struct actor a;
	struct gp g;

	rcu_stall_chain_notifier_register(&nb);
	actor_start(&a, rude ? "rudestaller" : "taskstaller", SPIN, rude);
	gp_start(&g, rude);
	while (!__atomic_load_n(&nf_count, __ATOMIC_ACQUIRE))
		sleep_ms(10);
	if (rude)
		actor_stop(&a);
	else
		actor_set(&a, QS_SPIN);
	gp_ends(&g);
	printf("result warnings=%d tid_ok=%d\n", __atomic_load_n(&nf_count, __ATOMIC_ACQUIRE),
	       __atomic_load_n(&nf_tid, __ATOMIC_RELAXED) == a.tid);
	if (!rude)
		actor_stop(&a);
	return 0;
}

static int child_deadlock(void)
{
	rcu_read_lock_tasks_rude();
	synchronize_rcu_tasks_rude();
	printf("result returned\n");
	return 0;
}

static void test_stall(int rude)
{
	static char buf[65536];
	const char *flavor = rude ? "rude" : "tasks";
	char want[64];
	int st;

	st = run_self(rude ? "stall-rude" : "stall-tasks", NULL,
		      "rcupdate.rcu_task_stall_timeout=200", buf, sizeof(buf));
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(buf, "result warnings=") &&
	   strstr(buf, "tid_ok=1"), "%s: a stall warning reaches the notifiers naming the "
	   "holdout thread, and the grace period ends after", flavor);
	snprintf(want, sizeof(want), "%s detected stalls", rude ? "rcu_tasks_rude" : "rcu_tasks");
	ok(strstr(buf, want) && strstr(buf, rude ? "rudestaller" : "taskstaller"),
	   "%s: the warning text names the flavor and the thread", flavor);
	if (!strstr(buf, want))
		diag("child output: %.2000s", buf);
}

static void test_deadlock(void)
{
	static char buf[16384];
	int st = run_self("deadlock", NULL, NULL, buf, sizeof(buf));

	ok(!strstr(buf, "result returned") && strstr(buf, "rcu: BUG") &&
	   strstr(buf, "synchronize_rcu_tasks_rude"),
	   "rude: synchronize_rcu_tasks_rude() inside a region is reported, not a hang");
	(void)st;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "stall-tasks"))
		return child_stall(0);
	if (argc > 1 && !strcmp(argv[1], "stall-rude"))
		return child_stall(1);
	if (argc > 1 && !strcmp(argv[1], "deadlock"))
		return child_deadlock();
	if (argc > 1 && !strcmp(argv[1], "fork"))
		return child_fork();
	plan(21);
	watchdog_arm("the tasks tests", 120);
	test_tasks_waits();
	test_callbacks(0);
	test_rude_waits();
	test_callbacks(1);
	test_fork();
	test_stall(0);
	test_stall(1);
	test_deadlock();
	watchdog_done();
	rcu_shutdown();
	return tap_exit_status();
}
