/* SPDX-License-Identifier: MIT */
/*
 * rcu/list.h - the Linux kernel's intrusive lists, for userspace.
 *
 * The plain (non-RCU) list types and primitives that <rcu/rculist.h>,
 * <rcu/rculist_nulls.h> and <rcu/rculist_bl.h> build on, with the kernel's
 * names and semantics:
 *
 *   struct list_head         circular doubly linked list with a head node
 *   struct hlist_head/node   NULL-terminated list with a one-pointer head
 *                            (hash buckets); ->pprev points at whichever
 *                            pointer points at the node
 *   struct hlist_nulls_*     hlist whose end marker is an odd "nulls"
 *                            value that says which list it ends (see
 *                            INIT_HLIST_NULLS_HEAD())
 *   struct hlist_bl_*        hlist whose head pointer carries a spin lock
 *                            in bit 0 (hlist_bl_lock()/hlist_bl_unlock())
 *
 * Every primitive needs mutual exclusion between updaters (a lock or a
 * single updater); the RCU headers add the variants that may run while
 * readers traverse.
 *
 * Link stores
 *   Every store of a ->next, ->prev, ->pprev or ->first link is a
 *   LRCU_WRITE_ONCE() (relaxed, untorn) or a release store, because lockless
 *   code may load the same link at the same time: the rcu_dereference()
 *   loads of the _rcu traversals, and LRCU_READ_ONCE() in list_empty(),
 *   hlist_empty(), hlist_unhashed_lockless() and friends.  Plain stores
 *   would be data races (and are reported as such by ThreadSanitizer).
 *   LRCU_WRITE_ONCE() orders nothing; the stores that make a node reachable to
 *   a reader - publication in the _rcu adds, and the unlink store of every
 *   deletion, __list_link_release() - are release stores, and pair with
 *   those rcu_dereference() loads.  "link store" in a comment below means
 *   a LRCU_WRITE_ONCE() of this kind.
 *
 * Poison
 *   Deleting a node stores LIST_POISON1 in its forward and LIST_POISON2 in
 *   its back pointer (the _rcu deletions poison only the back pointer,
 *   since readers may still follow the forward one).  Both are small
 *   addresses in the first page, which is never mapped, so a use after
 *   deletion (deleting twice, or a reader using ->prev/->pprev) faults at a
 *   recognisable address (0x100/0x108 or 0x122/0x12a...) instead of
 *   silently corrupting another list.
 *
 * Debugging
 *   Build with -DCONFIG_DEBUG_LIST (implied by -DLRCU_DEBUG, i.e. by
 *   `make DEBUG=1`) to check the neighbours on every add and delete and
 *   abort with a "list_add corruption"/"list_del corruption" report.
 */
#ifndef RCU_LIST_H
#define RCU_LIST_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rcu/compiler.h>

#if defined(LRCU_DEBUG) && !defined(CONFIG_DEBUG_LIST)
#define CONFIG_DEBUG_LIST 1
#endif

#ifdef CONFIG_DEBUG_LIST
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Non-dereferenceable markers for the links of deleted nodes (see above). */
#ifndef LIST_POISON1
#define LIST_POISON1	((void *)0x100)
#endif
#ifndef LIST_POISON2
#define LIST_POISON2	((void *)0x122)
#endif

/*
 * Forward-link store of an unlink, e.g. prev->next = next when the node in
 * between goes away.  A release store: an RCU reader that loads the new
 * link with rcu_dereference() (list_for_each_entry_rcu() and friends) is
 * then ordered after everything the updater saw of *next, including its
 * initialisation.  (The kernel gets this from address dependencies; C11
 * only promises it when the link is published with release.)
 */
#define __list_link_release(p, v)	LRCU_STORE_RELEASE(&(p), (v))

#ifdef CONFIG_DEBUG_LIST
__attribute__((format(printf, 1, 2), noreturn))
static inline void __list_corruption(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
#define __LIST_CHECK(cond, ...) do {					\
	if (LRCU_UNLIKELY(!(cond)))						\
		__list_corruption(__VA_ARGS__);				\
} while (0)
#else
#define __LIST_CHECK(cond, ...)	do { } while (0)
#endif

/* ================================================================== */
/* struct list_head: circular doubly linked list                        */
/* ================================================================== */

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	/* Relaxed: a head being initialised is not yet visible, but keep the
	 * stores atomic like every other link store in this file. */
	LRCU_WRITE_ONCE(list->next, list);
	LRCU_WRITE_ONCE(list->prev, list);
}

static inline void __list_check_add(struct list_head *entry_new,
				    struct list_head *prev,
				    struct list_head *next)
{
	__LIST_CHECK(next->prev == prev,
		     "list_add corruption: next->prev should be prev (%p), but was %p (next=%p)",
		     (void *)prev, (void *)next->prev, (void *)next);
	__LIST_CHECK(prev->next == next,
		     "list_add corruption: prev->next should be next (%p), but was %p (prev=%p)",
		     (void *)next, (void *)prev->next, (void *)prev);
	__LIST_CHECK(entry_new != prev && entry_new != next,
		     "list_add double add: new=%p, prev=%p, next=%p",
		     (void *)entry_new, (void *)prev, (void *)next);
	(void)entry_new; (void)prev; (void)next;
}

static inline void __list_check_del(struct list_head *entry)
{
	__LIST_CHECK(entry->next != LIST_POISON1,
		     "list_del corruption: %p->next is LIST_POISON1 (%p)",
		     (void *)entry, LIST_POISON1);
	__LIST_CHECK(entry->prev != LIST_POISON2,
		     "list_del corruption: %p->prev is LIST_POISON2 (%p)",
		     (void *)entry, LIST_POISON2);
	__LIST_CHECK(entry->prev->next == entry,
		     "list_del corruption: prev->next should be %p, but was %p",
		     (void *)entry, (void *)entry->prev->next);
	__LIST_CHECK(entry->next->prev == entry,
		     "list_del corruption: next->prev should be %p, but was %p",
		     (void *)entry, (void *)entry->next->prev);
	(void)entry;
}

/* Link new between two consecutive nodes (internal). */
static inline void __list_add(struct list_head *entry_new, struct list_head *prev,
			      struct list_head *next)
{
	__list_check_add(entry_new, prev, next);
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(next->prev, entry_new);
	LRCU_WRITE_ONCE(entry_new->next, next);
	LRCU_WRITE_ONCE(entry_new->prev, prev);
	LRCU_WRITE_ONCE(prev->next, entry_new);
}

/* Insert new right after head (stack order). */
static inline void list_add(struct list_head *entry_new, struct list_head *head)
{
	__list_add(entry_new, head, head->next);
}

/* Insert new right before head, i.e. at the tail (queue order). */
static inline void list_add_tail(struct list_head *entry_new, struct list_head *head)
{
	__list_add(entry_new, head->prev, head);
}

/* Join prev and next, dropping whatever was between them (internal). */
static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	LRCU_WRITE_ONCE(next->prev, prev);	/* readers never follow ->prev */
	/* Release: pairs with rcu_dereference() in the _rcu traversals when
	 * called from list_del_rcu(); see __list_link_release(). */
	__list_link_release(prev->next, next);
}

/* Unlink entry; leave its own links alone (internal). */
static inline void __list_del_entry(struct list_head *entry)
{
	__list_check_del(entry);
	__list_del(entry->prev, entry->next);
}

/* Unlink entry and poison it: list_empty(entry) is not true afterwards. */
static inline void list_del(struct list_head *entry)
{
	__list_del_entry(entry);
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(entry->next, (struct list_head *)LIST_POISON1);
	LRCU_WRITE_ONCE(entry->prev, (struct list_head *)LIST_POISON2);
}

/* Unlink entry and make it an empty list of its own. */
static inline void list_del_init(struct list_head *entry)
{
	__list_del_entry(entry);
	INIT_LIST_HEAD(entry);
}

/* Put new where old is; old's links are left stale. */
static inline void list_replace(struct list_head *old, struct list_head *entry_new)
{
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(entry_new->next, old->next);
	LRCU_WRITE_ONCE(entry_new->next->prev, entry_new);
	LRCU_WRITE_ONCE(entry_new->prev, old->prev);
	LRCU_WRITE_ONCE(entry_new->prev->next, entry_new);
}

static inline void list_replace_init(struct list_head *old, struct list_head *entry_new)
{
	list_replace(old, entry_new);
	INIT_LIST_HEAD(old);
}

/* Exchange the positions of two entries (same or different lists). */
static inline void list_swap(struct list_head *entry1, struct list_head *entry2)
{
	struct list_head *pos = entry2->prev;

	list_del(entry2);
	list_replace(entry1, entry2);
	if (pos == entry1)
		pos = entry2;
	list_add(entry1, pos);
}

/* Move entry to just after head (from whatever list it is on). */
static inline void list_move(struct list_head *entry, struct list_head *head)
{
	__list_del_entry(entry);
	list_add(entry, head);
}

/* Move entry to the tail of head's list. */
static inline void list_move_tail(struct list_head *entry, struct list_head *head)
{
	__list_del_entry(entry);
	list_add_tail(entry, head);
}

/* Move the run first..last (in that order, on one list) to head's tail. */
static inline void list_bulk_move_tail(struct list_head *head,
				       struct list_head *first,
				       struct list_head *last)
{
	struct list_head *before = first->prev, *after = last->next;

	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(before->next, after);
	LRCU_WRITE_ONCE(after->prev, before);

	LRCU_WRITE_ONCE(first->prev, head->prev);
	LRCU_WRITE_ONCE(head->prev->next, first);
	LRCU_WRITE_ONCE(last->next, head);
	LRCU_WRITE_ONCE(head->prev, last);
}

static inline bool list_is_first(const struct list_head *entry,
				 const struct list_head *head)
{
	return entry->prev == head;
}

static inline bool list_is_last(const struct list_head *entry,
				const struct list_head *head)
{
	return entry->next == head;
}

static inline bool list_is_head(const struct list_head *entry,
				const struct list_head *head)
{
	return entry == head;
}

/*
 * Empty?  Only compares head->next with head, never dereferences it, so it
 * is also the RCU readers' test (there is no list_empty_rcu()).
 */
static inline bool list_empty(const struct list_head *head)
{
	/* Relaxed, single load; may race with updaters. */
	return LRCU_READ_ONCE(head->next) == head;
}

/*
 * list_del_init() whose last store is a release of entry->next, so that
 * another thread that sees list_empty_careful(entry) also sees everything
 * done to the entry before (the wait-queue idiom).
 */
static inline void list_del_init_careful(struct list_head *entry)
{
	__list_del_entry(entry);
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(entry->prev, entry);
	/* Release pairs with the acquire in list_empty_careful(). */
	LRCU_STORE_RELEASE(&entry->next, entry);
}

/*
 * Empty, and not half-way through a deletion by another thread (both
 * links point back at head)?  Without a lock this is only meaningful
 * against list_del_init_careful().
 */
static inline bool list_empty_careful(const struct list_head *head)
{
	/* Acquire pairs with the release in list_del_init_careful(); it also
	 * keeps the ->prev load after the ->next load. */
	struct list_head *next = LRCU_LOAD_ACQUIRE(&((struct list_head *)head)->next);

	return next == head && next == LRCU_READ_ONCE(head->prev);
}

/* Move the first entry to the tail. */
static inline void list_rotate_left(struct list_head *head)
{
	if (!list_empty(head))
		list_move_tail(head->next, head);
}

/* Rotate so that entry becomes the first one. */
static inline void list_rotate_to_front(struct list_head *entry,
					struct list_head *head)
{
	list_move_tail(head, entry);
}

/* Exactly one entry? */
static inline bool list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
}

static inline void __list_cut_position(struct list_head *list,
				       struct list_head *head,
				       struct list_head *entry)
{
	struct list_head *new_first = entry->next;

	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(list->next, head->next);
	LRCU_WRITE_ONCE(list->next->prev, list);
	LRCU_WRITE_ONCE(list->prev, entry);
	LRCU_WRITE_ONCE(entry->next, list);
	LRCU_WRITE_ONCE(head->next, new_first);
	LRCU_WRITE_ONCE(new_first->prev, head);
}

/*
 * Move head's entries up to and including entry onto list (whose old
 * contents are dropped: pass an empty list).  entry == head moves nothing.
 */
static inline void list_cut_position(struct list_head *list,
				     struct list_head *head,
				     struct list_head *entry)
{
	if (list_empty(head))
		return;
	if (list_is_singular(head) && head->next != entry && head != entry)
		return;
	if (entry == head)
		INIT_LIST_HEAD(list);
	else
		__list_cut_position(list, head, entry);
}

/* Move head's entries before entry (excluded) onto list. */
static inline void list_cut_before(struct list_head *list,
				   struct list_head *head,
				   struct list_head *entry)
{
	if (head->next == entry) {
		INIT_LIST_HEAD(list);
		return;
	}
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(list->next, head->next);
	LRCU_WRITE_ONCE(list->next->prev, list);
	LRCU_WRITE_ONCE(list->prev, entry->prev);
	LRCU_WRITE_ONCE(list->prev->next, list);
	LRCU_WRITE_ONCE(head->next, entry);
	LRCU_WRITE_ONCE(entry->prev, head);
}

/* Insert the entries of non-empty list between prev and next (internal). */
static inline void __list_splice(const struct list_head *list,
				 struct list_head *prev,
				 struct list_head *next)
{
	struct list_head *first = list->next, *last = list->prev;

	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(first->prev, prev);
	LRCU_WRITE_ONCE(prev->next, first);
	LRCU_WRITE_ONCE(last->next, next);
	LRCU_WRITE_ONCE(next->prev, last);
}

/* Join list's entries at the front of head (list itself is left stale). */
static inline void list_splice(const struct list_head *list, struct list_head *head)
{
	if (!list_empty(list))
		__list_splice(list, head, head->next);
}

/* Join list's entries at the tail of head (list is left stale). */
static inline void list_splice_tail(struct list_head *list, struct list_head *head)
{
	if (!list_empty(list))
		__list_splice(list, head->prev, head);
}

/* list_splice(), then reinitialise list to empty. */
static inline void list_splice_init(struct list_head *list, struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head, head->next);
		INIT_LIST_HEAD(list);
	}
}

/* list_splice_tail(), then reinitialise list to empty. */
static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head->prev, head);
		INIT_LIST_HEAD(list);
	}
}

/* Number of entries (walks the list). */
static inline size_t list_count_nodes(const struct list_head *head)
{
	const struct list_head *pos;
	size_t n = 0;

	for (pos = head->next; pos != head; pos = pos->next)
		n++;
	return n;
}

/* The structure of type `type' whose `member' is the list_head at ptr. */
#define list_entry(ptr, type, member)	LRCU_CONTAINER_OF(ptr, type, member)
#define list_first_entry(ptr, type, member) \
	list_entry((ptr)->next, type, member)
#define list_last_entry(ptr, type, member) \
	list_entry((ptr)->prev, type, member)
#define list_first_entry_or_null(ptr, type, member) ({			\
	struct list_head *__lfeon_head = (ptr);				\
	struct list_head *__lfeon_pos = LRCU_READ_ONCE(__lfeon_head->next);	\
	__lfeon_pos != __lfeon_head ?					\
		list_entry(__lfeon_pos, type, member) : NULL;		\
})
/*
 * &pos->member without an access through *pos: pos may be the fake entry
 * that list_prepare_entry() makes of a list head, which GCC's
 * -Warray-bounds would flag when the head is a visible object.
 */
#define __list_entry_member(pos, member)				\
	((struct list_head *)(void *)((char *)(pos) +			\
				      offsetof(__typeof__(*(pos)), member)))
#define list_next_entry(pos, member) \
	list_entry(__list_entry_member(pos, member)->next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member) \
	list_entry(__list_entry_member(pos, member)->prev, __typeof__(*(pos)), member)
/* Is pos the (fake) entry that LRCU_CONTAINER_OF() makes of the head? */
#define list_entry_is_head(pos, head, member)	(&(pos)->member == (head))

#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_prev(pos, head) \
	for (pos = (head)->prev; pos != (head); pos = pos->prev)
/* _safe: pos may be deleted in the body (n holds the next one). */
#define list_for_each_safe(pos, n, head)				\
	for (pos = (head)->next, n = pos->next; pos != (head);		\
	     pos = n, n = pos->next)
#define list_for_each_prev_safe(pos, n, head)				\
	for (pos = (head)->prev, n = pos->prev; pos != (head);		\
	     pos = n, n = pos->prev)

#define list_for_each_entry(pos, head, member)				\
	for (pos = list_first_entry(head, __typeof__(*(pos)), member);	\
	     !list_entry_is_head(pos, head, member);			\
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_reverse(pos, head, member)			\
	for (pos = list_last_entry(head, __typeof__(*(pos)), member);	\
	     !list_entry_is_head(pos, head, member);			\
	     pos = list_prev_entry(pos, member))
/* A start value for list_for_each_entry_continue(): pos, or the head. */
#define list_prepare_entry(pos, head, member) \
	((pos) ? : list_entry(head, __typeof__(*(pos)), member))
/* Continue after pos (pos itself is not visited again). */
#define list_for_each_entry_continue(pos, head, member)			\
	for (pos = list_next_entry(pos, member);			\
	     !list_entry_is_head(pos, head, member);			\
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_continue_reverse(pos, head, member)		\
	for (pos = list_prev_entry(pos, member);			\
	     !list_entry_is_head(pos, head, member);			\
	     pos = list_prev_entry(pos, member))
/* Continue from pos (pos is visited). */
#define list_for_each_entry_from(pos, head, member)			\
	for (; !list_entry_is_head(pos, head, member);			\
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_from_reverse(pos, head, member)		\
	for (; !list_entry_is_head(pos, head, member);			\
	     pos = list_prev_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_first_entry(head, __typeof__(*(pos)), member),	\
	     n = list_next_entry(pos, member);				\
	     !list_entry_is_head(pos, head, member);			\
	     pos = n, n = list_next_entry(n, member))
#define list_for_each_entry_safe_continue(pos, n, head, member)		\
	for (pos = list_next_entry(pos, member),			\
	     n = list_next_entry(pos, member);				\
	     !list_entry_is_head(pos, head, member);			\
	     pos = n, n = list_next_entry(n, member))
#define list_for_each_entry_safe_from(pos, n, head, member)		\
	for (n = list_next_entry(pos, member);				\
	     !list_entry_is_head(pos, head, member);			\
	     pos = n, n = list_next_entry(n, member))
#define list_for_each_entry_safe_reverse(pos, n, head, member)		\
	for (pos = list_last_entry(head, __typeof__(*(pos)), member),	\
	     n = list_prev_entry(pos, member);				\
	     !list_entry_is_head(pos, head, member);			\
	     pos = n, n = list_prev_entry(n, member))
/* Re-read n after the body dropped a lock and the list may have changed. */
#define list_safe_reset_next(pos, n, member) \
	n = list_next_entry(pos, member)

/* ================================================================== */
/* struct hlist_head/hlist_node: NULL-terminated, one-pointer heads     */
/* ================================================================== */

struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct hlist_head {
	struct hlist_node *first;
};

#define HLIST_HEAD_INIT		{ .first = NULL }
#define HLIST_HEAD(name)	struct hlist_head name = HLIST_HEAD_INIT
/* A link store (see "Link stores" above). */
#define INIT_HLIST_HEAD(ptr)	LRCU_WRITE_ONCE((ptr)->first, (struct hlist_node *)NULL)

static inline void INIT_HLIST_NODE(struct hlist_node *h)
{
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(h->next, NULL);
	LRCU_WRITE_ONCE(h->pprev, NULL);
}

/* Not on any list (never added, or removed with an _init deletion)? */
static inline bool hlist_unhashed(const struct hlist_node *h)
{
	return !h->pprev;
}

/* hlist_unhashed() for callers that do not hold the update-side lock. */
static inline bool hlist_unhashed_lockless(const struct hlist_node *h)
{
	return !LRCU_READ_ONCE(h->pprev);	/* pairs with the LRCU_WRITE_ONCE()s of ->pprev */
}

static inline bool hlist_empty(const struct hlist_head *h)
{
	return !LRCU_READ_ONCE(h->first);	/* lockless emptiness test, as list_empty() */
}

/* Unlink n; leave its own links alone (internal). */
static inline void __hlist_del(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	__LIST_CHECK(pprev != LIST_POISON2,
		     "hlist_del corruption: %p->pprev is LIST_POISON2 (%p)",
		     (void *)n, LIST_POISON2);
	/* Release: pairs with rcu_dereference() in hlist_for_each_entry_rcu()
	 * when called from hlist_del_rcu(); see __list_link_release(). */
	__list_link_release(*pprev, next);
	if (next)
		LRCU_WRITE_ONCE(next->pprev, pprev);
}

/* Unlink and poison n. */
static inline void hlist_del(struct hlist_node *n)
{
	__hlist_del(n);
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(n->next, (struct hlist_node *)LIST_POISON1);
	LRCU_WRITE_ONCE(n->pprev, (struct hlist_node **)LIST_POISON2);
}

/* Unlink n if it is on a list, and make it unhashed. */
static inline void hlist_del_init(struct hlist_node *n)
{
	if (!hlist_unhashed(n)) {
		__hlist_del(n);
		INIT_HLIST_NODE(n);
	}
}

/*
 * Put n into the link *pprev (a head's ->first or a node's ->next), in
 * front of next (NULL at the end) - the one step behind every hlist
 * insertion (internal).  n's own links are set first; the store into
 * *pprev, which makes n reachable, is relaxed for the plain lists
 * (release false), a release store (an rcu_assign_pointer()) for the
 * _rcu ones, where it pairs with the rcu_dereference() loads of
 * hlist_for_each_entry_rcu() and friends.
 */
static inline void __hlist_link(struct hlist_node *n, struct hlist_node **pprev,
				struct hlist_node *next, bool release)
{
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(n->next, next);
	LRCU_WRITE_ONCE(n->pprev, pprev);
	if (release)
		LRCU_STORE_RELEASE(pprev, n);	/* see above */
	else
		LRCU_WRITE_ONCE(*pprev, n);
	if (next)
		LRCU_WRITE_ONCE(next->pprev, &n->next);	/* readers never follow ->pprev */
}

static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	__hlist_link(n, &h->first, h->first, false);
}

/* Insert n before next, which must be on a list. */
static inline void hlist_add_before(struct hlist_node *n, struct hlist_node *next)
{
	__hlist_link(n, next->pprev, next, false);
}

/* Insert n after prev, which must be on a list. */
static inline void hlist_add_behind(struct hlist_node *n, struct hlist_node *prev)
{
	__hlist_link(n, &prev->next, prev->next, false);
}

/*
 * The pre-3.17 spelling: hlist_add_after(n, next) inserts next after n.
 * Note the argument order, the reverse of hlist_add_behind().
 */
static inline void hlist_add_after(struct hlist_node *n, struct hlist_node *next)
{
	hlist_add_behind(next, n);
}

/* Make n look hashed (pprev to itself) without putting it on any list. */
static inline void hlist_add_fake(struct hlist_node *n)
{
	n->pprev = &n->next;
}

static inline bool hlist_fake(struct hlist_node *h)
{
	return h->pprev == &h->next;
}

/* Is n the only node of h?  (Cheap: does not walk the list.) */
static inline bool hlist_is_singular_node(struct hlist_node *n, struct hlist_head *h)
{
	return !n->next && n->pprev == &h->first;
}

/* Move the whole list from old to `to` (to's old contents are dropped). */
static inline void hlist_move_list(struct hlist_head *old, struct hlist_head *to)
{
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(to->first, old->first);
	if (to->first)
		LRCU_WRITE_ONCE(to->first->pprev, &to->first);
	LRCU_WRITE_ONCE(old->first, NULL);
}

#define hlist_entry(ptr, type, member)	LRCU_CONTAINER_OF(ptr, type, member)
/* hlist_entry() that maps NULL to NULL. */
#define hlist_entry_safe(ptr, type, member) ({				\
	__typeof__(ptr) __hes_ptr = (ptr);				\
	__hes_ptr ? hlist_entry(__hes_ptr, type, member) : NULL;	\
})

#define hlist_for_each(pos, head) \
	for (pos = (head)->first; pos; pos = pos->next)
#define hlist_for_each_safe(pos, n, head)				\
	for (pos = (head)->first; pos && ({ n = pos->next; 1; });	\
	     pos = n)
#define hlist_for_each_entry(pos, head, member)				\
	for (pos = hlist_entry_safe((head)->first, __typeof__(*(pos)), member); \
	     pos;							\
	     pos = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member))
/* Continue after pos. */
#define hlist_for_each_entry_continue(pos, member)			\
	for (pos = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member); \
	     pos;							\
	     pos = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member))
/* Continue from pos (visited). */
#define hlist_for_each_entry_from(pos, member)				\
	for (; pos;							\
	     pos = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member))
/* pos may be deleted in the body; n is a struct hlist_node * cursor. */
#define hlist_for_each_entry_safe(pos, n, head, member)			\
	for (pos = hlist_entry_safe((head)->first, __typeof__(*pos), member); \
	     pos && ({ n = pos->member.next; 1; });			\
	     pos = hlist_entry_safe(n, __typeof__(*pos), member))

/* ================================================================== */
/* hlist_nulls: hlists ending in a per-list "nulls" marker               */
/* ================================================================== */
/*
 * The end of an hlist_nulls list is not NULL but an odd value
 * NULLS_MARKER(v) = (v << 1) | 1 that no node can have (nodes are at
 * least 2-byte aligned).  is_a_nulls() recognises it, get_nulls_value()
 * gives v back.  Giving each hash bucket its own v (usually its index)
 * lets a lockless reader tell, on reaching the end, whether it ended on
 * the list it started on: with type-stable (SLAB_DESTROY_BY_RCU-style)
 * objects a node may be freed, reused and moved to another list while a
 * reader stands on it.  See <rcu/rculist_nulls.h>.
 */
struct hlist_nulls_head {
	struct hlist_nulls_node *first;
};

struct hlist_nulls_node {
	struct hlist_nulls_node *next, **pprev;
};

#define NULLS_MARKER(value)	(1UL | (((unsigned long)(value)) << 1))
/* A link store (see "Link stores" above). */
#define INIT_HLIST_NULLS_HEAD(ptr, nulls) \
	LRCU_WRITE_ONCE((ptr)->first, (struct hlist_nulls_node *)NULLS_MARKER(nulls))

#define hlist_nulls_entry(ptr, type, member)	LRCU_CONTAINER_OF(ptr, type, member)
/* hlist_nulls_entry() that maps a nulls marker to NULL. */
#define hlist_nulls_entry_safe(ptr, type, member) ({			\
	__typeof__(ptr) __hnes_ptr = (ptr);				\
	!is_a_nulls(__hnes_ptr) ?					\
		hlist_nulls_entry(__hnes_ptr, type, member) : NULL;	\
})

/* Is ptr an end marker rather than a node? */
static inline int is_a_nulls(const struct hlist_nulls_node *ptr)
{
	return ((uintptr_t)ptr & 1) != 0;
}

/* The value an end marker was made from (INIT_HLIST_NULLS_HEAD()). */
static inline unsigned long get_nulls_value(const struct hlist_nulls_node *ptr)
{
	return (uintptr_t)ptr >> 1;
}

static inline bool hlist_nulls_unhashed(const struct hlist_nulls_node *h)
{
	return !h->pprev;
}

static inline bool hlist_nulls_unhashed_lockless(const struct hlist_nulls_node *h)
{
	return !LRCU_READ_ONCE(h->pprev);	/* pairs with the LRCU_WRITE_ONCE()s of ->pprev */
}

static inline bool hlist_nulls_empty(const struct hlist_nulls_head *h)
{
	return is_a_nulls(LRCU_READ_ONCE(h->first));	/* lockless, as list_empty() */
}

static inline void hlist_nulls_add_head(struct hlist_nulls_node *n,
					struct hlist_nulls_head *h)
{
	struct hlist_nulls_node *first = h->first;

	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(n->next, first);
	LRCU_WRITE_ONCE(n->pprev, &h->first);
	LRCU_WRITE_ONCE(h->first, n);
	if (!is_a_nulls(first))
		LRCU_WRITE_ONCE(first->pprev, &n->next);
}

/* Unlink n; leave its own links alone (internal). */
static inline void __hlist_nulls_del(struct hlist_nulls_node *n)
{
	struct hlist_nulls_node *next = n->next;
	struct hlist_nulls_node **pprev = n->pprev;

	__LIST_CHECK(pprev != LIST_POISON2,
		     "hlist_nulls_del corruption: %p->pprev is LIST_POISON2 (%p)",
		     (void *)n, LIST_POISON2);
	/* Release: pairs with rcu_dereference_raw() in
	 * hlist_nulls_for_each_entry_rcu() when called from
	 * hlist_nulls_del_rcu(); see __list_link_release(). */
	__list_link_release(*pprev, next);
	if (!is_a_nulls(next))
		LRCU_WRITE_ONCE(next->pprev, pprev);
}

static inline void hlist_nulls_del(struct hlist_nulls_node *n)
{
	__hlist_nulls_del(n);
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(n->next, (struct hlist_nulls_node *)LIST_POISON1);
	LRCU_WRITE_ONCE(n->pprev, (struct hlist_nulls_node **)LIST_POISON2);
}

/* tpos: the entry; pos: the struct hlist_nulls_node * cursor, which is
 * the end marker when the loop completes. */
#define hlist_nulls_for_each_entry(tpos, pos, head, member)		\
	for (pos = (head)->first;					\
	     !is_a_nulls(pos) &&					\
		({ tpos = hlist_nulls_entry(pos, __typeof__(*tpos), member); 1; }); \
	     pos = pos->next)
/* Continue from pos (visited). */
#define hlist_nulls_for_each_entry_from(tpos, pos, member)		\
	for (; !is_a_nulls(pos) &&					\
		({ tpos = hlist_nulls_entry(pos, __typeof__(*tpos), member); 1; }); \
	     pos = pos->next)

/* ================================================================== */
/* hlist_bl: hlists with a bit spin lock in the head pointer             */
/* ================================================================== */
/*
 * Bit 0 of head->first is a spin lock (nodes are at least 2-byte aligned,
 * so the bit is free).  Every update of a bucket happens with its lock
 * held; RCU readers (<rcu/rculist_bl.h>) traverse without it.  Every
 * access to head->first is atomic, since lockers set the bit with an
 * atomic read-modify-write at any time.
 */
struct hlist_bl_head {
	struct hlist_bl_node *first;
};

struct hlist_bl_node {
	struct hlist_bl_node *next, **pprev;
};

#define LIST_BL_LOCKMASK	1UL

#ifdef CONFIG_DEBUG_LIST
#define LIST_BL_BUG_ON(x)	__LIST_CHECK(!(x), "hlist_bl: BUG_ON(%s)", #x)
#else
#define LIST_BL_BUG_ON(x)	do { (void)sizeof(x); } while (0)
#endif

/* The head word as an integer, for the lock bit.  may_alias: the same
 * object is also accessed as a struct hlist_bl_node *. */
typedef uintptr_t __attribute__((__may_alias__)) __hlist_bl_word_t;

static inline __hlist_bl_word_t *__hlist_bl_word(const struct hlist_bl_head *h)
{
	return (__hlist_bl_word_t *)(void *)&((struct hlist_bl_head *)h)->first;
}

/* A link store (see "Link stores" above). */
#define INIT_HLIST_BL_HEAD(ptr) \
	LRCU_WRITE_ONCE((ptr)->first, (struct hlist_bl_node *)NULL)

static inline void INIT_HLIST_BL_NODE(struct hlist_bl_node *h)
{
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(h->next, NULL);
	LRCU_WRITE_ONCE(h->pprev, NULL);
}

#define hlist_bl_entry(ptr, type, member)	LRCU_CONTAINER_OF(ptr, type, member)

static inline bool hlist_bl_unhashed(const struct hlist_bl_node *h)
{
	return !h->pprev;
}

/* First node, lock bit masked off.  Update side (lock held). */
static inline struct hlist_bl_node *hlist_bl_first(struct hlist_bl_head *h)
{
	/* Atomic: lockers may RMW the word concurrently; the lock holder's
	 * own updates are ordered by the lock. */
	return (struct hlist_bl_node *)(LRCU_READ_ONCE(*__hlist_bl_word(h)) &
					~LIST_BL_LOCKMASK);
}

/* Set the first node, keeping the lock bit (which must be held). */
static inline void hlist_bl_set_first(struct hlist_bl_head *h,
				      struct hlist_bl_node *n)
{
	LIST_BL_BUG_ON((uintptr_t)n & LIST_BL_LOCKMASK);
	LIST_BL_BUG_ON(!(LRCU_READ_ONCE(*__hlist_bl_word(h)) & LIST_BL_LOCKMASK));
	/* Relaxed: the non-RCU variant; hlist_bl_set_first_rcu() releases. */
	LRCU_WRITE_ONCE(h->first, (struct hlist_bl_node *)((uintptr_t)n | LIST_BL_LOCKMASK));
}

static inline bool hlist_bl_empty(const struct hlist_bl_head *h)
{
	/* Lockless emptiness test, as list_empty(). */
	return !(LRCU_READ_ONCE(*__hlist_bl_word(h)) & ~LIST_BL_LOCKMASK);
}

/* Link n in front of h's first node, all but the head store (internal;
 * the caller publishes n with hlist_bl_set_first*()). */
static inline void __hlist_bl_link_head(struct hlist_bl_node *n,
					struct hlist_bl_head *h)
{
	struct hlist_bl_node *first = hlist_bl_first(h);

	/* Relaxed: n is not reachable until the head store. */
	LRCU_WRITE_ONCE(n->next, first);
	if (first)
		LRCU_WRITE_ONCE(first->pprev, &n->next);
	LRCU_WRITE_ONCE(n->pprev, &h->first);
}

static inline void hlist_bl_add_head(struct hlist_bl_node *n,
				     struct hlist_bl_head *h)
{
	__hlist_bl_link_head(n, h);
	hlist_bl_set_first(h, n);
}

/*
 * Store p (a pointer that may be the head word) as *pprev, keeping
 * whatever lock bit *pprev has.  Release, like every unlink store; see
 * __list_link_release().
 */
static inline void __hlist_bl_store_keep_lock(struct hlist_bl_node **pprev,
					      struct hlist_bl_node *p,
					      bool release)
{
	__hlist_bl_word_t *w = (__hlist_bl_word_t *)(void *)pprev;
	/* Relaxed load: only the lock holder changes the pointer bits, and
	 * only it can clear the lock bit; lockers' RMWs leave it set. */
	uintptr_t lock = LRCU_READ_ONCE(*w) & LIST_BL_LOCKMASK;

	if (release)
		LRCU_STORE_RELEASE(w, (uintptr_t)p | lock);	/* see above */
	else
		LRCU_WRITE_ONCE(*w, (uintptr_t)p | lock);
}

/* Insert n before next (lock held). */
static inline void hlist_bl_add_before(struct hlist_bl_node *n,
				       struct hlist_bl_node *next)
{
	struct hlist_bl_node **pprev = next->pprev;

	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(n->pprev, pprev);
	LRCU_WRITE_ONCE(n->next, next);
	LRCU_WRITE_ONCE(next->pprev, &n->next);
	/* pprev may be the head word: keep the lock bit. */
	__hlist_bl_store_keep_lock(pprev, n, false);
}

/* Insert n after prev (lock held). */
static inline void hlist_bl_add_behind(struct hlist_bl_node *n,
				       struct hlist_bl_node *prev)
{
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(n->next, prev->next);
	LRCU_WRITE_ONCE(n->pprev, &prev->next);
	LRCU_WRITE_ONCE(prev->next, n);
	if (n->next)
		LRCU_WRITE_ONCE(n->next->pprev, &n->next);
}

/* Unlink n; leave its own links alone (internal; lock held). */
static inline void __hlist_bl_del(struct hlist_bl_node *n)
{
	struct hlist_bl_node *next = n->next;
	struct hlist_bl_node **pprev = n->pprev;

	LIST_BL_BUG_ON((uintptr_t)n & LIST_BL_LOCKMASK);
	LIST_BL_BUG_ON(pprev == LIST_POISON2);
	/* pprev may be the head word: keep the lock bit.  Release pairs with
	 * rcu_dereference_raw() in hlist_bl_for_each_entry_rcu() when called
	 * from hlist_bl_del_rcu(); see __list_link_release(). */
	__hlist_bl_store_keep_lock(pprev, next, true);
	if (next)
		LRCU_WRITE_ONCE(next->pprev, pprev);
}

static inline void hlist_bl_del(struct hlist_bl_node *n)
{
	__hlist_bl_del(n);
	/* link stores (see "Link stores" above) */
	LRCU_WRITE_ONCE(n->next, (struct hlist_bl_node *)LIST_POISON1);
	LRCU_WRITE_ONCE(n->pprev, (struct hlist_bl_node **)LIST_POISON2);
}

static inline void hlist_bl_del_init(struct hlist_bl_node *n)
{
	if (!hlist_bl_unhashed(n)) {
		__hlist_bl_del(n);
		INIT_HLIST_BL_NODE(n);
	}
}

/* Spin politely: a pause, and after a while give the CPU away so that a
 * preempted lock holder can run when threads outnumber cores. */
static inline void __hlist_bl_relax(unsigned int *spins)
{
	if (++*spins % 64 == 0) {
		sched_yield();
		return;
	}
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	LRCU_BARRIER();
#endif
}

/* Take the bucket's bit lock, spinning until it is free. */
static inline void hlist_bl_lock(struct hlist_bl_head *b)
{
	__hlist_bl_word_t *w = __hlist_bl_word(b);
	unsigned int spins = 0;

	/*
	 * Acquire pairs with the release in hlist_bl_unlock(): the previous
	 * holder's updates of the bucket are visible to the new holder.
	 */
	while (LRCU_FETCH_OR_ACQUIRE(w, LIST_BL_LOCKMASK) & LIST_BL_LOCKMASK) {
		/* Wait with plain loads (no RMW traffic) until it looks free. */
		while (LRCU_READ_ONCE(*w) & LIST_BL_LOCKMASK)
			__hlist_bl_relax(&spins);
	}
}

/* Try once; true if the lock was taken. */
static inline bool hlist_bl_trylock(struct hlist_bl_head *b)
{
	/* Acquire pairs with the release in hlist_bl_unlock(). */
	return !(LRCU_FETCH_OR_ACQUIRE(__hlist_bl_word(b), LIST_BL_LOCKMASK) & LIST_BL_LOCKMASK);
}

static inline void hlist_bl_unlock(struct hlist_bl_head *b)
{
	LIST_BL_BUG_ON(!(LRCU_READ_ONCE(*__hlist_bl_word(b)) & LIST_BL_LOCKMASK));
	/*
	 * Release pairs with the acquire in hlist_bl_lock() (the next
	 * holder sees this holder's updates), and with rcu_dereference() of
	 * the head in hlist_bl_first_rcu() (readers that load the word from
	 * this RMW see what the pointer it carries points to).
	 */
	LRCU_FETCH_AND_RELEASE(__hlist_bl_word(b), ~LIST_BL_LOCKMASK);
}

/* Is the lock bit set (by anyone)? */
static inline bool hlist_bl_is_locked(struct hlist_bl_head *b)
{
	return LRCU_READ_ONCE(*__hlist_bl_word(b)) & LIST_BL_LOCKMASK;
}

#define hlist_bl_for_each_entry(tpos, pos, head, member)		\
	for (pos = hlist_bl_first(head);				\
	     pos &&							\
		({ tpos = hlist_bl_entry(pos, __typeof__(*tpos), member); 1; }); \
	     pos = pos->next)
/* pos may be deleted in the body; n is a struct hlist_bl_node * cursor. */
#define hlist_bl_for_each_entry_safe(tpos, pos, n, head, member)	\
	for (pos = hlist_bl_first(head);				\
	     pos && ({ n = pos->next; 1; }) &&				\
		({ tpos = hlist_bl_entry(pos, __typeof__(*tpos), member); 1; }); \
	     pos = n)

#ifdef __cplusplus
}
#endif

#endif /* RCU_LIST_H */
