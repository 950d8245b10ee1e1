/* SPDX-License-Identifier: MIT */
/*
 * ops_srcu_many.c - "srcum": SRCUM_DOMAINS SRCU domains at once.
 *
 * Each read enters a random domain (nested extendables: two random ones);
 * a grace period of this type is a grace period of every domain: sync()
 * asks all of them at once (start_poll_synchronize_srcu(), so the
 * srcu_worker drives hundreds of domains side by side) and polls each,
 * exp_sync() runs synchronize_srcu_expedited() on each in turn, call()
 * chains one callback through every domain in order (a grace period of
 * domain i + 1 starts after the one of domain i ended, and each covers the
 * readers its domain had when it was asked), and cb_barrier() runs
 * srcu_barrier() on each in the same order, so a chain in flight is
 * always ahead of it.  With the library's other domains, the ids span two
 * pages of the per-thread counters.  Readers are not registered.
 */
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include "ops_srcu.h"
#include "builtin.h"

#define SRCUM_DOMAINS	300

static struct srcu_struct srcum_dom[SRCUM_DOMAINS];
static __thread unsigned long srcum_rng;	/* per-thread xorshift */

static int srcum_init(void)
{
	int i;

	if (rcut_init())
		return -1;
	for (i = 0; i < SRCUM_DOMAINS; i++)
		if (lrcu_init_srcu_struct(&srcum_dom[i], "srcum")) {
			fprintf(stderr, "srcum: out of memory\n");
			return -1;
		}
	return 0;
}

static int srcum_pick(void)
{
	unsigned long x = srcum_rng ? srcum_rng : (unsigned long)(uintptr_t)&srcum_rng | 1;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	srcum_rng = x;	/* this thread only (a signal handler's pick may repeat one) */
	return (int)(x % SRCUM_DOMAINS);
}

static int srcum_lock(void)
{
	int d = srcum_pick();

	return d << 2 | srcu_read_lock(&srcum_dom[d]);
}

static void srcum_unlock(int v)
{
	srcu_read_unlock(&srcum_dom[v >> 2], v & 3);
}

static void *srcum_deref(void *const *pp)
{
	return srcu_dereference_check(*pp, &srcum_dom[0], 1);	/* some domain is held */
}

static void srcum_sync(void)
{
	unsigned long c[SRCUM_DOMAINS];
	int i;

	for (i = 0; i < SRCUM_DOMAINS; i++)
		c[i] = start_poll_synchronize_srcu(&srcum_dom[i]);
	for (i = 0; i < SRCUM_DOMAINS; i++)
		while (!poll_state_synchronize_srcu(&srcum_dom[i], c[i]))
			sched_yield();
}

static void srcum_exp_sync(void)
{
	int i;

	for (i = 0; i < SRCUM_DOMAINS; i++)
		synchronize_srcu_expedited(&srcum_dom[i]);
}

/* The chain: rcu_space[2] says which domain the callback waits in. */
static void srcum_step(struct rcu_head *h)
{
	struct torture_cb *cb = (struct torture_cb *)(void *)h;
	uintptr_t i = (uintptr_t)cb->rcu_space[2] + 1;

	if (i == SRCUM_DOMAINS) {
		cb->func(cb);
		return;
	}
	cb->rcu_space[2] = (void *)i;
	call_srcu(&srcum_dom[i], h, srcum_step);
}

static void srcum_call(struct torture_cb *cb)
{
	cb->rcu_space[2] = (void *)0;
	call_srcu(&srcum_dom[0], srcut_head(cb), srcum_step);
}

static void srcum_cb_barrier(void)
{
	int i;

	for (i = 0; i < SRCUM_DOMAINS; i++)
		srcu_barrier(&srcum_dom[i]);
}

static unsigned long srcum_gps(void)
{
	return srcu_batches_completed(&srcum_dom[SRCUM_DOMAINS - 1]);	/* every GP covers it */
}

static void srcum_stats(FILE *out)
{
	struct lrcu_srcu_stats st;
	unsigned long gps = 0, open = 0, lo = ULONG_MAX, hi = 0;
	int i;

	for (i = 0; i < SRCUM_DOMAINS; i++) {
		lrcu_srcu_get_stats(&srcum_dom[i], &st);
		gps += st.gps_completed;
		open += st.readers[0] + st.readers[1];
		lo = st.id < lo ? st.id : lo;
		hi = st.id > hi ? st.id : hi;
	}
	fprintf(out, "srcum: %d domains (ids %lu..%lu): %lu grace periods in all, %lu readers "
		"inside now\n", SRCUM_DOMAINS, lo, hi, gps, open);
}

/* One protecting entry, as for srcu (ops_srcu.c). */
static const struct torture_read_flavor srcum_flavors[] = {
	{ "SRCUM_1", srcum_lock, srcum_unlock, 1 },
	{ "SRCUM_2", srcum_lock, srcum_unlock, 0 },
};

const struct torture_ops srcum_ops = {
	SRCUT_BASE,
	.name = "srcum",
	.flags = TORTURE_OPS_IRQ_CAPABLE | TORTURE_OPS_SLEEPABLE,
	.init = srcum_init,
	.readlock = srcum_lock,
	.readunlock = srcum_unlock,
	.dereference = srcum_deref,
	.read_flavors = srcum_flavors,
	.n_read_flavors = 2,
	.gps_completed = srcum_gps,
	.sync = srcum_sync,
	.exp_sync = srcum_exp_sync,
	.call = srcum_call,
	.cb_barrier = srcum_cb_barrier,
	.stats = srcum_stats,
	.gp_state = srcum_stats,
};
