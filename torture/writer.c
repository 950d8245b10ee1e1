/* SPDX-License-Identifier: MIT */
/*
 * writer.c - the writer (rcu_torture_writer) and the fakewriters.
 *
 * Theory of operation
 *
 * The writer loops: fuzzed ~500 us sleep, allocate an element (failure:
 * rtaf), publish it with a release store (rcu_assign_pointer()), count the
 * old one as removed (pipe_count 0 -> 1), then retire it through one
 * update type picked at random among those enabled by gp_sync, gp_exp,
 * gp_normal, gp_cond, gp_poll, gp_cond_exp and gp_poll_exp (none set: all
 * the RCU supports):
 *   sync/exp  synchronize (expedited), then bump every removed element
 *   cond      cookie, random wait up to gp_cond_wi us, cond_sync(cookie)
 *   poll      start_gp_poll(), poll every up to gp_poll_wi us until done
 *   cond_exp, poll_exp  the same with cond_sync_exp()/start_gp_poll_exp()
 *             and gp_cond_wi_exp/gp_poll_wi_exp (same cookies)
 *   normal    call(): the callback chain does the bumps (pool.c)
 * Each wait is timed into gp-latency.dat.  A cookie taken before the wait
 * must poll as complete after it ("Cookie check 3").  ver counts updates;
 * the stats thread watches it for stalls (writer_state names where the
 * writer is, RTWS_*).  After each stutter pause the writer drains the
 * callback chains with PIPE_LEN+1 callback barriers and checks that every
 * element is free, current or on its removed list (leak check).
 *
 * Fakewriters (nfakewriters) sleep 0-9 ms and run one random grace-period
 * primitive with no data, or with probability 1/(8*nfakewriters) a
 * callback barrier.
 */
#include <stdlib.h>
#include "torture.h"

enum { UT_SYNC, UT_EXP, UT_NORMAL, UT_COND, UT_POLL, UT_COND_EXP, UT_POLL_EXP, UT_NR };
static const char *const ut_names[UT_NR] = {
	"sync", "exp", "async", "cond", "poll", "cond_exp", "poll_exp"
};
static int synctype[UT_NR], nsynctypes;	/* all enabled update types */
static int gptype[UT_NR], ngptypes;	/* ... those that wait (fakewriters) */

enum {
	RTWS_FIXED_DELAY, RTWS_DELAY, RTWS_REPLACE, RTWS_DEF_FREE, RTWS_EXP_SYNC,
	RTWS_COND_GET, RTWS_COND_GET_EXP, RTWS_COND_SYNC, RTWS_COND_SYNC_EXP,
	RTWS_POLL_GET, RTWS_POLL_GET_EXP, RTWS_POLL_WAIT, RTWS_POLL_WAIT_EXP, RTWS_SYNC,
	RTWS_STUTTER, RTWS_BARRIER, RTWS_STOPPING,
};
static const char *const rtws_names[] = {
	"RTWS_FIXED_DELAY", "RTWS_DELAY", "RTWS_REPLACE", "RTWS_DEF_FREE",
	"RTWS_EXP_SYNC", "RTWS_COND_GET", "RTWS_COND_GET_EXP", "RTWS_COND_SYNC",
	"RTWS_COND_SYNC_EXP", "RTWS_POLL_GET", "RTWS_POLL_GET_EXP", "RTWS_POLL_WAIT",
	"RTWS_POLL_WAIT_EXP", "RTWS_SYNC", "RTWS_STUTTER", "RTWS_BARRIER", "RTWS_STOPPING",
};
int writer_state;

const char *writer_state_name(int s)
{
	return s >= 0 && s <= RTWS_STOPPING ? rtws_names[s] : "RTWS_UNKNOWN";
}

bool writer_paused(int s)
{
	return s == RTWS_STUTTER || s == RTWS_STOPPING;
}

static void set_state(int s)
{
	WRITE_ONCE(writer_state, s);	/* diagnostics */
}

/* ------------------------------------------------------------------ */
/* Update types */

static bool ut_supported(int t)
{
	switch (t) {
	case UT_SYNC: return cur_ops->sync;
	case UT_EXP: return cur_ops->exp_sync;
	case UT_NORMAL: return cur_ops->call;
	case UT_COND: return cur_ops->get_gp_state && cur_ops->cond_sync;
	case UT_POLL: return cur_ops->start_gp_poll && cur_ops->poll_gp_state;
	case UT_COND_EXP: return cur_ops->get_gp_state && cur_ops->cond_sync_exp;
	default: return cur_ops->start_gp_poll_exp && cur_ops->poll_gp_state;
	}
}

int writer_update_types(void)
{
	const long want[UT_NR] = { tp.gp_sync, tp.gp_exp, tp.gp_normal, tp.gp_cond, tp.gp_poll,
				   tp.gp_cond_exp, tp.gp_poll_exp };
	static const char *const pname[UT_NR] = { "gp_sync", "gp_exp", "gp_normal",
						   "gp_cond", "gp_poll", "gp_cond_exp",
						   "gp_poll_exp" };
	bool any = false;
	int t;

	for (t = 0; t < UT_NR; t++)
		any |= want[t] != 0;
	for (t = 0; t < UT_NR; t++) {
		if (any && !want[t])
			continue;
		if (!ut_supported(t)) {
			if (want[t])
				torout(" rcu_torture_write_types: %s without primitives.", pname[t]);
			continue;
		}
		synctype[nsynctypes++] = t;
		if (t != UT_NORMAL)
			gptype[ngptypes++] = t;
	}
	torout(" rcu_torture_write_types: Testing %d update types.", nsynctypes);
	return nsynctypes ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* Waiting for one grace period of a given kind; false if interrupted by
 * the end of the test (poll loop only). */

/* A random wait of up to wi us (0: none; min: at least this). */
static void random_wait(struct torture_random *rng, long wi, unsigned long min)
{
	torture_sleep_us(min + (wi ? torture_random(rng) % (unsigned long)wi : 0));
}

static bool wait_gp(int t, struct torture_random *rng, bool writer)
{
	unsigned long start = torture_now_us(), cookie;
	unsigned long t0 = gpo_begin();	/* before the wait starts (oracle.c) */
	bool exp = t == UT_COND_EXP || t == UT_POLL_EXP;

	gpo_wait_begin(writer ? "rcu_torture_writer" : "rcu_torture_fakewriter", ut_names[t]);

	switch (t) {
	case UT_EXP:
		if (writer)
			set_state(RTWS_EXP_SYNC);
		cur_ops->exp_sync();
		break;
	case UT_COND:
	case UT_COND_EXP:
		if (writer)
			set_state(exp ? RTWS_COND_GET_EXP : RTWS_COND_GET);
		cookie = cur_ops->get_gp_state();
		random_wait(rng, exp ? tp.gp_cond_wi_exp : tp.gp_cond_wi, 0);
		if (writer)
			set_state(exp ? RTWS_COND_SYNC_EXP : RTWS_COND_SYNC);
		(exp ? cur_ops->cond_sync_exp : cur_ops->cond_sync)(cookie);
		break;
	case UT_POLL:
	case UT_POLL_EXP:
		if (writer)
			set_state(exp ? RTWS_POLL_GET_EXP : RTWS_POLL_GET);
		cookie = (exp ? cur_ops->start_gp_poll_exp : cur_ops->start_gp_poll)();
		if (writer)
			set_state(exp ? RTWS_POLL_WAIT_EXP : RTWS_POLL_WAIT);
		while (!cur_ops->poll_gp_state(cookie)) {
			if (torture_must_stop()) {
				gpo_wait_end();
				return false;
			}
			random_wait(rng, exp ? tp.gp_poll_wi_exp : tp.gp_poll_wi, 1);
		}
		break;
	default:
		if (writer)
			set_state(RTWS_SYNC);
		cur_ops->sync();
		break;
	}
	gpo_wait_end();
	gpo_end(t0);
	torture_record_gp(ut_names[t], start);
	return true;
}

/* A callback barrier, watched by the hang watchdog. */
static void barrier_wait(const char *who)
{
	gpo_wait_begin(who, "barrier");
	cur_ops->cb_barrier();
	gpo_wait_end();
}

/* ------------------------------------------------------------------ */
/* Leak check: drain the callback chains, then look for lost elements. */

static void writer_leak_check(void)
{
	int i;

	if (!cur_ops->cb_barrier || !cur_ops->call)
		return;
	set_state(RTWS_BARRIER);
	for (i = 0; i <= RCU_TORTURE_PIPE_LEN; i++)
		barrier_wait("rcu_torture_writer");
	STAT_ADD(tc.leaks, pool_leak_check());
}

void writer_final_drain(void)
{
	torture_updater_start(UPD_NO_SLOT, "main", "");
	writer_leak_check();
	torture_updater_stop();
}

/* ------------------------------------------------------------------ */
/* The writer */

static void cookie_check3(unsigned long cookie)
{
	if (cur_ops->poll_gp_state(cookie))
		return;
	if (STAT_INC(tc.cookie_errors) == 0)
		torout(" Cookie check 3: a cookie taken before a full grace period "
		       "does not poll as complete after it");
}

static void retire(struct rcu_torture *old, struct torture_random *rng)
{
	int t = synctype[torture_random(rng) % (unsigned long)nsynctypes];
	bool cookie_ok = cur_ops->get_gp_state && cur_ops->poll_gp_state;
	unsigned long cookie = cookie_ok ? cur_ops->get_gp_state() : 0;

	/* Oracle ticket of the removal (the release store of the new element
	 * above); release pairs with the readers' acquire in gpo_violated(). */
	smp_store_release(&old->gpo_stamp, gpo_removed());
	pipe_update_one(old);	/* 0 -> 1: removed from readers' view */
	if (t == UT_NORMAL) {
		set_state(RTWS_DEF_FREE);
		pool_deferred_free(old);
		return;
	}
	pool_removed_add(old);
	if (!wait_gp(t, rng, true))
		return;
	STAT_INC(tc.writer_gps);
	if (cookie_ok)
		cookie_check3(cookie);
	pool_removed_update();
}

static void *rcu_torture_writer(void *arg)
{
	struct torture_random rng;
	struct rcu_torture *rp, *old;

	(void)arg;
	torture_random_init(&rng, 0x3000);
	/* Where the RCU keeps callbacks per CPU and can offload them, the
	 * writer's callbacks are some CPU's (a slot, if one is free), as
	 * the kernel's always are: the toggle threads switch them. */
	torture_updater_start(cur_ops->nocb_toggle ? UPD_SHARED_SLOT : UPD_NO_SLOT,
			      "rcu_torture_writer", "its callbacks are no CPU's");
	torverbose(" rcu_torture_writer task started");
	while (!torture_must_stop()) {
		set_state(RTWS_FIXED_DELAY);
		torture_hrtimeout_us(500, 1000, &rng);
		rp = pool_alloc();
		if (!rp) {
			STAT_INC(tc.rtaf);
			continue;
		}
		STAT_INC(tc.rta);
		set_state(RTWS_DELAY);
		if (!(torture_random(&rng) % 4))
			torture_spin_us(torture_random(&rng) % 100);
		gpo_quiet_maybe(&rng);	/* now and then, an idle gap first */
		set_state(RTWS_REPLACE);
		/* Only this thread writes it. */
		old = READ_ONCE(rcu_torture_current);
		/* rcu_assign_pointer(): the element's initialisation (pool_alloc())
		 * before the pointer; pairs with ops->dereference() in readers. */
		smp_store_release(&rcu_torture_current, rp);
		if (old)
			retire(old, &rng);
		/* ver: read by the stats thread; relaxed (a counter). */
		STAT_INC(tc.ver);
		set_state(RTWS_STUTTER);
		if (stutter_wait("rcu_torture_writer") && !torture_must_stop())
			writer_leak_check();
	}
	set_state(RTWS_STOPPING);
	torture_updater_stop();
	torverbose(" rcu_torture_writer task stopping");
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Fakewriters */

static void *rcu_torture_fakewriter(void *arg)
{
	struct torture_random rng;
	unsigned long id = (unsigned long)arg;

	torture_random_init(&rng, 0x4000 + id);
	torture_updater_start(UPD_NO_SLOT, "rcu_torture_fakewriter", "");
	torverbose(" rcu_torture_fakewriter task started");
	while (!torture_must_stop()) {
		torture_sleep_us((torture_random(&rng) % 10) * 1000);
		gpo_quiet_hold();	/* no requests in the writer's quiet window */
		if (cur_ops->cb_barrier &&
		    !(torture_random(&rng) % (unsigned long)(tp.nfakewriters * 8))) {
			unsigned long start = torture_now_us();

			barrier_wait("rcu_torture_fakewriter");
			torture_record_gp("barrier", start);
		} else if (ngptypes) {
			wait_gp(gptype[torture_random(&rng) % (unsigned long)ngptypes], &rng, false);
		}
		stutter_wait("rcu_torture_fakewriter");
	}
	torture_updater_stop();
	return NULL;
}

int writers_start(void)
{
	long i;

	if (torture_spawn("rcu_torture_wri", rcu_torture_writer, NULL))
		return -1;
	for (i = 0; i < tp.nfakewriters; i++)
		if (torture_spawn("rcu_torture_fak", rcu_torture_fakewriter, (void *)i))
			return -1;
	return 0;
}
