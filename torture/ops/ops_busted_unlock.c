/* SPDX-License-Identifier: MIT */
/*
 * ops_busted_unlock.c - "busted_unlock": a reader unlock that drops the
 * nesting.  The adapter keeps its own nesting count but ends the real
 * critical section at the first unlock, inner or not, so the rest of a
 * nested read runs unprotected.  Readers that extend a nested read see
 * elements age past one grace period: Reader Pipe past index 1.
 */
#include "ops_rcu.h"
#include "builtin.h"

static __thread int depth;	/* nesting as the caller sees it */
static __thread int held;	/* the real rcu_read_lock() is held */

static int buggy_lock(void)
{
	if (depth++ == 0) {
		rcut_readlock();
		held = 1;
	}
	return 0;
}

static void buggy_unlock(int idx)
{
	(void)idx;
	depth--;
	if (held) {	/* BROKEN on purpose: should wait for depth == 0 */
		rcut_readunlock(0);
		held = 0;
	}
}

static const struct torture_read_flavor flavors[] = {
	{ "RCU_1", buggy_lock, buggy_unlock, 1 },
	{ "RCU_2", buggy_lock, buggy_unlock, 1 },
};

const struct torture_ops busted_unlock_ops = {
	RCUT_COMMON,
	RCUT_GP_SEQ,
	RCUT_UPDATE,
	.name = "busted_unlock",
	.flags = TORTURE_OPS_BROKEN,
	.readlock = buggy_lock,
	.readunlock = buggy_unlock,
	.dereference = rcut_dereference,
	.read_flavors = flavors,
	.n_read_flavors = 2,
};
