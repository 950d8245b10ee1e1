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
 * gp_normal, gp_cond, gp_poll, gp_cond_exp, gp_poll_exp, gp_cond_full,
 * gp_poll_full, gp_cond_exp_full and gp_poll_exp_full (none set: all the
 * RCU supports):
 *   sync/exp  synchronize (expedited), then bump every removed element
 *   cond      cookie, random wait up to gp_cond_wi us, cond_sync(cookie)
 *   poll      start_gp_poll(), poll every up to gp_poll_wi us until done
 *   cond_exp, poll_exp  the same with cond_sync_exp()/start_gp_poll_exp()
 *             and gp_cond_wi_exp/gp_poll_wi_exp (same cookies)
 *   *_full    the same four with full-state cookies; while it polls one
 *             (poll_full), the writer checks that no more than the RCU's
 *             poll_active_full distinct cookies are pending at once
 *   normal    call(): the callback chain does the bumps (pool.c)
 * Each wait is timed into gp-latency.dat.  Cookies taken before the wait
 * must poll as complete after it ("Cookie check 3", "Cookie check 4" for
 * the full-state one).  ver counts updates;
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

/*
 * The update types.  cond and poll come in four variants, in the order of
 * the kernel's RTWS_* states: the one-word cookies, the full-state ones
 * (get_gp_state_full() ...), and each with its grace period expedited.
 */
enum { UH_SYNC, UH_EXP, UH_NORMAL, UH_COND, UH_POLL };
enum { V_ONE, V_FULL, V_EXP, V_EXP_FULL };	/* bit 0: full, bit 1: expedited */
#define V_IS_FULL(v)	((v) & V_FULL)
#define V_IS_EXP(v)	((v) & V_EXP)

struct utype {
	const char *name;	/* gp-latency.dat's kind */
	const char *param;	/* the rcutorture.gp_* that asks for it */
	const long *want;
	int how;		/* UH_* */
	int v;			/* V_*: cond and poll */
};
static const struct utype utypes[] = {
	{ "sync", "gp_sync", &tp.gp_sync, UH_SYNC, 0 },
	{ "exp", "gp_exp", &tp.gp_exp, UH_EXP, 0 },
	{ "async", "gp_normal", &tp.gp_normal, UH_NORMAL, 0 },
	{ "cond", "gp_cond", &tp.gp_cond, UH_COND, V_ONE },
	{ "poll", "gp_poll", &tp.gp_poll, UH_POLL, V_ONE },
	{ "cond_exp", "gp_cond_exp", &tp.gp_cond_exp, UH_COND, V_EXP },
	{ "poll_exp", "gp_poll_exp", &tp.gp_poll_exp, UH_POLL, V_EXP },
	{ "cond_full", "gp_cond_full", &tp.gp_cond_full, UH_COND, V_FULL },
	{ "poll_full", "gp_poll_full", &tp.gp_poll_full, UH_POLL, V_FULL },
	{ "cond_exp_full", "gp_cond_exp_full", &tp.gp_cond_exp_full, UH_COND, V_EXP_FULL },
	{ "poll_exp_full", "gp_poll_exp_full", &tp.gp_poll_exp_full, UH_POLL, V_EXP_FULL },
};
#define UT_NR	(int)(sizeof(utypes) / sizeof(utypes[0]))
static const struct utype *synctype[UT_NR];	/* all enabled update types */
static const struct utype *gptype[UT_NR];	/* ... those that wait (fakewriters) */
static int nsynctypes, ngptypes;

/* The kernel's writer states and numbers, then ours (RTWS_BARRIER). */
enum {
	RTWS_FIXED_DELAY, RTWS_DELAY, RTWS_REPLACE, RTWS_DEF_FREE, RTWS_EXP_SYNC,
	RTWS_COND_GET, RTWS_COND_GET_FULL, RTWS_COND_GET_EXP, RTWS_COND_GET_EXP_FULL,
	RTWS_COND_SYNC, RTWS_COND_SYNC_FULL, RTWS_COND_SYNC_EXP, RTWS_COND_SYNC_EXP_FULL,
	RTWS_POLL_GET, RTWS_POLL_GET_FULL, RTWS_POLL_GET_EXP, RTWS_POLL_GET_EXP_FULL,
	RTWS_POLL_WAIT, RTWS_POLL_WAIT_FULL, RTWS_POLL_WAIT_EXP, RTWS_POLL_WAIT_EXP_FULL,
	RTWS_SYNC, RTWS_STUTTER, RTWS_STOPPING, RTWS_BARRIER,
};
static const char *const rtws_names[] = {
	"RTWS_FIXED_DELAY", "RTWS_DELAY", "RTWS_REPLACE", "RTWS_DEF_FREE", "RTWS_EXP_SYNC",
	"RTWS_COND_GET", "RTWS_COND_GET_FULL", "RTWS_COND_GET_EXP", "RTWS_COND_GET_EXP_FULL",
	"RTWS_COND_SYNC", "RTWS_COND_SYNC_FULL", "RTWS_COND_SYNC_EXP", "RTWS_COND_SYNC_EXP_FULL",
	"RTWS_POLL_GET", "RTWS_POLL_GET_FULL", "RTWS_POLL_GET_EXP", "RTWS_POLL_GET_EXP_FULL",
	"RTWS_POLL_WAIT", "RTWS_POLL_WAIT_FULL", "RTWS_POLL_WAIT_EXP", "RTWS_POLL_WAIT_EXP_FULL",
	"RTWS_SYNC", "RTWS_STUTTER", "RTWS_STOPPING", "RTWS_BARRIER",
};
int writer_state;

const char *writer_state_name(int s)
{
	return s >= 0 && s <= RTWS_BARRIER ? rtws_names[s] : "RTWS_UNKNOWN";
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
/* Cookies of each variant: one word, or the RCU's full state. */

struct cookie {
	unsigned long one;
	struct torture_gp_full full;
};

static bool can_get(int v)
{
	return V_IS_FULL(v) ? OPS_HAS(get_gp_state_full) : OPS_HAS(get_gp_state);
}

static bool can_poll(int v)
{
	return V_IS_FULL(v) ? OPS_HAS(poll_gp_state_full) : OPS_HAS(poll_gp_state);
}

static bool can_start(int v)
{
	switch (v) {
	case V_ONE: return OPS_HAS(start_gp_poll);
	case V_FULL: return OPS_HAS(start_gp_poll_full) && OPS_HAS(get_comp_state_full) &&
			    OPS_HAS(same_gp_state_full);	/* the kernel's rule */
	case V_EXP: return OPS_HAS(start_gp_poll_exp);
	default: return OPS_HAS(start_gp_poll_exp_full);
	}
}

static bool can_cond(int v)
{
	switch (v) {
	case V_ONE: return OPS_HAS(cond_sync);
	case V_FULL: return OPS_HAS(cond_sync_full);
	case V_EXP: return OPS_HAS(cond_sync_exp);
	default: return OPS_HAS(cond_sync_exp_full);
	}
}

static void cookie_get(int v, struct cookie *c)
{
	if (V_IS_FULL(v))
		cur_ops->get_gp_state_full(&c->full);
	else
		c->one = cur_ops->get_gp_state();
}

static bool cookie_done(int v, struct cookie *c)
{
	return V_IS_FULL(v) ? cur_ops->poll_gp_state_full(&c->full) :
			      cur_ops->poll_gp_state(c->one);
}

static void cookie_start(int v, struct cookie *c)
{
	switch (v) {
	case V_ONE: c->one = cur_ops->start_gp_poll(); break;
	case V_FULL: cur_ops->start_gp_poll_full(&c->full); break;
	case V_EXP: c->one = cur_ops->start_gp_poll_exp(); break;
	default: cur_ops->start_gp_poll_exp_full(&c->full); break;
	}
}

static void cookie_cond(int v, struct cookie *c)
{
	switch (v) {
	case V_ONE: cur_ops->cond_sync(c->one); break;
	case V_FULL: cur_ops->cond_sync_full(&c->full); break;
	case V_EXP: cur_ops->cond_sync_exp(c->one); break;
	default: cur_ops->cond_sync_exp_full(&c->full); break;
	}
}

/* ------------------------------------------------------------------ */
/* Update types */

static bool ut_supported(const struct utype *u)
{
	switch (u->how) {
	case UH_SYNC: return cur_ops->sync;
	case UH_EXP: return cur_ops->exp_sync;
	case UH_NORMAL: return cur_ops->call;
	case UH_COND: return can_get(u->v) && can_cond(u->v);
	default: return can_start(u->v) && can_poll(u->v);
	}
}

/* One asked for that this torture type cannot do: said as the kernel says
 * it, and not honoured (the run tests the others). */
static void ut_unsupported(const struct utype *u)
{
	torout(" rcu_torture_write_types: %s without primitives.", u->param);
	params_unhonour(u->param, "%s has no %s primitives", cur_ops->name, u->name);
}

int writer_update_types(void)
{
	bool any = false;
	int t;

	for (t = 0; t < UT_NR; t++)
		any |= *utypes[t].want != 0;
	for (t = 0; t < UT_NR; t++) {
		const struct utype *u = &utypes[t];

		if (any && !*u->want)
			continue;
		if (!ut_supported(u)) {
			if (*u->want)
				ut_unsupported(u);
			continue;
		}
		synctype[nsynctypes++] = u;
		if (u->how != UH_NORMAL)
			gptype[ngptypes++] = u;
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

/*
 * The kernel's check of poll_active_full, by the writer while it polls a
 * full cookie: every cookie it takes meanwhile is one of at most
 * poll_active_full distinct pending values.  A slot is free again once
 * its cookie polls complete.
 */
#define ACTIVE_MAX	8
static struct torture_gp_full active[ACTIVE_MAX];	/* writer only */

static int active_slots(void)
{
	int n = cur_ops->poll_active_full;

	return n > 0 && n <= ACTIVE_MAX && OPS_HAS(get_comp_state_full) &&
	       OPS_HAS(same_gp_state_full) ? n : 0;
}

static void active_reset(void)
{
	int i, n = active_slots();

	for (i = 0; i < n; i++)
		cur_ops->get_comp_state_full(&active[i]);
}

static void active_check(void)
{
	int i, n = active_slots();
	struct torture_gp_full now;

	if (!n)
		return;
	cur_ops->get_gp_state_full(&now);
	for (i = 0; i < n; i++) {
		if (cur_ops->poll_gp_state_full(&active[i]) ||
		    cur_ops->same_gp_state_full(&active[i], &now)) {
			active[i] = now;
			return;
		}
	}
	if (STAT_INC(tc.cookie_errors) == 0)
		torout(" Cookie check poll_active_full: more than %d distinct full cookies "
		       "pending at once", n);
}

static bool poll_wait(const struct utype *u, struct torture_random *rng, bool writer)
{
	struct cookie c;

	if (writer)
		set_state(RTWS_POLL_GET + u->v);
	if (writer && u->v == V_FULL)
		active_reset();
	cookie_start(u->v, &c);
	if (writer)
		set_state(RTWS_POLL_WAIT + u->v);
	while (!cookie_done(u->v, &c)) {
		if (torture_must_stop())
			return false;
		if (writer && u->v == V_FULL)
			active_check();
		random_wait(rng, V_IS_EXP(u->v) ? tp.gp_poll_wi_exp : tp.gp_poll_wi, 1);
		torture_cond_resched();	/* the wait may round to no sleep */
	}
	return true;
}

static void cond_wait(const struct utype *u, struct torture_random *rng, bool writer)
{
	struct cookie c;

	if (writer)
		set_state(RTWS_COND_GET + u->v);
	cookie_get(u->v, &c);
	random_wait(rng, V_IS_EXP(u->v) ? tp.gp_cond_wi_exp : tp.gp_cond_wi, 0);
	if (writer)
		set_state(RTWS_COND_SYNC + u->v);
	cookie_cond(u->v, &c);
}

static bool wait_gp(const struct utype *u, struct torture_random *rng, bool writer)
{
	unsigned long start = torture_now_us();
	unsigned long t0 = gpo_begin();	/* before the wait starts (oracle.c) */

	gpo_wait_begin(writer ? "rcu_torture_writer" : "rcu_torture_fakewriter", u->name);
	switch (u->how) {
	case UH_EXP:
		if (writer)
			set_state(RTWS_EXP_SYNC);
		cur_ops->exp_sync();
		break;
	case UH_COND:
		cond_wait(u, rng, writer);
		break;
	case UH_POLL:
		if (!poll_wait(u, rng, writer)) {
			gpo_wait_end();
			return false;
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
	torture_record_gp(u->name, start);
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

/*
 * Cookies taken before a grace-period wait poll as complete after it: the
 * kernel's "Cookie check 3" (one word) and "Cookie check 4" (full state).
 */
struct wait_cookies {
	bool one, full;		/* taken (the RCU has the calls) */
	struct cookie c;
};

static void cookies_take(struct wait_cookies *w)
{
	w->one = can_get(V_ONE) && can_poll(V_ONE);
	w->full = can_get(V_FULL) && can_poll(V_FULL);
	if (w->one)
		cookie_get(V_ONE, &w->c);
	if (w->full)
		cookie_get(V_FULL, &w->c);
}

static void cookies_check(struct wait_cookies *w)
{
	int check = !w->one || cookie_done(V_ONE, &w->c) ? 0 : 3;

	if (!check && w->full && !cookie_done(V_FULL, &w->c))
		check = 4;
	if (check && STAT_INC(tc.cookie_errors) == 0)
		torout(" Cookie check %d: a %scookie taken before a full grace period "
		       "does not poll as complete after it", check, check == 4 ? "full " : "");
}

static void retire(struct rcu_torture *old, struct torture_random *rng)
{
	const struct utype *u = synctype[torture_random(rng) % (unsigned long)nsynctypes];
	struct wait_cookies w;

	cookies_take(&w);
	/* Oracle ticket of the removal (the release store of the new element
	 * above); release pairs with the readers' acquire in gpo_violated(). */
	smp_store_release(&old->gpo_stamp, gpo_removed());
	pipe_update_one(old);	/* 0 -> 1: removed from readers' view */
	if (u->how == UH_NORMAL) {
		set_state(RTWS_DEF_FREE);
		pool_deferred_free(old);
		return;
	}
	pool_removed_add(old);
	if (!wait_gp(u, rng, true))
		return;
	STAT_INC(tc.writer_gps);
	cookies_check(&w);
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
