/* SPDX-License-Identifier: MIT */
/*
 * segcblist.h - segmented callback lists.
 *
 * One singly linked list of rcu_heads cut into four segments by tail
 * pointers, each pending segment tagged with the gp_seq value at which its
 * callbacks may run:
 *
 *   [head, tails[DONE])            DONE: grace period over, ready to invoke
 *   [tails[DONE], tails[WAIT])     WAIT: waiting for gp_seq[WAIT]
 *   [tails[WAIT], tails[NEXT_READY]) NEXT_READY: waiting for gp_seq[NEXT_READY]
 *   [tails[NEXT_READY], tails[NEXT]) NEXT: no grace period assigned yet
 *
 * Tags grow from WAIT to NEXT_READY.  Enqueue, accelerate and advance are
 * O(1) (at most four segments); no callback is walked until it is invoked.
 * `len' also counts callbacks that were extracted for invocation and have
 * not finished running: rcu_barrier() relies on that (see barrier.c).
 * The caller provides the locking (rdp->cblock).
 */
#ifndef LRCU_SEGCBLIST_H
#define LRCU_SEGCBLIST_H

#include <stdbool.h>
#include <rcu/types.h>

enum { LRCU_DONE, LRCU_WAIT, LRCU_NEXT_READY, LRCU_NEXT, LRCU_NSEGS };

struct lrcu_cblist {
	struct rcu_head *head;
	struct rcu_head **tails[LRCU_NSEGS];
	unsigned long gp_seq[LRCU_NSEGS];
	long len;		/* queued + extracted but not yet invoked */
};

/* A detached run of callbacks (extracted for invocation or migration). */
struct lrcu_cbs {
	struct rcu_head *head;
	struct rcu_head **tail;
	long len;
};

void lrcu__cblist_init(struct lrcu_cblist *l);
bool lrcu__cblist_seg_empty(const struct lrcu_cblist *l, int seg);
/* Any callbacks in DONE? */
bool lrcu__cblist_ready(const struct lrcu_cblist *l);
/* Any callbacks waiting for a grace period? */
bool lrcu__cblist_pending(const struct lrcu_cblist *l);
void lrcu__cblist_enqueue(struct lrcu_cblist *l, struct rcu_head *h);
/* Move every segment whose grace period has completed (per `cur', the
 * current gp_seq) into DONE. */
void lrcu__cblist_advance(struct lrcu_cblist *l, unsigned long cur);
/* Both, for callbacks just queued or moved into NEXT: advance to cur, then
 * tag NEXT with snap.  snap is an rcu_seq_snap() taken under the list's
 * lock (so no tag already on the list exceeds it) and cur a value read no
 * earlier; then a segment is always free (proof in segcblist.c), and the
 * library stops with a BUG if it is not. */
void lrcu__cblist_advance_accelerate(struct lrcu_cblist *l, unsigned long cur,
				    unsigned long snap);
/* The grace period the earliest pending callbacks wait for, in *gp;
 * false if none waits (NEXT, unassigned, counts as none). */
bool lrcu__cblist_next_gp(const struct lrcu_cblist *l, unsigned long *gp);
/* Detach up to `max' callbacks from the front of DONE into *out. */
void lrcu__cblist_extract_done(struct lrcu_cblist *l, long max, struct lrcu_cbs *out);
/* Detach everything: DONE callbacks into *done, the rest into *pend. */
void lrcu__cblist_extract_all(struct lrcu_cblist *l, struct lrcu_cbs *done,
			     struct lrcu_cbs *pend);
/* Append a detached run at the end of segment `seg' (DONE or NEXT). */
void lrcu__cblist_insert(struct lrcu_cblist *l, int seg, struct lrcu_cbs *cbs);
/* Queue h behind every callback on the list, in the last non-empty
 * segment (so it needs no grace period of its own).  False if the list
 * holds no callbacks at all (nothing to wait for). */
bool lrcu__cblist_entrain(struct lrcu_cblist *l, struct rcu_head *h);

static inline void lrcu_cbs_init(struct lrcu_cbs *c)
{
	c->head = NULL;
	c->tail = &c->head;
	c->len = 0;
}

#endif /* LRCU_SEGCBLIST_H */
