/* SPDX-License-Identifier: MIT */
/*
 * ops_busted_srcu.c - "srcu_busted" (the kernel's busted_srcud): real
 * SRCU grace periods, but the readers' extendables count rcu_read_lock()
 * as protection.  An rcu flavor section holds off no SRCU grace period,
 * so a read that goes on under rcu_read_lock() alone sees the element it
 * holds go through grace periods: Reader Pipe past index 1, FAILURE.
 */
#include "ops_srcu.h"
#include "builtin.h"

DEFINE_STATIC_SRCU(busted_ctl);

static int busted_lock(void) { return srcu_read_lock(&busted_ctl); }
static void busted_unlock(int idx) { srcu_read_unlock(&busted_ctl, idx); }
static void *busted_deref(void *const *pp) { return srcu_dereference_check(*pp, &busted_ctl, 1); }
static unsigned long busted_gp_seq(void) { return lrcu_srcu_get_gp_seq(&busted_ctl); }
static unsigned long busted_gps(void) { return srcu_batches_completed(&busted_ctl); }
static void busted_sync(void) { synchronize_srcu(&busted_ctl); }
static void busted_exp_sync(void) { synchronize_srcu_expedited(&busted_ctl); }
static void busted_call(struct torture_cb *cb) { call_srcu(&busted_ctl, srcut_head(cb), srcut_cb); }
static void busted_barrier(void) { srcu_barrier(&busted_ctl); }
static void busted_stats(FILE *out) { lrcu_srcu_torture_stats(&busted_ctl, out); }

static const struct torture_read_flavor flavors[] = {
	{ "SRCU", busted_lock, busted_unlock, 1 },
	{ "RCU", rcut_readlock, rcut_readunlock, 1 },	/* BROKEN on purpose: holds off no SRCU GP */
};

const struct torture_ops srcu_busted_ops = {
	SRCUT_BASE,
	SRCUT_REGISTERED,
	.init = rcut_init,
	.debug_objects = rcut_debug_objects,
	.name = "srcu_busted",
	.flags = TORTURE_OPS_BROKEN | TORTURE_OPS_IRQ_CAPABLE | TORTURE_OPS_SLEEPABLE,
	.readlock = busted_lock,
	.readunlock = busted_unlock,
	.dereference = busted_deref,
	.read_flavors = flavors,
	.n_read_flavors = 2,
	.get_gp_seq = busted_gp_seq,
	.gp_diff = rcut_gp_diff,
	.gps_completed = busted_gps,
	.sync = busted_sync,
	.exp_sync = busted_exp_sync,
	.call = busted_call,
	.cb_barrier = busted_barrier,
	.stats = busted_stats,
	.gp_state = busted_stats,
};
