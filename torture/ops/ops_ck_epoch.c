/* SPDX-License-Identifier: MIT */
/*
 * ops_ck_epoch.c - Concurrency Kit's epoch-based reclamation (ck_epoch,
 * Debian libck-dev) as torture types:
 *
 *   ck-epoch         the library as its users call it: one record per
 *                    thread (ck_epoch_register(), reused through
 *                    ck_epoch_recycle() after ck_epoch_unregister(): ck
 *                    never frees a record), sections ck_epoch_begin()/
 *                    ck_epoch_end() on the caller's record (they nest: the
 *                    record counts them), synchronize ck_epoch_synchronize(),
 *                    callbacks ck_epoch_call() + ck_epoch_poll(), barrier
 *                    ck_epoch_barrier().
 *   ck-epoch-busted  the same readers, but synchronize returns at once and
 *                    callbacks run at once: must end in FAILURE.
 *
 * Registration: ck_epoch_register() may be called from any thread at any
 * time, so a thread that reads without having registered gets its record
 * on its first section (and gives it back at exit, through a thread-key
 * destructor); the harness's own thread_register() does the same
 * explicitly.  Update-side calls need no record (ck_epoch_synchronize_wait()
 * takes the epoch object).  ck has no extended quiescent state (a thread
 * outside a section holds up nobody), no expedited or polled grace periods
 * with cookies, and no grace-period counter: those hooks are NULL.
 *
 * Callbacks: ck_epoch_call() and ck_epoch_poll() work on one record, which
 * ck expects one thread to own (ck_epoch_call_strict() allows concurrent
 * producers, but ck_epoch_poll() on a record others push to can run a
 * callback queued after its scan).  The harness calls call() from many
 * threads and cb_barrier() from yet another, so the adapter keeps one
 * callback record, owned in turn by whoever holds its lock: call()
 * (ck_epoch_call()), a reclaim thread (ck_epoch_poll(), then
 * ck_epoch_synchronize_wait() outside the lock to move the epoch on while
 * callbacks wait) and cb_barrier() (ck_epoch_barrier()).  A callback that
 * calls call() runs on the owning thread: its re-post is held back until
 * the dispatch is over (ck_epoch_reclaim() would otherwise run it at once
 * if it lands in a bucket not yet visited), then queued normally.
 * cb_barrier() holds the lock through ck_epoch_barrier()'s grace period:
 * a call() from inside a section would wait for it, and it for that
 * section, so call() must not be made inside a section (the harness's
 * are not, outside the uniprocessor mode ck-epoch does not have).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ck_epoch.h>
#include <torture/ops.h>
#include "builtin.h"
#include "cb_thread.h"

_Static_assert(sizeof(ck_epoch_entry_t) <= sizeof(((struct torture_cb *)0)->rcu_space),
	       "ck_epoch_entry_t must fit in torture_cb.rcu_space");

static ck_epoch_t ck_ep;		/* the epoch object: every record's global */
static int ck_ep_ready;			/* ck_ep and ck_cbrec initialised (once) */
static pthread_once_t ck_once = PTHREAD_ONCE_INIT;
static pthread_key_t ck_key;		/* thread -> its record, for the exit destructor */

static __thread ck_epoch_record_t *ck_rec;	/* this thread's record, or NULL */

/* The callback record and its owner's lock (see the top of the file). */
static ck_epoch_record_t ck_cbrec;	/* under ck_cbt.lock */
static struct cb_thread ck_cbt = CB_THREAD_INIT;	/* the reclaim thread */
static __thread int cb_dispatching;	/* this thread runs callbacks under the lock */
static __thread struct torture_cb *cb_held;	/* re-posts held back meanwhile */

/* The record a thread exits with goes back to ck for ck_epoch_recycle(). */
static void ck_thread_exit(void *rec)
{
	ck_epoch_unregister(rec);
}

static void ck_once_init(void)
{
	ck_epoch_init(&ck_ep);
	ck_epoch_register(&ck_ep, &ck_cbrec, NULL);
	if (pthread_key_create(&ck_key, ck_thread_exit) == 0)
		ck_ep_ready = 1;
}

static int ck_register(void)
{
	ck_epoch_record_t *r;

	if (ck_rec)
		return 0;
	r = ck_epoch_recycle(&ck_ep, NULL);
	if (!r) {
		/* ck never frees a record: it stays on ck_ep's list for reuse. */
		r = aligned_alloc(CK_MD_CACHELINE, sizeof(*r));
		if (!r)
			return -1;
		memset(r, 0, sizeof(*r));
		ck_epoch_register(&ck_ep, r, NULL);
	}
	ck_rec = r;
	pthread_setspecific(ck_key, r);
	return 0;
}

static void ck_unregister(void)
{
	if (!ck_rec)
		return;
	pthread_setspecific(ck_key, NULL);
	ck_epoch_unregister(ck_rec);
	ck_rec = NULL;
}

static int ck_readlock(void)
{
	if (__builtin_expect(!ck_rec, 0) && ck_register())
		abort();	/* out of memory: no section can be entered */
	ck_epoch_begin(ck_rec, NULL);
	return 0;
}

static void ck_readunlock(int idx)
{
	(void)idx;
	ck_epoch_end(ck_rec, NULL);
}

static void *ck_dereference(void *const *pp)
{
	/* ck's own load; ck_epoch_begin()'s full fence orders it after the
	 * record's activation, the address dependency orders what follows. */
	return ck_pr_load_ptr(pp);
}

static TORTURE_READ_SECTION(ck_read_section, ck_readlock, ck_readunlock, ck_dereference)

static void ck_sync(void)
{
	ck_epoch_synchronize_wait(&ck_ep, NULL, NULL);
}

/* The torture_cb's rcu_space holds ck's entry. */
static void ck_cb(ck_epoch_entry_t *e)
{
	struct torture_cb *cb = (struct torture_cb *)(void *)e;

	cb->func(cb);
}

static void ck_call(struct torture_cb *cb)
{
	if (cb_dispatching) {	/* from a callback: after this dispatch */
		cb->rcu_space[0] = cb_held;
		cb_held = cb;
		return;
	}
	pthread_mutex_lock(&ck_cbt.lock);
	if (ck_cbrec.n_pending == 0)
		pthread_cond_signal(&ck_cbt.wake);
	ck_epoch_call(&ck_cbrec, (ck_epoch_entry_t *)(void *)cb->rcu_space, ck_cb);
	pthread_mutex_unlock(&ck_cbt.lock);
}

/* With ck_cbt.lock held: one of ck's dispatching calls, then the re-posts. */
static void ck_dispatch(void (*fn)(ck_epoch_record_t *))
{
	struct torture_cb *cb;

	cb_dispatching = 1;
	fn(&ck_cbrec);
	cb_dispatching = 0;
	while ((cb = cb_held)) {
		cb_held = cb->rcu_space[0];
		ck_epoch_call(&ck_cbrec, (ck_epoch_entry_t *)(void *)cb->rcu_space, ck_cb);
	}
}

static void ck_poll(ck_epoch_record_t *r)
{
	ck_epoch_poll(r);
}

static void *ck_reclaim_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&ck_cbt.lock);
	for (;;) {
		while (!ck_cbt.stop && ck_cbrec.n_pending == 0)
			pthread_cond_wait(&ck_cbt.wake, &ck_cbt.lock);
		if (ck_cbrec.n_pending == 0)
			break;	/* stop, nothing left */
		ck_dispatch(ck_poll);
		if (ck_cbrec.n_pending == 0)
			continue;
		/* Still waiting: move the epoch on without the lock. */
		pthread_mutex_unlock(&ck_cbt.lock);
		ck_epoch_synchronize_wait(&ck_ep, NULL, NULL);
		pthread_mutex_lock(&ck_cbt.lock);
	}
	pthread_mutex_unlock(&ck_cbt.lock);
	return NULL;
}

static void ck_barrier(void)
{
	pthread_mutex_lock(&ck_cbt.lock);
	ck_dispatch(ck_epoch_barrier);
	pthread_mutex_unlock(&ck_cbt.lock);
}

static int ck_init(void)
{
	pthread_once(&ck_once, ck_once_init);
	if (!ck_ep_ready) {
		fprintf(stderr, "ck-epoch: pthread_key_create failed\n");
		return -1;
	}
	return cb_thread_start(&ck_cbt, ck_reclaim_thread, "ck-epoch");
}

/* The reclaim thread runs what is still queued, then ends. */
static void ck_cleanup(void)
{
	cb_thread_stop(&ck_cbt);
}

static void ck_stats(FILE *out)
{
	pthread_mutex_lock(&ck_cbt.lock);
	fprintf(out, "ck_epoch: epoch %u callbacks pending %u dispatched %u peak %u\n",
		ck_epoch_value(&ck_ep), ck_cbrec.n_pending, ck_cbrec.n_dispatch,
		ck_cbrec.n_peak);
	pthread_mutex_unlock(&ck_cbt.lock);
}

/* ---- ck-epoch-busted ---- */

static void ck_busted_sync(void)
{
	/* BROKEN on purpose: no ck_epoch_synchronize(). */
}

/* Twice the same section, so that reads nest it. */
static const struct torture_read_flavor ck_flavors[] = {
	{ "EPOCH_1", ck_readlock, ck_readunlock, 1 },
	{ "EPOCH_2", ck_readlock, ck_readunlock, 1 },
};

#define CK_COMMON							\
	TORTURE_OPS_HEAD,						\
	.gp_name = "ck_epoch",						\
	.init = ck_init,						\
	.cleanup = ck_cleanup,						\
	.thread_register = ck_register,					\
	.thread_unregister = ck_unregister,				\
	.readlock = ck_readlock,					\
	.readunlock = ck_readunlock,					\
	.dereference = ck_dereference,					\
	.read_section = ck_read_section,				\
	.read_flavors = ck_flavors,					\
	.n_read_flavors = 2,						\
	.stats = ck_stats

const struct torture_ops ck_epoch_ops = {
	CK_COMMON,
	.name = "ck-epoch",
	.sync = ck_sync,
	.call = ck_call,
	.cb_barrier = ck_barrier,
};

const struct torture_ops ck_epoch_busted_ops = {
	CK_COMMON,
	.name = "ck-epoch-busted",
	.flags = TORTURE_OPS_BROKEN,
	.sync = ck_busted_sync,
	.call = busted_cb_now,	/* ops_busted.c: the callback at once */
	.cb_barrier = busted_cb_barrier,
};
