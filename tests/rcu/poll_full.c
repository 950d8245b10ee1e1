/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/poll_full.c - the full-state polled API (struct
 * rcu_gp_oldstate, the _full calls): a cookie completes after either kind
 * of grace period, never while a reader that predates it is inside, and
 * stays completed however old it gets; same_state compares cookies; at
 * most NUM_ACTIVE_RCU_POLL_FULL_OLDSTATE distinct cookies are pending at
 * once; get_completed is always completed; the cond_ calls block only
 * when the cookie is pending.
 */
#include <rcu/rcutree.h>
#include "rcu_holder.h"

static unsigned long exp_gps(void)
{
	struct lrcu_stats st;

	lrcu_get_stats(LRCU_PREEMPT, &st);
	return st.exp_gps;
}

/* Wait until a grace period is in progress (low bits of gp_seq); false
 * after 60 s (a hang: one starts within milliseconds of a request). */
static bool gp_in_progress(void)
{
	double end = now_s() + 60;

	while (!(rcu_get_gp_seq() & 3)) {
		if (now_s() > end)
			return false;
		sleep_ms(1);
	}
	return true;
}

/* Poll until the cookie completes (60 s: a hang, not a timing verdict). */
static void wait_completed(struct rcu_gp_oldstate *c)
{
	double end = now_s() + 60;

	while (!poll_state_synchronize_rcu_full(c) && now_s() < end)
		sleep_ms(1);
}

/* ------------------------------------------------------------------ */
/* Either kind of grace period completes a cookie. */

static void test_either_kind(void)
{
	struct rcu_gp_oldstate c;
	unsigned long e0 = exp_gps();

	get_state_synchronize_rcu_full(&c);
	ok(!poll_state_synchronize_rcu_full(&c), "a fresh cookie is pending");
	synchronize_rcu_expedited();
	ok(poll_state_synchronize_rcu_full(&c) && exp_gps() > e0,
	   "a cookie taken before an expedited grace period is completed by it");
	get_state_synchronize_rcu_full(&c);
	synchronize_rcu();
	ok(poll_state_synchronize_rcu_full(&c), "... and by a normal one");

	e0 = exp_gps();
	start_poll_synchronize_rcu_expedited_full(&c);
	wait_completed(&c);
	ok(poll_state_synchronize_rcu_full(&c) && exp_gps() > e0,
	   "start_poll_synchronize_rcu_expedited_full(): its grace period runs expedited, on its own");
	start_poll_synchronize_rcu_full(&c);
	wait_completed(&c);
	ok(poll_state_synchronize_rcu_full(&c),
	   "start_poll_synchronize_rcu_full(): its grace period happens on its own");
}

/* How many distinct values among the pending cookies (the kernel's
 * rcutorture check of NUM_ACTIVE_RCU_POLL_FULL_OLDSTATE). */
static int distinct_pending(struct rcu_gp_oldstate *a, struct rcu_gp_oldstate *b,
			    struct rcu_gp_oldstate *c, struct rcu_gp_oldstate *d)
{
	struct rcu_gp_oldstate *all[] = { a, b, c, d }, *seen[4];
	int n = 0, i, j;

	for (i = 0; i < 4; i++) {
		if (poll_state_synchronize_rcu_full(all[i]))
			continue;
		for (j = 0; j < n && !same_state_synchronize_rcu_full(seen[j], all[i]); j++)
			;
		if (j == n)
			seen[n++] = all[i];
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* A reader holds a grace period open: cookies taken before it started
 * and during it are pending, distinct, and at most
 * NUM_ACTIVE_RCU_POLL_FULL_OLDSTATE; after the reader, both complete. */

static void test_pending(void)
{
	struct holder h = { .mode = R_RCU };
	struct rcu_gp_oldstate before, during, during2, done;
	struct reg_thread rt;

	reg_thread_start(&rt, holder_fn, &h);
	wait_flag(&h.in, 60);
	get_state_synchronize_rcu_full(&before);
	start_poll_synchronize_rcu_full(&done);	/* starts the grace period */
	ok(gp_in_progress(), "start_poll_synchronize_rcu_full() starts a grace period");
	get_state_synchronize_rcu_full(&during);
	get_state_synchronize_rcu_full(&during2);
	ok(!poll_state_synchronize_rcu_full(&before) && !poll_state_synchronize_rcu_full(&during),
	   "cookies taken while a reader is inside are pending, also one taken while a grace "
	   "period is in progress (two grace periods ahead: no false positive)");
	ok(same_state_synchronize_rcu_full(&during, &during2) &&
	   same_state_synchronize_rcu_full(&before, &done) &&
	   !same_state_synchronize_rcu_full(&before, &during),
	   "same_state_synchronize_rcu_full(): the same grace period, the same cookie");
	ok(distinct_pending(&before, &done, &during, &during2) == NUM_ACTIVE_RCU_POLL_FULL_OLDSTATE,
	   "as many distinct cookies pending as NUM_ACTIVE_RCU_POLL_FULL_OLDSTATE (%d) says: "
	   "the grace period in progress's and the next's", NUM_ACTIVE_RCU_POLL_FULL_OLDSTATE);
	set_flag(&h.leave);
	reg_thread_join(&rt);
	wait_completed(&done);
	ok(poll_state_synchronize_rcu_full(&before),
	   "after the reader, the grace period it held completes the first");
	synchronize_rcu();
	ok(poll_state_synchronize_rcu_full(&during), "and a grace period more the second");
}

/* ------------------------------------------------------------------ */
/* Completed cookies stay completed. */

static void test_completed(void)
{
	struct rcu_gp_oldstate c, d;

	get_completed_synchronize_rcu_full(&c);
	get_completed_synchronize_rcu_full(&d);
	ok(poll_state_synchronize_rcu_full(&c) && same_state_synchronize_rcu_full(&c, &d),
	   "get_completed_synchronize_rcu_full() polls as completed, always the same cookie");
	get_state_synchronize_rcu_full(&d);
	ok(!same_state_synchronize_rcu_full(&c, &d),
	   "... and differs from every cookie of a grace period");
	/*
	 * A cookie of a grace period that ended 2^61 grace periods ago: the
	 * counter has gone more than half round since, so a wrap-safe
	 * comparison alone would call it pending.
	 */
	synchronize_rcu();
	c.rgos_norm = (rcu_get_gp_seq() & ~3UL) - (1UL << 63) - 16;
	ok(poll_state_synchronize_rcu_full(&c) && poll_state_synchronize_rcu(c.rgos_norm),
	   "a cookie from more than 2^61 grace periods ago still polls as completed");
}

/* ------------------------------------------------------------------ */
/* cond_*_full() blocks only while its cookie is pending. */

static struct rcu_gp_oldstate cond_cookie;
static void take_cookie(void) { get_state_synchronize_rcu_full(&cond_cookie); }
static void cond_full(void) { cond_synchronize_rcu_full(&cond_cookie); }
static void cond_exp_full(void) { cond_synchronize_rcu_expedited_full(&cond_cookie); }

static void test_cond(void)
{
	struct holder h = { .mode = R_RCU };
	struct rcu_gp_oldstate c, comp;
	struct reg_thread rt;

	reader_blocks(R_RCU, cond_full, take_cookie, "cond_synchronize_rcu_full()");
	reader_blocks(R_RCU, cond_exp_full, take_cookie, "cond_synchronize_rcu_expedited_full()");

	get_state_synchronize_rcu_full(&c);
	synchronize_rcu();
	get_completed_synchronize_rcu_full(&comp);
	reg_thread_start(&rt, holder_fn, &h);
	wait_flag(&h.in, 60);
	/* No grace period can end now: a call that waited for one hangs. */
	watchdog_arm("cond_synchronize_rcu*_full() of a completed cookie", 30);
	cond_synchronize_rcu_full(&c);
	cond_synchronize_rcu_expedited_full(&c);
	cond_synchronize_rcu_full(&comp);
	cond_synchronize_rcu_expedited_full(&comp);
	ok(watchdog_done(), "cond_synchronize_rcu*_full() of a completed cookie returns at once, "
	   "while a reader holds grace periods up");
	set_flag(&h.leave);
	reg_thread_join(&rt);
}

int main(void)
{
	test_either_kind();
	test_pending();
	test_completed();
	test_cond();
	return done_testing();
}
