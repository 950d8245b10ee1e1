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

static const struct torture_read_flavor flavors[] = {
	{ "RCU_1", rcut_readlock, rcut_readunlock, 1 },
	{ "RCU_2", rcut_readlock, rcut_readunlock, 1 },
};

const struct torture_ops busted_barrier_ops = {
	RCUT_COMMON,
	.name = "busted_barrier",
	.gp_name = "rcu",
	.flags = TORTURE_OPS_BROKEN | TORTURE_OPS_IRQ_CAPABLE,
	.readlock = rcut_readlock,
	.readunlock = rcut_readunlock,
	.dereference = rcut_dereference,
	.read_flavors = flavors,
	.n_read_flavors = 2,
	.get_gp_seq = rcut_get_gp_seq,
	.gp_diff = rcut_gp_diff,
	.gps_completed = rcut_gps,
	.sync = rcut_sync,
	.call = rcut_call,
	.cb_barrier = early_barrier,
};
