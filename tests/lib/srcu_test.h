/* SPDX-License-Identifier: MIT */
/*
 * srcu_test.h - helpers shared by the SRCU tests.
 *
 * A holder is a thread (never registered with RCU) that enters a
 * read-side section of a domain, says so, stays inside until told to
 * leave (sleeping, as SRCU readers may), and marks "leaving" just before
 * its srcu_read_unlock().  A grace period that returns while "leaving" is
 * still 0 ended too early: that is how the tests see a broken SRCU
 * without timing anything.  Its section is srcu_read_lock()'s, or (->fast)
 * srcu_read_lock_fast()'s, taken on the inline fast path: a first section
 * before it maps the thread's counters (the slow path).
 */
#ifndef TESTS_SRCU_TEST_H
#define TESTS_SRCU_TEST_H

#include <rcu/srcu.h>
#include "rcu_test.h"

struct holder {
	struct srcu_struct *ssp;
	pthread_t tid;
	int in;			/* inside the section */
	int leave;		/* told to leave */
	int leaving;		/* about to srcu_read_unlock() */
	long sleep_ms;		/* > 0: leave by itself after sleeping this long */
	int fast;		/* an SRCU-fast section (srcu_read_lock_fast()) */
	int idx;
	struct srcu_ctr *scp;	/* ->fast: what the lock returned */
};

static inline bool flag(int *f)
{
	return smp_load_acquire(f);	/* pairs with set_flag() (see wait_flag()) */
}

static inline void *holder_main(void *p)
{
	struct holder *h = p;

	if (h->fast) {
		srcu_read_unlock_fast(h->ssp, srcu_read_lock_fast(h->ssp));
		h->scp = srcu_read_lock_fast(h->ssp);
	} else {
		srcu_read_unlock(h->ssp, srcu_read_lock(h->ssp));
		h->idx = srcu_read_lock(h->ssp);
	}
	set_flag(&h->in);
	if (h->sleep_ms > 0)
		sleep_ms(h->sleep_ms);
	else
		wait_flag(&h->leave, 1e9);
	set_flag(&h->leaving);
	if (h->fast)
		srcu_read_unlock_fast(h->ssp, h->scp);
	else
		srcu_read_unlock(h->ssp, h->idx);
	return NULL;
}

/* Start a holder in ssp (fast: an SRCU-fast one) and wait until it is inside. */
static inline void hold_flavor(struct holder *h, struct srcu_struct *ssp, long sleep, int fast)
{
	memset(h, 0, sizeof(*h));
	h->ssp = ssp;
	h->sleep_ms = sleep;
	h->fast = fast;
	if (pthread_create(&h->tid, NULL, holder_main, h))
		abort();
	if (!wait_flag(&h->in, 60))
		abort();
}

static inline void hold(struct holder *h, struct srcu_struct *ssp, long sleep)
{
	hold_flavor(h, ssp, sleep, 0);
}

static inline void release(struct holder *h)
{
	set_flag(&h->leave);
	pthread_join(h->tid, NULL);
}

/* The index new readers use now (from the domain's statistics). */
static inline unsigned long srcu_cur_idx(struct srcu_struct *ssp)
{
	struct lrcu_srcu_stats st;

	lrcu_srcu_get_stats(ssp, &st);
	return st.idx;
}

#endif /* TESTS_SRCU_TEST_H */
