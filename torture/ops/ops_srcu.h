/* SPDX-License-Identifier: MIT */
/*
 * ops_srcu.h - the pieces the SRCU torture types share (ops_srcu.c,
 * ops_srcu_many.c, ops_busted_srcu.c).
 */
#ifndef TORTURE_OPS_SRCU_H
#define TORTURE_OPS_SRCU_H

#include <rcu/srcu.h>
#include "ops_rcu.h"

_Static_assert(sizeof(struct rcu_head) <= sizeof(((struct torture_cb *)0)->rcu_space),
	       "struct rcu_head must fit in torture_cb.rcu_space");

struct rcu_head *srcut_head(struct torture_cb *cb);	/* cb's rcu_head */
void srcut_cb(struct rcu_head *h);			/* calls cb->func(cb) */
unsigned long srcut_comp_state(void);			/* RCU_GET_STATE_COMPLETED */

/* Reader flavors (rcutorture.reader_flavor), the kernel's
 * srcu_torture_read_lock() and srcu_torture_down_read() (ops_srcu.c). */
int srcut_flavor_defined(unsigned int mask);	/* 0, SRCU_READ_FLAVOR_FAST or _FAST_UPDOWN */
/* Of doms[] = { plain, DEFINE_SRCU_FAST, DEFINE_SRCU_FAST_UPDOWN }, the one
 * defined for mask's flavors. */
struct srcu_struct *srcut_flavor_domain(unsigned int mask, struct srcu_struct *doms[3]);
int srcut_read_lock(struct srcu_struct *ssp, unsigned int mask);
void srcut_read_unlock(struct srcu_struct *ssp, unsigned int mask, int v);
int srcut_down_read(struct srcu_struct *ssp, unsigned int mask);
void srcut_up_read(struct srcu_struct *ssp, unsigned int mask, int v);

/* Up/down readers with the kernel's flavors for them. */
#define SRCUT_UP_DOWN(down, up, deref)					\
	.down_read = down,						\
	.up_read = up,							\
	.dereference_updown = deref,					\
	.have_up_down = SRCU_READ_FLAVOR_NORMAL | SRCU_READ_FLAVOR_FAST_UPDOWN

/* Fields every SRCU type shares (init and debug_objects are each type's). */
#define SRCUT_BASE							\
	TORTURE_OPS_HEAD,						\
	.gp_name = "srcu",						\
	.param_known = rcut_param_known,				\
	.boot_params = rcut_boot_params,				\
	.misuse_count = rcut_misuse,					\
	.srcu_lockdep = RCUT_SRCU_LOCKDEP
/* Readers registered with RCU (their extendables use rcu_read_lock()). */
#define SRCUT_REGISTERED						\
	.thread_register = rcut_register,				\
	.thread_unregister = rcut_unregister,				\
	.thread_online = rcut_online,					\
	.thread_offline = rcut_offline,					\
	.thread_capacity = rcut_capacity

#endif
