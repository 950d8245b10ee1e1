/* SPDX-License-Identifier: MIT */
/*
 * oracle.c - the exact grace-period oracle and the grace-period hang
 * watchdog.
 *
 * Theory of operation
 *
 * The Reader Pipe check sees a too-short grace period only when an element
 * went through two grace periods while a reader held it, so a grace period
 * that is short by exactly one reader shows only when timing lines up.
 * The oracle checks the RCU's guarantee itself, for any RCU, with no help
 * from its ops:
 *
 *   A grace-period wait (sync, exp_sync, cond_sync, a poll loop, or a
 *   callback's invocation) that began after an element was removed must
 *   not end while a reader that picked the element up is still inside its
 *   read-side critical section.
 *
 * Tickets order "began after the removal": a global clock hands out
 * increasing tickets.  The writer stamps each element it removes with a
 * fresh ticket s (gpo_removed(), after the removal).  Every wait takes the
 * current clock value t0 before it starts (gpo_begin()) and, once it has
 * ended, raises gpo_done to at least t0
 * (gpo_end()).  t0 > s means the wait began after the stamp, hence after
 * the removal.  So a reader that holds an element stamped s and reads
 * gpo_done > s (gpo_violated()) is still inside a section that a finished
 * grace period had to wait for: a FAILURE, caught on the first such read,
 * whatever the timing.  A correct RCU never trips it: a reader that could
 * load the removed element started its section before the removal was
 * visible, and every grace period that began after the removal waits for
 * it.  Readers check where they hold the element (after loading it, at
 * each segment boundary, just before the outermost unlock).
 *
 * Callbacks get the same check from the other side where the RCU has
 * polled grace periods: a cookie taken just before call() must poll as
 * complete when the callback runs (gpo_cb_check()).
 *
 * Quiet windows (with rcutorture.span_reads): a grace period that ignores
 * readers which began while no grace period was running shows only when
 * such a reader is still inside at its end, and with fakewriters keeping
 * grace periods back to back there is seldom such an idle gap.  So now and
 * then (every 6-10 grace-period lengths) the writer opens a window of 3
 * lengths: fakewriters hold their requests, the running grace period
 * ends, readers start GP-spanning reads (reader.c) in the idle gap, and
 * only then does the writer remove an element and wait.
 *
 * Hang watchdog: a thread that waits for a grace period says so
 * (gpo_wait_begin()/gpo_wait_end()); rcu_torture_gpwd looks every 250 ms
 * and, when a wait has lasted rcutorture.gp_hang_timeout seconds with no
 * grace period completed anywhere meanwhile, reports the waiter, its state
 * and the RCU's grace-period state (holdouts) once per episode: a
 * FAILURE within seconds instead of a hang found at shutdown.  A wait that
 * lasted that long while three or more grace periods ended is a waiter
 * nobody woke: reported the same way.  Waits during a deliberate stall
 * (stall_cpu, stall_gp_kthread) are reported but not counted.
 */
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include "torture.h"

static unsigned long gpo_clock = 1;	/* next ticket; 0 = "not stamped" */
static unsigned long gpo_done;		/* max start ticket of a finished wait */
unsigned long gpo_progress_us;		/* last time a GP was seen to end;
					 * relaxed: a hint for the watchdog */

unsigned long gpo_removed(void)
{
	/*
	 * Release (part of seq_cst): the removal (the writer's store of the
	 * new element) happens before any wait whose gpo_begin() reads a
	 * later clock value (its acquire load), hence before that wait
	 * starts.
	 */
	return atomic_fetch_add(1, &gpo_clock);
}

unsigned long gpo_begin(void)
{
	/* Acquire (part of seq_cst): pairs with gpo_removed(); the wait's own
	 * accesses come after this load. */
	return smp_load_mb(&gpo_clock);
}

void gpo_end(unsigned long t0)
{
	unsigned long cur = READ_ONCE(gpo_done);

	/* Release: the wait has ended before a reader can see t0 (pairs with
	 * the acquire load in gpo_violated()). */
	while (cur < t0 && !try_cmpxchg_release(&gpo_done, &cur, t0))
		;
	/* A grace period completed: progress for the hang watchdog. */
	WRITE_ONCE(gpo_progress_us, torture_now_us());
}

bool gpo_violated(const struct rcu_torture *p, unsigned long *stamp, unsigned long *done)
{
	/* Acquire pairs with the writer's release store of the stamp. */
	unsigned long s = smp_load_acquire(&p->gpo_stamp);
	unsigned long d;

	if (!s)
		return false;	/* not removed yet */
	/* Acquire pairs with gpo_end()'s release. */
	d = smp_load_acquire(&gpo_done);
	STAT_INC(tc.gpo_checks);
	if (d <= s)
		return false;
	*stamp = s;
	*done = d;
	return true;
}

/* ------------------------------------------------------------------ */
/* Callbacks: the cookie taken before call() has completed by invocation. */

unsigned long gpo_cb_cookie(void)
{
	if (!cur_ops->get_gp_state || !cur_ops->poll_gp_state)
		return 0;
	return cur_ops->get_gp_state();
}

void gpo_cb_check(unsigned long cookie, bool have)
{
	if (!have || cur_ops->poll_gp_state(cookie))
		return;
	if (STAT_INC(tc.gpo_cb_early) == 0)
		torout(" !!! Oracle: a callback was invoked before the grace period of a cookie "
		       "taken just before its call() had completed");
}

/* ------------------------------------------------------------------ */
/* Quiet windows */

static unsigned long quiet_until_us;	/* end of the open window; relaxed:
					 * hints only, nothing is ordered */
static unsigned long quiet_id;		/* windows opened so far */
static unsigned long next_quiet_us;	/* writer only */

/* A typical grace-period wait, bounded to 100 us .. 100 ms. */
unsigned long gpo_gp_len_us(void)
{
	unsigned long gp = torture_gp_latency_us();

	return gp < 100 ? 100 : gp > 100000 ? 100000 : gp;
}

void gpo_quiet_maybe(struct torture_random *rng)
{
	unsigned long now = torture_now_us(), gp = gpo_gp_len_us();

	if (!tp.span_reads || now < next_quiet_us)
		return;
	next_quiet_us = now + gp * 6 + torture_random(rng) % (gp * 4);
	WRITE_ONCE(quiet_until_us, now + 3 * gp);	/* hint */
	WRITE_ONCE(quiet_id, quiet_id + 1);	/* hint */
	torture_sleep_us(gp);	/* the running grace period ends; spans start */
}

void gpo_quiet_hold(void)
{
	unsigned long now = torture_now_us();
	unsigned long until = READ_ONCE(quiet_until_us);	/* hint */

	if (now < until)
		torture_sleep_us(until - now);
}

unsigned long gpo_quiet_window(void)
{
	if (torture_now_us() >= READ_ONCE(quiet_until_us))	/* hint */
		return 0;
	return READ_ONCE(quiet_id);	/* hint */
}

/* ------------------------------------------------------------------ */
/* Hang watchdog */

#define GPO_MAX_WAITERS	64

static struct gpo_waiter {
	const char *who;		/* thread name (static string) */
	const char *what;		/* primitive (static string) */
	unsigned long since_us;		/* 0: not waiting; atomic */
	unsigned long reported;		/* since_us of the episode reported
					 * (watchdog only) */
	unsigned long seen;		/* since_us of the episode whose ... */
	unsigned long gps0;		/* ... RCU GP count the watchdog took at
					 * its first look (watchdog only) */
} waiters[GPO_MAX_WAITERS];
static int nwaiters;			/* slots handed out; atomic */
static __thread int my_waiter = -1;

void gpo_wait_begin(const char *who, const char *what)
{
	struct gpo_waiter *w;

	if (my_waiter < 0) {
		int i = atomic_fetch_add_relaxed(1, &nwaiters);

		if (i >= GPO_MAX_WAITERS)
			return;	/* more waiters than slots: unwatched */
		my_waiter = i;
	}
	w = &waiters[my_waiter];
	/* Atomic: the watchdog may still be reading the last wait's names
	 * (static strings: any value it reads is valid). */
	WRITE_ONCE(w->who, who);
	WRITE_ONCE(w->what, what);
	/* Release: who/what before the watchdog sees the wait (its acquire). */
	smp_store_release(&w->since_us, torture_now_us() | 1);
}

void gpo_wait_end(void)
{
	if (my_waiter >= 0)	/* the watchdog only reads it */
		WRITE_ONCE(waiters[my_waiter].since_us, 0);
}

/* Date the RCU's own grace-period count, once a tick, so that grace
 * periods nobody in the harness waited for count as progress too. */
static void sample_gps(unsigned long now)
{
	static unsigned long last_gps;
	unsigned long g;

	if (!cur_ops->gps_completed)
		return;
	g = cur_ops->gps_completed();
	if (g != last_gps) {
		last_gps = g;
		WRITE_ONCE(gpo_progress_us, now);	/* a hint */
	}
}

/* gps: 0 for "no grace period ended"; else how many ended meanwhile (a
 * waiter that is not woken). */
static void hang_report(struct gpo_waiter *w, unsigned long now, unsigned long since,
			unsigned long gps)
{
	bool deliberate = stall_deliberate_now();
	/* Relaxed: see gpo_wait_begin(). */
	const char *who = READ_ONCE(w->who);
	const char *what = READ_ONCE(w->what);

	if (gps)
		torout(" ??? Grace-period waiter stuck: %lu grace periods ended while %s "
		       "waited %.1f s in %s", gps, who, (double)(now - since) / 1e6, what);
	else
		torout(" ??? Grace-period hang: no grace period completed for %.1f s while %s "
		       "waits in %s%s", (double)(now - since) / 1e6, who, what,
		       deliberate ? " (during a deliberate stall: not a failure)" : "");
	if (deliberate) {
		STAT_INC(tc.gp_hangs_deliberate);
	} else {
		writer_stall_report();	/* the writer's and the RCU's state */
	}
	STAT_INC(tc.gp_hangs);
}

/*
 * A sync/exp/cond/poll wait that outlived `timeout' although 3 or more
 * grace periods ended since it began: its grace period is long over, so
 * it was never told (a lost wakeup).  Barrier waits are left out: their
 * callbacks may queue behind a flood.
 */
static unsigned long stuck_gps(struct gpo_waiter *w, unsigned long since)
{
	unsigned long g;

	/* Relaxed: see gpo_wait_begin(). */
	if (!cur_ops->gps_completed || !strcmp(READ_ONCE(w->what), "barrier"))
		return 0;
	g = cur_ops->gps_completed();
	if (w->seen != since) {	/* first look at this wait */
		w->seen = since;
		w->gps0 = g;
		return 0;
	}
	return g - w->gps0 >= 3 ? g - w->gps0 : 0;
}

static int gpwd_state;		/* 0 running, 1 asked to stop, 2 done */
static int gpwd_started;

static void *rcu_torture_gpwd(void *arg)
{
	unsigned long timeout = (unsigned long)tp.gp_hang_timeout * 1000000;
	int i, n;

	(void)arg;
	torture_up_watcher();	/* sees a group thread that spins */
	pthread_setname_np(pthread_self(), "rcu_torture_gpw");
	torverbose(" rcu_torture_gpwd task started");
	WRITE_ONCE(gpo_progress_us, torture_now_us());
	sample_gps(torture_now_us());
	/* Until gpwd_stop(): it also watches the final drain.  Acquire pairs
	 * with gpwd_stop()'s release. */
	while (!smp_load_acquire(&gpwd_state)) {
		unsigned long now;

		usleep(250000);	/* not torture_sleep_us(): it ends at the stop */
		now = torture_now_us();
		sample_gps(now);
		n = READ_ONCE(nwaiters);
		if (n > GPO_MAX_WAITERS)
			n = GPO_MAX_WAITERS;
		for (i = 0; i < n; i++) {
			struct gpo_waiter *w = &waiters[i];
			/* Acquire pairs with gpo_wait_begin()'s release. */
			unsigned long since = smp_load_acquire(&w->since_us);

			/* Relaxed progress time: a hint, at worst one tick late. */
			unsigned long prog = READ_ONCE(gpo_progress_us);
			unsigned long quiet = since > prog ? since : prog, gps;

			if (!since || w->reported == since)
				continue;
			gps = stuck_gps(w, since);
			if (gps && now >= since + timeout) {
				w->reported = since;
				hang_report(w, now, since, gps);
			} else if (now >= quiet + timeout) {
				/* Waiting, and no grace period ended, for `timeout'. */
				w->reported = since;
				hang_report(w, now, quiet, 0);
			}
		}
	}
	/* Release pairs with gpwd_stop()'s acquire: we are done with ops. */
	smp_store_release(&gpwd_state, 2);
	return NULL;
}

void gpwd_stop(void)
{
	int i;

	if (tp.gp_hang_timeout <= 0 || !READ_ONCE(gpwd_started))
		return;
	smp_store_release(&gpwd_state, 1);	/* pairs with the loop */
	for (i = 0; i < 40 && smp_load_acquire(&gpwd_state) != 2; i++)	/* the watchdog's 2 */
		usleep(25000);
}

bool gp_hang_reported(void)
{
	return STAT_READ(tc.gp_hangs) > STAT_READ(tc.gp_hangs_deliberate);
}

/* Detached, not a torture thread: it outlives the stop to watch the
 * final drain (main's callback barriers) and the joins. */
int gpwd_start(void)
{
	pthread_t t;

	if (tp.gp_hang_timeout <= 0)
		return 0;
	if (pthread_create(&t, NULL, rcu_torture_gpwd, NULL))
		return -1;
	pthread_detach(t);
	WRITE_ONCE(gpwd_started, 1);	/* main thread only */
	return 0;
}
