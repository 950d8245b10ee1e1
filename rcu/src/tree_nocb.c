/* SPDX-License-Identifier: MIT */
/*
 * tree_nocb.c - callback offloading ("no-CBs CPUs", rcu_nocbs=).
 *
 * Theory of operation
 *
 * An offloaded slot ("CPU" N) has its callbacks invoked by a thread of its
 * own, per flavor: "rcuop/N" (rcu) and "rcuos/N" (rcu_sched), never by the
 * flavor's callback thread.  The slots are cut into groups of
 * rcutree.rcu_nocb_gp_stride (default nr_cpus / sqrt(nr_cpus)), and one
 * thread per group, "rcuog/L" ("rcuogs/L" for rcu_sched; L its first
 * CPU), waits for grace periods on behalf of the whole group: it scans
 * the group's offloaded lists, advances them, wakes the rcuop thread of
 * each list with ready callbacks, and sleeps until the grace period the
 * earliest pending callbacks need has ended.  The end of a grace period
 * (our GP hook) thus wakes one thread per group that waits, not one per
 * slot, and an rcuop thread wakes only when its slot has work.
 *
 * The lists are the slots' own (rdp->cbl under rdp->cblock, the lock
 * call_rcu() takes anyway); call_rcu() queues, tags and requests the grace
 * period as for any slot (callbacks.c), then wakes the group's rcuog
 * thread only if it sleeps with nothing to wait for (->idle), so a stream
 * of callbacks costs one wakeup per grace period, not one per call.  With
 * rcu_nocb_poll=1 call_rcu() never wakes anybody: rcuog polls every
 * jiffy while its group is idle.  Lazy callbacks (lazy.c) are the rcuop
 * thread's: the first of a batch wakes it (not rcuog), it keeps their
 * timer, drives their grace period itself when it is due and it can,
 * then runs them; meanwhile it waits for their grace period itself, so
 * that one that ends anyway carries them along.  rcuog leaves a list
 * whose next grace period only deferred lazy callbacks need (it is not
 * requested) to them, and with polling tells the rcuop thread of them.
 *
 * Which thread invokes a slot's callbacks is rdp->cb_owner; only the
 * owner starts a batch, and never while one is out (rdp->cb_busy), so the
 * callbacks of a slot run in the order queued even while
 * rcu_nocb_cpu_offload()/rcu_nocb_cpu_deoffload() switch it (they take
 * effect for the next batch; the invoker of the last one hands over,
 * callbacks.c).  Nothing is moved: the list stays where it is, the
 * grace periods it waits for are requested already, only who watches it
 * changes, and both are woken to look.  An offloaded slot whose thread
 * unregisters keeps its callbacks with its rcuo threads (as the kernel's
 * outlive an offline CPU), which also keeps their order.
 *
 * As in the kernel since 5.17: without rcu_nocbs nothing can be
 * offloaded; with it (even empty, "rcu_nocbs" alone) every CPU can be,
 * at run time, and the listed ones are from the start.  The threads of a
 * CPU start when it is first offloaded and registered (or offloaded later
 * by a call), through lrcu__spawn() (kthread.c restarts them in a fork
 * child and stops them in rcu_shutdown()).  The rcuo
 * invokers are registered (callbacks may read), in internal slots
 * reserved at start: 2 x nr_cpus of them when rcu_nocbs is given.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "internal.h"

#define WAIT_NONE	1UL	/* never a grace-period end (those end in 00) */
#define POLL_US		LRCU_JIFFY_US

struct nocb_group;

/* One CPU's rcuo invoker. */
struct nocb_cb {
	struct lrcu_data *rdp;		/* the slot it serves (const) */
	struct nocb_group *grp;		/* its group (const) */
	uint32_t wake;			/* futex word: rcuog, toggles, barriers,
					 * lazy deferrals, GP ends it waits for */
	struct lrcu_lazy_keeper lazy;	/* it keeps its CPU's lazy timer */
	unsigned long wait_gp;		/* GP end its lazy callbacks wait for,
					 * WAIT_NONE: none (read by the GP hook) */
	int started;			/* spawned (toggle_lock; atomic reads) */
	int tid;			/* OS thread id, 0 until it runs (atomic) */
	unsigned long n_wakeups;	/* stats: it woke from a sleep (atomic) */
	char name[24];			/* "rcuop/N" (const; < 16 chars) */
};

/* One group and its rcuog thread. */
struct nocb_group {
	struct lrcu_state *rsp;		/* (const) */
	int first, last;		/* its CPUs (const) */
	uint32_t wake;			/* futex word: GP ends, call_rcu(), kicks */
	int idle;			/* 1: asleep (or about to be) with nothing
					 * requested; call_rcu() clears and wakes */
	unsigned long wait_gp;		/* GP end it sleeps for, WAIT_NONE: none
					 * (read by the GP hook) */
	int lazy_waiters;		/* its rcuo threads with a ->wait_gp
					 * (atomic; the GP hook looks if > 0) */
	int started;			/* spawned (toggle_lock; atomic reads) */
	int tid;			/* (atomic) */
	unsigned long n_wakeups;	/* stats (atomic): it woke from a sleep, */
	unsigned long n_gp_wakes;	/* ... woken by a GP's end */
	unsigned long n_enq_wakes;	/* ... woken by call_rcu() */
	char name[24];			/* "rcuog/L" (const; < 16 chars) */
};

struct lrcu_nocb {
	struct nocb_cb *cb;		/* nr_cpus */
	struct nocb_group *grp;		/* nr_groups */
	int nr_groups;
	int stride;
};

/* Set once at start (lrcu__nocb_nr_slots()). */
static bool nocb_enabled;
static bool *nocb_boot;			/* CPUs offloaded from the start */
static pthread_mutex_t toggle_lock = PTHREAD_MUTEX_INITIALIZER;	/* spawns, switches */

/* ------------------------------------------------------------------ */
/* Start-up */

static long isqrt(long n)
{
	long r = 1;

	while ((r + 1) * (r + 1) <= n)
		r++;
	return r;
}

/* Decide, once, from the (now fixed) parameters; the slots to reserve. */
int lrcu__nocb_nr_slots(void)
{
	long nr = lrcu__params.nr_cpus, beyond = 0;
	char err[160];

	nocb_enabled = lrcu__params.nocbs_given;
	if (!nocb_enabled)
		return 0;
	nocb_boot = calloc((size_t)nr, sizeof(*nocb_boot));
	if (!nocb_boot)
		lrcu__fatal("out of memory for rcu_nocbs");
	if (lrcu__cpulist_parse(lrcu__params.rcu_nocbs, nr, nocb_boot, &beyond, err,
				sizeof(err)))
		lrcu__fatal("%s", err);	/* checked when set: cannot happen */
	if (beyond)
		fprintf(stderr, "rcu: rcu_nocbs=%s names %ld CPU%s at or beyond nr_cpus=%ld: "
			"ignored\n", lrcu__params.rcu_nocbs, beyond, beyond > 1 ? "s" : "", nr);
	return 2 * (int)nr;	/* an rcuo invoker per CPU per flavor */
}

static void nocb_gp_end(struct lrcu_state *rsp, unsigned long gend, unsigned long now);
static const struct lrcu_gp_hooks nocb_hooks = { .gp_end = nocb_gp_end };

static struct lrcu_data *cpu_rdp(struct lrcu_state *rsp, int cpu)
{
	return &rsp->rda[lrcu__nr_internal + cpu];
}

int lrcu__nocb_init(struct lrcu_state *rsp)
{
	const bool sched = rsp->flavor == LRCU_SCHED;
	int nr = (int)lrcu__params.nr_cpus, cpu, g;
	struct lrcu_nocb *n;

	if (!nocb_enabled)
		return 0;
	n = calloc(1, sizeof(*n));
	if (!n)
		goto oom;
	n->stride = (int)(lrcu__params.nocb_gp_stride > 0 ? lrcu__params.nocb_gp_stride :
			  lrcu__params.nr_cpus / isqrt(lrcu__params.nr_cpus));
	if (n->stride > nr)
		n->stride = nr;
	n->nr_groups = (nr + n->stride - 1) / n->stride;
	n->cb = calloc((size_t)nr, sizeof(*n->cb));
	n->grp = calloc((size_t)n->nr_groups, sizeof(*n->grp));
	if (!n->cb || !n->grp)
		goto oom;
	for (g = 0; g < n->nr_groups; g++) {
		struct nocb_group *grp = &n->grp[g];

		grp->rsp = rsp;
		grp->first = g * n->stride;
		grp->last = grp->first + n->stride - 1 < nr ? grp->first + n->stride - 1 : nr - 1;
		grp->wait_gp = WAIT_NONE;
		snprintf(grp->name, sizeof(grp->name), "%s/%d", sched ? "rcuogs" : "rcuog",
			 grp->first);
	}
	for (cpu = 0; cpu < nr; cpu++) {
		struct nocb_cb *c = &n->cb[cpu];

		c->rdp = cpu_rdp(rsp, cpu);
		c->grp = &n->grp[cpu / n->stride];
		c->wait_gp = WAIT_NONE;
		snprintf(c->name, sizeof(c->name), "%s/%d", sched ? "rcuos" : "rcuop", cpu);
		if (nocb_boot[cpu])
			WRITE_UNLOCKED(c->rdp->cb_owner, LRCU_CBO_NOCB);	/* no thread runs yet */
	}
	rsp->nocb = n;
	lrcu__gp_hook_add(rsp, &nocb_hooks);
	return 0;
oom:
	fprintf(stderr, "rcu: out of memory for callback offloading\n");
	return -1;
}

/* ------------------------------------------------------------------ */
/* Waking */

static void stat_inc(unsigned long *p)
{
	atomic_inc(p);	/* statistic */
}

static struct nocb_cb *rdp_cb(struct lrcu_state *rsp, struct lrcu_data *rdp)
{
	return &rsp->nocb->cb[rdp->slot - lrcu__nr_internal];
}

/* Does a grace period ending at gend complete what *wait_gp waits for? */
static bool gp_end_completes(unsigned long *wait_gp, unsigned long gend)
{
	unsigned long t = READ_ONCE(*wait_gp);	/* after the hook's fence */

	return t != WAIT_NONE && ULONG_CMP_GE(gend, t);
}

/*
 * End of a grace period (GP hook, called by its driver): wake each rcuog
 * thread that sleeps for a grace period this one completes, and each
 * rcuo thread whose lazy callbacks do (only in groups that have such a
 * waiter).  N: the fence orders rcu_seq_end() before the loads of the
 * ->wait_gp and ->lazy_waiters; store-buffering pair with the smp_mb()
 * between a sleeper's stores of those and its rcu_seq_done() (wait_gp(),
 * cb_wait()).
 */
static void nocb_gp_end(struct lrcu_state *rsp, unsigned long gend, unsigned long now)
{
	struct lrcu_nocb *n = rsp->nocb;
	int g, cpu;

	(void)now;
	smp_mb();	/* N */
	for (g = 0; g < n->nr_groups; g++) {
		struct nocb_group *grp = &n->grp[g];

		if (gp_end_completes(&grp->wait_gp, gend)) {
			stat_inc(&grp->n_gp_wakes);
			lrcu__wake(&grp->wake);
		}
		if (!READ_ONCE(grp->lazy_waiters))	/* after the fence */
			continue;
		for (cpu = grp->first; cpu <= grp->last; cpu++)
			if (gp_end_completes(&n->cb[cpu].wait_gp, gend))
				lrcu__wake(&n->cb[cpu].wake);
	}
}

void lrcu__nocb_queued(struct lrcu_state *rsp, struct lrcu_data *rdp, enum lrcu_lazy lz)
{
	struct nocb_cb *c = rdp_cb(rsp, rdp);
	struct nocb_group *grp = c->grp;

	/* A deferred lazy callback behind another: timed already; with
	 * polling, rcuog looks by itself (run-time parameter). */
	if (lz == LRCU_LAZY_DEFERRED || READ_ONCE(lrcu__params.nocb_poll))
		return;
	/* The slot's first lazy one: its rcuo thread keeps the timer (and
	 * drives the grace period when due), rcuog is not involved. */
	if (lz == LRCU_LAZY_ARMED) {
		if (lrcu__lazy_keeper_wake(&c->lazy))
			lrcu__wake(&c->wake);
		return;
	}
	/*
	 * Our enqueue (under cblock) before the ->idle load: pairs with P,
	 * rcuog's store of ->idle, smp_mb(), then its scan.  Either it
	 * scans our callback or we see it idle; the exchange (fully
	 * ordered) makes one waker per sleep.
	 */
	smp_mb();	/* pairs with P */
	if (READ_ONCE(grp->idle) &&	/* after the fence */
	    xchg(&grp->idle, 0)) {
		stat_inc(&grp->n_enq_wakes);
		lrcu__wake(&grp->wake);
	}
}

void lrcu__nocb_wake_invoker(struct lrcu_state *rsp, struct lrcu_data *rdp)
{
	lrcu__wake(&rdp_cb(rsp, rdp)->wake);
}

void lrcu__nocb_kick_all(struct lrcu_state *rsp)
{
	struct lrcu_nocb *n = rsp->nocb;
	int i;

	if (!n)
		return;
	/* started: set under toggle_lock before the spawn; a thread not yet
	 * counted there looks at its lists when it starts anyway.  Acquire:
	 * pairs with the release stores in threads_start(). */
	for (i = 0; i < n->nr_groups; i++)
		if (smp_load_acquire(&n->grp[i].started))
			lrcu__wake(&n->grp[i].wake);
	for (i = 0; i < (int)lrcu__params.nr_cpus; i++)
		if (smp_load_acquire(&n->cb[i].started) &&
		    READ_ONCE(n->cb[i].rdp->cbl.len))	/* WRITE_ONCE() under cblock */
			lrcu__wake(&n->cb[i].wake);
}

/* ------------------------------------------------------------------ */
/* The threads */

/* The grace-period state offloaded lists are advanced to. */
static unsigned long nocb_cur(struct lrcu_state *rsp)
{
	unsigned long cur = rcu_seq_current(rsp->gp_seq);

	if (LRCU_INJECTED(LRCU_BUG_NOCB_EARLY))	/* INJECTED: the GP in progress as over */
		cur = (cur | RCU_SEQ_STATE_MASK) + 1;
	return cur;
}

/*
 * Sleep (offline for rcu_sched) until woken or sleep_us passed; with gp
 * (not WAIT_NONE), also until the grace period ending at gp is over: the
 * GP hook looks at our ->wait_gp while our group counts us.  True: stop.
 */
static bool cb_wait(struct nocb_cb *c, uint32_t w, unsigned long gp, long sleep_us)
{
	struct lrcu_state *rsp = c->grp->rsp;
	bool stop = false;

	if (gp == WAIT_NONE)
		return lrcu__cb_sleep(&c->wake, w, sleep_us);
	atomic_fetch_add(1, &c->grp->lazy_waiters);	/* before the fence */
	smp_store_mb(c->wait_gp, gp);	/* ditto */
	smp_mb();	/* both before gp_seq: pairs with N (nocb_gp_end()) */
	if (!rcu_seq_done(rsp->gp_seq, gp))
		stop = lrcu__cb_sleep(&c->wake, w, sleep_us);
	WRITE_ONCE(c->wait_gp, WAIT_NONE);	/* the hook's hint */
	atomic_dec(&c->grp->lazy_waiters);	/* ditto */
	return stop;
}

/*
 * An rcuo invoker: runs its CPU's ready callbacks when rcuog says so, and
 * keeps the timer of its lazy callbacks (lazy.c): when due, it drives
 * their grace period itself if it can and runs them at once; if it left
 * the grace period to the GP kthread, the group waits for it as for any
 * requested one (rcuog is told as call_rcu() would tell it).  While they
 * are deferred it waits for their grace period itself, so that one that
 * ends anyway (requested by others) carries them along.
 */
static void *nocb_cb_kthread(void *arg)
{
	struct nocb_cb *c = arg;
	struct lrcu_state *rsp = c->grp->rsp;
	struct lrcu_lazy_pass lp;
	bool more, ended;
	long sleep_us;
	uint32_t w;

	if (lrcu__register_internal(c->name))
		lrcu__fatal("%s: cannot register", c->name);
	WRITE_ONCE(c->tid, (int)syscall(SYS_gettid));	/* stats */
	while (!lrcu__kthread_check()) {
		/* Sample before looking for work: see lrcu__wake(). */
		w = smp_load_acquire(&c->wake);
		lrcu__lazy_pass_begin(&c->lazy, &lp);
		more = lrcu__cb_invoke(rsp, c->rdp, nocb_cur(rsp), LRCU_CBO_NOCB);
		if (READ_ONCE(c->rdp->lazy_since_us))	/* WRITE_ONCE() under cblock */
			lrcu__lazy_pass_slot(rsp, &lp, c->rdp, LRCU_CBO_NOCB);
		ended = lrcu__lazy_pass_end(rsp, &lp, &sleep_us);
		if (lp.due && !ended)	/* left to the GP kthread: requested */
			lrcu__nocb_queued(rsp, c->rdp, LRCU_LAZY_NOW);
		if (ended || more)
			continue;
		if (cb_wait(c, w, lp.deferred ? lp.deferred_gp : WAIT_NONE, sleep_us))
			break;
		stat_inc(&c->n_wakeups);
	}
	lrcu_unregister_thread();	/* rcu_shutdown() */
	return NULL;
}

/* What one scan of a group found. */
struct nocb_scan {
	bool waits;			/* some callbacks wait for a grace period */
	unsigned long gp;		/* ... the earliest one */
};

static bool gp_requested(struct lrcu_state *rsp, unsigned long gp)
{
	/* Relaxed: a request we miss was made by a call_rcu() that tells us
	 * after (lrcu__nocb_queued()), or covers lazy callbacks whose rcuo
	 * thread waits for it. */
	return ULONG_CMP_GE(READ_ONCE(rsp->gp_seq_needed), gp);
}

/*
 * One offloaded list: advance it, note the grace period it waits for,
 * wake its invoker if callbacks are ready.  A grace period that only
 * deferred lazy callbacks need is their rcuo thread's business (it times
 * them, and waits for it), not ours; with polling, enqueuers wake nobody,
 * so we tell it of them.
 */
static void scan_one(struct lrcu_state *rsp, struct nocb_cb *c, unsigned long cur,
		     bool poll, struct nocb_scan *sc)
{
	struct lrcu_data *rdp = c->rdp;
	bool ready, waits, lazy;
	unsigned long gp;

	pthread_mutex_lock(&rdp->cblock);
	if (rdp->cb_owner != LRCU_CBO_NOCB) {
		pthread_mutex_unlock(&rdp->cblock);
		return;
	}
	lrcu__cblist_advance(&rdp->cbl, cur);
	ready = lrcu__cblist_ready(&rdp->cbl) && !rdp->cb_busy;
	waits = lrcu__cblist_next_gp(&rdp->cbl, &gp);
	lazy = rdp->lazy_since_us != 0;
	pthread_mutex_unlock(&rdp->cblock);
	if (lazy && poll && lrcu__lazy_keeper_wake(&c->lazy))
		lrcu__wake(&c->wake);
	if (waits && lazy && !gp_requested(rsp, gp))
		waits = false;
	if (waits && (!sc->waits || ULONG_CMP_LT(gp, sc->gp))) {
		sc->waits = true;
		sc->gp = gp;
	}
	if (ready)
		lrcu__wake(&c->wake);
}

static void scan_group(struct nocb_group *grp, bool poll, struct nocb_scan *sc)
{
	struct lrcu_state *rsp = grp->rsp;
	unsigned long cur = nocb_cur(rsp);
	int cpu;

	sc->waits = false;
	sc->gp = 0;
	for (cpu = grp->first; cpu <= grp->last; cpu++) {
		struct nocb_cb *c = &rsp->nocb->cb[cpu];

		/* Peeks, rechecked under cblock (WRITE_ONCE() there). */
		if (READ_ONCE(c->rdp->cb_owner) == LRCU_CBO_NOCB && READ_ONCE(c->rdp->cbl.len))
			scan_one(rsp, c, cur, poll, sc);
	}
}

/* Sleep until the grace period ending at gp is over (or we are woken);
 * true: stop (rcu_shutdown()). */
static bool wait_gp(struct nocb_group *grp, uint32_t w, unsigned long gp)
{
	struct lrcu_state *rsp = grp->rsp;
	bool stop = false;

	smp_store_mb(grp->wait_gp, gp);	/* before the fence */
	smp_mb();	/* ->wait_gp before gp_seq: pairs with N (nocb_gp_end()) */
	if (!rcu_seq_done(rsp->gp_seq, gp))
		stop = lrcu__kthread_idle(&grp->wake, w, -1);
	WRITE_ONCE(grp->wait_gp, WAIT_NONE);
	return stop;
}

static void *nocb_gp_kthread(void *arg)
{
	struct nocb_group *grp = arg;
	struct nocb_scan sc;
	uint32_t w;
	bool poll;

	WRITE_ONCE(grp->tid, (int)syscall(SYS_gettid));	/* stats */
	while (!lrcu__kthread_check()) {
		/* Sample before looking for work: see lrcu__wake(). */
		w = smp_load_acquire(&grp->wake);
		poll = READ_ONCE(lrcu__params.nocb_poll);	/* run-time parameter */
		/* From here on call_rcu() wakes us: see lrcu__nocb_queued(). */
		smp_store_mb(grp->idle, !poll);	/* before the fence */
		smp_mb();	/* P: ->idle before the list peeks */
		scan_group(grp, poll, &sc);
		if (sc.waits) {
			/* We look again when it ends: no wakeups meanwhile. */
			WRITE_ONCE(grp->idle, 0);
			lrcu__gp_request(grp->rsp, sc.gp);	/* requested already: one load */
			if (wait_gp(grp, w, sc.gp))
				break;
		} else if (lrcu__kthread_idle(&grp->wake, w, poll ? POLL_US : -1)) {
			break;
		}
		stat_inc(&grp->n_wakeups);
	}
	return NULL;
}

/* Start cpu's rcuo threads (and its group's) if not yet; toggle_lock. */
static int threads_start(struct lrcu_nocb *n, int cpu)
{
	struct nocb_cb *c = &n->cb[cpu];
	struct nocb_group *grp = c->grp;

	if (!grp->started) {
		if (lrcu__spawn(nocb_gp_kthread, grp, grp->name))
			return -1;
		/* Release: the thread exists for lrcu__nocb_kick_all(). */
		smp_store_release(&grp->started, 1);
	}
	if (!c->started) {
		if (lrcu__spawn(nocb_cb_kthread, c, c->name))
			return -1;
		smp_store_release(&c->started, 1);	/* ditto */
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Switching a CPU's callbacks */

/*
 * INJECTED (nocb_toggle_drop): the switch hands the new invoker only the
 * ready callbacks and forgets those still waiting for a grace period.
 */
static void inject_drop_pending(struct lrcu_data *rdp)
{
	struct lrcu_cbs done, lost;

	lrcu__cblist_extract_all(&rdp->cbl, &done, &lost);
	lrcu__cblist_insert(&rdp->cbl, LRCU_DONE, &done);
}

/* Make rdp's invoker `owner'; true if that changed. */
static bool switch_owner(struct lrcu_data *rdp, int owner)
{
	bool changed;

	pthread_mutex_lock(&rdp->cblock);
	changed = rdp->cb_owner != owner;
	if (changed && LRCU_INJECTED(LRCU_BUG_NOCB_TOGGLE_DROP))
		inject_drop_pending(rdp);
	if (changed)
		WRITE_ONCE_LOCKED(&rdp->cblock, rdp->cb_owner, owner);	/* peeked at unlocked */
	pthread_mutex_unlock(&rdp->cblock);
	return changed;
}

/*
 * Offload (or not) cpu's callbacks in every flavor.  The new invoker is
 * woken to look at the slot (ready callbacks, lazy timers), and rcuog to
 * wait for its pending grace periods.
 */
static int nocb_switch(int cpu, bool offload)
{
	int f, rc = 0;

	lrcu__init_once();
	if (!nocb_enabled)
		return -EINVAL;
	if (cpu < 0 || cpu >= lrcu__params.nr_cpus)
		return -EINVAL;
	pthread_mutex_lock(&toggle_lock);
	for (f = 0; f < LRCU_NR_FLAVORS && offload; f++)
		if (threads_start(lrcu__states[f].nocb, cpu))
			rc = -EAGAIN;
	for (f = 0; f < LRCU_NR_FLAVORS && !rc; f++) {
		struct lrcu_state *rsp = &lrcu__states[f];
		struct nocb_cb *c = &rsp->nocb->cb[cpu];

		if (!switch_owner(c->rdp, offload ? LRCU_CBO_NOCB : LRCU_CBO_THREAD))
			continue;
		if (offload) {
			lrcu__wake(&c->grp->wake);
			lrcu__wake(&c->wake);
		} else {
			lrcu__cb_wake(rsp);
		}
	}
	pthread_mutex_unlock(&toggle_lock);
	return rc;
}

int lrcu_nocb_cpu_offload(int cpu)
{
	return nocb_switch(cpu, true);
}

int lrcu_nocb_cpu_deoffload(int cpu)
{
	return nocb_switch(cpu, false);
}

/*
 * A user slot was registered (CPU online): start its threads if it is
 * offloaded.  If they cannot start, its callbacks stay with the flavor's
 * callback thread.
 */
void lrcu__nocb_cpu_online(int slot)
{
	int cpu = slot - lrcu__nr_internal, f;

	if (!nocb_enabled)
		return;
	pthread_mutex_lock(&toggle_lock);
	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		struct lrcu_state *rsp = &lrcu__states[f];

		if (READ_ONCE(cpu_rdp(rsp, cpu)->cb_owner) != LRCU_CBO_NOCB ||
		    !threads_start(rsp->nocb, cpu))
			continue;
		fprintf(stderr, "rcu: cannot start %s: CPU %d's callbacks stay with %s\n",
			rsp->nocb->cb[cpu].name, cpu, rsp->cb_thread_name);
		switch_owner(cpu_rdp(rsp, cpu), LRCU_CBO_THREAD);
		lrcu__cb_wake(rsp);
	}
	pthread_mutex_unlock(&toggle_lock);
}

/* ------------------------------------------------------------------ */
/* Statistics */

int lrcu_nocb_info(enum lrcu_flavor f, int cpu, struct lrcu_nocb_info *info)
{
	struct lrcu_nocb *n;
	struct nocb_cb *c;
	struct nocb_group *grp;

	lrcu__init_once();
	if (f >= LRCU_NR_FLAVORS || !(n = lrcu__states[f].nocb) || cpu < 0 ||
	    cpu >= lrcu__params.nr_cpus)
		return -1;
	c = &n->cb[cpu];
	grp = c->grp;
	/* Snapshots for diagnostics: relaxed. */
	*info = (struct lrcu_nocb_info){
		.offloaded = READ_ONCE(c->rdp->cb_owner) == LRCU_CBO_NOCB,
		.leader_cpu = grp->first,
		.cb_tid = READ_ONCE(c->tid),
		.gp_tid = READ_ONCE(grp->tid),
		.cb_wakeups = READ_ONCE(c->n_wakeups),
		.gp_wakeups = READ_ONCE(grp->n_wakeups),
		.gp_end_wakes = READ_ONCE(grp->n_gp_wakes),
		.enqueue_wakes = READ_ONCE(grp->n_enq_wakes),
	};
	return 0;
}

/* How many CPUs are offloaded now (statistics). */
int lrcu__nocb_nr_offloaded(struct lrcu_state *rsp)
{
	int cpu, k = 0;

	for (cpu = 0; rsp->nocb && cpu < lrcu__params.nr_cpus; cpu++)
		k += READ_ONCE(cpu_rdp(rsp, cpu)->cb_owner) == LRCU_CBO_NOCB;
	return k;
}

/* ------------------------------------------------------------------ */
/* fork() and rcu_shutdown() (lifecycle.c) */

/* toggle_lock is taken by user threads (switches, registration) and
 * before the callback locks: it goes first. */
void lrcu__nocb_fork(enum lrcu_fork_phase ph)
{
	lrcu__fork_mutex(&toggle_lock, ph);
}

/* The threads are stopped: free everything and forget the decision, so
 * that the next start reads rcu_nocbs again. */
void lrcu__nocb_stop(void)
{
	int f;

	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		struct lrcu_nocb *n = lrcu__states[f].nocb;

		if (!n)
			continue;
		free(n->cb);
		free(n->grp);
		free(n);
		lrcu__states[f].nocb = NULL;
	}
	free(nocb_boot);
	nocb_boot = NULL;
	nocb_enabled = false;
}
