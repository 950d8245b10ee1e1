/* SPDX-License-Identifier: MIT */
/*
 * ops_tasks_rude.c - our library's RCU Tasks Rude as torture types,
 * through its public API only (<rcu/rcupdate.h>):
 *
 *   tasks-rude         the kernel's tasks-rude type: readers are Rude
 *                      regions (rcu_read_lock_tasks_rude(), the kernel's
 *                      preempt_disable()), nested with themselves; sync
 *                      and exp_sync are synchronize_rcu_tasks_rude().  The
 *                      kernel's current type has no call or barrier (it
 *                      dropped call_rcu_tasks_rude()); ours has both, so
 *                      they are tortured too.
 *   tasks-rude-busted  the same readers, but grace periods end at once:
 *                      must end in FAILURE.
 *
 * Readers register with nothing: a region works on any thread.  The
 * markers are async-signal-safe (irqreader reads in signal handlers).
 */
#include "ops_tasks.h"
#include "builtin.h"

static int rude_lock(void)
{
	rcu_read_lock_tasks_rude();
	return 0;
}

static void rude_unlock(int idx)
{
	(void)idx;
	rcu_read_unlock_tasks_rude();
}

static TORTURE_READ_SECTION(rude_read_section, rude_lock, rude_unlock, taskst_dereference)

static unsigned long rude_gp_seq(void)
{
	unsigned long seq;
	int state;

	rcu_tasks_rude_get_gp_data(&state, &seq);
	return seq;	/* counts grace periods ended */
}

static void rude_call(struct torture_cb *cb) { call_rcu_tasks_rude(taskst_head(cb), taskst_cb); }
static void rude_gp_state(FILE *out) { lrcu_tasks_show(LRCU_TASKS_RUDE, out); }
static void rude_sync(void) { synchronize_rcu_tasks_rude(); }
static void rude_barrier(void) { rcu_barrier_tasks_rude(); }

/* Twice the same region, so that reads nest it. */
static const struct torture_read_flavor rude_flavors[] = {
	{ "RUDE_1", rude_lock, rude_unlock, 1 },
	{ "RUDE_2", rude_lock, rude_unlock, 1 },
};

#define RUDE_READER							\
	.readlock = rude_lock,						\
	.readunlock = rude_unlock,					\
	.read_section = rude_read_section,				\
	.read_flavors = rude_flavors,					\
	.n_read_flavors = 2,						\
	.gp_state = rude_gp_state

const struct torture_ops tasks_rude_ops = {
	TASKST_ADMIN,
	RUDE_READER,
	.flags = TORTURE_OPS_IRQ_CAPABLE,
	.name = "tasks-rude",
	.gp_name = "rcu_tasks_rude",
	.get_gp_seq = rude_gp_seq,
	.gps_completed = rude_gp_seq,
	.sync = rude_sync,
	.exp_sync = rude_sync,
	.call = rude_call,
	.cb_barrier = rude_barrier,
	.stats = rude_gp_state,
};

const struct torture_ops tasks_rude_busted_ops = {
	TASKST_ADMIN,
	RUDE_READER,
	TASKST_BUSTED,
	.flags = TORTURE_OPS_IRQ_CAPABLE | TORTURE_OPS_BROKEN,
	.name = "tasks-rude-busted",
	.gp_name = "rcu_tasks_rude",
};
