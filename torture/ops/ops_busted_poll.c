/* SPDX-License-Identifier: MIT */
/*
 * ops_busted_poll.c - "busted_poll": our rcu flavor with a polled-GP check
 * that is off by one grace period: a cookie polls as complete when the
 * grace period in progress when it was taken ends, which need not wait for
 * readers that started before the cookie.  Caught by the reader's cookie
 * check ("Cookie check 2") and, through the writer's poll path, by the
 * pipeline.
 */
#include <rcu/rcupdate.h>
#include "ops_rcu.h"
#include "builtin.h"

static int early_poll(unsigned long cookie)
{
	if (cookie == RCU_GET_STATE_COMPLETED)
		return 1;
	/* BROKEN on purpose: one grace period (4 in gp_seq units) early. */
	return rcut_poll(cookie - 4);
}

const struct torture_ops busted_poll_ops = {
	RCUT_COMMON,
	RCUT_READER,
	RCUT_GP_SEQ,
	RCUT_UPDATE,
	.name = "busted_poll",
	.flags = TORTURE_OPS_BROKEN | TORTURE_OPS_IRQ_CAPABLE,
	.get_gp_state = rcut_get_gp_state,
	.start_gp_poll = rcut_start_poll,
	.poll_gp_state = early_poll,
};
