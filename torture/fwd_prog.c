/* SPDX-License-Identifier: MIT */
/*
 * fwd_prog.c - forward progress (rcu_torture_fwd_prog): every
 * fwd_progress_holdoff seconds, two tests.
 *
 *  nr: a tight loop of short reads (announcing quiescent states between
 *      them for QSBR RCUs) for 8/fwd_progress_div..2*8/fwd_progress_div
 *      seconds, while one self-propagating callback counts grace periods.
 *      Fewer than 2 by then: the loop goes on until there are 2, for at
 *      most FWD_STALL_US; still fewer means grace periods do not progress
 *      under read-side load.
 *  cr: a callback flood: post call() continuously for up to 8 s, reusing
 *      ("laundering") callbacks once they have been invoked, with at most
 *      FWD_CBS_MAX outstanding (memory stays bounded).  It stops early
 *      once 100 callbacks have each gone through 3 grace periods.  Fewer
 *      than 100 invocations in the whole 8 s means callbacks are not being
 *      invoked; a final cb_barrier() must leave none pending.
 *
 * The limits are generous on purpose: a slow machine must not fail a
 * correct RCU.
 *
 * Errors count in fwd_errors (FAILURE).  Output as the kernel's
 * rcu_torture_fwd_prog_cr / rcu_torture_fwd_prog lines.
 */
#include <stdlib.h>
#include "torture.h"

#define FWD_CBS_MAX		50000
#define FWD_FLOOD_US		8000000UL
#define FWD_NEED_CBS		100
#define FWD_NEED_GPS		3
#define FWD_STALL_US		30000000UL	/* like a stall timeout */

struct fwd_cb {
	struct torture_cb cb;		/* first member */
	struct fwd_cb *next;		/* fwd_free list (fwd_lock) */
	int gps;			/* times invoked (grace periods passed) */
};

static pthread_mutex_t fwd_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fwd_cb *fwd_free;		/* invoked, ready to launder (fwd_lock) */
static long fwd_invoked;		/* fwd_lock */
static long fwd_done3;			/* callbacks through FWD_NEED_GPS (fwd_lock) */

static void fwd_cbf(struct torture_cb *cb)
{
	struct fwd_cb *f = (struct fwd_cb *)(void *)cb;

	pthread_mutex_lock(&fwd_lock);
	if (++f->gps == FWD_NEED_GPS)
		fwd_done3++;
	fwd_invoked++;
	f->next = fwd_free;
	fwd_free = f;
	pthread_mutex_unlock(&fwd_lock);
}

static long fwd_snapshot(long *invoked)
{
	long d;

	pthread_mutex_lock(&fwd_lock);
	d = fwd_done3;
	*invoked = fwd_invoked;
	pthread_mutex_unlock(&fwd_lock);
	return d;
}

static void fwd_error(const char *what)
{
	STAT_INC(tc.fwd_errors);
	torout(" rcu_torture_fwd_prog: %s", what);
}

/* ------------------------------------------------------------------ */
/* cr: the callback flood */

static struct fwd_cb *fwd_get(long *allocated)
{
	struct fwd_cb *f;

	pthread_mutex_lock(&fwd_lock);
	f = fwd_free;
	if (f)
		fwd_free = f->next;
	pthread_mutex_unlock(&fwd_lock);
	if (f || *allocated >= FWD_CBS_MAX)
		return f;
	f = calloc(1, sizeof(*f));
	if (f)
		(*allocated)++;
	return f;
}

static void fwd_free_all(void)
{
	struct fwd_cb *f;

	pthread_mutex_lock(&fwd_lock);
	while ((f = fwd_free)) {
		fwd_free = f->next;
		free(f);
	}
	fwd_invoked = fwd_done3 = 0;
	pthread_mutex_unlock(&fwd_lock);
}

static void fwd_prog_cr(void)
{
	unsigned long start = torture_now_us(), cver = STAT_READ(tc.ver), dur;
	long allocated = 0, posted = 0, launders = 0, invoked, max_out = 0, invoked_in_flood;

	while (!torture_must_stop() && torture_now_us() - start < FWD_FLOOD_US) {
		struct fwd_cb *f = fwd_get(&allocated);

		if (!f) {	/* at the bound: let callbacks drain */
			torture_idle_sleep_us(1000);
		} else {
			launders += f->gps > 0;
			torture_call(&f->cb, fwd_cbf);
			posted++;
		}
		if (fwd_snapshot(&invoked) >= FWD_NEED_CBS)
			break;
		if (posted - invoked > max_out)
			max_out = posted - invoked;
	}
	dur = torture_now_us() - start;
	fwd_snapshot(&invoked_in_flood);
	cur_ops->cb_barrier();
	fwd_snapshot(&invoked);
	torout(" rcu_torture_fwd_prog_cr Duration %lu barrier: 0 pending %ld n_launders: %ld "
	       "n_launders_sa: 0 n_max_gps: %d n_max_cbs: %ld cver %lu gps %ld",
	       dur / 1000, posted - invoked, launders, FWD_NEED_GPS, max_out,
	       STAT_READ(tc.ver) - cver, invoked);
	if (!torture_must_stop() && dur >= FWD_FLOOD_US && invoked_in_flood < FWD_NEED_CBS)
		fwd_error("callback flood: callbacks are not being invoked (fewer than 100 "
			  "in 8 s)");
	if (posted != invoked)
		fwd_error("callback flood: callbacks still pending after cb_barrier()");
	STAT_INC(tc.fwd_floods);
	STAT_ADD(tc.fwd_launders, (unsigned long)launders);
	if ((unsigned long)max_out > STAT_READ(tc.fwd_max_cbs))
		STAT_SET(tc.fwd_max_cbs, (unsigned long)max_out);
	torout(" rcu_torture_fwd_prog n_max_cbs: %ld", max_out);
	fwd_free_all();
}

/* ------------------------------------------------------------------ */
/* nr: read-side load while a self-propagating callback counts GPs */

static int nr_running;		/* the callback re-posts itself while set */
static int nr_parked;		/* ... and says here that it stopped */
static long nr_gps;		/* its invocations */

#define NR_PARK_TRIES	10	/* cb_barrier() calls before we give up on it */

static void nr_cbf(struct torture_cb *cb)
{
	atomic_inc(&nr_gps);	/* a count, read below */
	if (smp_load_acquire(&nr_running))	/* pairs with the clear below */
		cur_ops->call(cb);
	else	/* release: our last touch of cb, before nr_park()'s acquire */
		smp_store_release(&nr_parked, 1);
}

/*
 * Stop the self-propagating callback.  One cb_barrier() is not enough: an
 * invocation that saw nr_running still set re-posts cb while the barrier
 * runs, and a barrier need not wait for callbacks posted after it started
 * (the kernel's rcu_barrier() does not).  So barrier until the callback
 * says it stopped; only then may cb be freed.  False if it never did (cb
 * must then be leaked: it may still be queued).
 */
static bool nr_park(void)
{
	int i;

	/* Release: stop re-posting (pairs with nr_cbf()'s acquire). */
	smp_store_release(&nr_running, 0);
	for (i = 0; i < NR_PARK_TRIES; i++) {
		cur_ops->cb_barrier();
		if (smp_load_acquire(&nr_parked))	/* pairs with nr_cbf() */
			return true;
	}
	return false;
}

static void fwd_prog_nr(struct torture_random *rng)
{
	unsigned long base = 8000000UL / (unsigned long)tp.fwd_progress_div;
	unsigned long dur = base + torture_random(rng) % base, end, loops = 0;
	/* On the heap: a callback that never stops must not point at our stack. */
	struct torture_cb *cb = calloc(1, sizeof(*cb));
	long gps;
	bool qsbr = cur_ops->flags & TORTURE_OPS_QSBR;

	if (!cb) {
		fwd_error("reader loop: out of memory");
		return;
	}
	/* Relaxed: call() below publishes them to the callback. */
	WRITE_ONCE(nr_gps, 0);
	WRITE_ONCE(nr_parked, 0);
	WRITE_ONCE(nr_running, 1);
	torture_call(cb, nr_cbf);
	torture_online();
	end = torture_now_us() + dur;
	while (!torture_must_stop() && (torture_now_us() < end ||
		(READ_ONCE(nr_gps) < 2 &&	/* a count */
		 torture_now_us() < end + FWD_STALL_US))) {
		int idx = cur_ops->readlock();

		(void)cur_ops->dereference(&rcu_torture_current);
		cur_ops->readunlock(idx);
		if (qsbr && cur_ops->quiescent_state)
			cur_ops->quiescent_state();
		loops++;
	}
	torture_offline();
	gps = READ_ONCE(nr_gps);	/* a count: pairs with nothing */
	if (nr_park())
		free(cb);
	else
		fwd_error("reader loop: the self-propagating callback did not stop "
			  "after repeated cb_barrier() calls");
	torverbose(" rcu_torture_fwd_prog_nr: Duration %lu loops %lu gps %ld",
		   (torture_now_us() - end + dur) / 1000, loops, gps);
	if (!torture_must_stop() && gps < 2)
		fwd_error("reader loop: fewer than 2 grace periods in 30 s while readers ran");
}

static void *rcu_torture_fwd_prog(void *arg)
{
	struct torture_random rng;
	bool registered;

	torture_random_init(&rng, 0x7000 + (unsigned long)arg);
	/* The nr test reads: it needs a slot. */
	registered = torture_updater_start(UPD_PRIO_SLOT, "rcu_torture_fwd_prog", "reader-loop test skipped") ||
		     !cur_ops->thread_register;
	torverbose(" rcu_torture_fwd_progress task started");
	while (!torture_must_stop()) {
		torture_sleep_us((unsigned long)tp.fwd_progress_holdoff * 1000000);
		if (torture_must_stop())
			break;
		if (registered)
			fwd_prog_nr(&rng);
		if (!torture_must_stop())
			fwd_prog_cr();
		stutter_wait("rcu_torture_fwd_prog");
	}
	torture_updater_stop();
	return NULL;
}

int fwd_prog_start(void)
{
	long i;

	for (i = 0; i < tp.fwd_progress; i++)
		if (torture_spawn("rcu_torture_fwd", rcu_torture_fwd_prog, (void *)i))
			return -1;
	return 0;
}
