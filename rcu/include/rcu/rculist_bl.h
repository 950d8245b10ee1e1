/* SPDX-License-Identifier: MIT */
/*
 * rcu/rculist_bl.h - RCU-protected hlist_bl lists (hlists whose head
 * pointer carries a bit spin lock), with the Linux kernel's names and
 * semantics.
 *
 * Updaters take the bucket's lock (hlist_bl_lock()/hlist_bl_unlock(), in
 * <rcu/list.h>) around every add and delete; readers traverse without it,
 * inside rcu_read_lock() (only the rcu flavor's reader will do, as in the
 * kernel: rcu_dereference_check() below checks for it).  The lock bit is
 * masked off whenever the head is followed.  Deleted nodes are freed after
 * a grace period, as with the other RCU lists.
 */
#ifndef RCU_RCULIST_BL_H
#define RCU_RCULIST_BL_H

#include <rcu/list.h>
#include <rcu/rcupdate.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Set the first node of a bucket whose lock the caller holds, publishing
 * it to readers.  The lock bit stays set.
 */
static inline void hlist_bl_set_first_rcu(struct hlist_bl_head *h,
					  struct hlist_bl_node *n)
{
	LIST_BL_BUG_ON((uintptr_t)n & LIST_BL_LOCKMASK);
	LIST_BL_BUG_ON(!(LRCU_READ_ONCE(*__hlist_bl_word(h)) & LIST_BL_LOCKMASK));
	/* Publish: pairs with rcu_dereference_check() in hlist_bl_first_rcu() */
	LRCU_ASSIGN_POINTER(h->first,
			   (struct hlist_bl_node *)((uintptr_t)n | LIST_BL_LOCKMASK));
}

/*
 * First node of a bucket, lock bit masked off, for a reader (or for the
 * lock holder).
 */
static inline struct hlist_bl_node *hlist_bl_first_rcu(struct hlist_bl_head *h)
{
	/* Consume pairs with the release in hlist_bl_set_first_rcu() and in
	 * hlist_bl_unlock() (an RMW continuing its release sequence). */
	return (struct hlist_bl_node *)
		((uintptr_t)LRCU_DEREFERENCE_CHECK(h->first, hlist_bl_is_locked(h)) &
		 ~LIST_BL_LOCKMASK);
}

/*
 * Unlink n (lock held) if it is on a list and mark it unhashed; n->next
 * stays valid for readers standing on it.
 */
static inline void hlist_bl_del_init_rcu(struct hlist_bl_node *n)
{
	if (!hlist_bl_unhashed(n)) {
		__hlist_bl_del(n);	/* release store of *pprev, in list.h */
		LRCU_WRITE_ONCE(n->pprev, NULL);	/* readers never follow ->pprev */
	}
}

/*
 * Unlink n (lock held) while readers may be traversing; n->next stays
 * valid for them, n->pprev becomes LIST_POISON2.
 */
static inline void hlist_bl_del_rcu(struct hlist_bl_node *n)
{
	__hlist_bl_del(n);	/* release store of *pprev, in list.h */
	/* A link store (list.h); readers never follow ->pprev. */
	LRCU_WRITE_ONCE(n->pprev, (struct hlist_bl_node **)LIST_POISON2);
}

/* Add n at the front of h (lock held) while readers may be traversing. */
static inline void hlist_bl_add_head_rcu(struct hlist_bl_node *n,
					 struct hlist_bl_head *h)
{
	__hlist_bl_link_head(n, h);
	hlist_bl_set_first_rcu(h, n);	/* release: publishes n */
}

/*
 * Iterate over an RCU-protected hlist_bl inside rcu_read_lock().  tpos:
 * entry cursor; pos: struct hlist_bl_node * cursor (NULL at the end).
 */
#define hlist_bl_for_each_entry_rcu(tpos, pos, head, member)		\
	for (pos = hlist_bl_first_rcu(head);				\
	     pos &&							\
		({ tpos = hlist_bl_entry(pos, __typeof__(*(tpos)), member); 1; }); \
	     /* pairs with the release stores of hlist_bl_add_head_rcu() \
	      * and __hlist_bl_del() */					\
	     pos = LRCU_DEREFERENCE_RAW(pos->next))

#ifdef __cplusplus
}
#endif

#endif /* RCU_RCULIST_BL_H */
