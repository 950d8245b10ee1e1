/* SPDX-License-Identifier: MIT */
/*
 * update.c - synchronize_*() and the polled grace-period API.
 *
 * A caller samples rcu_seq_snap() (the end of the first grace period that
 * is full from now) and drives grace periods until gp_seq reaches it, or
 * waits for their driver (lrcu__gp_drive() in tree.c).  Any number of
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
 * (lrcu__gp_drive()), or with rcutree.gp_caller_drives=0 (or real-time
 * RCU threads) ask the kthread. */
static void normal_wait(struct lrcu_state *rsp, unsigned long snap)
{
	if (lrcu__callers_drive(false)) {
		lrcu__gp_drive(rsp, snap, false);
		return;
	}
	lrcu__gp_request(rsp, snap);
	lrcu__gp_wait(rsp, snap);
}

/*
 * The prelude of every blocking update-side call (synchronize_*(),
 * cond_synchronize_*(), rcu_barrier()): the library is up, the caller is
 * not where blocking would deadlock (lrcu__check_blocking()), and a
 * sched-joined caller goes offline while it waits, so that a sched grace
 * period never waits for its own requester.  lrcu__update_end() undoes
 * the last.  SRCU's blocking calls use lrcu__srcu_update_begin() (srcu.c:
 * their checks are per domain) and the same end.
 */
void lrcu__update_begin(enum lrcu_flavor f, const char *caller, bool *was_online)
{
	lrcu__init_once();
	lrcu__check_blocking(f, caller);
	lrcu__sched_block_begin(was_online);
}

void lrcu__update_end(bool was_online)
{
	lrcu__sched_block_end(was_online);
}

/* Does a call that asked for an expedited grace period (or not) get one?
 * rcupdate.rcu_normal wins over rcu_expedited and rcu_expedite_gp(). */
static bool runs_expedited(bool asked)
{
	return !lrcu_gp_is_normal() && (asked || lrcu_gp_is_expedited());
}

static void synchronize(enum lrcu_flavor f, bool expedited, const char *caller)
{
	struct lrcu_state *rsp = &lrcu__states[f];
	unsigned long s;
	bool was;

	lrcu__update_begin(f, caller, &was);
	s = rcu_seq_snap(rsp->gp_seq);	/* full fence: removals before */
	if (runs_expedited(expedited))
		lrcu__exp_wait(rsp, s);
	else
		normal_wait(rsp, s);
	lrcu__update_end(was);
}

void lrcu_synchronize(enum lrcu_flavor f, const char *caller)
{
	synchronize(f, false, caller);
}

void lrcu_synchronize_expedited(enum lrcu_flavor f, const char *caller)
{
	synchronize(f, true, caller);
}

unsigned long lrcu_get_state(enum lrcu_flavor f)
{
	lrcu__init_once();
	return rcu_seq_snap(lrcu__states[f].gp_seq);	/* full fence inside */
}

unsigned long lrcu_start_poll(enum lrcu_flavor f)
{
	unsigned long s = lrcu_get_state(f);

	lrcu__gp_request(&lrcu__states[f], s);
	return s;
}

/* The same cookie, its grace period asked for expedited (tree_exp.c),
 * unless rcupdate.rcu_normal says otherwise. */
unsigned long lrcu_start_poll_expedited(enum lrcu_flavor f)
{
	unsigned long s = lrcu_get_state(f);

	if (lrcu_gp_is_normal())
		lrcu__gp_request(&lrcu__states[f], s);
	else
		lrcu__gp_request_exp(&lrcu__states[f], s);
	return s;
}

/*
 * The watchdog nobody waits for.  A grace period whose driver does not run
 * (a starved GP kthread) is noticed by its synchronize_*() waiters; when
 * there are none, the kernel's scheduling-clock interrupt would still
 * notice on any CPU.  Here a poll that finds its grace period not done
 * looks at the clock, and if the warning is overdue even for a waiter,
 * wakes the callback thread, which looks as a waiter does
 * (lrcu__gp_watch()); with only call_rcu() users nobody looks.  The poll
 * itself only reads the clock and maybe wakes: it stays safe in a signal
 * handler and inside a read-side section (rcutorture's readers poll
 * there), where taking the report's locks would not be.
 */
static void poll_watch(struct lrcu_state *rsp)
{
	if (lrcu__stall_overdue(&rsp->stall, lrcu__now_us()))
		lrcu__cb_wake(rsp);
}

bool lrcu_poll_state(enum lrcu_flavor f, unsigned long cookie)
{
	if (cookie == RCU_GET_STATE_COMPLETED)
		return true;
	lrcu__init_once();
	if (LRCU_INJECTED(LRCU_BUG_POLL_EARLY))	/* INJECTED: one GP early */
		cookie -= RCU_SEQ_STATE_MASK + 1;
	if (!rcu_seq_done_exact(lrcu__states[f].gp_seq, cookie)) {
		poll_watch(&lrcu__states[f]);	/* a stall nobody waits in */
		return false;
	}
	/*
	 * The acquire in rcu_seq_done_exact() pairs with rcu_seq_end(); the fence
	 * also orders the caller's later loads against the grace period, as
	 * a synchronize_rcu() spanning cookie..now would.
	 */
	smp_mb();
	return true;
}

static void cond_sync(enum lrcu_flavor f, unsigned long cookie, bool expedited,
		      const char *caller)
{
	bool was;

	lrcu__update_begin(f, caller, &was);
	if (!lrcu_poll_state(f, cookie)) {
		/* A cookie is a snapshot: the grace period ending at it is full. */
		if (runs_expedited(expedited))
			lrcu__exp_wait(&lrcu__states[f], cookie);
		else
			normal_wait(&lrcu__states[f], cookie);
	}
	lrcu__update_end(was);
}

void lrcu_cond_sync(enum lrcu_flavor f, unsigned long cookie, const char *caller)
{
	cond_sync(f, cookie, false, caller);
}

void lrcu_cond_sync_expedited(enum lrcu_flavor f, unsigned long cookie, const char *caller)
{
	cond_sync(f, cookie, true, caller);
}
