/* SPDX-License-Identifier: MIT */
/*
 * kthread.c - the library's threads: starting them, their idle sleep, and
 * parking, restarting and stopping them for lifecycle.c (fork() and
 * rcu_shutdown()).  It uses only time.c and lrcu__fatal(): every
 * mechanism may start threads here without a way back up.
 *
 * Every thread the library runs (each flavor's grace-period and callback
 * threads, srcu_worker, the rcuo threads, and whatever a new mechanism
 * starts) is started with lrcu__spawn(), which records it.  Such a thread
 * starts with every signal blocked, calls lrcu__kthread_check() at the top
 * of its loop and sleeps only in lrcu__kthread_idle(), both at points
 * where it holds no lock.  There it parks while a fork() is being
 * prepared, and it returns from its function when those calls say so
 * (rcu_shutdown()).  With that, a new mechanism's threads are restarted in
 * a fork child and stopped by rcu_shutdown() without code of their own.
 * A grace-period driver that is not a library thread (an expedited
 * caller) parks through lrcu__fork_park() under the same lock.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct kthread {
	void *(*fn)(void *);		/* the thread's function (const) */
	void *arg;			/* its argument (const) */
	const char *name;		/* its name, at most 15 characters (const) */
	pthread_t tid;			/* the running instance */
	int ktid;			/* its kernel thread id, 0 until it
					 * runs (atomic: RCU Tasks reads it) */
	uint32_t *wake;			/* the word it idles on (atomic) */
	bool parked;			/* parked for a fork (kt.lock) */
	struct kthread *next;		/* (kt.lock) */
};

static struct {
	pthread_mutex_t lock;		/* the list and the parked flags */
	pthread_cond_t cond;		/* someone parked, or the request changed */
	struct kthread *list;		/* every running library thread */
	int request;			/* LRCU_KT_*: what they must do (atomic) */
} kt = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

static __thread struct kthread *kt_self;	/* this thread's entry, if any */

int lrcu__kthread_prio;

/*
 * rcutree.kthread_prio (boost.c settles it at start): the kernel's RCU
 * kthreads run SCHED_FIFO at that priority; SRCU's work runs in
 * workqueues, which do not, so srcu_worker stays ordinary.  A thread
 * that may not (boost.c checked the permission first) runs on as it is.
 */
static void kthread_set_prio(const struct kthread *k)
{
	struct sched_param sp = { .sched_priority = lrcu__kthread_prio };

	if (lrcu__kthread_prio && strncmp(k->name, "srcu", 4))
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}

static void *kthread_main(void *p)
{
	kt_self = p;
	WRITE_ONCE(kt_self->ktid, lrcu__tid());	/* read by lrcu__kthread_tid() */
	kthread_set_prio(kt_self);
	/* Born while a fork() is being prepared: park before doing anything. */
	if (lrcu__kthread_check())
		return NULL;
	return kt_self->fn(kt_self->arg);
}

/* Start k's thread, joinable, with every signal blocked (user handlers
 * never run on it), and named from here: whoever looks at the threads
 * (ps, /proc, a stall warning) once this returns sees its name, not the
 * program's until the thread gets to name itself. */
static int kthread_start(struct kthread *k)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&k->tid, NULL, kthread_main, k);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!rc)
		pthread_setname_np(k->tid, k->name);
	return rc;
}

int lrcu__spawn(void *(*fn)(void *), void *arg, const char *name)
{
	struct kthread *k = calloc(1, sizeof(*k));
	int rc;

	if (!k)
		return ENOMEM;
	k->fn = fn;
	k->arg = arg;
	k->name = name;
	pthread_mutex_lock(&kt.lock);
	rc = kthread_start(k);
	if (!rc) {
		k->next = kt.list;
		kt.list = k;
	}
	pthread_mutex_unlock(&kt.lock);
	if (rc)
		free(k);
	return rc;
}

/* Park until the fork is done; *parked (and, for a library thread, its
 * own flag: a GP kthread may park as a driver) tells the forking thread. */
void lrcu__fork_park(bool *parked)
{
	bool *self = kt_self ? &kt_self->parked : parked;

	pthread_mutex_lock(&kt.lock);
	/* Relaxed: kt.lock orders it (it is written under the lock). */
	while (READ_ONCE(kt.request) == LRCU_KT_PARK) {
		*parked = *self = true;
		pthread_cond_broadcast(&kt.cond);
		pthread_cond_wait(&kt.cond, &kt.lock);
	}
	*parked = *self = false;
	pthread_mutex_unlock(&kt.lock);
}

bool lrcu__fork_pending(void)
{
	/* Seq_cst: pairs with K, the preparer's store and its loads of the
	 * idle words and GP wake words (see lrcu__kthread_idle()). */
	return smp_load_mb(&kt.request) == LRCU_KT_PARK;
}

bool lrcu__kthread_requested(void)
{
	return smp_load_mb(&kt.request) != LRCU_KT_RUN;	/* as above */
}

bool lrcu__kthread_check(void)
{
	int req = smp_load_mb(&kt.request);	/* as above */

	if (likely(req == LRCU_KT_RUN))
		return false;
	if (req == LRCU_KT_PARK)
		lrcu__fork_park(&kt_self->parked);
	return smp_load_mb(&kt.request) == LRCU_KT_STOP;	/* as above */
}

bool lrcu__kthread_idle(uint32_t *word, uint32_t val, long timeout_us)
{
	/*
	 * K: store-buffering pair with kthreads_kick(): we publish the word,
	 * then look at the request; the requester stores the request, then
	 * reads the word and bumps it.  Either we see the request, or it
	 * bumps our word after we sampled val, and the wait returns at once.
	 */
	smp_store_mb(kt_self->wake, word);	/* K */
	if (lrcu__kthread_requested())
		return lrcu__kthread_check();
	lrcu__futex_wait(word, val, timeout_us);
	return false;
}

/* Set the request and make every library thread look (kt.lock held). */
static void kthreads_kick(enum lrcu_kt_request req)
{
	struct kthread *k;
	uint32_t *w;

	smp_store_mb(kt.request, req);	/* pairs with K (lrcu__kthread_idle()) */
	for (k = kt.list; k; k = k->next)
		if ((w = smp_load_mb(&k->wake)))	/* ditto */
			lrcu__wake(w);
	pthread_cond_broadcast(&kt.cond);
}

void lrcu__fork_notify(void)
{
	pthread_mutex_lock(&kt.lock);
	pthread_cond_broadcast(&kt.cond);
	pthread_mutex_unlock(&kt.lock);
}

/* ------------------------------------------------------------------ */
/* For lifecycle.c: fork() and rcu_shutdown() */

bool lrcu__in_kthread(void)
{
	return kt_self != NULL;
}

bool lrcu__kthread_tid(int tid)
{
	struct kthread *k;
	bool found = false;

	pthread_mutex_lock(&kt.lock);
	for (k = kt.list; k && !found; k = k->next)
		found = READ_ONCE(k->ktid) == tid;	/* see kthread_main() */
	pthread_mutex_unlock(&kt.lock);
	return found;
}

void lrcu__kthreads_request(enum lrcu_kt_request req)
{
	pthread_mutex_lock(&kt.lock);
	kthreads_kick(req);
	pthread_mutex_unlock(&kt.lock);
}

static bool kthreads_parked(void)
{
	struct kthread *k;

	for (k = kt.list; k; k = k->next)
		if (!k->parked)
			return false;
	return true;
}

void lrcu__kthreads_wait_parked(bool (*held)(void))
{
	pthread_mutex_lock(&kt.lock);
	while (!kthreads_parked() || !held())
		pthread_cond_wait(&kt.cond, &kt.lock);
	pthread_mutex_unlock(&kt.lock);
}

void lrcu__kthreads_fork(enum lrcu_fork_phase ph)
{
	lrcu__fork_mutex(&kt.lock, ph);
}

void lrcu__kthreads_fork_child(void)
{
	pthread_cond_init(&kt.cond, NULL);	/* its waiters are gone */
	smp_store_mb(kt.request, LRCU_KT_RUN);	/* nobody parked here */
}

void lrcu__kthreads_restart(void)
{
	struct kthread *k;

	for (k = kt.list; k; k = k->next) {
		k->parked = false;
		WRITE_ONCE(k->wake, NULL);	/* no thread yet */
		WRITE_ONCE(k->ktid, 0);		/* see kthread_main() */
		if (kthread_start(k))
			lrcu__fatal("fork() child: cannot restart a library thread");
	}
}

void lrcu__kthreads_join(void)
{
	struct kthread *k, *list;

	pthread_mutex_lock(&kt.lock);
	list = kt.list;
	kt.list = NULL;
	pthread_mutex_unlock(&kt.lock);
	while ((k = list)) {
		list = k->next;
		pthread_join(k->tid, NULL);
		free(k);
	}
	smp_store_mb(kt.request, LRCU_KT_RUN);	/* as in kthreads_kick() */
}

/* ------------------------------------------------------------------ */
/* Fork steps of a mechanism's locks */

void lrcu__fork_mutex(pthread_mutex_t *m, enum lrcu_fork_phase ph)
{
	if (ph == LRCU_FORK_PREPARE)
		pthread_mutex_lock(m);
	else if (ph == LRCU_FORK_PARENT || !READ_ONCE(lrcu__pi_locks))	/* set at init */
		pthread_mutex_unlock(m);	/* ours, in the child too */
	else
		lrcu__mutex_init(m);	/* a PI mutex knows its holder by the
					 * parent's thread id: only fresh */
}

void lrcu__fork_reclaim(pthread_mutex_t *m)
{
	/* Held by a thread that does not exist here (or free). */
	if (pthread_mutex_trylock(m))
		lrcu__mutex_init(m);
	else
		pthread_mutex_unlock(m);
}
