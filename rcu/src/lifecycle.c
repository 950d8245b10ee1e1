/* SPDX-License-Identifier: MIT */
/*
 * lifecycle.c - starting the library, fork() and rcu_shutdown(): the steps
 * that go through every mechanism.  The library's threads themselves are
 * kthread.c's (started, parked, restarted and stopped there).  A mechanism
 * whose locks user threads take adds them to the fork steps below.
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
#include <stdlib.h>
#include "internal.h"

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

	if (smp_load_acquire(&started))	/* see above */
		return 0;
	pthread_mutex_lock(&init_lock);
	if (start_failed) {
		rc = -1;
	} else if (!READ_ONCE(started)) {	/* under the lock */
		rc = lrcu__start();
		if (rc)
			start_failed = true;
		else
			smp_store_release(&started, 1);	/* see above */
	}
	pthread_mutex_unlock(&init_lock);
	return rc;
}

void lrcu__init_once(void)
{
	if (likely(smp_load_acquire(&started)))	/* see above */
		return;
	if (lrcu_init())
		exit(2);	/* the reason was printed */
}


/* ------------------------------------------------------------------ */
/* fork() */

/* The forking thread took ->gp_mutex of these flavors (their drivers were
 * not parked mid-grace-period). */
static bool fork_own_gp[LRCU_NR_FLAVORS];
static bool fork_tree;		/* the tree was started when we forked */

/* Every flavor's grace periods held (under kthread.c's lock, with every
 * library thread parked). */
static bool fork_held(void)
{
	return !fork_tree || lrcu__tree_fork_hold(fork_own_gp);
}


/*
 * The tree's locks, in the library's lock order: report_lock (stall
 * warnings), slots_lock, then for every flavor barrier_lock, the rcu_node
 * locks (leaves first, as reports climb), the callback locks, gp_wq_lock
 * and barrier_done_lock.  In the child, the condition variables lose
 * their waiters and barrier_mutex its dead holder (barrier.c).
 */
/* lrcu__fork_mutex() for an rcu_node lock (lock.h). */
static void node_fork(struct lrcu_node *rnp, enum lrcu_fork_phase ph)
{
	if (ph == LRCU_FORK_PREPARE)
		lrcu__node_lock(rnp);
	else if (ph == LRCU_FORK_PARENT)
		lrcu__node_unlock(rnp);
	else
		lrcu__lock_reset(&rnp->lock);	/* ours, under the parent's id */
}

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
			node_fork(&rsp->node[i], ph);
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
	lrcu__tasks_fork(ph);
	lrcu__kthreads_fork(ph);	/* last: lrcu__spawn() may be called
					 * with an SRCU domain's lock held */
}

static void fork_prepare(void)
{
	if (lrcu__in_kthread())
		lrcu__fatal("fork() from a library thread (an RCU or SRCU callback): "
			   "it cannot be restarted in the child");
	pthread_mutex_lock(&init_lock);
	fork_tree = READ_ONCE(started);	/* init_lock */
	lrcu__kthreads_request(LRCU_KT_PARK);
	lrcu__tree_kick();
	lrcu__kthreads_wait_parked(fork_held);
	fork_locks(LRCU_FORK_PREPARE);
}

static void fork_parent(void)
{
	fork_locks(LRCU_FORK_PARENT);
	if (fork_tree)
		lrcu__tree_fork_release(fork_own_gp, false);
	lrcu__kthreads_request(LRCU_KT_RUN);	/* unpark */
	pthread_mutex_unlock(&init_lock);
}

static void fork_child(void)
{
	lrcu__tid_fork_child();	/* before any lock: lock.h's PI words hold ids */
	fork_locks(LRCU_FORK_CHILD);
	lrcu__kthreads_fork_child();
	if (fork_tree) {
		lrcu__tree_fork_release(fork_own_gp, true);
		lrcu__membarrier_fork_child();
		lrcu__registry_fork_child();
	}
	/* Restart the library threads, then hand the SRCU work of the
	 * threads that are gone to srcu_worker (which may start it). */
	lrcu__kthreads_restart();
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
	lrcu__kthreads_request(LRCU_KT_STOP);
	lrcu__tree_kick();	/* GP drivers sleep on the tree's words */
	lrcu__kthreads_join();
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
		after = lrcu__srcu_shutdown_barrier() + lrcu__tasks_shutdown_barrier();
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

	if (lrcu__in_kthread())
		lrcu__fatal("rcu_shutdown() from a library thread (an RCU or SRCU callback)");
	pthread_mutex_lock(&init_lock);
	if (READ_ONCE(started)) {	/* init_lock */
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
	if (READ_ONCE(started) && lrcu_thread_slot() >= 0)	/* init_lock */
		lrcu_unregister_thread();
	kthreads_stop();
	lrcu__tasks_stop();
	lrcu__srcu_shutdown_free();
	lrcu__debug_shutdown();
	if (READ_ONCE(started)) {	/* init_lock */
		lrcu__stop();
		smp_store_release(&started, 0);	/* see lrcu_init() */
	}
	pthread_mutex_unlock(&init_lock);
	return 0;
}
