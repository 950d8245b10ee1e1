/* SPDX-License-Identifier: MIT */
/*
 * ops_busted.c - "busted" (the kernel's busted type): real readers, but
 * grace periods end at once: synchronize is a no-op and call() invokes the
 * callback immediately.  Readers then see elements go through several
 * "grace periods" while they hold them: Reader Pipe past index 1.
 *
 * On Tiny RCU (make TINY=1) the no-op synchronize is right (a caller
 * outside its sections on the one CPU is a grace period), and so is the
 * callback run at once for a caller outside its sections; what gives it
 * away is a callback queued inside a section (torture/up.c): cb_early.
 */
#include "ops_rcu.h"
#include "builtin.h"

static void busted_sync(void)
{
	/* BROKEN on purpose: no grace period at all. */
}

/* Also the other busted types' call() and cb_barrier() (builtin.h). */
void busted_cb_now(struct torture_cb *cb)
{
	cb->func(cb);	/* BROKEN on purpose: no grace period before the callback */
}

void busted_cb_barrier(void)
{
	/* Nothing is ever queued. */
}

const struct torture_ops busted_ops = {
	RCUT_COMMON,
	RCUT_READER,
	.name = "busted",
	.flags = TORTURE_OPS_BROKEN | TORTURE_OPS_IRQ_CAPABLE | RCUT_UP,
	.sync = busted_sync,
	.call = busted_cb_now,
	.cb_barrier = busted_cb_barrier,
};
