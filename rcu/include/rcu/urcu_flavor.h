/* SPDX-License-Identifier: MIT */
/*
 * rcu/urcu_flavor.h - our flavors as liburcu flavors: liburcu's data
 * structures (the rculfhash hash table, the lock-free queue...) on this
 * library's grace periods.
 *
 *   #include <rcu/rcupdate.h>
#include <rcu/defer.h>
 *   #include <rcu/urcu_flavor.h>
 *   #include <urcu/rculfhash.h>
 *
 *   ht = cds_lfht_new_flavor(1, 1, 0, CDS_LFHT_AUTO_RESIZE, &lrcu_flavor_rcu, NULL);
 *   rcu_read_lock(); cds_lfht_lookup(ht, ...); rcu_read_unlock();
 *
 * links with liburcu-cds alone (pkg-config --libs liburcu-cds): no
 * liburcu flavor library, so nothing but rculfhash's own cds_ symbols
 * next to ours.  Usable only with liburcu-dev's headers installed.
 *
 *   lrcu_flavor_rcu    rcu_read_lock()/rcu_read_unlock(), synchronize_rcu(),
 *                      call_rcu(), rcu_barrier() (the rcu flavor; rcu_bh
 *                      is the same flavor, so it needs no descriptor)
 *   lrcu_flavor_sched  the rcu_sched flavor (liburcu-qsbr's contract: a
 *                      thread that read under it announces quiescent
 *                      states with rcu_quiescent_state(), goes offline
 *                      around blocking, or unregisters; so it calls
 *                      cds_lfht_resize() and cds_lfht_destroy(), which
 *                      wait for other threads' grace periods, offline)
 *
 * The descriptor is liburcu's struct rcu_flavor_struct, its layout taken
 * from the installed <urcu/flavor.h> and checked at build time: liburcu
 * 0.13's fourteen members (a liburcu that adds members, as 0.14's polled
 * grace periods do, fails to build here rather than leave them NULL).
 * liburcu's data structures hand the flavor's update_call_rcu() their own
 * struct rcu_head (<urcu/call-rcu.h>: a cds_wfcq_node, that is one
 * pointer, then func), which this library queues as its struct rcu_head
 * (next, then func): the same layout, checked below.  A translation unit
 * that includes this header has ours, so it cannot include
 * <urcu/call-rcu.h> or a liburcu flavor header.
 *
 * What differs from a liburcu flavor:
 *   - register_thread on a thread already registered is ignored (liburcu
 *     would corrupt its registry); unregister_thread likewise on one that
 *     is not.
 *   - update_defer_rcu is defer_rcu() or defer_rcu_sched() (<rcu/defer.h>).
 *   - register_rculfhash_atfork: fork() needs no calls around it here
 *     (the library handles it with pthread_atfork()), so rculfhash's
 *     worker is paused and restarted around fork() by handlers of this
 *     header's, registered after the library's own: its prepare handler
 *     runs first, while grace periods still work, its child handler after
 *     the library's threads are back.
 * Each translation unit that includes this header has its own copy of the
 * descriptors (static): any of them serves any table.
 */
#ifndef RCU_URCU_FLAVOR_H
#define RCU_URCU_FLAVOR_H

#if defined(__has_include)
#if !__has_include(<urcu/flavor.h>)
#error "<rcu/urcu_flavor.h> needs liburcu's headers: install liburcu-dev"
#endif
#endif

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <urcu/flavor.h>
#include <urcu/wfcqueue.h>
#include <rcu/rcupdate.h>
#include <rcu/defer.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
#define LRCU__URCU_ASSERT	static_assert
#else
#define LRCU__URCU_ASSERT	_Static_assert
#endif
/* liburcu 0.13's struct rcu_flavor_struct: fourteen function pointers. */
LRCU__URCU_ASSERT(sizeof(struct rcu_flavor_struct) == 14 * sizeof(void (*)(void)),
	       "<urcu/flavor.h> is not liburcu 0.13's: rcu/urcu_flavor.h fills its 14 members");
/* liburcu's struct rcu_head is { struct cds_wfcq_node next; func }, ours
 * { struct rcu_head *next; func }: the same if the node is one pointer. */
LRCU__URCU_ASSERT(sizeof(struct cds_wfcq_node) == sizeof(void *) &&
	       sizeof(struct rcu_head) == 2 * sizeof(void *) &&
	       offsetof(struct rcu_head, func) == sizeof(void *),
	       "liburcu's struct rcu_head and ours differ in layout");

static void lrcu__urcu_nothing(void)
{
}

static void lrcu__urcu_register(void)
{
	/* EBUSY: already registered (a thread of the program's that runs
	 * rculfhash's helpers itself).  ENOSPC was printed by the library,
	 * and a section on this thread will be reported. */
	if (rcu_register_thread() && errno != EBUSY && errno != ENOSPC)
		perror("rcu/urcu_flavor.h: rcu_register_thread()");
}

static void lrcu__urcu_unregister(void)
{
	(void)rcu_unregister_thread();
}

static void lrcu__urcu_read_lock(void) { rcu_read_lock(); }
static void lrcu__urcu_read_unlock(void) { rcu_read_unlock(); }
static int lrcu__urcu_read_ongoing(void) { return rcu_read_lock_held(); }
static void lrcu__urcu_call(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	call_rcu(head, func);
}
static void lrcu__urcu_sync(void) { synchronize_rcu(); }
static void lrcu__urcu_barrier(void) { rcu_barrier(); }

static void lrcu__urcu_read_lock_sched(void) { rcu_read_lock_sched(); }
static void lrcu__urcu_read_unlock_sched(void) { rcu_read_unlock_sched(); }
static int lrcu__urcu_read_ongoing_sched(void) { return rcu_read_lock_sched_held(); }
static void lrcu__urcu_qs(void) { rcu_quiescent_state(); }
static void lrcu__urcu_call_sched(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	call_rcu_sched(head, func);
}
static void lrcu__urcu_sync_sched(void) { synchronize_sched(); }
static void lrcu__urcu_barrier_sched(void) { rcu_barrier_sched(); }

static void lrcu__urcu_defer(void (*fct)(void *p), void *p) { defer_rcu(fct, p); }
static void lrcu__urcu_defer_sched(void (*fct)(void *p), void *p) { defer_rcu_sched(fct, p); }

/*
 * rculfhash's fork handlers (one struct urcu_atfork for the process,
 * registered again by each table it creates; its handlers count their
 * own nesting, so that two translation units' registrations are
 * harmless).  The first registration installs ours, after the library
 * has installed its own (lrcu_init()).
 */
static struct urcu_atfork *lrcu__urcu_atfork;	/* under lrcu__urcu_atfork_lock */
static pthread_mutex_t lrcu__urcu_atfork_lock = PTHREAD_MUTEX_INITIALIZER;

static void lrcu__urcu_before_fork(void)
{
	struct urcu_atfork *a = lrcu__urcu_atfork;	/* set before this runs */

	if (a)
		a->before_fork(a->priv);
}

static void lrcu__urcu_after_fork_parent(void)
{
	struct urcu_atfork *a = lrcu__urcu_atfork;

	if (a)
		a->after_fork_parent(a->priv);
}

static void lrcu__urcu_after_fork_child(void)
{
	struct urcu_atfork *a = lrcu__urcu_atfork;

	if (a)
		a->after_fork_child(a->priv);
}

static void lrcu__urcu_register_atfork(struct urcu_atfork *atfork)
{
	pthread_mutex_lock(&lrcu__urcu_atfork_lock);
	if (!lrcu__urcu_atfork) {
		(void)rcu_init();	/* its handlers first: see above */
		if (pthread_atfork(lrcu__urcu_before_fork, lrcu__urcu_after_fork_parent,
				   lrcu__urcu_after_fork_child) == 0)
			lrcu__urcu_atfork = atfork;
	}
	pthread_mutex_unlock(&lrcu__urcu_atfork_lock);
}

/* liburcu's is a no-op too: the handlers stay, the table's worker is
 * shared by every table. */
static void lrcu__urcu_unregister_atfork(struct urcu_atfork *atfork)
{
	(void)atfork;
}

static const struct rcu_flavor_struct lrcu_flavor_rcu = {
	.read_lock = lrcu__urcu_read_lock,
	.read_unlock = lrcu__urcu_read_unlock,
	.read_ongoing = lrcu__urcu_read_ongoing,
	.read_quiescent_state = lrcu__urcu_nothing,	/* liburcu-memb's too */
	.update_call_rcu = lrcu__urcu_call,
	.update_synchronize_rcu = lrcu__urcu_sync,
	.update_defer_rcu = lrcu__urcu_defer,
	.thread_offline = rcu_thread_offline,
	.thread_online = rcu_thread_online,
	.register_thread = lrcu__urcu_register,
	.unregister_thread = lrcu__urcu_unregister,
	.barrier = lrcu__urcu_barrier,
	.register_rculfhash_atfork = lrcu__urcu_register_atfork,
	.unregister_rculfhash_atfork = lrcu__urcu_unregister_atfork,
};

static const struct rcu_flavor_struct lrcu_flavor_sched = {
	.read_lock = lrcu__urcu_read_lock_sched,
	.read_unlock = lrcu__urcu_read_unlock_sched,
	.read_ongoing = lrcu__urcu_read_ongoing_sched,
	.read_quiescent_state = lrcu__urcu_qs,
	.update_call_rcu = lrcu__urcu_call_sched,
	.update_synchronize_rcu = lrcu__urcu_sync_sched,
	.update_defer_rcu = lrcu__urcu_defer_sched,
	.thread_offline = rcu_thread_offline,
	.thread_online = rcu_thread_online,
	.register_thread = lrcu__urcu_register,
	.unregister_thread = lrcu__urcu_unregister,
	.barrier = lrcu__urcu_barrier_sched,
	.register_rculfhash_atfork = lrcu__urcu_register_atfork,
	.unregister_rculfhash_atfork = lrcu__urcu_unregister_atfork,
};

#ifdef __cplusplus
}
#endif

#endif /* RCU_URCU_FLAVOR_H */
