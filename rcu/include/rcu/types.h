/* SPDX-License-Identifier: MIT */
/*
 * rcu/types.h - the types the RCU API passes around.
 */
#ifndef RCU_TYPES_H
#define RCU_TYPES_H

#include <stdbool.h>

/*
 * struct rcu_head (the kernel's callback_head): embedded in an object that
 * is freed by call_rcu()/kfree_rcu().  The library owns both fields from
 * the call_rcu() until the callback runs.
 */
struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};
#define callback_head rcu_head
typedef void (*rcu_callback_t)(struct rcu_head *head);

/*
 * __rcu marks an RCU-protected pointer.  Under sparse (__CHECKER__) it puts
 * the pointer in its own address space so that a plain dereference, instead
 * of rcu_dereference() and friends, is reported.
 */
#ifdef __CHECKER__
#define __rcu		__attribute__((noderef, address_space(__rcu)))
#define __force		__attribute__((force))
#else
#define __rcu
#define __force
#endif

/* The flavors this library implements.  rcu_bh is an alias of LRCU_PREEMPT. */
enum lrcu_flavor {
	LRCU_PREEMPT = 0,	/* "rcu" (and "rcu_bh"): preemptible readers */
	LRCU_SCHED = 1,		/* "rcu_sched": quiescent-state-based readers */
	LRCU_NR_FLAVORS
};

#endif /* RCU_TYPES_H */
