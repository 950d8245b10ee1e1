/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/tiny/api.c - Tiny RCU (librcutiny, -DCONFIG_TINY_RCU),
 * built and run by tests/rcu/tiny.t under SCHED_FIFO on one CPU: grace
 * periods, polled cookies, callbacks (in order, never inside the section
 * that queued them, kfree_rcu()), debug objects, fork; and, one mode a
 * run, the refusals (a reader or synchronize_rcu() on a thread outside
 * the group, synchronize_rcu() inside a section, a start outside
 * SCHED_FIFO).
 */
#include <malloc.h>
#include "rcu_test.h"

static struct rcu_head heads[100];
static int seen_order[100], n_seen;

static void seq_cb(struct rcu_head *h)
{
	seen_order[n_seen++] = (int)(h - heads);	/* rcu_tiny only */
}

static int ran;

static void flag_cb(struct rcu_head *h)
{
	(void)h;
	WRITE_ONCE(ran, 1);	/* read by the test after a barrier or spin */
}

/* Big enough that glibc maps it on its own (the threshold is pinned in
 * test_kfree_rcu()); the head first: kfree_rcu() encodes its offset. */
struct big {
	struct rcu_head rh;
	char pad[1 << 20];
};

/*
 * kfree_rcu() frees the object after a grace period: glibc's count of
 * bytes in mapped chunks drops by the object's size at rcu_barrier(), not
 * before (a sanitizer's allocator keeps its own books: there the
 * callback count is checked, and ASan's leak check sees a missed free).
 */
static void test_kfree_rcu(void)
{
	bool books = !getenv("SAN") || !*getenv("SAN");
	struct lrcu_stats a, b;
	size_t before, queued;
	struct big *o;

	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
	rcu_barrier();
	lrcu_get_stats(LRCU_PREEMPT, &a);
	o = malloc(sizeof(*o));
	memset(o, 1, sizeof(*o));
	before = mallinfo2().hblkhd;
	rcu_read_lock();
	kfree_rcu(o, rh);
	queued = mallinfo2().hblkhd;	/* inside the section: still held */
	rcu_read_unlock();
	rcu_barrier();
	lrcu_get_stats(LRCU_PREEMPT, &b);
	/* Each rcu_barrier() queues a callback of its own. */
	ok(b.cbs_invoked - a.cbs_invoked == 1 + b.barriers - a.barriers &&
	   (!books || (queued == before && before - mallinfo2().hblkhd >= sizeof(*o))),
	   "kfree_rcu() frees the object after the grace period, not before (%s)",
	   books ? "glibc's mapped bytes" : "the callback count, under a sanitizer");
}

static void *reader_thread(void *arg)
{
	(void)arg;
	rcu_read_lock();
	rcu_read_unlock();
	return NULL;
}

/* The refusals, run by tests/rcu/tiny.t as `api MODE` (from the shell:
 * see reaped_ok()); each must end as the comment says. */
static int child(const char *mode)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (!strcmp(mode, "other-start")) {	/* refused: -1, a message */
		sched_setscheduler(0, SCHED_OTHER, &sp);
		return lrcu_init() == -1 ? 0 : 1;
	}
	if (!strcmp(mode, "other-reader")) {	/* abort: not in the group */
		pthread_t t;
		pthread_attr_t a;

		rcu_init();
		pthread_attr_init(&a);
		pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&a, SCHED_OTHER);
		pthread_attr_setschedparam(&a, &sp);
		pthread_create(&t, &a, reader_thread, NULL);
		pthread_join(t, NULL);
		return 0;
	}
	if (!strcmp(mode, "sync-in-section")) {	/* abort */
		rcu_read_lock();
		synchronize_rcu();
		return 0;
	}
	if (!strcmp(mode, "higher-prio-sync")) {	/* abort: above the group */
		rcu_init();
		sp.sched_priority = 2;
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
		synchronize_rcu();
		return 0;
	}
	return 2;
}

/*
 * Reap a child from outside the group: a SCHED_FIFO parent in wait4()
 * can spin in the kernel (release_task(): shrink_dcache_parent(), Linux
 * 6.18) waiting for the child's threads, which run SCHED_FIFO at the
 * same priority on the same CPU and so never run: the parent goes
 * SCHED_OTHER meanwhile.
 */
static bool reaped_ok(pid_t pid)
{
	struct sched_param other = { .sched_priority = 0 }, fifo;
	int policy, st = 0;
	bool good;

	pthread_getschedparam(pthread_self(), &policy, &fifo);
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &other);
	good = waitpid(pid, &st, 0) == pid && exited_with(st, 0);
	pthread_setschedparam(pthread_self(), policy, &fifo);
	return good;
}

int main(int argc, char **argv)
{
	unsigned long c, g;
	pid_t pid;
	int i;

	if (argc > 1)
		return child(argv[1]);
	plan(14);
	ok(lrcu_init() == 0, "starts on a SCHED_FIFO thread pinned to one CPU");
	ok(rcu_register_thread() == 0, "the group's thread registers");

	rcu_read_lock();
	rcu_read_lock();
	ok(rcu_read_lock_held(), "rcu_read_lock_held() inside");
	rcu_read_unlock();
	rcu_read_unlock();
	ok(!rcu_read_lock_held(), "not after the outermost unlock");

	g = rcu_get_gp_seq();
	c = get_state_synchronize_rcu();
	ok(!poll_state_synchronize_rcu(c), "a fresh cookie is pending");
	synchronize_rcu();
	ok(rcu_get_gp_seq() == g + 4 && poll_state_synchronize_rcu(c),
	   "synchronize_rcu() is one grace period and completes the cookie");
	c = start_poll_synchronize_rcu();
	for (i = 0; i < 1000 && !poll_state_synchronize_rcu(c); i++)
		usleep(1000);	/* blocks: rcu_tiny runs */
	ok(poll_state_synchronize_rcu(c), "start_poll's cookie completes once we block");

	rcu_read_lock();
	call_rcu(&heads[0], flag_cb);
	for (i = 0; i < 1000000; i++)
		barrier();	/* no yield: inside the section */
	ok(!READ_ONCE(ran), "a callback queued inside a section has not run inside it");
	rcu_read_unlock();
	rcu_barrier();
	ok(READ_ONCE(ran), "... and has after rcu_barrier()");

	for (i = 0; i < 100; i++)
		call_rcu(&heads[i], seq_cb);
	rcu_barrier();
	for (i = 0; i < 100 && seen_order[i] == i; i++)
		;
	ok(n_seen == 100 && i == 100, "100 callbacks run once each, in the order queued");

	test_kfree_rcu();

	set_param("debug_objects", "1");
	{
		unsigned long m = lrcu_misuse_count();

		WRITE_ONCE(ran, 0);
		rcu_read_lock();
		call_rcu(&heads[1], flag_cb);
		call_rcu(&heads[1], flag_cb);
		rcu_read_unlock();
		rcu_barrier();
		ok(lrcu_misuse_count() == m + 1 && READ_ONCE(ran),
		   "debug_objects: a second call_rcu() on a queued head is reported and dropped");
	}
	set_param("debug_objects", "0");

	{
		pthread_t t;

		ok(!pthread_create(&t, NULL, reader_thread, NULL) && !pthread_join(t, NULL),
		   "a thread the group creates inherits and reads");
	}
	if (getenv("SAN") && !strcmp(getenv("SAN"), "thread")) {
		skip("fork(): ThreadSanitizer cannot start threads after a multi-threaded fork()");
	} else {
		WRITE_ONCE(ran, 0);
		call_rcu(&heads[2], flag_cb);
		fflush(stdout);
		pid = fork();
		if (!pid) {
			rcu_barrier();	/* a new rcu_tiny runs the child's copy */
			_exit(READ_ONCE(ran) ? 0 : 1);
		}
		ok(pid > 0 && reaped_ok(pid), "fork(): the child's pending callback runs in the child");
		rcu_barrier();
	}

	rcu_unregister_thread();
	rcu_shutdown();
	return done_testing();
}
