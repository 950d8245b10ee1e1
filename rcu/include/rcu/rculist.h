/* SPDX-License-Identifier: MIT */
/*
 * rcu/rculist.h - RCU-protected struct list_head and struct hlist lists,
 * with the Linux kernel's names and semantics.
 *
 * Readers traverse with the _rcu iterators inside an RCU read-side
 * critical section (rcu_read_lock(); rcu_read_lock_bh() for the _bh ones;
 * rcu_read_lock_sched() works for the others too), concurrently with one
 * updater at a time: the add, delete, replace and splice primitives still
 * need mutual exclusion among updaters (a lock, or a single updater
 * thread).  A deleted or replaced entry may still be in use by readers:
 * free it only after a grace period (synchronize_rcu(), call_rcu(),
 * kfree_rcu()).
 *
 * Ordering
 *   - Insertions publish the new entry with rcu_assign_pointer() (release)
 *     after initialising its links; readers load every link with
 *     rcu_dereference*() (consume, i.e. acquire), so a reader that reaches
 *     an entry sees it fully initialised, including whatever the caller
 *     wrote into the enclosing structure before the insertion.
 *   - Deletions leave the entry's forward link intact (readers standing on
 *     it continue into the list) and store the new forward link of its
 *     predecessor with release (see __list_link_release() in list.h).
 *   - Back links (->prev, ->pprev) are never followed by readers; they are
 *     poisoned on deletion (LIST_POISON2) so that a reader or updater that
 *     uses them faults.  hlist_pprev_rcu() is for updaters only.
 *
 * Lockdep-style checking
 *   Build with -DCONFIG_PROVE_RCU -DCONFIG_PROVE_RCU_LIST to have
 *   list_for_each_entry_rcu() and hlist_for_each_entry_rcu() report
 *   ("suspicious RCU usage") a traversal outside any RCU reader.  Update-
 *   side code that traverses with these macros while holding its lock
 *   passes the lock condition as an optional last argument, as in the
 *   kernel:  list_for_each_entry_rcu(p, &head, node, lock_is_held(&l)).
 */
#ifndef RCU_RCULIST_H
#define RCU_RCULIST_H

#include <rcu/list.h>
#include <rcu/rcupdate.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Traversal checking                                                    */

#if defined(CONFIG_PROVE_RCU) && defined(CONFIG_PROVE_RCU_LIST)
#define __rcu_list_check(cond) ({					\
	RCU_LOCKDEP_WARN(!(cond) && !rcu_read_lock_any_held(),		\
			 "RCU-list traversed in non-reader section");	\
})
#else
#define __rcu_list_check(cond)	((void)sizeof(cond))
#endif
/* (c...) is empty or one condition: pick it, or 0 when absent. */
#define __rcu_list_cond_pick(dummy, cond, extra...)	cond
#define __rcu_list_checked(c...) \
	__rcu_list_check(__rcu_list_cond_pick(dummy, ##c, 0))

/* ================================================================== */
/* struct list_head                                                      */
/* ================================================================== */

/*
 * Initialise a list head that readers may be traversing (they see the
 * list as empty from then on).  Relaxed stores: a reader that loads
 * list->next == list stops without dereferencing anything new.
 */
static inline void INIT_LIST_HEAD_RCU(struct list_head *list)
{
	LRCU_WRITE_ONCE(list->next, list);
	LRCU_WRITE_ONCE(list->prev, list);
}

/* The RCU-protected forward pointer of a list_head, as an lvalue. */
#define list_next_rcu(list)	(*((struct list_head __rcu **)(&(list)->next)))
/* The back pointer, for updaters (readers must not follow it). */
#define list_tail_rcu(head)	(*((struct list_head __rcu **)(&(head)->prev)))

/* Insert new between the consecutive entries prev and next (internal). */
static inline void __list_add_rcu(struct list_head *entry_new,
				  struct list_head *prev,
				  struct list_head *next)
{
	__list_check_add(entry_new, prev, next);
	/* Relaxed: new is not reachable yet; the publication below orders
	 * these stores before any reader can load them. */
	LRCU_WRITE_ONCE(entry_new->next, next);
	LRCU_WRITE_ONCE(entry_new->prev, prev);
	/* Publish: pairs with rcu_dereference() in list_entry_rcu() (used by
	 * list_for_each_entry_rcu() and friends) - a reader that sees new
	 * sees its links and the caller's initialisation of its entry. */
	LRCU_ASSIGN_POINTER(list_next_rcu(prev), entry_new);
	LRCU_WRITE_ONCE(next->prev, entry_new);	/* readers never follow ->prev */
}

/* Add new right after head (stack order), concurrently with readers. */
static inline void list_add_rcu(struct list_head *entry_new, struct list_head *head)
{
	__list_add_rcu(entry_new, head, head->next);
}

/* Add new at the tail of head's list, concurrently with readers. */
static inline void list_add_tail_rcu(struct list_head *entry_new, struct list_head *head)
{
	__list_add_rcu(entry_new, head->prev, head);
}

/*
 * Unlink entry while readers may be traversing.  entry->next stays valid
 * so a reader standing on entry finishes its traversal; entry->prev is
 * poisoned.  list_empty(entry) is false afterwards.  Free the entry only
 * after a grace period.
 */
static inline void list_del_rcu(struct list_head *entry)
{
	__list_del_entry(entry);	/* release store of prev->next, in list.h */
	/* A link store (list.h); readers never follow ->prev. */
	LRCU_WRITE_ONCE(entry->prev, (struct list_head *)LIST_POISON2);
}

/*
 * Put new in old's place while readers may be traversing.  Readers see
 * either old or new, never neither.  old->next stays valid for readers
 * standing on it; old->prev is poisoned.  Free old after a grace period.
 */
static inline void list_replace_rcu(struct list_head *old, struct list_head *entry_new)
{
	/* Relaxed: new is not reachable yet (published below). */
	LRCU_WRITE_ONCE(entry_new->next, old->next);
	LRCU_WRITE_ONCE(entry_new->prev, old->prev);
	/* Publish: pairs with rcu_dereference() in list_entry_rcu(). */
	LRCU_ASSIGN_POINTER(list_next_rcu(entry_new->prev), entry_new);
	/* Link stores (list.h) of back pointers, which readers never follow. */
	LRCU_WRITE_ONCE(entry_new->next->prev, entry_new);
	LRCU_WRITE_ONCE(old->prev, (struct list_head *)LIST_POISON2);
}

/*
 * Splice the entries of list (which readers may be traversing) between
 * the consecutive entries prev and next of another list (internal; list
 * must be non-empty).
 *
 * list is first emptied (INIT_LIST_HEAD_RCU()): new readers of list see
 * it empty.  sync() then waits for the readers that were already
 * traversing list's entries: once list's last entry points into the other
 * list, such a reader would never come back to list's head and would run
 * on through the other list (and around it, forever).  After sync() no
 * reader can reach the entries any more, so they are private until the
 * release store that publishes them in their new place.
 */
static inline void __list_splice_init_rcu(struct list_head *list,
					  struct list_head *prev,
					  struct list_head *next,
					  void (*sync)(void))
{
	struct list_head *first = list->next;
	struct list_head *last = list->prev;

	INIT_LIST_HEAD_RCU(list);
	sync();
	/* Relaxed: first..last are unreachable until published below. */
	LRCU_WRITE_ONCE(last->next, next);
	LRCU_WRITE_ONCE(first->prev, prev);
	/* Publish: pairs with rcu_dereference() in list_entry_rcu(). */
	LRCU_ASSIGN_POINTER(list_next_rcu(prev), first);
	LRCU_WRITE_ONCE(next->prev, last);	/* readers never follow ->prev */
}

/*
 * Move the entries of list to the front of head's list and reinitialise
 * list, while readers may traverse either list.  Blocks: waits for a
 * grace period of the readers' flavor through sync (synchronize_rcu,
 * synchronize_rcu_bh, synchronize_sched, ...).  The caller holds the
 * update-side lock of both lists and must not be in a reader.
 */
static inline void list_splice_init_rcu(struct list_head *list,
					struct list_head *head,
					void (*sync)(void))
{
	if (!list_empty(list))
		__list_splice_init_rcu(list, head, head->next, sync);
}

/* As list_splice_init_rcu(), but to the tail of head's list. */
static inline void list_splice_tail_init_rcu(struct list_head *list,
					     struct list_head *head,
					     void (*sync)(void))
{
	if (!list_empty(list))
		__list_splice_init_rcu(list, head->prev, head, sync);
}

/*
 * The entry containing the list_head that the RCU-protected pointer ptr
 * (an lvalue such as pos->next or list_next_rcu(pos)) points to.
 */
#define list_entry_rcu(ptr, type, member) \
	LRCU_CONTAINER_OF(LRCU_DEREFERENCE_RAW(ptr), type, member)

/*
 * First entry of an RCU-protected list, or NULL if it is empty.  One load
 * of head->next, so the emptiness test and the entry agree.
 */
#define list_first_or_null_rcu(ptr, type, member) ({			\
	struct list_head *__lfonr_head = (ptr);				\
	/* pairs with rcu_assign_pointer() in __list_add_rcu() */	\
	struct list_head *__lfonr_next =				\
		LRCU_DEREFERENCE_RAW(list_next_rcu(__lfonr_head));	\
	LRCU_LIKELY(__lfonr_next != __lfonr_head) ?				\
		list_entry(__lfonr_next, type, member) : NULL;		\
})

/* The entry after ptr in head's list, or NULL if ptr is the last one. */
#define list_next_or_null_rcu(head, ptr, type, member) ({		\
	struct list_head *__lnonr_head = (head);			\
	struct list_head *__lnonr_ptr = (ptr);				\
	/* pairs with rcu_assign_pointer() in __list_add_rcu() */	\
	struct list_head *__lnonr_next =				\
		LRCU_DEREFERENCE_RAW(list_next_rcu(__lnonr_ptr));	\
	LRCU_LIKELY(__lnonr_next != __lnonr_head) ?				\
		list_entry(__lnonr_next, type, member) : NULL;		\
})

/*
 * Iterate over an RCU-protected list (inside a reader; or pass the
 * update-side lock condition as the optional cond).  pos is the entry
 * cursor.  Entries added concurrently may or may not be seen; an entry
 * deleted concurrently may be seen, and is valid until the reader ends.
 */
#define list_for_each_entry_rcu(pos, head, member, cond...)		\
	for (__rcu_list_checked(cond),					\
	     pos = list_entry_rcu((head)->next, __typeof__(*(pos)), member); \
	     &(pos)->member != (head);					\
	     pos = list_entry_rcu(__list_entry_member(pos, member)->next, __typeof__(*(pos)), member))

/* The same, without the reader check (for lockless data structures whose
 * entries are never freed, or protected by other means). */
#define list_for_each_entry_lockless(pos, head, member)			\
	for (pos = list_entry_rcu((head)->next, __typeof__(*(pos)), member); \
	     &(pos)->member != (head);					\
	     pos = list_entry_rcu(__list_entry_member(pos, member)->next, __typeof__(*(pos)), member))

/*
 * Resume a traversal after pos (not visited again).  pos must still be
 * valid: normally the same reader found it.
 */
#define list_for_each_entry_continue_rcu(pos, head, member)		\
	for (pos = list_entry_rcu(__list_entry_member(pos, member)->next, __typeof__(*(pos)), member); \
	     &(pos)->member != (head);					\
	     pos = list_entry_rcu(__list_entry_member(pos, member)->next, __typeof__(*(pos)), member))

/* Resume a traversal from pos (visited). */
#define list_for_each_entry_from_rcu(pos, head, member)			\
	for (; &(pos)->member != (head);				\
	     pos = list_entry_rcu(__list_entry_member(pos, member)->next, __typeof__(*(pos)), member))

/* ================================================================== */
/* struct hlist_head / hlist_node                                        */
/* ================================================================== */

/* The RCU-protected pointers of an hlist, as lvalues. */
#define hlist_first_rcu(head)	(*((struct hlist_node __rcu **)(&(head)->first)))
#define hlist_next_rcu(node)	(*((struct hlist_node __rcu **)(&(node)->next)))
/* What points at node: for updaters only (poisoned by hlist_del_rcu()). */
#define hlist_pprev_rcu(node)	(*((struct hlist_node __rcu **)((node)->pprev)))

/*
 * Unlink n while readers may be traversing; n->next stays valid for them,
 * n->pprev becomes LIST_POISON2, so hlist_unhashed(n) is false.
 */
static inline void hlist_del_rcu(struct hlist_node *n)
{
	__hlist_del(n);		/* release store of *pprev, in list.h */
	/* A link store (list.h); readers never follow ->pprev. */
	LRCU_WRITE_ONCE(n->pprev, (struct hlist_node **)LIST_POISON2);
}

/*
 * Unlink n if it is on a list, and mark it unhashed (pprev = NULL), so
 * that hlist_unhashed(n) tells whether it still has to be deleted.
 * n->next stays valid for readers standing on it.
 */
static inline void hlist_del_init_rcu(struct hlist_node *n)
{
	if (!hlist_unhashed(n)) {
		__hlist_del(n);
		/* pairs with LRCU_READ_ONCE() in hlist_unhashed_lockless() */
		LRCU_WRITE_ONCE(n->pprev, NULL);
	}
}

/* Put new in old's place while readers may be traversing. */
static inline void hlist_replace_rcu(struct hlist_node *old, struct hlist_node *entry_new)
{
	/* Publish new in old's link with release: pairs with the
	 * rcu_dereference() loads of hlist_for_each_entry_rcu(). */
	__hlist_link(entry_new, old->pprev, old->next, true);
	/* A link store (list.h); readers never follow ->pprev. */
	LRCU_WRITE_ONCE(old->pprev, (struct hlist_node **)LIST_POISON2);
}

/*
 * The insertions set n's links, then publish n with a release store
 * (rcu_assign_pointer()) into the link that makes it reachable: pairs
 * with the rcu_dereference() loads of hlist_for_each_entry_rcu() and
 * friends.  See __hlist_link() in list.h.
 */

/* Add n at the front of h while readers may be traversing. */
static inline void hlist_add_head_rcu(struct hlist_node *n, struct hlist_head *h)
{
	__hlist_link(n, &h->first, h->first, true);
}

/* Insert n before next (which is on a list) while readers traverse. */
static inline void hlist_add_before_rcu(struct hlist_node *n, struct hlist_node *next)
{
	__hlist_link(n, next->pprev, next, true);
}

/* Insert n after prev (which is on a list) while readers traverse. */
static inline void hlist_add_behind_rcu(struct hlist_node *n, struct hlist_node *prev)
{
	__hlist_link(n, &prev->next, prev->next, true);
}

/*
 * The pre-3.17 spelling of hlist_add_behind_rcu(): note the argument
 * order, existing node first.
 */
static inline void hlist_add_after_rcu(struct hlist_node *prev, struct hlist_node *n)
{
	hlist_add_behind_rcu(n, prev);
}

/* Add n at the end of h (walks h) while readers may be traversing. */
static inline void hlist_add_tail_rcu(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *last = NULL, *pos;

	for (pos = h->first; pos; pos = pos->next)
		last = pos;
	if (last)
		hlist_add_behind_rcu(n, last);
	else
		hlist_add_head_rcu(n, h);
}

/* Iterate over the nodes (struct hlist_node *pos) of an RCU hlist. */
#define __hlist_for_each_rcu(pos, head)					\
	for (pos = LRCU_DEREFERENCE(hlist_first_rcu(head));		\
	     pos;							\
	     pos = LRCU_DEREFERENCE(hlist_next_rcu(pos)))

/*
 * The entry (of pos's type) whose node the RCU-protected link `link'
 * points to, or NULL; the link is loaded with `deref', one of the
 * rcu_dereference*() family (internal).  The load pairs with the release
 * store that made the node reachable (__hlist_link() or an unlink).
 */
#define __hlist_entry_deref(link, pos, member, deref) \
	hlist_entry_safe(deref(link), __typeof__(*(pos)), member)
/* The entry after pos, loaded with deref (internal). */
#define __hlist_next_entry_deref(pos, member, deref) \
	__hlist_entry_deref(hlist_next_rcu(&(pos)->member), pos, member, deref)

/*
 * Iterate over an RCU-protected hlist (inside a reader; or pass the
 * update-side lock condition as the optional cond).  pos is the entry
 * cursor, NULL when the loop completes.
 */
#define hlist_for_each_entry_rcu(pos, head, member, cond...)		\
	for (__rcu_list_checked(cond),					\
	     pos = __hlist_entry_deref(hlist_first_rcu(head), pos, member, \
				       LRCU_DEREFERENCE_RAW);		\
	     pos;							\
	     pos = __hlist_next_entry_deref(pos, member, LRCU_DEREFERENCE_RAW))

/* For tracing code: no checking hooks at all. */
#define hlist_for_each_entry_rcu_notrace(pos, head, member)		\
	for (pos = __hlist_entry_deref(hlist_first_rcu(head), pos, member, \
				       LRCU_DEREFERENCE_RAW);	\
	     pos;							\
	     pos = __hlist_next_entry_deref(pos, member, LRCU_DEREFERENCE_RAW))

/* Inside rcu_read_lock_bh() (each load checked with rcu_dereference_bh()). */
#define hlist_for_each_entry_rcu_bh(pos, head, member)			\
	for (pos = __hlist_entry_deref(hlist_first_rcu(head), pos, member, \
				       LRCU_DEREFERENCE_BH);		\
	     pos;							\
	     pos = __hlist_next_entry_deref(pos, member, LRCU_DEREFERENCE_BH))

/* Resume after pos (not visited again); pos must still be valid. */
#define hlist_for_each_entry_continue_rcu(pos, member)			\
	for (pos = __hlist_next_entry_deref(pos, member, LRCU_DEREFERENCE_RAW); \
	     pos;							\
	     pos = __hlist_next_entry_deref(pos, member, LRCU_DEREFERENCE_RAW))

#define hlist_for_each_entry_continue_rcu_bh(pos, member)		\
	for (pos = __hlist_next_entry_deref(pos, member, LRCU_DEREFERENCE_BH); \
	     pos;							\
	     pos = __hlist_next_entry_deref(pos, member, LRCU_DEREFERENCE_BH))

/* Resume from pos (visited). */
#define hlist_for_each_entry_from_rcu(pos, member)			\
	for (; pos;							\
	     pos = __hlist_next_entry_deref(pos, member, LRCU_DEREFERENCE_RAW))

#ifdef __cplusplus
}
#endif

#endif /* RCU_RCULIST_H */
