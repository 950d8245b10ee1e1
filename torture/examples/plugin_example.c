/* SPDX-License-Identifier: MIT */
/*
 * plugin_example.c - how to torture your own RCU without rebuilding
 * rcutorture: build a shared object that exports torture_plugin_ops()
 * (see <torture/ops.h>) and run
 *
 *     rcutorture rcutorture.torture_type=lib:./libtorture_example.so
 *
 * The "RCU" here is the simplest correct one there is: readers take a
 * reader-writer lock for reading, a grace period takes it once for
 * writing (every reader that was inside has left), and call_rcu() runs
 * its callbacks on a helper thread after a grace period.  Slow, but
 * correct: the harness must say SUCCESS.  Built by `make` as
 * $(BUILD)/torture/libtorture_example.so.
 *
 * Two things every plugin should copy:
 *  - read_flavors lists the read lock twice, so that the readers nest it
 *    (a read holds one or both entries, and moves between them without a
 *    gap); with a single entry (or none) nesting is never exercised and
 *    rcutorture says so once;
 *  - the read lock nests: only the outermost lock of a thread takes the
 *    rwlock (a writer-preferring rwlock would deadlock on a recursive
 *    read lock while a grace period waits).
 * Without polled grace periods (get_gp_state ...), rcutorture still checks
 * every grace-period wait exactly (torture/oracle.c).
 */
#include <pthread.h>
#include <stdlib.h>
#include <torture/atomic.h>
#include <torture/ops.h>
#include "plugin_cbq.h"

/* Writer-preferring, so that grace periods are not starved by a stream
 * of readers; nesting is counted per thread (read_depth). */
static pthread_rwlock_t gp_lock;
static __thread int read_depth;
static pthread_once_t gp_once = PTHREAD_ONCE_INIT;

static void gp_lock_init(void)
{
	pthread_rwlockattr_t a;

	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&gp_lock, &a);
	pthread_rwlockattr_destroy(&a);
}

static int ex_init(void)
{
	pthread_once(&gp_once, gp_lock_init);
	return 0;
}

static int ex_readlock(void)
{
	if (!read_depth++)
		pthread_rwlock_rdlock(&gp_lock);
	return 0;
}

static void ex_readunlock(int idx)
{
	(void)idx;
	if (!--read_depth)
		pthread_rwlock_unlock(&gp_lock);
}

/* The same lock twice: the readers' extendables nest it. */
static const struct torture_read_flavor ex_flavors[] = {
	{ "RWLOCK_1", ex_readlock, ex_readunlock, 1 },
	{ "RWLOCK_2", ex_readlock, ex_readunlock, 1 },
};

static void *ex_dereference(void *const *pp)
{
	return smp_load_acquire(pp);	/* pairs with the writer's release */
}

static void ex_sync(void)
{
	/* Every reader inside when we asked has left once we get the lock. */
	pthread_rwlock_wrlock(&gp_lock);
	pthread_rwlock_unlock(&gp_lock);
}

/* Callbacks: a queue drained by one thread, a grace period per batch
 * (plugin_cbq.h). */
static struct plugin_cbq cbq = PLUGIN_CBQ(ex_sync, NULL);

static void ex_call(struct torture_cb *cb)
{
	plugin_cbq_call(&cbq, cb);
}

static void ex_barrier(void)
{
	plugin_cbq_barrier(&cbq);
}

static const struct torture_ops example_ops = {
	TORTURE_OPS_HEAD,
	.name = "example-rwlock",
	.init = ex_init,
	.readlock = ex_readlock,
	.readunlock = ex_readunlock,
	.dereference = ex_dereference,
	.read_flavors = ex_flavors,
	.n_read_flavors = 2,
	.sync = ex_sync,
	.call = ex_call,
	.cb_barrier = ex_barrier,
};

const struct torture_ops *torture_plugin_ops(unsigned int core_abi);

const struct torture_ops *torture_plugin_ops(unsigned int core_abi)
{
	return core_abi == TORTURE_OPS_ABI_VERSION ? &example_ops : NULL;
}
