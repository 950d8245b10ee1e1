/* SPDX-License-Identifier: MIT */
/*
 * lifecycle.c - the library's threads, fork() and rcu_shutdown().
 *
 * Library threads
 *
 * Every thread the library runs (each flavor's grace-period and callback
 * threads, srcu_worker, and whatever a new mechanism starts) is started
 * with lrcu__spawn(), which records it.  Such a thread starts with every
 * signal blocked, calls lrcu__kthread_check() at the top of its loop and
 * sleeps only in lrcu__kthread_idle(), both at points where it holds no
 * lock.  There it parks while a fork() is being prepared, and it returns
 * from its function when those calls say so (rcu_shutdown()).  With that,
 * a new mechanism's threads are restarted in a fork child and stopped by
 * rcu_shutdown() without code of their own.  A mechanism whose locks user
 * threads take adds them to the fork steps below.
 *
 * fork() (pthread_atfork(), as liburcu does)
 *
 * Prepare, in the forking thread: (1) park every library thread and every
 * grace-period driver (the GP kthread or an expedited caller parks inside
 * its wait for quiescent states, holding ->gp_mutex, with the tree
 * consistent); a flavor whose driver is not parked has its ->gp_mutex
 * taken instead.  Nothing waits for a grace period or an rcu_barrier() to
 * end, so a fork() is not held up by a long reader, and may even come
 * from inside a read-side section.  (2) Take every lock user threads may
 * hold, in the library's lock order, so that nothing is half-updated at
 * the fork.  Parent: unlock, unpark.  Child, where only the forking thread
 * exists: unlock, re-initialise what dead threads may hold (->gp_mutex of
 * a parked driver, ->barrier_mutex of an rcu_barrier() caller, condition
 * variables with waiters), give up every other thread's slot as if it had
 * unregistered (its callbacks move, its quiescent state is reported), end
 * dead threads' SRCU sections, then restart the library threads.  The
 * next grace-period driver finishes a grace period left in flight
 * (lrcu__gp_run()), the callback threads run the pending callbacks, and an
 * rcu_barrier() pass left by a dead caller is completed by the next one
 * (barrier.c).
 *
 * Shutdown
 *
 * rcu_shutdown() (lrcu_shutdown()) runs the pending callbacks of every
 * flavor and SRCU domain, stops and joins the library threads and frees
 * everything the library allocated; the library starts afresh on its next
 * use (RCU_BOOTARGS is read again).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "internal.h"

enum { KT_RUN, KT_PARK, KT_STOP };

struct kthread {
	void *(*fn)(void *);		/* the thread's function (const) */
	void *arg;			/* its argument (const) */
	pthread_t tid;			/* the running instance */
	uint32_t *wake;			/* the word it idles on (atomic) */
	bool parked;			/* parked for a fork (kt.lock) */
	struct kthread *next;		/* (kt.lock) */
};

static struct {
	pthread_mutex_t lock;		/* the list and the parked flags */
	pthread_cond_t cond;		/* someone parked, or the request changed */
	struct kthread *list;		/* every running library thread */
	int request;			/* KT_*: what the threads must do (atomic) */
} kt = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

static __thread struct kthread *kt_self;	/* this thread's entry, if any */

/* ------------------------------------------------------------------ */
/* Starting the library */

/* init_lock serialises start, shutdown and fork; started says the library
 * is up (release after everything is set up: pairs with the acquire in
 * lrcu__init_once()). */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int started;
static bool start_failed;	/* the reason was printed; no retry (init_lock) */

int lrcu_init(void)
{
	int rc = 0;

	if (__atomic_load_n(&started, __ATOMIC_ACQUIRE))	/* see above */
		return 0;
	pthread_mutex_lock(&init_lock);
	if (start_failed) {
		rc = -1;
	} else if (!__atomic_load_n(&started, __ATOMIC_RELAXED)) {	/* under the lock */
		rc = lrcu__start();
		if (rc)
			start_failed = true;
		else
			__atomic_store_n(&started, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&init_lock);
	return rc;
}

void lrcu__init_once(void)
{
	if (likely(__atomic_load_n(&started, __ATOMIC_ACQUIRE)))	/* see above */
		return;
	if (lrcu_init())
		exit(2);	/* the reason was printed */
}

/* ------------------------------------------------------------------ */
/* Library threads */

static void *kthread_main(void *p)
{
	kt_self = p;
	/* Born while a fork() is being prepared: park before doing anything. */
	if (lrcu__kthread_check())
		return NULL;
	return kt_self->fn(kt_self->arg);
}

/* Start k's thread, joinable, with every signal blocked (user handlers
 * never run on it). */
static int kthread_start(struct kthread *k)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&k->tid, NULL, kthread_main, k);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int lrcu__spawn(void *(*fn)(void *), void *arg)
{
	struct kthread *k = calloc(1, sizeof(*k));
	int rc;

	if (!k)
		return ENOMEM;
	k->fn = fn;
	k->arg = arg;
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
	while (__atomic_load_n(&kt.request, __ATOMIC_RELAXED) == KT_PARK) {
		*parked = *self = true;
		pthread_cond_broadcast(&kt.cond);
		pthread_cond_wait(&kt.cond, &kt.lock);
	}
	*parked = *self = false;
	pthread_mutex_unlock(&kt.lock);
}

bool lrcu__fork_pending(void)
{
	/* Seq_cst: pairs with the preparer's store and its loads of the idle
	 * words and GP wake words (a store-buffering pair, see idle()). */
	return __atomic_load_n(&kt.request, __ATOMIC_SEQ_CST) == KT_PARK;
}

bool lrcu__kthread_requested(void)
{
	return __atomic_load_n(&kt.request, __ATOMIC_SEQ_CST) != KT_RUN;	/* as above */
}

bool lrcu__kthread_check(void)
{
	int req = __atomic_load_n(&kt.request, __ATOMIC_SEQ_CST);	/* as above */

	if (likely(req == KT_RUN))
		return false;
	if (req == KT_PARK)
		lrcu__fork_park(&kt_self->parked);
	return __atomic_load_n(&kt.request, __ATOMIC_SEQ_CST) == KT_STOP;	/* as above */
}

bool lrcu__kthread_idle(uint32_t *word, uint32_t val, long timeout_us)
{
	/*
	 * Store-buffering pair with kthreads_kick(): we publish the word,
	 * then look at the request; the requester stores the request, then
	 * reads the word and bumps it.  Either we see the request, or it
	 * bumps our word after we sampled val, and the wait returns at once.
	 */
	__atomic_store_n(&kt_self->wake, word, __ATOMIC_SEQ_CST);
	if (lrcu__kthread_requested())
		return lrcu__kthread_check();
	lrcu__futex_wait(word, val, timeout_us);
	return false;
}

/* Set the request and make every library thread look (kt.lock held; the
 * caller then wakes the GP drivers with lrcu__tree_kick(), without it). */
static void kthreads_kick(int req)
{
	struct kthread *k;
	uint32_t *w;

	__atomic_store_n(&kt.request, req, __ATOMIC_SEQ_CST);	/* see idle() */
	for (k = kt.list; k; k = k->next)
		if ((w = __atomic_load_n(&k->wake, __ATOMIC_SEQ_CST)))	/* see idle() */
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
/* fork() */

/* The forking thread took ->gp_mutex of these flavors (their drivers were
 * not parked mid-grace-period). */
static bool fork_own_gp[LRCU_NR_FLAVORS];
static bool fork_tree;		/* the tree was started when we forked */

/* Every library thread parked, and every flavor's grace periods held. */
static bool fork_quiet(void)
{
	struct kthread *k;

	for (k = kt.list; k; k = k->next)
		if (!k->parked)
			return false;
	return !fork_tree || lrcu__tree_fork_hold(fork_own_gp);
}

void lrcu__fork_mutex(pthread_mutex_t *m, enum lrcu_fork_phase ph)
{
	if (ph == LRCU_FORK_PREPARE)
		pthread_mutex_lock(m);
	else
		pthread_mutex_unlock(m);	/* ours, in the child too */
}

void lrcu__fork_reclaim(pthread_mutex_t *m)
{
	/* Held by a thread that does not exist here (or free). */
	if (pthread_mutex_trylock(m))
		pthread_mutex_init(m, NULL);
	else
		pthread_mutex_unlock(m);
}

/*
 * The tree's locks, in the library's lock order: report_lock (stall
 * warnings), slots_lock, then for every flavor barrier_lock, the rcu_node
 * locks (leaves first, as reports climb), the callback locks, gp_wq_lock
 * and barrier_done_lock.  In the child, the condition variables lose
 * their waiters and barrier_mutex its dead holder (barrier.c).
 */
static void tree_fork(enum lrcu_fork_phase ph)
{
	struct lrcu_state *rsp;
	int i;

	lrcu__stall_fork(ph);
	lrcu__fork_mutex(&lrcu__slots_lock, ph);
	for (rsp = lrcu__states; rsp < lrcu__states + LRCU_NR_FLAVORS; rsp++)
		lrcu__fork_mutex(&rsp->barrier_lock, ph);
	for (rsp = lrcu__states; rsp < lrcu__states + LRCU_NR_FLAVORS; rsp++)
		for (i = rsp->nr_nodes - 1; i >= 0; i--)
			lrcu__fork_mutex(&rsp->node[i].lock, ph);
	for (rsp = lrcu__states; rsp < lrcu__states + LRCU_NR_FLAVORS; rsp++)
		for (i = 0; i <= lrcu__nr_slots; i++)
			lrcu__fork_mutex(&rsp->rda[i].cblock, ph);
	for (rsp = lrcu__states; rsp < lrcu__states + LRCU_NR_FLAVORS; rsp++) {
		lrcu__fork_mutex(&rsp->gp_wq_lock, ph);
		lrcu__fork_mutex(&rsp->barrier_done_lock, ph);
		if (ph != LRCU_FORK_CHILD)
			continue;
		pthread_cond_init(&rsp->gp_wq, NULL);
		pthread_cond_init(&rsp->barrier_done, NULL);
		lrcu__fork_reclaim(&rsp->barrier_mutex);
	}
}

static void fork_locks(enum lrcu_fork_phase ph)
{
	lrcu__nocb_fork(ph);
	if (fork_tree)
		tree_fork(ph);
	lrcu__debug_fork(ph);
	lrcu__srcu_fork(ph);
	lrcu__fork_mutex(&kt.lock, ph);	/* last: lrcu__spawn() may be called
					 * with an SRCU domain's lock held */
}

static void fork_prepare(void)
{
	if (kt_self)
		lrcu__fatal("fork() from a library thread (an RCU or SRCU callback): "
			   "it cannot be restarted in the child");
	pthread_mutex_lock(&init_lock);
	fork_tree = __atomic_load_n(&started, __ATOMIC_RELAXED);	/* init_lock */
	pthread_mutex_lock(&kt.lock);
	kthreads_kick(KT_PARK);
	pthread_mutex_unlock(&kt.lock);
	lrcu__tree_kick();
	pthread_mutex_lock(&kt.lock);
	while (!fork_quiet())
		pthread_cond_wait(&kt.cond, &kt.lock);
	pthread_mutex_unlock(&kt.lock);
	fork_locks(LRCU_FORK_PREPARE);
}

static void fork_parent(void)
{
	fork_locks(LRCU_FORK_PARENT);
	if (fork_tree)
		lrcu__tree_fork_release(fork_own_gp, false);
	pthread_mutex_lock(&kt.lock);
	kthreads_kick(KT_RUN);		/* unpark */
	pthread_mutex_unlock(&kt.lock);
	pthread_mutex_unlock(&init_lock);
}

static void fork_child(void)
{
	struct kthread *k;

	fork_locks(LRCU_FORK_CHILD);
	pthread_cond_init(&kt.cond, NULL);	/* its waiters are gone */
	__atomic_store_n(&kt.request, KT_RUN, __ATOMIC_SEQ_CST);	/* nobody parked here */
	if (fork_tree) {
		lrcu__tree_fork_release(fork_own_gp, true);
		lrcu__membarrier_fork_child();
		lrcu__registry_fork_child();
	}
	/* Restart the library threads, then hand the SRCU work of the
	 * threads that are gone to srcu_worker (which may start it). */
	for (k = kt.list; k; k = k->next) {
		k->parked = false;
		__atomic_store_n(&k->wake, NULL, __ATOMIC_RELAXED);	/* no thread yet */
		if (kthread_start(k))
			lrcu__fatal("fork() child: cannot restart a library thread");
	}
	lrcu__srcu_fork_child();
	pthread_mutex_unlock(&init_lock);
}

__attribute__((constructor))
static void lifecycle_register_fork(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* ------------------------------------------------------------------ */
/* Shutdown */

/* Stop and join every library thread. */
static void kthreads_stop(void)
{
	struct kthread *k, *list;

	pthread_mutex_lock(&kt.lock);
	kthreads_kick(KT_STOP);
	list = kt.list;
	kt.list = NULL;
	pthread_mutex_unlock(&kt.lock);
	lrcu__tree_kick();
	while ((k = list)) {
		list = k->next;
		pthread_join(k->tid, NULL);
		free(k);
	}
	__atomic_store_n(&kt.request, KT_RUN, __ATOMIC_SEQ_CST);	/* see idle() */
}

/* Run every pending callback, until a round finds none queued by the
 * last (callbacks may queue callbacks, of any flavor or domain). */
static void shutdown_callbacks(void)
{
	unsigned long before, after = 0;
	struct lrcu_stats st;
	int f;

	do {
		before = after;
		after = lrcu__srcu_shutdown_barrier();
		for (f = 0; f < LRCU_NR_FLAVORS && started; f++) {	/* init_lock */
			lrcu_barrier(f, "rcu_shutdown");
			lrcu_get_stats(f, &st);
			after += st.cbs_queued;
		}
	} while (after != before);
}

int lrcu_shutdown(void)
{
	int others;

	if (kt_self)
		lrcu__fatal("rcu_shutdown() from a library thread (an RCU or SRCU callback)");
	pthread_mutex_lock(&init_lock);
	if (__atomic_load_n(&started, __ATOMIC_RELAXED)) {	/* init_lock */
		lrcu__check_blocking(LRCU_PREEMPT, "rcu_shutdown");
		others = lrcu__registry_others();
		if (others) {
			pthread_mutex_unlock(&init_lock);
			fprintf(stderr, "rcu: rcu_shutdown(): %d other thread%s still registered "
				"(each must call rcu_unregister_thread() first)\n",
				others, others > 1 ? "s are" : " is");
			errno = EBUSY;
			return -1;
		}
	}
	shutdown_callbacks();
	if (__atomic_load_n(&started, __ATOMIC_RELAXED) && lrcu_thread_slot() >= 0)	/* init_lock */
		lrcu_unregister_thread();
	kthreads_stop();
	lrcu__srcu_shutdown_free();
	lrcu__debug_shutdown();
	if (__atomic_load_n(&started, __ATOMIC_RELAXED)) {	/* init_lock */
		lrcu__stop();
		__atomic_store_n(&started, 0, __ATOMIC_RELEASE);	/* see lrcu_init() */
	}
	pthread_mutex_unlock(&init_lock);
	return 0;
}
