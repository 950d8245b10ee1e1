/* SPDX-License-Identifier: MIT */
/*
 * ops_busted_poll.c - our rcu flavor with a polled-GP check that is off by
 * one grace period: a cookie polls as complete when the grace period in
 * progress when it was taken ends, which need not wait for readers that
 * started before the cookie.
 *   busted_poll       the one-word cookies (poll_state_synchronize_rcu());
 *                     caught by the reader's "Cookie check 2" and,
 *                     through the writer's poll path, by the pipeline
 *   busted_poll_full  the full-state ones (poll_state_synchronize_rcu_full()),
 *                     the one-word ones left correct; caught by the
 *                     reader's "Cookie check 6" and the pipeline
 */
#include <string.h>
#include <rcu/rcupdate.h>
#include "ops_rcu.h"
#include "builtin.h"

/* BROKEN on purpose: one grace period (4 in gp_seq units) early. */
static unsigned long one_gp_early(unsigned long cookie)
{
	return cookie == RCU_GET_STATE_COMPLETED ? cookie : cookie - 4;
}

static int early_poll(unsigned long cookie)
{
	return rcut_poll(one_gp_early(cookie));
}

static int early_poll_full(struct torture_gp_full *c)
{
	struct rcu_gp_oldstate o;

	memcpy(&o, c->w, sizeof(o));	/* ops_rcu.c keeps it there */
	o.rgos_norm = one_gp_early(o.rgos_norm);
	return poll_state_synchronize_rcu_full(&o);
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

const struct torture_ops busted_poll_full_ops = {
	RCUT_COMMON,
	RCUT_READER,
	RCUT_GP_SEQ,
	RCUT_UPDATE,
	RCUT_FULL_BUT_POLL,
	.name = "busted_poll_full",
	.flags = TORTURE_OPS_BROKEN | TORTURE_OPS_IRQ_CAPABLE,
	.get_gp_state = rcut_get_gp_state,
	.start_gp_poll = rcut_start_poll,
	.poll_gp_state = rcut_poll,
	.poll_gp_state_full = early_poll_full,
};
