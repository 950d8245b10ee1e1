/* SPDX-License-Identifier: MIT */
/*
 * srcu_internal.h - SRCU's private state, shared by srcu.c (domains and
 * the grace-period state machine), srcu_readers.c (reader records, ids,
 * the drain check) and srcu_cb.c (callbacks, srcu_barrier(), the worker).
 *
 * "lock" below is sup->lock; "W" is the worker's lock (srcu_cb.c).
 * Fields declared __guarded_by() are written only while that lock is
 * held, which debug builds check (lockdep.h).
 */
#ifndef LRCU_SRCU_INTERNAL_H
#define LRCU_SRCU_INTERNAL_H

#include <rcu/list.h>
#include <rcu/srcu.h>
#include "internal.h"

/* Grace-period states in the low bits of ->gp_seq (rcu_seq.h). */
#define SRCU_STATE_IDLE		0
#define SRCU_STATE_SCAN1	1	/* waiting for the inactive index */
#define SRCU_STATE_SCAN2	2	/* flipped; waiting for the old index */

/* Who held the last busy scan up (for stall warnings and dumps). */
#define SRCU_HOLDOUTS_MAX	4
struct srcu_holdouts {
	int nr_threads;				/* threads with sections open */
	int tid[SRCU_HOLDOUTS_MAX];		/* the first few of them */
	char name[SRCU_HOLDOUTS_MAX][16];
	unsigned long count[SRCU_HOLDOUTS_MAX];	/* their open sections */
	unsigned long total;			/* open sections of all threads */
	unsigned long shared;			/* open shared-counter sections */
};

/* Backoff state between scans of a held-up grace period (srcu.c). */
struct srcu_delay {
	unsigned long seq;		/* gp_seq it is for */
	unsigned long t0;		/* first scan that found readers */
	unsigned long us;		/* last sleep */
};

/*
 * The update side of a domain (the kernel's srcu_usage), allocated by
 * init_srcu_struct() or on the first update-side call on a DEFINE_SRCU()
 * domain, freed by cleanup_srcu_struct().
 */
struct lrcu_srcu_sup {
	struct srcu_struct *ssp;	/* the domain (const) */
	struct list_head all;		/* on the list of every domain's state
					 * (srcu.c's sups_lock) */
	pthread_mutex_t lock;		/* protects everything not marked W */
	pthread_cond_t gp_wq;		/* broadcast at each GP end and when a
					 * driver leaves */

	/* Grace periods */
	/* rcu_seq: IDLE/SCAN1/SCAN2 (lock; loaded lockless by pollers) */
	unsigned long __guarded_by(lock) gp_seq;
	/* furthest GP end requested, and of which expedited (lock) */
	unsigned long __guarded_by(lock) gp_seq_needed;
	unsigned long __guarded_by(lock) gp_seq_needed_exp;
	bool driver;			/* a synchronize_srcu() caller drives the
					 * state machine; the worker keeps off */
	int nr_waiters;			/* callers inside synchronize_srcu() */
	unsigned long gp_start_us;	/* start of the current GP (stall hook) */
	struct lrcu_stall stall;	/* stall warnings for this domain
					 * (tree_stall.c; armed while a GP runs) */
	struct srcu_holdouts holdouts;	/* of the last busy scan */

	/* Callbacks (srcu_cb.c) */
	struct lrcu_cblist cbl;		/* ->len counts callbacks being run */
	struct rcu_head barrier_head;	/* entrained by srcu_barrier() */
	bool __guarded_by(lock) barrier_done;	/* barrier_head has run */
	pthread_cond_t barrier_wq;	/* ... broadcast then */
	pthread_mutex_t barrier_mutex;	/* one srcu_barrier() pass at a time */
	/* rcu_seq of passes (barrier_mutex) */
	unsigned long __guarded_by(barrier_mutex) barrier_seq;

	/* The worker's view (W: srcu_cb.c's W.lock) */
	struct list_head work;		/* on the worker's list while queued */
	bool __guarded_by(W.lock) queued;	/* on that list */
	bool __guarded_by(W.lock) kick;	/* new work since the worker looked */
	bool __guarded_by(W.lock) busy;	/* the worker is working on it */
	bool __guarded_by(W.lock) dying;	/* cleanup_srcu_struct() has begun */
	unsigned long __guarded_by(W.lock) next_us;	/* when the worker looks again */
	struct srcu_delay __guarded_by(lock) delay;	/* the worker's backoff */

	/* Statistics (relaxed atomics; written under lock) */
	unsigned long n_gps, n_exp_gps, gp_max_us, n_scans;
	unsigned long n_cbs_queued, n_cbs_invoked, n_barriers;
};

/* srcu.c */
struct lrcu_srcu_sup *lrcu__srcu_sup_get(struct srcu_struct *ssp);
bool lrcu__srcu_advance(struct lrcu_srcu_sup *sup);	/* lock held */
bool lrcu__srcu_gp_needed(struct lrcu_srcu_sup *sup);	/* lock held */
void lrcu__srcu_request(struct lrcu_srcu_sup *sup, unsigned long snap, bool exp);
struct lrcu_srcu_sup *lrcu__srcu_update_begin(struct srcu_struct *ssp, const char *caller,
					     bool *was_online);
unsigned long lrcu__srcu_delay(struct srcu_delay *d, unsigned long gp_seq, bool exp);

/* srcu_readers.c */
unsigned long lrcu__srcu_id_get(struct srcu_struct *ssp);	/* assigns one */
void lrcu__srcu_id_put(unsigned long id);
bool lrcu__srcu_readers_drained(struct srcu_struct *ssp, int idx, struct srcu_holdouts *h);
void lrcu__srcu_readers_count(struct srcu_struct *ssp, unsigned long counts[2]);

/* srcu_readers.c: fork() child: end the sections of the threads that
 * are not there (their records go back to the pool). */
void lrcu__srcu_readers_fork_child(void);

/* srcu_cb.c */
void lrcu__srcu_worker_fork(enum lrcu_fork_phase ph);	/* its lock */
void lrcu__srcu_worker_stopped(void);	/* rcu_shutdown(): no worker, no queue */
void lrcu__srcu_worker_queue(struct lrcu_srcu_sup *sup);
void lrcu__srcu_worker_forget(struct lrcu_srcu_sup *sup);
void lrcu__srcu_cbs_gp_ended(struct lrcu_srcu_sup *sup);	/* lock held */
extern __thread bool lrcu__srcu_in_callback;

#endif /* LRCU_SRCU_INTERNAL_H */
