/* SPDX-License-Identifier: MIT */
/*
 * srcu.c - sleepable RCU: domains and their grace periods.
 *
 * Theory of operation
 *
 * Readers (rcu/include/rcu/static/srcu.h).  A domain has an index bit,
 * ->srcu_idx & 1.  srcu_read_lock() samples it, adds one to this thread's
 * counter for (domain, index) and returns the index; srcu_read_unlock()
 * takes one off the same counter.  Each counter is written only by its
 * thread, with single stores, so it always holds exactly the number of
 * sections that thread has open on that index (a signal handler's whole
 * sections leave it as they found it).  Sections that use the shared
 * counters (srcu_read_lock_nmisafe(), srcu_down_read()) add to a lock
 * count and later to an unlock count instead.  The SRCU-fast readers count
 * in the same places (srcu_read_lock_fast() and _fast_updown() as
 * srcu_read_lock(), srcu_down_read_fast() as srcu_down_read()), so the
 * grace period below serves every reader flavor alike.
 *
 * An index is "drained" when a scan (srcu_readers_drained(), in
 * srcu_readers.c) reads zero in every thread's counter for it and equal
 * shared lock and unlock counts.
 *
 * A grace period (lrcu__srcu_advance()) is
 *
 *   start:  rcu_seq_start(gp_seq) (state SCAN1); heavy fence S
 *   SCAN1:  wait until the index readers are NOT using is drained
 *   flip:   fence E; srcu_idx++; heavy fence D (state SCAN2)
 *   SCAN2:  wait until the index readers used before the flip is drained
 *   end:    rcu_seq_end(gp_seq) (fence F inside)
 *
 * so every grace period drains both indexes, each after S.  A "heavy
 * fence" is lrcu__heavy_fence(): membarrier(), which runs a full barrier on
 * every thread of the process, where readers use only a compiler barrier
 * for B; smp_mb() where readers fence themselves.
 *
 * Why it is safe.  Take an updater that removed an object, then asked for
 * this grace period (the request samples gp_seq after a full fence, so
 * the removal precedes S), and a reader R that may hold the object.
 *
 *  1. R's increment precedes R's loads (B).  S is a full barrier on R's
 *     thread at some point P of R's program: if the increment came before
 *     P, every scan after S sees it (or a later value of the counter); if
 *     it came after P, R's loads come after P too and see the removal, so
 *     R cannot hold the object.  (Store buffering: R = {store count; B;
 *     load pointer}, updater = {store removal; S; load count}.)
 *
 *  2. A scan that reads zero in R's thread's counter for R's index, after
 *     seeing R's increment (1.), read a value written after it by the same
 *     thread; those stores track the open sections exactly, so zero means
 *     R's unlock came first.  The unlock is a release store (C) and the
 *     scan's loads are acquire: R's accesses happen before the grace
 *     period ends.  For the shared counters: the unlock count is read
 *     first, then (fence A) the lock count; R's lock increment precedes
 *     its unlock increment, so equal counts mean R's unlock was counted.
 *
 *  3. R used index 0 or 1, and both are drained after S (SCAN1 drains
 *     one, SCAN2 the other).  So R ended before the grace period did.
 *
 * Stale readers.  R may sample the index, stall, and increment the old
 * index after the flip (even after SCAN2 has looked at its thread).
 * That is safe by 1.: not seen after S means R started after P and does
 * not hold what this grace period protects.  But R now sits on the index
 * new readers do not use, and the next grace period must not flip back
 * to it and wait only for the other one: that is what SCAN1 is for.  It
 * drains the inactive index first, catching every such straggler, so the
 * next grace period's guarantee again needs only 1. to 3.
 *
 * Why the flip makes progress.  Without it, a steady stream of
 * overlapping readers could keep a counter from ever reading zero.  D is
 * a full barrier on every reader thread after the flip: each thread's
 * later samples of the index see the new value, so at most one sample per
 * thread (and per signal handler nested in it) can still be stale: SCAN2
 * waits only for sections that began before the flip, plus those few.
 * E keeps SCAN1's reads before the flip, so readers that see the new
 * index never add to the index SCAN1 is still reading.  D and E are about
 * progress; S, B, C and A are about safety.
 *
 * Barrier pairing, by label (each is also named at its code):
 *   B (srcu_read_lock)   pairs with S and D
 *   C (srcu_read_unlock) pairs with the scans' acquire loads
 *   A (the scan)         pairs with the order of a shared section's two
 *                        increments
 *   S (gp start)         pairs with B
 *   E (before the flip)  pairs with the readers' relaxed index samples
 *                        (through D)
 *   D (after the flip)   pairs with B
 *   F (rcu_seq_end)      pairs with the acquire in rcu_seq_done() of
 *                        waiters and pollers: the scans' observations
 *                        precede their return
 *
 * Driving.  A domain's grace periods are shared: a request raises
 * ->gp_seq_needed to an rcu_seq_snap() value and whoever drives runs
 * grace periods until the sequence reaches it.  synchronize_srcu()
 * callers drive themselves (one at a time, the others wait on ->gp_wq and
 * take over if the driver's own grace period ends first), sleeping
 * between scans while readers hold the grace period up; expedited ones
 * yield instead of sleeping.  call_srcu() and start_poll_synchronize_srcu()
 * leave their grace periods to the library's one srcu_worker thread
 * (srcu_cb.c), which steps every domain that has work without ever
 * blocking on one, so a domain whose readers sleep delays no other.
 * Nothing runs for a domain nobody asked anything of.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <rcu/lockdep.h>
#include "srcu_internal.h"

/* Delays between scans while readers hold a grace period up. */
#define SRCU_DELAY_MIN_US	50	/* first sleep of a plain GP */
#define SRCU_DELAY_MAX_US	5000	/* longest */
#define SRCU_EXP_NODELAY_US	2000	/* expedited: yield, no sleep, this long */
#define SRCU_EXP_DELAY_US	LRCU_JIFFY_US	/* ... then sleep a jiffy */

/* ------------------------------------------------------------------ */
/* Domains */

/* Every domain's update-side state, for fork() and rcu_shutdown(); the
 * lock also makes DEFINE_SRCU() domains allocate theirs once. */
static pthread_mutex_t sups_lock = PTHREAD_MUTEX_INITIALIZER;
static LIST_HEAD(sups);

/* A new domain state, on the list (sups_lock held). */
static struct lrcu_srcu_sup *sup_alloc(struct srcu_struct *ssp)
{
	struct lrcu_srcu_sup *sup = calloc(1, sizeof(*sup));

	if (!sup)
		return NULL;
	list_add(&sup->all, &sups);
	sup->ssp = ssp;
	pthread_mutex_init(&sup->lock, NULL);
	pthread_cond_init(&sup->gp_wq, NULL);
	pthread_cond_init(&sup->barrier_wq, NULL);
	pthread_mutex_init(&sup->barrier_mutex, NULL);
	/* Unlocked: nobody else sees it before sups_lock is dropped. */
	WRITE_UNLOCKED(sup->gp_seq, RCU_SEQ_INIT);
	WRITE_UNLOCKED(sup->gp_seq_needed, RCU_SEQ_INIT);
	WRITE_UNLOCKED(sup->gp_seq_needed_exp, RCU_SEQ_INIT);
	WRITE_UNLOCKED(sup->barrier_seq, RCU_SEQ_INIT);
	lrcu__cblist_init(&sup->cbl);
	INIT_LIST_HEAD(&sup->work);
	return sup;
}

static void sup_destroy(struct lrcu_srcu_sup *sup)
{
	pthread_mutex_destroy(&sup->lock);
	pthread_cond_destroy(&sup->gp_wq);
	pthread_cond_destroy(&sup->barrier_wq);
	pthread_mutex_destroy(&sup->barrier_mutex);
	free(sup);
}

static void sup_free(struct lrcu_srcu_sup *sup)
{
	pthread_mutex_lock(&sups_lock);
	list_del(&sup->all);
	pthread_mutex_unlock(&sups_lock);
	sup_destroy(sup);
}

/* The domain's update side; DEFINE_SRCU() domains get theirs here. */
struct lrcu_srcu_sup *lrcu__srcu_sup_get(struct srcu_struct *ssp)
{
	/* Acquire pairs with the release stores below and in init. */
	struct lrcu_srcu_sup *sup = smp_load_acquire(&ssp->srcu_sup);

	if (likely(sup))
		return sup;
	lrcu__init_once();	/* lrcu__heavy_fence() needs the final membarrier setting */
	pthread_mutex_lock(&sups_lock);
	sup = READ_ONCE(ssp->srcu_sup);	/* under the lock */
	if (!sup) {
		sup = sup_alloc(ssp);
		if (!sup)
			lrcu__fatal("SRCU domain %s: out of memory", ssp->srcu_name ? ssp->srcu_name : "?");
		/* Release: the initialised state before other updaters see it. */
		smp_store_release(&ssp->srcu_sup, sup);
	}
	pthread_mutex_unlock(&sups_lock);
	return sup;
}

int lrcu_init_srcu_struct(struct srcu_struct *ssp, const char *name, int flavor)
{
	struct lrcu_srcu_sup *sup;

	lrcu__init_once();
	memset(ssp, 0, sizeof(*ssp));	/* nobody may use it before we return */
	ssp->srcu_name = name;
	ssp->srcu_reader_flavor = flavor;
	pthread_mutex_lock(&sups_lock);
	sup = sup_alloc(ssp);
	pthread_mutex_unlock(&sups_lock);
	if (!sup)
		return -ENOMEM;
	lrcu__srcu_id_get(ssp);		/* per-thread counters from the start */
	smp_store_release(&ssp->srcu_sup, sup);	/* see sup_get() */
	return 0;
}

__attribute__((format(printf, 2, 3)))
static void cleanup_bug(const char *name, const char *fmt, ...)
{
	va_list ap;

	lrcu__misuse();
	flockfile(stderr);
	fprintf(stderr, "rcu: BUG: cleanup_srcu_struct(%s): ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

/* Drop callbacks that will never run (debug objects must forget them). */
static long cleanup_drop_callbacks(struct lrcu_srcu_sup *sup)
{
	struct lrcu_cbs done, pend;
	struct rcu_head *h;
	long n;

	lrcu__cblist_extract_all(&sup->cbl, &done, &pend);
	n = done.len + pend.len;
	if (READ_ONCE(lrcu__params.debug_objects)) {	/* may change at run time */
		for (h = done.head; h; h = h->next)
			lrcu__debug_head_unqueue(h);
		for (h = pend.head; h; h = h->next)
			lrcu__debug_head_unqueue(h);
	}
	return n;
}

void lrcu_cleanup_srcu_struct(struct srcu_struct *ssp)
{
	struct lrcu_srcu_sup *sup = smp_load_acquire(&ssp->srcu_sup);	/* see sup_get() */
	const char *name = ssp->srcu_name ? ssp->srcu_name : "?";
	unsigned long open[2];
	bool keep_sup = false;
	long cbs = 0;
	int waiters = 0;

	lrcu_lockdep_forget(ssp);	/* its memory may become another domain */
	if (lrcu__srcu_in_callback)	/* the worker would wait for itself */
		lrcu__fatal("cleanup_srcu_struct(%s) called from an SRCU callback: callbacks "
			   "run on the srcu_worker thread, which this would wait for", name);
	lrcu__srcu_readers_count(ssp, open);
	if (open[0] + open[1])
		cleanup_bug(name, "%lu read-side critical section(s) still open "
			    "(srcu_read_lock() without srcu_read_unlock()): the domain's id is "
			    "retired, never reused", open[0] + open[1]);
	if (sup) {
		lrcu__srcu_worker_forget(sup);	/* the worker lets go of it */
		pthread_mutex_lock(&sup->lock);
		if (sup->cbl.len)
			cbs = cleanup_drop_callbacks(sup);
		waiters = sup->nr_waiters;
		pthread_mutex_unlock(&sup->lock);
		if (cbs)
			cleanup_bug(name, "%ld callback(s) still queued (call srcu_barrier() "
				    "before cleanup_srcu_struct()): they will never be invoked", cbs);
		if (waiters) {
			cleanup_bug(name, "%d synchronize_srcu() call(s) still waiting: the "
				    "domain's update-side state stays allocated for them", waiters);
			keep_sup = true;
		}
		if (!keep_sup)
			sup_free(sup);
	}
	if (!(open[0] + open[1]))
		lrcu__srcu_id_put(READ_ONCE(ssp->srcu_id));
	/* The memory is the caller's again; a stale reader finds no id. */
	WRITE_ONCE(ssp->srcu_sup, NULL);
	WRITE_ONCE(ssp->srcu_id, LRCU_SRCU_ID_NONE);
}

/* ------------------------------------------------------------------ */
/* The grace-period state machine (sup->lock held throughout) */

bool lrcu__srcu_gp_needed(struct lrcu_srcu_sup *sup)
{
	return ULONG_CMP_LT(sup->gp_seq, sup->gp_seq_needed);
}

void lrcu__srcu_request(struct lrcu_srcu_sup *sup, unsigned long snap, bool exp)
{
	if (ULONG_CMP_LT(sup->gp_seq_needed, snap))
		WRITE_LOCKED(&sup->lock, sup->gp_seq_needed, snap);
	if (exp && ULONG_CMP_LT(sup->gp_seq_needed_exp, snap))
		WRITE_LOCKED(&sup->lock, sup->gp_seq_needed_exp, snap);
}

/*
 * Stall warnings (tree_stall.c): each grace period arms its domain's
 * watch at start and disarms it at the end; whoever scans and still finds
 * readers checks whether a warning is due.  The report names the domain
 * and the threads still inside (from the scan that just found them), or
 * says that only shared-counter (nmisafe) sections are open.
 */
static int srcu_print_holdouts(void *arg, struct lrcu_stall_out *o, unsigned long now)
{
	struct lrcu_srcu_sup *sup = arg;
	const struct srcu_holdouts *h = &sup->holdouts;	/* lock held by the caller */
	unsigned long ms = (now - sup->gp_start_us) / 1000;
	int i, n = h->nr_threads < SRCU_HOLDOUTS_MAX ? h->nr_threads : SRCU_HOLDOUTS_MAX;

	for (i = 0; i < n; i++) {
		lrcu__stall_holdout(o, -1, h->tid[i], h->name[i], ms, 0);
		lrcu__stall_printf(o, "rcu: \t-1-....: (0 GPs behind) P%d %s: %lu SRCU read-side "
				  "section(s) open for at least %lu ms (%s)\n", h->tid[i], h->name[i],
				  h->count[i], ms,
				  rcu_seq_state(sup->gp_seq) == SRCU_STATE_SCAN1 ? "first scan" :
				  "after the flip");
	}
	if (h->nr_threads > n)
		lrcu__stall_printf(o, "rcu: \t... and %d more threads\n", h->nr_threads - n);
	if (h->shared)
		lrcu__stall_printf(o, "rcu: \t%lu shared-counter (nmisafe/down_read) sections open\n",
				  h->shared);
	return h->nr_threads;
}

static unsigned long srcu_stall_gp_seq(void *arg)
{
	return READ_ONCE(((struct lrcu_srcu_sup *)arg)->gp_seq);
}

static unsigned long srcu_stall_cbs(void *arg)
{
	return READ_ONCE(((struct lrcu_srcu_sup *)arg)->cbl.len);	/* a sample */
}

static void srcu_stall_check(struct lrcu_srcu_sup *sup)
{
	struct lrcu_stall_source src = {
		.name = sup->ssp->srcu_name ? sup->ssp->srcu_name : "srcu",
		.print_holdouts = srcu_print_holdouts,
		.gp_seq = srcu_stall_gp_seq,
		.cbs_queued = srcu_stall_cbs,
		.arg = sup,
	};
	unsigned long now = lrcu__now_us();
	long next;

	if (lrcu__stall_due(&sup->stall, now, &next))
		lrcu__stall_report(&sup->stall, &src, now);
}

/* Is the index readers are not using drained?  (Both scans ask this.) */
static bool srcu_scan(struct lrcu_srcu_sup *sup)
{
	struct srcu_struct *ssp = sup->ssp;
	int idx = !(READ_ONCE(ssp->srcu_idx) & 1);	/* we write it */

	atomic_inc(&sup->n_scans);	/* statistic */
	if (lrcu__srcu_readers_drained(ssp, idx, &sup->holdouts))
		return true;
	srcu_stall_check(sup);
	return false;
}

static void srcu_gp_start(struct lrcu_srcu_sup *sup)
{
	sup->gp_start_us = lrcu__now_us();
	rcu_seq_start(LOCKED_PTR(&sup->lock, &sup->gp_seq));	/* SCAN1 */
	lrcu__stall_arm(&sup->stall, sup->gp_seq, sup->gp_start_us,
		       ULONG_CMP_LT(sup->gp_seq, sup->gp_seq_needed_exp));
	/*
	 * S: the requesters' removals (ordered before their requests by
	 * rcu_seq_snap()'s fence, and before us by sup->lock) before every
	 * counter load of this grace period.  Pairs with B in each reader
	 * (rcu/include/rcu/static/srcu.h).
	 */
	if (LRCU_INJECTED(LRCU_BUG_SRCU_START_FENCE))
		return;	/* INJECTED: counter loads may pass the removals */
	lrcu__heavy_fence();	/* S */
}

static void srcu_flip(struct lrcu_srcu_sup *sup)
{
	struct srcu_struct *ssp = sup->ssp;

	/* E: SCAN1's counter loads before the new index is visible; pairs
	 * with the readers' index samples, through D. */
	smp_mb();	/* E */
	/* Relaxed: readers sample it without ordering; D orders it. */
	WRITE_ONCE(ssp->srcu_idx, READ_ONCE(ssp->srcu_idx) + 1);
	/* D: the new index before every reader thread's later samples (at
	 * most one stale increment per thread and nested handler); pairs
	 * with B.  Also orders the flip before SCAN2's loads. */
	if (!LRCU_INJECTED(LRCU_BUG_SRCU_FLIP_FENCE))	/* (INJECTED: no D) */
		lrcu__heavy_fence();	/* D */
	rcu_seq_set_state(LOCKED_PTR(&sup->lock, &sup->gp_seq), SRCU_STATE_SCAN2);
}

static void srcu_gp_end(struct lrcu_srcu_sup *sup)
{
	unsigned long end = rcu_seq_endval(&sup->gp_seq);
	unsigned long dur = lrcu__now_us() - sup->gp_start_us;

	/* F: fence + release store; pairs with rcu_seq_done()'s acquire. */
	rcu_seq_end(LOCKED_PTR(&sup->lock, &sup->gp_seq));
	lrcu__stall_disarm(&sup->stall);
	/* Statistics: relaxed, written under the lock. */
	atomic_inc(&sup->n_gps);
	if (ULONG_CMP_GE(sup->gp_seq_needed_exp, end))
		atomic_inc(&sup->n_exp_gps);
	if (dur > READ_ONCE(sup->gp_max_us))
		WRITE_ONCE(sup->gp_max_us, dur);
	lrcu__srcu_cbs_gp_ended(sup);
	pthread_cond_broadcast(&sup->gp_wq);
}

/*
 * Run grace periods as far as the readers allow.  Returns true if one is
 * in progress and waiting for readers, false if none is needed.
 */
bool lrcu__srcu_advance(struct lrcu_srcu_sup *sup)
{
	for (;;) {
		switch (rcu_seq_state(sup->gp_seq)) {
		case SRCU_STATE_IDLE:
			if (!lrcu__srcu_gp_needed(sup))
				return false;
			srcu_gp_start(sup);
			/* fall through */
		case SRCU_STATE_SCAN1:
			/* (INJECTED: no first scan: stale readers are missed) */
			if (!LRCU_INJECTED(LRCU_BUG_SRCU_ONE_PHASE) && !srcu_scan(sup))
				return true;
			srcu_flip(sup);
			/* fall through */
		default:	/* SRCU_STATE_SCAN2 */
			if (!srcu_scan(sup))
				return true;
			srcu_gp_end(sup);
		}
	}
}

/*
 * How long to wait before the next scan of a grace period that readers
 * hold up (0: just yield).  Starts over whenever the grace period makes
 * progress (gp_seq changes).  Plain: yield for LRCU_SPIN_US (a short
 * section ends without a sleep), then sleep from SRCU_DELAY_MIN_US
 * doubling to SRCU_DELAY_MAX_US.  Expedited: no sleep between scans for
 * SRCU_EXP_NODELAY_US, then a jiffy (a reader that sleeps must not cost a
 * whole CPU for as long as it sleeps).
 */
unsigned long lrcu__srcu_delay(struct srcu_delay *d, unsigned long gp_seq, bool exp)
{
	unsigned long now = lrcu__now_us();

	if (d->seq != gp_seq || !d->t0) {
		d->seq = gp_seq;
		d->t0 = now;
		d->us = 0;
	}
	if (exp)
		return now - d->t0 < SRCU_EXP_NODELAY_US ? 0 : SRCU_EXP_DELAY_US;
	if (now - d->t0 < LRCU_SPIN_US)
		return 0;
	d->us = d->us ? d->us * 2 : SRCU_DELAY_MIN_US;
	if (d->us > SRCU_DELAY_MAX_US)
		d->us = SRCU_DELAY_MAX_US;
	return d->us;
}

/* ------------------------------------------------------------------ */
/* synchronize_srcu() */

static void srcu_check_blocking(struct srcu_struct *ssp, const char *caller)
{
	const char *name = ssp->srcu_name ? ssp->srcu_name : "?";

	if (lrcu__srcu_in_callback)
		lrcu__fatal("%s() on domain %s called from an SRCU callback: callbacks run on "
			   "the srcu_worker thread and must not block", caller, name);
	if (lrcu__sched_counted())
		lrcu__fatal("%s() on domain %s called inside rcu_read_lock_sched(): an rcu_sched "
			   "read-side critical section must not block", caller, name);
	if (lrcu_srcu_self_holds(ssp))
		lrcu__fatal("%s() on domain %s inside its own read-side critical section: it "
			   "would wait for itself", caller, name);
}

/*
 * The prelude of SRCU's blocking calls (synchronize_srcu*(),
 * srcu_barrier()), the counterpart of lrcu__update_begin(): the caller is
 * not where blocking would deadlock (per domain: another domain's reader
 * may wait for this one), and a sched-joined caller goes offline while it
 * waits; lrcu__update_end() undoes that.  Returns the domain's state.
 */
struct lrcu_srcu_sup *lrcu__srcu_update_begin(struct srcu_struct *ssp, const char *caller,
					     bool *was_online)
{
	struct lrcu_srcu_sup *sup;

	srcu_check_blocking(ssp, caller);
	sup = lrcu__srcu_sup_get(ssp);
	lrcu__sched_block_begin(was_online);
	return sup;
}

/* Drive grace periods until the one ending at s is over (lock held). */
static void srcu_drive(struct lrcu_srcu_sup *sup, unsigned long s)
{
	struct srcu_delay d = { 0, 0, 0 };
	unsigned long us;

	sup->driver = true;
	while (lrcu__srcu_advance(sup) && !rcu_seq_done(&sup->gp_seq, s)) {
		us = lrcu__srcu_delay(&d, sup->gp_seq,
				     ULONG_CMP_LT(sup->gp_seq, sup->gp_seq_needed_exp));
		pthread_mutex_unlock(&sup->lock);
		if (us)
			lrcu__sleep_us(us);
		else
			sched_yield();
		pthread_mutex_lock(&sup->lock);
	}
	sup->driver = false;
	pthread_cond_broadcast(&sup->gp_wq);	/* a waiter may take over */
	if (lrcu__srcu_gp_needed(sup))
		lrcu__srcu_worker_queue(sup);	/* callbacks or polls want more */
}

void lrcu_synchronize_srcu(struct srcu_struct *ssp, bool expedited, const char *caller)
{
	struct lrcu_srcu_sup *sup;
	unsigned long s;
	bool was;

	/* A wait for the domain's readers: lockdep's lock_sync(), checked
	 * before update_begin() reports a wait inside our own reader. */
	lrcu_lock_sync(ssp, ssp->srcu_name, caller);
	sup = lrcu__srcu_update_begin(ssp, caller, &was);
	pthread_mutex_lock(&sup->lock);
	s = rcu_seq_snap(&sup->gp_seq);		/* full fence: the caller's removals first */
	lrcu__srcu_request(sup, s, expedited);
	sup->nr_waiters++;
	/* rcu_seq_done()'s acquire pairs with F. */
	while (!rcu_seq_done(&sup->gp_seq, s)) {
		if (sup->driver)
			pthread_cond_wait(&sup->gp_wq, &sup->lock);
		else
			srcu_drive(sup, s);
	}
	sup->nr_waiters--;
	pthread_mutex_unlock(&sup->lock);
	lrcu__update_end(was);
}

/* ------------------------------------------------------------------ */
/* Polled grace periods */

unsigned long lrcu_get_state_synchronize_srcu(struct srcu_struct *ssp)
{
	/* Full fence inside: the caller's prior accesses before the sample. */
	return rcu_seq_snap(&lrcu__srcu_sup_get(ssp)->gp_seq);
}

unsigned long lrcu_start_poll_synchronize_srcu(struct srcu_struct *ssp)
{
	struct lrcu_srcu_sup *sup = lrcu__srcu_sup_get(ssp);
	unsigned long s;

	pthread_mutex_lock(&sup->lock);
	s = rcu_seq_snap(&sup->gp_seq);
	lrcu__srcu_request(sup, s, false);
	pthread_mutex_unlock(&sup->lock);
	lrcu__srcu_worker_queue(sup);
	return s;
}

/*
 * The kernel's srcu_expedite_current(): the grace period in progress (or,
 * if none is, the next one, which this requests) is to be expedited: its
 * driver, at its next step, yields instead of sleeping (srcu_drive()).
 * Requested through the same ->gp_seq_needed_exp as
 * synchronize_srcu_expedited().
 */
void lrcu_srcu_expedite_current(struct srcu_struct *ssp)
{
	struct lrcu_srcu_sup *sup = lrcu__srcu_sup_get(ssp);

	pthread_mutex_lock(&sup->lock);
	lrcu__srcu_request(sup, rcu_seq_snap(&sup->gp_seq), true);	/* full fence inside */
	pthread_mutex_unlock(&sup->lock);
	lrcu__srcu_worker_queue(sup);
}

bool lrcu_poll_state_synchronize_srcu(struct srcu_struct *ssp, unsigned long cookie)
{
	if (cookie == RCU_GET_STATE_COMPLETED)
		return true;
	/* Acquire pairs with F. */
	if (!rcu_seq_done(&lrcu__srcu_sup_get(ssp)->gp_seq, cookie))
		return false;
	smp_mb();	/* as a synchronize_srcu() spanning cookie..now would */
	return true;
}

/* ------------------------------------------------------------------ */
/* fork() and rcu_shutdown() (lifecycle.c) */

/* The domains' locks, then the worker's (sup->lock before W). */
void lrcu__srcu_fork(enum lrcu_fork_phase ph)
{
	struct lrcu_srcu_sup *sup;

	if (ph == LRCU_FORK_PREPARE)
		pthread_mutex_lock(&sups_lock);
	list_for_each_entry(sup, &sups, all) {
		lrcu__fork_mutex(&sup->lock, ph);
		if (ph != LRCU_FORK_CHILD)
			continue;
		/* Waiters, srcu_barrier() callers and drivers are gone here. */
		pthread_cond_init(&sup->gp_wq, NULL);
		pthread_cond_init(&sup->barrier_wq, NULL);
		lrcu__fork_reclaim(&sup->barrier_mutex);
	}
	if (ph == LRCU_FORK_CHILD)
		lrcu__srcu_readers_fork_child();	/* before srcu_worker restarts */
	lrcu__srcu_worker_fork(ph);
	if (ph != LRCU_FORK_PREPARE)
		pthread_mutex_unlock(&sups_lock);
}

/*
 * In a fork() child, once the library threads run again: the
 * synchronize_srcu() callers of other threads (a driver among them) are
 * gone, so the worker takes over what they asked for (their sections
 * ended in the CHILD step, srcu.h: "After fork()").  An srcu_barrier()
 * pass they left is completed by the next one (srcu_cb.c).
 */
void lrcu__srcu_fork_child(void)
{
	struct lrcu_srcu_sup *sup;
	bool work;

	pthread_mutex_lock(&sups_lock);
	list_for_each_entry(sup, &sups, all) {
		pthread_mutex_lock(&sup->lock);
		sup->driver = false;
		sup->nr_waiters = 0;
		work = lrcu__srcu_gp_needed(sup) || sup->cbl.len;
		pthread_mutex_unlock(&sup->lock);
		if (work)
			lrcu__srcu_worker_queue(sup);
	}
	pthread_mutex_unlock(&sups_lock);
}

/* rcu_shutdown(): run every domain's callbacks (srcu_barrier()).  Returns
 * the callbacks queued on all domains so far (for the caller's loop). */
unsigned long lrcu__srcu_shutdown_barrier(void)
{
	struct srcu_struct **all;
	struct lrcu_srcu_sup *sup;
	unsigned long queued = 0;
	size_t n = 0, i;

	/* srcu_barrier() without the list's lock: callbacks may make domains. */
	pthread_mutex_lock(&sups_lock);
	list_for_each_entry(sup, &sups, all)
		n++;
	all = calloc(n ? n : 1, sizeof(*all));
	if (!all)
		lrcu__fatal("rcu_shutdown(): out of memory");
	n = 0;
	list_for_each_entry(sup, &sups, all)
		all[n++] = sup->ssp;
	pthread_mutex_unlock(&sups_lock);
	for (i = 0; i < n; i++)
		lrcu_srcu_barrier(all[i]);
	free(all);
	pthread_mutex_lock(&sups_lock);
	list_for_each_entry(sup, &sups, all)
		queued += READ_ONCE(sup->n_cbs_queued);	/* a count */
	pthread_mutex_unlock(&sups_lock);
	return queued;
}

/* rcu_shutdown(), the worker stopped: free every domain's state (a domain
 * used again gets a new one, as on first use). */
void lrcu__srcu_shutdown_free(void)
{
	struct lrcu_srcu_sup *sup, *tmp;

	lrcu__srcu_worker_stopped();
	pthread_mutex_lock(&sups_lock);
	list_for_each_entry_safe(sup, tmp, &sups, all) {
		WRITE_ONCE(sup->ssp->srcu_sup, NULL);	/* nobody looks now */
		list_del(&sup->all);
		sup_destroy(sup);
	}
	pthread_mutex_unlock(&sups_lock);
}

/* ------------------------------------------------------------------ */
/* Statistics and diagnostics: snapshots (READ_ONCE()), no ordering needed */

unsigned long lrcu_srcu_get_gp_seq(struct srcu_struct *ssp)
{
	struct lrcu_srcu_sup *sup = smp_load_acquire(&ssp->srcu_sup);	/* see sup_get() */

	return sup ? READ_ONCE(sup->gp_seq) : RCU_SEQ_INIT;
}

unsigned long lrcu_srcu_batches_completed(struct srcu_struct *ssp)
{
	return (lrcu_srcu_get_gp_seq(ssp) - RCU_SEQ_INIT) >> RCU_SEQ_CTR_SHIFT;
}

int lrcu_srcu_get_stats(struct srcu_struct *ssp, struct lrcu_srcu_stats *st)
{
	struct lrcu_srcu_sup *sup = smp_load_acquire(&ssp->srcu_sup);	/* see sup_get() */

	memset(st, 0, sizeof(*st));
	st->id = READ_ONCE(ssp->srcu_id);
	st->idx = READ_ONCE(ssp->srcu_idx) & 1;
	lrcu__srcu_readers_count(ssp, st->readers);
	if (!sup)
		return -1;
	st->gp_seq = READ_ONCE(sup->gp_seq);
	st->gps_completed = READ_ONCE(sup->n_gps);
	st->exp_gps = READ_ONCE(sup->n_exp_gps);
	st->gp_max_us = READ_ONCE(sup->gp_max_us);
	st->scans = READ_ONCE(sup->n_scans);
	st->cbs_queued = READ_ONCE(sup->n_cbs_queued);
	st->cbs_invoked = READ_ONCE(sup->n_cbs_invoked);
	st->cbs_pending = st->cbs_queued - st->cbs_invoked;
	st->barriers = READ_ONCE(sup->n_barriers);
	return 0;
}

void lrcu_srcu_torture_stats(struct srcu_struct *ssp, FILE *out)
{
	struct lrcu_srcu_stats st;

	lrcu_srcu_get_stats(ssp, &st);
	fprintf(out, "Tree SRCU g%ld state %lu (%s) per-thread(idx=%lu): T(%lu,%lu) gps: %lu "
		"exp: %lu gp_max: %lu us scans: %lu cbs: %lu/%lu pending %lu barriers: %lu\n",
		(long)st.gp_seq, rcu_seq_state(st.gp_seq), ssp->srcu_name ? ssp->srcu_name : "?", st.idx,
		st.readers[0], st.readers[1], st.gps_completed, st.exp_gps, st.gp_max_us,
		st.scans, st.cbs_queued, st.cbs_invoked, st.cbs_pending, st.barriers);
}
