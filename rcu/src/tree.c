/* SPDX-License-Identifier: MIT */
/*
 * tree.c - the grace-period kthread and quiescent-state reporting.
 *
 * Theory of operation
 *
 * Each flavor has one grace-period thread ("rcu_preempt", "rcu_sched").
 * It sleeps until someone asks for a grace period (lrcu__gp_request()
 * advances ->gp_seq_needed), then:
 *
 *  1. init: rcu_seq_start(gp_seq), a fence, rcu_seq_confirm(gp_seq) (the
 *     confirmed value is the GP's `gstart'); fold each leaf's
 *     ->qsmaskinitnext (the slots registered now) into ->qsmaskinit,
 *     propagating only zero/non-zero transitions upward; then, breadth-
 *     first, load ->qsmask from ->qsmaskinit and stamp each node's
 *     ->gp_seq.  Slots registered after the fold are not waited for: they
 *     start reading after the GP began.
 *
 *  2. wait for quiescent states: one heavy fence (membarrier() for the rcu
 *     flavor) pairs with every reader's fence at the start of its section;
 *     then the holdout slots of each leaf are scanned.  A slot is quiescent
 *     if its reader word shows it outside a section, or inside one that
 *     started after this GP did (lrcu_word_qs()).  The rcu flavor first
 *     tries without the fence ("Deferring the heavy fence" below).
 *     Holdouts get ->need_qs,
 *     so that their outermost rcu_read_unlock() (or next
 *     rcu_quiescent_state()) tells us; otherwise we rescan after
 *     rcutree.jiffies_till_first_fqs, then every jiffies_till_next_fqs ms.
 *     Quiescent slots are reported up the tree (lrcu__report_qs_rnp()):
 *     clearing the last bit of a node reports the node to its parent, so
 *     at most one report per child reaches each level; clearing the root's
 *     last bit ends the wait.  rcu_sched threads report for themselves
 *     when asked (lrcu__report_qs_slot()).
 *
 *  3. cleanup: stamp the end value into every node, rcu_seq_end(gp_seq),
 *     let the gp_end hooks wake the callback invokers (the flavor's
 *     callback thread, callbacks.c; offloaded slots' rcuog threads,
 *     tree_nocb.c), wake synchronize_*() waiters, and go again if more
 *     grace periods were requested.
 *
 * Why one scan per slot suffices (no two-phase flip as in liburcu): the
 * reader stores its word, fences, then loads pointers; the GP thread has
 * made its removals visible (they precede the request), fences, then loads
 * the word.  Either the GP sees the reader's word, or the reader sees the
 * removal.  A reader that sampled an old gp_seq but stored it late is thus
 * harmless, and its stale sample only makes us wait longer.  The full
 * 47-bit sample cannot be confused with a fresh one (no ABA).
 *
 * What the hardware must provide: full fences that are cumulative (what
 * smp_mb() is on every architecture; membarrier() runs one on every
 * thread), acquire and release; not multi-copy atomicity.  The one place
 * that needed it: an updater whose only link to a GP's start is that its
 * snapshot (rcu_seq_snap(): removal, fence, load gp_seq) saw the value
 * before it -- one that finds its GP already requested and returns early
 * from lrcu__gp_request(), get_state_synchronize_rcu() + poll, call_rcu()
 * behind another's request.  A reader may see the start before that
 * updater does (POWER) and, with only a compiler barrier, still load the
 * removed pointer; its sample would make the scan skip it.  Hence the
 * start is confirmed after a fence and only samples of the confirmed
 * value count: the fence makes state 1 reach every thread first.  The
 * Promela model in rcu/formal/ (`make verify') checks the protocol on a
 * multi-copy-atomic and on a non-multi-copy-atomic memory, and shows the
 * unconfirmed start failing on the latter.
 *
 * Deferring the heavy fence (rcu flavor, rcutree.gp_defer_fence): the
 * membarrier() costs an interrupt of every CPU running one of our threads
 * (15-20 us on a virtual machine), while a busy reader, the usual holdout,
 * begins a new section within nanoseconds.  So the scans before the fence
 * count only the words that sampled this grace period (lrcu_word_new()):
 * such a reader, and all its later sections, see the removals (the
 * confirmed start above); and its earlier sections are over, since the
 * outermost rcu_read_lock() stores the word with release, which the scan's
 * acquire load pairs with.  A word outside any section proves nothing
 * before the fence: the reader's next section may have loaded the old
 * pointer while its word store still sits in its store buffer.  If the
 * holdouts do not all show the new grace period within a few rescans
 * (idle readers, preempted ones), the driver fences and goes on as
 * above.  A grace period with busy readers only thus ends with no
 * interrupt at all.
 *
 *
 * Who drives a grace period: ->gp_mutex is held from init to cleanup by
 * its driver, which runs lrcu__gp_run(): the GP kthread (grace periods
 * that call_rcu() and the polled calls ask for) or a caller of
 * synchronize_*() that found no one driving (lrcu__gp_drive()).  A caller
 * drives so that no thread handoff sits on its path: with no online
 * reader the grace period ends in the caller, and a holdout's report
 * wakes the caller itself instead of the kthread, which would then wake
 * the caller.  On a machine with more runnable threads than CPUs each
 * handoff waits for the scheduler, and three of them per grace period
 * made grace periods collapse.  Normal and expedited grace periods differ
 * only in how the driver waits for quiescent states (gp_wait_qs()): a
 * normal one sleeps until woken or the next force-quiescent-state scan is
 * due; an expedited one polls briefly, then sleeps until a holdout wakes
 * it.  rcutree.gp_caller_drives=0 sends normal callers to the kthread
 * (the kernel's way).  The keeper of a lazy batch's timer (a callback
 * or rcuo thread, lazy.c) drives too, through lrcu__gp_try_drive(): only
 * if it can without waiting (nobody drives, no holdout after its first
 * scan); otherwise it leaves the grace period in flight, its start
 * confirmed, for the kthread to finish (lrcu__gp_run() resumes one, as a
 * fork child's first driver does).  The protocol (what is scanned,
 * fenced, reported) is the same whoever drives.
 *
 * Hook points: a mechanism that must see every grace period registers
 * struct lrcu_gp_hooks (lrcu__gp_hook_add(), at init): gp_start after the
 * sequence starts, gp_check whenever a driver or a waiter wakes while the
 * grace period waits for quiescent states (stall warnings, tree_stall.c),
 * gp_end after the sequence ends (callback invocation: callbacks.c and
 * tree_nocb.c wake their threads there).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

/* This thread is driving a grace period (lrcu__gp_run()): it sees the
 * root's ->qsmask empty by itself, nobody needs to wake it. */
static __thread bool in_gp_driver;

/* Per flavor: the last grace period this thread drove as a caller made
 * it sleep for a holdout (see drive_yield()). */
static __thread bool drove_asleep[LRCU_NR_FLAVORS];

/* ------------------------------------------------------------------ */
/* Hooks */

void lrcu__gp_hook_add(struct lrcu_state *rsp, const struct lrcu_gp_hooks *h)
{
	if (rsp->nr_hooks == LRCU_MAX_HOOKS)
		lrcu__fatal("%s: more than %d grace-period hooks", rsp->name, LRCU_MAX_HOOKS);
	rsp->hooks[rsp->nr_hooks++] = h;	/* at init, before any thread */
}

static void gp_hooks_start(struct lrcu_state *rsp, unsigned long gstart, unsigned long now)
{
	int i;

	for (i = 0; i < rsp->nr_hooks; i++)
		if (rsp->hooks[i]->gp_start)
			rsp->hooks[i]->gp_start(rsp, gstart, now);
}

static void gp_hooks_end(struct lrcu_state *rsp, unsigned long gend, unsigned long now)
{
	int i;

	for (i = 0; i < rsp->nr_hooks; i++)
		if (rsp->hooks[i]->gp_end)
			rsp->hooks[i]->gp_end(rsp, gend, now);
}

/* The shortest sleep any hook asks for before it looks again (-1: none). */
static long gp_hooks_check(struct lrcu_state *rsp, bool driver)
{
	unsigned long now = lrcu__now_us();
	long us = -1, t;
	int i;

	for (i = 0; i < rsp->nr_hooks; i++) {
		if (!rsp->hooks[i]->gp_check)
			continue;
		t = rsp->hooks[i]->gp_check(rsp, now, driver);
		if (t >= 0 && (us < 0 || t < us))
			us = t;
	}
	return us;
}

/* Counters for inject.h's bugs (dead code unless make INJECT=1). */
static unsigned long inject_climbs, inject_requests;

/* True once every n calls (relaxed: a counter). */
static bool inject_every(unsigned long *ctr, unsigned long n)
{
	return atomic_inc_return_relaxed(ctr) % n == 0;
}

/* The driver's state, and when it was last active (now; 0: unchanged,
 * so that a grace period that needs no waiting reads the clock twice). */
static void gp_set_state(struct lrcu_state *rsp, int state, unsigned long now)
{
	WRITE_ONCE(rsp->gp_state, state);	/* read by diagnostics */
	if (now)
		WRITE_ONCE(rsp->gp_activity_us, now);	/* ditto */
}

/*
 * After each store to gp_seq (start, confirmation, end), by the driver
 * alone: publish the reader word for the new value, which the readers'
 * fast paths store as it is (lrcu_gp_pub[].word in rcu/static/rcupdate.h).
 * Release: after gp_seq's own release store, so that a reader whose
 * acquire load sees the new word sees the new gp_seq and all that came
 * before it (the removals), as if it had sampled gp_seq.  Between the two
 * stores a reader may still take the old word: it then counts as having
 * begun before the new value, which only makes the grace period wait for
 * it.  Both stores precede the fences that follow each of them (I, and
 * the scan's G), so no scan sees gp_seq's new value without the word's.
 */
static void gp_seq_publish(struct lrcu_state *rsp)
{
	struct lrcu_gp_pub *pub = container_of(rsp->gp_seq, struct lrcu_gp_pub, seq);

	smp_store_release(&pub->word, LRCU_GP_WORD(*rsp->gp_seq));	/* see above */
}

static void gp_delay(long jiffies)
{
	if (jiffies > 0)
		lrcu__sleep_us((unsigned long)jiffies * LRCU_JIFFY_US);
}

/* ------------------------------------------------------------------ */
/* rcutorture's stall_gp_kthread (the kernel's rcu_gp_set_torture_wait()) */

/* A test asked the GP kthread to sleep in its next grace period; callers
 * leave grace periods to it meanwhile (a hint: relaxed). */
static bool gp_torture_wait_pending(struct lrcu_state *rsp)
{
	return READ_ONCE(rsp->gp_torture_wait_ms) != 0;
}

/*
 * The GP kthread, its grace period started: sleep as asked, in the state
 * of a kthread waiting for quiescent states, its last activity now, so
 * that the stall warning that follows finds it starved.  Cut short if
 * the library stops or forks (the wait then parks, in gp_wait_qs()).
 */
static void gp_torture_wait(struct lrcu_state *rsp)
{
	/* Fully ordered, one sleep per request: pairs with nothing else. */
	unsigned long ms = xchg(&rsp->gp_torture_wait_ms, 0), now, end;

	if (!ms)
		return;
	fprintf(stderr, "rcu: rcu_gp_torture_wait: %s kthread waiting %lu jiffies\n",
		rsp->gp_thread_name, ms);
	now = lrcu__now_us();
	gp_set_state(rsp, LRCU_GPS_WAIT_FQS, now);
	for (end = now + ms * 1000; now < end && !lrcu__kthread_requested(); now = lrcu__now_us())
		lrcu__sleep_us(end - now < 10000 ? end - now : 10000);
	gp_set_state(rsp, LRCU_GPS_DOING_FQS, now);
	fprintf(stderr, "rcu: rcu_gp_torture_wait: %s kthread wait complete\n",
		rsp->gp_thread_name);
}

void lrcu_inject_gp_kthread_wait(enum lrcu_flavor f, unsigned long ms)
{
	struct lrcu_state *rsp;

	if (f >= LRCU_NR_FLAVORS || !ms)
		return;
	lrcu__init_once();
	rsp = &lrcu__states[f];
	/* Relaxed: taken by the kthread's next grace period (xchg), whose
	 * request orders it; callers see it soon enough to route theirs. */
	WRITE_ONCE(rsp->gp_torture_wait_ms, ms);
}

/* ------------------------------------------------------------------ */
/* Requests */

/* Seq_cst (acquire would do for most callers): pairs with H in
 * caller_drive_release() and with lrcu__gp_request()'s CAS. */
static bool gp_needed(struct lrcu_state *rsp)
{
	return ULONG_CMP_LT(rcu_seq_current(rsp->gp_seq),
			    smp_load_mb(&rsp->gp_seq_needed));	/* see above */
}

/*
 * A grace period is needed and no caller is driving: the GP kthread's
 * business.  A caller notes its request in ->gp_seq_needed (the lazy and
 * offloaded callbacks look there), but drives the grace period itself;
 * without the ->gp_by_caller check the kthread would take each such
 * request for one of its own, and with callers driving back to back it
 * would poll for gp_mutex for ever, taking a CPU from the readers.
 */
static bool gp_kthread_needed(struct lrcu_state *rsp)
{
	/* Seq_cst: pairs with H (caller_drive_release()). */
	return !smp_load_mb(&rsp->gp_by_caller) && gp_needed(rsp);
}

/*
 * Make sure the grace period ending at `snap' will happen.  Only the first
 * requester of each grace period writes (CAS) and wakes the GP thread;
 * later ones see ->gp_seq_needed already far enough and return.
 */
void lrcu__gp_request(struct lrcu_state *rsp, unsigned long snap)
{
	/* Relaxed: the CAS below is what orders. */
	unsigned long old = READ_ONCE(rsp->gp_seq_needed);

	if (LRCU_INJECTED(LRCU_BUG_NEVER_REQUESTED) &&
	    atomic_inc_return_relaxed(&inject_requests) > 50)
		return;	/* INJECTED: the request is lost */
	do {
		/*
		 * Already requested: return with no ordering of our own.
		 * The caller's removals are ordered by its snapshot's fence
		 * and the GP's confirmed start (theory at the top), on any
		 * machine with cumulative fences.
		 */
		if (ULONG_CMP_GE(old, snap))
			return;
		/*
		 * Release: the requester's prior accesses (its removals)
		 * happen before the GP thread's acquire load in gp_needed(),
		 * hence before rcu_seq_start().
		 */
	} while (!try_cmpxchg(&rsp->gp_seq_needed, &old, snap));
	lrcu__wake(&rsp->gp_req_wake);
}

struct gp_wait_arg {
	struct lrcu_state *rsp;
	unsigned long snap;
};

static bool gp_done_cond(void *p)
{
	struct gp_wait_arg *a = p;

	return rcu_seq_done(a->rsp->gp_seq, a->snap);	/* acquire: see below */
}

/*
 * The callback thread, awake with a grace period in flight, looks as a
 * waiter does: a poll that found a stall overdue with nobody waiting woke
 * it for that (lrcu_poll_state()).
 */
void lrcu__gp_watch(struct lrcu_state *rsp)
{
	/* Relaxed: a hint; the hooks read what they report with acquire. */
	if (rcu_seq_state(READ_ONCE(*rsp->gp_seq)))
		gp_hooks_check(rsp, false);
}

/*
 * Sleep on ->gp_wq until stop(arg) (checked under ->gp_wq_lock, so a
 * broadcast after the condition changed is never missed).  A waiter wakes
 * as often as the GP hooks ask, so that a grace period whose driver does
 * not run (a starved GP kthread) is still noticed; the hooks run without
 * the lock.
 */
void lrcu__gp_wq_wait(struct lrcu_state *rsp, bool (*stop)(void *), void *arg)
{
	struct timespec ts;
	bool done;
	long us;

	for (;;) {
		us = gp_hooks_check(rsp, false);
		pthread_mutex_lock(&rsp->gp_wq_lock);
		/*
		 * Count ourselves before looking (store-buffering pair with
		 * gp_mutex_release(): it changes what stop() looks at, fences,
		 * then reads the count; either it sees us and broadcasts under
		 * the lock we hold, or we see its change).
		 */
		atomic_inc(&rsp->gp_wq_waiters);	/* before the fence */
		smp_mb();	/* W */
		done = stop(arg);
		if (!done && us < 0) {
			pthread_cond_wait(&rsp->gp_wq, &rsp->gp_wq_lock);
		} else if (!done) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			ts.tv_nsec += us % 1000000 * 1000;
			ts.tv_sec += us / 1000000 + ts.tv_nsec / 1000000000;
			ts.tv_nsec %= 1000000000;
			pthread_cond_clockwait(&rsp->gp_wq, &rsp->gp_wq_lock, CLOCK_MONOTONIC, &ts);
		}
		done = done || stop(arg);
		atomic_dec(&rsp->gp_wq_waiters);	/* a count */
		pthread_mutex_unlock(&rsp->gp_wq_lock);
		if (done)
			return;
	}
}

/* Sleep until the grace period ending at `snap' has completed. */
void lrcu__gp_wait(struct lrcu_state *rsp, unsigned long snap)
{
	struct gp_wait_arg a = { rsp, snap };

	/* rcu_seq_done()'s acquire pairs with rcu_seq_end()'s release. */
	if (lrcu__spin_until(gp_done_cond, &a, LRCU_SPIN_US))
		return;
	lrcu__gp_wq_wait(rsp, gp_done_cond, &a);
}

/* ------------------------------------------------------------------ */
/* Reporting quiescent states up the tree */

/*
 * Clear `mask' in rnp->qsmask for grace period gp_seq (rnp locked; returns
 * with it unlocked).  If that empties the node: the bit to clear in its
 * parent, or 0 at the root (the grace period's driver may end it now).  A
 * report for another grace period, or for bits already clear, is dropped.
 */
static unsigned long report_qs_node(struct lrcu_state *rsp, unsigned long mask,
				    struct lrcu_node *rnp, unsigned long gp_seq)
{
	if (READ_ONCE(rnp->gp_seq) != gp_seq || !(rnp->qsmask & mask)) {
		lrcu__node_unlock(rnp);
		return 0;
	}
	mask &= rnp->qsmask;
	/* statistic; one writer at a time: the lock's holder */
	lrcu__stat_add(LOCKED_PTR(&rnp->lock, &rnp->n_qs_reports),
		       (unsigned long)__builtin_popcountl(mask));
	/* WRITE_ONCE: the GP thread peeks at the root without the lock. */
	WRITE_ONCE_LOCKED(&rnp->lock, rnp->qsmask, rnp->qsmask & ~mask);
	if (rnp->qsmask && !LRCU_INJECTED(LRCU_BUG_CLIMB_EARLY)) {
		lrcu__node_unlock(rnp);
		return 0;
	}
	mask = rnp->parent ? rnp->grpmask : 0;
	lrcu__node_unlock(rnp);
	/* All quiescent: the GP can end (unless we drive it). */
	if (!mask && !in_gp_driver)
		lrcu__wake(&rsp->gp_wake);
	if (mask && LRCU_INJECTED(LRCU_BUG_REPORT_DROPPED) && inject_every(&inject_climbs, 1000))
		return 0;	/* INJECTED: this node's report never reaches its parent */
	return mask;
}

/*
 * Clear `mask' in rnp->qsmask for grace period gp_seq and, if that empties
 * the node, report the node to its parent, and so on up.  Called with
 * rnp locked; returns with it unlocked.
 */
void lrcu__report_qs_rnp(struct lrcu_state *rsp, unsigned long mask,
			struct lrcu_node *rnp, unsigned long gp_seq)
{
	struct lrcu_node *parent;

	for (;;) {
		parent = rnp->parent;	/* const */
		mask = report_qs_node(rsp, mask, rnp, gp_seq);
		if (!mask)
			return;
		rnp = parent;
		lrcu__node_lock(rnp);
	}
}

/*
 * A pass along the leaves (a scan, or the first scan in gp_init()) reports
 * the leaves it empties to their parent together: siblings are adjacent,
 * so the parent's lock is taken once for all of them, not once a leaf
 * (with 1024 threads, 64 leaves under 4 parents, that was a fifth of a
 * grace period).  Between a leaf's report and the flush, its parent's bit
 * stays set, as between the unlock of a child and the lock of its parent
 * in lrcu__report_qs_rnp().
 */
struct qs_batch {
	struct lrcu_node *parent;
	unsigned long mask;	/* children of parent emptied */
	unsigned long gp_seq;
};

static void qs_batch_flush(struct lrcu_state *rsp, struct qs_batch *b)
{
	if (!b->mask)
		return;
	lrcu__node_lock(b->parent);
	lrcu__report_qs_rnp(rsp, b->mask, b->parent, b->gp_seq);
	b->mask = 0;
}

/* Leaf rnp has emptied (or had nothing to wait for): its report to its
 * parent goes into b. */
static void qs_batch_up(struct lrcu_state *rsp, struct qs_batch *b, struct lrcu_node *rnp)
{
	if (b->parent != rnp->parent)
		qs_batch_flush(rsp, b);
	b->parent = rnp->parent;
	b->mask |= rnp->grpmask;
}

/* Report `qs' at leaf rnp (locked; unlocked on return), its own report to
 * its parent, if it empties, into b. */
static void qs_batch_report(struct lrcu_state *rsp, struct qs_batch *b, unsigned long qs,
			    struct lrcu_node *rnp)
{
	unsigned long up;

	if (!qs) {
		lrcu__node_unlock(rnp);
		return;
	}
	up = report_qs_node(rsp, qs, rnp, b->gp_seq);
	if (up)
		qs_batch_up(rsp, b, rnp);
}

/*
 * A thread reports its own quiescent state (rcu_sched, on request, or any
 * flavor when going away), having cleared its ->need_qs.  Only for the
 * grace period its leaf is in, and only if its word proves it quiescent
 * for that grace period.
 *
 * If that grace period still waits for the slot, the request stands:
 * ->need_qs is set again.  The request the caller cleared may belong to
 * it: the caller's word predates it (the thread answered a request left
 * over from an earlier grace period, whose scan then found ->need_qs
 * still set and did not mark it again), or the driver marked it between
 * the caller's word store and its clear.  Dropped, the slot's next
 * quiescent state would go unreported, and an expedited grace period,
 * which does not rescan on a timer, would wait for a report that never
 * comes (TREE04 hung so).  Under the leaf's lock, which every marking
 * scan holds, so no mark is lost after this.
 */
void lrcu__report_qs_slot(struct lrcu_state *rsp, struct lrcu_data *rdp)
{
	struct lrcu_node *rnp = rdp->mynode;
	unsigned long w, g;

	lrcu__node_lock(rnp);
	/* Our own word (the caller is its owner): program order suffices;
	 * acquire for symmetry with gp_scan_leaf(). */
	w = rdp->word ? smp_load_acquire(rdp->word) : 0;
	g = lrcu__node_waits_for(rnp, rdp);
	if (g) {
		if (lrcu_word_qs(w, g)) {
			lrcu__report_qs_rnp(rsp, rdp->grpmask, rnp, g);
			return;
		}
		/* Relaxed: read by the owner (the caller) in program order. */
		if (rdp->need_qs)
			WRITE_ONCE(*rdp->need_qs, 1);
	}
	lrcu__node_unlock(rnp);
}

static unsigned long root_qsmask(struct lrcu_state *rsp)
{
	return READ_ONCE(rsp->node[0].qsmask);	/* pairs with WRITE_ONCE above */
}

/* ------------------------------------------------------------------ */
/* Grace-period initialisation */

/* Propagate a leaf's zero/non-zero ->qsmaskinit transition upward.
 * Called with rnp (the child) locked; parents are locked child-first. */
static void gp_init_propagate(struct lrcu_node *rnp, bool now_set)
{
	struct lrcu_node *child = rnp, *parent;
	bool was;

	for (parent = child->parent; parent; child = parent, parent = parent->parent) {
		lrcu__node_lock(parent);
		was = parent->qsmaskinit != 0;
		if (now_set)
			WRITE_LOCKED(&parent->lock, parent->qsmaskinit,
				     parent->qsmaskinit | child->grpmask);
		else
			WRITE_LOCKED(&parent->lock, parent->qsmaskinit,
				     parent->qsmaskinit & ~child->grpmask);
		now_set = parent->qsmaskinit != 0;
		lrcu__node_unlock(parent);
		if (was == now_set)
			break;
	}
}

static int leaf_index(struct lrcu_state *rsp, struct lrcu_node *rnp)
{
	return (int)(rnp - rsp->node) - rsp->level_first[rsp->levels - 1];
}

/* Phase 1: fold each leaf's registrations into ->qsmaskinit. */
static void gp_init_fold(struct lrcu_state *rsp)
{
	struct lrcu_node *rnp;

	lrcu_for_each_leaf_used(rsp, rnp, rsp->gp_leaves) {
		lrcu__node_lock(rnp);
		if (rnp->qsmaskinit != rnp->qsmaskinitnext) {
			bool was = rnp->qsmaskinit != 0;

			WRITE_LOCKED(&rnp->lock, rnp->qsmaskinit, rnp->qsmaskinitnext);
			if (was != (rnp->qsmaskinit != 0) &&
			    !(LRCU_INJECTED(LRCU_BUG_LEAF_NEVER_EMPTY) && was))
				gp_init_propagate(rnp, rnp->qsmaskinit != 0);
		}
		lrcu__node_unlock(rnp);
	}
}

/*
 * The slots of leaf rnp (in phase 2 of gp_init(), after its fence) that
 * the new grace period waits for: registered at phase 1, still registered,
 * and joined to the flavor.  A thread that joins after this load saw the
 * start (it sets its bit, fences, then samples gp_seq: a store-buffering
 * pair with rcu_seq_start() and the smp_mb() in gp_init()), so its
 * sections need not be waited for; one that registers after phase 1 is
 * not in ->qsmaskinit.  Acquire on ->qsmaskinitnext pairs with the
 * release clear in slot_detach(): a departed slot's last section is over
 * (taken under the lock, as in phase 2, the lock orders it anyway).
 */
static unsigned long leaf_owing(struct lrcu_node *rnp)
{
	return rnp->qsmaskinit &
	       smp_load_acquire(&rnp->qsmaskinitnext) &
	       READ_ONCE(rnp->joinmask);	/* after the fence */
}

/*
 * A leaf whose slots all owe the new grace period nothing (threads
 * registered that never used the flavor) needs neither its lock
 * nor a scan: its ->qsmask stays 0 for the whole grace period (it is 0
 * since the last one ended, and only phase 2 sets it), so whoever takes
 * the lock in the meantime (lrcu__node_waits_for(), report_qs_node())
 * finds nothing owed, whatever ->gp_seq it reads -- the argument of
 * gp_cleanup()'s lock-free stamps.  With 1024 idle threads these were 16
 * leaf locks, most of an rcu_sched grace period (and, once rcu joined on
 * first use too, 1024 word loads of an rcu one).  (A leaf some fault left
 * with bits set takes the locked path; the root leaf of a one-level tree
 * too, which nothing reports for.)
 */
static bool leaf_owes_nothing(struct lrcu_node *rnp)
{
	/* READ_ONCE: written under the lock by report_qs_node() only
	 * while set. */
	return !READ_ONCE(rnp->qsmask) && !leaf_owing(rnp);
}

static void gp_scan_prepare(struct lrcu_state *rsp);
static bool gp_fence_deferred(struct lrcu_state *rsp);
static unsigned long leaf_qs(struct lrcu_state *rsp, struct lrcu_node *rnp,
			     unsigned long holdouts, unsigned long gstart,
			     bool mark, bool *marked);

/*
 * Start a grace period.  With `scan', fence (gp_scan_prepare(), unless
 * the fence is deferred) before phase 2 and look at each leaf's words
 * while phase 2 holds its lock
 * anyway: the first scan, without asking anyone to report, costs no
 * lock of its own, and a grace period with no reader inside ends here.
 */
static unsigned long gp_init(struct lrcu_state *rsp, bool scan)
{
	struct lrcu_node *rnp;
	unsigned long gstart, mask, gen;
	struct qs_batch b;

	rsp->gp_start_us = lrcu__now_coarse_us();	/* jiffies will do */
	gp_set_state(rsp, LRCU_GPS_INIT, rsp->gp_start_us);
	rcu_seq_start(rsp->gp_seq);
	gp_seq_publish(rsp);
	/* The hooks (stall warnings) watch from the start, delays included;
	 * they know the GP by the value rcu_seq_confirm() will store. */
	gp_hooks_start(rsp, *rsp->gp_seq + 1, rsp->gp_start_us);
	gp_delay(READ_ONCE(lrcu__params.gp_preinit_delay));
	/*
	 * One fence for two pairs.  The start reaches every thread before we
	 * confirm it (see the theory above; pairs with the fence in the
	 * updaters' rcu_seq_snap()).  And phase 1 below, only if
	 * registrations changed since the last one: a registration we miss
	 * is folded next time, which is safe only if the newcomer reads
	 * after this GP started.  Store-buffering pair: rcu_seq_start(),
	 * fence, load gen; registry.c bumps gen, fence, then the newcomer
	 * loads gp_seq.  Either we see the bump (and fold the slot in) or
	 * the newcomer's sections all begin after this fence.  Departures we
	 * miss are reported in phase 2.  The same with ->joinmask, read in
	 * phase 2 (leaf_owing()): join_mask() in registry.c sets its bit,
	 * fences, then samples gp_seq.
	 */
	smp_mb();	/* I: pairs with I in registry.c (slot_attach(), join_mask()) */
	rcu_seq_confirm(rsp->gp_seq);
	gp_seq_publish(rsp);
	gstart = *rsp->gp_seq;
	/*
	 * The leaves to walk, read after gen (acquire: pairs with the
	 * release store in slot_attach()): a registration raises
	 * ->leaf_hwm before it bumps gen, so if we saw the bump we see its
	 * leaf.  Any leaf whose ->qsmaskinit is set lies below it: the fold
	 * set it after seeing ->qsmaskinitnext under the leaf lock, which
	 * the registrant took after raising the mark.  (Also after the
	 * fence above, for the bump's pairing with registry.c.)
	 */
	gen = smp_load_acquire(&rsp->qsmaskinit_gen);
	WRITE_LOCKED(&rsp->gp_mutex, rsp->gp_leaves, lrcu_leaf_hwm(rsp));
	if (gen != rsp->qsmaskinit_seen)
		gp_init_fold(rsp);
	rsp->qsmaskinit_seen = gen;

	/*
	 * Phase 2: breadth-first, so parents are ready before children
	 * report.  Nodes with no registered slot below them stay idle (their
	 * ->qsmask is 0, so nothing reports to them).
	 */
	gp_delay(READ_ONCE(lrcu__params.gp_init_delay));
	if (scan && !gp_fence_deferred(rsp))
		gp_scan_prepare(rsp);	/* GP start before word loads */
	b = (struct qs_batch){ .gp_seq = gstart };
	lrcu_for_each_node_used(rsp, rnp, rsp->gp_leaves) {
		if (!rnp->qsmaskinit)
			continue;
		if (lrcu_node_is_leaf(rsp, rnp) && rnp->parent && leaf_owes_nothing(rnp)) {
			/* Without its lock: see leaf_owes_nothing(). */
			WRITE_ONCE_UNLOCKED(rnp->gp_seq, gstart);	/* READ_ONCE() by lockers */
			qs_batch_up(rsp, &b, rnp);
			continue;
		}
		lrcu__node_lock(rnp);
		/* WRITE_ONCE: peeked at without the lock (root_qsmask(),
		 * gp_scan(), diagnostics). */
		WRITE_ONCE_LOCKED(&rnp->lock, rnp->qsmask, rnp->qsmaskinit);
		WRITE_ONCE_LOCKED(&rnp->lock, rnp->gp_seq, gstart);
		mask = 0;
		if (lrcu_node_is_leaf(rsp, rnp)) {
			/* Slots that left since phase 1 owe nothing, nor do
			 * those that never joined the flavor (see
			 * leaf_owes_nothing()). */
			mask = rnp->qsmask & ~leaf_owing(rnp);
			if (leaf_index(rsp, rnp) == READ_ONCE(lrcu__params.fault_skip_leaf) ||
			    (LRCU_INJECTED(LRCU_BUG_SKIP_LEAF) &&
			     leaf_index(rsp, rnp) == lrcu_inject_arg))
				mask = rnp->qsmask;	/* FAULT INJECTION: too-short GP */
			if (scan)
				mask |= leaf_qs(rsp, rnp, rnp->qsmask & ~mask, gstart, false, NULL);
			qs_batch_report(rsp, &b, mask, rnp);
		} else {
			lrcu__node_unlock(rnp);
		}
	}
	qs_batch_flush(rsp, &b);
	return gstart;
}

/* ------------------------------------------------------------------ */
/* Waiting for quiescent states */

/*
 * G: the fence that separates "GP started / need_qs set" from "read reader
 * words".  rcu flavor: membarrier(), pairing with the readers' compiler-
 * barrier fences.  rcu_sched: the threads fence in rcu_quiescent_state()
 * themselves, so an ordinary smp_mb() pairs with those.  Store-buffering
 * pairs: the readers store their word, fence, then load the section's
 * pointers or their need_qs (rcu_read_lock(), rcu_read_unlock(),
 * rcu_quiescent_state() in rcu/include/rcu/static/rcupdate.h;
 * sched_go_online() and sched_go_offline() in registry.c); the grace
 * period's removals or need_qs stores come before G, its word loads
 * after.
 */
static void gp_scan_prepare(struct lrcu_state *rsp)
{
	if (!rsp->gp_fenced)
		lrcu__stat_add(&rsp->n_gps_fenced, 1);
	/* Words outside a section now count. */
	WRITE_LOCKED(&rsp->gp_mutex, rsp->gp_fenced, true);
	if (LRCU_INJECTED(LRCU_BUG_GP_FENCE) ||
	    (LRCU_INJECTED(LRCU_BUG_EXP_FENCE) && READ_ONCE(rsp->gp_expedited)))
		return;	/* INJECTED: word loads may pass the GP start */
	if (rsp->flavor == LRCU_PREEMPT)
		lrcu__heavy_fence();	/* G */
	else
		smp_mb();	/* G */
}

/*
 * May this grace period scan before its heavy fence ("Deferring the heavy
 * fence" above)?  rcu flavor only: rcu_sched threads fence at their
 * quiescent states, so its fence is an smp_mb() already.
 */
static bool gp_fence_deferred(struct lrcu_state *rsp)
{
	long d = READ_ONCE(lrcu__params.gp_defer_fence);	/* a run-time parameter */

	if (rsp->flavor != LRCU_PREEMPT || !d)
		return false;
	/* Relaxed: a flag set once, before any thread registers. */
	return d == 2 || READ_ONCE(lrcu_has_membarrier);
}

/*
 * Which of `holdouts' (slots of leaf rnp, locked, in grace period gstart)
 * are quiescent: before the grace period's heavy fence, only those whose
 * word shows the new grace period.  With `mark' (after the fence), ask
 * the others to report (->need_qs) and set *marked if any was newly asked.
 */
static unsigned long leaf_qs(struct lrcu_state *rsp, struct lrcu_node *rnp,
			     unsigned long holdouts, unsigned long gstart,
			     bool mark, bool *marked)
{
	unsigned long qs = 0, bit, owing = holdouts;
	int i;

	for (; holdouts; holdouts &= holdouts - 1) {
		struct lrcu_data *rdp;
		unsigned long w;

		i = __builtin_ctzl(holdouts);
		bit = 1UL << i;
		rdp = &rsp->rda[rnp->grplo + i];
		if (!rdp->word) {		/* slot vacated */
			qs |= bit;
			continue;
		}
		/*
		 * Acquire pairs with the release store in the outermost
		 * rcu_read_unlock() (and the sched word stores): the section
		 * is over before we end the grace period.
		 */
		w = smp_load_acquire(rdp->word);
		if ((rsp->gp_fenced || LRCU_INJECTED(LRCU_BUG_UNFENCED_IDLE) ?
		     lrcu_word_qs(w, gstart) : lrcu_word_new(w, gstart)) ||	/* (INJECTED: trusted unfenced) */
		    (LRCU_INJECTED(LRCU_BUG_NOTICED_QS) &&
		     READ_ONCE(*rdp->need_qs))) {
			qs |= bit;	/* (INJECTED: asked counts as quiescent) */
		} else if (mark && !READ_ONCE(*rdp->need_qs)) {
			/* (Relaxed peek: marking twice is harmless.) */
			/* Read by the owner after its word store + fence. */
			WRITE_ONCE(*rdp->need_qs, 1);
			*marked = true;
		}
	}
	/* INJECTED: the lowest holdout of user slot ARG's leaf is never
	 * recorded (a slot that owes something: one that never joined the
	 * flavor would make the bug harmless). */
	if (LRCU_INJECTED(LRCU_BUG_QS_NEVER_RECORDED) &&
	    rnp == rsp->rda[lrcu__nr_internal + lrcu_inject_arg].mynode)
		qs &= ~(owing & -owing);
	return qs;
}

/*
 * Scan one leaf's holdouts; report the quiescent ones (into b).  With
 * `mark', ask the others to report and return true if any was newly asked.
 */
static bool gp_scan_leaf(struct lrcu_state *rsp, struct lrcu_node *rnp,
			 unsigned long gstart, bool mark, struct qs_batch *b)
{
	bool marked = false;

	lrcu__node_lock(rnp);
	if (READ_ONCE(rnp->gp_seq) != gstart) {
		lrcu__node_unlock(rnp);
		return false;
	}
	qs_batch_report(rsp, b, leaf_qs(rsp, rnp, rnp->qsmask, gstart, mark, &marked), rnp);
	return marked;
}

static bool gp_scan(struct lrcu_state *rsp, unsigned long gstart, bool mark)
{
	struct lrcu_node *rnp;
	bool marked = false;

	struct qs_batch b = { .gp_seq = gstart };

	gp_set_state(rsp, LRCU_GPS_DOING_FQS, 0);
	lrcu__stat_add(&rsp->n_fqs_scans, 1);	/* statistic (the driver's) */
	lrcu_for_each_leaf_used(rsp, rnp, rsp->gp_leaves)
		if (READ_ONCE(rnp->qsmask))	/* peek; rechecked under the lock */
			marked |= gp_scan_leaf(rsp, rnp, gstart, mark, &b);
	qs_batch_flush(rsp, &b);
	return marked;
}

/*
 * Scan, asking holdouts to report; if some were newly asked, fence and
 * scan again so that a holdout which finished before it could see the
 * request is not left for the next timed scan.
 */
static void gp_force_qs(struct lrcu_state *rsp, unsigned long gstart)
{
	if (gp_scan(rsp, gstart, true)) {
		gp_scan_prepare(rsp);	/* need_qs stores before word loads */
		gp_scan(rsp, gstart, false);
	}
}

/*
 * FAULT INJECTION (rcutree.fault_exp_skip_reader): report every holdout
 * of grace period gstart as quiescent, as an expedited grace period that
 * ignored the readers already inside would.
 */
static void gp_report_all(struct lrcu_state *rsp, unsigned long gstart)
{
	struct lrcu_node *rnp;

	lrcu_for_each_leaf_used(rsp, rnp, rsp->gp_leaves) {
		lrcu__node_lock(rnp);
		if (READ_ONCE(rnp->gp_seq) == gstart && rnp->qsmask)
			lrcu__report_qs_rnp(rsp, rnp->qsmask, rnp, gstart);
		else
			lrcu__node_unlock(rnp);
	}
}

/*
 * FAULT INJECTION (rcutree.fault_exp_skip_fence): skipping the heavy fence
 * lets the scan's word loads return values older than the grace period,
 * stores the readers made before it still invisible.  On x86 that is a
 * store buffer's worth of nanoseconds nobody observes, so the fault makes
 * it happen: the first scan of an expedited grace period uses the words as
 * the previous one saw them at its end (coherence allows no older value).
 */
static void fault_words_save(struct lrcu_state *rsp)
{
	struct lrcu_node *rnp;
	unsigned long m;

	lrcu_for_each_leaf_used(rsp, rnp, rsp->gp_leaves) {
		lrcu__node_lock(rnp);
		for (m = rnp->qsmaskinitnext; m; m &= m - 1) {
			struct lrcu_data *rdp = &rsp->rda[rnp->grplo + __builtin_ctzl(m)];

			/* Acquire, as the scans' word loads (leaf_qs()). */
			rdp->fault_word = rdp->word ? smp_load_acquire(rdp->word) : 0;
		}
		lrcu__node_unlock(rnp);
	}
}

static void fault_stale_scan(struct lrcu_state *rsp, unsigned long gstart)
{
	struct lrcu_node *rnp;
	unsigned long m, qs;

	lrcu_for_each_leaf_used(rsp, rnp, rsp->gp_leaves) {
		lrcu__node_lock(rnp);
		qs = 0;
		for (m = READ_ONCE(rnp->gp_seq) == gstart ? rnp->qsmask : 0; m; m &= m - 1) {
			int i = __builtin_ctzl(m);

			if (lrcu_word_qs(rsp->rda[rnp->grplo + i].fault_word, gstart))
				qs |= 1UL << i;
		}
		if (qs)
			lrcu__report_qs_rnp(rsp, qs, rnp, gstart);
		else
			lrcu__node_unlock(rnp);
	}
}

struct gp_woken_arg {
	struct lrcu_state *rsp;
	unsigned long gstart;
	uint32_t w;
};

/* Look at the holdouts' words again, without asking them to report. */
static bool gp_rescan_cond(void *p)
{
	struct gp_woken_arg *a = p;

	gp_scan(a->rsp, a->gstart, false);
	return !root_qsmask(a->rsp);
}

/* Rescans before the heavy fence: a few, for a microsecond or two. */
struct gp_unfenced_arg {
	struct gp_woken_arg *a;
	unsigned long t0;
};

static bool gp_unfenced_cond(void *p)
{
	struct gp_unfenced_arg *u = p;

	return gp_rescan_cond(u->a) || lrcu__now_us() - u->t0 >= LRCU_UNFENCED_US;
}

/*
 * The first scan, before the heavy fence, left holdouts: give them a
 * moment to show the new grace period ("Deferring the heavy fence"
 * above), then fence and scan again, counting words outside a section
 * too.  True if no holdout remains.
 */
static bool gp_wait_unfenced(struct lrcu_state *rsp, struct gp_woken_arg *a)
{
	struct gp_unfenced_arg u = { .a = a, .t0 = lrcu__now_us() };

	lrcu__poll_briefly(gp_unfenced_cond, &u, LRCU_RESCANS);
	if (!root_qsmask(rsp))
		return true;
	gp_scan_prepare(rsp);	/* GP start before word loads */
	gp_scan(rsp, a->gstart, false);
	return !root_qsmask(rsp);
}

/* A holdout woke us (it left its section, see lrcu_read_unlock_special()),
 * or all are quiescent (rcu_sched threads report for themselves). */
static bool gp_woken_cond(void *p)
{
	struct gp_woken_arg *a = p;

	/* Acquire pairs with lrcu__wake()'s increment. */
	return smp_load_acquire(&a->rsp->gp_wake) != a->w || !root_qsmask(a->rsp);
}

/*
 * Wait until every slot of grace period gstart is quiescent.  The GP
 * kthread sleeps until a holdout wakes it or the next force-quiescent-
 * state scan is due (rcutree.jiffies_till_{first,next}_fqs); an expedited
 * driver polls for a holdout's report first, then sleeps until woken,
 * never on a timer (the hooks may still ask to look at the GP: stall
 * warnings).  A driver that may leave (lrcu__gp_try_drive()) does not
 * wait at all: if its first scan leaves holdouts it returns false, the
 * grace period still in flight.
 */
static bool gp_wait_qs(struct lrcu_state *rsp, unsigned long gstart, bool expedited,
		       bool may_leave, bool scanned)
{
	/* Relaxed: our own store (caller_drive_begin()), under gp_mutex. */
	bool by_caller = READ_ONCE(rsp->gp_by_caller);
	long fqs_us = READ_ONCE(lrcu__params.jiffies_till_first_fqs) * LRCU_JIFFY_US, us;
	struct gp_woken_arg a = { .rsp = rsp, .gstart = gstart };

	if (scanned) {
		if (!root_qsmask(rsp))
			return true;	/* nobody was inside (gp_init()) */
		/* Before any marking: a mark is read after the fence. */
		if (!rsp->gp_fenced && gp_wait_unfenced(rsp, &a))
			return true;
	} else if (expedited && READ_ONCE(lrcu__params.fault_exp_skip_fence)) {
		/* FAULT INJECTION: as if it had fenced */
		WRITE_LOCKED(&rsp->gp_mutex, rsp->gp_fenced, true);
		fault_stale_scan(rsp, gstart);
	} else {
		gp_scan_prepare(rsp);	/* GP start before word loads */
	}
	/*
	 * A caller driving a normal grace period first looks at the words a
	 * few times without asking anyone to report: a busy holdout (an
	 * rcu_sched thread between quiescent states, a reader between
	 * sections) is usually seen quiescent within a microsecond, and then
	 * neither it nor we pay for a report (the leaf's lock, a wakeup).
	 * The same scan as the timed ones below, minus need_qs.  (Expedited
	 * grace periods gain nothing measurable from it: their heavy fence,
	 * tens of microseconds here, dwarfs the report.)
	 */
	if (by_caller && !expedited && !may_leave)
		lrcu__poll_briefly(gp_rescan_cond, &a, LRCU_RESCANS);
	for (;;) {
		/*
		 * Sample before the scan: a holdout that leaves after the
		 * scan looked at it bumps the word after this, so the wait
		 * below returns at once (see lrcu__wake()).  The acquire
		 * pairs with that bump: it follows the holdout's unlock.
		 */
		a.w = smp_load_acquire(&rsp->gp_wake);
		/*
		 * A fork() is being prepared: park here, where the tree is
		 * consistent and we hold gp_mutex only (the child's next
		 * driver finishes this GP).  After the sample: the forking
		 * thread requests, then bumps gp_wake (lrcu__tree_kick()).
		 */
		if (unlikely(lrcu__fork_pending())) {
			lrcu__fork_park(&rsp->gp_driver_parked);
			continue;
		}
		gp_force_qs(rsp, gstart);
		if (expedited && (READ_ONCE(lrcu__params.fault_exp_skip_reader) ||
				  LRCU_INJECTED(LRCU_BUG_EXP_SKIP_READER)))
			gp_report_all(rsp, gstart);	/* FAULT INJECTION: too short */
		if (!root_qsmask(rsp))
			return true;
		if (may_leave)
			return false;
		us = gp_hooks_check(rsp, true);
		if (expedited ? !lrcu__spin_until(gp_woken_cond, &a, LRCU_SPIN_US) :
		    !by_caller || !lrcu__poll_briefly(gp_woken_cond, &a, LRCU_POLLS)) {
			gp_set_state(rsp, LRCU_GPS_WAIT_FQS, lrcu__now_us());
			drove_asleep[rsp->flavor] = by_caller;
			if (!expedited && (us < 0 || fqs_us < us))
				us = fqs_us;
			lrcu__futex_wait(&rsp->gp_wake, a.w, us);
			/* Awake again: a driver that slept on purpose (an
			 * expedited one sleeps until a holdout reports or a
			 * stall is due) is not a starved one. */
			gp_set_state(rsp, LRCU_GPS_DOING_FQS, lrcu__now_us());
		}
		fqs_us = READ_ONCE(lrcu__params.jiffies_till_next_fqs) * LRCU_JIFFY_US;
	}
}

/* ------------------------------------------------------------------ */
/* Cleanup */

static void gp_cleanup(struct lrcu_state *rsp, bool expedited)
{
	struct lrcu_node *rnp;
	unsigned long end = rcu_seq_endval(rsp->gp_seq), now, dur, max;

	gp_set_state(rsp, LRCU_GPS_CLEANUP, 0);
	gp_delay(READ_ONCE(lrcu__params.gp_cleanup_delay));
	/*
	 * Record the end everywhere this GP started, before anyone can see
	 * the next start.  Without the nodes' locks: no node waits for
	 * anything now (the root's ->qsmask is empty, so every node's is), so
	 * whoever holds a lock and reads ->gp_seq once (report_qs_rnp(),
	 * lrcu__node_waits_for()) does nothing with either value.  That
	 * was a lock and an unlock per node and grace period, a fifth of a
	 * grace period's time with 1024 registered threads.
	 */
	lrcu_for_each_node_used(rsp, rnp, rsp->gp_leaves)
		if (rnp->qsmaskinit)
			WRITE_ONCE_UNLOCKED(rnp->gp_seq, end);	/* READ_ONCE() by lockers too */
	rcu_seq_end(rsp->gp_seq);	/* release: after the stamps */
	gp_seq_publish(rsp);

	now = lrcu__now_coarse_us();	/* as at the start */
	dur = now - rsp->gp_start_us;
	/* Statistics: relaxed, the driver is the only writer (gp_mutex). */
	max = READ_ONCE(rsp->gp_max_us);
	if (dur > max)
		WRITE_ONCE(rsp->gp_max_us, dur);
	lrcu__stat_add(&rsp->n_gps, 1);
	if (expedited)
		lrcu__stat_add(&rsp->n_exp_gps, 1);
	/* After the statistics: a hook may wake a callback invoker, and a
	 * callback's waiter read them. */
	gp_hooks_end(rsp, end, now);
	gp_set_state(rsp, LRCU_GPS_CLEANED, now);
}

/* ------------------------------------------------------------------ */
/* Driving one grace period (the kthread, or a caller of synchronize_*()) */

/* Is the next grace period wanted expedited? */
static bool gp_exp_wanted(struct lrcu_state *rsp)
{
	/* (Also called without gp_mutex, by gp_start_delay().) */
	unsigned long cur = rcu_seq_current(rsp->gp_seq);

	return ULONG_CMP_GE(READ_ONCE(rsp->gp_exp_needed),
			    (cur | RCU_SEQ_STATE_MASK) + 1);
}

/*
 * In a fork() child: the driver of the grace period in flight was parked
 * in gp_wait_qs() (after gp_init() confirmed the start) and is gone; its
 * tree state is whole (lifecycle.c).  The next driver finishes it.
 */
static unsigned long gp_resume(struct lrcu_state *rsp)
{
	unsigned long gstart = *rsp->gp_seq;

	if (rcu_seq_state(gstart) != 2)
		lrcu__fatal("%s: grace period %ld left in flight unconfirmed", rsp->name,
			   (long)gstart);
	return gstart;
}

/*
 * One grace period, start to end; the caller holds ->gp_mutex.  With
 * `may_leave', only if no holdout remains after the first scan: else it
 * returns false and leaves the grace period in flight, its start
 * confirmed and its tree whole, for the next driver to finish (as a fork
 * child's first driver finishes the one its parent's driver parked in).
 */
static bool gp_run(struct lrcu_state *rsp, bool expedited, bool may_leave)
{
	unsigned long gstart;
	bool ended, scan;

	in_gp_driver = true;
	WRITE_LOCKED(&rsp->gp_mutex, rsp->gp_fenced, false);
	/* Read by diagnostics (stall warnings) without the mutex. */
	WRITE_ONCE(rsp->gp_expedited, expedited);
	/* The first scan goes with the start (gp_init()), unless a fault
	 * injection wants the expedited GP's fence skipped (gp_wait_qs()). */
	scan = !(expedited && READ_ONCE(lrcu__params.fault_exp_skip_fence));
	if (unlikely(rcu_seq_state(*rsp->gp_seq))) {
		gstart = gp_resume(rsp);
		scan = false;
	} else {
		gstart = gp_init(rsp, scan);
	}
	/* The kthread's normal grace period only: the request may have come
	 * after the kthread chose to run this one expedited, whose stall
	 * warnings never say the kthread starved (the kernel's expedited
	 * grace periods are not the kthread's); the next one then sleeps. */
	if (unlikely(gp_torture_wait_pending(rsp)) && !expedited &&
	    !READ_ONCE(rsp->gp_by_caller))
		gp_torture_wait(rsp);	/* the kthread, a test asks it to starve */
	ended = gp_wait_qs(rsp, gstart, expedited, may_leave, scan);
	if (LRCU_INJECTED(LRCU_BUG_LAZY_LEAVE_ENDS))
		ended = true;	/* INJECTED: holdouts or not */
	if (ended)
		gp_cleanup(rsp, expedited);
	if (ended && expedited && READ_ONCE(lrcu__params.fault_exp_skip_fence))
		fault_words_save(rsp);
	WRITE_ONCE(rsp->gp_expedited, false);
	in_gp_driver = false;
	return ended;
}

void lrcu__gp_run(struct lrcu_state *rsp, bool expedited)
{
	gp_run(rsp, expedited, false);
}

/*
 * A caller takes over (holding gp_mutex): from now on the GP kthread
 * leaves the requests alone (gp_kthread_needed()), the caller's own
 * included, which it notes for those who look at ->gp_seq_needed.
 */
static void caller_drive_begin(struct lrcu_state *rsp, unsigned long snap)
{
	/* Seq_cst: as H (caller_drive_release()); also read by diagnostics. */
	smp_store_mb(rsp->gp_by_caller, true);
	lrcu__gp_note_request(rsp, snap);
}

/*
 * The caller lets go of gp_mutex (lrcu__gp_release(): ->gp_by_caller is
 * cleared before, so that it never clears the next caller's): a request
 * the GP kthread left alone meanwhile (for a later grace period, or the
 * one lrcu__gp_try_drive() left in flight) is the kthread's again: wake
 * it.  H: store-buffering with the kthread (all seq_cst): it samples
 * ->gp_req_wake, then reads ->gp_by_caller and ->gp_seq_needed
 * (gp_wait_request()); a requester raises ->gp_seq_needed, then bumps
 * ->gp_req_wake.  If the kthread saw us still driving and went to sleep
 * on a request it saw, we see that request here and our bump wakes it;
 * if it did not see the request, the requester's bump does.
 */
static void caller_drive_release(struct lrcu_state *rsp)
{
	smp_store_mb(rsp->gp_by_caller, false);	/* H */
	lrcu__gp_release(rsp);
	/*
	 * Not if another caller took gp_mutex over meanwhile: the kthread
	 * would only see it driving and sleep again, and with callers
	 * driving back to back (two writers) that was a wakeup per grace
	 * period.  The new driver runs this check at its release, after
	 * its own clear (seq_cst: if we saw its set, which follows our
	 * clear, it sees every request we saw here).
	 */
	if (gp_needed(rsp) && !smp_load_mb(&rsp->gp_by_caller))	/* after H */
		lrcu__wake(&rsp->gp_req_wake);
}

struct drive_arg {
	struct lrcu_state *rsp;
	unsigned long snap;
	unsigned long releases;	/* ->gp_releases when we failed to drive */
};

static bool drive_may_retry(void *p)
{
	struct drive_arg *a = p;

	/* rcu_seq_done()'s acquire pairs with rcu_seq_end(); the acquire
	 * load of the count with the release in lrcu__gp_release(). */
	return rcu_seq_done(a->rsp->gp_seq, a->snap) ||
	       smp_load_acquire(&a->rsp->gp_releases) != a->releases;
}

/* Our grace period ended, or another caller took the driving over. */
static bool drive_taken_cond(void *p)
{
	struct drive_arg *a = p;

	/* rcu_seq_done()'s acquire pairs with rcu_seq_end(); ->gp_by_caller
	 * is only a hint here (relaxed): after the wait we try anyway. */
	return rcu_seq_done(a->rsp->gp_seq, a->snap) ||
	       READ_ONCE(a->rsp->gp_by_caller);
}

/*
 * A caller whose last grace period made it sleep for a holdout lets
 * others drive the next one: it waits up to LRCU_SPIN_US, yielding, for
 * a caller that its release woke (still counted in ->gp_wq_waiters) to
 * take gp_mutex, or for its own grace period to end, before it tries.
 * Such a driver most likely shares its CPU with the holdout (a holdout
 * running elsewhere is seen within the first polls): an rcu_sched thread
 * that it preempts cannot report until it runs again, and the report
 * then wakes the driver onto the holdout's CPU, where it waits for the
 * holdout's time slice.  Without this, a driver that just released
 * gp_mutex took it straight back (its woken rivals had yet to run), and
 * one pinned beside a busy rcu_sched reader drove grace periods of 0.5 ms
 * on average against 30 us for one on the other CPU (rcuscale, 8 pinned
 * writers, 1 reader: 10k calls a second, 79k with this).  Bounded: the
 * caller drives after the wait whatever happened.
 */
static void drive_yield(struct drive_arg *a)
{
	drove_asleep[a->rsp->flavor] = false;
	if (READ_ONCE(a->rsp->gp_wq_waiters))	/* a count */
		lrcu__spin_until(drive_taken_cond, a, LRCU_SPIN_US);
}

/*
 * Until gp_seq reaches snap (a caller's snapshot): drive grace periods, or
 * wait for their driver.  Each try to drive is a trylock of ->gp_mutex;
 * one that fails sleeps until the driver lets go (->gp_releases, broadcast
 * on ->gp_wq) or snap is reached.  Every caller that arrives while grace
 * period g runs needs g+1, which one of them drives: N concurrent callers
 * cost at most two grace periods, and each release wakes all of them at
 * once (no chain of handoffs through a mutex).  An expedited caller that
 * finds the kthread driving marks the next grace period as wanted
 * expedited (->gp_exp_needed), so that whoever drives it runs it the
 * expedited way, and polls briefly before it sleeps.
 */
void lrcu__gp_drive(struct lrcu_state *rsp, unsigned long snap, bool expedited)
{
	struct drive_arg a = { .rsp = rsp, .snap = snap };

	for (;;) {
		if (rcu_seq_done(rsp->gp_seq, snap))	/* acquire: see above */
			return;
		if (unlikely(gp_torture_wait_pending(rsp))) {
			lrcu__gp_request(rsp, snap);	/* the kthread's to hold */
			lrcu__gp_wait(rsp, snap);
			return;
		}
		if (unlikely(drove_asleep[rsp->flavor])) {
			drive_yield(&a);
			continue;
		}
		/* Sample before the trylock: a release after it changes it. */
		a.releases = smp_load_acquire(&rsp->gp_releases);
		if (!pthread_mutex_trylock(&rsp->gp_mutex)) {
			if (!rcu_seq_done(rsp->gp_seq, snap)) {
				caller_drive_begin(rsp, snap);
				lrcu__gp_run(rsp, expedited || gp_exp_wanted(rsp));
				caller_drive_release(rsp);
			} else {
				lrcu__gp_release(rsp);
			}
			continue;
		}
		if (expedited)
			lrcu__gp_want_exp(rsp, snap);
		if (!expedited || !lrcu__spin_until(drive_may_retry, &a, LRCU_SPIN_US))
			lrcu__gp_wq_wait(rsp, drive_may_retry, &a);
	}
}

bool lrcu__callers_drive(bool expedited)
{
	/* kthread_prio: fixed at start; gp_caller_drives: a run-time parameter. */
	return !lrcu__kthread_prio && (expedited || READ_ONCE(lrcu__params.gp_caller_drives));
}

/*
 * For a library thread that would otherwise ask the GP kthread for the
 * grace period ending at snap and sleep until its end wakes it again (the
 * keeper of lazy callbacks, lazy.c): drive it here, as synchronize_*()
 * callers do, so that it costs no other thread a wakeup -- but only if
 * nobody drives one now and no reader holds it up, so that the caller,
 * which has callbacks to invoke, never waits for a reader.  Otherwise the
 * grace period is left to the GP kthread: requested (and, if we started
 * it, left in flight for the kthread to finish), and its end wakes the
 * caller through the GP hooks as any requester's would.  The caller holds
 * no lock and, if sched-joined, is offline (lrcu__sched_block_begin(), as
 * lrcu__update_begin() makes synchronize_*() callers), so that an
 * rcu_sched grace period does not wait for its own driver.  With
 * rcutree.gp_caller_drives=0 it only requests.  Returns true if gp_seq
 * has reached snap.
 */
bool lrcu__gp_try_drive(struct lrcu_state *rsp, unsigned long snap)
{
	bool left = false;

	if (rcu_seq_done(rsp->gp_seq, snap))	/* acquire: pairs with rcu_seq_end() */
		return true;
	if (!lrcu__callers_drive(false) || gp_torture_wait_pending(rsp) ||
	    pthread_mutex_trylock(&rsp->gp_mutex)) {
		lrcu__gp_request(rsp, snap);
		return false;
	}
	/* At most two: snap was sampled while one may have been running. */
	caller_drive_begin(rsp, snap);
	while (!left && !rcu_seq_done(rsp->gp_seq, snap))	/* ours, under gp_mutex */
		left = !gp_run(rsp, gp_exp_wanted(rsp), true);
	/* Requested already (caller_drive_begin()): this wakes the kthread
	 * to finish what we left. */
	caller_drive_release(rsp);
	return !left;
}

/*
 * Give up driving: drop ->gp_mutex, then wake the waiters on ->gp_wq,
 * both those waiting for a grace period's end and those waiting to drive
 * the next one (->gp_releases tells them it is free again).
 */
static void gp_mutex_release(struct lrcu_state *rsp)
{
	pthread_mutex_unlock(&rsp->gp_mutex);
	/* Release: pairs with the acquire samples in lrcu__gp_drive(). */
	atomic_fetch_add(1, &rsp->gp_releases);
	/*
	 * The new count (and the grace period's end, stored before) before
	 * the waiter count: pairs with W in lrcu__gp_wq_wait().  With no
	 * waiter (a caller that drives its own grace periods) there is
	 * nobody to wake.
	 */
	smp_mb();	/* pairs with W */
	if (READ_ONCE(rsp->gp_wq_waiters)) {	/* after the fence */
		pthread_mutex_lock(&rsp->gp_wq_lock);
		if (!(LRCU_INJECTED(LRCU_BUG_LOST_WAKEUP) && READ_ONCE(rsp->n_gps) > 30))
			pthread_cond_broadcast(&rsp->gp_wq);	/* (INJECTED: lost) */
		pthread_mutex_unlock(&rsp->gp_wq_lock);
	}
	if (unlikely(lrcu__fork_pending()))
		lrcu__fork_notify();	/* the forking thread may take it now */
}

void lrcu__gp_release(struct lrcu_state *rsp)
{
	gp_set_state(rsp, LRCU_GPS_WAIT_GPS, 0);
	gp_mutex_release(rsp);
}

/* Make sure gp_seq_needed covers snap without waking the GP kthread
 * (the caller is about to drive that grace period itself). */
void lrcu__gp_note_request(struct lrcu_state *rsp, unsigned long snap)
{
	unsigned long old = READ_ONCE(rsp->gp_seq_needed);

	/* A statistic for diagnostics: ordering comes from gp_mutex. */
	while (ULONG_CMP_LT(old, snap) &&
	       !try_cmpxchg_relaxed(&rsp->gp_seq_needed, &old, snap))
		;
}

/* Whoever drives the grace periods up to snap: run them expedited. */
void lrcu__gp_want_exp(struct lrcu_state *rsp, unsigned long snap)
{
	unsigned long old = READ_ONCE(rsp->gp_exp_needed);

	/* Relaxed: a GP kthread that misses it runs the GP the normal way,
	 * which is just as correct, only slower. */
	while (ULONG_CMP_LT(old, snap) &&
	       !try_cmpxchg_relaxed(&rsp->gp_exp_needed, &old, snap))
		;
}

/* Ask the GP kthread for the grace period ending at snap, run the
 * expedited way (start_poll_synchronize_*_expedited()). */
void lrcu__gp_request_exp(struct lrcu_state *rsp, unsigned long snap)
{
	lrcu__gp_want_exp(rsp, snap);
	lrcu__gp_request(rsp, snap);
}

/* ------------------------------------------------------------------ */
/* The driver's states (->gp_state), by the kernel's names */

static const char *const gp_state_names[] = {
	[LRCU_GPS_IDLE] = "RCU_GP_IDLE",
	[LRCU_GPS_WAIT_GPS] = "RCU_GP_WAIT_GPS",
	[LRCU_GPS_INIT] = "RCU_GP_INIT",
	[LRCU_GPS_WAIT_FQS] = "RCU_GP_WAIT_FQS",
	[LRCU_GPS_DOING_FQS] = "RCU_GP_DOING_FQS",
	[LRCU_GPS_CLEANUP] = "RCU_GP_CLEANUP",
	[LRCU_GPS_CLEANED] = "RCU_GP_CLEANED",
};

const char *lrcu_gp_state_name(int state)
{
	if (state < 0 || state >= (int)ARRAY_SIZE(gp_state_names))
		return "RCU_GP_UNKNOWN";
	return gp_state_names[state];
}

/* ------------------------------------------------------------------ */
/* The kthread */

static bool gp_needed_cond(void *rsp)
{
	return gp_kthread_needed(rsp);
}

/* Wait for a request; true if the thread must stop instead. */
static bool gp_wait_request(struct lrcu_state *rsp)
{
	uint32_t w;

	/* Back-to-back requests are common: poll briefly before sleeping. */
	if (lrcu__spin_until(gp_needed_cond, rsp, LRCU_SPIN_US))
		return false;
	for (;;) {
		/* Sample before checking: see lrcu__wake(); seq_cst, pairs
		 * with H (caller_drive_release()). */
		w = smp_load_mb(&rsp->gp_req_wake);
		if (gp_kthread_needed(rsp))
			return false;
		if (lrcu__kthread_idle(&rsp->gp_req_wake, w, -1))
			return true;
	}
}

struct gp_lock_arg {
	struct lrcu_state *rsp;
	unsigned long releases;	/* ->gp_releases when the trylock failed */
};

static bool gp_lock_cond(void *p)
{
	struct gp_lock_arg *a = p;

	/* Acquire pairs with the release in gp_mutex_release(). */
	return smp_load_acquire(&a->rsp->gp_releases) != a->releases ||
	       lrcu__kthread_requested();
}

/*
 * Take gp_mutex to drive the next grace period, waiting while an
 * expedited caller drives one (or the forking thread holds it: the wait
 * parks); false if the thread must stop instead.
 */
static bool gp_kthread_lock(struct lrcu_state *rsp)
{
	struct gp_lock_arg a = { .rsp = rsp };

	for (;;) {
		/* Sample before the trylock: a release after it changes it. */
		a.releases = smp_load_acquire(&rsp->gp_releases);
		if (!pthread_mutex_trylock(&rsp->gp_mutex))
			return true;
		lrcu__gp_wq_wait(rsp, gp_lock_cond, &a);
		if (lrcu__kthread_check())
			return false;
	}
}


/* rcutree.gp_start_delay: let a request wait before the kthread starts
 * the grace period (an expedited caller may run it meanwhile). */
static void gp_start_delay(struct lrcu_state *rsp)
{
	unsigned long t0 = lrcu__now_us(), el;
	long d;

	while ((d = READ_ONCE(lrcu__params.gp_start_delay)) > 0 && gp_needed(rsp) &&
	       !gp_exp_wanted(rsp) && (el = lrcu__now_us() - t0) < (unsigned long)d * 1000) {
		el = (unsigned long)d * 1000 - el;
		lrcu__sleep_us(el < 10000 ? el : 10000);
	}
}

static void *gp_kthread(void *arg)
{
	struct lrcu_state *rsp = arg;

	WRITE_ONCE(rsp->gp_tid, (int)syscall(SYS_gettid));	/* diagnostics */
	while (!lrcu__kthread_check() && !gp_wait_request(rsp)) {
		gp_start_delay(rsp);
		if (!gp_kthread_lock(rsp))
			break;
		/* An expedited caller may have run it meanwhile.  A grace
		 * period the kthread is to sleep in runs the normal way: the
		 * kernel's expedited ones are not the kthread's to starve. */
		if (gp_needed(rsp))
			lrcu__gp_run(rsp, gp_exp_wanted(rsp) && !gp_torture_wait_pending(rsp));
		lrcu__gp_release(rsp);
	}
	return NULL;
}

int lrcu__tree_start(struct lrcu_state *rsp)
{
	return lrcu__spawn(gp_kthread, rsp, rsp->gp_thread_name);
}

/* ------------------------------------------------------------------ */
/* fork() (lifecycle.c) */

/* The forking thread asked everyone to park: wake the GP drivers (in
 * gp_wait_qs()) and kthreads waiting for gp_mutex (gp_kthread_lock()). */
void lrcu__tree_kick(void)
{
	int f;

	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		struct lrcu_state *rsp = &lrcu__states[f];

		lrcu__wake(&rsp->gp_wake);
		pthread_mutex_lock(&rsp->gp_wq_lock);	/* the waiters check under it */
		pthread_cond_broadcast(&rsp->gp_wq);
		pthread_mutex_unlock(&rsp->gp_wq_lock);
	}
}

/* Every flavor's grace periods held still: its driver parked mid-GP, or
 * gp_mutex ours (own[]).  Called under kthread.c's lock, which guards
 * ->gp_driver_parked. */
bool lrcu__tree_fork_hold(bool own[LRCU_NR_FLAVORS])
{
	int f;

	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		struct lrcu_state *rsp = &lrcu__states[f];

		if (own[f] || rsp->gp_driver_parked)
			continue;
		if (pthread_mutex_trylock(&rsp->gp_mutex))
			return false;	/* a driver is busy: it parks or lets go */
		own[f] = true;
	}
	return true;
}

void lrcu__tree_fork_release(bool own[LRCU_NR_FLAVORS], bool child)
{
	int f;

	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		struct lrcu_state *rsp = &lrcu__states[f];

		if (child && !own[f])	/* a parked driver's, gone here */
			pthread_mutex_init(&rsp->gp_mutex, NULL);
		else if (child)
			pthread_mutex_unlock(&rsp->gp_mutex);
		else if (own[f])
			gp_mutex_release(rsp);	/* wakes those who waited for it */
		if (child) {
			rsp->gp_driver_parked = false;
			/* A parked driver (gone here) may have been a caller:
			 * its grace period is the kthread's to finish now. */
			WRITE_ONCE(rsp->gp_by_caller, false);	/* single-threaded child */
		}
		own[f] = false;
	}
}

void lrcu_force_qs(enum lrcu_flavor f)
{
	lrcu__init_once();
	lrcu__wake(&lrcu__states[f].gp_wake);
}
