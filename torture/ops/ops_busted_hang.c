/* SPDX-License-Identifier: MIT */
/*
 * ops_busted_hang.c - "busted_hang": a reader unlock that gets lost.  Each
 * reader's 5000th rcu_read_unlock() is skipped, so that thread never
 * leaves its read-side critical section again and no grace period can
 * end: the writer stalls.  Caught by the writer-stall check ("??? Writer
 * stall state", a grace-period hang) about 10 s after it starts.  The
 * type has no thread_offline(), or our library would already report the
 * leaked section when the reader goes idle (a misuse).
 */
#include "ops_rcu.h"
#include "builtin.h"

static __thread unsigned long unlocks;

static void lossy_unlock(int idx)
{
	if (++unlocks == 5000)
		return;	/* BROKEN on purpose: this section never ends */
	rcut_readunlock(idx);
}

static const struct torture_read_flavor flavors[] = {
	{ "RCU_1", rcut_readlock, lossy_unlock, 1 },
	{ "RCU_2", rcut_readlock, lossy_unlock, 1 },
};

/* No RCUT_EQS: see above. */
const struct torture_ops busted_hang_ops = {
	RCUT_BASE,
	RCUT_GP_SEQ,
	RCUT_UPDATE,
	.name = "busted_hang",
	.flags = TORTURE_OPS_BROKEN,
	.readlock = rcut_readlock,
	.readunlock = lossy_unlock,
	.dereference = rcut_dereference,
	.read_flavors = flavors,
	.n_read_flavors = 2,
	.get_gp_state = rcut_get_gp_state,
	.start_gp_poll = rcut_start_poll,
	.poll_gp_state = rcut_poll,
	.cond_sync = rcut_cond_sync,
};
