/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/srcu.c - SRCU semantics: a static domain works before anything is
 * initialised; grace periods (plain, expedited, polled, callbacks) wait
 * for a reader that sleeps 100 ms; readers of one domain do not delay
 * another; the index is handed back across a flip; callbacks run after
 * their grace period, in order, and srcu_barrier() waits for them, also
 * behind a long-blocking reader; srcu_down_read()/srcu_up_read() and
 * srcu_read_lock_nmisafe(); readers on unregistered and offline threads.
 * SRCU-fast: the same grace-period, index and hand-off checks through
 * srcu_read_lock_fast(), srcu_read_lock_fast_updown() and
 * srcu_down_read_fast()/srcu_up_read_fast() on domains defined for them,
 * and the counters they hand back (per-thread, or shared on a domain
 * without per-thread counters).
 *
 * Every "waits for the reader" check is ordering, not timing: the reader
 * marks "leaving" just before its unlock, and the grace period must not
 * return before that mark.
 */
#include "srcu_test.h"

DEFINE_SRCU(s_static);
DEFINE_STATIC_SRCU(s_other);
DEFINE_SRCU_FAST(s_fast);
DEFINE_STATIC_SRCU_FAST_UPDOWN(s_updown);
/* A domain past the per-thread id space (white box: as if all ids were
 * taken), so its fast readers count on the shared counters. */
static struct srcu_struct s_fast_shared = {
	.srcu_name = "s_fast_shared", .srcu_reader_flavor = SRCU_READ_FLAVOR_FAST,
	.srcu_id = LRCU_SRCU_ID_SHARED,
};

/*
 * A section of the given flavor, its unlock value packed into an int as
 * the kernel's rcutorture packs it (__srcu_ptr_to_ctr()): the index tests
 * below run unchanged on every flavor.
 */
static int lock_as(struct srcu_struct *ssp, int flavor)
{
	switch (flavor) {
	case SRCU_READ_FLAVOR_FAST:
		return __srcu_ptr_to_ctr(ssp, srcu_read_lock_fast(ssp));
	case SRCU_READ_FLAVOR_FAST_UPDOWN:
		return __srcu_ptr_to_ctr(ssp, srcu_read_lock_fast_updown(ssp));
	default:
		return srcu_read_lock(ssp);
	}
}

static void unlock_as(struct srcu_struct *ssp, int flavor, int v)
{
	switch (flavor) {
	case SRCU_READ_FLAVOR_FAST:
		srcu_read_unlock_fast(ssp, __srcu_ctr_to_ptr(ssp, v));
		break;
	case SRCU_READ_FLAVOR_FAST_UPDOWN:
		srcu_read_unlock_fast_updown(ssp, __srcu_ctr_to_ptr(ssp, v));
		break;
	default:
		srcu_read_unlock(ssp, v);
	}
}

/* ------------------------------------------------------------------ */

/* The counters SRCU-fast readers hand back, before anything is initialised. */
static void test_fast_first(void)
{
	struct srcu_ctr *scp = srcu_read_lock_fast(&s_fast), *scp2 = srcu_read_lock_fast(&s_fast);
	int v = __srcu_ptr_to_ctr(&s_fast, scp);

	ok(scp && scp2 == scp && (v == 0 || v == 1), "DEFINE_SRCU_FAST(): srcu_read_lock_fast() "
	   "works before anything is initialised; nested, the same counter (index %d)", v);
	ok(__srcu_ctr_to_ptr(&s_fast, v) == scp, "__srcu_ctr_to_ptr() gives the counter back");
	ok(srcu_read_lock_held(&s_fast) && !srcu_read_lock_held(&s_static),
	   "srcu_read_lock_held() inside an SRCU-fast section, for this domain only");
	srcu_read_unlock_fast(&s_fast, scp2);
	srcu_read_unlock_fast(&s_fast, scp);
	ok(!srcu_read_lock_held(&s_fast), "... and not after the unlocks");
}

static void test_static_first(void)
{
	struct lrcu_srcu_stats st;
	int idx, idx2, rc;

	/* The very first thing the program does: no init of any kind. */
	idx = srcu_read_lock(&s_static);
	idx2 = srcu_read_lock(&s_static);
	ok(idx >= 0 && idx <= 1 && idx2 == idx, "DEFINE_SRCU(): readers work before anything "
	   "is initialised (idx %d, nested %d)", idx, idx2);
	ok(srcu_read_lock_held(&s_static) && !srcu_read_lock_held(&s_other),
	   "srcu_read_lock_held() inside, for this domain only");
	srcu_read_unlock(&s_static, idx2);
	srcu_read_unlock(&s_static, idx);
	ok(!srcu_read_lock_held(&s_static), "... and not after the unlocks");
	rc = lrcu_srcu_get_stats(&s_static, &st);
	ok(rc == -1 && st.id >= LRCU_SRCU_PER_PAGE && st.id < LRCU_SRCU_MAX_IDS,
	   "no update-side state yet, but an id from the first reader (%lu)", st.id);
	ok(st.readers[0] == 0 && st.readers[1] == 0, "no section left open");
	test_fast_first();
}

/* ------------------------------------------------------------------ */
/* Grace periods wait for a reader that sleeps 100 ms */

static int cb_saw_leaving = -1;
static struct holder *cb_holder;

static void leaving_cb(struct rcu_head *rh)
{
	(void)rh;
	__atomic_store_n(&cb_saw_leaving, flag(&cb_holder->leaving), __ATOMIC_RELEASE);
}

static void wait_for_sleeper(struct srcu_struct *ssp, const char *kind, int fast)
{
	struct holder h;
	struct rcu_head rh;
	unsigned long cookie;
	char what[128];

	snprintf(what, sizeof(what), "%s on %s%s", kind, ssp->srcu_name,
		 fast ? " (an SRCU-fast reader)" : "");
	hold_flavor(&h, ssp, 100, fast);
	watchdog_arm(what, 60);
	if (!strcmp(kind, "synchronize_srcu()")) {
		synchronize_srcu(ssp);
	} else if (!strcmp(kind, "synchronize_srcu_expedited()")) {
		synchronize_srcu_expedited(ssp);
	} else if (!strcmp(kind, "start_poll_synchronize_srcu()")) {
		cookie = start_poll_synchronize_srcu(ssp);
		while (!poll_state_synchronize_srcu(ssp, cookie))
			sleep_ms(1);
	} else if (!strcmp(kind, "get_state_synchronize_srcu()")) {
		cookie = get_state_synchronize_srcu(ssp);
		ok(!poll_state_synchronize_srcu(ssp, cookie) || flag(&h.leaving),
		   "%s: a cookie taken inside a reader does not poll complete", what);
		synchronize_srcu(ssp);
		ok(poll_state_synchronize_srcu(ssp, cookie),
		   "%s: it polls complete after synchronize_srcu()", what);
	} else {
		cb_holder = &h;
		__atomic_store_n(&cb_saw_leaving, -1, __ATOMIC_RELAXED);
		call_srcu(ssp, &rh, leaving_cb);
		srcu_barrier(ssp);
		ok(__atomic_load_n(&cb_saw_leaving, __ATOMIC_ACQUIRE) == 1,
		   "%s: the callback ran after the reader left", what);
	}
	ok(watchdog_done() && flag(&h.leaving), "%s returns only after the reader that "
	   "slept 100 ms in its section left", what);
	pthread_join(h.tid, NULL);
}

static void test_sleeping_reader(struct srcu_struct *ssp, int fast)
{
	unsigned long before = srcu_batches_completed(ssp);

	wait_for_sleeper(ssp, "synchronize_srcu()", fast);
	wait_for_sleeper(ssp, "synchronize_srcu_expedited()", fast);
	wait_for_sleeper(ssp, "start_poll_synchronize_srcu()", fast);
	wait_for_sleeper(ssp, "get_state_synchronize_srcu()", fast);
	wait_for_sleeper(ssp, "call_srcu()", fast);
	ok(srcu_batches_completed(ssp) - before >= 5, "srcu_batches_completed() counts "
	   "them (%lu)", srcu_batches_completed(ssp) - before);
}

/* ------------------------------------------------------------------ */
/* Readers of one domain do not delay another */

static int other_cb_ran;

static void other_cb(struct rcu_head *rh)
{
	(void)rh;
	set_flag(&other_cb_ran);
}

static void test_independent(struct srcu_struct *a, struct srcu_struct *b)
{
	struct holder h;
	struct rcu_head rh;
	unsigned long cookie;

	hold(&h, a, 0);
	watchdog_arm("grace periods of a domain whose neighbour has a reader", 60);
	synchronize_srcu(b);
	synchronize_srcu_expedited(b);
	call_srcu(b, &rh, other_cb);
	srcu_barrier(b);
	cookie = start_poll_synchronize_srcu(b);
	while (!poll_state_synchronize_srcu(b, cookie))
		sleep_ms(1);
	ok(watchdog_done() && flag(&other_cb_ran) && !flag(&h.leaving),
	   "%s's grace periods, callbacks and polls complete while a reader of %s stays inside",
	   b->srcu_name, a->srcu_name);
	cookie = get_state_synchronize_srcu(a);
	sleep_ms(20);
	ok(!poll_state_synchronize_srcu(a, cookie), "... while %s's own cookie does not complete",
	   a->srcu_name);
	release(&h);
}

/* ------------------------------------------------------------------ */
/* The index is handed back across a flip */

struct syncer {
	struct srcu_struct *ssp;
	pthread_t tid;
	int done;
};

static void *syncer_main(void *p)
{
	struct syncer *s = p;

	synchronize_srcu(s->ssp);
	set_flag(&s->done);
	return NULL;
}

static void syncer_start(struct syncer *s, struct srcu_struct *ssp)
{
	memset(s, 0, sizeof(*s));
	s->ssp = ssp;
	pthread_create(&s->tid, NULL, syncer_main, s);
}

static bool wait_idx_change(struct srcu_struct *ssp, unsigned long from)
{
	double end = now_s() + 60;

	while (srcu_cur_idx(ssp) == from)
		if (now_s() > end)
			return false;
		else
			sleep_ms(1);
	return true;
}

static void test_index_handed_back(struct srcu_struct *ssp, int flavor)
{
	struct syncer s;
	int i0, i1;

	synchronize_srcu(ssp);	/* idle, so the next grace period flips at once */
	i0 = lock_as(ssp, flavor);
	syncer_start(&s, ssp);
	ok(wait_idx_change(ssp, (unsigned long)(i0 & 1)), "%s: a grace period flips the index "
	   "while a section (index %d) is open", ssp->srcu_name, i0 & 1);
	i1 = lock_as(ssp, flavor);
	ok((i1 ^ i0) == 1, "a section begun after the flip gets the other index (%d)", i1 & 1);
	unlock_as(ssp, flavor, i1);
	sleep_ms(20);
	ok(!flag(&s.done), "the grace period still waits: the first section (index %d) is open",
	   i0 & 1);
	watchdog_arm("synchronize_srcu() after the handed-back unlock", 60);
	unlock_as(ssp, flavor, i0);
	pthread_join(s.tid, NULL);
	ok(watchdog_done() && flag(&s.done), "handing back index %d ends it", i0 & 1);
}

/* A domain without per-thread counters: the fast readers' shared ones. */
static void test_fast_shared(struct srcu_struct *ssp)
{
	struct srcu_ctr *scp = srcu_read_lock_fast(ssp);

	ok(__srcu_ptr_to_ctr(ssp, scp) & LRCU_SRCU_SHARED, "srcu_read_lock_fast() on a domain "
	   "without per-thread counters hands back a shared counter");
	srcu_read_unlock_fast(ssp, scp);
	test_index_handed_back(ssp, SRCU_READ_FLAVOR_FAST);
}

/*
 * A stale reader: it sampled the index before a grace period's flip and
 * counted itself after that grace period had scanned, so it sits on the
 * index new readers no longer use.  The next grace period must wait for
 * it (its first scan drains that index) although it flips the other way.
 * No timing can produce this on demand, so the thread stores its counter
 * as srcu_read_lock() would have with the stale sample (white box:
 * lrcu_srcu_ctr() is the inline read side's own lookup).
 */
struct stale {
	struct srcu_struct *ssp;
	int idx, in, leave, leaving;
};

static void *stale_main(void *p)
{
	struct stale *st = p;
	unsigned long *c;

	srcu_read_unlock(st->ssp, srcu_read_lock(st->ssp));	/* map our counters */
	c = lrcu_srcu_ctr(st->ssp);
	__atomic_store_n(&c[st->idx], c[st->idx] + 1, __ATOMIC_RELAXED);	/* the late store */
	smp_mb();	/* B, as in srcu_read_lock() */
	set_flag(&st->in);
	wait_flag(&st->leave, 1e9);
	set_flag(&st->leaving);
	srcu_read_unlock(st->ssp, st->idx);
	return NULL;
}

static void test_stale_reader(struct srcu_struct *ssp)
{
	struct stale st = { ssp, 0, 0, 0, 0 };
	struct syncer s;
	pthread_t t;

	synchronize_srcu(ssp);
	st.idx = (int)srcu_cur_idx(ssp);	/* sampled now ... */
	synchronize_srcu(ssp);			/* ... a grace period flips ... */
	ok(srcu_cur_idx(ssp) == (unsigned long)!st.idx, "a grace period flipped the index to %d",
	   !st.idx);
	pthread_create(&t, NULL, stale_main, &st);	/* ... counted only now */
	wait_flag(&st.in, 60);
	syncer_start(&s, ssp);
	sleep_ms(50);
	ok(!flag(&s.done), "the next grace period waits for a stale reader on index %d", st.idx);
	watchdog_arm("synchronize_srcu() after the stale reader left", 60);
	set_flag(&st.leave);
	pthread_join(s.tid, NULL);
	pthread_join(t, NULL);
	ok(watchdog_done() && flag(&st.leaving), "... until it leaves");
}

/* ------------------------------------------------------------------ */
/* Callbacks */

struct seqcb {
	struct rcu_head rh;
	long seq;
};

static long invoked;		/* atomic */
static long *order;
static char cb_thread[16];

static void seq_cb(struct rcu_head *rh)
{
	struct seqcb *c = container_of(rh, struct seqcb, rh);
	long i = __atomic_fetch_add(&invoked, 1, __ATOMIC_ACQ_REL);

	if (order)
		order[i] = c->seq;
	pthread_getname_np(pthread_self(), cb_thread, sizeof(cb_thread));
	free(c);
}

#define CB_THREADS 3

struct cbq {
	struct srcu_struct *ssp;
	long t, n;
};

static void *queue_main(void *p)
{
	struct cbq *q = p;
	long i;

	for (i = 0; i < q->n; i++) {
		struct seqcb *c = malloc(sizeof(*c));

		c->seq = q->t * 1000000 + i;
		call_srcu(q->ssp, &c->rh, seq_cb);
	}
	return NULL;
}

static void test_callbacks(struct srcu_struct *ssp)
{
	long n = scale(3000), last[CB_THREADS], i, bad = 0;
	struct cbq q[CB_THREADS];
	pthread_t t[CB_THREADS];

	order = calloc((size_t)(n * CB_THREADS), sizeof(long));
	__atomic_store_n(&invoked, 0, __ATOMIC_RELEASE);
	for (i = 0; i < CB_THREADS; i++) {
		q[i] = (struct cbq){ ssp, i, n };
		pthread_create(&t[i], NULL, queue_main, &q[i]);
	}
	for (i = 0; i < CB_THREADS; i++)
		pthread_join(t[i], NULL);
	srcu_barrier(ssp);
	is_long(__atomic_load_n(&invoked, __ATOMIC_ACQUIRE), n * CB_THREADS,
		"srcu_barrier() waited for all %ld callbacks of %d threads", n * CB_THREADS,
		CB_THREADS);
	for (i = 0; i < CB_THREADS; i++)
		last[i] = -1;
	for (i = 0; i < n * CB_THREADS; i++) {
		long th = order[i] / 1000000, seq = order[i] % 1000000;

		bad += seq <= last[th];
		last[th] = seq;
	}
	ok(!bad, "each thread's callbacks ran in the order queued (%ld inversions)", bad);
	ok(!strcmp(cb_thread, "srcu_worker"), "callbacks run on the srcu_worker thread ('%s')",
	   cb_thread);
	free(order);
	order = NULL;
	watchdog_arm("srcu_barrier() with nothing queued", 30);
	srcu_barrier(ssp);
	ok(watchdog_done(), "srcu_barrier() with nothing queued returns");
}

/* srcu_barrier() behind a reader that blocks: returns once it leaves. */
struct barrier_caller {
	struct srcu_struct *ssp;
	struct seqcb *cb;
	int done;
};

static void *barrier_main(void *p)
{
	struct barrier_caller *b = p;

	call_srcu(b->ssp, &b->cb->rh, seq_cb);
	srcu_barrier(b->ssp);
	set_flag(&b->done);
	return NULL;
}

static void test_barrier_behind_reader(struct srcu_struct *ssp)
{
	struct barrier_caller b = { ssp, malloc(sizeof(struct seqcb)), 0 };
	struct holder h;
	pthread_t t;
	long base = __atomic_load_n(&invoked, __ATOMIC_ACQUIRE);

	b.cb->seq = 0;
	hold(&h, ssp, 0);
	pthread_create(&t, NULL, barrier_main, &b);
	sleep_ms(100);
	ok(!flag(&b.done) && __atomic_load_n(&invoked, __ATOMIC_ACQUIRE) == base,
	   "srcu_barrier() and the callback wait while a reader blocks");
	watchdog_arm("srcu_barrier() after the reader left", 60);
	release(&h);
	pthread_join(t, NULL);
	ok(watchdog_done() && __atomic_load_n(&invoked, __ATOMIC_ACQUIRE) == base + 1,
	   "srcu_barrier() returns once the reader finished, after its callback ran");
}

/* ------------------------------------------------------------------ */
/* Sections that do not belong to one thread */

struct downer {
	struct srcu_struct *ssp;
	int fast;			/* srcu_down_read_fast() */
	int idx, in;
	struct srcu_ctr *scp;
};

static void *down_main(void *p)
{
	struct downer *d = p;

	if (d->fast)
		d->scp = srcu_down_read_fast(d->ssp);
	else
		d->idx = srcu_down_read(d->ssp);
	set_flag(&d->in);
	return NULL;	/* the thread exits; the section stays open */
}

static void test_down_up(struct srcu_struct *ssp, int fast)
{
	struct downer d = { ssp, fast, -1, 0, NULL };
	const char *down = fast ? "srcu_down_read_fast()" : "srcu_down_read()";
	struct syncer s;
	pthread_t t;

	pthread_create(&t, NULL, down_main, &d);
	pthread_join(t, NULL);
	ok(flag(&d.in) && (fast ? (__srcu_ptr_to_ctr(ssp, d.scp) & ~1) == LRCU_SRCU_SHARED :
			   (d.idx & ~3) == 0), "%s on a thread that then exits", down);
	syncer_start(&s, ssp);
	sleep_ms(50);
	ok(!flag(&s.done), "synchronize_srcu() waits for the section");
	watchdog_arm("synchronize_srcu() after the up", 60);
	if (fast)	/* on another thread */
		srcu_up_read_fast(ssp, d.scp);
	else
		srcu_up_read(ssp, d.idx);
	pthread_join(s.tid, NULL);
	ok(watchdog_done() && flag(&s.done), "%s on another thread ends it",
	   fast ? "srcu_up_read_fast()" : "srcu_up_read()");
}

static void test_nmisafe(struct srcu_struct *ssp)
{
	struct syncer s;
	int idx = srcu_read_lock_nmisafe(ssp);

	ok(srcu_read_lock_held(ssp), "srcu_read_lock_nmisafe(): srcu_read_lock_held()");
	syncer_start(&s, ssp);
	sleep_ms(50);
	ok(!flag(&s.done), "synchronize_srcu() waits for an nmisafe section");
	watchdog_arm("synchronize_srcu() after srcu_read_unlock_nmisafe()", 60);
	srcu_read_unlock_nmisafe(ssp, idx);
	pthread_join(s.tid, NULL);
	ok(watchdog_done() && flag(&s.done) && !srcu_read_lock_held(ssp),
	   "srcu_read_unlock_nmisafe() ends it");
}

/* ------------------------------------------------------------------ */
/* A registered thread that is offline (an idle CPU) reads too */

static struct holder off_h;

static void *offline_reader(void *p)
{
	(void)p;
	if (rcu_register_thread())
		abort();
	rcu_thread_offline();
	holder_main(&off_h);
	rcu_thread_online();
	rcu_unregister_thread();
	return NULL;
}

static void test_offline_reader(struct srcu_struct *ssp)
{
	struct syncer s;

	memset(&off_h, 0, sizeof(off_h));
	off_h.ssp = ssp;
	pthread_create(&off_h.tid, NULL, offline_reader, NULL);
	wait_flag(&off_h.in, 60);
	syncer_start(&s, ssp);
	sleep_ms(50);
	ok(!flag(&s.done), "a grace period waits for a reader on an offline registered thread");
	watchdog_arm("synchronize_srcu() after the offline reader left", 60);
	set_flag(&off_h.leave);
	pthread_join(s.tid, NULL);
	pthread_join(off_h.tid, NULL);
	ok(watchdog_done() && flag(&off_h.leaving), "... until it leaves");
}

/* ------------------------------------------------------------------ */

int main(void)
{
	struct srcu_struct *dyn = malloc(sizeof(*dyn));	/* heap: no alignment promise */
	struct srcu_struct *dfast = malloc(sizeof(*dfast));
	unsigned long before;

	test_static_first();	/* first: nothing may be initialised before it */
	ok(init_srcu_struct(dyn) == 0 && !strcmp(dyn->srcu_name, "dyn"),
	   "init_srcu_struct() on heap memory, named after its argument");
	ok(init_srcu_struct_fast(dfast) == 0 &&
	   dfast->srcu_reader_flavor == SRCU_READ_FLAVOR_FAST,
	   "init_srcu_struct_fast(): a domain for SRCU-fast readers");
	test_sleeping_reader(&s_static, 0);
	test_sleeping_reader(dyn, 0);
	test_sleeping_reader(&s_fast, 1);
	test_sleeping_reader(dfast, 1);
	test_independent(&s_static, dyn);
	test_independent(dyn, &s_other);
	test_index_handed_back(dyn, SRCU_READ_FLAVOR_NORMAL);
	test_index_handed_back(dfast, SRCU_READ_FLAVOR_FAST);
	test_index_handed_back(&s_updown, SRCU_READ_FLAVOR_FAST_UPDOWN);
	test_fast_shared(&s_fast_shared);
	test_stale_reader(dyn);
	test_callbacks(&s_static);
	test_barrier_behind_reader(dyn);
	test_down_up(dyn, 0);
	test_down_up(&s_updown, 1);
	test_nmisafe(&s_other);
	test_offline_reader(&s_static);
	before = lrcu_misuse_count();
	srcu_barrier(dyn);
	cleanup_srcu_struct(dyn);
	cleanup_srcu_struct(dfast);
	ok(lrcu_misuse_count() == before, "cleanup_srcu_struct() of a quiet domain reports nothing");
	free(dyn);
	free(dfast);
	ok(poll_state_synchronize_srcu(&s_static, RCU_GET_STATE_COMPLETED),
	   "RCU_GET_STATE_COMPLETED polls complete");
	return done_testing();
}
