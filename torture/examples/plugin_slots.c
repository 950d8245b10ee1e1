/* SPDX-License-Identifier: MIT */
/*
 * plugin_slots.c - a plugin RCU that allocates its own reader slots, as
 * most hand-written RCUs do (liburcu's registry, a per-thread array):
 *
 *     rcutorture rcutorture.torture_type=lib:./libtorture_slots.so
 *
 * A registering thread takes the lowest free slot.  The outermost read
 * lock stores the grace-period counter it sampled, marked "inside", into
 * the slot and fences; the outermost unlock stores 0 with release.  A
 * grace period advances the counter, fences, and waits for every slot
 * up to the highest ever used that shows a section begun before the
 * advance.  call() queues to a thread that takes the whole queue, waits
 * for one grace period that starts after it, and runs the batch
 * (plugin_cbq.h, shared with plugin_example.c).
 * Update-side threads register too (TORTURE_OPS_UPDATERS_REGISTER), so
 * where the harness puts its readers among the slots matters: the point
 * of this plugin.
 *
 * Built by `make` three times: correct ($(BUILD)/torture/
 * libtorture_slots.so), and with one deliberate bug each, for
 * bin/mutation.sh --plugins (configs/mutation-plugins.bugs):
 *  - SLOTS_BUG_SKIP_HIGHEST (libtorture_slots_skip_highest.so): a grace
 *    period does not wait for the highest registered slot;
 *  - SLOTS_BUG_RIDE_GP (libtorture_slots_ride_gp.so): a callback queued
 *    while the callback thread waits for a grace period is run at the end
 *    of that grace period, which may have started before call().
 * Both survive a harness whose readers always hold the same slots and
 * whose helpers always register after them; rcutorture varies that
 * (torture/regorder.c).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <torture/atomic.h>
#include <torture/ops.h>
#include "plugin_cbq.h"

#define SLOTS	256

struct slot {
	int used;		/* taken by a registered thread */
	unsigned long word;	/* 0: outside; else the counter sampled | 1 */
} __attribute__((aligned(64)));

static struct slot slots[SLOTS];
static int slots_hwm;			/* highest slot ever used + 1 */
static unsigned long gp_ctr = 2;	/* even: advanced by 2 per grace period */
static pthread_mutex_t gp_mutex = PTHREAD_MUTEX_INITIALIZER;
static __thread int my_slot = -1;
static __thread int depth;

static int sl_register(void)
{
	int i, expect;

	for (i = 0; i < SLOTS; i++) {
		expect = 0;
		/* Fully ordered: pairs with sl_unregister()'s release. */
		if (try_cmpxchg(&slots[i].used, &expect, 1)) {
			my_slot = i;
			expect = READ_ONCE(slots_hwm);
			while (expect < i + 1 &&
			       !try_cmpxchg(&slots_hwm, &expect, i + 1))	/* fully ordered */
				;
			return 0;
		}
	}
	return -1;
}

static void sl_unregister(void)
{
	if (my_slot < 0)
		return;
	WRITE_ONCE(slots[my_slot].word, 0);	/* outside (the release below orders it) */
	smp_store_release(&slots[my_slot].used, 0);	/* pairs with sl_register()'s cmpxchg */
	my_slot = -1;
}

static int sl_readlock(void)
{
	if (my_slot < 0)
		abort();	/* the harness reads on registered threads only */
	if (!depth++) {
		/* Acquire pairs with the grace period's release of the
		 * counter: a section that sees the new value sees the
		 * removals made before it. */
		unsigned long c = smp_load_acquire(&gp_ctr);

		WRITE_ONCE(slots[my_slot].word, c | 1);
		/* The section's loads after the store; pairs with the
		 * grace period's smp_mb() between counter and slot loads. */
		smp_mb();
	}
	return 0;
}

static void sl_readunlock(int idx)
{
	(void)idx;
	if (!--depth)
		/* Release: the section's loads are done before the slot
		 * says outside; pairs with the grace period's acquire. */
		smp_store_release(&slots[my_slot].word, 0);
}

static const struct torture_read_flavor sl_flavors[] = {
	{ "SLOT_1", sl_readlock, sl_readunlock, 1 },
	{ "SLOT_2", sl_readlock, sl_readunlock, 1 },
};

static void *sl_dereference(void *const *pp)
{
	return smp_load_acquire(pp);	/* pairs with the writer's release */
}

static void sl_sync(void)
{
	unsigned long c, w;
	int i, n, highest = -1;

	pthread_mutex_lock(&gp_mutex);
	c = READ_ONCE(gp_ctr) + 2;
	smp_store_release(&gp_ctr, c);	/* removals before; pairs with sl_readlock() */
	smp_mb();	/* counter before the slot loads; pairs with sl_readlock()'s */
	n = smp_load_acquire(&slots_hwm);	/* pairs with sl_register()'s cmpxchg */
#ifdef SLOTS_BUG_SKIP_HIGHEST
	for (i = 0; i < n; i++)
		if (READ_ONCE(slots[i].used))
			highest = i;
#endif
	for (i = 0; i < n; i++) {
		if (i == highest)
			continue;	/* SLOTS_BUG_SKIP_HIGHEST */
		/* Acquire pairs with sl_readunlock()'s release. */
		while ((w = smp_load_acquire(&slots[i].word)) && w != (c | 1))
			sched_yield();
	}
	pthread_mutex_unlock(&gp_mutex);
}

/* ------------------------------------------------------------------ */
/* Callbacks: a queue drained by one thread, a grace period per batch
 * (plugin_cbq.h). */

#ifdef SLOTS_BUG_RIDE_GP
/* BUG: the callbacks queued during the grace period ride it. */
static unsigned long ride_gp(struct plugin_cbq *q)
{
	return plugin_cbq_run(plugin_cbq_take(q));
}
static struct plugin_cbq cbq = PLUGIN_CBQ(sl_sync, ride_gp);
#else
static struct plugin_cbq cbq = PLUGIN_CBQ(sl_sync, NULL);
#endif

static void sl_call(struct torture_cb *cb)
{
	plugin_cbq_call(&cbq, cb);
}

static void sl_barrier(void)
{
	plugin_cbq_barrier(&cbq);
}

static const struct torture_ops slots_ops = {
	TORTURE_OPS_HEAD,
#if defined(SLOTS_BUG_SKIP_HIGHEST)
	.name = "slots-skip-highest",
#elif defined(SLOTS_BUG_RIDE_GP)
	.name = "slots-ride-gp",
#else
	.name = "slots",
#endif
	.flags = TORTURE_OPS_UPDATERS_REGISTER,
	.thread_register = sl_register,
	.thread_unregister = sl_unregister,
	.readlock = sl_readlock,
	.readunlock = sl_readunlock,
	.dereference = sl_dereference,
	.read_flavors = sl_flavors,
	.n_read_flavors = 2,
	.sync = sl_sync,
	.call = sl_call,
	.cb_barrier = sl_barrier,
};

const struct torture_ops *torture_plugin_ops(unsigned int core_abi);

const struct torture_ops *torture_plugin_ops(unsigned int core_abi)
{
	return core_abi == TORTURE_OPS_ABI_VERSION ? &slots_ops : NULL;
}
