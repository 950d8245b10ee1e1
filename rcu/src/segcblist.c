/* SPDX-License-Identifier: MIT */
/*
 * segcblist.c - segmented callback lists (layout in segcblist.h).
 *
 * Invariants: tails[i] points at the `next' field of the last callback of
 * segment i, or equals tails[i - 1] (&head for DONE) when segment i is
 * empty; the tags of non-empty pending segments grow from WAIT to
 * NEXT_READY.
 */
#include <stddef.h>
#include "internal.h"

void lrcu__cblist_init(struct lrcu_cblist *l)
{
	int i;

	l->head = NULL;
	for (i = 0; i < LRCU_NSEGS; i++) {
		l->tails[i] = &l->head;
		l->gp_seq[i] = 0;
	}
	l->len = 0;
}

bool lrcu__cblist_seg_empty(const struct lrcu_cblist *l, int seg)
{
	if (seg == LRCU_DONE)
		return l->tails[LRCU_DONE] == &l->head;
	return l->tails[seg] == l->tails[seg - 1];
}

bool lrcu__cblist_ready(const struct lrcu_cblist *l)
{
	return !lrcu__cblist_seg_empty(l, LRCU_DONE);
}

bool lrcu__cblist_pending(const struct lrcu_cblist *l)
{
	return l->tails[LRCU_NEXT] != l->tails[LRCU_DONE];
}

void lrcu__cblist_enqueue(struct lrcu_cblist *l, struct rcu_head *h)
{
	h->next = NULL;
	*l->tails[LRCU_NEXT] = h;
	l->tails[LRCU_NEXT] = &h->next;
	WRITE_ONCE(l->len, l->len + 1);	/* read unlocked by the invoker */
}

/*
 * Tag the NEXT segment with grace-period end `snap' (merging equal tags).
 * Returns false if no segment was free (NEXT stays unassigned).
 *
 * A grace period ending at `snap' is a full one for every callback already
 * queued (they were queued before snap was sampled), so the NEXT segment
 * may be merged with any pending segment tagged at or after snap.  Find
 * the highest segment that must wait for less than snap; everything after
 * it becomes one segment tagged snap.
 */
static bool cblist_accelerate(struct lrcu_cblist *l, unsigned long snap)
{
	int i;

	if (lrcu__cblist_seg_empty(l, LRCU_NEXT))
		return true;
	for (i = LRCU_NEXT_READY; i > LRCU_DONE; i--)
		if (!lrcu__cblist_seg_empty(l, i) && ULONG_CMP_LT(l->gp_seq[i], snap))
			break;
	if (++i >= LRCU_NEXT)
		return false;	/* WAIT and NEXT_READY both hold earlier GPs */
	for (; i < LRCU_NEXT; i++) {
		l->tails[i] = l->tails[LRCU_NEXT];
		l->gp_seq[i] = snap;
	}
	return true;
}

void lrcu__cblist_advance(struct lrcu_cblist *l, unsigned long cur)
{
	int i, j;

	for (i = LRCU_WAIT; i < LRCU_NEXT; i++) {
		if (!lrcu__cblist_seg_empty(l, i) && ULONG_CMP_LT(cur, l->gp_seq[i]))
			break;
		l->tails[LRCU_DONE] = l->tails[i];
	}
	if (i == LRCU_WAIT)
		return;
	/* Segments WAIT..i-1 are now part of DONE: compact the rest down. */
	for (j = LRCU_WAIT; i < LRCU_NEXT; i++, j++) {
		l->tails[j] = l->tails[i];
		l->gp_seq[j] = l->gp_seq[i];
	}
	for (; j < LRCU_NEXT; j++)
		l->tails[j] = l->tails[j - 1];
}

/*
 * Why the accelerate cannot fail here.  Let g be the gp_seq value snap was
 * computed from; cur >= g.  Every tag on the list is an earlier snapshot
 * taken under the same lock, so tag <= snap, and after the advance every
 * pending tag is > cur >= g.  Tags are grace-period ends (multiples of 4).
 * If g is idle, snap = g + 4 and the only pending tag possible is snap
 * itself; if a grace period is in progress (g = c + 1 or c + 2), snap =
 * c + 8 and the pending tags are among c + 4 and c + 8.  Either way at most
 * one segment waits for less than snap, so NEXT_READY is free for it.  (A
 * deliberately stale snapshot, INJECT's cb_stale_snap, shifts snap and the
 * tags alike: the same holds.)  A false return would strand the callbacks
 * in NEXT with no grace period asked for, and rcu_barrier() would hang.
 */
void lrcu__cblist_advance_accelerate(struct lrcu_cblist *l, unsigned long cur,
				    unsigned long snap)
{
	lrcu__cblist_advance(l, cur);
	if (!cblist_accelerate(l, snap))
		lrcu__fatal("callback list: no segment free for grace period %lu "
			   "(current %lu, tags %lu %lu)", snap, cur,
			   l->gp_seq[LRCU_WAIT], l->gp_seq[LRCU_NEXT_READY]);
}

bool lrcu__cblist_next_gp(const struct lrcu_cblist *l, unsigned long *gp)
{
	int i;

	for (i = LRCU_WAIT; i < LRCU_NEXT; i++) {
		if (!lrcu__cblist_seg_empty(l, i)) {
			*gp = l->gp_seq[i];
			return true;
		}
	}
	return false;
}

/* Detach the run [head, *tp) where tp was reached by walking from head. */
static void cblist_cut_front(struct lrcu_cblist *l, struct rcu_head **tp,
			     struct rcu_head *last, long n, struct lrcu_cbs *out)
{
	int i;

	out->head = l->head;
	out->tail = &last->next;
	out->len = n;
	l->head = *tp;
	for (i = 0; i < LRCU_NSEGS; i++)
		if (l->tails[i] == tp)
			l->tails[i] = &l->head;
	last->next = NULL;
}

void lrcu__cblist_extract_done(struct lrcu_cblist *l, long max, struct lrcu_cbs *out)
{
	struct rcu_head **tp = &l->head;
	struct rcu_head *last = NULL;
	long n = 0;

	lrcu_cbs_init(out);
	while (n < max && tp != l->tails[LRCU_DONE]) {
		last = *tp;
		tp = &last->next;
		n++;
	}
	if (n)
		cblist_cut_front(l, tp, last, n, out);
	/* l->len still counts them until the invoker has run them. */
}

void lrcu__cblist_extract_all(struct lrcu_cblist *l, struct lrcu_cbs *done,
			     struct lrcu_cbs *pend)
{
	struct rcu_head *h;
	int i;

	lrcu_cbs_init(done);
	lrcu_cbs_init(pend);
	if (lrcu__cblist_ready(l)) {
		done->head = l->head;
		done->tail = l->tails[LRCU_DONE];
		for (h = done->head; ; h = h->next) {
			done->len++;
			if (&h->next == done->tail)
				break;
		}
	}
	if (lrcu__cblist_pending(l)) {
		pend->head = *l->tails[LRCU_DONE];
		pend->tail = l->tails[LRCU_NEXT];
		for (h = pend->head; ; h = h->next) {
			pend->len++;
			if (&h->next == pend->tail)
				break;
		}
	}
	*done->tail = NULL;
	l->head = NULL;
	for (i = 0; i < LRCU_NSEGS; i++)
		l->tails[i] = &l->head;
	WRITE_ONCE(l->len, l->len - done->len - pend->len);
}

void lrcu__cblist_insert(struct lrcu_cblist *l, int seg, struct lrcu_cbs *cbs)
{
	struct rcu_head **old = l->tails[seg];
	struct rcu_head *rest = *old;
	int i;

	if (!cbs->len)
		return;
	*old = cbs->head;
	*cbs->tail = rest;
	for (i = seg; i < LRCU_NSEGS; i++)
		if (l->tails[i] == old)
			l->tails[i] = cbs->tail;
	WRITE_ONCE(l->len, l->len + cbs->len);
}

bool lrcu__cblist_entrain(struct lrcu_cblist *l, struct rcu_head *h)
{
	struct lrcu_cbs one;
	int seg = LRCU_NEXT;

	if (!l->len)
		return false;
	while (seg > LRCU_DONE && lrcu__cblist_seg_empty(l, seg))
		seg--;
	h->next = NULL;
	one.head = h;
	one.tail = &h->next;
	one.len = 1;
	lrcu__cblist_insert(l, seg, &one);
	return true;
}
