/* SPDX-License-Identifier: MIT */
/*
 * pool.c - the element pool and the pipeline (the kernel's rcu_tortures[]).
 *
 * Theory of operation
 *
 * TORTURE_POOL_SIZE elements circulate: freelist -> current (published by
 * the writer) -> removed (pipe_count 1) -> one pipe_count bump per grace
 * period -> freelist again when pipe_count reaches RCU_TORTURE_PIPE_LEN
 * (mbtest cleared first).  Two ways through the grace periods:
 *
 *  - synchronous (sync/exp/cond/poll): the writer keeps removed elements on
 *    a private list and bumps every one of them after each grace period it
 *    waited for (pool_removed_update());
 *  - asynchronous (gp_normal): pool_deferred_free() hands the element to
 *    call(); its callback bumps the count and calls call() again, one hop
 *    per grace period, until the count reaches PIPE_LEN.
 *
 * A reader that loaded an element inside one critical section can see its
 * pipe_count at most 1: any later bump follows a grace period that started
 * after the removal and so had to wait for that reader.  wcount[i] counts
 * i -> i+1 transitions ("Free-Block Circulation"); wcount[PIPE_LEN] must
 * stay 0.  A pending mailbox check (reader.c) hung on an element is
 * released at its first bump after removal.
 */
#include <stdlib.h>
#include "torture.h"

void *rcu_torture_current;

static struct rcu_torture pool[TORTURE_POOL_SIZE];
static struct rcu_torture *freelist;		/* pool_lock */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rcu_torture *removed;		/* writer thread only */
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

void *pool_element(int i)
{
	return &pool[i];
}

static void pool_init_once(void)
{
	int i;

	for (i = 0; i < TORTURE_POOL_SIZE; i++) {
		pool[i].next = freelist;
		freelist = &pool[i];
	}
}

/* A checker may now look at the mailbox: release pairs with the acquire
 * CAS in mbox_check() (reader.c). */
static void mbox_release(struct rtc_mbox *m)
{
	if (m)
		smp_store_release(&m->state, 2 /* MBOX_READY */);
}

int pool_freelist_empty(void)
{
	int empty;

	pthread_once(&pool_once, pool_init_once);
	pthread_mutex_lock(&pool_lock);
	empty = freelist == NULL;
	pthread_mutex_unlock(&pool_lock);
	return empty;
}

struct rcu_torture *pool_alloc(void)
{
	struct rcu_torture *rp;

	pthread_once(&pool_once, pool_init_once);
	pthread_mutex_lock(&pool_lock);
	rp = freelist;
	if (rp)
		freelist = rp->next;
	pthread_mutex_unlock(&pool_lock);
	if (!rp)
		return NULL;
	/* Only a broken RCU can leave a request hung on a free element.
	 * Fully ordered: see pipe_update_one(). */
	mbox_release(xchg(&rp->chkp, NULL));
	/* Plain-enough stores: published later by the release store of
	 * rcu_torture_current (the writer's rcu_assign_pointer()). */
	WRITE_ONCE(rp->pipe_count, 0);
	WRITE_ONCE(rp->mbtest, 1);
	/* ->state: the writer's and callbacks' bookkeeping; read by the leak
	 * check after callback barriers, which order it. */
	WRITE_ONCE(rp->state, RTORT_CURRENT);
	/* Not removed yet (oracle.c); published like the fields above. */
	WRITE_ONCE(rp->gpo_stamp, 0);
	return rp;
}

void pool_free(struct rcu_torture *rp)
{
	STAT_INC(tc.rtf);
	WRITE_ONCE(rp->state, RTORT_FREE);	/* see pool_alloc() */
	pthread_mutex_lock(&pool_lock);
	rp->next = freelist;
	freelist = rp;
	pthread_mutex_unlock(&pool_lock);
}

/*
 * One grace period (or the removal, 0 -> 1) for rp.  Returns true when
 * rp has been through PIPE_LEN of them and may be freed.
 */
bool pipe_update_one(struct rcu_torture *rp)
{
	/* Only the writer or rp's own callback bumps it, one at a time. */
	int i = READ_ONCE(rp->pipe_count);

	if (i >= 1)	/* a GP that began after the removal has ended */
		mbox_release(xchg(&rp->chkp, NULL));	/* fully ordered: reader.c's release CAS */
	if (i > RCU_TORTURE_PIPE_LEN)
		i = RCU_TORTURE_PIPE_LEN;
	STAT_INC(tc.wcount[i]);
	/* Read by readers with a relaxed load; the grace period (or the
	 * publication of the new element, for 0 -> 1) orders it. */
	WRITE_ONCE(rp->pipe_count, i + 1);
	if (i + 1 >= RCU_TORTURE_PIPE_LEN) {
		/* Readers may see it only if the RCU is broken (rtmbe). */
		WRITE_ONCE(rp->mbtest, 0);
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* Asynchronous path */

/* Oracle bookkeeping (oracle.c) just before a call(): its ticket and a
 * cookie that must have completed when the callback runs. */
static void cb_arm(struct rcu_torture *rp)
{
	rp->gpo_t0 = gpo_begin();
	rp->gpo_cookie = gpo_cb_cookie();
}

static void rcu_torture_cb(struct torture_cb *cb)
{
	struct rcu_torture *rp = (struct rcu_torture *)(void *)cb;

	/* The call() orders our own fields written in cb_arm(). */
	gpo_cb_check(rp->gpo_cookie, cur_ops->get_gp_state && cur_ops->poll_gp_state);
	gpo_end(rp->gpo_t0);

	/* Our own previous bump (the call() orders it). */
	if (READ_ONCE(rp->pipe_count) == 1)
		torture_record_gp("async", rp->call_us);
	if (pipe_update_one(rp)) {
		pool_free(rp);
		return;
	}
	cb_arm(rp);
	cur_ops->call(cb);	/* next hop: one more grace period */
}

void pool_deferred_free(struct rcu_torture *rp)
{
	WRITE_ONCE(rp->state, RTORT_ASYNC);	/* see pool_alloc() */
	rp->call_us = torture_now_us();
	cb_arm(rp);
	torture_call(&rp->cb, rcu_torture_cb);
}

/* ------------------------------------------------------------------ */
/* Synchronous paths: the writer's removed list */

void pool_removed_add(struct rcu_torture *rp)
{
	WRITE_ONCE(rp->state, RTORT_REMOVED);	/* see pool_alloc() */
	rp->next = removed;
	removed = rp;
}

void pool_removed_update(void)
{
	struct rcu_torture **pp = &removed, *rp;

	while ((rp = *pp)) {
		if (pipe_update_one(rp)) {
			*pp = rp->next;
			pool_free(rp);
		} else {
			pp = &rp->next;
		}
	}
}

/*
 * After enough callback barriers that every asynchronous chain has ended:
 * an element still marked ASYNC lost a callback.
 */
unsigned long pool_leak_check(void)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < TORTURE_POOL_SIZE; i++) {
		/* After the barriers: they order the callbacks' stores. */
		if (READ_ONCE(pool[i].state) != RTORT_ASYNC)
			continue;
		torout(" rtort_pipe_count: %d: element %d lost its callback",
		       READ_ONCE(pool[i].pipe_count), i);	/* message */
		n++;
	}
	return n;
}
