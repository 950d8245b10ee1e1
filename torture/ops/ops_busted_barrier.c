/* SPDX-License-Identifier: MIT */
/*
 * ops_busted_barrier.c - "busted_barrier": our rcu flavor, except that the
 * callback barrier returns early: it waits for a grace period, not for the
 * callbacks queued before it to be invoked (a classic rcu_barrier() bug:
 * callbacks whose grace period has ended may still be waiting to run).
 * Caught by the barrier test (rtbe) and by the writer's leak check.
 */
#include "ops_rcu.h"
#include "builtin.h"

static void early_barrier(void)
{
	rcut_sync();	/* BROKEN on purpose: a grace period is not a barrier */
}

const struct torture_ops busted_barrier_ops = {
	RCUT_COMMON,
	RCUT_READER,
	RCUT_GP_SEQ,
	.name = "busted_barrier",
	.flags = TORTURE_OPS_BROKEN | TORTURE_OPS_IRQ_CAPABLE,
	.read_flavors = rcut_nested_flavors,
	.n_read_flavors = 2,
	.sync = rcut_sync,
	.call = rcut_call,
	.cb_barrier = early_barrier,
};
