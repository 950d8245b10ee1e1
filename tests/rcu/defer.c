/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/defer.c - the rcu flavor's deferred heavy fence
 * (rcutree.gp_defer_fence, "Deferring the heavy fence" in rcu/src/tree.c):
 * a grace period first counts only the readers whose words show it, and
 * issues its membarrier() only if some remain.  With no reader, or with
 * busy readers only, grace periods end without the fence; an idle reader
 * (outside any section, its word older than the grace period) makes
 * every grace period fence; readers in sections that began before a
 * grace period hold it, fence or not.  Run with gp_defer_fence=2 (defer
 * whatever the heavy fence is), so that builds without membarrier()
 * (ThreadSanitizer's) take the same path.
 */
#define POISON_RCU 1
#include "sched_poison.h"

/* Grace periods completed and fenced since *base (then *base = now). */
struct gp_count {
	unsigned long done, fenced;
};

static struct gp_count gp_since(struct gp_count *base)
{
	struct lrcu_stats st;
	struct gp_count d;

	lrcu_get_stats(LRCU_PREEMPT, &st);
	d.done = st.gps_completed - base->done;
	d.fenced = st.gps_fenced - base->fenced;
	base->done = st.gps_completed;
	base->fenced = st.gps_fenced;
	return d;
}

/* No thread has ever read: nobody to wait for, no fence; and with the
 * deferral off, every grace period fences. */
static void test_no_reader(void)
{
	struct gp_count base = { 0 }, d;
	int i;

	gp_since(&base);
	for (i = 0; i < 100; i++)
		synchronize_rcu();
	d = gp_since(&base);
	ok(d.done >= 100 && d.fenced == 0,
	   "no reader: %lu grace periods, %lu of them fenced (expected 0)", d.done, d.fenced);

	set_param("rcutree.gp_defer_fence", "0");
	gp_since(&base);
	for (i = 0; i < 100; i++)
		synchronize_rcu();
	d = gp_since(&base);
	ok(d.done >= 100 && d.fenced == d.done,
	   "gp_defer_fence=0: %lu grace periods, %lu of them fenced", d.done, d.fenced);
	set_param("rcutree.gp_defer_fence", "2");
}

struct idle {
	int read;	/* it has read once (joined), now idles outside */
	int quit;
};

static void idle_reader(void *arg)
{
	struct idle *s = arg;

	rcu_read_lock();
	rcu_read_unlock();
	set_flag(&s->read);
	wait_flag(&s->quit, 1e9);
}

/* A joined reader idle outside its sections: its word stays older than
 * every grace period, so each one must fence to count it, and ends. */
static void test_idle_reader_fences(void)
{
	struct gp_count base = { 0 }, d;
	struct idle s = { 0 };
	struct reg_thread t;
	int i;

	reg_thread_start(&t, idle_reader, &s);
	wait_flag(&s.read, 60);
	gp_since(&base);
	for (i = 0; i < 50; i++) {
		synchronize_rcu();
		synchronize_rcu_expedited();
	}
	d = gp_since(&base);
	set_flag(&s.quit);
	reg_thread_join(&t);
	ok(d.done >= 100 && d.fenced == d.done,
	   "an idle joined reader: %lu grace periods ended, %lu fenced (all must)", d.done,
	   d.fenced);
}

struct held {
	int inside, leave, again, quit;
};

/* A section begun before the grace period; then one begun after it, in
 * which the thread stays while the grace period ends. */
static void held_reader(void *arg)
{
	struct held *h = arg;

	rcu_read_lock();
	set_flag(&h->inside);
	wait_flag(&h->leave, 60);
	rcu_read_unlock();
	rcu_read_lock();
	set_flag(&h->again);
	wait_flag(&h->quit, 60);
	rcu_read_unlock();
}

static int sync_done;

static void *sync_fn(void *arg)
{
	(void)arg;
	if (rcu_register_thread())
		abort();
	synchronize_rcu_expedited();
	set_flag(&sync_done);
	rcu_unregister_thread();
	return NULL;
}

static void test_old_section_holds(void)
{
	struct held h = { 0 };
	struct reg_thread t;
	pthread_t u;
	bool held, ended;

	reg_thread_start(&t, held_reader, &h);
	wait_flag(&h.inside, 60);
	sync_done = 0;
	pthread_create(&u, NULL, sync_fn, NULL);
	sleep_ms(200);
	held = !__atomic_load_n(&sync_done, __ATOMIC_ACQUIRE);
	set_flag(&h.leave);
	wait_flag(&h.again, 60);
	ended = wait_flag(&sync_done, 60);	/* inside its new section */
	set_flag(&h.quit);
	pthread_join(u, NULL);
	reg_thread_join(&t);
	ok(held && ended, "a section begun before an expedited grace period holds it "
	   "(%s); the reader's next section does not (%s)", held ? "held" : "NOT held",
	   ended ? "ended" : "NOT ended");
}

/*
 * Two readers in back-to-back sections over an element that the updater
 * replaces and poisons after each grace period.  Most grace periods end
 * before the fence here (the readers show them within nanoseconds): none
 * may end while a reader still holds the old element.  And at least one
 * of them must end without the fence, or the deferral does nothing: the
 * updater goes on until one did (a reader needs only to run meanwhile).
 */
static void *busy_reader(void *arg)
{
	long n = 0;

	(void)arg;
	if (rcu_register_thread())
		abort();
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
		poison_read(&n);
	rcu_unregister_thread();
	return NULL;
}

static void test_busy_readers(void)
{
	struct gp_count base = { 0 }, d = { 0 }, r;
	int n = scale(2000), rounds, i;
	pthread_t t[2];

	gp_since(&base);
	for (rounds = 1;; rounds++) {
		for (i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, busy_reader, NULL);
		poison_update(n);
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		poison_done();
		r = gp_since(&base);
		d.done += r.done;
		d.fenced += r.fenced;
		if (d.fenced < d.done || bad || rounds == 20)
			break;
	}
	ok(!bad, "%d grace periods with 2 busy readers: no reader saw a poisoned element",
	   n * rounds);
	ok(d.fenced < d.done, "busy readers: %lu of %lu grace periods ended before the "
	   "heavy fence", d.done - d.fenced, d.done);
}

int main(void)
{
	if (rcu_register_thread())	/* never reads: not waited for */
		return 1;
	set_param("rcutree.gp_defer_fence", "2");
	test_no_reader();
	test_idle_reader_fences();
	test_old_section_holds();
	test_busy_readers();
	rcu_unregister_thread();
	return done_testing();
}
