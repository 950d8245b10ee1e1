/* SPDX-License-Identifier: MIT */
/*
 * callbacks.c - call_rcu(), kfree_rcu() and callback invocation.
 *
 * call_rcu() queues on the caller's slot (rdp->cbl, under rdp->cblock):
 * it advances the list to the current gp_seq, tags the new callback with
 * rcu_seq_snap() (the end of the first grace period that is full from
 * now) and asks for that grace period.  Unregistered callers share the
 * unbound rdp (index nr_slots, in no leaf).
 *
 * Lazy callbacks (kfree_rcu(), and call_rcu() with rcutree.enable_rcu_lazy;
 * never call_rcu_hurry()) are queued the same way but their grace period
 * is requested later (lazy.c).
 *
 * Each slot has one invoker at a time (rdp->cb_owner): the flavor's
 * callback thread ("rcu_cb_preempt", "rcu_cb_sched"), or for an offloaded
 * slot its rcuo thread (tree_nocb.c).  Either runs the slot's callbacks
 * one batch at a time (rdp->cb_busy), so they run in the order queued,
 * even across a switch.  The callback thread is woken at the end of every
 * grace period (its GP hook), walks the slots it serves that have
 * callbacks, advances each list and runs at most rcutree.blimit ready
 * callbacks per slot per pass, so one slot's flood does not starve the
 * others; it also keeps the timers of their lazy callbacks, and runs
 * their grace periods itself when it can (lazy.c).  A slot
 * holding more than rcutree.qhimark callbacks has its limit lifted until
 * it drops below rcutree.qlowmark.  The invokers are registered (callbacks
 * may use rcu_read_lock()) and offline for rcu_sched while they sleep.
 */
#include <stdint.h>
#include <stdlib.h>
#include "internal.h"

struct lrcu_data *lrcu__this_rdp(struct lrcu_state *rsp)
{
	int slot = lrcu_reader.slot;

	return &rsp->rda[slot >= 0 ? slot : lrcu__nr_slots];
}

static unsigned long *cb_slot_word(struct lrcu_state *rsp, struct lrcu_data *rdp,
				   unsigned long *bit)
{
	int i = (int)(rdp - rsp->rda);

	*bit = 1UL << (i % LRCU_LONG_BITS);
	return &rsp->cb_slots[i / LRCU_LONG_BITS];
}

/*
 * Callbacks arrived at rdp (cblock held): mark it in ->cb_slots.  Callers
 * mark before the full fence of their rcu_seq_snap(), where they used to
 * rely on the ->len store alone: the walkers below then see the bit
 * whenever they would have seen the length (see cb_gp_end()).
 */
void lrcu__cb_slot_busy(struct lrcu_state *rsp, struct lrcu_data *rdp)
{
	unsigned long bit, *w = cb_slot_word(rsp, rdp, &bit);

	/* Only this slot's bit, only under its cblock: a relaxed peek is
	 * exact, and the read-modify-write happens once per busy spell.
	 * Relaxed: ordered by the caller's fence (above). */
	if (!(READ_ONCE(*w) & bit))
		atomic_or(bit, w);
}

/* rdp has no callbacks left (cblock held).  Relaxed: a later arrival
 * sets the bit again under the same lock. */
static void cb_slot_idle(struct lrcu_state *rsp, struct lrcu_data *rdp)
{
	unsigned long bit, *w = cb_slot_word(rsp, rdp, &bit);

	if (READ_ONCE(*w) & bit)
		atomic_and(~bit, w);
}

/*
 * The ->cb_slots words that may hold a bit: those of the slots below the
 * high-water mark (no slot above it ever held callbacks), then the last
 * one, the unbound slot's.  With nr_cpus=4096 and a few threads that is
 * 2 words, not 65, on every grace period's end.  `below' is the number of
 * words under the mark, at most the last word's index.  A mark read
 * stale only hides slots registered after our sample of it: their
 * callbacks' bits are covered as a missed bit is (see cb_gp_end()).
 */
static size_t cb_words_below(void)
{
	/* Acquire pairs with the release in register_slot(). */
	size_t hwm = (size_t)smp_load_acquire(&lrcu__slots_hwm);
	size_t below = (hwm + LRCU_LONG_BITS - 1) / LRCU_LONG_BITS;

	return below < lrcu_cb_slots_words() - 1 ? below : lrcu_cb_slots_words() - 1;
}

static size_t cb_word_next(size_t wi, size_t below)
{
	return wi + 1 == below ? lrcu_cb_slots_words() - 1 : wi + 1;
}

/*
 * Walk the rdps whose ->cb_slots bit is set (relaxed loads; the callers
 * say what orders them).  `continue' goes to the next one; `break' only
 * leaves the current word.
 */
#define for_each_cb_slot(rsp, rdp, wi, m, below)					\
	for ((below) = cb_words_below(), (wi) = (below) ? 0 : lrcu_cb_slots_words() - 1; \
	     (wi) < lrcu_cb_slots_words(); (wi) = cb_word_next((wi), (below)))	\
		for ((m) = READ_ONCE((rsp)->cb_slots[wi]);				\
		     (m) && ((rdp) = &(rsp)->rda[(wi) * LRCU_LONG_BITS +			\
					       __builtin_ctzl(m)], 1);			\
		     (m) &= (m) - 1)

static void cblist_set_len_locked(struct lrcu_data *rdp, long len)
{
	WRITE_ONCE(rdp->cbl.len, len);	/* read unlocked by the invoker */
	if (!len)
		cb_slot_idle(rdp->rsp, rdp);
}

static void call_common(enum lrcu_flavor f, struct rcu_head *head, rcu_callback_t func,
			bool lazy)
{
	struct lrcu_state *rsp = &lrcu__states[f];
	enum lrcu_lazy lz = LRCU_LAZY_NOW;
	struct lrcu_data *rdp;
	unsigned long snap;
	bool flood = false;
	int owner;

	lrcu__init_once();
	/* Parameters may change at run time (WRITE_ONCE() in params.c). */
	if (READ_ONCE(lrcu__params.debug_objects) && !lrcu__debug_head_queue(head))
		return;		/* double call_rcu(): reported and dropped */
	head->func = func;
	rdp = lrcu__this_rdp(rsp);
	pthread_mutex_lock(&rdp->cblock);
	lrcu__cblist_enqueue(&rdp->cbl, head);
	lrcu__cb_slot_busy(rsp, rdp);
	/* Full fence inside: the caller's removals before the sample (and
	 * the callback's bit before it: see cb_gp_end()). */
	snap = rcu_seq_snap(rsp->gp_seq);
	if (LRCU_INJECTED(LRCU_BUG_CB_STALE_SNAP))	/* INJECTED: a GP too early */
		snap -= RCU_SEQ_STATE_MASK + 1;
	lrcu__cblist_advance_accelerate(&rdp->cbl, rcu_seq_current(rsp->gp_seq), snap);
	WRITE_LOCKED(&rdp->cblock, rdp->n_cbs_queued, rdp->n_cbs_queued + 1);
	if (lazy)
		lz = lrcu__lazy_defer(rsp, rdp, snap, lrcu__now_us());
	if (lz == LRCU_LAZY_NOW)
		lrcu__lazy_covered(rdp, snap);
	if (rdp->cbl.len > READ_ONCE(lrcu__params.qhimark) && !rdp->blimit_lifted) {
		WRITE_LOCKED(&rdp->cblock, rdp->blimit_lifted, true);
		flood = true;
	}
	owner = rdp->cb_owner;
	pthread_mutex_unlock(&rdp->cblock);
	if (lz == LRCU_LAZY_NOW)
		lrcu__gp_request(rsp, snap);
	if (owner == LRCU_CBO_NOCB)
		lrcu__nocb_queued(rsp, rdp, lz);
	else if (lz == LRCU_LAZY_ARMED && lrcu__lazy_keeper_wake(&rsp->lazy))
		lrcu__cb_wake(rsp);	/* it keeps the timer: see lazy.c */
	if (flood)
		lrcu_force_qs(f);	/* a flood: push the grace period along */
}

void lrcu_call(enum lrcu_flavor f, struct rcu_head *head, rcu_callback_t func)
{
	call_common(f, head, func, READ_ONCE(lrcu__params.enable_lazy));	/* run-time parameter */
}

void lrcu_call_hurry(enum lrcu_flavor f, struct rcu_head *head, rcu_callback_t func)
{
	call_common(f, head, func, false);
}

void lrcu_kfree_call(struct rcu_head *head, size_t offset)
{
	if (offset >= 4096)
		lrcu__fatal("kfree_rcu(): rcu_head at offset %zu, must be below 4096", offset);
	call_common(LRCU_PREEMPT, head, (rcu_callback_t)(uintptr_t)offset, true);
}

void lrcu__cb_wake(struct lrcu_state *rsp)
{
	lrcu__wake(&rsp->cb_wake);
}

/*
 * End of a grace period (a GP hook): wake the callback thread if any slot
 * it serves holds callbacks.  The bits and ->len are read without the
 * lock.  A callback's bit is set before the fence in its caller's
 * rcu_seq_snap(); if we miss it, that sample came after this grace period
 * started, so the callback waits for a later one, whose end looks again.
 * Offloaded slots are their rcuog threads' business.
 */
static void cb_gp_end(struct lrcu_state *rsp, unsigned long gend, unsigned long now)
{
	struct lrcu_data *rdp;
	unsigned long m;
	size_t wi, below;

	(void)gend;
	(void)now;
	for_each_cb_slot(rsp, rdp, wi, m, below) {
		/* Both WRITE_ONCE() under cblock. */
		if (READ_ONCE(rdp->cbl.len) && READ_ONCE(rdp->cb_owner) == LRCU_CBO_THREAD) {
			lrcu__cb_wake(rsp);
			return;
		}
	}
}

static const struct lrcu_gp_hooks cb_hooks = { .gp_end = cb_gp_end };

void lrcu__cb_init(struct lrcu_state *rsp)
{
	lrcu__gp_hook_add(rsp, &cb_hooks);
}

/* ------------------------------------------------------------------ */
/* Invocation */

static void invoke_one(struct rcu_head *h)
{
	rcu_callback_t fn = h->func;

	if (READ_ONCE(lrcu__params.debug_objects))
		lrcu__debug_head_unqueue(h);
	if ((uintptr_t)fn < 4096)
		free((char *)h - (uintptr_t)fn);	/* kfree_rcu() */
	else
		fn(h);
}

/* Statistics: relaxed; the max is approximate with several invokers. */
static void stat_max(unsigned long *p, unsigned long v)
{
	if (v > READ_ONCE(*p))
		WRITE_ONCE(*p, v);
}

/*
 * Account for callbacks that have run: they stop counting in ->len (which
 * rcu_barrier() uses to decide whether a slot has anything in flight).
 * At the end of a batch (`last'), the slot is free for the next one;
 * returns true if that is ours to run (ready callbacks, still our slot).
 * If the slot changed hands meanwhile (offloading toggled), the new owner
 * may have skipped it while our batch was out: wake it.
 */
static bool cbs_account(struct lrcu_state *rsp, struct lrcu_data *rdp, long ran,
			long invoked, int invoker, bool last)
{
	bool more, handoff;
	int owner;

	pthread_mutex_lock(&rdp->cblock);
	cblist_set_len_locked(rdp, rdp->cbl.len - ran);
	WRITE_LOCKED(&rdp->cblock, rdp->n_cbs_invoked, rdp->n_cbs_invoked + (unsigned long)invoked);
	if (rdp->blimit_lifted && rdp->cbl.len < READ_ONCE(lrcu__params.qlowmark))
		WRITE_LOCKED(&rdp->cblock, rdp->blimit_lifted, false);
	if (last)
		WRITE_LOCKED(&rdp->cblock, rdp->cb_busy, false);
	owner = rdp->cb_owner;
	more = owner == invoker && lrcu__cblist_ready(&rdp->cbl);
	handoff = last && owner != invoker && rdp->cbl.len;
	pthread_mutex_unlock(&rdp->cblock);
	if (handoff && owner == LRCU_CBO_NOCB)
		lrcu__nocb_wake_invoker(rsp, rdp);
	else if (handoff)
		lrcu__cb_wake(rsp);
	return more;
}

/*
 * One batch from one slot (the flavor's callback thread for the slots it
 * serves, an rcuo thread for its offloaded slot): at most rcutree.blimit
 * callbacks, unless the slot is flooded.  Only the slot's owner invokes,
 * one batch at a time (->cb_busy), so each slot's callbacks run in order
 * even while offloading is switched.  Returns true if it still has ready
 * callbacks for us.
 */
bool lrcu__cb_invoke(struct lrcu_state *rsp, struct lrcu_data *rdp, unsigned long cur,
		    int invoker)
{
	struct lrcu_cbs cbs;
	struct rcu_head *h, *next;
	long limit, pending = 0;
	bool more;

	pthread_mutex_lock(&rdp->cblock);
	if (rdp->cb_owner != invoker || rdp->cb_busy) {
		pthread_mutex_unlock(&rdp->cblock);
		return false;
	}
	lrcu__cblist_advance(&rdp->cbl, cur);
	limit = rdp->blimit_lifted ? LONG_MAX : READ_ONCE(lrcu__params.blimit);
	lrcu__cblist_extract_done(&rdp->cbl, limit, &cbs);
	WRITE_LOCKED(&rdp->cblock, rdp->cb_busy, cbs.len != 0);
	pthread_mutex_unlock(&rdp->cblock);
	if (!cbs.len)
		return false;
	/* Before invoking: a barrier callback in this batch may let
	 * rcu_barrier() return, and its caller read these statistics. */
	atomic_inc(&rsp->n_cb_batches);	/* statistic */
	stat_max(&rsp->cb_max_batch, (unsigned long)cbs.len);

	lrcu_reader.flags |= LRCU_R_IN_CALLBACK;
	for (h = cbs.head; h; h = next) {
		next = h->next;
		if (h == &rdp->barrier_head) {
			/*
			 * Settle the accounts before rcu_barrier() can return,
			 * so its caller sees exact statistics; the barrier
			 * callback itself is not a user callback.
			 */
			cbs_account(rsp, rdp, pending + 1, pending, invoker, false);
			pending = 0;
			invoke_one(h);
			continue;
		}
		invoke_one(h);
		pending++;
	}
	lrcu_reader.flags &= ~LRCU_R_IN_CALLBACK;
	more = cbs_account(rsp, rdp, pending, pending, invoker, true);
	/* A callback may have used rcu_read_lock_sched(): announce a QS. */
	if (lrcu_reader.flags & LRCU_R_SCHED_JOINED)
		rcu_quiescent_state();
	return more;
}

/* Run the ready callbacks of the slots we serve, and look at their lazy
 * callbacks' timers (lazy.c). */
static bool invoke_pass(struct lrcu_state *rsp, struct lrcu_lazy_pass *lp)
{
	unsigned long cur = rcu_seq_current(rsp->gp_seq);
	struct lrcu_data *rdp;
	bool more = false;
	unsigned long m;
	size_t wi, below;

	/* Bits set under the slots' cblocks before the wakeup that sent us
	 * here (lrcu__wake() orders them). */
	for_each_cb_slot(rsp, rdp, wi, m, below) {
		/* Peeks (WRITE_ONCE() under cblock), rechecked under it. */
		if (!READ_ONCE(rdp->cbl.len) || READ_ONCE(rdp->cb_owner) != LRCU_CBO_THREAD)
			continue;
		if (READ_ONCE(rdp->lazy_since_us))	/* WRITE_ONCE() under cblock */
			lrcu__lazy_pass_slot(rsp, lp, rdp, LRCU_CBO_THREAD);
		more |= lrcu__cb_invoke(rsp, rdp, cur, LRCU_CBO_THREAD);
	}
	return more;
}

bool lrcu__cb_sleep(uint32_t *wake, uint32_t w, long timeout_us)
{
	bool was, stop;

	lrcu__sched_block_begin(&was);
	stop = lrcu__kthread_idle(wake, w, timeout_us);
	lrcu__sched_block_end(was);
	return stop;
}

static void *cb_kthread(void *arg)
{
	struct lrcu_state *rsp = arg;
	struct lrcu_lazy_pass lp;
	long sleep_us;
	bool more;
	uint32_t w;

	if (lrcu__register_internal(rsp->cb_thread_name))
		lrcu__fatal("%s: cannot register", rsp->cb_thread_name);
	while (!lrcu__kthread_check()) {
		/* Sample before looking for work: see lrcu__wake(). */
		w = smp_load_acquire(&rsp->cb_wake);
		lrcu__lazy_pass_begin(&rsp->lazy, &lp);
		more = invoke_pass(rsp, &lp);
		/* Lazy callbacks due: their grace period driven here if it
		 * can be, and then they run at once. */
		if (lrcu__lazy_pass_end(rsp, &lp, &sleep_us) || more)
			continue;
		lrcu__gp_watch(rsp);	/* a poller may have woken us for it */
		if (lrcu__cb_sleep(&rsp->cb_wake, w, sleep_us))
			break;
	}
	lrcu_unregister_thread();	/* rcu_shutdown(): nothing left to move */
	return NULL;
}

int lrcu__cb_thread_start(struct lrcu_state *rsp)
{
	return lrcu__spawn(cb_kthread, rsp, rsp->cb_thread_name);
}

/* ------------------------------------------------------------------ */
/* Migration: an unregistering slot hands its callbacks to the unbound rdp. */

void lrcu__migrate_callbacks(struct lrcu_state *rsp, struct lrcu_data *rdp)
{
	struct lrcu_data *dst = &rsp->rda[lrcu__nr_slots];
	struct lrcu_cbs done, pend;
	unsigned long snap;

	/* barrier_lock: rcu_barrier() must not see these callbacks in
	 * neither list (lock order: barrier_lock, then one cblock). */
	pthread_mutex_lock(&rsp->barrier_lock);
	pthread_mutex_lock(&rdp->cblock);
	/*
	 * A batch still out (an rcuo thread's from before a de-offload)
	 * runs ahead of what we move: wait for it, or the callback thread
	 * could run our later callbacks beside it, out of order.  A toggle
	 * may come meanwhile, hence the owner is looked at after the wait.
	 */
	while (rdp->cb_busy) {
		pthread_mutex_unlock(&rdp->cblock);
		lrcu__sleep_us(50);
		pthread_mutex_lock(&rdp->cblock);
	}
	if (rdp->cb_owner == LRCU_CBO_NOCB) {
		/* Offloaded: its rcuo threads outlive the thread, as the
		 * kernel's outlive an offline CPU, and keep the order. */
		pthread_mutex_unlock(&rdp->cblock);
		pthread_mutex_unlock(&rsp->barrier_lock);
		return;
	}
	lrcu__cblist_extract_all(&rdp->cbl, &done, &pend);
	if (!rdp->cbl.len)	/* none out: the wait above */
		cb_slot_idle(rsp, rdp);
	WRITE_LOCKED(&rdp->cblock, rdp->blimit_lifted, false);
	snap = rcu_seq_snap(rsp->gp_seq);
	lrcu__lazy_covered(rdp, snap);	/* requested below, for dst */
	pthread_mutex_unlock(&rdp->cblock);
	if (!done.len && !pend.len) {
		pthread_mutex_unlock(&rsp->barrier_lock);
		return;
	}
	pthread_mutex_lock(&dst->cblock);
	lrcu__cblist_insert(&dst->cbl, LRCU_DONE, &done);
	lrcu__cblist_insert(&dst->cbl, LRCU_NEXT, &pend);
	lrcu__cb_slot_busy(rsp, dst);	/* before the fence: see cb_gp_end() */
	snap = rcu_seq_snap(rsp->gp_seq);
	lrcu__lazy_covered(dst, snap);
	lrcu__cblist_advance_accelerate(&dst->cbl, rcu_seq_current(rsp->gp_seq), snap);
	WRITE_LOCKED(&dst->cblock, dst->n_cbs_orphaned,
		     dst->n_cbs_orphaned + (unsigned long)(done.len + pend.len));
	pthread_mutex_unlock(&dst->cblock);
	pthread_mutex_unlock(&rsp->barrier_lock);
	lrcu__gp_request(rsp, snap);
	if (done.len)
		lrcu__cb_wake(rsp);
}
