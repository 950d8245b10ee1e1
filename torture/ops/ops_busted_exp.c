/* SPDX-License-Identifier: MIT */
/*
 * ops_busted_exp.c - our rcu flavor with a broken expedited grace period,
 * through the library's fault-injection parameters (set before it starts):
 *
 *   busted_exp        rcutree.fault_exp_skip_reader: an expedited grace
 *                     period ends without waiting for the readers that
 *                     were inside when it started.
 *   busted_exp_fence  rcutree.fault_exp_skip_fence: it skips the heavy
 *                     fence (membarrier()) that orders the readers' word
 *                     stores before its scan, so a reader that has just
 *                     entered can be missed.  Only meaningful where the
 *                     readers rely on membarrier() (not under TSan, where
 *                     they fence themselves).
 *
 * Normal grace periods stay correct; the writer's expedited updates
 * (gp_exp, gp_cond_exp, gp_poll_exp) free elements readers still hold:
 * Reader Pipe errors.
 */
#include <stdio.h>
#include <rcu/rcupdate.h>
#include "ops_rcu.h"
#include "builtin.h"

static int init_with(const char *param)
{
	char err[256];

	if (lrcu_param_set(param, "1", err, sizeof(err))) {
		fprintf(stderr, "rcutorture: %s\n", err);
		return -1;
	}
	return rcut_init();
}

static int skip_reader_init(void) { return init_with("rcutree.fault_exp_skip_reader"); }
static int skip_fence_init(void) { return init_with("rcutree.fault_exp_skip_fence"); }

#define BUSTED_EXP_OPS							\
	RCUT_ADMIN,							\
	RCUT_EQS,							\
	RCUT_READER,							\
	RCUT_GP_SEQ,							\
	RCUT_UPDATE,							\
	.flags = TORTURE_OPS_BROKEN | TORTURE_OPS_IRQ_CAPABLE,		\
	.read_flavors = rcut_nested_flavors,				\
	.n_read_flavors = 2,						\
	.get_gp_state = rcut_get_gp_state,				\
	.start_gp_poll = rcut_start_poll,				\
	.poll_gp_state = rcut_poll,					\
	.cond_sync = rcut_cond_sync,					\
	.start_gp_poll_exp = rcut_start_poll_exp,			\
	.cond_sync_exp = rcut_cond_sync_exp

const struct torture_ops busted_exp_ops = {
	BUSTED_EXP_OPS,
	.name = "busted_exp",
	.init = skip_reader_init,	/* BROKEN on purpose */
};

const struct torture_ops busted_exp_fence_ops = {
	BUSTED_EXP_OPS,
	.name = "busted_exp_fence",
	.init = skip_fence_init,	/* BROKEN on purpose */
};
