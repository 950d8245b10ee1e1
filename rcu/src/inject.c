/* SPDX-License-Identifier: MIT */
/*
 * inject.c - choosing one deliberate bug (see inject.h): rcutree.inject=
 * NAME[:ARG], accepted only by a `make INJECT=1` build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rcu/rcupdate_trace.h>
#include "internal.h"

#ifdef LRCU_INJECT

int lrcu_inject_bug;
long lrcu_inject_arg = 1;
int lrcu_inject_no_reader_fence;
int lrcu_inject_nested_qs;
int lrcu_inject_trc_nested_ends;

static const char *const bug_names[LRCU_NR_BUGS] = {
	[LRCU_BUG_NONE] = "none",
	[LRCU_BUG_SKIP_LEAF] = "skip_leaf",
	[LRCU_BUG_NOTICED_QS] = "noticed_qs",
	[LRCU_BUG_NESTED_QS] = "nested_qs",
	[LRCU_BUG_WORD_OFF_BY_ONE] = "word_off_by_one",
	[LRCU_BUG_CLIMB_EARLY] = "climb_early",
	[LRCU_BUG_CB_STALE_SNAP] = "cb_stale_snap",
	[LRCU_BUG_POLL_EARLY] = "poll_early",
	[LRCU_BUG_BARRIER_EARLY] = "barrier_early",
	[LRCU_BUG_GP_FENCE] = "gp_fence",
	[LRCU_BUG_UNFENCED_IDLE] = "unfenced_idle",
	[LRCU_BUG_READER_FENCE] = "reader_fence",
	[LRCU_BUG_EXP_FENCE] = "exp_fence",
	[LRCU_BUG_SRCU_START_FENCE] = "srcu_start_fence",
	[LRCU_BUG_SRCU_FLIP_FENCE] = "srcu_flip_fence",
	[LRCU_BUG_SCHED_ONLINE_FENCE] = "sched_online_fence",
	[LRCU_BUG_EXP_SKIP_READER] = "exp_skip_reader",
	[LRCU_BUG_SRCU_ONE_PHASE] = "srcu_one_phase",
	[LRCU_BUG_TASKS_TRACE_NESTING] = "tasks_trace_nesting",
	[LRCU_BUG_NOCB_EARLY] = "nocb_early",
	[LRCU_BUG_NOCB_TOGGLE_DROP] = "nocb_toggle_drop",
	[LRCU_BUG_LAZY_LEAVE_ENDS] = "lazy_leave_ends",
	[LRCU_BUG_SCHED_REJOIN] = "sched_rejoin",
	[LRCU_BUG_RCU_JOIN_SKIPPED] = "rcu_join_skipped",
	[LRCU_BUG_TASKS_PREEMPT_QS] = "tasks_preempt_qs",
	[LRCU_BUG_RUDE_NESTED_QS] = "rude_nested_qs",
	[LRCU_BUG_RUDE_SCAN_BREAK] = "rude_scan_break",
	[LRCU_BUG_LEAF_NEVER_EMPTY] = "leaf_never_empty",
	[LRCU_BUG_QS_NEVER_RECORDED] = "qs_never_recorded",
	[LRCU_BUG_NEVER_REQUESTED] = "never_requested",
	[LRCU_BUG_REPORT_DROPPED] = "report_dropped",
	[LRCU_BUG_LOST_WAKEUP] = "lost_wakeup",
};

int lrcu__inject_select(const char *v, size_t len, char *err, size_t errlen)
{
	const char *colon = memchr(v, ':', len);
	size_t nlen = colon ? (size_t)(colon - v) : len;
	char *end;
	int i;

	for (i = 0; i < LRCU_NR_BUGS; i++) {
		if (strlen(bug_names[i]) != nlen || strncmp(bug_names[i], v, nlen))
			continue;
		lrcu_inject_bug = i;
		lrcu_inject_arg = 1;
		lrcu_inject_no_reader_fence = i == LRCU_BUG_READER_FENCE;
		lrcu_inject_nested_qs = i == LRCU_BUG_NESTED_QS;
		lrcu_inject_trc_nested_ends = i == LRCU_BUG_TASKS_TRACE_NESTING;
		if (colon) {
			char buf[32];

			snprintf(buf, sizeof(buf), "%.*s", (int)(len - nlen - 1), colon + 1);
			lrcu_inject_arg = strtol(buf, &end, 0);
			if (!buf[0] || *end) {
				snprintf(err, errlen, "rcutree.inject: bad argument '%s' (expected "
					 "NAME:NUMBER)", buf);
				return -1;
			}
		}
		return 0;
	}
	snprintf(err, errlen, "rcutree.inject: unknown bug '%.*s' (known:", (int)nlen, v);
	for (i = 0; i < LRCU_NR_BUGS; i++)
		snprintf(err + strlen(err), errlen - strlen(err), " %s", bug_names[i]);
	snprintf(err + strlen(err), errlen - strlen(err), ")");
	return -1;
}

/*
 * nested_qs: a nested rcu_read_unlock() of a holdout reports its
 * quiescent state although the outer section goes on.
 */
void lrcu_inject_nested_unlock(void)
{
	struct lrcu_reader *r = &lrcu_reader;
	struct lrcu_state *rsp = &lrcu__states[LRCU_PREEMPT];
	struct lrcu_data *rdp;
	struct lrcu_node *rnp;
	unsigned long g;

	/* Relaxed: the GP thread's request, as in rcu_read_unlock(). */
	if (r->slot < 0 || !READ_ONCE(r->rw->need_qs[LRCU_PREEMPT]))
		return;
	WRITE_ONCE(r->rw->need_qs[LRCU_PREEMPT], 0);
	rdp = &rsp->rda[r->slot];
	rnp = rdp->mynode;
	lrcu__node_lock(rnp);
	g = lrcu__node_waits_for(rnp, rdp);
	if (g)
		lrcu__report_qs_rnp(rsp, rdp->grpmask, rnp, g);
	else
		lrcu__node_unlock(rnp);
}

/*
 * tasks_trace_nesting: rcu_read_unlock_trace() leaves the domain whenever
 * a section is open, nested or not (the outermost unlock then finds none
 * and says nothing): the reader goes on unprotected after its inner
 * section ends.
 */
void lrcu_inject_trc_nested_unlock(void)
{
	struct lrcu_trc_reader *t = &lrcu_trc_self;
	struct srcu_ctr *scp = READ_ONCE(t->scp);	/* this thread's own */

	if (!scp)
		return;
	WRITE_ONCE(t->scp, NULL);
	srcu_read_unlock_fast(&lrcu_rcu_tasks_trace_srcu_struct, scp);
}

#else

int lrcu__inject_select(const char *v, size_t len, char *err, size_t errlen)
{
	(void)v;
	(void)len;
	snprintf(err, errlen, "rcutree.inject: only a build made with `make INJECT=1` "
		 "has deliberate bugs");
	return -1;
}

#endif
