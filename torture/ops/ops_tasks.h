/* SPDX-License-Identifier: MIT */
/*
 * ops_tasks.h - what the RCU Tasks torture types share (ops_tasks.c,
 * ops_tasks_rude.c): the callback glue, and the fields that only name the
 * library.
 */
#ifndef TORTURE_OPS_TASKS_H
#define TORTURE_OPS_TASKS_H

#include <rcu/rcupdate.h>
#include "ops_rcu.h"

#pragma GCC visibility push(hidden)
struct rcu_head *taskst_head(struct torture_cb *cb);	/* cb's rcu_head */
void taskst_cb(struct rcu_head *h);			/* calls cb->func(cb) */
void *taskst_dereference(void *const *pp);		/* rcu_dereference_raw() */
unsigned long taskst_stall_timeout_ms(void);		/* rcu_task_stall_timeout */
void taskst_busted_sync(void);
void taskst_busted_call(struct torture_cb *cb);
void taskst_busted_barrier(void);
#pragma GCC visibility pop

/* The library's parameters, misuse count and stall notifiers; no thread
 * registration (every thread is a reader). */
#define TASKST_ADMIN							\
	TORTURE_OPS_HEAD,						\
	.init = rcut_init,						\
	.param_known = rcut_param_known,				\
	.boot_params = rcut_boot_params,				\
	.misuse_count = rcut_misuse,					\
	.stall_notifier = rcut_stall_notifier,				\
	.stall_timeout_ms = taskst_stall_timeout_ms,			\
	.dereference = taskst_dereference
/* Grace periods that end at once (the busted types). */
#define TASKST_BUSTED							\
	.sync = taskst_busted_sync,					\
	.exp_sync = taskst_busted_sync,					\
	.call = taskst_busted_call,					\
	.cb_barrier = taskst_busted_barrier

#endif
