/* SPDX-License-Identifier: MIT */
/*
 * stats.c - statistics and grace-period state dumps for diagnostics.
 */
#include "internal.h"

const char *lrcu_flavor_name(enum lrcu_flavor f)
{
	return f < LRCU_NR_FLAVORS ? lrcu__states[f].name : "?";
}

/* Statistics and diagnostics: snapshots (READ_ONCE()), no ordering needed. */
int lrcu_get_stats(enum lrcu_flavor f, struct lrcu_stats *st)
{
	struct lrcu_state *rsp;
	struct lrcu_data *rdp;
	int i, hwm;

	if (f >= LRCU_NR_FLAVORS)
		return -1;
	lrcu__init_once();
	rsp = &lrcu__states[f];
	*st = (struct lrcu_stats){ 0 };
	st->gp_seq = rcu_seq_current(rsp->gp_seq);
	st->gp_seq_needed = READ_ONCE(rsp->gp_seq_needed);
	st->gps_completed = READ_ONCE(rsp->n_gps);
	st->gp_max_us = READ_ONCE(rsp->gp_max_us);
	st->fqs_scans = READ_ONCE(rsp->n_fqs_scans);
	for (i = 0; i < rsp->nr_nodes; i++)
		st->qs_reports += READ_ONCE(rsp->node[i].n_qs_reports);
	st->cb_batches = READ_ONCE(rsp->n_cb_batches);
	st->cb_max_batch = READ_ONCE(rsp->cb_max_batch);
	st->barriers = READ_ONCE(rsp->n_barriers);
	st->gp_state = READ_ONCE(rsp->gp_state);
	st->exp_gps = READ_ONCE(rsp->n_exp_gps);
	st->gps_fenced = READ_ONCE(rsp->n_gps_fenced);
	st->stalls = READ_ONCE(rsp->stall.n_reports);
	st->exp_stalls = READ_ONCE(rsp->stall.n_exp_reports);
	lrcu_for_each_used_rdp(rsp, rdp, hwm) {
		pthread_mutex_lock(&rdp->cblock);
		st->cbs_queued += rdp->n_cbs_queued;
		st->cbs_invoked += rdp->n_cbs_invoked;
		st->cbs_orphaned += rdp->n_cbs_orphaned;
		st->cbs_pending += (unsigned long)rdp->cbl.len;
		st->lazy_pending += (unsigned long)rdp->lazy_len;
		st->lazy_flushes += rdp->n_lazy_flushes;
		pthread_mutex_unlock(&rdp->cblock);
	}
	st->nocb_offloaded = lrcu__nocb_nr_offloaded(rsp);
	st->boosts = f == LRCU_PREEMPT ? lrcu__boost_count() : 0;
	pthread_mutex_lock(&lrcu__slots_lock);
	for (i = 0; i < lrcu__nr_slots; i++)
		st->nr_registered += lrcu__slots[i].reader != NULL;
	pthread_mutex_unlock(&lrcu__slots_lock);
	return 0;
}

void lrcu_dump_gp_state(enum lrcu_flavor f, FILE *out)
{
	struct lrcu_state *rsp;
	unsigned long now;
	int state;

	if (f >= LRCU_NR_FLAVORS)
		return;
	lrcu__init_once();
	rsp = &lrcu__states[f];
	now = lrcu__now_us();
	state = READ_ONCE(rsp->gp_state);
	fprintf(out, "%s: g%ld f0x0 %s(%d)%s gp_seq_needed=%ld last activity %lu us ago, "
		"root ->qsmask 0x%lx, %lu GPs completed (%lu expedited)\n",
		rsp->name, (long)rcu_seq_current(rsp->gp_seq),
		lrcu_gp_state_name(state), state, READ_ONCE(rsp->gp_expedited) ? " expedited" : "",
		(long)READ_ONCE(rsp->gp_seq_needed), now - READ_ONCE(rsp->gp_activity_us),
		READ_ONCE(rsp->node[0].qsmask), READ_ONCE(rsp->n_gps), READ_ONCE(rsp->n_exp_gps));
}
