/* SPDX-License-Identifier: MIT */
/*
 * rcu/rculist_nulls.h - RCU-protected hlist_nulls lists, with the Linux
 * kernel's names and semantics.
 *
 * hlist_nulls lists end in a per-list odd marker instead of NULL (see
 * <rcu/list.h>).  They exist for hash tables whose objects are type-stable
 * rather than RCU-freed, as with the kernel's SLAB_DESTROY_BY_RCU (now
 * SLAB_TYPESAFE_BY_RCU) caches: an object may be freed and reused for
 * another key, in another bucket, without waiting for a grace period; only
 * its memory is guaranteed to stay an object of the same type while
 * readers may hold pointers to it.  A reader must therefore
 *
 *   1. validate every object it accepts: take a reference that fails on a
 *      free object (e.g. increment-unless-zero) and re-check the key after
 *      taking it, restarting the lookup when either fails; and
 *   2. when it reaches the end of a bucket without a match, check that
 *      the end marker is its own bucket's (get_nulls_value(pos) == slot);
 *      if not, the object it stood on was moved to another bucket while it
 *      traversed, so it may have skipped part of its bucket: restart.
 *
 *   begin:
 *	rcu_read_lock();
 *	hlist_nulls_for_each_entry_rcu(obj, pos, &table[slot], node) {
 *		if (LRCU_READ_ONCE(obj->key) != key)
 *			continue;
 *		if (!get_ref_unless_zero(obj))
 *			goto restart;
 *		if (LRCU_READ_ONCE(obj->key) != key) {
 *			put_ref(obj);
 *			goto restart;
 *		}
 *		goto found;
 *	}
 *	if (get_nulls_value(pos) != slot)
 *		goto restart;
 *	obj = NULL;
 *   found:
 *	rcu_read_unlock();
 *	...
 *   restart:
 *	rcu_read_unlock();
 *	goto begin;
 *
 * The updater side initialises a reused object's key (and whatever the
 * key check relies on) and makes its reference count non-zero with a
 * release store before hlist_nulls_add_head_rcu().
 *
 * Why there is no hlist_nulls_add_tail_rcu()
 *   Check 2 only works because objects are only ever added at the head.
 *   Suppose a reader on bucket A stands on object X when X is freed,
 *   reused and added to bucket B; the reader follows X into B and stands
 *   on object Y when Y in turn is freed, reused and added back to bucket
 *   A.  Had Y been added at A's tail, the reader would follow Y to A's end
 *   marker, see A's nulls value and wrongly conclude that it searched all
 *   of A: it skipped everything between X's old place and the tail.
 *   Added at the head instead, Y leads the reader through all of A again
 *   (possibly several times, if it is very unlucky), so arriving at one's
 *   own end marker really does mean the whole bucket was searched.  Adding
 *   anywhere but the head is therefore only allowed before any reader can
 *   see the list.  (Later kernels did add an hlist_nulls_add_tail_rcu()
 *   for users that accept the risk; this library deliberately does not.)
 *   tests/list/nulls.c demonstrates both interleavings.
 */
#ifndef RCU_RCULIST_NULLS_H
#define RCU_RCULIST_NULLS_H

#include <rcu/list.h>
#include <rcu/rcupdate.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The RCU-protected pointers of an hlist_nulls, as lvalues. */
#define hlist_nulls_first_rcu(head) \
	(*((struct hlist_nulls_node __rcu __force **)&(head)->first))
#define hlist_nulls_next_rcu(node) \
	(*((struct hlist_nulls_node __rcu __force **)&(node)->next))

/*
 * Unlink n if it is on a list and mark it unhashed (pprev = NULL).
 * n->next stays valid for readers standing on n.
 */
static inline void hlist_nulls_del_init_rcu(struct hlist_nulls_node *n)
{
	if (!hlist_nulls_unhashed(n)) {
		__hlist_nulls_del(n);	/* release store of *pprev, in list.h */
		/* pairs with LRCU_READ_ONCE() in hlist_nulls_unhashed_lockless() */
		LRCU_WRITE_ONCE(n->pprev, NULL);
	}
}

/*
 * Unlink n while readers may be traversing; n->next stays valid for them,
 * n->pprev becomes LIST_POISON2.
 */
static inline void hlist_nulls_del_rcu(struct hlist_nulls_node *n)
{
	__hlist_nulls_del(n);	/* release store of *pprev, in list.h */
	/* A link store (list.h); readers never follow ->pprev. */
	LRCU_WRITE_ONCE(n->pprev, (struct hlist_nulls_node **)LIST_POISON2);
}

/*
 * Add n at the front of h while readers may be traversing.  n may be a
 * reused object that stale readers still stand on (that is the point of
 * hlist_nulls), so its forward link is published like any other link:
 * those readers follow it into h.
 */
static inline void hlist_nulls_add_head_rcu(struct hlist_nulls_node *n,
					    struct hlist_nulls_head *h)
{
	struct hlist_nulls_node *first = h->first;

	/*
	 * Release, not the usual relaxed store of an unpublished node:
	 * pairs with rcu_dereference_raw() of n->next in
	 * hlist_nulls_for_each_entry_rcu() by a reader that still stands on
	 * the reused n, so that it sees first (and its object) initialised.
	 */
	LRCU_ASSIGN_POINTER(hlist_nulls_next_rcu(n), first);
	LRCU_WRITE_ONCE(n->pprev, &h->first);	/* readers never follow ->pprev */
	/* Publish: pairs with rcu_dereference_raw() of the head in
	 * hlist_nulls_for_each_entry_rcu(). */
	LRCU_ASSIGN_POINTER(hlist_nulls_first_rcu(h), n);
	if (!is_a_nulls(first))
		LRCU_WRITE_ONCE(first->pprev, &n->next);	/* a link store (list.h) */
}

/* No hlist_nulls_add_tail_rcu(): see the comment at the top of this file. */

/*
 * Iterate over an RCU-protected hlist_nulls.  tpos: entry cursor; pos:
 * struct hlist_nulls_node * cursor, which holds the end marker when the
 * loop completes (check get_nulls_value(pos)).  Inside a reader.
 *
 * The leading LRCU_BARRIER() keeps the compiler from reusing a head load from
 * before a `goto restart' (the loads are atomic, so it could not anyway;
 * kept for the kernel's documented guarantee).
 */
#define hlist_nulls_for_each_entry_rcu(tpos, pos, head, member)	\
	for (({ LRCU_BARRIER(); }),						\
	     pos = LRCU_DEREFERENCE_RAW(hlist_nulls_first_rcu(head));	\
	     !is_a_nulls(pos) &&					\
		({ tpos = hlist_nulls_entry(pos, __typeof__(*(tpos)), member); 1; }); \
	     pos = LRCU_DEREFERENCE_RAW(hlist_nulls_next_rcu(pos)))

#ifdef __cplusplus
}
#endif

#endif /* RCU_RCULIST_NULLS_H */
