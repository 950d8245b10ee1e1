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
 * fwd_progress threads run them side by side (at most one a CPU, as in
 * the kernel; -1: one a CPU), each with its own callbacks and counts.
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

/* One forward-progress thread's state. */
struct fwd {
	long id;
	pthread_mutex_t lock;
	struct fwd_cb *free;		/* invoked, ready to launder (lock) */
	long invoked;			/* lock */
	long done3;			/* callbacks through FWD_NEED_GPS (lock) */
	/* nr: the self-propagating callback */
	int nr_running;			/* it re-posts itself while set */
	int nr_parked;			/* ... and says here that it stopped */
	long nr_gps;			/* its invocations */
};

struct fwd_cb {
	struct torture_cb cb;		/* first member */
	struct fwd *f;			/* whose (const) */
	struct fwd_cb *next;		/* f->free list (f->lock) */
	int gps;			/* times invoked (grace periods passed) */
};

static struct fwd *fwds;		/* tp.fwd_progress of them */

static void fwd_cbf(struct torture_cb *cb)
{
	struct fwd_cb *c = (struct fwd_cb *)(void *)cb;
	struct fwd *f = c->f;

	pthread_mutex_lock(&f->lock);
	if (++c->gps == FWD_NEED_GPS)
		f->done3++;
	f->invoked++;
	c->next = f->free;
	f->free = c;
	pthread_mutex_unlock(&f->lock);
}

static long fwd_snapshot(struct fwd *f, long *invoked)
{
	long d;

	pthread_mutex_lock(&f->lock);
	d = f->done3;
	*invoked = f->invoked;
	pthread_mutex_unlock(&f->lock);
	return d;
}

static void fwd_error(const struct fwd *f, const char *what)
{
	STAT_INC(tc.fwd_errors);
	torout(" rcu_torture_fwd_prog %ld: %s", f->id, what);
}

/* The largest number of callbacks outstanding in any flood so far. */
static void fwd_max_cbs(long n)
{
	static pthread_mutex_t max_lock = PTHREAD_MUTEX_INITIALIZER;

	pthread_mutex_lock(&max_lock);	/* the threads' floods may end together */
	if ((unsigned long)n > STAT_READ(tc.fwd_max_cbs))
		STAT_SET(tc.fwd_max_cbs, (unsigned long)n);
	pthread_mutex_unlock(&max_lock);
}

/* ------------------------------------------------------------------ */
/* cr: the callback flood */

static struct fwd_cb *fwd_get(struct fwd *f, long *allocated)
{
	struct fwd_cb *c;

	pthread_mutex_lock(&f->lock);
	c = f->free;
	if (c)
		f->free = c->next;
	pthread_mutex_unlock(&f->lock);
	if (c || *allocated >= FWD_CBS_MAX)
		return c;
	c = calloc(1, sizeof(*c));
	if (c) {
		c->f = f;
		(*allocated)++;
	}
	return c;
}

static void fwd_free_all(struct fwd *f)
{
	struct fwd_cb *c;

	pthread_mutex_lock(&f->lock);
	while ((c = f->free)) {
		f->free = c->next;
		free(c);
	}
	f->invoked = f->done3 = 0;
	pthread_mutex_unlock(&f->lock);
}

static void fwd_prog_cr(struct fwd *f)
{
	unsigned long start = torture_now_us(), cver = STAT_READ(tc.ver), dur;
	long allocated = 0, posted = 0, launders = 0, invoked, max_out = 0, invoked_in_flood;

	while (!torture_must_stop() && torture_now_us() - start < FWD_FLOOD_US) {
		struct fwd_cb *c = fwd_get(f, &allocated);

		if (!c) {	/* at the bound: let callbacks drain */
			torture_idle_sleep_us(1000);
		} else {
			launders += c->gps > 0;
			torture_call(&c->cb, fwd_cbf);
			posted++;
			torture_cond_resched();	/* as the kernel's flood */
		}
		if (fwd_snapshot(f, &invoked) >= FWD_NEED_CBS)
			break;
		if (posted - invoked > max_out)
			max_out = posted - invoked;
	}
	dur = torture_now_us() - start;
	fwd_snapshot(f, &invoked_in_flood);
	cur_ops->cb_barrier();
	fwd_snapshot(f, &invoked);
	torout(" rcu_torture_fwd_prog_cr Duration %lu barrier: 0 pending %ld n_launders: %ld "
	       "n_launders_sa: 0 n_max_gps: %d n_max_cbs: %ld cver %lu gps %ld",
	       dur / 1000, posted - invoked, launders, FWD_NEED_GPS, max_out,
	       STAT_READ(tc.ver) - cver, invoked);
	if (!torture_must_stop() && dur >= FWD_FLOOD_US && invoked_in_flood < FWD_NEED_CBS)
		fwd_error(f, "callback flood: callbacks are not being invoked (fewer than 100 "
			  "in 8 s)");
	if (posted != invoked)
		fwd_error(f, "callback flood: callbacks still pending after cb_barrier()");
	STAT_INC(tc.fwd_floods);
	STAT_ADD(tc.fwd_launders, (unsigned long)launders);
	fwd_max_cbs(max_out);
	torout(" rcu_torture_fwd_prog n_max_cbs: %ld", max_out);
	fwd_free_all(f);
}

/* ------------------------------------------------------------------ */
/* nr: read-side load while a self-propagating callback counts GPs */

#define NR_PARK_TRIES	10	/* cb_barrier() calls before we give up on it */

/* The self-propagating callback, and whose it is. */
struct nr_cb {
	struct torture_cb cb;		/* first member */
	struct fwd *f;
};

static void nr_cbf(struct torture_cb *cb)
{
	struct fwd *f = ((struct nr_cb *)(void *)cb)->f;

	atomic_inc(&f->nr_gps);	/* a count, read below */
	if (smp_load_acquire(&f->nr_running))	/* pairs with the clear below */
		cur_ops->call(cb);
	else	/* release: our last touch of cb, before nr_park()'s acquire */
		smp_store_release(&f->nr_parked, 1);
}

/*
 * Stop the self-propagating callback.  One cb_barrier() is not enough: an
 * invocation that saw nr_running still set re-posts cb while the barrier
 * runs, and a barrier need not wait for callbacks posted after it started
 * (the kernel's rcu_barrier() does not).  So barrier until the callback
 * says it stopped; only then may cb be freed.  False if it never did (cb
 * must then be leaked: it may still be queued).
 */
static bool nr_park(struct fwd *f)
{
	int i;

	/* Release: stop re-posting (pairs with nr_cbf()'s acquire). */
	smp_store_release(&f->nr_running, 0);
	for (i = 0; i < NR_PARK_TRIES; i++) {
		cur_ops->cb_barrier();
		if (smp_load_acquire(&f->nr_parked))	/* pairs with nr_cbf() */
			return true;
	}
	return false;
}

static void fwd_prog_nr(struct fwd *f, struct torture_random *rng)
{
	unsigned long base = 8000000UL / (unsigned long)tp.fwd_progress_div;
	unsigned long dur = base + torture_random(rng) % base, end, loops = 0;
	/* On the heap: a callback that never stops must not point at our stack. */
	struct nr_cb *cb = calloc(1, sizeof(*cb));
	long gps;
	/* QSBR readers must announce quiescent states; NO_BLOCK ones (RCU
	 * Tasks) would otherwise hold every grace period up for the whole
	 * loop, which the kernel's loop breaks with cond_resched(). */
	bool qsbr = cur_ops->flags & (TORTURE_OPS_QSBR | TORTURE_OPS_NO_BLOCK);

	if (!cb) {
		fwd_error(f, "reader loop: out of memory");
		return;
	}
	cb->f = f;
	/* Relaxed: call() below publishes them to the callback. */
	WRITE_ONCE(f->nr_gps, 0);
	WRITE_ONCE(f->nr_parked, 0);
	WRITE_ONCE(f->nr_running, 1);
	torture_call(&cb->cb, nr_cbf);
	torture_online();
	end = torture_now_us() + dur;
	while (!torture_must_stop() && (torture_now_us() < end ||
		(READ_ONCE(f->nr_gps) < 2 &&	/* a count */
		 torture_now_us() < end + FWD_STALL_US))) {
		int idx = cur_ops->readlock();

		(void)cur_ops->dereference(&rcu_torture_current);
		cur_ops->readunlock(idx);
		if (qsbr && cur_ops->quiescent_state)
			cur_ops->quiescent_state();
		loops++;
		torture_cond_resched();	/* the grace periods it waits for */
	}
	torture_offline();
	gps = READ_ONCE(f->nr_gps);	/* a count: pairs with nothing */
	if (nr_park(f))
		free(cb);
	else
		fwd_error(f, "reader loop: the self-propagating callback did not stop "
			  "after repeated cb_barrier() calls");
	torverbose(" rcu_torture_fwd_prog_nr: Duration %lu loops %lu gps %ld",
		   (torture_now_us() - end + dur) / 1000, loops, gps);
	if (!torture_must_stop() && gps < 2)
		fwd_error(f, "reader loop: fewer than 2 grace periods in 30 s while readers ran");
}

/* Said once in the verdict: a thread without a slot skips its reader
 * loop (the callback flood still runs). */
static void fwd_prog_slot_short(void)
{
	static int said;

	/* One thread says it (an ordered RMW: any would do). */
	if (!xchg(&said, 1))
		params_ignore("fwd_progress", "in part: forward-progress threads without a thread "
			      "slot (nr_cpus) skip their reader-loop test");
}

static void *rcu_torture_fwd_prog(void *arg)
{
	struct fwd *f = arg;
	struct torture_random rng;
	bool registered;

	torture_random_init(&rng, 0x7000 + (unsigned long)f->id);
	/* The nr test reads: it needs a slot. */
	registered = torture_updater_start(UPD_PRIO_SLOT, "rcu_torture_fwd_prog", "reader-loop test skipped") ||
		     !cur_ops->thread_register;
	if (!registered)
		fwd_prog_slot_short();
	torverbose(" rcu_torture_fwd_progress task started");
	while (!torture_must_stop()) {
		torture_sleep_us((unsigned long)tp.fwd_progress_holdoff * 1000000);
		if (torture_must_stop())
			break;
		if (registered)
			fwd_prog_nr(f, &rng);
		if (!torture_must_stop())
			fwd_prog_cr(f);
		stutter_wait("rcu_torture_fwd_prog");
	}
	torture_updater_stop();
	return NULL;
}

int fwd_prog_start(void)
{
	long i;

	if (!tp.fwd_progress)
		return 0;
	fwds = calloc((size_t)tp.fwd_progress, sizeof(*fwds));
	if (!fwds)
		return -1;
	for (i = 0; i < tp.fwd_progress; i++) {
		fwds[i].id = i;
		pthread_mutex_init(&fwds[i].lock, NULL);
		if (torture_spawn("rcu_torture_fwd", rcu_torture_fwd_prog, &fwds[i]))
			return -1;
	}
	return 0;
}
