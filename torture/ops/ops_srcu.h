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

/* Fields every SRCU type shares (init and debug_objects are each type's). */
#define SRCUT_BASE							\
	.abi_version = TORTURE_OPS_ABI_VERSION,				\
	.size = sizeof(struct torture_ops),				\
	.gp_name = "srcu",						\
	.param_known = rcut_param_known,				\
	.boot_params = rcut_boot_params,				\
	.misuse_count = rcut_misuse
/* Readers registered with RCU (their extendables use rcu_read_lock()). */
#define SRCUT_REGISTERED						\
	.thread_register = rcut_register,				\
	.thread_unregister = rcut_unregister,				\
	.thread_online = rcut_online,					\
	.thread_offline = rcut_offline,					\
	.thread_capacity = rcut_capacity

#endif
