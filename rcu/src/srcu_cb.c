/* SPDX-License-Identifier: MIT */
/*
 * srcu_cb.c - call_srcu(), srcu_barrier() and the srcu_worker thread.
 *
 * Each domain keeps its callbacks in one segmented list (segcblist.h)
 * under its lock: call_srcu() tags a callback with the end of the first
 * grace period that is full from now and asks for that grace period; each
 * grace period's end moves what it completed into DONE.  Nothing is
 * allocated per callback or per request, so memory stays bounded however
 * long readers hold grace periods up.
 *
 * One library thread, "srcu_worker", started on the first call that needs
 * it, serves every domain.  A domain is queued on it when it has work the
 * worker must do: a grace period nobody drives (call_srcu(),
 * start_poll_synchronize_srcu(), a synchronize_srcu() driver that left
 * with more requested) or callbacks ready to run.  The worker takes the
 * due domains, steps each one's grace-period state machine as far as its
 * readers allow (never waiting for them), runs up to SRCU_CB_BATCH ready
 * callbacks, and requeues the domain with a backoff delay if readers hold
 * it up, or drops it when nothing is left.  It then sleeps until the
 * earliest delay or a new request.  So a domain whose readers sleep delays
 * no other domain, and an idle domain is not looked at.
 *
 * srcu_barrier() entrains a callback of its own behind every callback on
 * the list (the one worker runs a domain's callbacks in order), so it
 * needs no grace period of its own, and waits for it to run.  Concurrent
 * callers share passes through ->barrier_seq, as rcu_barrier() does.
 */
#include <sched.h>
#include "srcu_internal.h"

#define SRCU_CB_BATCH	128		/* callbacks per domain per worker pass */
#define SRCU_WORK_BATCH	64		/* domains per worker pass */
#define SRCU_NO_WORK	ULONG_MAX	/* srcu_work(): nothing left to do */

__thread bool lrcu__srcu_in_callback;	/* running an SRCU callback */

static struct {
	pthread_mutex_t lock;		/* W: the queue and the fields marked W */
	pthread_cond_t idle;		/* a dying domain stopped being busy */
	struct list_head queue;		/* domains with work (sup->work) */
	uint32_t wake;			/* futex word: new work */
	bool started;			/* the thread exists */
} W = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.idle = PTHREAD_COND_INITIALIZER,
	.queue = LIST_HEAD_INIT(W.queue),
};

static void *srcu_worker(void *arg);

/* The domain has work for the worker (may be called with sup->lock held:
 * lock order sup->lock, then W). */
void lrcu__srcu_worker_queue(struct lrcu_srcu_sup *sup)
{
	pthread_mutex_lock(&W.lock);
	if (sup->dying) {
		pthread_mutex_unlock(&W.lock);
		return;
	}
	WRITE_LOCKED(&W.lock, sup->kick, true);
	WRITE_LOCKED(&W.lock, sup->next_us, 0);
	if (!sup->queued) {
		WRITE_LOCKED(&W.lock, sup->queued, true);
		list_add_tail(&sup->work, &W.queue);
	}
	/* Under W.lock, which fork() takes: a fork sees the flag and the
	 * started thread (kthread.c's list) both, or neither. */
	if (!W.started) {
		if (lrcu__spawn(srcu_worker, NULL, "srcu_worker"))
			lrcu__fatal("cannot start the srcu_worker thread");
		W.started = true;
	}
	pthread_mutex_unlock(&W.lock);
	lrcu__wake(&W.wake);
}

void lrcu__srcu_worker_fork(enum lrcu_fork_phase ph)
{
	lrcu__fork_mutex(&W.lock, ph);
	if (ph == LRCU_FORK_CHILD)
		pthread_cond_init(&W.idle, NULL);	/* its waiters are gone */
}

/* rcu_shutdown(): the worker was stopped; the domains are about to go. */
void lrcu__srcu_worker_stopped(void)
{
	pthread_mutex_lock(&W.lock);
	INIT_LIST_HEAD(&W.queue);
	W.started = false;
	pthread_mutex_unlock(&W.lock);
}

/* cleanup_srcu_struct(): the worker must let go of the domain for good. */
void lrcu__srcu_worker_forget(struct lrcu_srcu_sup *sup)
{
	pthread_mutex_lock(&W.lock);
	WRITE_LOCKED(&W.lock, sup->dying, true);
	while (sup->busy)
		pthread_cond_wait(&W.idle, &W.lock);
	if (sup->queued) {
		list_del_init(&sup->work);
		WRITE_LOCKED(&W.lock, sup->queued, false);
	}
	pthread_mutex_unlock(&W.lock);
}

/* ------------------------------------------------------------------ */
/* Callbacks */

/* A grace period ended (sup->lock held): move what it completed to DONE,
 * give unassigned callbacks a grace period, and call the worker. */
void lrcu__srcu_cbs_gp_ended(struct lrcu_srcu_sup *sup)
{
	unsigned long s;

	if (!lrcu__cblist_seg_empty(&sup->cbl, LRCU_NEXT)) {
		s = rcu_seq_snap(&sup->gp_seq);
		lrcu__cblist_advance_accelerate(&sup->cbl, sup->gp_seq, s);
		lrcu__srcu_request(sup, s, false);
	} else {
		lrcu__cblist_advance(&sup->cbl, sup->gp_seq);
	}
	if (lrcu__cblist_ready(&sup->cbl))
		lrcu__srcu_worker_queue(sup);
}

void lrcu_call_srcu(struct srcu_struct *ssp, struct rcu_head *head, rcu_callback_t func)
{
	struct lrcu_srcu_sup *sup = lrcu__srcu_sup_get(ssp);
	unsigned long s;

	/* Parameters may change at run time (WRITE_ONCE() in params.c). */
	if (READ_ONCE(lrcu__params.debug_objects) && !lrcu__debug_head_queue(head))
		return;		/* double call_srcu(): reported and dropped */
	head->func = func;
	pthread_mutex_lock(&sup->lock);
	lrcu__cblist_enqueue(&sup->cbl, head);
	/* Full fence inside: the caller's removals before the sample. */
	s = rcu_seq_snap(&sup->gp_seq);
	lrcu__cblist_advance_accelerate(&sup->cbl, sup->gp_seq, s);
	lrcu__srcu_request(sup, s, false);
	atomic_inc(&sup->n_cbs_queued);	/* statistic */
	pthread_mutex_unlock(&sup->lock);
	lrcu__srcu_worker_queue(sup);
}

static void srcu_invoke(struct lrcu_srcu_sup *sup, struct lrcu_cbs *cbs)
{
	struct rcu_head *h, *next;
	long user = 0;

	lrcu__srcu_in_callback = true;
	for (h = cbs->head; h; h = next) {
		next = h->next;
		if (h != &sup->barrier_head) {
			user++;
			if (READ_ONCE(lrcu__params.debug_objects))
				lrcu__debug_head_unqueue(h);
		}
		h->func(h);
	}
	lrcu__srcu_in_callback = false;
	pthread_mutex_lock(&sup->lock);
	/* ->len counted them until now (srcu_barrier() relies on that). */
	WRITE_ONCE(sup->cbl.len, sup->cbl.len - cbs->len);	/* read unlocked by cleanup */
	atomic_add((unsigned long)user, &sup->n_cbs_invoked);
	pthread_mutex_unlock(&sup->lock);
}

/*
 * One worker step on one domain.  Returns when to look again: 0 (at once:
 * more callbacks are ready, or readers may leave any moment), a delay in
 * microseconds (readers hold a grace period up), or SRCU_NO_WORK.
 */
static unsigned long srcu_work(struct lrcu_srcu_sup *sup)
{
	unsigned long delay = SRCU_NO_WORK;
	struct lrcu_cbs cbs;

	pthread_mutex_lock(&sup->lock);
	if (!sup->driver && lrcu__srcu_advance(sup))	/* else the driver does it */
		delay = lrcu__srcu_delay(LOCKED_PTR(&sup->lock, &sup->delay), sup->gp_seq, false);
	lrcu__cblist_extract_done(&sup->cbl, SRCU_CB_BATCH, &cbs);
	pthread_mutex_unlock(&sup->lock);
	if (cbs.len) {
		srcu_invoke(sup, &cbs);
		pthread_mutex_lock(&sup->lock);
		if (lrcu__cblist_ready(&sup->cbl))
			delay = 0;
		pthread_mutex_unlock(&sup->lock);
	}
	return delay;
}

/* Take up to SRCU_WORK_BATCH due domains off for a pass (W held); *next
 * becomes the earliest time a domain not taken is due. */
static int worker_take(struct lrcu_srcu_sup **batch, unsigned long now, unsigned long *next)
{
	struct lrcu_srcu_sup *sup;
	int n = 0;

	list_for_each_entry(sup, &W.queue, work) {
		if (sup->next_us <= now && n < SRCU_WORK_BATCH) {
			WRITE_LOCKED(&W.lock, sup->busy, true);
			WRITE_LOCKED(&W.lock, sup->kick, false);
			batch[n++] = sup;
		} else if (sup->next_us < *next) {
			*next = sup->next_us;
		}
	}
	return n;
}

/* After a pass (W held): requeue or drop each domain taken. */
static void worker_put(struct lrcu_srcu_sup **batch, const unsigned long *delay, int n,
		       unsigned long *next)
{
	unsigned long now = lrcu__now_us();
	int i;

	for (i = 0; i < n; i++) {
		struct lrcu_srcu_sup *sup = batch[i];

		WRITE_LOCKED(&W.lock, sup->busy, false);
		if (sup->dying) {
			pthread_cond_broadcast(&W.idle);	/* cleanup unlinks it */
			continue;
		}
		if (delay[i] == SRCU_NO_WORK && !sup->kick) {
			list_del_init(&sup->work);
			WRITE_LOCKED(&W.lock, sup->queued, false);
			continue;
		}
		WRITE_LOCKED(&W.lock, sup->next_us,
			     sup->kick || delay[i] == SRCU_NO_WORK ? 0 : now + delay[i]);
		if (sup->next_us < *next)
			*next = sup->next_us;
	}
}

static void *srcu_worker(void *arg)
{
	struct lrcu_srcu_sup *batch[SRCU_WORK_BATCH];
	unsigned long delay[SRCU_WORK_BATCH];
	(void)arg;

	while (!lrcu__kthread_check()) {
		/* Sample before looking for work: see lrcu__wake(). */
		uint32_t w = smp_load_acquire(&W.wake);
		unsigned long now = lrcu__now_us(), next = ULONG_MAX;
		int i, n;

		pthread_mutex_lock(&W.lock);
		n = worker_take(batch, now, &next);
		pthread_mutex_unlock(&W.lock);
		for (i = 0; i < n; i++)
			delay[i] = srcu_work(batch[i]);
		pthread_mutex_lock(&W.lock);
		worker_put(batch, delay, n, &next);
		pthread_mutex_unlock(&W.lock);
		now = lrcu__now_us();
		if (next <= now) {
			sched_yield();
			continue;
		}
		if (lrcu__kthread_idle(&W.wake, w, next == ULONG_MAX ? -1 : (long)(next - now)))
			break;
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* srcu_barrier() */

static void srcu_barrier_cb(struct rcu_head *h)
{
	struct lrcu_srcu_sup *sup = container_of(h, struct lrcu_srcu_sup, barrier_head);

	pthread_mutex_lock(&sup->lock);
	WRITE_LOCKED(&sup->lock, sup->barrier_done, true);
	pthread_cond_broadcast(&sup->barrier_wq);
	pthread_mutex_unlock(&sup->lock);
}

void lrcu_srcu_barrier(struct srcu_struct *ssp)
{
	struct lrcu_srcu_sup *sup;
	unsigned long s;
	bool was;

	sup = lrcu__srcu_update_begin(ssp, "srcu_barrier", &was);
	s = rcu_seq_snap(&sup->barrier_seq);
	pthread_mutex_lock(&sup->barrier_mutex);
	/*
	 * A pass starts and ends under sup->lock, which fork() takes, and
	 * ->barrier_done says whether its callback has run: a pass left by a
	 * caller that is gone (a fork() child) is waited for, then ended.
	 */
	pthread_mutex_lock(&sup->lock);
	if (unlikely(rcu_seq_state(sup->barrier_seq))) {
		while (!sup->barrier_done)
			pthread_cond_wait(&sup->barrier_wq, &sup->lock);
		rcu_seq_end(LOCKED_PTR(&sup->barrier_mutex, &sup->barrier_seq));
	}
	if (!rcu_seq_done(&sup->barrier_seq, s)) {	/* else a concurrent pass covered us */
		rcu_seq_start(LOCKED_PTR(&sup->barrier_mutex, &sup->barrier_seq));
		sup->barrier_head.func = srcu_barrier_cb;
		/* Behind every callback queued so far, those being run included. */
		WRITE_LOCKED(&sup->lock, sup->barrier_done,
			     !lrcu__cblist_entrain(&sup->cbl, &sup->barrier_head));
		if (!sup->barrier_done)
			lrcu__srcu_worker_queue(sup);
		while (!sup->barrier_done)
			pthread_cond_wait(&sup->barrier_wq, &sup->lock);
		atomic_inc(&sup->n_barriers);	/* statistic */
		rcu_seq_end(LOCKED_PTR(&sup->barrier_mutex, &sup->barrier_seq));
	}
	pthread_mutex_unlock(&sup->lock);
	pthread_mutex_unlock(&sup->barrier_mutex);
	lrcu__update_end(was);
}
