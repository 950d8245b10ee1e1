/* SPDX-License-Identifier: MIT */
/*
 * update.c - synchronize_*() and the polled grace-period API.
 *
 * A caller samples rcu_seq_snap() (the end of the first grace period that
 * is full from now) and drives grace periods until gp_seq reaches it, or
 * waits for their driver (lrcu_gp_drive() in tree.c).  Any number of
 * concurrent callers share the same one or two grace periods.
 * A cookie from get_state_synchronize_rcu() is such a snapshot; polling it
 * is one load.  A caller that finds its grace period already requested (or
 * polls a cookie) is ordered with the readers only through its snapshot's
 * fence and the grace period's confirmed start: see "What the hardware
 * must provide" in tree.c.  With rcupdate.rcu_expedited (or
 * rcu_expedite_gp()) the blocking calls run expedited grace periods
 * instead (tree_exp.c).
 */
#include "internal.h"

/* Wait for the grace period ending at snap, the normal way: drive it
 * (lrcu_gp_drive()), or with rcutree.gp_caller_drives=0 ask the kthread. */
static void normal_wait(struct lrcu_state *rsp, unsigned long snap)
{
	if (READ_ONCE(lrcu_params.gp_caller_drives)) {	/* may change at run time */
		lrcu_gp_drive(rsp, snap, false);
		return;
	}
	lrcu_gp_request(rsp, snap);
	lrcu_gp_wait(rsp, snap);
}

/* synchronize_*() the normal way. */
void lrcu_synchronize_normal(enum lrcu_flavor f)
{
	struct lrcu_state *rsp = &lrcu_states[f];
	unsigned long s;
	bool was;

	lrcu_sched_block_begin(&was);
	s = rcu_seq_snap(rsp->gp_seq);	/* full fence: removals before */
	normal_wait(rsp, s);
	lrcu_sched_block_end(was);
}

void lrcu_synchronize(enum lrcu_flavor f, const char *caller)
{
	lrcu_init_once();
	lrcu_check_blocking(f, caller);
	if (lrcu_normal_goes_expedited())
		lrcu_synchronize_expedited(f, caller);
	else
		lrcu_synchronize_normal(f);
}

unsigned long lrcu_get_state(enum lrcu_flavor f)
{
	lrcu_init_once();
	return rcu_seq_snap(lrcu_states[f].gp_seq);	/* full fence inside */
}

unsigned long lrcu_start_poll(enum lrcu_flavor f)
{
	unsigned long s = lrcu_get_state(f);

	lrcu_gp_request(&lrcu_states[f], s);
	return s;
}

bool lrcu_poll_state(enum lrcu_flavor f, unsigned long cookie)
{
	if (cookie == RCU_GET_STATE_COMPLETED)
		return true;
	lrcu_init_once();
	if (LRCU_INJECTED(LRCU_BUG_POLL_EARLY))	/* INJECTED: one GP early */
		cookie -= RCU_SEQ_STATE_MASK + 1;
	if (!rcu_seq_done(lrcu_states[f].gp_seq, cookie))
		return false;
	/*
	 * The acquire in rcu_seq_done() pairs with rcu_seq_end(); the fence
	 * also orders the caller's later loads against the grace period, as
	 * a synchronize_rcu() spanning cookie..now would.
	 */
	smp_mb();
	return true;
}

/* cond_synchronize_*() the normal way, for a cookie not yet complete. */
void lrcu_cond_sync_normal(enum lrcu_flavor f, unsigned long cookie)
{
	struct lrcu_state *rsp = &lrcu_states[f];
	bool was;

	lrcu_sched_block_begin(&was);
	normal_wait(rsp, cookie);
	lrcu_sched_block_end(was);
}

void lrcu_cond_sync(enum lrcu_flavor f, unsigned long cookie, const char *caller)
{
	lrcu_init_once();
	lrcu_check_blocking(f, caller);
	if (lrcu_normal_goes_expedited())
		lrcu_cond_sync_expedited(f, cookie, caller);
	else if (!lrcu_poll_state(f, cookie))
		lrcu_cond_sync_normal(f, cookie);
}
