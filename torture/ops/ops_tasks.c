/* SPDX-License-Identifier: MIT */
/*
 * ops_tasks.c - our library's RCU Tasks as torture types, through its
 * public API only (<rcu/rcupdate.h>):
 *
 *   tasks         the kernel's tasks type: readers have no markers (the
 *                 kernel's tasks_torture_read_lock() does nothing); sync
 *                 and exp_sync are synchronize_rcu_tasks() (the kernel's
 *                 exp_sync, synchronize_rcu_mult(call_rcu_tasks), waits
 *                 for the same grace period), call_rcu_tasks() and
 *                 rcu_barrier_tasks().  TORTURE_OPS_NO_BLOCK: a read that
 *                 blocked would end itself (the core spins instead of
 *                 sleeping inside one); quiescent_state is rcu_tasks_qs(),
 *                 which loops that never block call between reads, as the
 *                 kernel's call cond_resched().
 *   tasks-busted  the same readers, but grace periods end at once: must
 *                 end in FAILURE.
 *
 * Readers register with nothing: every thread of the process is a reader.
 */
#include <stdlib.h>
#include "ops_tasks.h"
#include "builtin.h"

_Static_assert(sizeof(struct rcu_head) <= sizeof(((struct torture_cb *)0)->rcu_space),
	       "struct rcu_head must fit in torture_cb.rcu_space");

struct rcu_head *taskst_head(struct torture_cb *cb)
{
	return (struct rcu_head *)(void *)cb->rcu_space;
}

void taskst_cb(struct rcu_head *h)
{
	struct torture_cb *cb = (struct torture_cb *)(void *)h;

	cb->func(cb);
}

void *taskst_dereference(void *const *pp)
{
	return rcu_dereference_raw(*pp);	/* no lockdep-style check applies */
}

/* rcupdate.rcu_task_stall_timeout is in jiffies, 1 ms here. */
unsigned long taskst_stall_timeout_ms(void)
{
	char v[32];

	return lrcu_param_get("rcupdate.rcu_task_stall_timeout", v, sizeof(v)) ? 0 :
	       strtoul(v, NULL, 0);
}

void taskst_busted_sync(void)
{
	/* BROKEN on purpose: no grace period at all. */
}

void taskst_busted_call(struct torture_cb *cb)
{
	cb->func(cb);	/* BROKEN on purpose: no grace period before the callback */
}

void taskst_busted_barrier(void)
{
	/* Nothing is ever queued. */
}

/* The kernel's tasks_torture_read_lock(): a Tasks reader has no marker. */
static int tasks_lock(void) { return 0; }
static void tasks_unlock(int idx) { (void)idx; }
static TORTURE_READ_SECTION(tasks_read_section, tasks_lock, tasks_unlock, taskst_dereference)

static unsigned long tasks_gp_seq(void)
{
	unsigned long seq;
	int state;

	rcu_tasks_get_gp_data(&state, &seq);
	return seq;	/* counts grace periods ended: gp_diff is newer - older */
}

static void tasks_call(struct torture_cb *cb) { call_rcu_tasks(taskst_head(cb), taskst_cb); }
static void tasks_gp_state(FILE *out) { lrcu_tasks_show(LRCU_TASKS, out); }
static void tasks_sync(void) { synchronize_rcu_tasks(); }
static void tasks_barrier(void) { rcu_barrier_tasks(); }
static void tasks_qs(void) { rcu_tasks_qs(); }

#define TASKS_READER							\
	.readlock = tasks_lock,						\
	.readunlock = tasks_unlock,					\
	.read_section = tasks_read_section,				\
	.quiescent_state = tasks_qs,					\
	.gp_state = tasks_gp_state

const struct torture_ops tasks_ops = {
	TASKST_ADMIN,
	TASKS_READER,
	.flags = TORTURE_OPS_IRQ_CAPABLE | TORTURE_OPS_NO_BLOCK,
	.name = "tasks",
	.gp_name = "rcu_tasks",
	.get_gp_seq = tasks_gp_seq,
	.gps_completed = tasks_gp_seq,
	.sync = tasks_sync,
	.exp_sync = tasks_sync,
	.call = tasks_call,
	.cb_barrier = tasks_barrier,
	.stats = tasks_gp_state,
};

const struct torture_ops tasks_busted_ops = {
	TASKST_ADMIN,
	TASKS_READER,
	TASKST_BUSTED,
	.flags = TORTURE_OPS_IRQ_CAPABLE | TORTURE_OPS_NO_BLOCK | TORTURE_OPS_BROKEN,
	.name = "tasks-busted",
	.gp_name = "rcu_tasks",
};
