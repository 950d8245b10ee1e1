/* SPDX-License-Identifier: MIT */
/*
 * ops_busted_lostcb.c - "busted_lostcb": call_rcu() that loses one
 * callback in 200 (a lost wakeup or a dropped list segment).  Grace
 * periods are fine, so readers see nothing wrong; the writer's leak check
 * finds the pool element whose callback chain stopped.
 */
#include "ops_rcu.h"
#include "builtin.h"

static void lossy_call(struct torture_cb *cb)
{
	static unsigned long calls;	/* atomic */

	if (atomic_inc_return_relaxed(&calls) % 200 == 0)	/* a count */
		return;	/* BROKEN on purpose: the callback is never invoked */
	rcut_call(cb);
}

const struct torture_ops busted_lostcb_ops = {
	RCUT_COMMON,
	RCUT_READER,
	RCUT_GP_SEQ,
	.name = "busted_lostcb",
	.flags = TORTURE_OPS_BROKEN | TORTURE_OPS_IRQ_CAPABLE,
	.read_flavors = rcut_nested_flavors,
	.n_read_flavors = 2,
	.sync = rcut_sync,
	.call = lossy_call,
	.cb_barrier = rcut_barrier,
};
