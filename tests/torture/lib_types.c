/* SPDX-License-Identifier: MIT */
/*
 * lib_types.c - the adapters of the other projects' RCUs (torture/ops/:
 * ck-epoch on Concurrency Kit, dpdk-qsbr and dpdk-qsbr-scan on DPDK's
 * rte_rcu_qsbr), one thread at a time, before the harness trusts them:
 * a thread registers, holds a (nested) read-side section; sync() and a
 * call()ed callback wait for it, also after the inner section ends; both
 * complete once it ends (cb_barrier() runs the callback exactly once); a
 * thread registers again after another left.  Each busted variant must
 * fail the same checks, so that they can fail.  A type whose library is
 * not installed is a SKIP naming its Debian package.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <torture/atomic.h>
#include <torture/ops.h>
#include "tap.h"

const struct torture_ops *torture_type_find(const char *name, char *err, size_t len,
					    int *status);

static const struct torture_ops *ops;
static int step;		/* the reader's progress (below), release/acquire */
static int go;			/* main's permission for the reader's next step */
static int sync_done;
static int cb_runs;

enum { R_INSIDE = 1, R_INNER_DONE, R_OUTSIDE };

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Wait (for at most 20 s: a hang, not a timing) until *p >= v. */
static bool wait_for(int *p, int v)
{
	int i;

	for (i = 0; i < 20000; i++) {
		if (smp_load_acquire(p) >= v)	/* pairs with the setters' release */
			return true;
		sleep_ms(1);
	}
	return false;
}

static void *reader(void *arg)
{
	int a, b;

	(void)arg;
	if (ops->thread_register && ops->thread_register()) {
		smp_store_release(&step, -1);	/* main's wait_for() sees it */
		return NULL;
	}
	a = ops->readlock();
	b = ops->readlock();	/* nested */
	smp_store_release(&step, R_INSIDE);	/* pairs with wait_for() */
	wait_for(&go, 1);
	ops->readunlock(b);
	smp_store_release(&step, R_INNER_DONE);	/* pairs with wait_for() */
	wait_for(&go, 2);
	ops->readunlock(a);
	if (ops->flags & TORTURE_OPS_QSBR) {
		ops->quiescent_state();
		ops->thread_offline();
	}
	smp_store_release(&step, R_OUTSIDE);	/* pairs with wait_for() */
	if (ops->thread_unregister)
		ops->thread_unregister();
	return NULL;
}

static void *syncer(void *arg)
{
	(void)arg;
	ops->sync();
	smp_store_release(&sync_done, 1);	/* pairs with the loads in main */
	return NULL;
}

static void cb_func(struct torture_cb *cb)
{
	(void)cb;
	atomic_inc(&cb_runs);
}

static void *registers(void *arg)
{
	int *ok_ = arg;

	*ok_ = ops->thread_register() == 0;
	if (*ok_)
		ops->thread_unregister();
	return NULL;
}

/*
 * One type through the checks; correct: whether it must pass them (a
 * busted type must fail the waits instead).
 */
static void check_type(const char *name, const char *pkg, bool correct)
{
	static struct torture_cb cb;
	pthread_t rt, st, gt;
	char err[256], why[300];
	int status = 0, reg_ok = 0;
	bool early_sync, early_cb, inner_sync;

	ops = torture_type_find(name, err, sizeof(err), &status);
	if (!ops) {
		snprintf(why, sizeof(why), "%s: %s (Debian package %s)", name, err, pkg);
		skip(why);
		return;
	}
	WRITE_ONCE(step, 0);
	WRITE_ONCE(go, 0);
	WRITE_ONCE(sync_done, 0);
	WRITE_ONCE(cb_runs, 0);
	if (!ok(!ops->init || ops->init() == 0, "%s: init", name))
		return;
	pthread_create(&rt, NULL, reader, NULL);
	if (!ok(wait_for(&step, R_INSIDE) && READ_ONCE(step) == R_INSIDE,
		"%s: a thread registers and enters a nested section", name))
		return;
	pthread_create(&st, NULL, syncer, NULL);
	cb.func = cb_func;	/* as torture_call() does */
	ops->call(&cb);
	sleep_ms(100);
	early_sync = smp_load_acquire(&sync_done);	/* pairs with syncer() */
	early_cb = READ_ONCE(cb_runs) != 0;
	smp_store_release(&go, 1);	/* pairs with reader()'s wait_for() */
	wait_for(&step, R_INNER_DONE);
	sleep_ms(50);
	inner_sync = smp_load_acquire(&sync_done);	/* pairs with syncer() */
	if (correct) {
		ok(!early_sync, "%s: sync() waits for the reader's section", name);
		ok(!early_cb, "%s: the callback waits for the reader's section", name);
		ok(!inner_sync, "%s: sync() still waits after the inner section ends", name);
	} else {
		ok(early_sync && early_cb, "%s (deliberately broken): the checks above catch "
		   "its sync() and call() ending before the reader does", name);
	}
	smp_store_release(&go, 2);	/* pairs with reader()'s wait_for() */
	ok(wait_for(&sync_done, 1), "%s: sync() returns once the reader is out", name);
	pthread_join(rt, NULL);
	pthread_join(st, NULL);
	ops->cb_barrier();
	is_long(READ_ONCE(cb_runs), 1, "%s: cb_barrier(): the callback ran, once", name);
	pthread_create(&gt, NULL, registers, &reg_ok);
	pthread_join(gt, NULL);
	ok(reg_ok, "%s: another thread registers after the first left", name);
	if (ops->cleanup)
		ops->cleanup();
}

int main(void)
{
	alarm(120);	/* a hang fails the test instead of stalling make check */
	check_type("ck-epoch", "libck-dev", true);
	check_type("ck-epoch-busted", "libck-dev", false);
	check_type("dpdk-qsbr", "libdpdk-dev", true);
	check_type("dpdk-qsbr-scan", "libdpdk-dev", true);
	check_type("dpdk-qsbr-busted", "libdpdk-dev", false);
	plan(tap_count);
	return tap_failed != 0;
}
