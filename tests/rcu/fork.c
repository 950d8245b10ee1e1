/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/fork.c - fork() with the library busy: callbacks queued, grace
 * periods in flight (driven by the GP kthread or by an expedited caller),
 * an rcu_barrier() and an srcu_barrier() under way, readers inside their
 * sections, the forking thread itself inside one.  Parent and child must
 * both go on: their grace periods end, their callbacks run, their
 * barriers return.  The readers holding the parent's grace periods wait
 * for the child, so a fork() that waited for those grace periods would
 * never return (the scenario's alarm then ends it).
 *
 * Each scenario runs in a fresh process (run_self()), which forks; it
 * prints "ok - ..." / "not ok - ..." lines for the parent's and the
 * child's checks, which main() turns into TAP.
 */
#include <rcu/srcu.h>
#include "rcu_test.h"

#define NCBS	50
#define LAZY_BOOT	"rcutree.enable_rcu_lazy=1 rcutree.jiffies_lazy_flush=50 " \
			"rcutree.gp_init_delay=200"

static char out[16384];
static int cbs_run;
static int go;			/* the parent lets its readers leave */

static void count_cb(struct rcu_head *rh)
{
	(void)rh;
	__atomic_fetch_add(&cbs_run, 1, __ATOMIC_RELAXED);	/* read after a barrier */
}

static void check(bool cond, const char *who, const char *what)
{
	printf("%sok - %s: %s\n", cond ? "" : "not ", who, what);
	fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* Threads that hold things up in the parent */

static int inside;		/* readers inside their sections */

/* An rcu reader that stays inside until the parent says go. */
static void *rcu_holder(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	__atomic_fetch_add(&inside, 1, __ATOMIC_RELEASE);	/* pairs with wait_inside() */
	wait_flag(&go, 60);
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

DEFINE_STATIC_SRCU(ss);

static void *srcu_holder(void *arg)
{
	int idx = srcu_read_lock(&ss);

	(void)arg;
	__atomic_fetch_add(&inside, 1, __ATOMIC_RELEASE);	/* as above */
	wait_flag(&go, 60);
	srcu_read_unlock(&ss, idx);
	return NULL;
}

static void wait_inside(int n)
{
	while (__atomic_load_n(&inside, __ATOMIC_ACQUIRE) < n)
		sleep_ms(1);
}

/*
 * Start a helper thread and wait until it runs fn.  AddressSanitizer's
 * allocator (GCC 12's libasan) takes no lock around fork(): a thread
 * still inside its start-up code (which mallocs and frees) when fork()
 * comes leaves the child's allocator locked, and the child's first
 * thread start hangs.  glibc's malloc is fork-safe; the library's own
 * threads park at points outside the allocator; the test's threads must
 * be past their start-up.
 */
struct spawn_arg {
	void *(*fn)(void *);
	void *arg;
	int running;
};

static void *spawn_main(void *p)
{
	struct spawn_arg *a = p;
	void *(*fn)(void *) = a->fn, *arg = a->arg;

	set_flag(&a->running);	/* a is spawn()'s: not touched after this */
	return fn(arg);
}

static void spawn_with(pthread_t *t, void *(*fn)(void *), void *arg)
{
	struct spawn_arg a = { fn, arg, 0 };

	pthread_create(t, NULL, spawn_main, &a);
	wait_flag(&a.running, 60);
}

static void spawn(pthread_t *t, void *(*fn)(void *))
{
	spawn_with(t, fn, NULL);
}

static void *sync_rcu(void *arg)
{
	(void)arg;
	synchronize_rcu();
	return NULL;
}

static void *sync_rcu_exp(void *arg)
{
	(void)arg;
	synchronize_rcu_expedited();
	return NULL;
}

static struct rcu_head barrier_cb_head;
static int barrier_queued;

static void *barrier_rcu(void *arg)
{
	(void)arg;
	call_rcu(&barrier_cb_head, count_cb);
	set_flag(&barrier_queued);
	rcu_barrier();
	return NULL;
}

static void *sync_srcu(void *arg)
{
	(void)arg;
	synchronize_srcu(&ss);
	return NULL;
}

static void *barrier_srcu(void *arg)
{
	(void)arg;
	srcu_barrier(&ss);
	return NULL;
}

/* Wait (bounded: the alarm) until a grace period is in flight and its
 * start confirmed, so that its driver waits for the readers. */
static void wait_gp_in_flight(void)
{
	while ((rcu_get_gp_seq() & 3) != 2)
		sleep_ms(1);
}

/* fork(); the child runs child_fn and exits with its status; the parent
 * lets its readers go, then collects the child. */
static void fork_and_check(int (*child_fn)(void), pthread_t *threads, int nthreads)
{
	int st, i;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(30);
		_exit(child_fn());
	}
	check(pid > 0, "parent", "fork() returned (it waited for no grace period)");
	set_flag(&go);
	for (i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	waitpid(pid, &st, 0);
	check(exited_with(st, 0), "parent", "the child exited 0");
}

/* ------------------------------------------------------------------ */
/* Scenario "gp": callbacks queued, a normal grace period in flight that a
 * reader holds up, synchronize_rcu() waiting. */

static struct rcu_head heads[NCBS];

static int gp_child(void)
{
	struct rcu_head h;

	rcu_barrier();
	check(__atomic_load_n(&cbs_run, __ATOMIC_RELAXED) == NCBS, "child",
	      "rcu_barrier() returned and the callbacks queued before fork() ran");
	synchronize_rcu();
	call_rcu(&h, count_cb);
	rcu_barrier();
	check(__atomic_load_n(&cbs_run, __ATOMIC_RELAXED) == NCBS + 1, "child",
	      "a new grace period and callback");
	synchronize_sched();
	check(true, "child", "synchronize_sched() returned");
	rcu_unregister_thread();
	return 0;
}

static int scenario_gp(void)
{
	pthread_t t[2];
	int i;

	alarm(60);
	rcu_register_thread();
	spawn(&t[0], rcu_holder);
	wait_inside(1);
	for (i = 0; i < NCBS; i++)
		call_rcu(&heads[i], count_cb);
	spawn(&t[1], sync_rcu);
	wait_gp_in_flight();
	fork_and_check(gp_child, t, 2);
	rcu_barrier();
	check(__atomic_load_n(&cbs_run, __ATOMIC_RELAXED) == NCBS, "parent",
	      "rcu_barrier() returned and the callbacks ran");
	rcu_unregister_thread();
	return 0;
}

/* ------------------------------------------------------------------ */
/* Scenario "exp": an expedited caller drives a grace period a reader
 * holds up, an rcu_barrier() is under way, and the forking thread is
 * inside a read-side section and has joined rcu_sched. */

static int exp_child(void)
{
	rcu_read_unlock();
	synchronize_rcu_expedited();
	check(true, "child", "synchronize_rcu_expedited() returned (the grace period "
	      "its parked driver left was finished)");
	rcu_barrier();
	check(__atomic_load_n(&cbs_run, __ATOMIC_RELAXED) == 1, "child",
	      "rcu_barrier() returned (the pass a dead caller left was completed) "
	      "and that caller's callback ran");
	synchronize_sched();
	check(true, "child", "synchronize_sched() returned");
	return 0;
}

static int scenario_exp(void)
{
	pthread_t t[3];

	alarm(60);
	rcu_register_thread();
	rcu_quiescent_state();		/* joins rcu_sched */
	spawn(&t[0], rcu_holder);
	wait_inside(1);
	spawn(&t[1], sync_rcu_exp);
	spawn(&t[2], barrier_rcu);
	wait_flag(&barrier_queued, 60);
	wait_gp_in_flight();
	sleep_ms(20);	/* give both a chance to be waiting (either order is a test) */
	rcu_read_lock();
	fork_and_check(exp_child, t, 0);
	rcu_read_unlock();
	set_flag(&go);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	pthread_join(t[2], NULL);
	check(__atomic_load_n(&cbs_run, __ATOMIC_RELAXED) == 1, "parent",
	      "the expedited grace period and rcu_barrier() returned");
	synchronize_sched();
	rcu_unregister_thread();
	return 0;
}

/* ------------------------------------------------------------------ */
/* Scenario "srcu": a reader inside, synchronize_srcu() driving, a callback
 * queued and srcu_barrier() under way. */

static struct rcu_head srcu_head;

static int srcu_child(void)
{
	synchronize_srcu(&ss);
	check(true, "child", "synchronize_srcu() returned (the dead reader's section ended)");
	srcu_barrier(&ss);
	check(__atomic_load_n(&cbs_run, __ATOMIC_RELAXED) == 1, "child",
	      "srcu_barrier() returned and the callback ran");
	return 0;
}

static int scenario_srcu(void)
{
	pthread_t t[3];

	alarm(60);
	spawn(&t[0], srcu_holder);
	wait_inside(1);
	call_srcu(&ss, &srcu_head, count_cb);
	spawn(&t[1], sync_srcu);
	spawn(&t[2], barrier_srcu);
	while (!lrcu_srcu_get_gp_seq(&ss) || !(lrcu_srcu_get_gp_seq(&ss) & 3))
		sleep_ms(1);	/* a grace period in flight */
	sleep_ms(20);
	fork_and_check(srcu_child, t, 3);
	check(__atomic_load_n(&cbs_run, __ATOMIC_RELAXED) == 1, "parent",
	      "synchronize_srcu() and srcu_barrier() returned, the callback ran");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Scenario "lazy": lazy callbacks' timer fired and their keeper (the
 * callback thread, or with rcu_nocbs the CPU's rcuop thread) drives their
 * grace period itself, slowed by rcutree.gp_init_delay, when fork()
 * comes: it parks as any driver; the child's GP kthread finishes the
 * grace period, the parent's keeper does.  The child checks what the
 * "gp" scenario's does. */

static int scenario_lazy(void)
{
	int i;

	alarm(60);
	rcu_register_thread();
	for (i = 0; i < NCBS; i++)
		call_rcu(&heads[i], count_cb);	/* lazy: rcutree.enable_rcu_lazy=1 */
	wait_gp_in_flight();	/* only their keeper asks for one */
	fork_and_check(gp_child, NULL, 0);
	rcu_barrier();
	check(__atomic_load_n(&cbs_run, __ATOMIC_RELAXED) == NCBS, "parent",
	      "rcu_barrier() returned and the callbacks ran (their keeper ended the grace "
	      "period it parked in)");
	rcu_unregister_thread();
	return 0;
}

/* ------------------------------------------------------------------ */
/* Scenario "storm": forks while other threads keep every update-side path
 * busy (callbacks of both flavors and SRCU, normal and expedited grace
 * periods, barriers, registration, debug objects), so that fork()
 * catches them holding locks.  Each child must get everything done. */

static int stop_storm;
/* The storm threads' own malloc() excludes fork() (spawn() says why). */
static pthread_rwlock_t storm_alloc = PTHREAD_RWLOCK_INITIALIZER;

static void free_cb(struct rcu_head *rh)
{
	free(rh);
}

static void *storm(void *arg)
{
	long kind = (long)arg, i;
	struct rcu_head *h;

	for (i = 0; !__atomic_load_n(&stop_storm, __ATOMIC_RELAXED); i++) {
		rcu_register_thread();
		pthread_rwlock_rdlock(&storm_alloc);
		h = malloc(sizeof(*h));
		pthread_rwlock_unlock(&storm_alloc);
		init_rcu_head(h);
		switch (kind) {
		case 0:
			call_rcu(h, free_cb);
			synchronize_rcu();
			break;
		case 1:
			call_rcu_sched(h, free_cb);
			synchronize_rcu_expedited();
			rcu_barrier_sched();
			break;
		default:
			call_srcu(&ss, h, free_cb);
			synchronize_srcu(&ss);
			srcu_barrier(&ss);
			break;
		}
		rcu_unregister_thread();
	}
	return NULL;
}

static int storm_child(void)
{
	struct rcu_head h;

	rcu_barrier();
	rcu_barrier_sched();
	synchronize_rcu_expedited();
	call_srcu(&ss, &h, count_cb);
	srcu_barrier(&ss);
	return 0;
}

static int scenario_storm(void)
{
	int forks = scale(40), i, st, good = 0;
	pthread_t t[3];
	pid_t pid;
	long k;

	alarm(120);
	for (k = 0; k < 3; k++)
		spawn_with(&t[k], storm, (void *)k);
	for (i = 0; i < forks; i++) {
		sleep_ms(5);
		fflush(stdout);
		pthread_rwlock_wrlock(&storm_alloc);
		pid = fork();
		pthread_rwlock_unlock(&storm_alloc);
		if (pid == 0) {
			alarm(30);
			_exit(storm_child());
		}
		waitpid(pid, &st, 0);
		good += exited_with(st, 0);
		if (!exited_with(st, 0))
			printf("storm: child %d ended with status %#x\n", i, st);
	}
	__atomic_store_n(&stop_storm, 1, __ATOMIC_RELAXED);
	for (k = 0; k < 3; k++)
		pthread_join(t[k], NULL);
	printf("%sok - storm: %d of %d children got their barriers and grace periods\n",
	       good == forks ? "" : "not ", good, forks);
	return 0;
}

/* ------------------------------------------------------------------ */
/*
 * Scenario "gate": the debug-objects table is first used while a fork()
 * is between the library's prepare and parent steps.  Our prepare handler
 * is registered before the library's (a constructor of higher priority),
 * so it runs after the library's prepare; it has another thread make the
 * table's first use then.  The library must not then unlock in its parent
 * step a lock its prepare step did not take: the next fork() hung.
 */
static int gate_armed;
static int gate_done;
static struct rcu_head gate_head;

static void *gate_first_use(void *arg)
{
	(void)arg;
	init_rcu_head(&gate_head);	/* the table's first use */
	__atomic_store_n(&gate_done, 1, __ATOMIC_RELEASE);	/* pairs with gate_prepare() */
	return NULL;
}

static void gate_prepare(void)
{
	pthread_t t;
	int i;

	if (!__atomic_exchange_n(&gate_armed, 0, __ATOMIC_RELAXED))
		return;
	pthread_create(&t, NULL, gate_first_use, NULL);
	pthread_detach(t);
	/* A fixed library blocks that thread until our fork ends: go on. */
	for (i = 0; i < 1000 && !__atomic_load_n(&gate_done, __ATOMIC_ACQUIRE); i++)
		sleep_ms(1);
}

__attribute__((constructor(101)))
static void gate_register(void)
{
	pthread_atfork(gate_prepare, NULL, NULL);
}

static int fork_and_wait(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	return waitpid(pid, &st, 0) == pid && exited_with(st, 0);
}

static int scenario_gate(void)
{
	int first, second;

	alarm(30);	/* the hang this catches */
	rcu_init();	/* reads debug_objects=1; the table stays unused */
	__atomic_store_n(&gate_armed, 1, __ATOMIC_RELAXED);
	first = fork_and_wait();
	while (!__atomic_load_n(&gate_done, __ATOMIC_ACQUIRE))	/* pairs with gate_first_use() */
		sleep_ms(1);
	second = fork_and_wait();
	init_rcu_head(&gate_head);	/* the table still works */
	printf("%sok - a fork() during the debug table's first use, then another "
	       "(%d, %d)\n", first && second ? "" : "not ", first, second);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Scenario "from-callback": fork() from an RCU callback is refused. */

static void fork_cb(struct rcu_head *rh)
{
	pid_t pid;

	(void)rh;
	pid = fork();
	if (pid == 0)
		_exit(0);
	printf("fork() from a callback returned\n");
	fflush(stdout);
}

static int scenario_from_callback(void)
{
	static struct rcu_head h;

	alarm(60);
	call_rcu(&h, fork_cb);
	rcu_barrier();
	return 0;
}

/* ------------------------------------------------------------------ */

/* Re-emit a scenario's "ok - " / "not ok - " lines as TAP. */
static void report(const char *scenario, int st)
{
	const char *p = out;
	int n = 0, bad = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		if (!strncmp(p, "ok - ", 5)) {
			ok(1, "%s: %.*s", scenario, len - 5, p + 5);
			n++;
		} else if (!strncmp(p, "not ok - ", 9)) {
			ok(0, "%s: %.*s", scenario, len - 9, p + 9);
			n++;
			bad++;
		}
		p += len + (nl ? 1 : 0);
	}
	if (!ok(exited_with(st, 0) && n > 0, "%s: the scenario ran to its end (status %#x, %d checks)",
		scenario, st, n) || bad)
		diag_output(out);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(void);
		const char *bootargs;
	} scenarios[] = {
		{ "gp", scenario_gp, NULL },
		{ "exp", scenario_exp, NULL },
		{ "srcu", scenario_srcu, NULL },
		{ "storm", scenario_storm, "debug_objects=1" },
		{ "gate", scenario_gate, "debug_objects=1" },
		/* Offloaded callbacks: the rcuo threads restart in the child. */
		{ "nocb", scenario_gp, "rcu_nocbs=all" },
		{ "lazy", scenario_lazy, LAZY_BOOT },
		{ "lazy-nocb", scenario_lazy, LAZY_BOOT " rcu_nocbs=all" },
	};
	size_t i;
	int st;

	if (argc > 1) {
		for (i = 0; i < ARRAY_SIZE(scenarios); i++)
			if (!strcmp(argv[1], scenarios[i].name))
				return scenarios[i].fn();
		if (!strcmp(argv[1], "from-callback"))
			return scenario_from_callback();
		return 99;
	}
	/* ThreadSanitizer: a forking process starts threads in the child, and
	 * its fork() holds more locks than TSan's deadlock detector can track
	 * (docs/api.md, "fork(), exit and shutdown"). */
	snprintf(out, sizeof(out), "%s:die_after_fork=0:detect_deadlocks=0",
		 getenv("TSAN_OPTIONS") ? getenv("TSAN_OPTIONS") : "");
	setenv("TSAN_OPTIONS", out, 1);
	for (i = 0; i < ARRAY_SIZE(scenarios); i++) {
		st = run_self(scenarios[i].name, NULL, scenarios[i].bootargs, out, sizeof(out));
		report(scenarios[i].name, st);
	}
	st = run_self("from-callback", NULL, NULL, out, sizeof(out));
	if (!ok(died_of(st, SIGABRT) && strstr(out, "rcu: BUG: fork() from a library thread") &&
		!strstr(out, "returned"), "fork() from an RCU callback stops with a BUG (status %#x)", st))
		diag_output(out);
	return done_testing();
}
