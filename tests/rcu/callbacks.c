/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/callbacks.c - call_rcu() and friends: never before a grace
 * period, in order per thread, in batches of rcutree.blimit (lifted above
 * rcutree.qhimark), rcu_barrier() waits for all, kfree_rcu(), callbacks of
 * unregistered callers and of threads that unregister.
 */
#include <rcu/rcutree.h>
#include "rcu_test.h"

/* A reader that holds its section until told to leave. */
struct holder {
	int in, leave;
};

static void holder_fn(void *arg)
{
	struct holder *h = arg;

	rcu_read_lock();
	set_flag(&h->in);
	wait_flag(&h->leave, 1e9);
	rcu_read_unlock();
}

static void hold(struct holder *h, struct reg_thread *t)
{
	memset(h, 0, sizeof(*h));
	reg_thread_start(t, holder_fn, h);
	wait_flag(&h->in, 60);
}

static void release(struct holder *h, struct reg_thread *t)
{
	set_flag(&h->leave);
	reg_thread_join(t);
}

/* ------------------------------------------------------------------ */

struct seqcb {
	struct rcu_head rh;
	long seq;
};

static long invoked;		/* callbacks run so far (atomic) */
static long *order;		/* seq of the i-th callback run */
static int order_bad;		/* a callback ran out of its thread's order */
static char cb_thread_name[16];

static void count_cb(struct rcu_head *rh)
{
	struct seqcb *c = container_of(rh, struct seqcb, rh);
	long i = __atomic_fetch_add(&invoked, 1, __ATOMIC_ACQ_REL);

	if (order)
		order[i] = c->seq;
	free(c);
}

static void name_cb(struct rcu_head *rh)
{
	pthread_getname_np(pthread_self(), cb_thread_name, sizeof(cb_thread_name));
	/* The callback thread is registered: readers are legal here. */
	rcu_read_lock();
	rcu_read_unlock();
	count_cb(rh);
}

static struct seqcb *newcb(long seq)
{
	struct seqcb *c = malloc(sizeof(*c));

	c->seq = seq;
	return c;
}

static long nr_invoked(void)
{
	return __atomic_load_n(&invoked, __ATOMIC_ACQUIRE);
}

static void test_not_before_gp(void)
{
	struct holder h;
	struct reg_thread t;
	long base = nr_invoked();

	hold(&h, &t);
	call_rcu(&newcb(0)->rh, count_cb);
	call_rcu_bh(&newcb(0)->rh, count_cb);
	sleep_ms(200);	/* ample time for a broken RCU to run them */
	ok(nr_invoked() == base, "callbacks do not run while a pre-existing reader is inside");
	release(&h, &t);
	rcu_barrier();
	ok(nr_invoked() == base + 2, "they run after the reader leaves (rcu_barrier() waited for them)");
}

static void test_cb_thread(void)
{
	unsigned long misuse = lrcu_misuse_count();

	call_rcu(&newcb(0)->rh, name_cb);
	rcu_barrier();
	ok(!strcmp(cb_thread_name, "rcu_cb_preempt"),
	   "rcu callbacks run on the rcu_cb_preempt thread (ran on '%s')", cb_thread_name);
	ok(lrcu_misuse_count() == misuse, "a callback may use rcu_read_lock()");
}

/* Per-thread FIFO: each thread's callbacks run in the order queued. */
#define ORDER_THREADS 3

static void order_fn(void *arg)
{
	long t = (long)arg, i, n = scale(4000);

	for (i = 0; i < n; i++)
		call_rcu(&newcb(t * 1000000 + i)->rh, count_cb);
}

static void test_order(void)
{
	struct reg_thread t[ORDER_THREADS];
	long last[ORDER_THREADS], i, n = scale(4000) * ORDER_THREADS;

	order = calloc((size_t)n + 16, sizeof(long));
	__atomic_store_n(&invoked, 0, __ATOMIC_RELEASE);
	for (i = 0; i < ORDER_THREADS; i++)
		reg_thread_start(&t[i], order_fn, (void *)i);
	for (i = 0; i < ORDER_THREADS; i++)
		reg_thread_join(&t[i]);
	rcu_barrier();
	is_long(nr_invoked(), n, "rcu_barrier() waited for all %ld callbacks of %d threads",
		n, ORDER_THREADS);
	for (i = 0; i < ORDER_THREADS; i++)
		last[i] = -1;
	for (i = 0; i < nr_invoked(); i++) {
		long th = order[i] / 1000000, seq = order[i] % 1000000;

		if (seq <= last[th])
			order_bad++;
		last[th] = seq;
	}
	ok(!order_bad, "each thread's callbacks ran in the order queued (%d inversions)", order_bad);
	free(order);
	order = NULL;
}

/*
 * Slots far from the first: every one of HIGH_THREADS threads holds a
 * slot at once, queues a callback and waits for it without rcu_barrier():
 * only the end-of-grace-period wakeup of the callback thread can run it.
 * (The library keeps a bit per slot that holds callbacks; a slot in the
 * second or third word of that map must be found as well as slot 0.)
 */
#define HIGH_THREADS 150

struct high {
	struct rcu_head rh;
	int ran;
	pthread_barrier_t *all_in;
};

static void high_cb(struct rcu_head *rh)
{
	set_flag(&container_of(rh, struct high, rh)->ran);
}

static int high_lost;

static void high_fn(void *arg)
{
	struct high *h = arg;

	pthread_barrier_wait(h->all_in);	/* every slot taken before any queues */
	call_rcu(&h->rh, high_cb);
	if (!wait_flag(&h->ran, 60))
		__atomic_fetch_add(&high_lost, 1, __ATOMIC_RELAXED);	/* a count: read after the joins */
	pthread_barrier_wait(h->all_in);	/* nobody leaves early: slots stay held */
}

static void test_high_slots(void)
{
	static struct reg_thread t[HIGH_THREADS];
	static struct high h[HIGH_THREADS];
	pthread_barrier_t all_in;
	int i;

	pthread_barrier_init(&all_in, NULL, HIGH_THREADS);
	for (i = 0; i < HIGH_THREADS; i++) {
		h[i].all_in = &all_in;
		reg_thread_start(&t[i], high_fn, &h[i]);
	}
	for (i = 0; i < HIGH_THREADS; i++)
		reg_thread_join(&t[i]);
	pthread_barrier_destroy(&all_in);
	ok(!high_lost, "%d threads holding slots at once: each one's callback ran without "
	   "rcu_barrier() (%d never ran within 60 s)", HIGH_THREADS, high_lost);
}

/* ------------------------------------------------------------------ */
/* Batching */

static void test_batching(void)
{
	struct lrcu_stats st;
	struct holder h;
	struct reg_thread t;
	long i, base;
	char err[128];

	/* Below qhimark: batches of at most blimit. */
	lrcu_param_set("rcutree.blimit", "7", err, sizeof(err));
	base = nr_invoked();
	hold(&h, &t);
	for (i = 0; i < 500; i++)
		call_rcu(&newcb(i)->rh, count_cb);
	release(&h, &t);
	rcu_barrier();
	lrcu_get_stats(LRCU_PREEMPT, &st);
	is_long(nr_invoked() - base, 500, "500 queued callbacks all ran");
	ok(st.cb_max_batch <= 7 && st.cb_max_batch >= 1,
	   "below qhimark, no batch exceeded rcutree.blimit=7 (largest %lu)", st.cb_max_batch);
	ok(st.cb_batches >= 500 / 7, "they ran in at least 500/7 batches (%lu)", st.cb_batches);

	/* Above qhimark the limit is lifted. */
	lrcu_param_set("rcutree.qhimark", "300", err, sizeof(err));
	lrcu_param_set("rcutree.qlowmark", "10", err, sizeof(err));
	base = nr_invoked();
	hold(&h, &t);
	for (i = 0; i < 2000; i++)
		call_rcu(&newcb(i)->rh, count_cb);
	release(&h, &t);
	rcu_barrier();
	lrcu_get_stats(LRCU_PREEMPT, &st);
	is_long(nr_invoked() - base, 2000, "2000 queued callbacks all ran");
	ok(st.cb_max_batch > 300, "above rcutree.qhimark=300 the batch limit was lifted (largest %lu)",
	   st.cb_max_batch);
	lrcu_param_set("rcutree.blimit", "10", err, sizeof(err));
	lrcu_param_set("rcutree.qhimark", "10000", err, sizeof(err));
	lrcu_param_set("rcutree.qlowmark", "100", err, sizeof(err));
}

/* ------------------------------------------------------------------ */
/* rcu_barrier() with slow callbacks from many threads */

static int slow_done;

static void slow_cb(struct rcu_head *rh)
{
	sleep_ms(2);
	__atomic_fetch_add(&slow_done, 1, __ATOMIC_RELEASE);
	free(rh);
}

static void slow_fn(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 25; i++)
		call_rcu(malloc(sizeof(struct rcu_head)), slow_cb);
}

static void test_barrier(void)
{
	struct reg_thread t[4];
	int i;

	for (i = 0; i < 4; i++)
		reg_thread_start(&t[i], slow_fn, NULL);
	for (i = 0; i < 4; i++)
		reg_thread_join(&t[i]);
	rcu_barrier();
	is_long(__atomic_load_n(&slow_done, __ATOMIC_ACQUIRE), 100,
		"rcu_barrier() returns only after every slow callback finished");
	watchdog_arm("rcu_barrier() with nothing queued", 30);
	rcu_barrier();
	ok(watchdog_done(), "rcu_barrier() with nothing queued returns");
}

/* ------------------------------------------------------------------ */

static void *unregistered_fn(void *arg)
{
	(void)arg;
	call_rcu(&newcb(0)->rh, count_cb);	/* from an unregistered thread */
	return NULL;
}

static int leaver_done;

static void leaver_fn(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 100; i++)
		call_rcu(&newcb(i)->rh, count_cb);
	set_flag(&leaver_done);
	/* reg_thread_main() unregisters now, with the callbacks pending. */
}

static void test_unregistered_and_leaving(void)
{
	struct holder h;
	struct reg_thread t, lt;
	struct lrcu_stats st;
	pthread_t ut;
	long base = nr_invoked();

	pthread_create(&ut, NULL, unregistered_fn, NULL);
	pthread_join(ut, NULL);
	rcu_barrier();
	is_long(nr_invoked() - base, 1, "call_rcu() works from an unregistered thread");

	base = nr_invoked();
	hold(&h, &t);
	reg_thread_start(&lt, leaver_fn, NULL);
	reg_thread_join(&lt);	/* queued 100 and unregistered */
	ok(nr_invoked() == base, "callbacks of a thread that unregistered wait for the grace period");
	release(&h, &t);
	rcu_barrier();
	is_long(nr_invoked() - base, 100, "... and none is lost: rcu_barrier() saw all 100 run");
	lrcu_get_stats(LRCU_PREEMPT, &st);
	ok(st.cbs_orphaned >= 100, "they were handed on (%lu orphaned)", st.cbs_orphaned);
}

/* ------------------------------------------------------------------ */

struct kobj {
	long payload[5];
	struct rcu_head rh;
};

static void test_kfree_rcu(void)
{
	struct lrcu_stats before, after;
	int i;

	rcu_barrier();
	lrcu_get_stats(LRCU_PREEMPT, &before);
	for (i = 0; i < 100; i++) {
		struct kobj *k = malloc(sizeof(*k));

		kfree_rcu(k, rh);	/* ASan/valgrind see a wrong free() */
	}
	rcu_barrier();
	lrcu_get_stats(LRCU_PREEMPT, &after);
	is_long(after.cbs_invoked - before.cbs_invoked, 100,
		"kfree_rcu(): 100 objects freed after a grace period");
	is_long(after.cbs_pending, 0, "nothing pending after rcu_barrier()");
}

static void test_sched_cbs(void)
{
	long base = nr_invoked();
	int i;

	for (i = 0; i < 10; i++)
		call_rcu_sched(&newcb(i)->rh, count_cb);
	rcu_barrier_sched();
	is_long(nr_invoked() - base, 10, "call_rcu_sched() + rcu_barrier_sched()");
	base = nr_invoked();
	for (i = 0; i < 10; i++)
		call_rcu_bh(&newcb(i)->rh, count_cb);
	rcu_barrier_bh();
	is_long(nr_invoked() - base, 10, "call_rcu_bh() + rcu_barrier_bh()");
}

int main(void)
{
	if (rcu_register_thread())
		return 1;
	test_batching();	/* first: it checks the largest batch so far */
	test_not_before_gp();
	test_cb_thread();
	/* A callback that never runs hangs rcu_barrier(): bail out instead. */
	watchdog_arm("callbacks in order, and on slots far from the first", 120);
	test_order();
	test_high_slots();
	watchdog_done();
	test_barrier();
	test_unregistered_and_leaving();
	test_kfree_rcu();
	test_sched_cbs();
	rcu_unregister_thread();
	return done_testing();
}
