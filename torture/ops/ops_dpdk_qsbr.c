/* SPDX-License-Identifier: MIT */
/*
 * ops_dpdk_qsbr.c - DPDK's RCU QSBR library (rte_rcu_qsbr, Debian
 * libdpdk-dev with librte-rcu) as torture types:
 *
 *   dpdk-qsbr         the library as its users call it: one QS variable (rte_rcu_qsbr_init()) for up to
 *                     DQ_MAX_THREADS threads, one thread id each
 *                     (rte_rcu_qsbr_thread_register() + _online(); the
 *                     harness's "CPU" numbers are the ids), readers
 *                     between quiescent states (rte_rcu_qsbr_quiescent(),
 *                     _offline()/_online() around sleeps; the
 *                     rte_rcu_qsbr_lock()/_unlock() markers around each
 *                     read, which count only in RTE_LIBRTE_RCU_DEBUG
 *                     builds), synchronize rte_rcu_qsbr_synchronize(),
 *                     polled grace periods rte_rcu_qsbr_start() (the
 *                     cookie is its token) and rte_rcu_qsbr_check().
 *   dpdk-qsbr-scan    the same, but every check is the library's full
 *                     scan of the threads' counters (the
 *                     __rte_rcu_qsbr_check_selective() that
 *                     rte_rcu_qsbr_check() falls back to), without
 *                     rte_rcu_qsbr_check()'s shortcut "t <= acked_token",
 *                     and synchronize is rte_rcu_qsbr_synchronize()'s
 *                     steps on that check.  The shortcut is racy in DPDK
 *                     22.11: a check that saw a reader offline can store
 *                     an acked_token newer than the counter that reader
 *                     comes online with meanwhile, and a later check of a
 *                     token taken while that reader is online then returns
 *                     1 at once, before the reader's next quiescent state
 *                     (dpdk-qsbr fails with Reader Pipe, oracle or cookie
 *                     errors within 20 s: scenarios/DPDK-QSBR,
 *                     docs/other-rcus.md).  This
 *                     type tortures the rest of the library's protocol.
 *   dpdk-qsbr-busted  the same readers, but synchronize starts a grace
 *                     period and does not wait for it (no
 *                     rte_rcu_qsbr_check()), and callbacks run at once:
 *                     must end in FAILURE.
 *
 * Callbacks: DPDK's own deferral is its defer queue (rte_rcu_qsbr_dq_*),
 * an experimental API built on rte_ring and rte_zmalloc that needs an
 * initialised EAL (hugepages or --no-huge memory, lcore pinning of the
 * calling thread), and a fixed-size queue of fixed-size elements freed
 * through one function: it cannot carry the harness's callbacks.  So
 * call() is this adapter's own deferral on the library's polled grace
 * periods, the way the defer queue itself works: each callback is queued
 * with the token of rte_rcu_qsbr_start(), and a reclaim thread waits with
 * rte_rcu_qsbr_check(wait=true) for the newest queued token and then runs
 * every callback up to it, in order; cb_barrier() waits until the
 * callbacks queued before it have run.  TORTURE_OPS_CB_ADAPTER says so
 * (rcutorture --list-types=long).
 *
 * Update-side calls work from any thread: rte_rcu_qsbr_synchronize() is
 * given the caller's id only while it is online (then it reports its own
 * quiescent state first), RTE_QSBR_THRID_INVALID otherwise.  A thread
 * that reads without a thread id is not seen by grace periods: readers
 * must register (the harness's readers do; TORTURE_OPS_QSBR).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rte_rcu_qsbr.h>
#include <torture/ops.h>
#include "builtin.h"
#include "cb_thread.h"

#define DQ_MAX_THREADS	128	/* thread ids of the QS variable */

static struct rte_rcu_qsbr *dq_v;	/* the QS variable, allocated once */
static pthread_mutex_t dq_id_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char dq_id_used[DQ_MAX_THREADS];	/* under dq_id_lock */

static __thread unsigned int dq_id = RTE_QSBR_THRID_INVALID;	/* this thread's */
static __thread int dq_online;		/* this thread is online on dq_v */

/* The adapter's callback queue (see the top of the file). */
struct dq_cb {				/* in torture_cb.rcu_space */
	struct torture_cb *next;
	uint64_t token;			/* rte_rcu_qsbr_start() when queued */
	unsigned long seq;		/* queue order, for cb_barrier() */
};
_Static_assert(sizeof(struct dq_cb) <= sizeof(((struct torture_cb *)0)->rcu_space),
	       "struct dq_cb must fit in torture_cb.rcu_space");

static struct cb_thread dq_cbt = CB_THREAD_INIT;	/* the reclaim thread, its lock */
static pthread_cond_t cb_done = PTHREAD_COND_INITIALIZER;	/* cb_done_seq moved */
static struct torture_cb *cb_head, *cb_last;	/* under dq_cbt.lock: the queue */
static unsigned long cb_queued_seq;	/* under dq_cbt.lock: seq of the last queued */
static unsigned long cb_done_seq;	/* under dq_cbt.lock: every seq <= it has run */

static struct dq_cb *dq_cb(struct torture_cb *cb)
{
	return (struct dq_cb *)(void *)cb->rcu_space;
}

static int dq_register_id(unsigned int id)
{
	if (rte_rcu_qsbr_thread_register(dq_v, id))
		return -1;
	dq_id = id;
	rte_rcu_qsbr_thread_online(dq_v, id);
	dq_online = 1;
	return 0;
}

/* Take id (or the lowest free one for id < 0) and register it. */
static int dq_register_as(int id)
{
	int i, ret = -1;

	if (dq_id != RTE_QSBR_THRID_INVALID || id >= DQ_MAX_THREADS)
		return -1;
	pthread_mutex_lock(&dq_id_lock);
	for (i = id < 0 ? 0 : id; i < (id < 0 ? DQ_MAX_THREADS : id + 1); i++) {
		if (dq_id_used[i])
			continue;
		if (dq_register_id((unsigned int)i) == 0) {
			dq_id_used[i] = 1;
			ret = 0;
		}
		break;
	}
	pthread_mutex_unlock(&dq_id_lock);
	return ret;
}

static int dq_register(void) { return dq_register_as(-1); }
static int dq_register_cpu(int cpu) { return dq_register_as(cpu); }
static long dq_capacity(void) { return DQ_MAX_THREADS; }

static void dq_unregister(void)
{
	if (dq_id == RTE_QSBR_THRID_INVALID)
		return;
	rte_rcu_qsbr_thread_offline(dq_v, dq_id);
	dq_online = 0;
	rte_rcu_qsbr_thread_unregister(dq_v, dq_id);
	pthread_mutex_lock(&dq_id_lock);
	dq_id_used[dq_id] = 0;
	pthread_mutex_unlock(&dq_id_lock);
	dq_id = RTE_QSBR_THRID_INVALID;
}

static void dq_online_fn(void)
{
	rte_rcu_qsbr_thread_online(dq_v, dq_id);
	dq_online = 1;
}

static void dq_offline_fn(void)
{
	rte_rcu_qsbr_thread_offline(dq_v, dq_id);
	dq_online = 0;
}

static void dq_qs(void)
{
	rte_rcu_qsbr_quiescent(dq_v, dq_id);
}

static int dq_readlock(void)
{
	rte_rcu_qsbr_lock(dq_v, dq_id);
	return 0;
}

static void dq_readunlock(int idx)
{
	(void)idx;
	rte_rcu_qsbr_unlock(dq_v, dq_id);
}

static void *dq_dereference(void *const *pp)
{
	/* DPDK has no rcu_dereference(): a plain once-load; the address
	 * dependency orders the loads through it after the writer's
	 * publishing release store. */
	return READ_ONCE(*(void **)pp);
}

static TORTURE_READ_SECTION(dq_read_section, dq_readlock, dq_readunlock, dq_dereference)

/* The caller's id if it is online (it reports its own QS), else none. */
static unsigned int dq_self(void)
{
	return dq_online ? dq_id : RTE_QSBR_THRID_INVALID;
}

static int dq_scan;	/* dpdk-qsbr-scan: checks without acked_token */

/* rte_rcu_qsbr_check(), or (dpdk-qsbr-scan) its scan alone. */
static int dq_check(uint64_t t, bool wait)
{
	if (!dq_scan)
		return rte_rcu_qsbr_check(dq_v, t, wait);
	if (dq_v->num_threads == dq_v->max_threads)
		return __rte_rcu_qsbr_check_all(dq_v, t, wait);
	return __rte_rcu_qsbr_check_selective(dq_v, t, wait);
}

static void dq_sync(void)
{
	uint64_t t;

	if (!dq_scan) {
		rte_rcu_qsbr_synchronize(dq_v, dq_self());
		return;
	}
	t = rte_rcu_qsbr_start(dq_v);	/* rte_rcu_qsbr_synchronize()'s steps */
	if (dq_self() != RTE_QSBR_THRID_INVALID)
		rte_rcu_qsbr_quiescent(dq_v, dq_id);
	dq_check(t, true);
}

/* Polled grace periods: the cookie is a token of rte_rcu_qsbr_start(). */
static unsigned long dq_start_poll(void)
{
	return (unsigned long)rte_rcu_qsbr_start(dq_v);
}

static int dq_poll(unsigned long cookie)
{
	return dq_check(cookie, false);
}

static void dq_cond_sync(unsigned long cookie)
{
	if (dq_self() != RTE_QSBR_THRID_INVALID)
		rte_rcu_qsbr_quiescent(dq_v, dq_id);	/* not wait for ourselves */
	dq_check(cookie, true);
}

/* Token 0 is older than any: every thread's counter is past it. */
static unsigned long dq_comp_state(void) { return 0; }

static void dq_call(struct torture_cb *cb)
{
	struct dq_cb *d = dq_cb(cb);

	d->next = NULL;
	pthread_mutex_lock(&dq_cbt.lock);
	d->token = rte_rcu_qsbr_start(dq_v);	/* under the lock: tokens in queue order */
	d->seq = ++cb_queued_seq;
	if (cb_last)
		dq_cb(cb_last)->next = cb;
	else
		cb_head = cb;
	cb_last = cb;
	pthread_cond_signal(&dq_cbt.wake);
	pthread_mutex_unlock(&dq_cbt.lock);
}

/* Wait for the newest queued token, then run everything up to it. */
static void *dq_reclaim_thread(void *arg)
{
	struct torture_cb *batch, *cb, *last;
	uint64_t token;

	(void)arg;
	pthread_mutex_lock(&dq_cbt.lock);
	for (;;) {
		while (!dq_cbt.stop && !cb_head)
			pthread_cond_wait(&dq_cbt.wake, &dq_cbt.lock);
		if (!cb_head)
			break;	/* stop, nothing left */
		last = cb_last;
		token = dq_cb(last)->token;
		pthread_mutex_unlock(&dq_cbt.lock);

		dq_check(token, true);

		pthread_mutex_lock(&dq_cbt.lock);
		batch = cb_head;	/* everything up to last: queued before token */
		cb_head = dq_cb(last)->next;
		if (!cb_head)
			cb_last = NULL;
		dq_cb(last)->next = NULL;
		pthread_mutex_unlock(&dq_cbt.lock);
		for (cb = batch; cb; ) {
			struct torture_cb *next = dq_cb(cb)->next;
			unsigned long seq = dq_cb(cb)->seq;

			cb->func(cb);	/* may call() again: the lock is free */
			pthread_mutex_lock(&dq_cbt.lock);
			cb_done_seq = seq;
			pthread_cond_broadcast(&cb_done);
			pthread_mutex_unlock(&dq_cbt.lock);
			cb = next;
		}
		pthread_mutex_lock(&dq_cbt.lock);
	}
	pthread_mutex_unlock(&dq_cbt.lock);
	return NULL;
}

static void dq_barrier(void)
{
	unsigned long target;

	pthread_mutex_lock(&dq_cbt.lock);
	target = cb_queued_seq;
	while (cb_done_seq < target)	/* in order: one reclaim thread */
		pthread_cond_wait(&cb_done, &dq_cbt.lock);
	pthread_mutex_unlock(&dq_cbt.lock);
}

/* scan: dpdk-qsbr-scan; set before the reclaim thread starts. */
static int dq_setup(int scan)
{
	size_t sz;

	dq_scan = scan;
	if (!dq_v) {
		sz = rte_rcu_qsbr_get_memsize(DQ_MAX_THREADS);
		dq_v = aligned_alloc(RTE_CACHE_LINE_SIZE, sz);
		if (!dq_v || rte_rcu_qsbr_init(dq_v, DQ_MAX_THREADS)) {
			fprintf(stderr, "dpdk-qsbr: cannot set up a QS variable for %d threads\n",
				DQ_MAX_THREADS);
			return -1;
		}
	}
	return cb_thread_start(&dq_cbt, dq_reclaim_thread, "dpdk-qsbr");
}

static int dq_init(void) { return dq_setup(0); }
static int dq_init_scan(void) { return dq_setup(1); }

/* The reclaim thread runs what is still queued, then ends. */
static void dq_cleanup(void)
{
	cb_thread_stop(&dq_cbt);
}

static void dq_gp_state(FILE *out)
{
	rte_rcu_qsbr_dump(out, dq_v);	/* the library's own dump */
}

static void dq_stats(FILE *out)
{
	pthread_mutex_lock(&dq_cbt.lock);
	fprintf(out, "rte_rcu_qsbr: callbacks queued %lu run %lu\n", cb_queued_seq, cb_done_seq);
	pthread_mutex_unlock(&dq_cbt.lock);
}

/* ---- dpdk-qsbr-busted ---- */

static void dq_busted_sync(void)
{
	rte_rcu_qsbr_start(dq_v);	/* BROKEN on purpose: no rte_rcu_qsbr_check() */
}

/* Twice the same marker, so that reads nest it. */
static const struct torture_read_flavor dq_flavors[] = {
	{ "QSBR_1", dq_readlock, dq_readunlock, 1 },
	{ "QSBR_2", dq_readlock, dq_readunlock, 1 },
};

#define DQ_COMMON							\
	TORTURE_OPS_HEAD,						\
	.gp_name = "rte_rcu_qsbr",					\
	.cleanup = dq_cleanup,						\
	.thread_register = dq_register,					\
	.thread_register_cpu = dq_register_cpu,				\
	.thread_capacity = dq_capacity,					\
	.thread_unregister = dq_unregister,				\
	.thread_online = dq_online_fn,					\
	.thread_offline = dq_offline_fn,				\
	.quiescent_state = dq_qs,					\
	.readlock = dq_readlock,					\
	.readunlock = dq_readunlock,					\
	.dereference = dq_dereference,					\
	.read_section = dq_read_section,				\
	.read_flavors = dq_flavors,					\
	.n_read_flavors = 2,						\
	.gp_state = dq_gp_state,					\
	.stats = dq_stats

/* The update side: the library's checks, or (dq_scan) its scans. */
#define DQ_UPDATE							\
	.flags = TORTURE_OPS_QSBR | TORTURE_OPS_CB_ADAPTER,		\
	.sync = dq_sync,						\
	.call = dq_call,						\
	.cb_barrier = dq_barrier,					\
	.get_gp_state = dq_start_poll,					\
	.start_gp_poll = dq_start_poll,					\
	.poll_gp_state = dq_poll,					\
	.cond_sync = dq_cond_sync,					\
	.get_comp_state = dq_comp_state

const struct torture_ops dpdk_qsbr_ops = {
	DQ_COMMON,
	DQ_UPDATE,
	.name = "dpdk-qsbr",
	.init = dq_init,
};

const struct torture_ops dpdk_qsbr_scan_ops = {
	DQ_COMMON,
	DQ_UPDATE,
	.name = "dpdk-qsbr-scan",
	.init = dq_init_scan,
};

const struct torture_ops dpdk_qsbr_busted_ops = {
	DQ_COMMON,
	.name = "dpdk-qsbr-busted",
	.init = dq_init,
	.flags = TORTURE_OPS_QSBR | TORTURE_OPS_BROKEN,
	.sync = dq_busted_sync,
	.call = busted_cb_now,	/* ops_busted.c: the callback at once */
	.cb_barrier = busted_cb_barrier,
};
